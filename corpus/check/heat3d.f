C     THREE-DIMENSIONAL HEAT EQUATION U_T = LAPLACIAN(U) ON THE UNIT
C     CUBE WITH U = 0 ON THE BOUNDARY, BY THE EXPLICIT (FORWARD EULER)
C     SCHEME WITH THE SEVEN-POINT LAPLACIAN ON AN N**3 INTERIOR GRID
C     (H = 1/(N+1)), RATIO R = DT/H**2 = 0.15 (STABLE FOR R .LE. 1/6):
C       V(I,J,K) = U(I,J,K) + R * (U(I-1,J,K) + U(I+1,J,K)
C                + U(I,J-1,K) + U(I,J+1,K) + U(I,J,K-1) + U(I,J,K+1)
C                - 6 U(I,J,K)),
C     JACOBI STYLE WITH TWO ARRAYS THAT SWAP ROLES EACH STEP. THE
C     INITIAL FIELD IS THE SUM OF TWO DISCRETE SINE MODES,
C       SIN(P PI X) SIN(Q PI Y) SIN(S PI Z),  (P,Q,S) = (1,1,1) AND
C     (3,2,1) WITH AMPLITUDE 1/2. EACH IS AN EIGENVECTOR OF THE
C     SCHEME, MULTIPLIED EVERY STEP BY
C       LAMBDA = 1 - 2R (3 - COS(P PI H) - COS(Q PI H) - COS(S PI H)),
C     SO AFTER NSTEP STEPS THE EXACT DISCRETE SOLUTION IS KNOWN. EACH
C     REPETITION STARTS AGAIN FROM THE INITIAL FIELD (SO THE FIELD
C     NEVER DECAYS TOWARD DENORMALS HOWEVER LARGE NREP IS).
C
C     SELF-CHECK: AFTER EVERY REPETITION THE LARGEST DEVIATION FROM
C     THE EXACT DISCRETE SOLUTION IS BELOW 1E-4 OF THE AMPLITUDE OF
C     THE (1,1,1) MODE, AND THE BOUNDARY IS STILL ZERO.
C
C     OUTPUT: CHECKSUM HEAT3D SUM (SUM OF THE FINAL FIELD), CENTER,
C     DECAY (EXACT FACTOR OF THE (1,1,1) MODE), MAXERR, SELFCHECK.
C
      PROGRAM HEAT3D
      INTEGER N, NSTEP, NREP
      PARAMETER (N = 62, NSTEP = 40, NREP = 18)
      REAL U(0:N+1, 0:N+1, 0:N+1), V(0:N+1, 0:N+1, 0:N+1)
      REAL S1(0:N+1), S3(0:N+1), S2(0:N+1)
      REAL R, C
      DOUBLE PRECISION PI, H, G1, G2, EX, ERR, ERRMAX, SUM
      INTEGER I, J, K, IREP, ISTEP, NBAD
      PARAMETER (R = 0.15)
C
      PI = 4.0D0 * DATAN(1.0D0)
      H = 1.0D0 / DBLE(N + 1)
      DO 10 I = 0, N + 1
         S1(I) = REAL(DSIN(PI * DBLE(I) * H))
         S2(I) = REAL(DSIN(2.0D0 * PI * DBLE(I) * H))
         S3(I) = REAL(DSIN(3.0D0 * PI * DBLE(I) * H))
   10 CONTINUE
      S1(0) = 0.0
      S2(0) = 0.0
      S3(0) = 0.0
      S1(N + 1) = 0.0
      S2(N + 1) = 0.0
      S3(N + 1) = 0.0
C     EXACT AMPLIFICATION AFTER NSTEP STEPS.
      G1 = (1.0D0 - 2.0D0 * R * (3.0D0 - 3.0D0 * DCOS(PI * H)))
     &     ** NSTEP
      G2 = (1.0D0 - 2.0D0 * R * (3.0D0 - DCOS(3.0D0 * PI * H)
     &     - DCOS(2.0D0 * PI * H) - DCOS(PI * H))) ** NSTEP
C
      NBAD = 0
      ERRMAX = 0.0D0
      SUM = 0.0D0
      DO 100 IREP = 1, NREP
C        INITIAL FIELD, BOUNDARY INCLUDED (THE SINES VANISH THERE).
         DO 22 K = 0, N + 1
            DO 21 J = 0, N + 1
               DO 20 I = 0, N + 1
                  U(I, J, K) = S1(I) * S1(J) * S1(K)
     &                       + 0.5 * S3(I) * S2(J) * S1(K)
                  V(I, J, K) = U(I, J, K)
   20          CONTINUE
   21       CONTINUE
   22    CONTINUE
C
C        TIME STEPS IN PAIRS: U -> V, THEN V -> U.
         DO 60 ISTEP = 1, NSTEP, 2
            DO 32 K = 1, N
               DO 31 J = 1, N
                  DO 30 I = 1, N
                     C = U(I, J, K)
                     V(I, J, K) = C + R * (U(I - 1, J, K)
     &                    + U(I + 1, J, K) + U(I, J - 1, K)
     &                    + U(I, J + 1, K) + U(I, J, K - 1)
     &                    + U(I, J, K + 1) - 6.0 * C)
   30             CONTINUE
   31          CONTINUE
   32       CONTINUE
            DO 42 K = 1, N
               DO 41 J = 1, N
                  DO 40 I = 1, N
                     C = V(I, J, K)
                     U(I, J, K) = C + R * (V(I - 1, J, K)
     &                    + V(I + 1, J, K) + V(I, J - 1, K)
     &                    + V(I, J + 1, K) + V(I, J, K - 1)
     &                    + V(I, J, K + 1) - 6.0 * C)
   40             CONTINUE
   41          CONTINUE
   42       CONTINUE
   60    CONTINUE
C
C        COMPARE WITH THE EXACT DISCRETE SOLUTION.
         SUM = 0.0D0
         ERR = 0.0D0
         DO 72 K = 1, N
            DO 71 J = 1, N
               DO 70 I = 1, N
                  EX = G1 * S1(I) * S1(J) * S1(K)
     &               + 0.5D0 * G2 * S3(I) * S2(J) * S1(K)
                  ERR = DMAX1(ERR, DABS(U(I, J, K) - EX))
                  SUM = SUM + U(I, J, K)
   70          CONTINUE
   71       CONTINUE
   72    CONTINUE
         ERR = ERR / G1
         IF (ERR .GT. ERRMAX) ERRMAX = ERR
         IF (.NOT. (ERR .LT. 1.0D-4)) NBAD = NBAD + 1
         DO 81 J = 0, N + 1
            DO 80 I = 0, N + 1
               IF (U(I, J, 0) .NE. 0.0 .OR. U(I, J, N + 1) .NE. 0.0
     &            .OR. U(I, 0, J) .NE. 0.0 .OR. U(I, N + 1, J) .NE. 0.0
     &            .OR. U(0, I, J) .NE. 0.0 .OR. U(N + 1, I, J) .NE. 0.0)
     &            NBAD = NBAD + 1
   80       CONTINUE
   81    CONTINUE
  100 CONTINUE
C
      WRITE (*, 200) SUM
      WRITE (*, 201) U(N / 2, N / 2, N / 2)
      WRITE (*, 202) G1
      WRITE (*, 203) ERRMAX
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 204)
      ELSE
         WRITE (*, 205)
      END IF
  200 FORMAT (' CHECKSUM HEAT3D SUM ', 1PE16.8)
  201 FORMAT (' CHECKSUM HEAT3D CENTER ', 1PE16.8)
  202 FORMAT (' CHECKSUM HEAT3D DECAY ', 1PE16.8)
  203 FORMAT (' CHECKSUM HEAT3D MAXERR ', 1PE12.4)
  204 FORMAT (' SELFCHECK HEAT3D PASS')
  205 FORMAT (' SELFCHECK HEAT3D FAIL')
      END
