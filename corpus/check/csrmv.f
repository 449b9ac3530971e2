C     CONJUGATE GRADIENTS (HESTENES AND STIEFEL 1952) FOR THE FIVE-POINT
C     FINITE-DIFFERENCE LAPLACIAN ON AN NX BY NY GRID WITH DIRICHLET
C     BOUNDARY (MATRIX 4 ON THE DIAGONAL, -1 FOR EACH NEIGHBOUR INSIDE
C     THE GRID; SYMMETRIC POSITIVE DEFINITE). THE MATRIX IS BUILT IN
C     COMPRESSED SPARSE ROW FORM (ROW POINTERS, COLUMN INDICES,
C     VALUES), AND EVERY PRODUCT Y = A X GATHERS X(COLIDX(K)) THROUGH
C     THE INDEX ARRAY. EACH REPETITION CHOOSES A SMOOTH KNOWN SOLUTION
C     XT (DIFFERENT EACH TIME), FORMS B = A XT, AND SOLVES A X = B FROM
C     X = 0 UNTIL THE RECURSIVE RESIDUAL FALLS BELOW 1E-10 OF B.
C
C     SELF-CHECK, EVERY REPETITION: THE CSR PRODUCT A XT EQUALS THE
C     STENCIL APPLIED DIRECTLY ON THE GRID; CG CONVERGED WITHIN MAXIT
C     ITERATIONS; THE TRUE RESIDUAL B - A X (RECOMPUTED) IS BELOW 1E-9
C     OF B; THE ERROR X - XT IS BELOW 1E-6 OF XT (2-NORMS).
C
C     OUTPUT: CHECKSUM CSRMV NNZ, ITERS (LAST SOLVE), TOTITERS,
C     RESID, ERROR (LARGEST OVER ALL SOLVES), XSUM (LAST SOLUTION),
C     SELFCHECK.
C
      PROGRAM CSRMV
      INTEGER NX, NY, N, MAXNZ, MAXIT, NREP
      PARAMETER (NX = 60, NY = 60, N = NX * NY, MAXNZ = 5 * N)
      PARAMETER (MAXIT = 2000, NREP = 85)
      INTEGER ROWPTR(N + 1), COLIDX(MAXNZ)
      DOUBLE PRECISION VAL(MAXNZ)
      DOUBLE PRECISION X(N), XT(N), B(N), R(N), P(N), Q(N)
      DOUBLE PRECISION RR, RRNEW, ALPHA, BETA, BNORM, PQ, T
      DOUBLE PRECISION RES, ERR, XNORM, RESMAX, ERRMAX, XSUM, DIFF
      INTEGER I, J, ROW, NNZ, IREP, IT, NIT, NTOT, NBAD
      DOUBLE PRECISION DDOT
      EXTERNAL DDOT
C
C     BUILD THE MATRIX ROW BY ROW; ROW = I + (J-1)*NX FOR GRID POINT
C     (I,J); COLUMNS IN ASCENDING ORDER WITHIN A ROW.
C
      NNZ = 0
      ROWPTR(1) = 1
      DO 20 J = 1, NY
         DO 10 I = 1, NX
            ROW = I + (J - 1) * NX
            IF (J .GT. 1) THEN
               NNZ = NNZ + 1
               COLIDX(NNZ) = ROW - NX
               VAL(NNZ) = -1.0D0
            END IF
            IF (I .GT. 1) THEN
               NNZ = NNZ + 1
               COLIDX(NNZ) = ROW - 1
               VAL(NNZ) = -1.0D0
            END IF
            NNZ = NNZ + 1
            COLIDX(NNZ) = ROW
            VAL(NNZ) = 4.0D0
            IF (I .LT. NX) THEN
               NNZ = NNZ + 1
               COLIDX(NNZ) = ROW + 1
               VAL(NNZ) = -1.0D0
            END IF
            IF (J .LT. NY) THEN
               NNZ = NNZ + 1
               COLIDX(NNZ) = ROW + NX
               VAL(NNZ) = -1.0D0
            END IF
            ROWPTR(ROW + 1) = NNZ + 1
   10    CONTINUE
   20 CONTINUE
C
      NBAD = 0
      NTOT = 0
      NIT = 0
      RESMAX = 0.0D0
      ERRMAX = 0.0D0
      XSUM = 0.0D0
      DO 100 IREP = 1, NREP
C        KNOWN SOLUTION, AND B = A XT THROUGH THE CSR PRODUCT.
         DO 32 J = 1, NY
            DO 31 I = 1, NX
               XT(I + (J - 1) * NX) = 1.0D0 + 0.5D0 *
     &            DSIN(0.1D0 * DBLE(IREP) + 0.3D0 * DBLE(I))
     &            * DCOS(0.2D0 * DBLE(J))
   31       CONTINUE
   32    CONTINUE
         CALL SPMV(N, ROWPTR, COLIDX, VAL, XT, B)
C        THE SAME PRODUCT BY THE STENCIL ON THE GRID.
         DIFF = 0.0D0
         DO 42 J = 1, NY
            DO 41 I = 1, NX
               ROW = I + (J - 1) * NX
               T = 4.0D0 * XT(ROW)
               IF (I .GT. 1) T = T - XT(ROW - 1)
               IF (I .LT. NX) T = T - XT(ROW + 1)
               IF (J .GT. 1) T = T - XT(ROW - NX)
               IF (J .LT. NY) T = T - XT(ROW + NX)
               DIFF = DMAX1(DIFF, DABS(T - B(ROW)))
   41       CONTINUE
   42    CONTINUE
         IF (DIFF .GT. 1.0D-13) NBAD = NBAD + 1
C
C        CONJUGATE GRADIENTS FROM X = 0.
         DO 50 I = 1, N
            X(I) = 0.0D0
            R(I) = B(I)
            P(I) = B(I)
   50    CONTINUE
         RR = DDOT(N, R, R)
         BNORM = DSQRT(RR)
         IT = 0
   60    IF (DSQRT(RR) .LE. 1.0D-10 * BNORM) GO TO 80
         IF (IT .GE. MAXIT) GO TO 80
         IT = IT + 1
         CALL SPMV(N, ROWPTR, COLIDX, VAL, P, Q)
         PQ = DDOT(N, P, Q)
         ALPHA = RR / PQ
         DO 70 I = 1, N
            X(I) = X(I) + ALPHA * P(I)
            R(I) = R(I) - ALPHA * Q(I)
   70    CONTINUE
         RRNEW = DDOT(N, R, R)
         BETA = RRNEW / RR
         RR = RRNEW
         DO 75 I = 1, N
            P(I) = R(I) + BETA * P(I)
   75    CONTINUE
         GO TO 60
   80    CONTINUE
         NIT = IT
         NTOT = NTOT + IT
         IF (IT .GE. MAXIT) NBAD = NBAD + 1
C
C        TRUE RESIDUAL AND ERROR.
         CALL SPMV(N, ROWPTR, COLIDX, VAL, X, Q)
         RES = 0.0D0
         ERR = 0.0D0
         XNORM = 0.0D0
         XSUM = 0.0D0
         DO 90 I = 1, N
            RES = RES + (B(I) - Q(I))**2
            ERR = ERR + (X(I) - XT(I))**2
            XNORM = XNORM + XT(I)**2
            XSUM = XSUM + X(I)
   90    CONTINUE
         RES = DSQRT(RES) / BNORM
         ERR = DSQRT(ERR / XNORM)
         RESMAX = DMAX1(RESMAX, RES)
         ERRMAX = DMAX1(ERRMAX, ERR)
         IF (.NOT. (RES .LT. 1.0D-9)) NBAD = NBAD + 1
         IF (.NOT. (ERR .LT. 1.0D-6)) NBAD = NBAD + 1
  100 CONTINUE
C
      WRITE (*, 200) NNZ
      WRITE (*, 201) NIT
      WRITE (*, 202) NTOT
      WRITE (*, 203) RESMAX
      WRITE (*, 204) ERRMAX
      WRITE (*, 205) XSUM
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 206)
      ELSE
         WRITE (*, 207)
      END IF
  200 FORMAT (' CHECKSUM CSRMV NNZ ', I12)
  201 FORMAT (' CHECKSUM CSRMV ITERS ', I12)
  202 FORMAT (' CHECKSUM CSRMV TOTITERS ', I12)
  203 FORMAT (' CHECKSUM CSRMV RESID ', 1PE12.4)
  204 FORMAT (' CHECKSUM CSRMV ERROR ', 1PE12.4)
  205 FORMAT (' CHECKSUM CSRMV XSUM ', 1PE22.14)
  206 FORMAT (' SELFCHECK CSRMV PASS')
  207 FORMAT (' SELFCHECK CSRMV FAIL')
      END
C
C     Y = A X FOR A IN COMPRESSED SPARSE ROW FORM.
C
      SUBROUTINE SPMV(N, ROWPTR, COLIDX, VAL, X, Y)
      INTEGER N, ROWPTR(N + 1), COLIDX(*)
      DOUBLE PRECISION VAL(*), X(N), Y(N)
      INTEGER I, K
      DOUBLE PRECISION S
      DO 20 I = 1, N
         S = 0.0D0
         DO 10 K = ROWPTR(I), ROWPTR(I + 1) - 1
            S = S + VAL(K) * X(COLIDX(K))
   10    CONTINUE
         Y(I) = S
   20 CONTINUE
      RETURN
      END
C
C     DOT PRODUCT OF TWO VECTORS.
C
      DOUBLE PRECISION FUNCTION DDOT(N, X, Y)
      INTEGER N
      DOUBLE PRECISION X(N), Y(N)
      INTEGER I
      DOUBLE PRECISION S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I) * Y(I)
   10 CONTINUE
      DDOT = S
      RETURN
      END
