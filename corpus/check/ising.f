C     ISING: METROPOLIS MONTE CARLO OF THE 2-D ISING MODEL.
C     AN L BY L SQUARE LATTICE OF SPINS S = +1/-1 WITH PERIODIC
C     BOUNDARIES, ENERGY E = - SUM OVER NEAREST-NEIGHBOUR PAIRS OF
C     S(I)*S(J) (J = 1, NO FIELD). A SWEEP VISITS EVERY SITE IN ORDER
C     AND PROPOSES TO FLIP IT: THE ENERGY CHANGE IS DE = 2 S (SUM OF
C     THE 4 NEIGHBOURS), ONE OF -8, -4, 0, 4, 8; THE FLIP IS ACCEPTED
C     IF DE .LE. 0, OTHERWISE WITH PROBABILITY EXP(-DE/T) (METROPOLIS
C     ET AL. 1953). THE PROBABILITIES ARE TABULATED ONCE PER
C     TEMPERATURE AS INTEGER THRESHOLDS FOR AN INTEGER RANDOM NUMBER
C     (PARK-MILLER MINIMAL STANDARD GENERATOR, SCHRAGE'S METHOD), AND
C     THE NEIGHBOURS COME FROM PRECOMPUTED INDEX ARRAYS IP, IM.
C     ENERGY AND MAGNETIZATION ARE UPDATED AT EVERY ACCEPTED FLIP.
C
C     THREE TEMPERATURES ARE RUN: T = 1.5 (ORDERED) FROM ALL SPINS UP,
C     T = 2.27 (NEAR THE CRITICAL POINT) AND T = 3.5 (DISORDERED) FROM
C     A RANDOM START, NSWEEP SWEEPS EACH, THE LAST HALF AVERAGED.
C
C     SELF-CHECK: AT THE END OF EVERY RUN THE ENERGY RECOMPUTED FROM
C     SCRATCH EQUALS THE TRACKED ENERGY AND THE RECOUNTED
C     MAGNETIZATION THE TRACKED ONE; -2N .LE. E .LE. 2N, E IS A
C     MULTIPLE OF 4, |M| .LE. N AND M IS EVEN (N = L*L); AND THE
C     PHASES ARE RIGHT: |<M>|/N .GT. 0.9 AT T = 1.5, .LT. 0.2 AT
C     T = 3.5. EVERY REPETITION RESTARTS FROM THE SAME SEED.
C
C     OUTPUT:
C       CHECKSUM ISING E1 <AVERAGE ENERGY PER SPIN, T = 1.5>
C       CHECKSUM ISING E2 <AVERAGE ENERGY PER SPIN, T = 2.27>
C       CHECKSUM ISING E3 <AVERAGE ENERGY PER SPIN, T = 3.5>
C       CHECKSUM ISING M1 <AVERAGE |MAGNETIZATION| PER SPIN, T = 1.5>
C       CHECKSUM ISING FLIPS <ACCEPTED FLIPS OF ONE REPETITION>
C       SELFCHECK ISING PASS|FAIL
C
      PROGRAM ISING
      INTEGER NREP, L, NT, NSWEEP
      PARAMETER (NREP = 75, L = 64, NT = 3, NSWEEP = 100)
      INTEGER IS(L,L), IP(L), IM(L), ITHR(5)
      INTEGER ISEED, IREP, IT, ISW, I, J, K, NB, IE, M, IE2, M2, N
      INTEGER NFLIP, IRAN
      DOUBLE PRECISION TEMP(NT), EAVG(NT), MAVG(NT), ESUM, MSUM
      DOUBLE PRECISION W
      LOGICAL OK
      EXTERNAL IRAN
      DATA TEMP /1.5D0, 2.27D0, 3.5D0/
C
      N = L * L
      DO 10 I = 1, L
         IP(I) = I + 1
         IM(I) = I - 1
   10 CONTINUE
      IP(L) = 1
      IM(1) = L
      OK = .TRUE.
      NFLIP = 0
C
      DO 200 IREP = 1, NREP
         ISEED = 4711
         NFLIP = 0
         DO 190 IT = 1, NT
C           ---- THRESHOLDS: INDEX K = S*NB/2 + 3, DE = 4*(K-3)
            DO 20 K = 1, 5
               IF (K .LE. 3) THEN
                  ITHR(K) = 2147483647
               ELSE
                  W = EXP(-4.0D0 * DBLE(K - 3) / TEMP(IT))
                  ITHR(K) = INT(W * 2147483647.0D0)
               END IF
   20       CONTINUE
C           ---- START: ALL UP AT THE LOWEST TEMPERATURE, ELSE RANDOM
            DO 40 J = 1, L
               DO 30 I = 1, L
                  IF (IT .EQ. 1) THEN
                     IS(I,J) = 1
                  ELSE IF (IRAN(ISEED) .LT. 1073741824) THEN
                     IS(I,J) = 1
                  ELSE
                     IS(I,J) = -1
                  END IF
   30          CONTINUE
   40       CONTINUE
            CALL ENERGY(IS, L, IP, IE, M)
            ESUM = 0.0D0
            MSUM = 0.0D0
C           ---- METROPOLIS SWEEPS
            DO 100 ISW = 1, NSWEEP
               DO 90 J = 1, L
                  DO 80 I = 1, L
                     NB = IS(IP(I),J) + IS(IM(I),J) + IS(I,IP(J))
     &                    + IS(I,IM(J))
                     K = IS(I,J) * NB / 2 + 3
                     IF (K .GT. 3) THEN
                        IF (IRAN(ISEED) .GE. ITHR(K)) GO TO 80
                     END IF
                     IE = IE + 4 * (K - 3)
                     M = M - 2 * IS(I,J)
                     IS(I,J) = -IS(I,J)
                     NFLIP = NFLIP + 1
   80             CONTINUE
   90          CONTINUE
               IF (ISW .GT. NSWEEP / 2) THEN
                  ESUM = ESUM + DBLE(IE)
                  MSUM = MSUM + DBLE(ABS(M))
               END IF
  100       CONTINUE
            EAVG(IT) = ESUM / DBLE(NSWEEP - NSWEEP / 2) / DBLE(N)
            MAVG(IT) = MSUM / DBLE(NSWEEP - NSWEEP / 2) / DBLE(N)
C           ---- RECOMPUTE FROM SCRATCH AND CHECK
            CALL ENERGY(IS, L, IP, IE2, M2)
            IF (IE2 .NE. IE .OR. M2 .NE. M) OK = .FALSE.
            IF (IE .LT. -2 * N .OR. IE .GT. 2 * N) OK = .FALSE.
            IF (MOD(IE, 4) .NE. 0) OK = .FALSE.
            IF (ABS(M) .GT. N .OR. MOD(M, 2) .NE. 0) OK = .FALSE.
  190    CONTINUE
         IF (MAVG(1) .LE. 0.9D0 .OR. MAVG(3) .GE. 0.2D0) OK = .FALSE.
  200 CONTINUE
C
      WRITE (*, 900) 'E1', EAVG(1)
      WRITE (*, 900) 'E2', EAVG(2)
      WRITE (*, 900) 'E3', EAVG(3)
      WRITE (*, 900) 'M1', MAVG(1)
      WRITE (*, 901) 'FLIPS', NFLIP
      IF (OK) THEN
         WRITE (*, 910) 'PASS'
      ELSE
         WRITE (*, 910) 'FAIL'
      END IF
  900 FORMAT (' CHECKSUM ISING ', A, 1X, 1PE22.14)
  901 FORMAT (' CHECKSUM ISING ', A, 1X, I12)
  910 FORMAT (' SELFCHECK ISING ', A)
      END
C
C     ---------------------------------------------------------------
C     ENERGY (EACH BOND ONCE: RIGHT AND UP NEIGHBOURS) AND
C     MAGNETIZATION OF THE WHOLE LATTICE, FROM SCRATCH.
      SUBROUTINE ENERGY(IS, L, IP, IE, M)
      INTEGER L, IS(L,L), IP(L), IE, M, I, J
      IE = 0
      M = 0
      DO 20 J = 1, L
         DO 10 I = 1, L
            IE = IE - IS(I,J) * (IS(IP(I),J) + IS(I,IP(J)))
            M = M + IS(I,J)
   10    CONTINUE
   20 CONTINUE
      END
C
C     PARK-MILLER MINIMAL STANDARD GENERATOR (SCHRAGE'S METHOD):
C     ISEED := 16807 * ISEED MOD (2**31 - 1), RETURNED AS IRAN.
      INTEGER FUNCTION IRAN(ISEED)
      INTEGER ISEED, IA, IM, IQ, IR, K
      PARAMETER (IA = 16807, IM = 2147483647, IQ = 127773, IR = 2836)
      K = ISEED / IQ
      ISEED = IA * (ISEED - K * IQ) - IR * K
      IF (ISEED .LT. 0) ISEED = ISEED + IM
      IRAN = ISEED
      END
