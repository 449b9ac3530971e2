C     TEXT PROCESSING WITH CHARACTER VARIABLES. EACH REPETITION WRITES
C     A TEXT OF UP TO LTXT CHARACTERS FROM A VOCABULARY OF NW WORDS
C     (WORDS CHOSEN AT RANDOM WITH A BIAS TO THE FRONT OF THE LIST,
C     AS IN NATURAL TEXT; SENTENCES OF 8 TO 13 WORDS ENDING IN '. ',
C     OCCASIONAL ', '; THE FIRST WORD OF A SENTENCE CAPITALISED), BY
C     CONCATENATING EACH WORD WITH ITS SEPARATOR AND STORING THE TOKEN
C     INTO A SUBSTRING OF THE TEXT. THEN IT
C       - SCANS THE TEXT CHARACTER BY CHARACTER (ICHAR), COUNTING
C         WORDS (A LETTER AFTER A NON-LETTER), SENTENCES AND THE
C         FREQUENCY OF EACH LETTER, CASE FOLDED, AND MAKES AN
C         UPPER-CASE COPY (CHAR(ICHAR(C) - ('a' - 'A')));
C       - ENCIPHERS THE UPPER-CASE TEXT WITH A CAESAR SHIFT
C         (C -> 'A' + MOD(C - 'A' + KEY, 26)) AND DECIPHERS IT WITH
C         THE SHIFT 26 - KEY;
C       - COUNTS THE OCCURRENCES OF EACH VOCABULARY WORD THAT IS NOT
C         PART OF ANOTHER VOCABULARY WORD BY REPEATED INDEX SEARCHES.
C     RANDOM NUMBERS: MINIMAL STANDARD GENERATOR (16807, SCHRAGE).
C
C     SELF-CHECK, EVERY REPETITION: WORD AND SENTENCE COUNTS EQUAL THE
C     NUMBERS WRITTEN; EACH LETTER FREQUENCY EQUALS THE SUM OVER THE
C     VOCABULARY OF (TIMES THE WORD WAS USED) * (LETTER COUNT IN THE
C     WORD); THE CIPHER TEXT'S FREQUENCIES ARE THE PLAIN ONES ROTATED
C     BY KEY; THE DECIPHERED TEXT EQUALS THE UPPER-CASE TEXT; THE INDEX
C     COUNTS EQUAL THE USE COUNTS.
C
C     OUTPUT: CHECKSUM WORDFREQ WORDS, LETTERS, SENTENCES, FREQE,
C     CIPHASH (LAST REPETITION), TOTWORDS (ALL REPETITIONS), SELFCHECK.
C
      PROGRAM WORDFQ
      INTEGER NW, LTXT, NREP
      PARAMETER (NW = 40, LTXT = 40000, NREP = 480)
      CHARACTER*12 WORDS(NW), UW
      CHARACTER*(LTXT) TEXT, UPPER, CIPH, PLAIN
      CHARACTER*16 TOKEN
      CHARACTER*2 SEP
      CHARACTER*1 CH
      INTEGER WLEN(NW), WCNT(26, NW), NUSE(NW), NFREQ(26), NCFREQ(26)
      LOGICAL ISSUB(NW), INWORD, CAP
      INTEGER I, J, K, L, LS, P, POS, IC, IREP, ISEED, KEY, IOFF
      INTEGER ILA, IUA, IUZ, ILZ, NTEXT, NWDS, NSENT, IWS, NEND
      INTEGER NCOUNT, NDOT, NLET, NBAD, NOCC, IHASH, NEXP, NTOT
      INTEGER LENTRM, NEXTR
      EXTERNAL LENTRM, NEXTR
      DATA WORDS /'the', 'of', 'and', 'to', 'in', 'heat', 'flux',
     &   'through', 'boundary', 'layer', 'there', 'other', 'water',
     &   'temperature', 'pressure', 'is', 'at', 'mean', 'measured',
     &   'flow', 'velocity', 'surface', 'wind', 'ocean', 'model',
     &   'data', 'error', 'with', 'field', 'station', 'sample',
     &   'rate', 'energy', 'balance', 'turbulent', 'mixing',
     &   'observed', 'profile', 'depth', 'season'/
C
      ILA = ICHAR('a')
      ILZ = ICHAR('z')
      IUA = ICHAR('A')
      IUZ = ICHAR('Z')
      IOFF = ILA - IUA
C
C     THE VOCABULARY: LENGTHS, LETTER COUNTS, AND WHICH WORDS OCCUR
C     INSIDE OTHER WORDS (THEIR INDEX COUNTS WOULD INCLUDE THOSE).
C
      DO 20 K = 1, NW
         WLEN(K) = LENTRM(WORDS(K))
         DO 10 L = 1, 26
            WCNT(L, K) = 0
   10    CONTINUE
         DO 15 I = 1, WLEN(K)
            L = ICHAR(WORDS(K)(I:I)) - ILA + 1
            WCNT(L, K) = WCNT(L, K) + 1
   15    CONTINUE
   20 CONTINUE
      DO 30 K = 1, NW
         ISSUB(K) = .FALSE.
         DO 25 J = 1, NW
            IF (J .NE. K) THEN
               IF (INDEX(WORDS(J), WORDS(K)(1:WLEN(K))) .GT. 0)
     &            ISSUB(K) = .TRUE.
            END IF
   25    CONTINUE
   30 CONTINUE
C
      ISEED = 4242
      NBAD = 0
      NTOT = 0
      DO 200 IREP = 1, NREP
C
C        WRITE THE TEXT.
C
         DO 35 K = 1, NW
            NUSE(K) = 0
   35    CONTINUE
         P = 0
         NWDS = 0
         NSENT = 0
         IWS = 0
         NEND = 8 + MOD(NEXTR(ISEED), 6)
         CAP = .TRUE.
   40    K = MOD(NEXTR(ISEED), NW)
         J = MOD(NEXTR(ISEED), NW)
         K = 1 + MIN(K, J)
         L = WLEN(K)
         IWS = IWS + 1
         IF (IWS .GE. NEND) THEN
            SEP = '. '
            LS = 2
         ELSE IF (MOD(NEXTR(ISEED), 9) .EQ. 0) THEN
            SEP = ', '
            LS = 2
         ELSE
            SEP = ' '
            LS = 1
         END IF
         IF (P + L + LS .GT. LTXT) GO TO 50
         TOKEN = WORDS(K)(1:L) // SEP(1:LS)
         IF (CAP) TOKEN(1:1) = CHAR(ICHAR(TOKEN(1:1)) - IOFF)
         TEXT(P + 1:P + L + LS) = TOKEN(1:L + LS)
         P = P + L + LS
         NUSE(K) = NUSE(K) + 1
         NWDS = NWDS + 1
         CAP = SEP(1:1) .EQ. '.'
         IF (CAP) THEN
            NSENT = NSENT + 1
            IWS = 0
            NEND = 8 + MOD(NEXTR(ISEED), 6)
         END IF
         GO TO 40
   50    NTEXT = P
         NTOT = NTOT + NWDS
C
C        SCAN: WORDS, SENTENCES, LETTER FREQUENCIES, UPPER CASE.
C
         DO 55 L = 1, 26
            NFREQ(L) = 0
            NCFREQ(L) = 0
   55    CONTINUE
         NCOUNT = 0
         NDOT = 0
         INWORD = .FALSE.
         DO 60 I = 1, NTEXT
            CH = TEXT(I:I)
            IC = ICHAR(CH)
            IF (IC .GE. ILA .AND. IC .LE. ILZ) THEN
               L = IC - ILA + 1
               UPPER(I:I) = CHAR(IC - IOFF)
            ELSE IF (IC .GE. IUA .AND. IC .LE. IUZ) THEN
               L = IC - IUA + 1
               UPPER(I:I) = CH
            ELSE
               L = 0
               UPPER(I:I) = CH
               IF (CH .EQ. '.') NDOT = NDOT + 1
            END IF
            IF (L .GT. 0) THEN
               NFREQ(L) = NFREQ(L) + 1
               IF (.NOT. INWORD) NCOUNT = NCOUNT + 1
               INWORD = .TRUE.
            ELSE
               INWORD = .FALSE.
            END IF
   60    CONTINUE
         IF (NCOUNT .NE. NWDS) NBAD = NBAD + 1
         IF (NDOT .NE. NSENT) NBAD = NBAD + 1
         NLET = 0
         DO 70 L = 1, 26
            NEXP = 0
            DO 65 K = 1, NW
               NEXP = NEXP + NUSE(K) * WCNT(L, K)
   65       CONTINUE
            IF (NFREQ(L) .NE. NEXP) NBAD = NBAD + 1
            NLET = NLET + NFREQ(L)
   70    CONTINUE
C
C        CAESAR CIPHER AND ITS INVERSE.
C
         KEY = 1 + MOD(IREP, 25)
         IHASH = 0
         DO 80 I = 1, NTEXT
            IC = ICHAR(UPPER(I:I))
            IF (IC .GE. IUA .AND. IC .LE. IUZ) THEN
               L = MOD(IC - IUA + KEY, 26)
               CIPH(I:I) = CHAR(IUA + L)
               NCFREQ(L + 1) = NCFREQ(L + 1) + 1
            ELSE
               CIPH(I:I) = UPPER(I:I)
            END IF
            IHASH = MOD(IHASH * 31 + ICHAR(CIPH(I:I)), 1000003)
   80    CONTINUE
         DO 85 I = 1, NTEXT
            IC = ICHAR(CIPH(I:I))
            IF (IC .GE. IUA .AND. IC .LE. IUZ) THEN
               PLAIN(I:I) = CHAR(IUA + MOD(IC - IUA + 26 - KEY, 26))
            ELSE
               PLAIN(I:I) = CIPH(I:I)
            END IF
   85    CONTINUE
         IF (PLAIN(1:NTEXT) .NE. UPPER(1:NTEXT)) NBAD = NBAD + 1
         DO 90 L = 1, 26
            IF (NCFREQ(1 + MOD(L - 1 + KEY, 26)) .NE. NFREQ(L))
     &         NBAD = NBAD + 1
   90    CONTINUE
C
C        OCCURRENCES BY INDEX, IN THE UPPER-CASE TEXT.
C
         DO 120 K = 1, NW
            IF (ISSUB(K)) GO TO 120
            L = WLEN(K)
            DO 95 I = 1, L
               UW(I:I) = CHAR(ICHAR(WORDS(K)(I:I)) - IOFF)
   95       CONTINUE
            NOCC = 0
            POS = 1
  100       J = INDEX(UPPER(POS:NTEXT), UW(1:L))
            IF (J .GT. 0) THEN
               NOCC = NOCC + 1
               POS = POS + J - 1 + L
               IF (POS .LE. NTEXT) GO TO 100
            END IF
            IF (NOCC .NE. NUSE(K)) NBAD = NBAD + 1
  120    CONTINUE
  200 CONTINUE
C
      WRITE (*, 300) NWDS
      WRITE (*, 301) NLET
      WRITE (*, 302) NSENT
      WRITE (*, 303) NFREQ(5)
      WRITE (*, 304) IHASH
      WRITE (*, 305) NTOT
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 306)
      ELSE
         WRITE (*, 307)
      END IF
  300 FORMAT (' CHECKSUM WORDFREQ WORDS ', I12)
  301 FORMAT (' CHECKSUM WORDFREQ LETTERS ', I12)
  302 FORMAT (' CHECKSUM WORDFREQ SENTENCES ', I12)
  303 FORMAT (' CHECKSUM WORDFREQ FREQE ', I12)
  304 FORMAT (' CHECKSUM WORDFREQ CIPHASH ', I12)
  305 FORMAT (' CHECKSUM WORDFREQ TOTWORDS ', I12)
  306 FORMAT (' SELFCHECK WORDFREQ PASS')
  307 FORMAT (' SELFCHECK WORDFREQ FAIL')
      END
C
C     LENGTH OF S WITHOUT TRAILING BLANKS (0 IF ALL BLANK).
C
      INTEGER FUNCTION LENTRM(S)
      CHARACTER*(*) S
      INTEGER I
      DO 10 I = LEN(S), 1, -1
         IF (S(I:I) .NE. ' ') THEN
            LENTRM = I
            RETURN
         END IF
   10 CONTINUE
      LENTRM = 0
      RETURN
      END
C
C     NEXT VALUE OF THE MINIMAL STANDARD GENERATOR (PARK AND MILLER
C     1988), MULTIPLIER 16807, BY SCHRAGE'S DECOMPOSITION.
C
      INTEGER FUNCTION NEXTR(ISEED)
      INTEGER ISEED
      INTEGER IA, IM, IQ, IR
      PARAMETER (IA = 16807, IM = 2147483647, IQ = 127773, IR = 2836)
      INTEGER K
      K = ISEED / IQ
      ISEED = IA * (ISEED - K * IQ) - IR * K
      IF (ISEED .LT. 0) ISEED = ISEED + IM
      NEXTR = ISEED
      RETURN
      END
