C     MONTE CARLO QUADRATURE: ESTIMATES SIX ONE-DIMENSIONAL INTEGRALS
C     BY THE SAMPLE MEAN OF THE INTEGRAND AT UNIFORMLY DISTRIBUTED
C     POINTS, INTEGRAL = (B - A) * MEAN(F), WITH THE STANDARD ERROR
C     (B - A) * SQRT(VAR(F) / N), AND THE AREA OF THE QUARTER DISC BY
C     HIT OR MISS (FRACTION OF POINTS OF THE UNIT SQUARE WITH
C     X**2 + Y**2 .LT. 1, TIMES 4, ESTIMATES PI). THE INTEGRANDS AND
C     RANGES:
C       SIN(X)**2        ON [0, 2 PI]       EXACT PI
C       EXP(X)           ON [-10, 5]        EXACT E**5 - E**(-10)
C       LOG(X)           ON [1E-3, 1E3]     EXACT [X LOG X - X]
C       SQRT(X)          ON [0, 4]          EXACT 16/3
C       ATAN(X)          ON [-1, 3]         EXACT [X ATAN X
C                                                  - LOG(1+X**2)/2]
C       COS(X)           ON [0, PI/2]       EXACT 1
C     THE UNIFORM DEVIATES COME FROM THE MULTIPLICATIVE CONGRUENTIAL
C     GENERATOR SEED := 48271 * SEED MOD (2**31 - 1) (PARK, MILLER AND
C     STOCKMEYER 1993), EVALUATED IN 32-BIT INTEGER ARITHMETIC WITHOUT
C     OVERFLOW BY SCHRAGE'S FACTORISATION M = A*Q + R. EACH
C     REPETITION DRAWS NS FRESH POINTS PER INTEGRAL; THE SUMS RUN OVER
C     ALL REPETITIONS, SO THE ESTIMATES SHARPEN AS NREP GROWS.
C
C     SELF-CHECK: EVERY ESTIMATE LIES WITHIN 5 STANDARD ERRORS (PLUS
C     A RELATIVE 1E-5 FOR SINGLE PRECISION ROUNDING) OF THE CLOSED
C     FORM, AND EVERY STANDARD ERROR IS BELOW 2 PERCENT OF THE VALUE.
C
C     OUTPUT: CHECKSUM MCQUAD <INTEGRAND> <ESTIMATE>, ONE LINE EACH,
C     THEN SELFCHECK MCQUAD PASS OR FAIL.
C
      PROGRAM MCQUAD
      INTEGER NS, NREP, NF
      PARAMETER (NS = 100000, NREP = 120, NF = 7)
      DOUBLE PRECISION S1(NF), S2(NF), A(NF), B(NF), EXACT(NF)
      DOUBLE PRECISION EST(NF), SE(NF), XM, VAR, TOTAL
      DOUBLE PRECISION PI, E1, E2
      CHARACTER*6 NAME(NF)
      REAL X, Y, F, WID, A0
      INTEGER I, K, IREP, ISEED, NBAD
      REAL URAND
      EXTERNAL URAND
      DATA NAME /'SIN2  ', 'EXP   ', 'LOG   ', 'SQRT  ', 'ATAN  ',
     &           'COS   ', 'DISC  '/
C
      PI = 4.0D0 * DATAN(1.0D0)
      A(1) = 0.0D0
      B(1) = 2.0D0 * PI
      A(2) = -10.0D0
      B(2) = 5.0D0
      A(3) = 1.0D-3
      B(3) = 1.0D3
      A(4) = 0.0D0
      B(4) = 4.0D0
      A(5) = -1.0D0
      B(5) = 3.0D0
      A(6) = 0.0D0
      B(6) = PI / 2.0D0
      A(7) = 0.0D0
      B(7) = 4.0D0
      EXACT(1) = PI
      EXACT(2) = DEXP(5.0D0) - DEXP(-10.0D0)
      E1 = B(3) * DLOG(B(3)) - B(3)
      E2 = A(3) * DLOG(A(3)) - A(3)
      EXACT(3) = E1 - E2
      EXACT(4) = 16.0D0 / 3.0D0
      E1 = B(5) * DATAN(B(5)) - 0.5D0 * DLOG(1.0D0 + B(5)**2)
      E2 = A(5) * DATAN(A(5)) - 0.5D0 * DLOG(1.0D0 + A(5)**2)
      EXACT(5) = E1 - E2
      EXACT(6) = 1.0D0
      EXACT(7) = PI
      DO 5 K = 1, NF
         S1(K) = 0.0D0
         S2(K) = 0.0D0
    5 CONTINUE
C
      ISEED = 20231
      DO 100 IREP = 1, NREP
C        SIN(X)**2 OVER ONE PERIOD.
         A0 = REAL(A(1))
         WID = REAL(B(1) - A(1))
         DO 10 I = 1, NS
            X = A0 + WID * URAND(ISEED)
            F = SIN(X)**2
            S1(1) = S1(1) + F
            S2(1) = S2(1) + F * F
   10    CONTINUE
C        EXP(X): THE INTEGRAL IS DOMINATED BY THE RIGHT END.
         A0 = REAL(A(2))
         WID = REAL(B(2) - A(2))
         DO 20 I = 1, NS
            X = A0 + WID * URAND(ISEED)
            F = EXP(X)
            S1(2) = S1(2) + F
            S2(2) = S2(2) + F * F
   20    CONTINUE
C        LOG(X) OVER SIX DECADES.
         A0 = REAL(A(3))
         WID = REAL(B(3) - A(3))
         DO 30 I = 1, NS
            X = A0 + WID * URAND(ISEED)
            F = LOG(X)
            S1(3) = S1(3) + F
            S2(3) = S2(3) + F * F
   30    CONTINUE
C        SQRT(X): INTEGRABLE DERIVATIVE SINGULARITY AT 0.
         A0 = REAL(A(4))
         WID = REAL(B(4) - A(4))
         DO 40 I = 1, NS
            X = A0 + WID * URAND(ISEED)
            F = SQRT(X)
            S1(4) = S1(4) + F
            S2(4) = S2(4) + F * F
   40    CONTINUE
C        ATAN(X).
         A0 = REAL(A(5))
         WID = REAL(B(5) - A(5))
         DO 50 I = 1, NS
            X = A0 + WID * URAND(ISEED)
            F = ATAN(X)
            S1(5) = S1(5) + F
            S2(5) = S2(5) + F * F
   50    CONTINUE
C        COS(X) OVER A QUARTER PERIOD.
         A0 = REAL(A(6))
         WID = REAL(B(6) - A(6))
         DO 60 I = 1, NS
            X = A0 + WID * URAND(ISEED)
            F = COS(X)
            S1(6) = S1(6) + F
            S2(6) = S2(6) + F * F
   60    CONTINUE
C        HIT OR MISS IN THE UNIT SQUARE: F = 1 INSIDE THE DISC.
         DO 70 I = 1, NS
            X = URAND(ISEED)
            Y = URAND(ISEED)
            IF (X * X + Y * Y .LT. 1.0) THEN
               S1(7) = S1(7) + 1.0D0
               S2(7) = S2(7) + 1.0D0
            END IF
   70    CONTINUE
  100 CONTINUE
C
C     ESTIMATES, STANDARD ERRORS AND THE CHECK.
C
      TOTAL = DBLE(NS) * DBLE(NREP)
      NBAD = 0
      DO 110 K = 1, NF
         XM = S1(K) / TOTAL
         VAR = S2(K) / TOTAL - XM * XM
         IF (VAR .LT. 0.0D0) VAR = 0.0D0
         EST(K) = (B(K) - A(K)) * XM
         SE(K) = (B(K) - A(K)) * DSQRT(VAR / TOTAL)
         IF (DABS(EST(K) - EXACT(K)) .GT.
     &       5.0D0 * SE(K) + 1.0D-5 * DABS(EXACT(K))) NBAD = NBAD + 1
         IF (SE(K) .GT. 0.02D0 * DABS(EXACT(K))) NBAD = NBAD + 1
  110 CONTINUE
C
      DO 120 K = 1, NF
         WRITE (*, 200) NAME(K), EST(K)
  120 CONTINUE
      WRITE (*, 201) ISEED
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 202)
      ELSE
         WRITE (*, 203)
      END IF
  200 FORMAT (' CHECKSUM MCQUAD ', A, 1X, 1PE16.8)
  201 FORMAT (' CHECKSUM MCQUAD SEED ', I12)
  202 FORMAT (' SELFCHECK MCQUAD PASS')
  203 FORMAT (' SELFCHECK MCQUAD FAIL')
      END
C
C     UNIFORM DEVIATE IN (0, 1): ADVANCES ISEED BY THE MINIMAL
C     STANDARD MULTIPLIER 48271 MODULO 2**31 - 1. SCHRAGE: WITH
C     M = A*Q + R AND R .LT. Q, A*(S MOD Q) - R*(S/Q) IS A*S MOD M OR
C     THAT MINUS M, AND NEITHER PRODUCT OVERFLOWS.
C
      REAL FUNCTION URAND(ISEED)
      INTEGER ISEED
      INTEGER IA, IM, IQ, IR
      PARAMETER (IA = 48271, IM = 2147483647, IQ = 44488, IR = 3399)
      INTEGER HI, LO
      HI = ISEED / IQ
      LO = ISEED - HI * IQ
      ISEED = IA * LO - IR * HI
      IF (ISEED .LE. 0) ISEED = ISEED + IM
      URAND = REAL(ISEED) * 4.656612875E-10
      RETURN
      END
