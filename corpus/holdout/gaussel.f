C=======================================================================
C     GAUSSEL: GAUSSIAN ELIMINATION WITH PARTIAL PIVOTING AND BACK
C     SUBSTITUTION ON DENSE REAL*8 SYSTEMS OF SEVERAL SIZES.
C     THE RIGHT-HAND SIDE IS BUILT FROM A KNOWN SOLUTION, SO BOTH THE
C     RESIDUAL AND THE SOLUTION ERROR CAN BE CHECKED.
C=======================================================================
      PROGRAM GAUSEL
      IMPLICIT NONE
      INTEGER NMAX, NSIZES, NREP
      PARAMETER (NMAX=400, NSIZES=3, NREP=25)
      DOUBLE PRECISION A(NMAX,NMAX), A0(NMAX,NMAX)
      DOUBLE PRECISION B(NMAX), B0(NMAX), X(NMAX), XT(NMAX)
      INTEGER IPIV(NMAX), NLIST(NSIZES)
      INTEGER IS, N, IREP, I, INFO, ISEED
      DOUBLE PRECISION RES, ERR, BNRM, SUMX, SUMALL
      LOGICAL OK
      DATA NLIST /100, 250, 400/
C
      OK = .TRUE.
      SUMALL = 0.0D0
      DO 100 IS = 1, NSIZES
         N = NLIST(IS)
         ISEED = 12345 + 7*N
         CALL GENMAT(A0, NMAX, N, ISEED)
         DO 10 I = 1, N
            XT(I) = 1.0D0 + DBLE(MOD(I*37, 11)) / 10.0D0
   10    CONTINUE
         CALL MATVEC(A0, NMAX, N, XT, B0)
         SUMX = 0.0D0
         DO 50 IREP = 1, NREP
            CALL COPYM(A0, A, NMAX, N)
            DO 20 I = 1, N
               B(I) = B0(I)
   20       CONTINUE
            CALL DGEFAC(A, NMAX, N, IPIV, INFO)
            IF (INFO .NE. 0) THEN
               WRITE(*,*) 'SINGULAR MATRIX AT COLUMN ', INFO
               OK = .FALSE.
               GO TO 100
            ENDIF
            CALL DGESOL(A, NMAX, N, IPIV, B)
            DO 30 I = 1, N
               X(I) = B(I)
               SUMX = SUMX + X(I)
   30       CONTINUE
   50    CONTINUE
C        RESIDUAL  || A0*X - B0 ||_INF / ( ||A0|| ||X|| )
         CALL RESID(A0, NMAX, N, X, B0, RES, BNRM)
         ERR = 0.0D0
         DO 60 I = 1, N
            ERR = MAX(ERR, ABS(X(I) - XT(I)))
   60    CONTINUE
         WRITE(*,'(A,I4,A,1PE12.4)') 'CHECKSUM GAUSSEL RES', N, ' ',
     &        RES
         WRITE(*,'(A,I4,A,F20.8)') 'CHECKSUM GAUSSEL SUMX', N, ' ',
     &        SUMX / DBLE(NREP)
         IF (RES .GT. 1.0D-12) OK = .FALSE.
         IF (ERR .GT. 1.0D-8) OK = .FALSE.
         SUMALL = SUMALL + SUMX
  100 CONTINUE
      WRITE(*,'(A,F20.6)') 'CHECKSUM GAUSSEL TOTAL ', SUMALL
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK GAUSSEL PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK GAUSSEL FAIL'
      ENDIF
      END
C
C-----------------------------------------------------------------------
C     FILL A WITH PSEUDO-RANDOM VALUES IN (-1,1) FROM AN INTEGER LCG.
C     A MODEST DIAGONAL SHIFT KEEPS THE SYSTEM WELL CONDITIONED BUT
C     STILL FORCES PIVOTING (DIAGONAL IS NOT DOMINANT).
C-----------------------------------------------------------------------
      SUBROUTINE GENMAT(A, LDA, N, ISEED)
      IMPLICIT NONE
      INTEGER LDA, N, ISEED
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, J
      DOUBLE PRECISION RNDU
      EXTERNAL RNDU
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = 2.0D0*RNDU(ISEED) - 1.0D0
   10    CONTINUE
   20 CONTINUE
      DO 30 I = 1, N
         A(I,I) = A(I,I) + 2.0D0
   30 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     PARK-MILLER MINIMAL STANDARD GENERATOR (SCHRAGE FACTORISATION)
C-----------------------------------------------------------------------
      DOUBLE PRECISION FUNCTION RNDU(ISEED)
      IMPLICIT NONE
      INTEGER ISEED, IA, IM, IQ, IR, K
      PARAMETER (IA=16807, IM=2147483647, IQ=127773, IR=2836)
      K = ISEED / IQ
      ISEED = IA*(ISEED - K*IQ) - IR*K
      IF (ISEED .LT. 0) ISEED = ISEED + IM
      RNDU = DBLE(ISEED) / DBLE(IM)
      RETURN
      END
C
      SUBROUTINE COPYM(A, B, LDA, N)
      IMPLICIT NONE
      INTEGER LDA, N, I, J
      DOUBLE PRECISION A(LDA,*), B(LDA,*)
      DO 20 J = 1, N
         DO 10 I = 1, N
            B(I,J) = A(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
C
      SUBROUTINE MATVEC(A, LDA, N, X, Y)
      IMPLICIT NONE
      INTEGER LDA, N, I, J
      DOUBLE PRECISION A(LDA,*), X(*), Y(*)
      DO 10 I = 1, N
         Y(I) = 0.0D0
   10 CONTINUE
      DO 30 J = 1, N
         DO 20 I = 1, N
            Y(I) = Y(I) + A(I,J)*X(J)
   20    CONTINUE
   30 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     LU FACTORISATION WITH PARTIAL (ROW) PIVOTING, COLUMN ORIENTED.
C     ON EXIT A HOLDS L (UNIT LOWER, NEGATED MULTIPLIERS) AND U.
C-----------------------------------------------------------------------
      SUBROUTINE DGEFAC(A, LDA, N, IPIV, INFO)
      IMPLICIT NONE
      INTEGER LDA, N, IPIV(*), INFO
      DOUBLE PRECISION A(LDA,*)
      INTEGER I, J, K, L
      DOUBLE PRECISION T, AMAX
      INFO = 0
      DO 60 K = 1, N - 1
C        FIND PIVOT ROW L
         L = K
         AMAX = ABS(A(K,K))
         DO 10 I = K + 1, N
            IF (ABS(A(I,K)) .GT. AMAX) THEN
               AMAX = ABS(A(I,K))
               L = I
            ENDIF
   10    CONTINUE
         IPIV(K) = L
         IF (AMAX .EQ. 0.0D0) THEN
            INFO = K
            GO TO 60
         ENDIF
         IF (L .NE. K) THEN
            T = A(L,K)
            A(L,K) = A(K,K)
            A(K,K) = T
         ENDIF
C        COMPUTE MULTIPLIERS
         T = -1.0D0 / A(K,K)
         DO 20 I = K + 1, N
            A(I,K) = T*A(I,K)
   20    CONTINUE
C        ROW ELIMINATION WITH COLUMN INDEXING
         DO 50 J = K + 1, N
            T = A(L,J)
            IF (L .NE. K) THEN
               A(L,J) = A(K,J)
               A(K,J) = T
            ENDIF
            IF (T .EQ. 0.0D0) GO TO 50
            DO 40 I = K + 1, N
               A(I,J) = A(I,J) + T*A(I,K)
   40       CONTINUE
   50    CONTINUE
   60 CONTINUE
      IPIV(N) = N
      IF (A(N,N) .EQ. 0.0D0) INFO = N
      RETURN
      END
C
C-----------------------------------------------------------------------
C     SOLVE A*X = B USING THE FACTORS FROM DGEFAC. B IS OVERWRITTEN.
C-----------------------------------------------------------------------
      SUBROUTINE DGESOL(A, LDA, N, IPIV, B)
      IMPLICIT NONE
      INTEGER LDA, N, IPIV(*)
      DOUBLE PRECISION A(LDA,*), B(*)
      INTEGER I, K, L
      DOUBLE PRECISION T
C     FORWARD ELIMINATION  L*Y = P*B
      DO 20 K = 1, N - 1
         L = IPIV(K)
         T = B(L)
         IF (L .NE. K) THEN
            B(L) = B(K)
            B(K) = T
         ENDIF
         DO 10 I = K + 1, N
            B(I) = B(I) + T*A(I,K)
   10    CONTINUE
   20 CONTINUE
C     BACK SUBSTITUTION  U*X = Y
      DO 40 K = N, 1, -1
         B(K) = B(K) / A(K,K)
         T = -B(K)
         DO 30 I = 1, K - 1
            B(I) = B(I) + T*A(I,K)
   30    CONTINUE
   40 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     NORMALISED RESIDUAL  ||A X - B||_INF / (||A||_INF ||X||_INF)
C-----------------------------------------------------------------------
      SUBROUTINE RESID(A, LDA, N, X, B, RES, ANRM)
      IMPLICIT NONE
      INTEGER LDA, N, I, J
      DOUBLE PRECISION A(LDA,*), X(*), B(*), RES, ANRM
      DOUBLE PRECISION R, RMAX, XMAX, ROWS
      RMAX = 0.0D0
      ANRM = 0.0D0
      XMAX = 0.0D0
      DO 20 I = 1, N
         R = -B(I)
         ROWS = 0.0D0
         DO 10 J = 1, N
            R = R + A(I,J)*X(J)
            ROWS = ROWS + ABS(A(I,J))
   10    CONTINUE
         RMAX = MAX(RMAX, ABS(R))
         ANRM = MAX(ANRM, ROWS)
         XMAX = MAX(XMAX, ABS(X(I)))
   20 CONTINUE
      RES = RMAX / (ANRM*XMAX)
      RETURN
      END
