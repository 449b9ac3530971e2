C     ------------------------------------------------------------------
C     CGSOLVE: conjugate-gradient solution of the 2-D Poisson problem
C     -LAPLACE(U) = F on the unit square, Dirichlet U=0, discretised by
C     the standard 5-point stencil on an N x N interior grid.  The
C     operator is applied matrix-free.  Several right-hand sides are
C     manufactured as B = A*XTRUE so the error can be checked exactly.
C     ------------------------------------------------------------------
      PROGRAM CGSOLV
      IMPLICIT NONE
      INTEGER N, NREP, MAXIT
      PARAMETER (N = 200, NREP = 8, MAXIT = 4000)
      DOUBLE PRECISION X(0:N+1,0:N+1), B(0:N+1,0:N+1)
      DOUBLE PRECISION XT(0:N+1,0:N+1), R(0:N+1,0:N+1)
      DOUBLE PRECISION P(0:N+1,0:N+1), Q(0:N+1,0:N+1)
      DOUBLE PRECISION TOL, RNRM, BNRM, ERRMAX, SUMX, PI, H
      DOUBLE PRECISION TOTSUM, WORST
      INTEGER I, J, K, ITS, TOTIT
      LOGICAL OK
C
      PI = 4.0D0*ATAN(1.0D0)
      H = 1.0D0/DBLE(N+1)
      TOL = 1.0D-10
      OK = .TRUE.
      TOTIT = 0
      TOTSUM = 0.0D0
      WORST = 0.0D0
C
      DO 100 K = 1, NREP
C        manufactured exact solution, different for each rhs
         DO 20 J = 0, N+1
            DO 10 I = 0, N+1
               IF (I.EQ.0 .OR. J.EQ.0 .OR. I.EQ.N+1 .OR.
     &             J.EQ.N+1) THEN
                  XT(I,J) = 0.0D0
               ELSE
                  XT(I,J) = SIN(PI*DBLE(K*I)*H)*SIN(PI*DBLE(J)*H)
     &                    + 0.25D0*DBLE(K)*DBLE(I)*H*(1.0D0-DBLE(I)*H)
     &                      *DBLE(J)*H*(1.0D0-DBLE(J)*H)
               END IF
               X(I,J) = 0.0D0
               B(I,J) = 0.0D0
               R(I,J) = 0.0D0
               P(I,J) = 0.0D0
               Q(I,J) = 0.0D0
   10       CONTINUE
   20    CONTINUE
         CALL APPLYA(N, XT, B)
         CALL DOTP(N, B, B, BNRM)
         BNRM = SQRT(BNRM)
C
         CALL CG(N, B, X, R, P, Q, TOL, MAXIT, ITS, RNRM)
         TOTIT = TOTIT + ITS
C
C        true residual and error check
         CALL APPLYA(N, X, Q)
         RNRM = 0.0D0
         ERRMAX = 0.0D0
         SUMX = 0.0D0
         DO 40 J = 1, N
            DO 30 I = 1, N
               RNRM = RNRM + (B(I,J)-Q(I,J))**2
               ERRMAX = MAX(ERRMAX, ABS(X(I,J)-XT(I,J)))
               SUMX = SUMX + X(I,J)
   30       CONTINUE
   40    CONTINUE
         RNRM = SQRT(RNRM)/BNRM
         TOTSUM = TOTSUM + SUMX
         WORST = MAX(WORST, ERRMAX)
         IF (RNRM .GT. 1.0D-8) OK = .FALSE.
         IF (ERRMAX .GT. 1.0D-6) OK = .FALSE.
         IF (ITS .GE. MAXIT) OK = .FALSE.
         WRITE(*,'(A,I2,A,I5,A,1P,E12.4)') ' RHS ', K, ' ITERS ', ITS,
     &        ' RELRES ', RNRM
  100 CONTINUE
C
      WRITE(*,'(A,I8)') 'CHECKSUM CGSOLVE ITERS ', TOTIT
      WRITE(*,'(A,F20.8)') 'CHECKSUM CGSOLVE SUMX ', TOTSUM
      WRITE(*,'(A,1P,E12.4)') 'CHECKSUM CGSOLVE MAXERR ', WORST
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK CGSOLVE PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK CGSOLVE FAIL'
      END IF
      END
C
C     ------------------------------------------------------------------
C     Y = A*X with A = 5-point Laplacian (scaled by H**2, i.e. the
C     integer stencil 4,-1,-1,-1,-1).  Boundary values of X are zero.
C     ------------------------------------------------------------------
      SUBROUTINE APPLYA(N, X, Y)
      IMPLICIT NONE
      INTEGER N
      DOUBLE PRECISION X(0:N+1,0:N+1), Y(0:N+1,0:N+1)
      INTEGER I, J
      DO 20 J = 1, N
         DO 10 I = 1, N
            Y(I,J) = 4.0D0*X(I,J) - X(I-1,J) - X(I+1,J)
     &             - X(I,J-1) - X(I,J+1)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
C
      SUBROUTINE DOTP(N, X, Y, S)
      IMPLICIT NONE
      INTEGER N
      DOUBLE PRECISION X(0:N+1,0:N+1), Y(0:N+1,0:N+1), S
      INTEGER I, J
      S = 0.0D0
      DO 20 J = 1, N
         DO 10 I = 1, N
            S = S + X(I,J)*Y(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
C
C     ------------------------------------------------------------------
C     Unpreconditioned CG.  X is the initial guess on entry (zero here).
C     ------------------------------------------------------------------
      SUBROUTINE CG(N, B, X, R, P, Q, TOL, MAXIT, ITS, RNRM)
      IMPLICIT NONE
      INTEGER N, MAXIT, ITS
      DOUBLE PRECISION B(0:N+1,0:N+1), X(0:N+1,0:N+1)
      DOUBLE PRECISION R(0:N+1,0:N+1), P(0:N+1,0:N+1)
      DOUBLE PRECISION Q(0:N+1,0:N+1), TOL, RNRM
      DOUBLE PRECISION RHO, RHOOLD, ALPHA, BETA, PQ, BNRM
      INTEGER I, J
C
      CALL APPLYA(N, X, Q)
      DO 20 J = 1, N
         DO 10 I = 1, N
            R(I,J) = B(I,J) - Q(I,J)
            P(I,J) = R(I,J)
   10    CONTINUE
   20 CONTINUE
      CALL DOTP(N, B, B, BNRM)
      BNRM = SQRT(BNRM)
      CALL DOTP(N, R, R, RHO)
      ITS = 0
C
   30 CONTINUE
      RNRM = SQRT(RHO)
      IF (RNRM .LE. TOL*BNRM .OR. ITS .GE. MAXIT) GO TO 90
      ITS = ITS + 1
      CALL APPLYA(N, P, Q)
      CALL DOTP(N, P, Q, PQ)
      ALPHA = RHO/PQ
      DO 50 J = 1, N
         DO 40 I = 1, N
            X(I,J) = X(I,J) + ALPHA*P(I,J)
            R(I,J) = R(I,J) - ALPHA*Q(I,J)
   40    CONTINUE
   50 CONTINUE
      RHOOLD = RHO
      CALL DOTP(N, R, R, RHO)
      BETA = RHO/RHOOLD
      DO 70 J = 1, N
         DO 60 I = 1, N
            P(I,J) = R(I,J) + BETA*P(I,J)
   60    CONTINUE
   70 CONTINUE
      GO TO 30
C
   90 CONTINUE
      RNRM = RNRM/BNRM
      RETURN
      END
