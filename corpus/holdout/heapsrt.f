C     ------------------------------------------------------------------
C     HEAPSRT: in-place heap sort of pseudo-random REAL arrays of
C     several sizes, from L1-resident (1 000 elements) to larger than
C     4 MB (1 200 000 elements), each repeated several times with fresh
C     data.  Checks: result non-decreasing and the multiset unchanged
C     (order-independent integer fingerprints before and after).
C     ------------------------------------------------------------------
      PROGRAM HEAPST
      IMPLICIT NONE
      INTEGER NMAX, NSIZE, NREP
      PARAMETER (NMAX = 1200000, NSIZE = 4, NREP = 1)
      REAL A(NMAX)
      INTEGER NS(NSIZE), NRPT(NSIZE)
      INTEGER IS, IR, I, N, S, IREP
      INTEGER*8 FP1, FP2, FQ1, FQ2, GSUM, IV, PR8, N8
      PARAMETER (PR8 = 1000003)
      DOUBLE PRECISION MEDSUM
      LOGICAL OK
      DATA NS   /1000, 8000, 150000, 1200000/
      DATA NRPT /2000, 250, 15, 4/
C
      OK = .TRUE.
C     the whole benchmark is redone NREP times from the same seed
      DO 110 IREP = 1, NREP
         S = 20240601
         GSUM = 0
         MEDSUM = 0.0D0
         DO 100 IS = 1, NSIZE
            N = NS(IS)
            DO 90 IR = 1, NRPT(IS)
C              fill with uniform values in (0,1) and fingerprint
               FP1 = 0
               FQ1 = 0
               DO 10 I = 1, N
                  CALL PMRAND(S)
                  A(I) = REAL(S)*4.656613E-10
                  IV = INT(A(I)*16777216.0)
                  FP1 = FP1 + IV
                  FQ1 = FQ1 + MOD(IV*IV, PR8)
   10          CONTINUE
C
               CALL HSORT(N, A)
C
               FP2 = 0
               FQ2 = 0
               DO 20 I = 1, N
                  IV = INT(A(I)*16777216.0)
                  FP2 = FP2 + IV
                  FQ2 = FQ2 + MOD(IV*IV, PR8)
   20          CONTINUE
               DO 25 I = 2, N
                  IF (A(I) .LT. A(I-1)) OK = .FALSE.
   25          CONTINUE
               IF (FP1 .NE. FP2 .OR. FQ1 .NE. FQ2) OK = .FALSE.
               N8 = N
               GSUM = GSUM + FP2/N8
               MEDSUM = MEDSUM + DBLE(A(N/2+1))
   90       CONTINUE
            IF (IREP .EQ. NREP) THEN
               WRITE(*,'(A,I8,A,F10.7,A,F10.7,A,F10.7)') ' N=', N,
     &              ' MIN', A(1), ' MED', A(N/2+1), ' MAX', A(N)
            END IF
  100    CONTINUE
  110 CONTINUE
C
      WRITE(*,'(A,I14)') 'CHECKSUM HEAPSRT MEANSUM ', GSUM
      WRITE(*,'(A,F16.8)') 'CHECKSUM HEAPSRT MEDSUM ', MEDSUM
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK HEAPSRT PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK HEAPSRT FAIL'
      END IF
      END
C
C     ------------------------------------------------------------------
C     Park-Miller minimal standard step (Schrage's method).
C     ------------------------------------------------------------------
      SUBROUTINE PMRAND(S)
      IMPLICIT NONE
      INTEGER S
      INTEGER A, M, Q, R, HI, LO
      PARAMETER (A = 16807, M = 2147483647, Q = 127773, R = 2836)
      HI = S/Q
      LO = MOD(S,Q)
      S = A*LO - R*HI
      IF (S .LE. 0) S = S + M
      RETURN
      END
C
C     ------------------------------------------------------------------
C     Heap sort: build a max-heap bottom-up, then repeatedly swap the
C     root to the end and sift the new root down.
C     ------------------------------------------------------------------
      SUBROUTINE HSORT(N, A)
      IMPLICIT NONE
      INTEGER N
      REAL A(N)
      INTEGER K, LAST
      REAL T
      IF (N .LT. 2) RETURN
      DO 10 K = N/2, 1, -1
         CALL SIFT(A, K, N)
   10 CONTINUE
      DO 20 LAST = N, 2, -1
         T = A(1)
         A(1) = A(LAST)
         A(LAST) = T
         CALL SIFT(A, 1, LAST-1)
   20 CONTINUE
      RETURN
      END
C
C     Sift element at position K down within heap A(1..M).
      SUBROUTINE SIFT(A, K, M)
      IMPLICIT NONE
      INTEGER K, M
      REAL A(M)
      INTEGER I, J
      REAL V
      V = A(K)
      I = K
   10 CONTINUE
      J = 2*I
      IF (J .GT. M) GO TO 20
      IF (J .LT. M) THEN
         IF (A(J+1) .GT. A(J)) J = J + 1
      END IF
      IF (A(J) .LE. V) GO TO 20
      A(I) = A(J)
      I = J
      GO TO 10
   20 CONTINUE
      A(I) = V
      RETURN
      END
