C     MIXPREC: MIXED-PRECISION ITERATIVE REFINEMENT OF A LINEAR SYSTEM.
C     THE MATRIX A (N BY N) IS STORED IN SINGLE PRECISION AND FACTORED
C     ONCE, IN SINGLE PRECISION, BY GAUSSIAN ELIMINATION WITH PARTIAL
C     PIVOTING (P A = L U). FOR EACH OF NRHS RIGHT-HAND SIDES THE
C     CLASSICAL REFINEMENT LOOP (WILKINSON; MOLER 1967) THEN RUNS:
C         X = SOLVE(B) IN SINGLE PRECISION, KEPT IN DOUBLE;
C         REPEAT: R = B - A X  IN DOUBLE PRECISION (A CONVERTED BY
C                 DBLE), D = SOLVE(REAL(R)) IN SINGLE PRECISION,
C                 X = X + DBLE(D)
C         UNTIL THE CORRECTION IS BELOW 1E-14 OF X OR MAXIT STEPS.
C     THE ENTRIES OF A COME FROM INTEGER FORMULAS (FLOAT, MOD), THE
C     EXACT SOLUTION IS XT(J) = 1 + J/3 (NOT REPRESENTABLE IN SINGLE
C     PRECISION) AND B = A XT IS FORMED IN DOUBLE PRECISION.
C
C     SELF-CHECK: AFTER REFINEMENT THE NORMWISE RELATIVE RESIDUAL
C     ||B - A X|| / (||A|| ||X||) IS BELOW 1E-14 AND THE ERROR
C     ||X - XT|| / ||XT|| BELOW 1E-12, FOR EVERY RIGHT-HAND SIDE, THE
C     LOOP STOPPED BEFORE MAXIT STEPS, AND THE UNREFINED SINGLE
C     PRECISION SOLUTION WAS WORSE THAN 1E-9.
C     EVERY REPETITION REDOES THE SAME WORK.
C
C     OUTPUT:
C       CHECKSUM MIXPREC ITERS <REFINEMENT STEPS, ALL RIGHT SIDES>
C       CHECKSUM MIXPREC ERR0 <LARGEST ERROR BEFORE REFINEMENT>
C       CHECKSUM MIXPREC ERR <LARGEST ERROR AFTER REFINEMENT>
C       CHECKSUM MIXPREC RESID <LARGEST RELATIVE RESIDUAL AFTER>
C       CHECKSUM MIXPREC DIGITS <CORRECT DIGITS AFTER REFINEMENT>
C       SELFCHECK MIXPREC PASS|FAIL
C
      PROGRAM MIXPRC
      INTEGER NREP, N, NRHS, MAXIT
      PARAMETER (NREP = 550, N = 120, NRHS = 4, MAXIT = 12)
      REAL A(N,N), ALU(N,N), RS(N)
      DOUBLE PRECISION B(N), X(N), R(N), XT(N)
      INTEGER IPVT(N)
      SAVE A, ALU
      DOUBLE PRECISION ANORM, XNORM, RNORM, DNORM, ENORM, TNORM, ROW
      DOUBLE PRECISION ERR0, ERRF, RESF, SHIFT
      INTEGER IREP, IRHS, I, J, IT, INFO, NITER, NDIG
      LOGICAL OK
      EXTERNAL SLUFAC, SLUSOL
C
      OK = .TRUE.
      DO 200 IREP = 1, NREP
C        ---- THE MATRIX: ENTRIES IN [-0.5, 0.5] PLUS A DIAGONAL SHIFT
         DO 20 J = 1, N
            DO 10 I = 1, N
               A(I,J) = FLOAT(MOD(13 * I + 7 * J * J + I * J, 31))
     &                  / 31.0 - 0.5
   10       CONTINUE
            A(J,J) = A(J,J) + 0.25 * SQRT(FLOAT(N))
   20    CONTINUE
C        ---- INFINITY NORM OF A, IN DOUBLE PRECISION
         ANORM = 0.0D0
         DO 40 I = 1, N
            ROW = 0.0D0
            DO 30 J = 1, N
               ROW = ROW + ABS(DBLE(A(I,J)))
   30       CONTINUE
            ANORM = MAX(ANORM, ROW)
   40    CONTINUE
C        ---- SINGLE PRECISION LU FACTORIZATION OF A COPY
         DO 60 J = 1, N
            DO 50 I = 1, N
               ALU(I,J) = A(I,J)
   50       CONTINUE
   60    CONTINUE
         CALL SLUFAC(ALU, N, N, IPVT, INFO)
         IF (INFO .NE. 0) OK = .FALSE.
         NITER = 0
         ERR0 = 0.0D0
         ERRF = 0.0D0
         RESF = 0.0D0
         DO 190 IRHS = 1, NRHS
C           ---- EXACT SOLUTION AND B = A XT IN DOUBLE PRECISION
            SHIFT = DBLE(IRHS - 1) * 0.5D0
            TNORM = 0.0D0
            DO 70 J = 1, N
               XT(J) = 1.0D0 + DBLE(J) / 3.0D0 - SHIFT
     &                 * DBLE(MOD(J, 5))
               TNORM = MAX(TNORM, ABS(XT(J)))
   70       CONTINUE
            DO 80 I = 1, N
               B(I) = 0.0D0
   80       CONTINUE
            DO 100 J = 1, N
               DO 90 I = 1, N
                  B(I) = B(I) + DBLE(A(I,J)) * XT(J)
   90          CONTINUE
  100       CONTINUE
C           ---- FIRST SOLUTION, ALL IN SINGLE PRECISION
            DO 110 I = 1, N
               RS(I) = REAL(B(I))
  110       CONTINUE
            CALL SLUSOL(ALU, N, N, IPVT, RS)
            ENORM = 0.0D0
            DO 120 I = 1, N
               X(I) = DBLE(RS(I))
               ENORM = MAX(ENORM, ABS(X(I) - XT(I)))
  120       CONTINUE
            ERR0 = MAX(ERR0, ENORM / TNORM)
C           ---- REFINEMENT
            IT = 0
  130       IT = IT + 1
            DO 140 I = 1, N
               R(I) = B(I)
  140       CONTINUE
            DO 160 J = 1, N
               DO 150 I = 1, N
                  R(I) = R(I) - DBLE(A(I,J)) * X(J)
  150          CONTINUE
  160       CONTINUE
            DO 170 I = 1, N
               RS(I) = REAL(R(I))
  170       CONTINUE
            CALL SLUSOL(ALU, N, N, IPVT, RS)
            DNORM = 0.0D0
            XNORM = 0.0D0
            DO 180 I = 1, N
               X(I) = X(I) + DBLE(RS(I))
               DNORM = MAX(DNORM, DBLE(ABS(RS(I))))
               XNORM = MAX(XNORM, ABS(X(I)))
  180       CONTINUE
            IF (DNORM .GT. 1.0D-14 * XNORM .AND. IT .LT. MAXIT)
     &         GO TO 130
            NITER = NITER + IT
            IF (IT .GE. MAXIT) OK = .FALSE.
C           ---- FINAL RESIDUAL AND ERROR
            RNORM = 0.0D0
            ENORM = 0.0D0
            DO 186 I = 1, N
               ROW = B(I)
               DO 184 J = 1, N
                  ROW = ROW - DBLE(A(I,J)) * X(J)
  184          CONTINUE
               RNORM = MAX(RNORM, ABS(ROW))
               ENORM = MAX(ENORM, ABS(X(I) - XT(I)))
  186       CONTINUE
            RESF = MAX(RESF, RNORM / (ANORM * XNORM))
            ERRF = MAX(ERRF, ENORM / TNORM)
  190    CONTINUE
         IF (RESF .GT. 1.0D-14 .OR. ERRF .GT. 1.0D-12) OK = .FALSE.
         IF (ERR0 .LT. 1.0D-9) OK = .FALSE.
  200 CONTINUE
      NDIG = INT(-LOG10(MAX(ERRF, 1.0D-17)))
C
      WRITE (*, 901) 'ITERS', NITER
      WRITE (*, 900) 'ERR0', ERR0
      WRITE (*, 900) 'ERR', ERRF
      WRITE (*, 900) 'RESID', RESF
      WRITE (*, 901) 'DIGITS', NDIG
      IF (OK) THEN
         WRITE (*, 910) 'PASS'
      ELSE
         WRITE (*, 910) 'FAIL'
      END IF
  900 FORMAT (' CHECKSUM MIXPREC ', A, 1X, 1PE22.14)
  901 FORMAT (' CHECKSUM MIXPREC ', A, 1X, I12)
  910 FORMAT (' SELFCHECK MIXPREC ', A)
      END
C
C     ---------------------------------------------------------------
C     GAUSSIAN ELIMINATION WITH PARTIAL PIVOTING, SINGLE PRECISION,
C     COLUMN ORIENTED. ON RETURN A HOLDS U AND THE MULTIPLIERS (SIGN
C     CHANGED), IPVT THE PIVOT ROWS; INFO = K IF U(K,K) = 0.
      SUBROUTINE SLUFAC(A, LDA, N, IPVT, INFO)
      INTEGER LDA, N, IPVT(N), INFO
      REAL A(LDA,N), T, AMAX
      INTEGER I, J, K, L
C
      INFO = 0
      DO 60 K = 1, N - 1
C        PIVOT: LARGEST MAGNITUDE IN COLUMN K AT OR BELOW THE DIAGONAL
         L = K
         AMAX = ABS(A(K,K))
         DO 10 I = K + 1, N
            IF (ABS(A(I,K)) .GT. AMAX) THEN
               AMAX = ABS(A(I,K))
               L = I
            END IF
   10    CONTINUE
         IPVT(K) = L
         IF (AMAX .EQ. 0.0) THEN
            INFO = K
            GO TO 60
         END IF
         IF (L .NE. K) THEN
            T = A(L,K)
            A(L,K) = A(K,K)
            A(K,K) = T
         END IF
C        MULTIPLIERS
         T = -1.0 / A(K,K)
         DO 20 I = K + 1, N
            A(I,K) = T * A(I,K)
   20    CONTINUE
C        ROW ELIMINATION, COLUMN BY COLUMN
         DO 50 J = K + 1, N
            T = A(L,J)
            IF (L .NE. K) THEN
               A(L,J) = A(K,J)
               A(K,J) = T
            END IF
            DO 40 I = K + 1, N
               A(I,J) = A(I,J) + T * A(I,K)
   40       CONTINUE
   50    CONTINUE
   60 CONTINUE
      IPVT(N) = N
      IF (A(N,N) .EQ. 0.0) INFO = N
      END
C
C     SOLVE A X = B WITH THE FACTORS OF SLUFAC; B IS OVERWRITTEN BY X.
      SUBROUTINE SLUSOL(A, LDA, N, IPVT, B)
      INTEGER LDA, N, IPVT(N)
      REAL A(LDA,N), B(N), T
      INTEGER I, K, L
C     FORWARD ELIMINATION: L Y = P B
      DO 20 K = 1, N - 1
         L = IPVT(K)
         T = B(L)
         IF (L .NE. K) THEN
            B(L) = B(K)
            B(K) = T
         END IF
         DO 10 I = K + 1, N
            B(I) = B(I) + T * A(I,K)
   10    CONTINUE
   20 CONTINUE
C     BACK SUBSTITUTION: U X = Y, COLUMN BY COLUMN
      DO 40 K = N, 1, -1
         B(K) = B(K) / A(K,K)
         T = -B(K)
         DO 30 I = 1, K - 1
            B(I) = B(I) + T * A(I,K)
   30    CONTINUE
   40 CONTINUE
      END
