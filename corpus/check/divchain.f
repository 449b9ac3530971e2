C     CHAINS OF DIVISIONS AND SQUARE ROOTS IN DOUBLE PRECISION: FOUR
C     CLASSICAL ITERATIONS AND EXPANSIONS, EACH COMPARED WITH THE
C     LIBRARY INTRINSIC OR A CLOSED FORM.
C     1. SQUARE ROOTS BY HERON'S (NEWTON'S) ITERATION
C        Y := (Y + X/Y) / 2 FROM Y0 = (1 + X) / 2, STOPPED WHEN THE
C        ITERATES CEASE TO DECREASE (AFTER THE FIRST STEP THEY DECREASE
C        MONOTONICALLY TO SQRT(X) UNTIL ROUNDING), FOR NX ARGUMENTS
C        SPREAD LOGARITHMICALLY OVER [1E-6, 1E6].
C     2. CUBE ROOTS BY NEWTON'S ITERATION Y := (2Y + X/Y**2) / 3,
C        STOPPED THE SAME WAY, FOR THE SAME ARGUMENTS.
C     3. TAN(X) BY LAMBERT'S CONTINUED FRACTION
C        TAN X = X / (1 - X**2 / (3 - X**2 / (5 - ...))), NCF LEVELS
C        EVALUATED FROM THE BOTTOM UP, FOR NX ARGUMENTS IN (-1.5, 1.5).
C     4. THE HARMONIC NUMBER H(N) = 1 + 1/2 + ... + 1/N SUMMED FROM
C        THE SMALL TERMS UP, AGAINST THE EULER-MACLAURIN FORM
C        LOG N + GAMMA + 1/(2N) - 1/(12N**2) + 1/(120N**4)
C        - 1/(252N**6), FOR N = NH + IREP MOD 16.
C     AND ONCE PER REPETITION E BY ITS REGULAR CONTINUED FRACTION
C     [2; 1, 2, 1, 1, 4, 1, 1, 6, ...] AGAINST EXP(1).
C     EACH REPETITION SHIFTS THE ARGUMENT GRIDS BY A FRACTION OF A
C     STEP, SO NO TWO REPETITIONS IN SEVEN DO THE SAME WORK.
C
C     SELF-CHECK: RELATIVE ERRORS BELOW 1E-15 (SQUARE ROOT), 1E-14
C     (CUBE ROOT), 1E-13 (TAN, E), 1E-13 (HARMONIC), OVER ALL
C     REPETITIONS.
C
C     OUTPUT: CHECKSUM DIVCHAIN SQRTSUM, CBRTSUM, TANSUM, HARMONIC,
C     ECF (LAST REPETITION), NEWTONIT (ITERATIONS OF THE LAST
C     REPETITION), MAXERR (LARGEST RELATIVE ERROR SEEN), SELFCHECK.
C
      PROGRAM DIVCHN
      INTEGER NX, NCF, NH, NREP
      PARAMETER (NX = 4000, NCF = 24, NH = 5000, NREP = 900)
      DOUBLE PRECISION X, Y, YOLD, T, X2, TANCF, REF, ERR
      DOUBLE PRECISION SQSUM, CBSUM, TNSUM, H, HREF, GAMMA, RN
      DOUBLE PRECISION SHIFT, ECF, EMAX(5), TOL(5), ERRMAX
      INTEGER I, K, N, IREP, NIT, NBAD
      PARAMETER (GAMMA = 0.57721566490153286061D0)
      DATA TOL /1.0D-15, 1.0D-14, 1.0D-13, 1.0D-13, 1.0D-13/
C
      DO 5 K = 1, 5
         EMAX(K) = 0.0D0
    5 CONTINUE
      SQSUM = 0.0D0
      CBSUM = 0.0D0
      TNSUM = 0.0D0
      H = 0.0D0
      ECF = 0.0D0
      NIT = 0
      DO 100 IREP = 1, NREP
         SHIFT = DBLE(MOD(IREP, 7)) / 7.0D0
         SQSUM = 0.0D0
         CBSUM = 0.0D0
         NIT = 0
C
C        1 AND 2: SQUARE AND CUBE ROOTS.
         DO 30 I = 1, NX
            X = 10.0D0 ** (-6.0D0 + 12.0D0 * (DBLE(I) - SHIFT)
     &                                    / DBLE(NX))
C           HERON.
            Y = 0.5D0 * (1.0D0 + X)
   10       YOLD = Y
            Y = 0.5D0 * (Y + X / Y)
            NIT = NIT + 1
            IF (Y .LT. YOLD) GO TO 10
            Y = YOLD
            REF = DSQRT(X)
            ERR = DABS(Y - REF) / REF
            IF (ERR .GT. EMAX(1)) EMAX(1) = ERR
            SQSUM = SQSUM + Y
C           NEWTON FOR Y**3 = X; THE FIRST STEP FROM (1 + X) / 2 MAY
C           UNDERSHOOT, SO THE TEST ALLOWS ONE INCREASE AT THE START.
            Y = 0.5D0 * (1.0D0 + X)
            Y = (2.0D0 * Y + X / (Y * Y)) / 3.0D0
   20       YOLD = Y
            Y = (2.0D0 * Y + X / (Y * Y)) / 3.0D0
            NIT = NIT + 1
            IF (Y .LT. YOLD) GO TO 20
            Y = YOLD
            REF = DEXP(DLOG(X) / 3.0D0)
            ERR = DABS(Y - REF) / REF
            IF (ERR .GT. EMAX(2)) EMAX(2) = ERR
            CBSUM = CBSUM + Y
   30    CONTINUE
C
C        3: TAN BY LAMBERT'S CONTINUED FRACTION.
         TNSUM = 0.0D0
         DO 50 I = 1, NX
            X = -1.5D0 + 3.0D0 * (DBLE(I) - SHIFT) / DBLE(NX + 1)
            X2 = X * X
            T = DBLE(2 * NCF + 1)
            DO 40 K = NCF, 1, -1
               T = DBLE(2 * K - 1) - X2 / T
   40       CONTINUE
            TANCF = X / T
            REF = DTAN(X)
            IF (DABS(REF) .GT. 1.0D-3) THEN
               ERR = DABS(TANCF - REF) / DABS(REF)
            ELSE
               ERR = DABS(TANCF - REF) / 1.0D-3
            END IF
            IF (ERR .GT. EMAX(3)) EMAX(3) = ERR
            TNSUM = TNSUM + TANCF
   50    CONTINUE
C
C        4: HARMONIC NUMBER, SMALL TERMS FIRST.
         N = NH + MOD(IREP, 16)
         H = 0.0D0
         DO 60 K = N, 1, -1
            H = H + 1.0D0 / DBLE(K)
   60    CONTINUE
         RN = DBLE(N)
         HREF = DLOG(RN) + GAMMA + 1.0D0 / (2.0D0 * RN)
     &        - 1.0D0 / (12.0D0 * RN**2) + 1.0D0 / (120.0D0 * RN**4)
     &        - 1.0D0 / (252.0D0 * RN**6)
         ERR = DABS(H - HREF) / HREF
         IF (ERR .GT. EMAX(4)) EMAX(4) = ERR
C
C        E = [2; 1, 2, 1, 1, 4, 1, 1, 6, ...]: PARTIAL QUOTIENT K
C        (K .GE. 1) IS 2(K+1)/3 WHEN K MOD 3 = 2, ELSE 1.
         T = 1.0D0
         DO 70 K = 3 * 10 + 1, 1, -1
            IF (MOD(K, 3) .EQ. 2) THEN
               T = DBLE(2 * (K + 1) / 3) + 1.0D0 / T
            ELSE
               T = 1.0D0 + 1.0D0 / T
            END IF
   70    CONTINUE
         ECF = 2.0D0 + 1.0D0 / T
         ERR = DABS(ECF - DEXP(1.0D0)) / DEXP(1.0D0)
         IF (ERR .GT. EMAX(5)) EMAX(5) = ERR
  100 CONTINUE
C
      NBAD = 0
      ERRMAX = 0.0D0
      DO 110 K = 1, 5
         IF (.NOT. (EMAX(K) .LE. TOL(K))) NBAD = NBAD + 1
         ERRMAX = DMAX1(ERRMAX, EMAX(K))
  110 CONTINUE
      WRITE (*, 200) SQSUM
      WRITE (*, 201) CBSUM
      WRITE (*, 202) TNSUM
      WRITE (*, 203) H
      WRITE (*, 204) ECF
      WRITE (*, 205) NIT
      WRITE (*, 206) ERRMAX
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 207)
      ELSE
         WRITE (*, 208)
      END IF
  200 FORMAT (' CHECKSUM DIVCHAIN SQRTSUM ', 1PE24.16)
  201 FORMAT (' CHECKSUM DIVCHAIN CBRTSUM ', 1PE24.16)
  202 FORMAT (' CHECKSUM DIVCHAIN TANSUM ', 1PE24.16)
  203 FORMAT (' CHECKSUM DIVCHAIN HARMONIC ', 1PE24.16)
  204 FORMAT (' CHECKSUM DIVCHAIN ECF ', 1PE24.16)
  205 FORMAT (' CHECKSUM DIVCHAIN NEWTONIT ', I12)
  206 FORMAT (' CHECKSUM DIVCHAIN MAXERR ', 1PE12.4)
  207 FORMAT (' SELFCHECK DIVCHAIN PASS')
  208 FORMAT (' SELFCHECK DIVCHAIN FAIL')
      END
