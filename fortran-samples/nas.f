C     THE SEVEN NAS KERNELS (SEED 004 SECTION 5.2.1, TABLE 5.2; THE
C     KERNEL BENCHMARK OF BAILEY AND BARTON), WRITTEN FROM THE
C     DESCRIPTION OF EACH KERNEL, IN DOUBLE PRECISION, EACH RUN
C     MULT * IREPS(K) TIMES:
C       1 MXM     MATRIX PRODUCT C = A * B IN OUTER-PRODUCT ORDER
C       2 CFFT2D  2-D COMPLEX FFT (RADIX 2, REAL AND IMAGINARY PARTS
C                 IN SEPARATE ARRAYS), FORWARD AND INVERSE
C       3 CHOLSKY CHOLESKY DECOMPOSITION AND SOLVE
C       4 BTRIS   BLOCK TRIDIAGONAL SOLVE WITH 5 X 5 BLOCKS
C       5 GMTRY   INFLUENCE MATRIX OF POINTS ON AN ELLIPSE AND
C                 GAUSSIAN ELIMINATION WITH PARTIAL PIVOTING
C       6 EMIT    NEW VORTICES FROM THE VELOCITY THAT EXISTING
C                 VORTICES INDUCE AT BOUNDARY POINTS
C       7 VPENTA  THREE PENTADIAGONAL SYSTEMS FOR EACH OF 128
C                 COLUMNS, SOLVED ACROSS THE COLUMNS (UNIT STRIDE)
C     THE LINEAR SOLVERS ARE GIVEN SYSTEMS WITH A KNOWN SOLUTION AND
C     REPORT THEIR LARGEST ERROR.
C
C     OUTPUT (THE ONLY OUTPUT): ONE LINE PER RESULT,
C       CHECKSUM NAS <KERNEL>-<NAME> <VALUE>
C
      PROGRAM NAS
      INTEGER MULT
      PARAMETER (MULT = 100)
      INTEGER IREPS(7), NREP, IREP
      DOUBLE PRECISION CMXM, FERR, FDC, FSUM, FPARS, CERR, BERR, GERR
      DOUBLE PRECISION ESUM, EABS, VERR
      DATA IREPS / 4, 4, 4, 6, 3, 7, 2 /
C
      NREP = MULT * IREPS(1)
      DO 10 IREP = 1, NREP
         CALL MXM(CMXM)
   10 CONTINUE
      NREP = MULT * IREPS(2)
      DO 20 IREP = 1, NREP
         CALL CFFT2D(FERR, FDC, FSUM, FPARS)
   20 CONTINUE
      NREP = MULT * IREPS(3)
      DO 30 IREP = 1, NREP
         CALL CHOLSK(CERR)
   30 CONTINUE
      NREP = MULT * IREPS(4)
      DO 40 IREP = 1, NREP
         CALL BTRIS(BERR)
   40 CONTINUE
      NREP = MULT * IREPS(5)
      DO 50 IREP = 1, NREP
         CALL GMTRY(GERR)
   50 CONTINUE
      NREP = MULT * IREPS(6)
      DO 60 IREP = 1, NREP
         CALL EMIT(ESUM, EABS)
   60 CONTINUE
      NREP = MULT * IREPS(7)
      DO 70 IREP = 1, NREP
         CALL VPENTA(VERR)
   70 CONTINUE
C
      WRITE (*, 100) CMXM
      WRITE (*, 101) FERR, FDC, FSUM, FPARS
      WRITE (*, 102) CERR
      WRITE (*, 103) BERR
      WRITE (*, 104) GERR
      WRITE (*, 105) ESUM, EABS
      WRITE (*, 106) VERR
  100 FORMAT (' CHECKSUM NAS MXM-SUM ', 1PE24.16)
  101 FORMAT (' CHECKSUM NAS CFFT2D-ROUNDTRIP ', 1PE24.16 /
     &        ' CHECKSUM NAS CFFT2D-DC ', 1PE24.16 /
     &        ' CHECKSUM NAS CFFT2D-INSUM ', 1PE24.16 /
     &        ' CHECKSUM NAS CFFT2D-PARSEVAL ', 1PE24.16)
  102 FORMAT (' CHECKSUM NAS CHOLSKY-ERR ', 1PE24.16)
  103 FORMAT (' CHECKSUM NAS BTRIS-ERR ', 1PE24.16)
  104 FORMAT (' CHECKSUM NAS GMTRY-ERR ', 1PE24.16)
  105 FORMAT (' CHECKSUM NAS EMIT-SUM ', 1PE24.16 /
     &        ' CHECKSUM NAS EMIT-ABS ', 1PE24.16)
  106 FORMAT (' CHECKSUM NAS VPENTA-ERR ', 1PE24.16)
      END
C
C     MXM: C = A * B FOR 64 X 64 MATRICES OF SMALL INTEGERS
C     A(I,K) = MOD(I + 2K, 7) - 3, B(K,J) = MOD(3K + J, 5) - 2, SO THE
C     PRODUCT IS EXACT. CMXM = SUM OF (I + 2J) * C(I,J).
C
      SUBROUTINE MXM(CMXM)
      DOUBLE PRECISION CMXM
      INTEGER N
      PARAMETER (N = 64)
      DOUBLE PRECISION A(N, N), B(N, N), C(N, N)
      INTEGER I, J, K
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = DBLE(MOD(I + 2 * J, 7) - 3)
            B(I, J) = DBLE(MOD(3 * I + J, 5) - 2)
            C(I, J) = 0.0D0
   10    CONTINUE
   20 CONTINUE
      DO 50 J = 1, N
         DO 40 K = 1, N
            DO 30 I = 1, N
               C(I, J) = C(I, J) + A(I, K) * B(K, J)
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
      CMXM = 0.0D0
      DO 70 J = 1, N
         DO 60 I = 1, N
            CMXM = CMXM + DBLE(I + 2 * J) * C(I, J)
   60    CONTINUE
   70 CONTINUE
      RETURN
      END
C
C     CFFT2D: THE 64 X 64 INPUT Z(I,J) = COS(0.1 I J) + I SIN(0.2 I + J)
C     IS TRANSFORMED FORWARD (ALONG COLUMNS, THEN ROWS) AND BACK.
C     FERR = MAX ERROR OF THE ROUND TRIP; FDC = REAL PART OF THE ZERO
C     FREQUENCY, FSUM = REAL SUM OF THE INPUT (THE TWO MUST AGREE);
C     FPARS = |SUM |Z|**2 - SUM |F|**2 / N**2| / SUM |Z|**2 (PARSEVAL).
C
      SUBROUTINE CFFT2D(FERR, FDC, FSUM, FPARS)
      DOUBLE PRECISION FERR, FDC, FSUM, FPARS
      INTEGER N
      PARAMETER (N = 64)
      DOUBLE PRECISION ZR(N, N), ZI(N, N), XR(N, N), XI(N, N)
      DOUBLE PRECISION WR(N), WI(N), PI, E1, E2
      INTEGER I, J
      PI = 4.0D0 * DATAN(1.0D0)
      DO 10 I = 1, N
         WR(I) = DCOS(2.0D0 * PI * DBLE(I - 1) / DBLE(N))
         WI(I) = DSIN(2.0D0 * PI * DBLE(I - 1) / DBLE(N))
   10 CONTINUE
      FSUM = 0.0D0
      E1 = 0.0D0
      DO 30 J = 1, N
         DO 20 I = 1, N
            ZR(I, J) = DCOS(0.1D0 * DBLE(I * J))
            ZI(I, J) = DSIN(0.2D0 * DBLE(I) + DBLE(J))
            XR(I, J) = ZR(I, J)
            XI(I, J) = ZI(I, J)
            FSUM = FSUM + ZR(I, J)
            E1 = E1 + ZR(I, J)**2 + ZI(I, J)**2
   20    CONTINUE
   30 CONTINUE
      DO 40 J = 1, N
         CALL FFT(XR(1, J), XI(1, J), N, 1, 1, WR, WI)
   40 CONTINUE
      DO 50 I = 1, N
         CALL FFT(XR(I, 1), XI(I, 1), N, N, 1, WR, WI)
   50 CONTINUE
      FDC = XR(1, 1)
      E2 = 0.0D0
      DO 70 J = 1, N
         DO 60 I = 1, N
            E2 = E2 + XR(I, J)**2 + XI(I, J)**2
   60    CONTINUE
   70 CONTINUE
      FPARS = DABS(E1 - E2 / DBLE(N * N)) / E1
      DO 80 J = 1, N
         CALL FFT(XR(1, J), XI(1, J), N, 1, -1, WR, WI)
   80 CONTINUE
      DO 90 I = 1, N
         CALL FFT(XR(I, 1), XI(I, 1), N, N, -1, WR, WI)
   90 CONTINUE
      FERR = 0.0D0
      DO 110 J = 1, N
         DO 100 I = 1, N
            FERR = DMAX1(FERR,
     &         DABS(XR(I, J) / DBLE(N * N) - ZR(I, J)),
     &         DABS(XI(I, J) / DBLE(N * N) - ZI(I, J)))
  100    CONTINUE
  110 CONTINUE
      RETURN
      END
C
C     IN-PLACE RADIX-2 FFT OF N POINTS X(1), X(1+INC), ...; ISIGN = 1
C     FORWARD (EXP(-2 PI I JK/N)), -1 INVERSE (UNSCALED). W HOLDS
C     COS AND SIN OF 2 PI K / N.
C
      SUBROUTINE FFT(XR, XI, N, INC, ISIGN, WR, WI)
      INTEGER N, INC, ISIGN
      DOUBLE PRECISION XR(*), XI(*), WR(N), WI(N)
      DOUBLE PRECISION TR, TI, CR, CI
      INTEGER I, J, K, M, ISTEP, IP, JP, IW
C     BIT-REVERSAL PERMUTATION
      J = 0
      DO 20 I = 0, N - 2
         IF (I .LT. J) THEN
            IP = 1 + I * INC
            JP = 1 + J * INC
            TR = XR(IP)
            TI = XI(IP)
            XR(IP) = XR(JP)
            XI(IP) = XI(JP)
            XR(JP) = TR
            XI(JP) = TI
         END IF
         K = N / 2
   10    IF (K .LE. J) THEN
            J = J - K
            K = K / 2
            GO TO 10
         END IF
         J = J + K
   20 CONTINUE
C     BUTTERFLIES OF SPAN M = 1, 2, 4, ...
      M = 1
   30 IF (M .GE. N) RETURN
      ISTEP = 2 * M
      DO 50 K = 0, M - 1
         IW = 1 + K * (N / ISTEP)
         CR = WR(IW)
         CI = -DBLE(ISIGN) * WI(IW)
         DO 40 I = K, N - 1, ISTEP
            IP = 1 + I * INC
            JP = 1 + (I + M) * INC
            TR = CR * XR(JP) - CI * XI(JP)
            TI = CR * XI(JP) + CI * XR(JP)
            XR(JP) = XR(IP) - TR
            XI(JP) = XI(IP) - TI
            XR(IP) = XR(IP) + TR
            XI(IP) = XI(IP) + TI
   40    CONTINUE
   50 CONTINUE
      M = ISTEP
      GO TO 30
      END
C
C     CHOLSKY: A = L * L**T FOR A(I,J) = 1/(I+J-1) + DELTA(I,J), N = 100
C     (HILBERT PLUS IDENTITY, SYMMETRIC POSITIVE DEFINITE), THEN
C     L Y = B, L**T X = Y WITH B = A * (1, ..., 1). CERR = MAX|X - 1|.
C
      SUBROUTINE CHOLSK(CERR)
      DOUBLE PRECISION CERR
      INTEGER N
      PARAMETER (N = 100)
      DOUBLE PRECISION A(N, N), B(N), S
      SAVE A
      INTEGER I, J, K
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = 1.0D0 / DBLE(I + J - 1)
   10    CONTINUE
         A(J, J) = A(J, J) + 1.0D0
   20 CONTINUE
      DO 40 I = 1, N
         B(I) = 0.0D0
         DO 30 J = 1, N
            B(I) = B(I) + A(I, J)
   30    CONTINUE
   40 CONTINUE
C     FACTOR, COLUMN BY COLUMN, INTO THE LOWER TRIANGLE
      DO 80 J = 1, N
         S = A(J, J)
         DO 50 K = 1, J - 1
            S = S - A(J, K) * A(J, K)
   50    CONTINUE
         A(J, J) = DSQRT(S)
         DO 70 I = J + 1, N
            S = A(I, J)
            DO 60 K = 1, J - 1
               S = S - A(I, K) * A(J, K)
   60       CONTINUE
            A(I, J) = S / A(J, J)
   70    CONTINUE
   80 CONTINUE
C     FORWARD AND BACK SUBSTITUTION
      DO 100 I = 1, N
         S = B(I)
         DO 90 K = 1, I - 1
            S = S - A(I, K) * B(K)
   90    CONTINUE
         B(I) = S / A(I, I)
  100 CONTINUE
      DO 120 I = N, 1, -1
         S = B(I)
         DO 110 K = I + 1, N
            S = S - A(K, I) * B(K)
  110    CONTINUE
         B(I) = S / A(I, I)
  120 CONTINUE
      CERR = 0.0D0
      DO 130 I = 1, N
         CERR = DMAX1(CERR, DABS(B(I) - 1.0D0))
  130 CONTINUE
      RETURN
      END
C
C     BTRIS: A BLOCK TRIDIAGONAL SYSTEM OF NB = 200 BLOCK ROWS OF 5 X 5
C     BLOCKS, SUB-DIAGONAL AA, DIAGONAL BB, SUPER-DIAGONAL CC, SOLVED BY
C     BLOCK ELIMINATION (G(I) = BB'(I)**-1 CC(I), Y(I) = BB'(I)**-1
C     (D(I) - AA(I) Y(I-1)), THEN X(I) = Y(I) - G(I) X(I+1)); THE
C     RIGHT SIDE MAKES EVERY UNKNOWN 1. BERR = MAX|X - 1|.
C
      SUBROUTINE BTRIS(BERR)
      DOUBLE PRECISION BERR
      INTEGER NB
      PARAMETER (NB = 200)
      DOUBLE PRECISION AA(5, 5, NB), BB(5, 5, NB), CC(5, 5, NB)
      DOUBLE PRECISION D(5, NB), G(5, 5, NB), Y(5, NB), W(5, 6)
      INTEGER I, J, K, L
      DO 30 I = 1, NB
         DO 5 K = 1, 5
            D(K, I) = 0.0D0
    5    CONTINUE
         DO 20 K = 1, 5
            DO 10 J = 1, 5
               AA(J, K, I) = 0.1D0 * DBLE(MOD(J + 2 * K + I, 5)) / 5.0D0
               CC(J, K, I) = 0.1D0 * DBLE(MOD(2 * J + K + I, 3)) / 3.0D0
               BB(J, K, I) = 0.2D0 * DBLE(MOD(J * K + I, 4)) / 4.0D0
               IF (I .GT. 1) D(J, I) = D(J, I) + AA(J, K, I)
               IF (I .LT. NB) D(J, I) = D(J, I) + CC(J, K, I)
   10       CONTINUE
            BB(K, K, I) = BB(K, K, I) + 4.0D0
   20    CONTINUE
         DO 25 J = 1, 5
            DO 24 K = 1, 5
               D(J, I) = D(J, I) + BB(J, K, I)
   24       CONTINUE
   25    CONTINUE
   30 CONTINUE
C     FORWARD ELIMINATION
      DO 90 I = 1, NB
C        W = [BB(I) - AA(I) G(I-1) | CC(I) | D(I) - AA(I) Y(I-1)]
C        IS KEPT AS W(5,6) = [CC | RHS] WITH THE MATRIX IN BB.
         DO 50 J = 1, 5
            DO 40 K = 1, 5
               W(J, K) = CC(J, K, I)
               IF (I .GT. 1) THEN
                  DO 35 L = 1, 5
                     BB(J, K, I) = BB(J, K, I) - AA(J, L, I) *
     &                  G(L, K, I - 1)
   35             CONTINUE
               END IF
   40       CONTINUE
            W(J, 6) = D(J, I)
            IF (I .GT. 1) THEN
               DO 45 L = 1, 5
                  W(J, 6) = W(J, 6) - AA(J, L, I) * Y(L, I - 1)
   45          CONTINUE
            END IF
   50    CONTINUE
         CALL SOLVE5(BB(1, 1, I), W)
         DO 70 K = 1, 5
            DO 60 J = 1, 5
               G(J, K, I) = W(J, K)
   60       CONTINUE
   70    CONTINUE
         DO 80 J = 1, 5
            Y(J, I) = W(J, 6)
   80    CONTINUE
   90 CONTINUE
C     BACK SUBSTITUTION (X OVERWRITES Y)
      DO 120 I = NB - 1, 1, -1
         DO 110 J = 1, 5
            DO 100 K = 1, 5
               Y(J, I) = Y(J, I) - G(J, K, I) * Y(K, I + 1)
  100       CONTINUE
  110    CONTINUE
  120 CONTINUE
      BERR = 0.0D0
      DO 140 I = 1, NB
         DO 130 J = 1, 5
            BERR = DMAX1(BERR, DABS(Y(J, I) - 1.0D0))
  130    CONTINUE
  140 CONTINUE
      RETURN
      END
C
C     SOLVES B X = W(:,1..6) FOR SIX RIGHT SIDES BY GAUSS-JORDAN
C     ELIMINATION WITHOUT PIVOTING (B IS DIAGONALLY DOMINANT); B IS
C     DESTROYED, W IS OVERWRITTEN BY X.
C
      SUBROUTINE SOLVE5(B, W)
      DOUBLE PRECISION B(5, 5), W(5, 6)
      DOUBLE PRECISION P, F
      INTEGER I, J, K
      DO 50 K = 1, 5
         P = 1.0D0 / B(K, K)
         DO 10 J = K + 1, 5
            B(K, J) = B(K, J) * P
   10    CONTINUE
         DO 15 J = 1, 6
            W(K, J) = W(K, J) * P
   15    CONTINUE
         DO 40 I = 1, 5
            IF (I .EQ. K) GO TO 40
            F = B(I, K)
            DO 20 J = K + 1, 5
               B(I, J) = B(I, J) - F * B(K, J)
   20       CONTINUE
            DO 30 J = 1, 6
               W(I, J) = W(I, J) - F * W(K, J)
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
      RETURN
      END
C
C     GMTRY: NP = 100 POINTS ON THE ELLIPSE (2 COS T, SIN T); THE
C     INFLUENCE MATRIX A(I,J) = 1 / (1 + R(I,J)**2) + DELTA(I,J) IS
C     SOLVED BY GAUSSIAN ELIMINATION WITH PARTIAL PIVOTING FOR THE
C     RIGHT SIDE A * (1, ..., 1). GERR = MAX|X - 1|.
C
      SUBROUTINE GMTRY(GERR)
      DOUBLE PRECISION GERR
      INTEGER NP
      PARAMETER (NP = 100)
      DOUBLE PRECISION A(NP, NP), B(NP), PX(NP), PY(NP), PI, T, F
      SAVE A
      INTEGER I, J, K, L
      PI = 4.0D0 * DATAN(1.0D0)
      DO 10 I = 1, NP
         T = 2.0D0 * PI * DBLE(I - 1) / DBLE(NP)
         PX(I) = 2.0D0 * DCOS(T)
         PY(I) = DSIN(T)
   10 CONTINUE
      DO 30 J = 1, NP
         DO 20 I = 1, NP
            A(I, J) = 1.0D0 / (1.0D0 + (PX(I) - PX(J))**2 +
     &                (PY(I) - PY(J))**2)
   20    CONTINUE
         A(J, J) = A(J, J) + 1.0D0
   30 CONTINUE
      DO 50 I = 1, NP
         B(I) = 0.0D0
         DO 40 J = 1, NP
            B(I) = B(I) + A(I, J)
   40    CONTINUE
   50 CONTINUE
      DO 100 K = 1, NP - 1
         L = K
         DO 60 I = K + 1, NP
            IF (DABS(A(I, K)) .GT. DABS(A(L, K))) L = I
   60    CONTINUE
         IF (L .NE. K) THEN
            DO 70 J = K, NP
               T = A(K, J)
               A(K, J) = A(L, J)
               A(L, J) = T
   70       CONTINUE
            T = B(K)
            B(K) = B(L)
            B(L) = T
         END IF
         DO 90 I = K + 1, NP
            F = A(I, K) / A(K, K)
            DO 80 J = K + 1, NP
               A(I, J) = A(I, J) - F * A(K, J)
   80       CONTINUE
            B(I) = B(I) - F * B(K)
   90    CONTINUE
  100 CONTINUE
      DO 120 I = NP, 1, -1
         T = B(I)
         DO 110 J = I + 1, NP
            T = T - A(I, J) * B(J)
  110    CONTINUE
         B(I) = T / A(I, I)
  120 CONTINUE
      GERR = 0.0D0
      DO 130 I = 1, NP
         GERR = DMAX1(GERR, DABS(B(I) - 1.0D0))
  130 CONTINUE
      RETURN
      END
C
C     EMIT: NW = 400 VORTICES OF STRENGTH GAM(K) AT (XW(K), YW(K)) AND
C     A UNIFORM STREAM U0 INDUCE A VELOCITY AT NE = 128 POINTS OF THE
C     UNIT CIRCLE; AT EACH POINT A NEW VORTEX IS EMITTED WITH STRENGTH
C     -(TANGENTIAL VELOCITY) * DS, JUST OUTSIDE THE BOUNDARY.
C     ESUM = SUM OF THE NEW STRENGTHS, EABS = SUM OF THEIR MAGNITUDES.
C
      SUBROUTINE EMIT(ESUM, EABS)
      DOUBLE PRECISION ESUM, EABS
      INTEGER NW, NE
      PARAMETER (NW = 400, NE = 128)
      DOUBLE PRECISION XW(NW), YW(NW), GAM(NW)
      DOUBLE PRECISION XN(NE), YN(NE), GNEW(NE), XNEW(NE), YNEW(NE)
      DOUBLE PRECISION PI, U0, DS, T, U, V, DX, DY, R2, TX, TY
      INTEGER I, K
      PI = 4.0D0 * DATAN(1.0D0)
      U0 = 1.0D0
      DS = 2.0D0 * PI / DBLE(NE)
      DO 10 K = 1, NW
         T = 0.37D0 * DBLE(K)
         XW(K) = (1.5D0 + 0.01D0 * DBLE(K)) * DCOS(T)
         YW(K) = (1.5D0 + 0.01D0 * DBLE(K)) * DSIN(T)
         GAM(K) = 0.05D0 * DSIN(0.11D0 * DBLE(K))
   10 CONTINUE
      DO 20 I = 1, NE
         T = DS * DBLE(I - 1)
         XN(I) = DCOS(T)
         YN(I) = DSIN(T)
   20 CONTINUE
      ESUM = 0.0D0
      EABS = 0.0D0
      DO 40 I = 1, NE
         U = U0
         V = 0.0D0
         DO 30 K = 1, NW
            DX = XN(I) - XW(K)
            DY = YN(I) - YW(K)
            R2 = DX * DX + DY * DY + 0.01D0
            U = U - GAM(K) * DY / (2.0D0 * PI * R2)
            V = V + GAM(K) * DX / (2.0D0 * PI * R2)
   30    CONTINUE
         TX = -YN(I)
         TY = XN(I)
         GNEW(I) = -(U * TX + V * TY) * DS
         XNEW(I) = 1.05D0 * XN(I)
         YNEW(I) = 1.05D0 * YN(I)
         ESUM = ESUM + GNEW(I)
         EABS = EABS + DABS(GNEW(I))
   40 CONTINUE
      RETURN
      END
C
C     VPENTA: FOR EACH OF NJ = 128 COLUMNS J, THREE PENTADIAGONAL
C     SYSTEMS OF ORDER N = 128 IN K WITH DIAGONALS A, B, C, D, E(J,K)
C     AND RIGHT SIDES F(J,K,L) MADE SO THAT X = L. ELIMINATION
C     WITHOUT PIVOTING (C DOMINATES) WITH THE COLUMN LOOP INNERMOST.
C     VERR = MAX|X - L|.
C
      SUBROUTINE VPENTA(VERR)
      DOUBLE PRECISION VERR
      INTEGER NJ, N
      PARAMETER (NJ = 128, N = 128)
      DOUBLE PRECISION A(NJ, N), B(NJ, N), C(NJ, N), D(NJ, N), E(NJ, N)
      DOUBLE PRECISION F(NJ, N, 3), X(NJ, N, 3), R, RL
      SAVE A, B, C, D, E, F, X
      INTEGER J, K, L
      DO 20 K = 1, N
         DO 10 J = 1, NJ
            A(J, K) = 0.5D0 * DBLE(MOD(J + K, 3)) / 3.0D0
            B(J, K) = 0.9D0 * DBLE(MOD(J + 2 * K, 5)) / 5.0D0
            C(J, K) = 6.0D0 + DBLE(MOD(J * K, 7)) / 7.0D0
            D(J, K) = 0.8D0 * DBLE(MOD(2 * J + K, 4)) / 4.0D0
            E(J, K) = 0.4D0 * DBLE(MOD(J + 3 * K, 6)) / 6.0D0
   10    CONTINUE
   20 CONTINUE
      DO 50 L = 1, 3
         RL = DBLE(L)
         DO 40 K = 1, N
            DO 30 J = 1, NJ
               R = C(J, K)
               IF (K .GT. 2) R = R + A(J, K)
               IF (K .GT. 1) R = R + B(J, K)
               IF (K .LT. N) R = R + D(J, K)
               IF (K .LT. N - 1) R = R + E(J, K)
               F(J, K, L) = RL * R
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
C     FORWARD ELIMINATION OF THE TWO SUB-DIAGONALS
      DO 70 J = 1, NJ
         R = B(J, 2) / C(J, 1)
         C(J, 2) = C(J, 2) - R * D(J, 1)
         D(J, 2) = D(J, 2) - R * E(J, 1)
         F(J, 2, 1) = F(J, 2, 1) - R * F(J, 1, 1)
         F(J, 2, 2) = F(J, 2, 2) - R * F(J, 1, 2)
         F(J, 2, 3) = F(J, 2, 3) - R * F(J, 1, 3)
   70 CONTINUE
      DO 90 K = 3, N
         DO 80 J = 1, NJ
            R = A(J, K) / C(J, K - 2)
            B(J, K) = B(J, K) - R * D(J, K - 2)
            C(J, K) = C(J, K) - R * E(J, K - 2)
            F(J, K, 1) = F(J, K, 1) - R * F(J, K - 2, 1)
            F(J, K, 2) = F(J, K, 2) - R * F(J, K - 2, 2)
            F(J, K, 3) = F(J, K, 3) - R * F(J, K - 2, 3)
            R = B(J, K) / C(J, K - 1)
            C(J, K) = C(J, K) - R * D(J, K - 1)
            D(J, K) = D(J, K) - R * E(J, K - 1)
            F(J, K, 1) = F(J, K, 1) - R * F(J, K - 1, 1)
            F(J, K, 2) = F(J, K, 2) - R * F(J, K - 1, 2)
            F(J, K, 3) = F(J, K, 3) - R * F(J, K - 1, 3)
   80    CONTINUE
   90 CONTINUE
C     BACK SUBSTITUTION
      DO 120 L = 1, 3
         DO 100 J = 1, NJ
            X(J, N, L) = F(J, N, L) / C(J, N)
            X(J, N - 1, L) = (F(J, N - 1, L) - D(J, N - 1) *
     &         X(J, N, L)) / C(J, N - 1)
  100    CONTINUE
         DO 115 K = N - 2, 1, -1
            DO 110 J = 1, NJ
               X(J, K, L) = (F(J, K, L) - D(J, K) * X(J, K + 1, L) -
     &            E(J, K) * X(J, K + 2, L)) / C(J, K)
  110       CONTINUE
  115    CONTINUE
  120 CONTINUE
      VERR = 0.0D0
      DO 150 L = 1, 3
         DO 140 K = 1, N
            DO 130 J = 1, NJ
               VERR = DMAX1(VERR, DABS(X(J, K, L) - DBLE(L)))
  130       CONTINUE
  140    CONTINUE
  150 CONTINUE
      RETURN
      END
