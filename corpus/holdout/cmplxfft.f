C     ------------------------------------------------------------------
C     CMPLXFFT: iterative radix-2 decimation-in-time complex FFT in
C     COMPLEX*16.  Bit-reversal permutation, twiddle table from COS/SIN,
C     forward transform followed by the inverse.  Checks: round-trip
C     error, Parseval identity, and the exact spectrum of a pure tone.
C     ------------------------------------------------------------------
      PROGRAM CFFT
      IMPLICIT NONE
      INTEGER NMAX, NSIZE, NREP
      PARAMETER (NMAX = 65536, NSIZE = 3, NREP = 40)
      COMPLEX*16 X(NMAX), X0(NMAX), W(NMAX/2)
      INTEGER NS(NSIZE), NPER(NSIZE)
      INTEGER IS, IR, I, N, S, K0
      DOUBLE PRECISION PI, ERR, E1, E2, RTERR, PARERR, TONERR, CSUM
      DOUBLE PRECISION XR, XI, ARG
      LOGICAL OK
      DATA NS   /256, 4096, 65536/
C     size NS(IS) gets NPER(IS)*NREP random round trips
      DATA NPER /400, 20, 1/
C
      PI = 4.0D0*ATAN(1.0D0)
      OK = .TRUE.
      S = 4711
      RTERR = 0.0D0
      PARERR = 0.0D0
      TONERR = 0.0D0
      CSUM = 0.0D0
C
      DO 200 IS = 1, NSIZE
         N = NS(IS)
         CALL TWID(N, W)
C
C        --- pure tone: forward transform is N at bin K0, else 0
         K0 = N/8 + 3
         DO 10 I = 1, N
            ARG = 2.0D0*PI*DBLE(MOD(K0*(I-1),N))/DBLE(N)
            X(I) = DCMPLX(COS(ARG), SIN(ARG))
   10    CONTINUE
         CALL FFT(N, X, W, 1)
         ERR = 0.0D0
         DO 20 I = 1, N
            IF (I-1 .EQ. K0) THEN
               ERR = MAX(ERR, ABS(X(I) - DCMPLX(DBLE(N), 0.0D0)))
            ELSE
               ERR = MAX(ERR, ABS(X(I)))
            END IF
   20    CONTINUE
         ERR = ERR/DBLE(N)
         TONERR = MAX(TONERR, ERR)
C
C        --- random signals: forward, inverse, compare
         DO 100 IR = 1, NPER(IS)*NREP
            E1 = 0.0D0
            DO 30 I = 1, N
               CALL PMRAND(S)
               XR = DBLE(S)/2147483647.0D0 - 0.5D0
               CALL PMRAND(S)
               XI = DBLE(S)/2147483647.0D0 - 0.5D0
               X(I) = DCMPLX(XR, XI)
               X0(I) = X(I)
               E1 = E1 + DBLE(X(I))**2 + DIMAG(X(I))**2
   30       CONTINUE
            CALL FFT(N, X, W, 1)
            E2 = 0.0D0
            DO 40 I = 1, N
               E2 = E2 + DBLE(X(I))**2 + DIMAG(X(I))**2
   40       CONTINUE
            E2 = E2/DBLE(N)
            PARERR = MAX(PARERR, ABS(E2-E1)/E1)
            CSUM = CSUM + ABS(X(1)) + ABS(X(N/2+1))
            CALL FFT(N, X, W, -1)
            ERR = 0.0D0
            DO 50 I = 1, N
               X(I) = X(I)/DBLE(N)
               ERR = MAX(ERR, ABS(X(I)-X0(I)))
   50       CONTINUE
            RTERR = MAX(RTERR, ERR)
  100    CONTINUE
         WRITE(*,'(A,I6,A,1P,E11.3,A,E11.3)') ' N=', N, ' ROUNDTRIP',
     &        ERR, ' PARSEVAL', PARERR
  200 CONTINUE
C
      IF (RTERR .GT. 1.0D-12) OK = .FALSE.
      IF (PARERR .GT. 1.0D-11) OK = .FALSE.
      IF (TONERR .GT. 1.0D-12) OK = .FALSE.
      WRITE(*,'(A,F20.8)') 'CHECKSUM CMPLXFFT SPECSUM ', CSUM
      WRITE(*,'(A,1P,E12.4)') 'CHECKSUM CMPLXFFT ROUNDTRIP ', RTERR
      WRITE(*,'(A,1P,E12.4)') 'CHECKSUM CMPLXFFT TONEERR ', TONERR
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK CMPLXFFT PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK CMPLXFFT FAIL'
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
C     Twiddle table W(K+1) = EXP(-2 PI I K/N), K = 0..N/2-1.
      SUBROUTINE TWID(N, W)
      IMPLICIT NONE
      INTEGER N
      COMPLEX*16 W(N/2)
      INTEGER K
      DOUBLE PRECISION PI, ARG
      PI = 4.0D0*ATAN(1.0D0)
      DO 10 K = 0, N/2-1
         ARG = -2.0D0*PI*DBLE(K)/DBLE(N)
         W(K+1) = DCMPLX(COS(ARG), SIN(ARG))
   10 CONTINUE
      RETURN
      END
C
C     ------------------------------------------------------------------
C     In-place radix-2 FFT.  ISIGN = 1 forward (EXP(-I...)), -1 inverse
C     (unnormalised).  N must be a power of two.
C     ------------------------------------------------------------------
      SUBROUTINE FFT(N, X, W, ISIGN)
      IMPLICIT NONE
      INTEGER N, ISIGN
      COMPLEX*16 X(N), W(N/2)
      COMPLEX*16 T, U, WK
      INTEGER I, J, K, M, L, HALF, STRIDE, JJ
C
C     bit-reversal permutation
      J = 1
      DO 20 I = 1, N-1
         IF (I .LT. J) THEN
            T = X(J)
            X(J) = X(I)
            X(I) = T
         END IF
         M = N/2
   10    CONTINUE
         IF (M .GE. 1 .AND. J .GT. M) THEN
            J = J - M
            M = M/2
            GO TO 10
         END IF
         J = J + M
   20 CONTINUE
C
C     butterflies
      L = 2
   30 CONTINUE
      IF (L .GT. N) RETURN
      HALF = L/2
      STRIDE = N/L
      DO 50 K = 0, HALF-1
         WK = W(K*STRIDE+1)
         IF (ISIGN .LT. 0) WK = DCONJG(WK)
         DO 40 I = K+1, N, L
            JJ = I + HALF
            U = X(I)
            T = WK*X(JJ)
            X(I) = U + T
            X(JJ) = U - T
   40    CONTINUE
   50 CONTINUE
      L = 2*L
      GO TO 30
      END
