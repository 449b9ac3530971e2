C=======================================================================
C     LIFEGAME: CONWAY'S GAME OF LIFE ON A TOROIDAL GRID.
C     TWO INDEPENDENT IMPLEMENTATIONS ARE RUN SIDE BY SIDE FROM THE
C     SAME PSEUDO-RANDOM START:
C       (A) INTEGER GRID, WRAP-AROUND VIA PRECOMPUTED INDEX TABLES
C       (B) LOGICAL GRID WITH A GHOST-CELL HALO REFRESHED EACH STEP,
C           NEIGHBOUR COUNT FROM COLUMN SUMS
C     POPULATIONS MUST AGREE EVERY GENERATION AND THE FINAL GRIDS MUST
C     BE IDENTICAL.  A GLIDER ON AN EMPTY TORUS OF SIZE M MUST RETURN
C     TO ITS START AFTER 4*M GENERATIONS (PERIOD 4, SHIFT (1,1)).
C=======================================================================
      PROGRAM LIFEGM
      IMPLICIT NONE
      INTEGER N, NREP, MG
      PARAMETER (N=256, NREP=1200, MG=40)
      INTEGER IG(N,N), IW(N,N), IP(N), IM(N)
      LOGICAL LG(0:N+1,0:N+1), LW(0:N+1,0:N+1)
      INTEGER JG(MG,MG), JW(MG,MG), J0(MG,MG), JP(MG), JM(MG)
      INTEGER I, J, K, ISEED, NPA, NPB, NBAD, NDIFF, ISUM
      INTEGER ICNT
      LOGICAL OK
      EXTERNAL ICNT
C
      OK = .TRUE.
C     WRAP-AROUND INDEX TABLES
      DO 5 I = 1, N
         IP(I) = MOD(I, N) + 1
         IM(I) = MOD(I - 2 + N, N) + 1
    5 CONTINUE
C     RANDOM FILL, ABOUT 35 PERCENT ALIVE
      ISEED = 2024
      DO 20 J = 1, N
         DO 10 I = 1, N
            CALL LCG(ISEED)
            IF (MOD(ISEED/65536, 100) .LT. 35) THEN
               IG(I,J) = 1
            ELSE
               IG(I,J) = 0
            ENDIF
            LG(I,J) = IG(I,J) .EQ. 1
   10    CONTINUE
   20 CONTINUE
      NPA = ICNT(IG, N, N)
      WRITE(*,'(A,I10)') 'CHECKSUM LIFEGAME POP0 ', NPA
C
      NBAD = 0
      ISUM = 0
      DO 100 K = 1, NREP
         CALL STEPA(IG, IW, N, IP, IM)
         CALL STEPB(LG, LW, N)
         NPA = ICNT(IG, N, N)
         NPB = 0
         DO 40 J = 1, N
            DO 30 I = 1, N
               IF (LG(I,J)) NPB = NPB + 1
   30       CONTINUE
   40    CONTINUE
         IF (NPA .NE. NPB) NBAD = NBAD + 1
         ISUM = ISUM + NPA*MOD(K, 7)
  100 CONTINUE
C     FINAL GRID COMPARISON
      NDIFF = 0
      DO 120 J = 1, N
         DO 110 I = 1, N
            IF ((IG(I,J) .EQ. 1) .NEQV. LG(I,J)) NDIFF = NDIFF + 1
  110    CONTINUE
  120 CONTINUE
      WRITE(*,'(A,I10)') 'CHECKSUM LIFEGAME POPFINAL ', NPA
      WRITE(*,'(A,I10)') 'CHECKSUM LIFEGAME WEIGHTED ', ISUM
      WRITE(*,'(A,2I6)') 'CHECKSUM LIFEGAME MISMATCH ', NBAD, NDIFF
      IF (NBAD .NE. 0 .OR. NDIFF .NE. 0) OK = .FALSE.
C
C     GLIDER INVARIANT ON AN MG X MG TORUS
      DO 140 J = 1, MG
         JP(J) = MOD(J, MG) + 1
         JM(J) = MOD(J - 2 + MG, MG) + 1
         DO 130 I = 1, MG
            JG(I,J) = 0
  130    CONTINUE
  140 CONTINUE
C     GLIDER MOVING TOWARDS +I, +J   (I = ROW, J = COLUMN)
      JG(5,6) = 1
      JG(6,7) = 1
      JG(7,5) = 1
      JG(7,6) = 1
      JG(7,7) = 1
      DO 150 J = 1, MG
         DO 145 I = 1, MG
            J0(I,J) = JG(I,J)
  145    CONTINUE
  150 CONTINUE
      DO 160 K = 1, 4*MG
         CALL STEPA(JG, JW, MG, JP, JM)
         IF (ICNT(JG, MG, MG) .NE. 5) OK = .FALSE.
C        AFTER 4 STEPS THE PATTERN IS THE START SHIFTED BY (1,1)
         IF (K .EQ. 4) THEN
            IF (JG(6,7)+JG(7,8)+JG(8,6)+JG(8,7)+JG(8,8) .NE. 5)
     &         OK = .FALSE.
         ENDIF
  160 CONTINUE
      NDIFF = 0
      DO 180 J = 1, MG
         DO 170 I = 1, MG
            IF (JG(I,J) .NE. J0(I,J)) NDIFF = NDIFF + 1
  170    CONTINUE
  180 CONTINUE
      WRITE(*,'(A,I6)') 'CHECKSUM LIFEGAME GLIDERDIFF ', NDIFF
      IF (NDIFF .NE. 0) OK = .FALSE.
C
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK LIFEGAME PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK LIFEGAME FAIL'
      ENDIF
      END
C
C-----------------------------------------------------------------------
C     31-BIT LINEAR CONGRUENTIAL GENERATOR, OVERFLOW-FREE (SCHRAGE)
C-----------------------------------------------------------------------
      SUBROUTINE LCG(ISEED)
      IMPLICIT NONE
      INTEGER ISEED, K
      K = ISEED / 127773
      ISEED = 16807*(ISEED - K*127773) - 2836*K
      IF (ISEED .LT. 0) ISEED = ISEED + 2147483647
      RETURN
      END
C
      INTEGER FUNCTION ICNT(IG, LD, N)
      IMPLICIT NONE
      INTEGER LD, N, IG(LD,*), I, J
      ICNT = 0
      DO 20 J = 1, N
         DO 10 I = 1, N
            ICNT = ICNT + IG(I,J)
   10    CONTINUE
   20 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     IMPLEMENTATION A: EXPLICIT 8-NEIGHBOUR SUM WITH INDEX TABLES
C-----------------------------------------------------------------------
      SUBROUTINE STEPA(IG, IW, N, IP, IM)
      IMPLICIT NONE
      INTEGER N, IG(N,N), IW(N,N), IP(N), IM(N)
      INTEGER I, J, JL, JR, NB
      DO 20 J = 1, N
         JL = IM(J)
         JR = IP(J)
         DO 10 I = 1, N
            NB = IG(IM(I),JL) + IG(I,JL) + IG(IP(I),JL)
     &         + IG(IM(I),J)              + IG(IP(I),J)
     &         + IG(IM(I),JR) + IG(I,JR) + IG(IP(I),JR)
            IF (NB .EQ. 3) THEN
               IW(I,J) = 1
            ELSE IF (NB .EQ. 2) THEN
               IW(I,J) = IG(I,J)
            ELSE
               IW(I,J) = 0
            ENDIF
   10    CONTINUE
   20 CONTINUE
      DO 40 J = 1, N
         DO 30 I = 1, N
            IG(I,J) = IW(I,J)
   30    CONTINUE
   40 CONTINUE
      RETURN
      END
C
C-----------------------------------------------------------------------
C     IMPLEMENTATION B: LOGICAL GRID WITH HALO; COLUMN-TRIPLE SUMS
C     (COUNT INCLUDES THE CELL ITSELF: ALIVE NEXT IFF S=3 OR S-C=3 ...)
C     RULE USED:  S = 3X3 BLOCK SUM.  NEW = (S .EQ. 3) OR (C AND S.EQ.4)
C-----------------------------------------------------------------------
      SUBROUTINE STEPB(LG, LW, N)
      IMPLICIT NONE
      INTEGER N
      LOGICAL LG(0:N+1,0:N+1), LW(0:N+1,0:N+1)
      INTEGER I, J, S, CS(0:1024)
C     REFRESH HALO: EDGES THEN CORNERS
      DO 10 I = 1, N
         LG(I,0)   = LG(I,N)
         LG(I,N+1) = LG(I,1)
   10 CONTINUE
      DO 20 J = 0, N + 1
         LG(0,J)   = LG(N,J)
         LG(N+1,J) = LG(1,J)
   20 CONTINUE
      DO 60 J = 1, N
C        VERTICAL TRIPLE SUMS OVER COLUMNS J-1, J, J+1 FOR EACH ROW
         DO 30 I = 0, N + 1
            CS(I) = 0
            IF (LG(I,J-1)) CS(I) = CS(I) + 1
            IF (LG(I,J))   CS(I) = CS(I) + 1
            IF (LG(I,J+1)) CS(I) = CS(I) + 1
   30    CONTINUE
         DO 40 I = 1, N
            S = CS(I-1) + CS(I) + CS(I+1)
            LW(I,J) = (S .EQ. 3) .OR. (LG(I,J) .AND. S .EQ. 4)
   40    CONTINUE
   60 CONTINUE
      DO 80 J = 1, N
         DO 70 I = 1, N
            LG(I,J) = LW(I,J)
   70    CONTINUE
   80 CONTINUE
      RETURN
      END
