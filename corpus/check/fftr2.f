C     ITERATIVE RADIX-2 COMPLEX FFT (COOLEY AND TUKEY 1965, DECIMATION
C     IN TIME) OF LENGTH N = 2**M, WITH THE REAL AND IMAGINARY PARTS IN
C     SEPARATE REAL ARRAYS: THE INPUT IS PERMUTED INTO BIT-REVERSED
C     ORDER (GOLD AND RADER'S COUNTER), THEN M PASSES OF BUTTERFLIES
C       T = W * X(I+LE/2),  X(I+LE/2) = X(I) - T,  X(I) = X(I) + T
C     COMBINE TRANSFORMS OF LENGTH LE/2 INTO LENGTH LE. THE TWIDDLE
C     FACTORS W = EXP(-+2 PI I K / N) COME FROM COSINE AND SINE TABLES
C     COMPUTED ONCE. EACH REPETITION BUILDS A FRESH SIGNAL (A COMPLEX
C     EXPONENTIAL AT BIN 37 WHOSE PHASE MOVES FROM REPETITION TO
C     REPETITION, A WEAKER REAL TONE AT BIN 101, AND A DETERMINISTIC
C     PSEUDO-NOISE), TRANSFORMS IT FORWARD, CHECKS IT,
C     TRANSFORMS BACK AND SCALES BY 1/N.
C
C     SELF-CHECK, EVERY REPETITION: PARSEVAL, SUM |X|**2 = N SUM |x|**2
C     TO A RELATIVE 1E-5; THE ZERO-FREQUENCY TERM EQUALS THE SUM OF
C     THE SIGNAL; THE LARGEST BIN IS THE STRONGER TONE (BIN 37); AND
C     THE ROUND TRIP RETURNS THE SIGNAL WITH A MAXIMUM ERROR BELOW 1E-5
C     OF ITS LARGEST ELEMENT.
C
C     OUTPUT: CHECKSUM FFTR2 ENERGY, PEAKBIN, PEAKMAG, RTERR
C     (LARGEST ROUND-TRIP ERROR), PARSERR (LARGEST PARSEVAL ERROR),
C     SELFCHECK.
C
      PROGRAM FFTR2
      INTEGER M, N, NREP
      PARAMETER (M = 10, N = 2**M, NREP = 11000)
      REAL XR(N), XI(N), YR(N), YI(N), CT(N / 2), ST(N / 2)
      DOUBLE PRECISION PI, E1, E2, SX, SY, ERR, RTMAX, PSMAX, XMAX, PH
      REAL PMAG, P
      INTEGER K, IREP, IPEAK, NBAD, NOISE
C
      PI = 4.0D0 * DATAN(1.0D0)
      DO 10 K = 1, N / 2
         CT(K) = REAL(DCOS(2.0D0 * PI * DBLE(K - 1) / DBLE(N)))
         ST(K) = REAL(DSIN(2.0D0 * PI * DBLE(K - 1) / DBLE(N)))
   10 CONTINUE
C
      NBAD = 0
      RTMAX = 0.0D0
      PSMAX = 0.0D0
      E1 = 0.0D0
      IPEAK = 0
      PMAG = 0.0
      DO 100 IREP = 1, NREP
C        THE SIGNAL: TONES AT BINS 37 AND 101, NOISE IN [-0.25, 0.25).
         DO 20 K = 1, N
            NOISE = MOD(MOD(K * 7919, 1009) * (MOD(IREP, 1009) + 1),
     &                  1009)
            PH = 2.0D0 * PI * 37.0D0 * DBLE(K - 1) / DBLE(N)
     &         + 0.01D0 * DBLE(MOD(IREP, 628))
            YR(K) = REAL(DCOS(PH))
     &            + 0.5 * REAL(DSIN(2.0D0 * PI * 101.0D0 * DBLE(K - 1)
     &            / DBLE(N))) + 0.5 * REAL(NOISE) / 1009.0 - 0.25
            YI(K) = REAL(DSIN(PH))
     &            + 0.5 * REAL(MOD(NOISE * 31, 1009)) / 1009.0 - 0.25
            XR(K) = YR(K)
            XI(K) = YI(K)
   20    CONTINUE
         E1 = 0.0D0
         SX = 0.0D0
         SY = 0.0D0
         XMAX = 0.0D0
         DO 30 K = 1, N
            E1 = E1 + DBLE(YR(K))**2 + DBLE(YI(K))**2
            SX = SX + YR(K)
            SY = SY + YI(K)
            XMAX = DMAX1(XMAX, DBLE(ABS(YR(K))), DBLE(ABS(YI(K))))
   30    CONTINUE
C
         CALL FFT(M, N, XR, XI, CT, ST, -1)
C
C        PARSEVAL, THE DC TERM AND THE PEAK.
         E2 = 0.0D0
         IPEAK = 0
         PMAG = 0.0
         DO 40 K = 1, N
            P = XR(K)**2 + XI(K)**2
            E2 = E2 + P
            IF (P .GT. PMAG) THEN
               PMAG = P
               IPEAK = K - 1
            END IF
   40    CONTINUE
         PMAG = SQRT(PMAG)
         ERR = DABS(E2 / DBLE(N) - E1) / E1
         PSMAX = DMAX1(PSMAX, ERR)
         IF (.NOT. (ERR .LT. 1.0D-5)) NBAD = NBAD + 1
         IF (DABS(XR(1) - SX) + DABS(XI(1) - SY) .GT.
     &       1.0D-5 * DBLE(N) * XMAX) NBAD = NBAD + 1
         IF (IPEAK .NE. 37) NBAD = NBAD + 1
C
         CALL FFT(M, N, XR, XI, CT, ST, 1)
         ERR = 0.0D0
         DO 50 K = 1, N
            XR(K) = XR(K) / REAL(N)
            XI(K) = XI(K) / REAL(N)
            ERR = DMAX1(ERR, DBLE(ABS(XR(K) - YR(K))),
     &                  DBLE(ABS(XI(K) - YI(K))))
   50    CONTINUE
         ERR = ERR / XMAX
         RTMAX = DMAX1(RTMAX, ERR)
         IF (.NOT. (ERR .LT. 1.0D-5)) NBAD = NBAD + 1
  100 CONTINUE
C
      WRITE (*, 200) E1
      WRITE (*, 201) IPEAK
      WRITE (*, 202) PMAG
      WRITE (*, 203) RTMAX
      WRITE (*, 204) PSMAX
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 205)
      ELSE
         WRITE (*, 206)
      END IF
  200 FORMAT (' CHECKSUM FFTR2 ENERGY ', 1PE16.8)
  201 FORMAT (' CHECKSUM FFTR2 PEAKBIN ', I12)
  202 FORMAT (' CHECKSUM FFTR2 PEAKMAG ', 1PE16.8)
  203 FORMAT (' CHECKSUM FFTR2 RTERR ', 1PE12.4)
  204 FORMAT (' CHECKSUM FFTR2 PARSERR ', 1PE12.4)
  205 FORMAT (' SELFCHECK FFTR2 PASS')
  206 FORMAT (' SELFCHECK FFTR2 FAIL')
      END
C
C     IN-PLACE RADIX-2 FFT OF (XR, XI), LENGTH N = 2**M.
C     ISIGN = -1: X(K) = SUM X(J) EXP(-2 PI I J K / N) (FORWARD);
C     ISIGN = +1: THE SAME WITH EXP(+...), UNSCALED (INVERSE TIMES N).
C     CT(K), ST(K) = COS, SIN OF 2 PI (K-1) / N, K = 1 .. N/2.
C
      SUBROUTINE FFT(M, N, XR, XI, CT, ST, ISIGN)
      INTEGER M, N, ISIGN
      REAL XR(N), XI(N), CT(N / 2), ST(N / 2)
      INTEGER I, J, K, L, LE, LE2, IP, ISTEP, IW
      REAL TR, TI, WR, WI, SGN
C
C     BIT REVERSAL: J RUNS THROUGH THE BIT-REVERSED COUNTER (1-BASED).
C
      J = 1
      DO 30 I = 1, N - 1
         IF (I .LT. J) THEN
            TR = XR(J)
            TI = XI(J)
            XR(J) = XR(I)
            XI(J) = XI(I)
            XR(I) = TR
            XI(I) = TI
         END IF
         K = N / 2
   20    IF (K .GE. J) GO TO 25
         J = J - K
         K = K / 2
         GO TO 20
   25    J = J + K
   30 CONTINUE
C
C     M PASSES OF BUTTERFLIES.
C
      SGN = REAL(ISIGN)
      LE = 1
      DO 60 L = 1, M
         LE2 = LE
         LE = 2 * LE
         ISTEP = N / LE
         DO 50 J = 1, LE2
            IW = (J - 1) * ISTEP + 1
            WR = CT(IW)
            WI = SGN * ST(IW)
            DO 40 I = J, N, LE
               IP = I + LE2
               TR = WR * XR(IP) - WI * XI(IP)
               TI = WR * XI(IP) + WI * XR(IP)
               XR(IP) = XR(I) - TR
               XI(IP) = XI(I) - TI
               XR(I) = XR(I) + TR
               XI(I) = XI(I) + TI
   40       CONTINUE
   50    CONTINUE
   60 CONTINUE
      RETURN
      END
