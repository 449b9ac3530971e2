C     LU_BAND: BANDED LU SOLUTION OF A PENTADIAGONAL SYSTEM, A BEAM ON
C     AN ELASTIC (WINKLER) FOUNDATION.
C     EI U'''' + K U = Q ON [0,1], SIMPLY SUPPORTED (U = U'' = 0 AT
C     BOTH ENDS), EI = 1, IS DISCRETIZED WITH THE 5-POINT STENCIL
C     (1, -4, 6, -4, 1) / H**4 ON N INTERIOR POINTS, H = 1/(N+1); THE
C     GHOST VALUES U(0) = 0, U(-1) = -U(1) (AND THE SAME AT X = 1)
C     TURN THE FIRST AND LAST DIAGONAL ENTRIES INTO 5. AFTER SCALING
C     BY H**4 THE MATRIX IS SYMMETRIC POSITIVE DEFINITE WITH
C     BANDWIDTHS KL = KU = 2, HELD IN LAPACK BAND STORAGE
C     A(I,J) = AB(KU+1+I-J, J), AND FACTORED A = L U BY BANDED
C     GAUSSIAN ELIMINATION WITHOUT PIVOTING (STABLE FOR SPD), THEN
C     SOLVED BY FORWARD AND BACK SUBSTITUTION INSIDE THE BAND.
C
C     FOR EACH FOUNDATION STIFFNESS K (5 VALUES) THE MATRIX IS
C     FACTORED ONCE AND SOLVED FOR THE LOADS Q = SIN(M PI X),
C     M = 1..NRHS. SIN(M PI X(I)) IS AN EIGENVECTOR OF THE DISCRETE
C     OPERATOR (IT IS THE SQUARE OF THE DIRICHLET SECOND DIFFERENCE),
C     SO THE DISCRETE SOLUTION IS KNOWN IN CLOSED FORM:
C         U(I) = SIN(M PI X(I)) / (16 SIN(M PI H/2)**4 / H**4 + K).
C     FOR K = 0 A UNIFORM LOAD Q = 1 IS ALSO SOLVED, WHOSE CONTINUOUS
C     SOLUTION IS U = X (1 - 2 X**2 + X**3) / 24.
C
C     SELF-CHECK: EVERY SOLUTION HAS A NORMWISE RELATIVE RESIDUAL
C     ||B - A U|| / (||A|| ||U||) BELOW 1E-14 (BAND MATRIX-VECTOR
C     PRODUCT WITH A SAVED COPY OF THE MATRIX), AGREES WITH THE CLOSED
C     FORM TO 10 EPS KAPPA (RELATIVE, MAX NORM; KAPPA = LAMBDA(N) /
C     LAMBDA(1) IS KNOWN: THE EIGENVALUES ARE 16 SIN(J PI H/2)**4 +
C     K H**4), AND THE UNIFORM-LOAD SOLUTION IS WITHIN 1E-4 (RELATIVE)
C     OF THE CONTINUOUS ONE (O(H**2)).
C     EVERY REPETITION REDOES THE SAME WORK.
C
C     OUTPUT:
C       CHECKSUM LU_BAND USUM <SUM OF ALL SOLUTION COMPONENTS>
C       CHECKSUM LU_BAND UMID <MIDSPAN DEFLECTION, UNIFORM LOAD>
C       CHECKSUM LU_BAND RESID <LARGEST RELATIVE RESIDUAL>
C       CHECKSUM LU_BAND ERR <LARGEST RELATIVE ERROR VS CLOSED FORM>
C       SELFCHECK LU_BAND PASS|FAIL
C
      PROGRAM LUBAND
      INTEGER NREP, N, KL, KU, LDA, NRHS, NK
      PARAMETER (NREP = 90, N = 1000, KL = 2, KU = 2)
      PARAMETER (LDA = KL + KU + 1, NRHS = 40, NK = 5)
      DOUBLE PRECISION AB(LDA,N), A0(LDA,N), B(N), U(N), R(N)
      DOUBLE PRECISION SK(NK), H, H4, PI, X, DIAG, LAM, ANORM
      DOUBLE PRECISION RES, ERR, RESMAX, ERRMAX, USUM, UMID, UEX
      DOUBLE PRECISION EMAX, XMAX, ROW, EPS, KAPPA
      INTEGER IREP, IK, M, I, J, INFO, NBAD
      LOGICAL OK
      EXTERNAL BNDFAC, BNDSOL, BNDMV
      DATA SK /0.0D0, 10.0D0, 1.0D3, 1.0D5, 1.0D7/
C
      PI = 4.0D0 * ATAN(1.0D0)
      H = 1.0D0 / DBLE(N + 1)
      H4 = H ** 4
      EPS = 2.0D0 ** (-52)
      NBAD = 0
      USUM = 0.0D0
      UMID = 0.0D0
      RESMAX = 0.0D0
      ERRMAX = 0.0D0
      DO 200 IREP = 1, NREP
         USUM = 0.0D0
         RESMAX = 0.0D0
         ERRMAX = 0.0D0
         DO 190 IK = 1, NK
C           ---- ASSEMBLE THE SCALED MATRIX H**4 (D4 + K I) IN BANDS
            DIAG = 6.0D0 + SK(IK) * H4
            DO 10 J = 1, N
               AB(1,J) = 1.0D0
               AB(2,J) = -4.0D0
               AB(3,J) = DIAG
               AB(4,J) = -4.0D0
               AB(5,J) = 1.0D0
   10       CONTINUE
            AB(3,1) = DIAG - 1.0D0
            AB(3,N) = DIAG - 1.0D0
C           ENTRIES OUTSIDE THE MATRIX ARE NOT USED; ZERO THEM ANYWAY
            AB(1,1) = 0.0D0
            AB(1,2) = 0.0D0
            AB(2,1) = 0.0D0
            AB(4,N) = 0.0D0
            AB(5,N) = 0.0D0
            AB(5,N-1) = 0.0D0
            DO 30 J = 1, N
               DO 20 I = 1, LDA
                  A0(I,J) = AB(I,J)
   20          CONTINUE
   30       CONTINUE
C           INFINITY NORM OF THE MATRIX (ALL ROWS SUM TO AT MOST THIS)
            ANORM = 0.0D0
            DO 35 I = 1, N
               ROW = 0.0D0
               DO 32 J = MAX(1, I - KL), MIN(N, I + KU)
                  ROW = ROW + ABS(A0(KU + 1 + I - J, J))
   32          CONTINUE
               ANORM = MAX(ANORM, ROW)
   35       CONTINUE
            KAPPA = (16.0D0 * SIN(0.5D0 * DBLE(N) * PI * H) ** 4
     &               + SK(IK) * H4)
     &            / (16.0D0 * SIN(0.5D0 * PI * H) ** 4 + SK(IK) * H4)
            CALL BNDFAC(AB, LDA, N, KL, KU, INFO)
            IF (INFO .NE. 0) NBAD = NBAD + 1
C           ---- SINE LOADS, ONE RIGHT-HAND SIDE AT A TIME
            DO 80 M = 1, NRHS
               DO 40 I = 1, N
                  X = DBLE(I) * H
                  B(I) = H4 * SIN(DBLE(M) * PI * X)
                  U(I) = B(I)
   40          CONTINUE
               CALL BNDSOL(AB, LDA, N, KL, KU, U)
               CALL BNDMV(A0, LDA, N, KL, KU, U, R)
               LAM = 16.0D0 * SIN(0.5D0 * DBLE(M) * PI * H) ** 4 / H4
     &               + SK(IK)
               RES = 0.0D0
               EMAX = 0.0D0
               XMAX = 0.0D0
               DO 50 I = 1, N
                  X = DBLE(I) * H
                  UEX = SIN(DBLE(M) * PI * X) / LAM
                  RES = MAX(RES, ABS(B(I) - R(I)))
                  EMAX = MAX(EMAX, ABS(U(I) - UEX))
                  XMAX = MAX(XMAX, ABS(U(I)))
                  USUM = USUM + U(I)
   50          CONTINUE
               RES = RES / (ANORM * XMAX)
               ERR = EMAX / XMAX
               RESMAX = MAX(RESMAX, RES)
               ERRMAX = MAX(ERRMAX, ERR)
               IF (ERR .GT. 10.0D0 * EPS * KAPPA) NBAD = NBAD + 1
   80       CONTINUE
C           ---- UNIFORM LOAD ON THE BARE BEAM (K = 0)
            IF (SK(IK) .EQ. 0.0D0) THEN
               DO 90 I = 1, N
                  B(I) = H4
                  U(I) = B(I)
   90          CONTINUE
               CALL BNDSOL(AB, LDA, N, KL, KU, U)
               CALL BNDMV(A0, LDA, N, KL, KU, U, R)
               RES = 0.0D0
               EMAX = 0.0D0
               XMAX = 0.0D0
               DO 100 I = 1, N
                  X = DBLE(I) * H
                  UEX = X * (1.0D0 - 2.0D0 * X * X + X ** 3) / 24.0D0
                  RES = MAX(RES, ABS(B(I) - R(I)))
                  EMAX = MAX(EMAX, ABS(U(I) - UEX))
                  XMAX = MAX(XMAX, ABS(U(I)))
  100          CONTINUE
               RESMAX = MAX(RESMAX, RES / (ANORM * XMAX))
               IF (EMAX / XMAX .GT. 1.0D-4) NBAD = NBAD + 1
               UMID = U(N / 2)
            END IF
  190    CONTINUE
         IF (RESMAX .GT. 1.0D-14) NBAD = NBAD + 1
  200 CONTINUE
C
      OK = NBAD .EQ. 0
      WRITE (*, 900) 'USUM', USUM
      WRITE (*, 900) 'UMID', UMID
      WRITE (*, 900) 'RESID', RESMAX
      WRITE (*, 900) 'ERR', ERRMAX
      IF (OK) THEN
         WRITE (*, 910) 'PASS'
      ELSE
         WRITE (*, 910) 'FAIL'
      END IF
  900 FORMAT (' CHECKSUM LU_BAND ', A, 1X, 1PE22.14)
  910 FORMAT (' SELFCHECK LU_BAND ', A)
      END
C
C     ---------------------------------------------------------------
C     BANDED LU FACTORIZATION WITHOUT PIVOTING. A(I,J) IS AB(KU+1+I-J,J)
C     ON ENTRY; ON RETURN THE BAND HOLDS U AND THE MULTIPLIERS OF L
C     (UNIT LOWER TRIANGULAR). INFO = K IF PIVOT K IS ZERO.
      SUBROUTINE BNDFAC(AB, LDA, N, KL, KU, INFO)
      INTEGER LDA, N, KL, KU, INFO
      DOUBLE PRECISION AB(LDA,N), PIV, T
      INTEGER I, J, K, IEND, JEND
      INFO = 0
      DO 40 K = 1, N - 1
         PIV = AB(KU + 1, K)
         IF (PIV .EQ. 0.0D0) THEN
            INFO = K
            RETURN
         END IF
         IEND = MIN(N, K + KL)
         JEND = MIN(N, K + KU)
         DO 10 I = K + 1, IEND
            AB(KU + 1 + I - K, K) = AB(KU + 1 + I - K, K) / PIV
   10    CONTINUE
         DO 30 J = K + 1, JEND
            T = AB(KU + 1 + K - J, J)
            DO 20 I = K + 1, IEND
               AB(KU + 1 + I - J, J) = AB(KU + 1 + I - J, J)
     &                                 - AB(KU + 1 + I - K, K) * T
   20       CONTINUE
   30    CONTINUE
   40 CONTINUE
      IF (AB(KU + 1, N) .EQ. 0.0D0) INFO = N
      END
C
C     SOLVE L U X = B WITH THE FACTORS OF BNDFAC; B IS OVERWRITTEN.
      SUBROUTINE BNDSOL(AB, LDA, N, KL, KU, B)
      INTEGER LDA, N, KL, KU
      DOUBLE PRECISION AB(LDA,N), B(N), T
      INTEGER I, K
C     FORWARD: L Y = B
      DO 20 K = 1, N - 1
         T = B(K)
         DO 10 I = K + 1, MIN(N, K + KL)
            B(I) = B(I) - AB(KU + 1 + I - K, K) * T
   10    CONTINUE
   20 CONTINUE
C     BACKWARD: U X = Y, COLUMN BY COLUMN
      DO 40 K = N, 1, -1
         B(K) = B(K) / AB(KU + 1, K)
         T = B(K)
         DO 30 I = MAX(1, K - KU), K - 1
            B(I) = B(I) - AB(KU + 1 + I - K, K) * T
   30    CONTINUE
   40 CONTINUE
      END
C
C     R = A X FOR A BAND MATRIX IN BAND STORAGE.
      SUBROUTINE BNDMV(AB, LDA, N, KL, KU, X, R)
      INTEGER LDA, N, KL, KU
      DOUBLE PRECISION AB(LDA,N), X(N), R(N), S
      INTEGER I, J
      DO 20 I = 1, N
         S = 0.0D0
         DO 10 J = MAX(1, I - KL), MIN(N, I + KU)
            S = S + AB(KU + 1 + I - J, J) * X(J)
   10    CONTINUE
         R(I) = S
   20 CONTINUE
      END
