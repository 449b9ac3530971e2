C=======================================================================
C     PRECMIX: MIXED REAL*4 / REAL*8 KERNELS.
C       A. DOT PRODUCT OF A REAL*4 AND A REAL*8 VECTOR (REAL*8 SUM)
C       B. AXPY IN REAL*8 (WITH REAL*4 X) AND IN REAL*4 (WITH A REAL*8
C          SCALAR CONVERTED BY REAL())
C       C. HORNER EVALUATION OF A TRUNCATED EXP SERIES IN BOTH
C          PRECISIONS, PLUS AN INTEGER-COEFFICIENT POLYNOMIAL
C       D. PERMUTED GATHER WITH MOD / INTEGER-DIVISION INDEXING AND
C          INT / NINT ROUNDING COUNTS
C     DATA ARE CHOSEN SO THAT A, B, D ARE EXACT IN FLOATING POINT AND
C     CAN BE COMPARED WITH CLOSED FORMS; C IS CHECKED AGAINST EXP.
C=======================================================================
      PROGRAM MIXPRC
      IMPLICIT NONE
      INTEGER N, M, K, NREP, NDEG, NP, NC, ISTEP
      PARAMETER (M=256, K=256, N=M*K, NREP=1200, NDEG=16, NP=4001)
      PARAMETER (NC=100, ISTEP=4099)
      REAL X4(N), Y4(N), C4(0:NDEG)
      DOUBLE PRECISION Y8(N), Z8(N), C8(0:NDEG), Y8INI(N)
      INTEGER IR, I, J, L, IDX, IROW, ICOL, NBAD, NRND, NRND4
      INTEGER IX, IEXP, IP8
      DOUBLE PRECISION DOT, DTOT, DEXACT, A8, S, XX, P8, E8, ERR8
      DOUBLE PRECISION ERR4, GSUM, XSUM, RSUM, HSUM
      REAL A4, X, P4
      DOUBLE PRECISION DDOT48, HORN8
      REAL HORN4
      LOGICAL OK
      EXTERNAL DDOT48, HORN8, HORN4
C
      OK = .TRUE.
C     ---- SET UP DATA: X4 = MOD(I-1,M), Y8 = (I-1)/M + 0.5 ----
      DO 10 I = 1, N
         X4(I) = REAL(MOD(I-1, M))
         Y8INI(I) = DBLE((I-1)/M) + 0.5D0
         Y8(I) = Y8INI(I)
         Y4(I) = REAL(Y8INI(I))
   10 CONTINUE
C     TAYLOR COEFFICIENTS 1/J!
      C8(0) = 1.0D0
      DO 20 J = 1, NDEG
         C8(J) = C8(J-1) / DBLE(J)
   20 CONTINUE
      DO 25 J = 0, NDEG
         C4(J) = REAL(C8(J))
   25 CONTINUE
C
      DTOT = 0.0D0
      A8 = 0.5D0
      A4 = REAL(A8)
      GSUM = 0.0D0
      ERR8 = 0.0D0
      ERR4 = 0.0D0
      HSUM = 0.0D0
      NRND = 0
      NRND4 = 0
      DO 100 IR = 1, NREP
C        ---- A: DOT WITH THE ORIGINAL Y (RESTORED FROM Y8INI) ----
         DOT = DDOT48(N, X4, Y8INI)
         DTOT = DTOT + DOT
C        ---- B: AXPYS ----
         CALL AXPY84(N, A8, X4, Y8)
         CALL AXPY44(N, A4, X4, Y4)
C        ---- D: PERMUTED GATHER (ISTEP ODD, N A POWER OF TWO) ----
         DO 40 I = 1, N
            IDX = MOD((I-1)*ISTEP + IR, N) + 1
            Z8(I) = DBLE(X4(IDX))
   40    CONTINUE
         S = 0.0D0
         DO 45 L = 1, N
            IROW = (L-1)/NC + 1
            ICOL = L - (IROW-1)*NC
            S = S + Z8(L)*DBLE(MOD(ICOL, 2))
   45    CONTINUE
         GSUM = GSUM + S
C        INT VERSUS NINT ON QUARTER VALUES
         DO 50 I = 1, N
            XX = DBLE(I) / 4.0D0
            IF (NINT(XX) .NE. INT(XX)) NRND = NRND + 1
            X = REAL(I) * 0.25
            IF (NINT(X) .NE. INT(X)) NRND4 = NRND4 + 1
   50    CONTINUE
C        ---- C: HORNER ON [-1,1] ----
         DO 60 J = 1, NP
            XX = -1.0D0 + 2.0D0*DBLE(J-1)/DBLE(NP-1)
            P8 = HORN8(C8, NDEG, XX)
            P4 = HORN4(C4, NDEG, REAL(XX))
            E8 = EXP(XX)
            ERR8 = MAX(ERR8, ABS(P8 - E8) / E8)
            ERR4 = MAX(ERR4, ABS(DBLE(P4) - E8) / E8)
            HSUM = HSUM + P8 + DBLE(P4)
   60    CONTINUE
  100 CONTINUE
C
C     ---- CHECK A: SUM_R SUM_Q (Q+1/2) = R*(M-1)M/2 * K*K/2 ----
      DEXACT = DBLE(NREP) * (DBLE(M)*DBLE(M-1)/2.0D0)
     &       * (DBLE(K)*DBLE(K)/2.0D0)
      WRITE(*,'(A,F22.2)') 'CHECKSUM PRECMIX DOT ', DTOT
      IF (DTOT .NE. DEXACT) OK = .FALSE.
C
C     ---- CHECK B: Y = Y0 + NREP*A*X EXACTLY, IN BOTH PRECISIONS ----
      NBAD = 0
      XSUM = 0.0D0
      DO 110 I = 1, N
         S = Y8INI(I) + DBLE(NREP)*A8*DBLE(X4(I))
         IF (Y8(I) .NE. S) NBAD = NBAD + 1
         IF (DBLE(Y4(I)) .NE. Y8(I)) NBAD = NBAD + 1
         XSUM = XSUM + Y8(I)
  110 CONTINUE
      WRITE(*,'(A,F22.2)') 'CHECKSUM PRECMIX AXPY ', XSUM
      IF (NBAD .NE. 0) OK = .FALSE.
C
C     ---- CHECK D: GATHER SUM OVER ODD COLUMNS ----
C     PERMUTATION MAKES Z8 A SHUFFLE OF X4; SUM OVER ODD ICOL ONLY IS
C     DATA DEPENDENT, SO CHECK THE FULL SUM SEPARATELY (LAST REP).
      RSUM = 0.0D0
      S = 0.0D0
      DO 120 I = 1, N
         RSUM = RSUM + Z8(I)
         S = S + DBLE(X4(I))
  120 CONTINUE
      WRITE(*,'(A,F22.2)') 'CHECKSUM PRECMIX GATHER ', GSUM
      IF (RSUM .NE. S) OK = .FALSE.
      IF (S .NE. DBLE(K)*DBLE(M)*DBLE(M-1)/2.0D0) OK = .FALSE.
C     QUARTER VALUES: FRACTION .5 OR .75 ROUND UP -> HALF OF ALL I
      WRITE(*,'(A,2I10)') 'CHECKSUM PRECMIX NINT ', NRND, NRND4
      IF (NRND .NE. NREP*(N/2) .OR. NRND4 .NE. NRND) OK = .FALSE.
C
C     ---- CHECK C: HORNER ACCURACY ----
      WRITE(*,'(A,1P2E12.4)') 'CHECKSUM PRECMIX HORNERR ', ERR8, ERR4
      WRITE(*,'(A,F22.8)') 'CHECKSUM PRECMIX HORNSUM ', HSUM
      IF (ERR8 .GT. 3.0D-14) OK = .FALSE.
      IF (ERR4 .GT. 5.0D-6) OK = .FALSE.
C     INTEGER POLYNOMIAL (X-3)**4 = X^4 -12X^3 +54X^2 -108X +81
      DO 130 IX = -20, 20
         P8 = 1.0D0
         P8 = P8*DBLE(IX) - 12.0D0
         P8 = P8*DBLE(IX) + 54.0D0
         P8 = P8*DBLE(IX) - 108.0D0
         P8 = P8*DBLE(IX) + 81.0D0
         IP8 = NINT(P8)
         IEXP = (IX - 3)**4
         IF (IP8 .NE. IEXP) OK = .FALSE.
  130 CONTINUE
C
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK PRECMIX PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK PRECMIX FAIL'
      ENDIF
      END
C
C-----------------------------------------------------------------------
      DOUBLE PRECISION FUNCTION DDOT48(N, X4, Y8)
      IMPLICIT NONE
      INTEGER N, I
      REAL X4(*)
      DOUBLE PRECISION Y8(*)
      DDOT48 = 0.0D0
      DO 10 I = 1, N
         DDOT48 = DDOT48 + DBLE(X4(I))*Y8(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE AXPY84(N, A, X4, Y8)
      IMPLICIT NONE
      INTEGER N, I
      DOUBLE PRECISION A, Y8(*)
      REAL X4(*)
      DO 10 I = 1, N
         Y8(I) = Y8(I) + A*X4(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE AXPY44(N, A, X4, Y4)
      IMPLICIT NONE
      INTEGER N, I
      REAL A, X4(*), Y4(*)
      DO 10 I = 1, N
         Y4(I) = Y4(I) + A*X4(I)
   10 CONTINUE
      RETURN
      END
C
      DOUBLE PRECISION FUNCTION HORN8(C, ND, X)
      IMPLICIT NONE
      INTEGER ND, J
      DOUBLE PRECISION C(0:ND), X
      HORN8 = C(ND)
      DO 10 J = ND - 1, 0, -1
         HORN8 = HORN8*X + C(J)
   10 CONTINUE
      RETURN
      END
C
      REAL FUNCTION HORN4(C, ND, X)
      IMPLICIT NONE
      INTEGER ND, J
      REAL C(0:ND), X
      HORN4 = C(ND)
      DO 10 J = ND - 1, 0, -1
         HORN4 = HORN4*X + C(J)
   10 CONTINUE
      RETURN
      END
