C     SPLINE: NATURAL CUBIC SPLINE INTERPOLATION.
C     THE FUNCTION F(X) = SIN(X) IS SAMPLED AT N NON-UNIFORM KNOTS OF
C     [0, 3 PI], X(I) = 3 PI (T + 0.05 SIN(2 PI T)), T = (I-1)/(N-1).
C     THE NATURAL CUBIC SPLINE (S'' = 0 AT BOTH ENDS) IS BUILT FROM
C     THE CONTINUITY OF S' AT THE INTERIOR KNOTS, A TRIDIAGONAL SYSTEM
C     FOR THE SECOND DERIVATIVES MM(I):
C       H(I-1) MM(I-1) + 2 (H(I-1) + H(I)) MM(I) + H(I) MM(I+1)
C           = 6 ((Y(I+1) - Y(I)) / H(I) - (Y(I) - Y(I-1)) / H(I-1)),
C     SOLVED BY GAUSSIAN ELIMINATION WITHOUT PIVOTING (THOMAS
C     ALGORITHM; THE SYSTEM IS DIAGONALLY DOMINANT). THE SPLINE IS
C     THEN EVALUATED AT NE POINTS SPREAD BY THE GOLDEN-RATIO SEQUENCE,
C     EACH TIME FINDING ITS INTERVAL X(K) .LE. X .LT. X(K+1) BY BINARY
C     SEARCH, AND COMPARED WITH SIN(X).
C
C     SINCE SIN'' = 0 AT BOTH ENDS, THE NATURAL SPLINE IS FOURTH ORDER
C     ACCURATE: |S - F| .LE. C H**4 MAX|F''''| WITH C ABOUT 5/384.
C     SELF-CHECK: MAX ERROR .LE. (5/384) * HMAX**4 (MAX|SIN''''| = 1,
C     HMAX THE WIDEST KNOT INTERVAL); THE SPLINE REPRODUCES THE KNOT VALUES TO
C     1E-14; ITS FIRST DERIVATIVE FROM THE LEFT AND FROM THE RIGHT
C     AGREE AT EVERY INTERIOR KNOT TO 1E-12; EVERY BINARY SEARCH
C     RESULT BRACKETS ITS POINT. EVERY REPETITION REDOES THE SAME WORK.
C
C     OUTPUT:
C       CHECKSUM SPLINE ERRMAX <LARGEST ERROR |S(X) - SIN(X)|>
C       CHECKSUM SPLINE BOUND <(5/384) * HMAX**4>
C       CHECKSUM SPLINE SSUM <SUM OF THE SPLINE VALUES>
C       CHECKSUM SPLINE KSUM <SUM OF THE INTERVAL INDICES FOUND>
C       SELFCHECK SPLINE PASS|FAIL
C
      PROGRAM SPLINE
      INTEGER NREP, N, NE
      PARAMETER (NREP = 550, N = 200, NE = 20000)
      DOUBLE PRECISION XK(N), Y(N), MM(N), H(N), SUB(N), DIA(N),
     &                 SUP(N), RHS(N)
      DOUBLE PRECISION PI, T, A, B, HMAX, X, S, ERR, ERRMAX, SSUM,
     &                 BOUND, DL, DR, G, SPLVAL
      INTEGER IREP, I, K, NBAD, KSUM, IFIND
      LOGICAL OK
      EXTERNAL SPLVAL, IFIND
C
      PI = 4.0D0 * ATAN(1.0D0)
      A = 0.0D0
      B = 3.0D0 * PI
      NBAD = 0
      ERRMAX = 0.0D0
      SSUM = 0.0D0
      KSUM = 0
      HMAX = 0.0D0
      DO 200 IREP = 1, NREP
C        ---- KNOTS AND SAMPLES
         DO 10 I = 1, N
            T = DBLE(I - 1) / DBLE(N - 1)
            XK(I) = B * (T + 0.05D0 * SIN(2.0D0 * PI * T))
            Y(I) = SIN(XK(I))
   10    CONTINUE
         XK(N) = B
         HMAX = 0.0D0
         DO 20 I = 1, N - 1
            H(I) = XK(I + 1) - XK(I)
            HMAX = MAX(HMAX, H(I))
   20    CONTINUE
C        ---- TRIDIAGONAL SYSTEM FOR MM(2..N-1); MM(1) = MM(N) = 0
         DO 30 I = 2, N - 1
            SUB(I) = H(I - 1)
            DIA(I) = 2.0D0 * (H(I - 1) + H(I))
            SUP(I) = H(I)
            RHS(I) = 6.0D0 * ((Y(I + 1) - Y(I)) / H(I)
     &                      - (Y(I) - Y(I - 1)) / H(I - 1))
   30    CONTINUE
C        FORWARD ELIMINATION
         DO 40 I = 3, N - 1
            G = SUB(I) / DIA(I - 1)
            DIA(I) = DIA(I) - G * SUP(I - 1)
            RHS(I) = RHS(I) - G * RHS(I - 1)
   40    CONTINUE
C        BACK SUBSTITUTION
         MM(N) = 0.0D0
         MM(1) = 0.0D0
         MM(N - 1) = RHS(N - 1) / DIA(N - 1)
         DO 50 I = N - 2, 2, -1
            MM(I) = (RHS(I) - SUP(I) * MM(I + 1)) / DIA(I)
   50    CONTINUE
C        ---- CONTINUITY OF S' AT THE INTERIOR KNOTS, VALUES AT KNOTS
         DO 60 I = 2, N - 1
            DL = (Y(I) - Y(I - 1)) / H(I - 1)
     &           + H(I - 1) * (2.0D0 * MM(I) + MM(I - 1)) / 6.0D0
            DR = (Y(I + 1) - Y(I)) / H(I)
     &           - H(I) * (2.0D0 * MM(I) + MM(I + 1)) / 6.0D0
            IF (ABS(DL - DR) .GT. 1.0D-12) NBAD = NBAD + 1
            S = SPLVAL(XK(I), XK, Y, MM, N, K)
            IF (ABS(S - Y(I)) .GT. 1.0D-14) NBAD = NBAD + 1
   60    CONTINUE
C        ---- EVALUATION AT NE POINTS
         ERRMAX = 0.0D0
         SSUM = 0.0D0
         KSUM = 0
         DO 100 I = 1, NE
            T = MOD(DBLE(I) * 0.6180339887498949D0, 1.0D0)
            X = A + (B - A) * T
            S = SPLVAL(X, XK, Y, MM, N, K)
            IF (X .LT. XK(K) .OR. X .GT. XK(K + 1)) NBAD = NBAD + 1
            ERR = ABS(S - SIN(X))
            IF (ERR .GT. ERRMAX) ERRMAX = ERR
            SSUM = SSUM + S
            KSUM = KSUM + K
  100    CONTINUE
  200 CONTINUE
      BOUND = 5.0D0 / 384.0D0 * HMAX ** 4
      IF (ERRMAX .GT. BOUND) NBAD = NBAD + 1
C
      OK = NBAD .EQ. 0
      WRITE (*, 900) 'ERRMAX', ERRMAX
      WRITE (*, 900) 'BOUND', BOUND
      WRITE (*, 900) 'SSUM', SSUM
      WRITE (*, 901) 'KSUM', KSUM
      IF (OK) THEN
         WRITE (*, 910) 'PASS'
      ELSE
         WRITE (*, 920) NBAD
         WRITE (*, 910) 'FAIL'
      END IF
  900 FORMAT (' CHECKSUM SPLINE ', A, 1X, 1PE22.14)
  901 FORMAT (' CHECKSUM SPLINE ', A, 1X, I12)
  910 FORMAT (' SELFCHECK SPLINE ', A)
  920 FORMAT (' FAILED CHECKS ', I10)
      END
C
C     ---------------------------------------------------------------
C     BINARY SEARCH: THE K WITH XK(K) .LE. X .LT. XK(K+1), CLAMPED TO
C     1..N-1 (XK INCREASING).
      INTEGER FUNCTION IFIND(X, XK, N)
      INTEGER N, LO, HI, MID
      DOUBLE PRECISION X, XK(N)
      LO = 1
      HI = N
C     INVARIANT: XK(LO) .LE. X .LT. XK(HI), UNLESS X IS OUTSIDE
   10 IF (HI - LO .LE. 1) GO TO 20
      MID = (LO + HI) / 2
      IF (X .LT. XK(MID)) THEN
         HI = MID
      ELSE
         LO = MID
      END IF
      GO TO 10
   20 IFIND = LO
      END
C
C     VALUE OF THE CUBIC SPLINE AT X; K RETURNS THE INTERVAL USED.
      DOUBLE PRECISION FUNCTION SPLVAL(X, XK, Y, MM, N, K)
      INTEGER N, K, IFIND
      DOUBLE PRECISION X, XK(N), Y(N), MM(N), H, A, B
      EXTERNAL IFIND
      K = IFIND(X, XK, N)
      H = XK(K + 1) - XK(K)
      A = XK(K + 1) - X
      B = X - XK(K)
      SPLVAL = (MM(K) * A ** 3 + MM(K + 1) * B ** 3) / (6.0D0 * H)
     &       + (Y(K) / H - MM(K) * H / 6.0D0) * A
     &       + (Y(K + 1) / H - MM(K + 1) * H / 6.0D0) * B
      END
