C     DYNAMIC PROGRAMMING ON SEQUENCES.
C     1. LEVENSHTEIN EDIT DISTANCE (WAGNER AND FISCHER 1974) BETWEEN
C        CHARACTER STRINGS OVER THE ALPHABET ACGT: D(I,J) = MIN(
C        D(I-1,J) + 1, D(I,J-1) + 1, D(I-1,J-1) + [A(I) .NE. B(J)]),
C        KEPT IN ONE ROW OF THE TABLE PLUS THE DIAGONAL ELEMENT.
C        EACH REPETITION MAKES A RANDOM STRING S1, A COPY S2 OF IT
C        WITH NE RANDOM SUBSTITUTIONS, DELETIONS AND INSERTIONS, AND
C        AN INDEPENDENT RANDOM STRING S3.
C     2. LONGEST COMMON SUBSEQUENCE OF TWO INTEGER SEQUENCES (VALUES
C        1 TO 6) WITH THE FULL TABLE C(I,J) = C(I-1,J-1) + 1 IF
C        A(I) = B(J), ELSE MAX(C(I-1,J), C(I,J-1)), AND THE BACKTRACK
C        THROUGH THE TABLE THAT RECOVERS ONE COMMON SUBSEQUENCE; AND
C        THE INSERT/DELETE-ONLY EDIT DISTANCE OF THE SAME SEQUENCES BY
C        A SEPARATE ONE-ROW RECURRENCE.
C     RANDOM NUMBERS: X := 171 X MOD 30269 (THE FIRST COMPONENT OF
C     WICHMANN AND HILL'S GENERATOR).
C
C     SELF-CHECK, EVERY REPETITION: D(S1,S1) = 0; D(S1,S2) = D(S2,S1);
C     |L1 - L2| .LE. D(S1,S2) .LE. NE; THE TRIANGLE INEQUALITY ON
C     S1, S2, S3; THE BACKTRACKED SEQUENCE HAS LENGTH LCS AND IS A
C     SUBSEQUENCE OF BOTH; INDEL DISTANCE = LA + LB - 2 LCS;
C     LCS(A,A) = LA; AND THE HAND-CHECKED PAIRS D(KITTEN,SITTING) = 3,
C     D(FLAW,LAWN) = 2, LCS(ABCBDAB, BDCABA) = 4.
C
C     OUTPUT: CHECKSUM EDITDIST D12, D13, D23, LCS, INDEL (LAST
C     REPETITION), DSUM (SUM OF ALL DISTANCES AND LCS LENGTHS OVER ALL
C     REPETITIONS), SELFCHECK.
C
      PROGRAM EDITDS
      INTEGER LMAX, NREP
      PARAMETER (LMAX = 600, NREP = 300)
      CHARACTER*(LMAX) S1, S2, S3
      CHARACTER*4 ALPHA
      INTEGER IA(LMAX), IB(LMAX), IS(LMAX), ROW(0:LMAX)
      INTEGER C(0:LMAX, 0:LMAX)
      INTEGER H1(7), H2(6)
      INTEGER L1, L2, L3, LA, LB, NE, I, J, K, P, IOP, IREP, ISEED
      INTEGER D11, D12, D21, D13, D23, LCS, LCSAA, NS, INDEL, NBAD
      INTEGER DSUM
      INTEGER IRNDM, LEVEN, LCSTAB, INDELD
      EXTERNAL IRNDM, LEVEN, LCSTAB, INDELD
      DATA ALPHA /'ACGT'/
      DATA H1 /1, 2, 3, 2, 4, 1, 2/
      DATA H2 /2, 4, 3, 1, 2, 1/
C
      ISEED = 12345
      NBAD = 0
      DSUM = 0
      D12 = 0
      D13 = 0
      D23 = 0
      LCS = 0
      INDEL = 0
      DO 100 IREP = 1, NREP
C
C        S1 RANDOM, S3 RANDOM, S2 = S1 WITH NE EDITS.
         L1 = 400 + IRNDM(ISEED, 100)
         DO 10 I = 1, L1
            K = 1 + IRNDM(ISEED, 4)
            S1(I:I) = ALPHA(K:K)
   10    CONTINUE
         L3 = 400 + IRNDM(ISEED, 100)
         DO 15 I = 1, L3
            K = 1 + IRNDM(ISEED, 4)
            S3(I:I) = ALPHA(K:K)
   15    CONTINUE
         S2(1:L1) = S1(1:L1)
         L2 = L1
         NE = 20 + IRNDM(ISEED, 30)
         DO 30 K = 1, NE
            IOP = IRNDM(ISEED, 3)
            P = 1 + IRNDM(ISEED, L2)
            IF (IOP .EQ. 0) THEN
C              SUBSTITUTE THE NEXT LETTER OF THE ALPHABET.
               J = INDEX(ALPHA, S2(P:P))
               J = 1 + MOD(J, 4)
               S2(P:P) = ALPHA(J:J)
            ELSE IF (IOP .EQ. 1 .AND. L2 .GT. 1) THEN
C              DELETE CHARACTER P.
               DO 20 I = P, L2 - 1
                  S2(I:I) = S2(I + 1:I + 1)
   20          CONTINUE
               L2 = L2 - 1
            ELSE IF (L2 .LT. LMAX) THEN
C              INSERT A RANDOM LETTER BEFORE CHARACTER P.
               DO 25 I = L2, P, -1
                  S2(I + 1:I + 1) = S2(I:I)
   25          CONTINUE
               J = 1 + IRNDM(ISEED, 4)
               S2(P:P) = ALPHA(J:J)
               L2 = L2 + 1
            END IF
   30    CONTINUE
C
         D11 = LEVEN(S1(1:L1), S1(1:L1), ROW)
         D12 = LEVEN(S1(1:L1), S2(1:L2), ROW)
         D21 = LEVEN(S2(1:L2), S1(1:L1), ROW)
         D13 = LEVEN(S1(1:L1), S3(1:L3), ROW)
         D23 = LEVEN(S2(1:L2), S3(1:L3), ROW)
         IF (D11 .NE. 0) NBAD = NBAD + 1
         IF (D12 .NE. D21) NBAD = NBAD + 1
         IF (D12 .LT. IABS(L1 - L2) .OR. D12 .GT. NE) NBAD = NBAD + 1
         IF (D13 .GT. D12 + D23) NBAD = NBAD + 1
         IF (D23 .GT. D12 + D13) NBAD = NBAD + 1
         IF (D12 .GT. D13 + D23) NBAD = NBAD + 1
         IF (D13 .LT. IABS(L1 - L3) .OR. D13 .GT. MAX(L1, L3))
     &      NBAD = NBAD + 1
C
C        LONGEST COMMON SUBSEQUENCE OF TWO RANDOM INTEGER SEQUENCES.
         LA = 300 + IRNDM(ISEED, 200)
         LB = 300 + IRNDM(ISEED, 200)
         DO 40 I = 1, LA
            IA(I) = 1 + IRNDM(ISEED, 6)
   40    CONTINUE
         DO 45 I = 1, LB
            IB(I) = 1 + IRNDM(ISEED, 6)
   45    CONTINUE
         LCS = LCSTAB(IA, LA, IB, LB, C, LMAX, IS, NS)
         IF (NS .NE. LCS .OR. LCS .GT. MIN(LA, LB)) NBAD = NBAD + 1
C        IS(1..NS) MUST BE A SUBSEQUENCE OF IA AND OF IB.
         CALL SUBSEQ(IS, NS, IA, LA, K)
         IF (K .NE. NS) NBAD = NBAD + 1
         CALL SUBSEQ(IS, NS, IB, LB, K)
         IF (K .NE. NS) NBAD = NBAD + 1
         INDEL = INDELD(IA, LA, IB, LB, ROW)
         IF (INDEL .NE. LA + LB - 2 * LCS) NBAD = NBAD + 1
         LCSAA = LCSTAB(IA, LA, IA, LA, C, LMAX, IS, NS)
         IF (LCSAA .NE. LA) NBAD = NBAD + 1
C
C        SMALL PAIRS CHECKED BY HAND.
         IF (LEVEN('KITTEN', 'SITTING', ROW) .NE. 3) NBAD = NBAD + 1
         IF (LEVEN('FLAW', 'LAWN', ROW) .NE. 2) NBAD = NBAD + 1
         IF (LCSTAB(H1, 7, H2, 6, C, LMAX, IS, NS) .NE. 4)
     &      NBAD = NBAD + 1
C
         DSUM = DSUM + D12 + D13 + D23 + LCS
  100 CONTINUE
C
      WRITE (*, 200) D12
      WRITE (*, 201) D13
      WRITE (*, 202) D23
      WRITE (*, 203) LCS
      WRITE (*, 204) INDEL
      WRITE (*, 205) DSUM
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 206)
      ELSE
         WRITE (*, 207)
      END IF
  200 FORMAT (' CHECKSUM EDITDIST D12 ', I12)
  201 FORMAT (' CHECKSUM EDITDIST D13 ', I12)
  202 FORMAT (' CHECKSUM EDITDIST D23 ', I12)
  203 FORMAT (' CHECKSUM EDITDIST LCS ', I12)
  204 FORMAT (' CHECKSUM EDITDIST INDEL ', I12)
  205 FORMAT (' CHECKSUM EDITDIST DSUM ', I12)
  206 FORMAT (' SELFCHECK EDITDIST PASS')
  207 FORMAT (' SELFCHECK EDITDIST FAIL')
      END
C
C     LEVENSHTEIN DISTANCE OF A AND B. D(0..LEN(B)) HOLDS ONE ROW OF
C     THE TABLE; DIAG IS THE ELEMENT (I-1, J-1) OVERWRITTEN ALREADY.
C
      INTEGER FUNCTION LEVEN(A, B, D)
      CHARACTER*(*) A, B
      INTEGER D(0:*)
      INTEGER I, J, LA, LB, DIAG, ABOVE, COST
      LA = LEN(A)
      LB = LEN(B)
      DO 10 J = 0, LB
         D(J) = J
   10 CONTINUE
      DO 30 I = 1, LA
         DIAG = D(0)
         D(0) = I
         DO 20 J = 1, LB
            ABOVE = D(J)
            IF (A(I:I) .EQ. B(J:J)) THEN
               COST = 0
            ELSE
               COST = 1
            END IF
            D(J) = MIN(ABOVE + 1, D(J - 1) + 1, DIAG + COST)
            DIAG = ABOVE
   20    CONTINUE
   30 CONTINUE
      LEVEN = D(LB)
      RETURN
      END
C
C     LENGTH OF THE LONGEST COMMON SUBSEQUENCE OF A(1..LA), B(1..LB)
C     BY THE FULL TABLE C(0..LA, 0..LB); THE BACKTRACK FROM (LA, LB)
C     PUTS ONE SUCH SUBSEQUENCE IN S(1..NS).
C
      INTEGER FUNCTION LCSTAB(A, LA, B, LB, C, LDC, S, NS)
      INTEGER LA, LB, LDC, NS
      INTEGER A(LA), B(LB), C(0:LDC, 0:LDC), S(*)
      INTEGER I, J, K
      DO 10 J = 0, LB
         C(0, J) = 0
   10 CONTINUE
      DO 30 I = 1, LA
         C(I, 0) = 0
   30 CONTINUE
C     COLUMN BY COLUMN (J OUTER), SO THE INNER LOOP RUNS DOWN A
C     COLUMN OF C.
      DO 50 J = 1, LB
         DO 40 I = 1, LA
            IF (A(I) .EQ. B(J)) THEN
               C(I, J) = C(I - 1, J - 1) + 1
            ELSE
               C(I, J) = MAX(C(I - 1, J), C(I, J - 1))
            END IF
   40    CONTINUE
   50 CONTINUE
      LCSTAB = C(LA, LB)
C     BACKTRACK; THE SUBSEQUENCE COMES OUT REVERSED.
      I = LA
      J = LB
      NS = 0
   60 IF (I .EQ. 0 .OR. J .EQ. 0) GO TO 70
      IF (A(I) .EQ. B(J)) THEN
         NS = NS + 1
         S(NS) = A(I)
         I = I - 1
         J = J - 1
      ELSE IF (C(I - 1, J) .GE. C(I, J - 1)) THEN
         I = I - 1
      ELSE
         J = J - 1
      END IF
      GO TO 60
   70 DO 80 K = 1, NS / 2
         I = S(K)
         S(K) = S(NS + 1 - K)
         S(NS + 1 - K) = I
   80 CONTINUE
      RETURN
      END
C
C     EDIT DISTANCE WITH INSERTIONS AND DELETIONS ONLY, ONE ROW.
C
      INTEGER FUNCTION INDELD(A, LA, B, LB, D)
      INTEGER LA, LB, A(LA), B(LB), D(0:LB)
      INTEGER I, J, DIAG, ABOVE
      DO 10 J = 0, LB
         D(J) = J
   10 CONTINUE
      DO 30 I = 1, LA
         DIAG = D(0)
         D(0) = I
         DO 20 J = 1, LB
            ABOVE = D(J)
            IF (A(I) .EQ. B(J)) THEN
               D(J) = DIAG
            ELSE
               D(J) = MIN(ABOVE, D(J - 1)) + 1
            END IF
            DIAG = ABOVE
   20    CONTINUE
   30 CONTINUE
      INDELD = D(LB)
      RETURN
      END
C
C     GREEDY MATCH OF S(1..NS) AGAINST A(1..LA): K IS THE NUMBER OF
C     LEADING ELEMENTS OF S FOUND IN ORDER IN A (NS IF S IS A
C     SUBSEQUENCE OF A).
C
      SUBROUTINE SUBSEQ(S, NS, A, LA, K)
      INTEGER NS, LA, S(*), A(LA), K
      INTEGER I
      K = 0
      IF (NS .EQ. 0) RETURN
      DO 10 I = 1, LA
         IF (A(I) .EQ. S(K + 1)) THEN
            K = K + 1
            IF (K .EQ. NS) RETURN
         END IF
   10 CONTINUE
      RETURN
      END
C
C     A RANDOM INTEGER IN 0 .. K-1 (K .LE. 30269) FROM THE GENERATOR
C     ISEED := 171 ISEED MOD 30269; THE HIGH PART OF ISEED*K/30269 IS
C     USED RATHER THAN THE LOW-ORDER REMAINDER.
C
      INTEGER FUNCTION IRNDM(ISEED, K)
      INTEGER ISEED, K
      ISEED = MOD(171 * ISEED, 30269)
      IRNDM = (ISEED * K) / 30269
      RETURN
      END
