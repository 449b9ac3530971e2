C=======================================================================
C     LEVENSH: DYNAMIC PROGRAMMING ON PSEUDO-RANDOM INTEGER SEQUENCES.
C       - LEVENSHTEIN EDIT DISTANCE (SUBST/INS/DEL, UNIT COSTS)
C       - LONGEST COMMON SUBSEQUENCE LENGTH
C       - INDEL DISTANCE (INS/DEL ONLY)
C     ALL USE TWO-ROW STORAGE.  CHECKS:
C       INDEL(A,B) = LEN(A) + LEN(B) - 2*LCS(A,B)   (INDEPENDENT DP)
C       ED(A,B) = ED(B,A),  LCS(A,B) = LCS(B,A)
C       |M-N| <= ED <= MAX(M,N),  ED <= NUMBER OF APPLIED MUTATIONS
C       ED(A,A) = 0, LCS(A,A) = LEN(A)
C=======================================================================
      PROGRAM LEVENS
      IMPLICIT NONE
      INTEGER LMAX, NPAIR, NREP
      PARAMETER (LMAX=3200, NPAIR=4, NREP=6)
      INTEGER IA(LMAX), IB(LMAX), IR0(0:LMAX), IR1(0:LMAX)
      INTEGER MLEN(NPAIR), NMUT(NPAIR), KALPH(NPAIR)
      INTEGER IP, IREP, M, N, ISEED, NM, I, J, K, IPOS, NK
      INTEGER IED, IEDR, LCS, LCSR, IND, IEDS, LCSS
      INTEGER KEDIT, KLCS, KINDEL, NXTRND
      LOGICAL OK
      EXTERNAL KEDIT, KLCS, KINDEL, NXTRND
      DATA MLEN  /1000, 1800, 2500, 3000/
      DATA NMUT  / 150,  400,  900,  600/
      DATA KALPH /   4,   20,    4,    2/
C
      OK = .TRUE.
      ISEED = 987654321
      DO 200 IP = 1, NPAIR
         M = MLEN(IP)
         NK = KALPH(IP)
         DO 10 I = 1, M
            IA(I) = MOD(NXTRND(ISEED), NK)
   10    CONTINUE
C        DERIVE B FROM A BY NM RANDOM MUTATIONS (SUBST / INS / DEL)
         N = M
         DO 20 I = 1, N
            IB(I) = IA(I)
   20    CONTINUE
         NM = NMUT(IP)
         DO 40 K = 1, NM
            IPOS = MOD(NXTRND(ISEED), N) + 1
            J = MOD(NXTRND(ISEED), 3)
            IF (J .EQ. 0) THEN
               IB(IPOS) = MOD(IB(IPOS) + 1 + MOD(NXTRND(ISEED), NK-1),
     &                        NK)
            ELSE IF (J .EQ. 1 .AND. N .LT. LMAX) THEN
               DO 30 I = N, IPOS, -1
                  IB(I+1) = IB(I)
   30          CONTINUE
               IB(IPOS) = MOD(NXTRND(ISEED), NK)
               N = N + 1
            ELSE IF (N .GT. 1) THEN
               DO 35 I = IPOS, N - 1
                  IB(I) = IB(I+1)
   35          CONTINUE
               N = N - 1
            ENDIF
   40    CONTINUE
C
         DO 100 IREP = 1, NREP
            IED  = KEDIT(IA, M, IB, N, IR0, IR1)
            IEDR = KEDIT(IB, N, IA, M, IR0, IR1)
            LCS  = KLCS(IA, M, IB, N, IR0, IR1)
            LCSR = KLCS(IB, N, IA, M, IR0, IR1)
            IND  = KINDEL(IA, M, IB, N, IR0, IR1)
  100    CONTINUE
         IEDS = KEDIT(IA, M, IA, M, IR0, IR1)
         LCSS = KLCS(IB, N, IB, N, IR0, IR1)
C
         WRITE(*,'(A,I1,A,2I6,3I7)') 'CHECKSUM LEVENSH PAIR', IP,
     &        ' ', M, N, IED, LCS, IND
         IF (IED .NE. IEDR) OK = .FALSE.
         IF (LCS .NE. LCSR) OK = .FALSE.
         IF (IND .NE. M + N - 2*LCS) OK = .FALSE.
         IF (IED .LT. ABS(M-N) .OR. IED .GT. MAX(M,N)) OK = .FALSE.
         IF (IED .GT. NM) OK = .FALSE.
         IF (LCS .GT. MIN(M,N)) OK = .FALSE.
         IF (IEDS .NE. 0 .OR. LCSS .NE. N) OK = .FALSE.
C        EDIT DISTANCE IS AT LEAST MAX(M,N) - LCS AND AT MOST INDEL
         IF (IED .LT. MAX(M,N) - LCS .OR. IED .GT. IND) OK = .FALSE.
  200 CONTINUE
C
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK LEVENSH PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK LEVENSH FAIL'
      ENDIF
      END
C
C-----------------------------------------------------------------------
C     PARK-MILLER GENERATOR RETURNING A NON-NEGATIVE INTEGER
C-----------------------------------------------------------------------
      INTEGER FUNCTION NXTRND(ISEED)
      IMPLICIT NONE
      INTEGER ISEED, K
      K = ISEED / 127773
      ISEED = 16807*(ISEED - K*127773) - 2836*K
      IF (ISEED .LT. 0) ISEED = ISEED + 2147483647
      NXTRND = ISEED / 256
      RETURN
      END
C
C-----------------------------------------------------------------------
C     LEVENSHTEIN DISTANCE, TWO ROWS (PREVIOUS R0, CURRENT R1)
C-----------------------------------------------------------------------
      INTEGER FUNCTION KEDIT(IA, M, IB, N, R0, R1)
      IMPLICIT NONE
      INTEGER M, N, IA(*), IB(*), R0(0:*), R1(0:*)
      INTEGER I, J, IC
      DO 10 J = 0, N
         R0(J) = J
   10 CONTINUE
      DO 40 I = 1, M
         R1(0) = I
         DO 20 J = 1, N
            IC = 1
            IF (IA(I) .EQ. IB(J)) IC = 0
            R1(J) = MIN(R0(J-1) + IC, R0(J) + 1, R1(J-1) + 1)
   20    CONTINUE
         DO 30 J = 0, N
            R0(J) = R1(J)
   30    CONTINUE
   40 CONTINUE
      KEDIT = R0(N)
      RETURN
      END
C
C-----------------------------------------------------------------------
C     LCS LENGTH, TWO ROWS WITH ROW SWAPPING BY PARITY
C-----------------------------------------------------------------------
      INTEGER FUNCTION KLCS(IA, M, IB, N, R0, R1)
      IMPLICIT NONE
      INTEGER M, N, IA(*), IB(*), R0(0:*), R1(0:*)
      INTEGER I
      DO 10 I = 0, N
         R0(I) = 0
         R1(I) = 0
   10 CONTINUE
      DO 20 I = 1, M
         IF (MOD(I, 2) .EQ. 1) THEN
            CALL LCSROW(IA(I), IB, N, R0, R1)
         ELSE
            CALL LCSROW(IA(I), IB, N, R1, R0)
         ENDIF
   20 CONTINUE
      IF (MOD(M, 2) .EQ. 1) THEN
         KLCS = R1(N)
      ELSE
         KLCS = R0(N)
      ENDIF
      RETURN
      END
C
      SUBROUTINE LCSROW(IAI, IB, N, RP, RC)
      IMPLICIT NONE
      INTEGER IAI, N, IB(*), RP(0:*), RC(0:*)
      INTEGER J
      RC(0) = 0
      DO 10 J = 1, N
         IF (IAI .EQ. IB(J)) THEN
            RC(J) = RP(J-1) + 1
         ELSE
            RC(J) = MAX(RP(J), RC(J-1))
         ENDIF
   10 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     INSERT/DELETE-ONLY DISTANCE, SINGLE ROW + DIAGONAL SCALAR
C-----------------------------------------------------------------------
      INTEGER FUNCTION KINDEL(IA, M, IB, N, R0, R1)
      IMPLICIT NONE
      INTEGER M, N, IA(*), IB(*), R0(0:*), R1(0:*)
      INTEGER I, J, IDIAG, ITMP
      DO 10 J = 0, N
         R0(J) = J
   10 CONTINUE
      DO 30 I = 1, M
         IDIAG = R0(0)
         R0(0) = I
         DO 20 J = 1, N
            ITMP = R0(J)
            IF (IA(I) .EQ. IB(J)) THEN
               R0(J) = IDIAG
            ELSE
               R0(J) = MIN(R0(J), R0(J-1)) + 1
            ENDIF
            IDIAG = ITMP
   20    CONTINUE
   30 CONTINUE
      KINDEL = R0(N)
C     R1 IS UNUSED SCRATCH HERE (KEPT FOR A UNIFORM INTERFACE)
      R1(0) = KINDEL
      RETURN
      END
