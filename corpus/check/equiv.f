C     EQUIV: WORK ARRAYS OVERLAID BY EQUIVALENCE.
C     A N BY N DOUBLE PRECISION MATRIX IS TRANSPOSED AND COPIED IN
C     BLOCKS, AND ONE WORK AREA IS SHARED BY FOUR PHASES THAT EACH
C     VIEW IT DIFFERENTLY:
C       - A(N,N) AND AT(N,N) ARE ALSO SEEN AS 1-D ARRAYS A1, AT1;
C       - THE WORK AREA WORK(NN) (DOUBLE PRECISION) IS ALSO A 4-D
C         BLOCK-MAJOR ARRAY WB(NB,NB,NBLK,NBLK), TWO REAL ARRAYS RLO
C         AND RHI (ITS FIRST AND SECOND HALF) AND ONE INTEGER ARRAY
C         IWK(2*NN);
C       - THE ERROR COUNTERS ARE BOTH NAMED SCALARS AND AN ARRAY.
C     EACH PHASE WRITES ITS VIEW BEFORE READING IT, SO NO VALUE IS
C     EVER READ THROUGH A VIEW OF ANOTHER TYPE THAN IT WAS STORED IN.
C
C     PHASE 1: FILL A THROUGH A1, TRANSPOSE A INTO AT (2-D INDEXING),
C              CHECK THROUGH THE 1-D VIEWS WITH COMPUTED SUBSCRIPTS.
C     PHASE 2: COPY A INTO BLOCK-MAJOR ORDER (WB), TRANSPOSE BLOCK BY
C              BLOCK FROM WB INTO AT; CHECK AT AGAINST A AND THE SUM
C              OF WORK (A PERMUTATION OF A) AGAINST THE SUM OF A.
C     PHASE 3: SINGLE PRECISION COPY RLO OF A, TRANSPOSED AND HALVED
C              INTO RHI (1-D SUBSCRIPT ARITHMETIC); CHECK AGAINST AT.
C     PHASE 4: COUNTING SORT OF THE (INTEGER-VALUED) ELEMENTS IN THE
C              INTEGER VIEW; CHECK THE ORDER AND THE COUNTS.
C
C     THE ELEMENTS ARE INTEGERS 0..1000, SO EVERY COPY, HALVING AND
C     SUM IS EXACT. SELF-CHECK: ALL ERROR COUNTERS ZERO.
C
C     OUTPUT:
C       CHECKSUM EQUIV SUMA <SUM OF THE ELEMENTS>
C       CHECKSUM EQUIV SUMRHI <SUM OF THE HALVED REAL TRANSPOSE>
C       CHECKSUM EQUIV MEDIAN <MEDIAN ELEMENT FROM THE SORT>
C       CHECKSUM EQUIV HASH <HASH OF THE SORTED KEYS>
C       SELFCHECK EQUIV PASS|FAIL
C
      PROGRAM EQUIV
      INTEGER NREP, N, NN, NH, NB, NBLK, NKEY
      PARAMETER (NREP = 480, N = 256, NN = N * N, NH = NN / 2)
      PARAMETER (NB = 32, NBLK = N / NB, NKEY = 1001)
      DOUBLE PRECISION A(N,N), A1(NN), AT(N,N), AT1(NN)
      EQUIVALENCE (A(1,1), A1(1)), (AT(1,1), AT1(1))
      DOUBLE PRECISION WORK(NN), WB(NB,NB,NBLK,NBLK)
      REAL RLO(NN), RHI(NN)
      INTEGER IWK(2 * NN)
      EQUIVALENCE (WORK(1), WB(1,1,1,1), RLO(1), IWK(1))
      EQUIVALENCE (WORK(NH + 1), RHI(1))
      INTEGER NBAD(5), NBAD1, NBAD2, NBAD3, NBAD4, NBAD5
      EQUIVALENCE (NBAD(1), NBAD1), (NBAD(2), NBAD2)
      EQUIVALENCE (NBAD(3), NBAD3), (NBAD(4), NBAD4)
      EQUIVALENCE (NBAD(5), NBAD5)
      SAVE A, AT, WORK
      DOUBLE PRECISION SUMA, SUMW, SUMR
      INTEGER IREP, I, J, K, II, JJ, IB, JB, KEY, IPOS, NSUM
      INTEGER MEDIAN, IHASH, IBASE
      LOGICAL OK
C
      DO 5 K = 1, 5
         NBAD(K) = 0
    5 CONTINUE
      DO 500 IREP = 1, NREP
C        ---------------- PHASE 1: FILL (1-D), TRANSPOSE (2-D), CHECK
         SUMA = 0.0D0
         DO 10 K = 1, NN
            A1(K) = DBLE(MOD(K * 37 + K / 91, NKEY))
            SUMA = SUMA + A1(K)
   10    CONTINUE
         DO 30 J = 1, N
            DO 20 I = 1, N
               AT(J,I) = A(I,J)
   20       CONTINUE
   30    CONTINUE
         DO 40 K = 1, NN
            I = MOD(K - 1, N) + 1
            J = (K - 1) / N + 1
            IF (AT1(J + (I - 1) * N) .NE. A1(K)) NBAD1 = NBAD1 + 1
   40    CONTINUE
C        ---------------- PHASE 2: BLOCK-MAJOR COPY, BLOCKED TRANSPOSE
         DO 80 JB = 1, NBLK
            DO 70 IB = 1, NBLK
               DO 60 JJ = 1, NB
                  DO 50 II = 1, NB
                     WB(II,JJ,IB,JB) = A((IB - 1) * NB + II,
     &                                   (JB - 1) * NB + JJ)
   50             CONTINUE
   60          CONTINUE
   70       CONTINUE
   80    CONTINUE
         DO 90 K = 1, NN
            AT1(K) = -1.0D0
   90    CONTINUE
         DO 130 JB = 1, NBLK
            DO 120 IB = 1, NBLK
               DO 110 JJ = 1, NB
                  DO 100 II = 1, NB
                     AT((JB - 1) * NB + JJ, (IB - 1) * NB + II)
     &                  = WB(II,JJ,IB,JB)
  100             CONTINUE
  110          CONTINUE
  120       CONTINUE
  130    CONTINUE
         SUMW = 0.0D0
         DO 150 J = 1, N
            DO 140 I = 1, N
               IF (AT(I,J) .NE. A(J,I)) NBAD2 = NBAD2 + 1
  140       CONTINUE
  150    CONTINUE
         DO 160 K = 1, NN
            SUMW = SUMW + WORK(K)
  160    CONTINUE
         IF (SUMW .NE. SUMA) NBAD3 = NBAD3 + 1
C        ---------------- PHASE 3: REAL VIEWS OF THE WORK AREA
         DO 170 K = 1, NN
            RLO(K) = REAL(A1(K))
  170    CONTINUE
         DO 190 J = 1, N
            IBASE = (J - 1) * N
            DO 180 I = 1, N
               RHI(J + (I - 1) * N) = 0.5 * RLO(IBASE + I)
  180       CONTINUE
  190    CONTINUE
         SUMR = 0.0D0
         DO 200 K = 1, NN
            IF (2.0 * RHI(K) .NE. REAL(AT1(K))) NBAD4 = NBAD4 + 1
            SUMR = SUMR + DBLE(RHI(K))
  200    CONTINUE
         IF (2.0D0 * SUMR .NE. SUMA) NBAD4 = NBAD4 + 1
C        ---------------- PHASE 4: INTEGER VIEW, COUNTING SORT
C        IWK(1..NKEY): COUNTS, IWK(NKEY+1..2*NKEY): NEXT POSITION,
C        IWK(NN+1..2*NN): THE SORTED KEYS.
         DO 210 KEY = 1, 2 * NKEY
            IWK(KEY) = 0
  210    CONTINUE
         DO 220 K = 1, NN
            KEY = INT(A1(K))
            IWK(KEY + 1) = IWK(KEY + 1) + 1
  220    CONTINUE
         IPOS = NN + 1
         NSUM = 0
         DO 230 KEY = 1, NKEY
            IWK(NKEY + KEY) = IPOS
            IPOS = IPOS + IWK(KEY)
            NSUM = NSUM + IWK(KEY)
  230    CONTINUE
         IF (NSUM .NE. NN) NBAD5 = NBAD5 + 1
         DO 240 K = 1, NN
            KEY = INT(A1(K))
            IPOS = IWK(NKEY + KEY + 1)
            IWK(IPOS) = KEY
            IWK(NKEY + KEY + 1) = IPOS + 1
  240    CONTINUE
         IHASH = 0
         DO 250 K = NN + 1, 2 * NN
            IF (K .GT. NN + 1) THEN
               IF (IWK(K) .LT. IWK(K - 1)) NBAD5 = NBAD5 + 1
            END IF
            IHASH = MOD(IHASH * 31 + IWK(K), 1000003)
  250    CONTINUE
         MEDIAN = IWK(NN + NN / 2)
  500 CONTINUE
C
      OK = .TRUE.
      DO 510 K = 1, 5
         IF (NBAD(K) .NE. 0) OK = .FALSE.
  510 CONTINUE
      WRITE (*, 900) 'SUMA', SUMA
      WRITE (*, 900) 'SUMRHI', SUMR
      WRITE (*, 901) 'MEDIAN', MEDIAN
      WRITE (*, 901) 'HASH', IHASH
      IF (OK) THEN
         WRITE (*, 910) 'PASS'
      ELSE
         WRITE (*, 920) NBAD
         WRITE (*, 910) 'FAIL'
      END IF
  900 FORMAT (' CHECKSUM EQUIV ', A, 1X, 1PE22.14)
  901 FORMAT (' CHECKSUM EQUIV ', A, 1X, I12)
  910 FORMAT (' SELFCHECK EQUIV ', A)
  920 FORMAT (' ERROR COUNTS ', 5I10)
      END
