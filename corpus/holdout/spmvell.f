C=======================================================================
C     SPMVELL: SPARSE MATRIX-VECTOR PRODUCTS IN COMPRESSED SPARSE ROW
C     (CSR) FORMAT WITH INDIRECT ADDRESSING, USED IN A POWER ITERATION.
C     THE MATRIX HAS A RANDOM SPARSITY PATTERN AND POSITIVE ENTRIES,
C     SCALED TO BE ROW-STOCHASTIC, SO ITS DOMINANT EIGENVALUE IS
C     EXACTLY 1 WITH EIGENVECTOR (1,1,...,1).  CHECKS:
C       - RAYLEIGH/NORM RATIO CONVERGES TO 1
C       - ITERATE CONVERGES TO A CONSTANT VECTOR
C       - SUM(A*X) = SUM_J COLSUM(J)*X(J) EVERY ITERATION
C       - ADJOINT IDENTITY  W.(A*V) = (A^T*W).V  (TRANSPOSE BY SCATTER)
C=======================================================================
      PROGRAM SPMVEL
      IMPLICIT NONE
      INTEGER N, NNZR, NZMAX, NITER, NREP
      PARAMETER (N=20000, NNZR=11, NZMAX=N*(NNZR+1), NITER=2000)
      PARAMETER (NREP=1)
      INTEGER IROW(N+1), ICOL(NZMAX), MARK(N)
      DOUBLE PRECISION VAL(NZMAX), X(N), Y(N), CSUM(N), W(N), Z(N)
      INTEGER I, J, K, KK, IT, ISEED, NZ, JC, KBEG, NADJ, IREP, ISEED0
      DOUBLE PRECISION RS, YMAX, XLAM, S1, S2, DEV, XMEAN, CERR
      DOUBLE PRECISION D1, D2, T, RNDV
      INTEGER NXTI
      LOGICAL OK
      EXTERNAL NXTI, RNDV
C
      OK = .TRUE.
      ISEED = 31415926
C
C     ---- BUILD PATTERN: DIAGONAL + NNZR DISTINCT RANDOM COLUMNS ----
      DO 5 I = 1, N
         MARK(I) = 0
    5 CONTINUE
      NZ = 0
      IROW(1) = 1
      DO 40 I = 1, N
         KBEG = NZ + 1
         NZ = NZ + 1
         ICOL(NZ) = I
         MARK(I) = I
         K = 0
   10    CONTINUE
         IF (K .GE. NNZR) GO TO 20
         JC = MOD(NXTI(ISEED), N) + 1
         IF (MARK(JC) .EQ. I) GO TO 10
         MARK(JC) = I
         NZ = NZ + 1
         ICOL(NZ) = JC
         K = K + 1
         GO TO 10
   20    CONTINUE
C        INSERTION SORT OF THE COLUMN INDICES OF ROW I
         DO 30 K = KBEG + 1, NZ
            JC = ICOL(K)
            KK = K - 1
   25       IF (KK .LT. KBEG) GO TO 28
            IF (ICOL(KK) .LE. JC) GO TO 28
            ICOL(KK+1) = ICOL(KK)
            KK = KK - 1
            GO TO 25
   28       ICOL(KK+1) = JC
   30    CONTINUE
C        POSITIVE VALUES, HEAVIER DIAGONAL, THEN ROW-NORMALISE
         RS = 0.0D0
         DO 32 K = KBEG, NZ
            IF (ICOL(K) .EQ. I) THEN
               VAL(K) = 2.0D0 + RNDV(ISEED)
            ELSE
               VAL(K) = 0.1D0 + RNDV(ISEED)
            ENDIF
            RS = RS + VAL(K)
   32    CONTINUE
         DO 34 K = KBEG, NZ
            VAL(K) = VAL(K) / RS
   34    CONTINUE
         IROW(I+1) = NZ + 1
   40 CONTINUE
      WRITE(*,'(A,I10)') 'CHECKSUM SPMVELL NNZ ', NZ
C
C     ---- COLUMN SUMS (FOR THE CONSERVATION CHECK) ----
      DO 45 J = 1, N
         CSUM(J) = 0.0D0
   45 CONTINUE
      DO 50 K = 1, NZ
         CSUM(ICOL(K)) = CSUM(ICOL(K)) + VAL(K)
   50 CONTINUE
C
C     ---- POWER ITERATION AND ADJOINT CHECK, REDONE NREP TIMES,
C          EACH TIME FROM THE SAME RANDOM STATE ----
      ISEED0 = ISEED
      DO 200 IREP = 1, NREP
         ISEED = ISEED0
C        ---- POWER ITERATION FROM A RANDOM POSITIVE START ----
         DO 55 I = 1, N
            X(I) = 0.5D0 + RNDV(ISEED)
   55    CONTINUE
         CERR = 0.0D0
         XLAM = 0.0D0
         DO 100 IT = 1, NITER
            CALL CSRMV(N, IROW, ICOL, VAL, X, Y)
            S1 = 0.0D0
            S2 = 0.0D0
            YMAX = 0.0D0
            DO 60 I = 1, N
               S1 = S1 + Y(I)
               S2 = S2 + CSUM(I)*X(I)
               YMAX = MAX(YMAX, ABS(Y(I)))
   60       CONTINUE
            CERR = MAX(CERR, ABS(S1 - S2) / ABS(S2))
            D1 = 0.0D0
            D2 = 0.0D0
            DO 70 I = 1, N
               D1 = D1 + X(I)*Y(I)
               D2 = D2 + X(I)*X(I)
   70       CONTINUE
            XLAM = D1 / D2
            T = 1.0D0 / YMAX
            DO 80 I = 1, N
               X(I) = Y(I)*T
   80       CONTINUE
  100    CONTINUE
C
         XMEAN = 0.0D0
         DO 110 I = 1, N
            XMEAN = XMEAN + X(I)
  110    CONTINUE
         XMEAN = XMEAN / DBLE(N)
         DEV = 0.0D0
         DO 120 I = 1, N
            DEV = MAX(DEV, ABS(X(I) - XMEAN))
  120    CONTINUE
         DEV = DEV / XMEAN
C
C        ---- ADJOINT IDENTITY CHECK WITH RANDOM V, W ----
         NADJ = 0
         DO 140 I = 1, N
            X(I) = RNDV(ISEED) - 0.5D0
            W(I) = RNDV(ISEED) - 0.5D0
  140    CONTINUE
         CALL CSRMV(N, IROW, ICOL, VAL, X, Y)
         CALL CSRMTV(N, IROW, ICOL, VAL, W, Z)
         D1 = 0.0D0
         D2 = 0.0D0
         DO 150 I = 1, N
            D1 = D1 + W(I)*Y(I)
            D2 = D2 + Z(I)*X(I)
  150    CONTINUE
         IF (ABS(D1 - D2) .GT. 1.0D-10*(ABS(D1) + 1.0D0)) NADJ = 1
C        CHECKS FOR THIS REPETITION
         IF (ABS(XLAM - 1.0D0) .GT. 1.0D-12) OK = .FALSE.
         IF (DEV .GT. 1.0D-9) OK = .FALSE.
         IF (CERR .GT. 1.0D-11) OK = .FALSE.
         IF (NADJ .NE. 0) OK = .FALSE.
  200 CONTINUE
C
      WRITE(*,'(A,F20.15)') 'CHECKSUM SPMVELL LAMBDA ', XLAM
      WRITE(*,'(A,1PE12.4)') 'CHECKSUM SPMVELL DEV ', DEV
      WRITE(*,'(A,1PE12.4)') 'CHECKSUM SPMVELL CONSERV ', CERR
      WRITE(*,'(A,F20.12)') 'CHECKSUM SPMVELL ADJOINT ', D1
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK SPMVELL PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK SPMVELL FAIL'
      ENDIF
      END
C
C-----------------------------------------------------------------------
C     Y = A*X, CSR, GATHER THROUGH ICOL
C-----------------------------------------------------------------------
      SUBROUTINE CSRMV(N, IROW, ICOL, VAL, X, Y)
      IMPLICIT NONE
      INTEGER N, IROW(*), ICOL(*)
      DOUBLE PRECISION VAL(*), X(*), Y(*)
      INTEGER I, K
      DOUBLE PRECISION S
      DO 20 I = 1, N
         S = 0.0D0
         DO 10 K = IROW(I), IROW(I+1) - 1
            S = S + VAL(K)*X(ICOL(K))
   10    CONTINUE
         Y(I) = S
   20 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     Z = A**T * W, CSR, SCATTER THROUGH ICOL
C-----------------------------------------------------------------------
      SUBROUTINE CSRMTV(N, IROW, ICOL, VAL, W, Z)
      IMPLICIT NONE
      INTEGER N, IROW(*), ICOL(*)
      DOUBLE PRECISION VAL(*), W(*), Z(*)
      INTEGER I, K
      DO 5 I = 1, N
         Z(I) = 0.0D0
    5 CONTINUE
      DO 20 I = 1, N
         DO 10 K = IROW(I), IROW(I+1) - 1
            Z(ICOL(K)) = Z(ICOL(K)) + VAL(K)*W(I)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
C
      INTEGER FUNCTION NXTI(ISEED)
      IMPLICIT NONE
      INTEGER ISEED, K
      K = ISEED / 127773
      ISEED = 16807*(ISEED - K*127773) - 2836*K
      IF (ISEED .LT. 0) ISEED = ISEED + 2147483647
      NXTI = ISEED
      RETURN
      END
C
      DOUBLE PRECISION FUNCTION RNDV(ISEED)
      IMPLICIT NONE
      INTEGER ISEED, NXTI
      EXTERNAL NXTI
      RNDV = DBLE(NXTI(ISEED)) / 2147483647.0D0
      RETURN
      END
