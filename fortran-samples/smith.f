C     SMITH-STYLE COLLECTION OF SMALL LOOPS (SEED 004 SECTION 5.2.1,
C     TABLE 5.2): EACH SECTION EXERCISES ONE ASPECT OF THE MACHINE AND
C     THE WHOLE SET IS RUN NREP TIMES, EACH TIME FROM THE SAME START:
C       S1 BRANCHES: BLOCK IF / ELSE IF, LOGICAL IF, ARITHMETIC IF AND
C          COMPUTED GO TO, COUNTING THE PATHS TAKEN FOR I = 1..NB
C       S2 INTEGER ARITHMETIC: H := MOD(3*H + I*I - I/3, 65521)
C       S3 REAL ARITHMETIC: HORNER SUM OF P(X) = ((2X - 3)X + 0.5)X + 1
C          OVER X = I/NP, I = 1..NP
C       S4 PROCEDURE CALLS: A SUBROUTINE WITH THREE ARGUMENTS AND AN
C          INTEGER FUNCTION OF TWO, NC TIMES
C       S5 DATA MOVEMENT: 1-D COPIES AND A 2-D TRANSPOSED COPY
C       S6 MATRIX MULTIPLY: C = A * B FOR 10 X 10 MATRICES,
C          A(I,J) = I + J - 1, B(I,J) = I - J
C       S7 BUBBLE SORT OF NS KEYS FROM K := MOD(75*K + 74, 65537),
C          K0 = 12345
C       S8 LOGICAL OPERATIONS: .AND., .OR., .NOT. AND .EQV. ON FLAGS
C
C     OUTPUT (THE ONLY OUTPUT): ONE LINE PER RESULT,
C       CHECKSUM SMITH <SECTION>-<NAME> <VALUE>
C
      PROGRAM SMITH
      INTEGER NREP
      PARAMETER (NREP = 4400)
      INTEGER NBR(8), IHASH, NCALL, NSWAP, NBAD, NLOG(4), I
      INTEGER IKEYS(3)
      REAL POLY, ACALL, CMOVE, CMAT
      INTEGER IREP
C
      DO 10 IREP = 1, NREP
         CALL BRANCH(NBR)
         CALL INTAR(IHASH)
         CALL REALAR(POLY)
         CALL CALLS(NCALL, ACALL)
         CALL MOVE(CMOVE)
         CALL MATMUL(CMAT)
         CALL BUBBLE(NSWAP, NBAD, IKEYS)
         CALL LOGIC(NLOG)
   10 CONTINUE
C
      DO 20 I = 1, 8
         WRITE (*, 100) I, NBR(I)
   20 CONTINUE
      WRITE (*, 101) IHASH
      WRITE (*, 102) POLY
      WRITE (*, 103) NCALL
      WRITE (*, 104) ACALL
      WRITE (*, 105) CMOVE
      WRITE (*, 106) CMAT
      WRITE (*, 107) NSWAP
      WRITE (*, 108) NBAD
      WRITE (*, 109) IKEYS
      DO 30 I = 1, 4
         WRITE (*, 110) I, NLOG(I)
   30 CONTINUE
  100 FORMAT (' CHECKSUM SMITH S1-PATH', I1, ' ', I12)
  101 FORMAT (' CHECKSUM SMITH S2-HASH ', I12)
  102 FORMAT (' CHECKSUM SMITH S3-POLY ', 1PE16.8)
  103 FORMAT (' CHECKSUM SMITH S4-COUNT ', I12)
  104 FORMAT (' CHECKSUM SMITH S4-ACC ', 1PE16.8)
  105 FORMAT (' CHECKSUM SMITH S5-SUM ', 1PE16.8)
  106 FORMAT (' CHECKSUM SMITH S6-SUM ', 1PE16.8)
  107 FORMAT (' CHECKSUM SMITH S7-SWAPS ', I12)
  108 FORMAT (' CHECKSUM SMITH S7-BADORD ', I12)
  109 FORMAT (' CHECKSUM SMITH S7-FIRST ', I12 /
     &        ' CHECKSUM SMITH S7-MIDDLE ', I12 /
     &        ' CHECKSUM SMITH S7-LAST ', I12)
  110 FORMAT (' CHECKSUM SMITH S8-COUNT', I1, ' ', I12)
      END
C
C     S1: NBR(1..4) COUNT THE BLOCK IF PATHS (MOD(I,4) = 0, 1, 2, 3),
C     NBR(5) THE ARITHMETIC IF'S NEGATIVE PATH (I < NB/2),
C     NBR(6..8) THE COMPUTED GO TO'S TARGETS 1, 2 AND 3
C     (MOD(I,3) + 1).
C
      SUBROUTINE BRANCH(NBR)
      INTEGER NBR(8)
      INTEGER NB
      PARAMETER (NB = 20000)
      INTEGER I, J
      DO 10 J = 1, 8
         NBR(J) = 0
   10 CONTINUE
      DO 90 I = 1, NB
         J = MOD(I, 4)
         IF (J .EQ. 0) THEN
            NBR(1) = NBR(1) + 1
         ELSE IF (J .EQ. 1) THEN
            NBR(2) = NBR(2) + 1
         ELSE IF (J .EQ. 2) THEN
            NBR(3) = NBR(3) + 1
         ELSE
            NBR(4) = NBR(4) + 1
         END IF
         IF (I - NB / 2) 20, 30, 30
   20    NBR(5) = NBR(5) + 1
   30    GO TO (40, 50, 60), MOD(I, 3) + 1
   40    NBR(6) = NBR(6) + 1
         GO TO 90
   50    NBR(7) = NBR(7) + 1
         GO TO 90
   60    NBR(8) = NBR(8) + 1
   90 CONTINUE
      RETURN
      END
C
C     S2: AN INTEGER HASH OVER I = 1..NI.
C
      SUBROUTINE INTAR(IHASH)
      INTEGER IHASH
      INTEGER NI
      PARAMETER (NI = 20000)
      INTEGER I
      IHASH = 0
      DO 10 I = 1, NI
         IHASH = MOD(3 * IHASH + I * I - I / 3, 65521)
   10 CONTINUE
      RETURN
      END
C
C     S3: SUM OF A CUBIC BY HORNER'S RULE.
C
      SUBROUTINE REALAR(POLY)
      REAL POLY
      INTEGER NP
      PARAMETER (NP = 10000)
      INTEGER I
      REAL X
      POLY = 0.0
      DO 10 I = 1, NP
         X = REAL(I) / REAL(NP)
         POLY = POLY + ((2.0 * X - 3.0) * X + 0.5) * X + 1.0
   10 CONTINUE
      RETURN
      END
C
C     S4: NC CALLS OF A SUBROUTINE AND OF A FUNCTION.
C
      SUBROUTINE CALLS(NCALL, ACALL)
      INTEGER NCALL
      REAL ACALL
      INTEGER NC
      PARAMETER (NC = 10000)
      INTEGER I, IADD2
      EXTERNAL IADD2
      NCALL = 0
      ACALL = 0.0
      DO 10 I = 1, NC
         CALL ACCUM(ACALL, 0.25, I)
         NCALL = IADD2(NCALL, 1)
   10 CONTINUE
      RETURN
      END
C
C     ACC := ACC + W WHEN I IS ODD, ACC - W / 2 WHEN EVEN.
C
      SUBROUTINE ACCUM(ACC, W, I)
      REAL ACC, W
      INTEGER I
      IF (MOD(I, 2) .EQ. 1) THEN
         ACC = ACC + W
      ELSE
         ACC = ACC - W / 2.0
      END IF
      RETURN
      END
C
      INTEGER FUNCTION IADD2(I, J)
      INTEGER I, J
      IADD2 = I + J
      RETURN
      END
C
C     S5: COPIES THROUGH THREE VECTORS AND A TRANSPOSE; CMOVE IS THE
C     SUM OF THE LAST COPY.
C
      SUBROUTINE MOVE(CMOVE)
      REAL CMOVE
      INTEGER NV, NM
      PARAMETER (NV = 2000, NM = 40)
      REAL U(NV), V(NV), W(NV), P(NM, NM), Q(NM, NM)
      INTEGER I, J
      DO 10 I = 1, NV
         U(I) = REAL(MOD(I, 16)) * 0.125
   10 CONTINUE
      DO 20 I = 1, NV
         V(I) = U(I)
   20 CONTINUE
      DO 30 I = 1, NV
         W(NV + 1 - I) = V(I)
   30 CONTINUE
      DO 50 J = 1, NM
         DO 40 I = 1, NM
            P(I, J) = W((J - 1) * NM + I)
   40    CONTINUE
   50 CONTINUE
      DO 70 J = 1, NM
         DO 60 I = 1, NM
            Q(J, I) = P(I, J)
   60    CONTINUE
   70 CONTINUE
      CMOVE = 0.0
      DO 90 J = 1, NM
         DO 80 I = 1, NM
            CMOVE = CMOVE + Q(I, J) * REAL(I)
   80    CONTINUE
   90 CONTINUE
      RETURN
      END
C
C     S6: A 10 X 10 MATRIX PRODUCT; CMAT IS THE SUM OF ITS ELEMENTS.
C
      SUBROUTINE MATMUL(CMAT)
      REAL CMAT
      INTEGER N
      PARAMETER (N = 10)
      REAL A(N, N), B(N, N), C(N, N)
      INTEGER I, J, K
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I, J) = REAL(I + J - 1)
            B(I, J) = REAL(I - J)
   10    CONTINUE
   20 CONTINUE
      DO 50 J = 1, N
         DO 40 I = 1, N
            C(I, J) = 0.0
            DO 30 K = 1, N
               C(I, J) = C(I, J) + A(I, K) * B(K, J)
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
      CMAT = 0.0
      DO 70 J = 1, N
         DO 60 I = 1, N
            CMAT = CMAT + C(I, J) * REAL(I)
   60    CONTINUE
   70 CONTINUE
      RETURN
      END
C
C     S7: BUBBLE SORT OF NS KEYS INTO ASCENDING ORDER; NSWAP COUNTS THE
C     EXCHANGES, NBAD THE PAIRS LEFT OUT OF ORDER; IKEYS RETURNS THE
C     FIRST, MIDDLE (NS/2) AND LAST KEYS.
C
      SUBROUTINE BUBBLE(NSWAP, NBAD, IKEYS)
      INTEGER NSWAP, NBAD, IKEYS(3)
      INTEGER NS
      PARAMETER (NS = 300)
      INTEGER KEY(NS), I, J, K, LAST
      LOGICAL SWAPPD
      K = 12345
      DO 10 I = 1, NS
         K = MOD(75 * K + 74, 65537)
         KEY(I) = K
   10 CONTINUE
      NSWAP = 0
      LAST = NS - 1
   20 SWAPPD = .FALSE.
      DO 30 I = 1, LAST
         IF (KEY(I) .LE. KEY(I + 1)) GO TO 30
         J = KEY(I)
         KEY(I) = KEY(I + 1)
         KEY(I + 1) = J
         NSWAP = NSWAP + 1
         SWAPPD = .TRUE.
   30 CONTINUE
      LAST = LAST - 1
      IF (SWAPPD .AND. LAST .GE. 1) GO TO 20
      NBAD = 0
      DO 40 I = 1, NS - 1
         IF (KEY(I) .GT. KEY(I + 1)) NBAD = NBAD + 1
   40 CONTINUE
      IKEYS(1) = KEY(1)
      IKEYS(2) = KEY(NS / 2)
      IKEYS(3) = KEY(NS)
      RETURN
      END
C
C     S8: FLAGS A = MOD(I,2) = 0, B = MOD(I,3) = 0 FOR I = 1..NL;
C     NLOG COUNTS A .AND. B, A .OR. B, .NOT. A .AND. .NOT. B, A .EQV. B.
C
      SUBROUTINE LOGIC(NLOG)
      INTEGER NLOG(4)
      INTEGER NL
      PARAMETER (NL = 20000)
      INTEGER I
      LOGICAL A, B
      DO 10 I = 1, 4
         NLOG(I) = 0
   10 CONTINUE
      DO 20 I = 1, NL
         A = MOD(I, 2) .EQ. 0
         B = MOD(I, 3) .EQ. 0
         IF (A .AND. B) NLOG(1) = NLOG(1) + 1
         IF (A .OR. B) NLOG(2) = NLOG(2) + 1
         IF (.NOT. A .AND. .NOT. B) NLOG(3) = NLOG(3) + 1
         IF (A .EQV. B) NLOG(4) = NLOG(4) + 1
   20 CONTINUE
      RETURN
      END
