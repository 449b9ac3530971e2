C     LINPACK (SEED 004 SECTION 5.2.1, TABLE 5.2): SOLVES A X = B FOR
C     A DENSE N BY N SINGLE PRECISION MATRIX BY LU FACTORIZATION WITH
C     PARTIAL PIVOTING (SGEFA, COLUMN ORIENTED, BUILT ON ISAMAX, SSCAL
C     AND SAXPY) AND FORWARD AND BACK SUBSTITUTION (SGESL). THE
C     MATRIX IS REGENERATED AND THE SYSTEM SOLVED NREP TIMES.
C     THE ENTRIES COME FROM THE GENERATOR S := MOD(3125 * S, 65536),
C     A = (S - 32768) / 16384, S0 = 1325; B = A * (1, ..., 1), SO
C     THE EXACT SOLUTION IS X = (1, ..., 1).
C
C     OUTPUT (THE ONLY OUTPUT), ONE LINE EACH:
C       CHECKSUM LINPACK INFO <0 WHEN NO ZERO PIVOT WAS MET>
C       CHECKSUM LINPACK PIVOTS <SUM OF I * IPVT(I)>
C       CHECKSUM LINPACK RESIDN <MAX|A X - B| / (N MAX|A| MAX|X| EPS)>
C       CHECKSUM LINPACK XERR <MAX |X(I) - 1|>
C       CHECKSUM LINPACK EPS <MACHINE EPSILON AS COMPUTED>
C
      PROGRAM LINPK
      INTEGER N, LDA, NREP
      PARAMETER (N = 100, LDA = N + 1, NREP = 2600)
      REAL A(LDA, N), B(N), X(N), R(N)
      INTEGER IPVT(N)
      INTEGER I, IREP, INFO, IPSUM
      REAL ANORM, RESID, XNORM, XERR, EPS, RESIDN
      REAL EPSLON
      EXTERNAL EPSLON
C
      INFO = 0
      DO 20 IREP = 1, NREP
         CALL MATGEN(A, LDA, N, B, ANORM)
         CALL SGEFA(A, LDA, N, IPVT, INFO)
         CALL SGESL(A, LDA, N, IPVT, B)
   20 CONTINUE
C
C     CHECK THE LAST SOLUTION AGAINST A FRESH COPY OF THE SYSTEM.
      DO 30 I = 1, N
         X(I) = B(I)
   30 CONTINUE
      CALL MATGEN(A, LDA, N, B, ANORM)
      DO 40 I = 1, N
         R(I) = -B(I)
   40 CONTINUE
      CALL SMXPY(N, R, LDA, A, X)
      RESID = 0.0
      XNORM = 0.0
      XERR = 0.0
      IPSUM = 0
      DO 50 I = 1, N
         RESID = MAX(RESID, ABS(R(I)))
         XNORM = MAX(XNORM, ABS(X(I)))
         XERR = MAX(XERR, ABS(X(I) - 1.0))
         IPSUM = IPSUM + I * IPVT(I)
   50 CONTINUE
      EPS = EPSLON(1.0)
      RESIDN = RESID / (REAL(N) * ANORM * XNORM * EPS)
      WRITE (*, 100) INFO
      WRITE (*, 101) IPSUM
      WRITE (*, 102) RESIDN
      WRITE (*, 103) XERR
      WRITE (*, 104) EPS
  100 FORMAT (' CHECKSUM LINPACK INFO ', I12)
  101 FORMAT (' CHECKSUM LINPACK PIVOTS ', I12)
  102 FORMAT (' CHECKSUM LINPACK RESIDN ', 1PE16.8)
  103 FORMAT (' CHECKSUM LINPACK XERR ', 1PE16.8)
  104 FORMAT (' CHECKSUM LINPACK EPS ', 1PE16.8)
      END
C
C     THE TEST MATRIX, B = A * (1, ..., 1), AND ANORM = MAX |A(I,J)|.
C
      SUBROUTINE MATGEN(A, LDA, N, B, ANORM)
      INTEGER LDA, N
      REAL A(LDA, N), B(N), ANORM
      INTEGER I, J, ISEED
      ISEED = 1325
      ANORM = 0.0
      DO 20 J = 1, N
         DO 10 I = 1, N
            ISEED = MOD(3125 * ISEED, 65536)
            A(I, J) = (REAL(ISEED) - 32768.0) / 16384.0
            IF (ABS(A(I, J)) .GT. ANORM) ANORM = ABS(A(I, J))
   10    CONTINUE
   20 CONTINUE
      DO 30 I = 1, N
         B(I) = 0.0
   30 CONTINUE
      DO 50 J = 1, N
         DO 40 I = 1, N
            B(I) = B(I) + A(I, J)
   40    CONTINUE
   50 CONTINUE
      RETURN
      END
C
C     LU FACTORIZATION BY GAUSSIAN ELIMINATION WITH PARTIAL PIVOTING.
C     ON RETURN A HOLDS U AND THE NEGATED MULTIPLIERS OF L; IPVT(K)
C     IS THE ROW SWAPPED WITH ROW K; INFO = K IF U(K,K) IS ZERO.
C
      SUBROUTINE SGEFA(A, LDA, N, IPVT, INFO)
      INTEGER LDA, N, IPVT(N), INFO
      REAL A(LDA, N)
      REAL T
      INTEGER ISAMAX, J, K, KP1, L, NM1
      EXTERNAL ISAMAX
      INFO = 0
      NM1 = N - 1
      IF (NM1 .LT. 1) GO TO 70
      DO 60 K = 1, NM1
         KP1 = K + 1
C        THE PIVOT: THE LARGEST ELEMENT OF COLUMN K ON OR BELOW K.
         L = ISAMAX(N - K + 1, A(K, K), 1) + K - 1
         IPVT(K) = L
         IF (A(L, K) .EQ. 0.0) GO TO 40
         IF (L .EQ. K) GO TO 10
            T = A(L, K)
            A(L, K) = A(K, K)
            A(K, K) = T
   10    CONTINUE
         T = -1.0 / A(K, K)
         CALL SSCAL(N - K, T, A(K + 1, K), 1)
C        ELIMINATE COLUMN K FROM THE COLUMNS TO ITS RIGHT.
         DO 30 J = KP1, N
            T = A(L, J)
            IF (L .EQ. K) GO TO 20
               A(L, J) = A(K, J)
               A(K, J) = T
   20       CONTINUE
            CALL SAXPY(N - K, T, A(K + 1, K), 1, A(K + 1, J), 1)
   30    CONTINUE
         GO TO 50
   40    CONTINUE
         INFO = K
   50    CONTINUE
   60 CONTINUE
   70 CONTINUE
      IPVT(N) = N
      IF (A(N, N) .EQ. 0.0) INFO = N
      RETURN
      END
C
C     SOLVES A X = B WITH THE FACTORS FROM SGEFA; B IS OVERWRITTEN
C     BY X.
C
      SUBROUTINE SGESL(A, LDA, N, IPVT, B)
      INTEGER LDA, N, IPVT(N)
      REAL A(LDA, N), B(N)
      REAL T
      INTEGER K, KB, L, NM1
      NM1 = N - 1
C     FORWARD ELIMINATION: SOLVE L Y = B.
      IF (NM1 .LT. 1) GO TO 30
      DO 20 K = 1, NM1
         L = IPVT(K)
         T = B(L)
         IF (L .EQ. K) GO TO 10
            B(L) = B(K)
            B(K) = T
   10    CONTINUE
         CALL SAXPY(N - K, T, A(K + 1, K), 1, B(K + 1), 1)
   20 CONTINUE
   30 CONTINUE
C     BACK SUBSTITUTION: SOLVE U X = Y.
      DO 40 KB = 1, N
         K = N + 1 - KB
         B(K) = B(K) / A(K, K)
         T = -B(K)
         CALL SAXPY(K - 1, T, A(1, K), 1, B(1), 1)
   40 CONTINUE
      RETURN
      END
C
C     INDEX OF THE ELEMENT OF LARGEST MAGNITUDE OF SX (STRIDE INCX).
C
      INTEGER FUNCTION ISAMAX(N, SX, INCX)
      INTEGER N, INCX
      REAL SX(*)
      REAL SMAX
      INTEGER I, IX
      ISAMAX = 0
      IF (N .LT. 1) RETURN
      ISAMAX = 1
      IF (N .EQ. 1) RETURN
      IX = 1
      SMAX = ABS(SX(1))
      IX = IX + INCX
      DO 10 I = 2, N
         IF (ABS(SX(IX)) .LE. SMAX) GO TO 5
         ISAMAX = I
         SMAX = ABS(SX(IX))
    5    IX = IX + INCX
   10 CONTINUE
      RETURN
      END
C
C     SX := SA * SX.
C
      SUBROUTINE SSCAL(N, SA, SX, INCX)
      INTEGER N, INCX
      REAL SA, SX(*)
      INTEGER I, IX
      IF (N .LT. 1) RETURN
      IF (INCX .EQ. 1) GO TO 20
      IX = 1
      DO 10 I = 1, N
         SX(IX) = SA * SX(IX)
         IX = IX + INCX
   10 CONTINUE
      RETURN
   20 DO 30 I = 1, N
         SX(I) = SA * SX(I)
   30 CONTINUE
      RETURN
      END
C
C     SY := SY + SA * SX.
C
      SUBROUTINE SAXPY(N, SA, SX, INCX, SY, INCY)
      INTEGER N, INCX, INCY
      REAL SA, SX(*), SY(*)
      INTEGER I, IX, IY
      IF (N .LT. 1) RETURN
      IF (SA .EQ. 0.0) RETURN
      IF (INCX .EQ. 1 .AND. INCY .EQ. 1) GO TO 20
      IX = 1
      IY = 1
      IF (INCX .LT. 0) IX = (1 - N) * INCX + 1
      IF (INCY .LT. 0) IY = (1 - N) * INCY + 1
      DO 10 I = 1, N
         SY(IY) = SY(IY) + SA * SX(IX)
         IX = IX + INCX
         IY = IY + INCY
   10 CONTINUE
      RETURN
   20 DO 30 I = 1, N
         SY(I) = SY(I) + SA * SX(I)
   30 CONTINUE
      RETURN
      END
C
C     Y := Y + M * X FOR AN N BY N MATRIX M, COLUMN BY COLUMN.
C
      SUBROUTINE SMXPY(N, Y, LDM, M, X)
      INTEGER N, LDM
      REAL Y(N), M(LDM, N), X(N)
      INTEGER J
      DO 10 J = 1, N
         CALL SAXPY(N, X(J), M(1, J), 1, Y, 1)
   10 CONTINUE
      RETURN
      END
C
C     THE SPACING OF REALS NEAR 1 TIMES ABS(X), COMPUTED FROM THE
C     ROUNDING OF 4/3 (NO MACHINE CONSTANT IS ASSUMED).
C
      REAL FUNCTION EPSLON(X)
      REAL X
      REAL A, B, C, EPS
      A = 4.0 / 3.0
   10 B = A - 1.0
      C = B + B + B
      EPS = ABS(C - 1.0)
      IF (EPS .EQ. 0.0) GO TO 10
      EPSLON = EPS * ABS(X)
      RETURN
      END
