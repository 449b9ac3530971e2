C     ------------------------------------------------------------------
C     STRPROC: CHARACTER processing kernel.  Lines of text are built
C     from a fixed vocabulary by concatenation, then
C       - vowels are counted with ICHAR/CHAR case folding and .EQ.,
C         and cross-checked against per-word counts made with INDEX;
C       - every word is reversed in place with substrings (twice, must
C         give the original back);
C       - word order is reversed by concatenation (twice = identity);
C       - the words of each line are insertion-sorted with LLT and
C         verified with LLE;
C       - occurrences of a pattern are counted with INDEX and checked
C         against a brute-force substring comparison.
C     ------------------------------------------------------------------
      PROGRAM STRPRC
      IMPLICIT NONE
      INTEGER NW, NREP, LL, MAXWL
      PARAMETER (NW = 40, NREP = 300000, LL = 72, MAXWL = 24)
      CHARACTER*12 WORDS(NW)
      CHARACTER*(LL) LINE, SAVE, REV, TMP
      CHARACTER*12 LW(MAXWL), KEY
      LOGICAL WPAL(NW)
      INTEGER NPALX
      INTEGER WLEN(NW), WVOW(NW), WSTA(MAXWL), WEND(MAXWL)
      INTEGER IL, K, L, POS, S, NWL, NV1, NV2, I, J
      INTEGER NPAT1, NPAT2, NSWAP, NPAL, LENTRM, NVOWL, NPATI
      INTEGER*8 TVOW, TPAT, TSWAP, TLEN, TPAL, HSH
      LOGICAL OK, ISPAL
      CHARACTER*2 PAT
      DATA WORDS /'ALGORITHM', 'matrix', 'Vector', 'FORTRAN',
     &  'compiler', 'Integer', 'LOOP', 'array', 'Subroutine',
     &  'function', 'COMMON', 'parameter', 'level', 'Radar', 'noon',
     &  'register', 'CACHE', 'memory', 'Pipeline', 'branch',
     &  'predictor', 'Latency', 'THROUGHPUT', 'kernel', 'Benchmark',
     &  'stencil', 'Eigenvalue', 'residual', 'ITERATE', 'converge',
     &  'refer', 'Deified', 'civic', 'Rotor', 'tensor', 'quotient',
     &  'Euler', 'Gauss', 'Newton', 'Order'/
C
      OK = .TRUE.
      PAT = 'er'
      TVOW = 0
      TPAT = 0
      TSWAP = 0
      TLEN = 0
      TPAL = 0
      HSH = 0
C
C     per-word lengths and vowel counts (INDEX method)
      DO 10 K = 1, NW
         WLEN(K) = LENTRM(WORDS(K))
         WVOW(K) = 0
         DO 5 I = 1, WLEN(K)
            IF (INDEX('AEIOUaeiou', WORDS(K)(I:I)) .GT. 0)
     &         WVOW(K) = WVOW(K) + 1
    5    CONTINUE
C        palindrome flag by direct case-insensitive comparison
         KEY = WORDS(K)
         CALL UPCASE(KEY)
         WPAL(K) = .TRUE.
         DO 7 I = 1, WLEN(K)/2
            IF (KEY(I:I) .NE. KEY(WLEN(K)+1-I:WLEN(K)+1-I))
     &         WPAL(K) = .FALSE.
    7    CONTINUE
   10 CONTINUE
C
      S = 31337
      DO 500 IL = 1, NREP
C        ---- build a line by concatenation
         LINE = ' '
         POS = 0
         NV1 = 0
         NPALX = 0
   20    CONTINUE
         CALL PMRAND(S)
         K = MOD(S, NW) + 1
         L = WLEN(K)
         IF (POS .EQ. 0) THEN
            IF (L .GT. LL) GO TO 30
            LINE = WORDS(K)(1:L)
            POS = L
         ELSE
            IF (POS + 1 + L .GT. LL) GO TO 30
            TMP = LINE(1:POS) // ' ' // WORDS(K)(1:L)
            LINE = TMP
            POS = POS + 1 + L
         END IF
         NV1 = NV1 + WVOW(K)
         IF (WPAL(K)) NPALX = NPALX + 1
         GO TO 20
   30    CONTINUE
         IF (LENTRM(LINE) .NE. POS) OK = .FALSE.
         TLEN = TLEN + POS
         SAVE = LINE
C
C        ---- vowels via ICHAR case folding and character compares
         NV2 = NVOWL(LINE)
         IF (NV2 .NE. NV1) OK = .FALSE.
         TVOW = TVOW + NV2
C
C        ---- split into words
         CALL SPLIT(LINE, POS, MAXWL, NWL, WSTA, WEND)
C
C        ---- reverse each word in place, count palindromes
         NPAL = 0
         DO 40 J = 1, NWL
            KEY = LINE(WSTA(J):WEND(J))
            CALL REVSUB(LINE(WSTA(J):WEND(J)))
            CALL UPCASE(KEY)
            TMP = LINE(WSTA(J):WEND(J))
            CALL UPCASE(TMP)
            ISPAL = TMP(1:12) .EQ. KEY
            IF (ISPAL) NPAL = NPAL + 1
   40    CONTINUE
         TPAL = TPAL + NPAL
         HSH = HSH + ICHAR(LINE(1:1)) + ICHAR(LINE(POS:POS))
         IF (NPAL .NE. NPALX) OK = .FALSE.
         DO 45 J = 1, NWL
            CALL REVSUB(LINE(WSTA(J):WEND(J)))
   45    CONTINUE
         IF (LINE .NE. SAVE) OK = .FALSE.
C
C        ---- reverse word order by concatenation, twice
         CALL REVORD(LINE, NWL, WSTA, WEND, REV)
         IF (LENTRM(REV) .NE. POS) OK = .FALSE.
         CALL SPLIT(REV, POS, MAXWL, I, WSTA, WEND)
         IF (I .NE. NWL) OK = .FALSE.
         CALL REVORD(REV, NWL, WSTA, WEND, TMP)
         IF (TMP .NE. SAVE) OK = .FALSE.
         CALL SPLIT(LINE, POS, MAXWL, NWL, WSTA, WEND)
C
C        ---- insertion sort of the words with LLT, verify with LLE
         DO 50 J = 1, NWL
            LW(J) = LINE(WSTA(J):WEND(J))
   50    CONTINUE
         NSWAP = 0
         DO 70 J = 2, NWL
            KEY = LW(J)
            I = J - 1
   60       CONTINUE
            IF (I .GE. 1) THEN
               IF (LLT(KEY, LW(I))) THEN
                  LW(I+1) = LW(I)
                  I = I - 1
                  NSWAP = NSWAP + 1
                  GO TO 60
               END IF
            END IF
            LW(I+1) = KEY
   70    CONTINUE
         DO 80 J = 2, NWL
            IF (.NOT. LLE(LW(J-1), LW(J))) OK = .FALSE.
   80    CONTINUE
         TSWAP = TSWAP + NSWAP
C
C        ---- pattern count: INDEX scan vs brute force
         NPAT1 = NPATI(LINE, PAT)
         NPAT2 = 0
         DO 90 I = 1, LEN(LINE) - LEN(PAT) + 1
            IF (LINE(I:I+LEN(PAT)-1) .EQ. PAT) NPAT2 = NPAT2 + 1
   90    CONTINUE
         IF (NPAT1 .NE. NPAT2) OK = .FALSE.
         TPAT = TPAT + NPAT1
  500 CONTINUE
C
      WRITE(*,'(A)') ' LAST: ' // SAVE(1:LENTRM(SAVE))
      WRITE(*,'(A)') ' SORTED FIRST/LAST: ' // LW(1)(1:LENTRM(LW(1)))
     &     // ' / ' // LW(NWL)(1:LENTRM(LW(NWL)))
      WRITE(*,'(A,I12)') 'CHECKSUM STRPROC CHARS ', TLEN
      WRITE(*,'(A,I12)') 'CHECKSUM STRPROC VOWELS ', TVOW
      WRITE(*,'(A,I12)') 'CHECKSUM STRPROC PATTERN ', TPAT
      WRITE(*,'(A,I12)') 'CHECKSUM STRPROC SWAPS ', TSWAP
      WRITE(*,'(A,I12)') 'CHECKSUM STRPROC PALIN ', TPAL
      WRITE(*,'(A,I12)') 'CHECKSUM STRPROC HASH ', HSH
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK STRPROC PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK STRPROC FAIL'
      END IF
      END
C
C     ------------------------------------------------------------------
C     Park-Miller minimal standard step (Schrage's method).
C     ------------------------------------------------------------------
      SUBROUTINE PMRAND(S)
      IMPLICIT NONE
      INTEGER S
      INTEGER A, M, Q, R, HI, LO
      PARAMETER (A = 16807, M = 2147483647, Q = 127773, R = 2836)
      HI = S/Q
      LO = MOD(S,Q)
      S = A*LO - R*HI
      IF (S .LE. 0) S = S + M
      RETURN
      END
C
C     Length without trailing blanks (F77 has no LEN_TRIM).
      INTEGER FUNCTION LENTRM(STR)
      IMPLICIT NONE
      CHARACTER*(*) STR
      INTEGER I
      DO 10 I = LEN(STR), 1, -1
         IF (STR(I:I) .NE. ' ') THEN
            LENTRM = I
            RETURN
         END IF
   10 CONTINUE
      LENTRM = 0
      RETURN
      END
C
C     Count vowels: fold to upper case with ICHAR, compare characters.
      INTEGER FUNCTION NVOWL(STR)
      IMPLICIT NONE
      CHARACTER*(*) STR
      CHARACTER*1 C
      INTEGER I, IC, IA, IZ, ISH
      IA = ICHAR('a')
      IZ = ICHAR('z')
      ISH = ICHAR('A') - ICHAR('a')
      NVOWL = 0
      DO 10 I = 1, LEN(STR)
         IC = ICHAR(STR(I:I))
         IF (IC .GE. IA .AND. IC .LE. IZ) IC = IC + ISH
         C = CHAR(IC)
         IF (C .EQ. 'A' .OR. C .EQ. 'E' .OR. C .EQ. 'I' .OR.
     &       C .EQ. 'O' .OR. C .EQ. 'U') NVOWL = NVOWL + 1
   10 CONTINUE
      RETURN
      END
C
C     Upper-case a string in place.
      SUBROUTINE UPCASE(STR)
      IMPLICIT NONE
      CHARACTER*(*) STR
      INTEGER I, IC
      DO 10 I = 1, LEN(STR)
         IC = ICHAR(STR(I:I))
         IF (IC .GE. ICHAR('a') .AND. IC .LE. ICHAR('z'))
     &      STR(I:I) = CHAR(IC - ICHAR('a') + ICHAR('A'))
   10 CONTINUE
      RETURN
      END
C
C     Reverse a string in place by swapping single-character substrings.
      SUBROUTINE REVSUB(STR)
      IMPLICIT NONE
      CHARACTER*(*) STR
      CHARACTER*1 C
      INTEGER I, J
      I = 1
      J = LEN(STR)
   10 CONTINUE
      IF (I .GE. J) RETURN
      C = STR(I:I)
      STR(I:I) = STR(J:J)
      STR(J:J) = C
      I = I + 1
      J = J - 1
      GO TO 10
      END
C
C     Locate blank-separated words in STR(1:N).
      SUBROUTINE SPLIT(STR, N, MAXW, NW, WS, WE)
      IMPLICIT NONE
      CHARACTER*(*) STR
      INTEGER N, MAXW, NW, WS(MAXW), WE(MAXW)
      INTEGER I
      LOGICAL INWORD
      NW = 0
      INWORD = .FALSE.
      DO 10 I = 1, N
         IF (STR(I:I) .NE. ' ') THEN
            IF (.NOT. INWORD) THEN
               IF (NW .LT. MAXW) NW = NW + 1
               WS(NW) = I
               INWORD = .TRUE.
            END IF
            WE(NW) = I
         ELSE
            INWORD = .FALSE.
         END IF
   10 CONTINUE
      RETURN
      END
C
C     OUT = words of STR in reverse order, single blanks, by //.
      SUBROUTINE REVORD(STR, NW, WS, WE, OUT)
      IMPLICIT NONE
      CHARACTER*(*) STR, OUT
      INTEGER NW, WS(NW), WE(NW)
      CHARACTER*200 BUF, T2
      INTEGER J, P
      BUF = ' '
      P = 0
      DO 10 J = NW, 1, -1
         IF (P .EQ. 0) THEN
            BUF = STR(WS(J):WE(J))
            P = WE(J) - WS(J) + 1
         ELSE
            T2 = BUF(1:P) // ' ' // STR(WS(J):WE(J))
            BUF = T2
            P = P + 1 + WE(J) - WS(J) + 1
         END IF
   10 CONTINUE
      OUT = BUF
      RETURN
      END
C
C     Count (possibly overlapping) occurrences of PAT in STR via INDEX.
      INTEGER FUNCTION NPATI(STR, PAT)
      IMPLICIT NONE
      CHARACTER*(*) STR, PAT
      INTEGER P, K
      NPATI = 0
      P = 1
   10 CONTINUE
      IF (P .GT. LEN(STR) - LEN(PAT) + 1) RETURN
      K = INDEX(STR(P:), PAT)
      IF (K .EQ. 0) RETURN
      NPATI = NPATI + 1
      P = P + K
      GO TO 10
      END
