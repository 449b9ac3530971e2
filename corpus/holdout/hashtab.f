C     ------------------------------------------------------------------
C     HASHTAB: open-addressing integer hash table with linear probing.
C     Keys come from the Park-Miller minimal standard generator
C     (A=16807, M=2**31-1) evaluated with Schrage's method so that all
C     intermediate values stay inside 32-bit INTEGER range.
C     Each round: insert distinct odd keys, look them all up, delete
C     every third one (backward-shift deletion), look them up again,
C     and probe with even keys that can never be present.
C     ------------------------------------------------------------------
      PROGRAM HASHTB
      IMPLICIT NONE
      INTEGER TSIZE, NINS, NREP, EMPTY
      PARAMETER (TSIZE = 1048573, NINS = 700000, NREP = 8)
      PARAMETER (EMPTY = 0)
      INTEGER NTHIRD
      PARAMETER (NTHIRD = 233333)
      INTEGER TABLE(TSIZE)
      INTEGER SEED, S, KEY, I, IR, NDEL, NOCC, POS, NPROBE
      INTEGER HITS1, HITS2, MISS2, HITS3, HITOTH
      INTEGER HFIND
      LOGICAL OK
      INTEGER*8 PROBES, TOTHIT
      COMMON /HSTAT/ PROBES
C
      OK = .TRUE.
      PROBES = 0
      TOTHIT = 0
C
C     verify the generator: 10000 steps from seed 1 give 1043618065
      S = 1
      DO 5 I = 1, 10000
         CALL PMRAND(S)
    5 CONTINUE
      IF (S .NE. 1043618065) OK = .FALSE.
      WRITE(*,'(A,I12)') 'CHECKSUM HASHTAB PM10000 ', S
C
      DO 500 IR = 1, NREP
         DO 10 I = 1, TSIZE
            TABLE(I) = EMPTY
   10    CONTINUE
         SEED = 12345 + 7919*IR
C
C        --- insert NINS distinct odd keys
         S = SEED
         DO 20 I = 1, NINS
            CALL NXTODD(S, KEY)
            CALL HINS(TABLE, TSIZE, KEY, POS)
            IF (POS .LE. 0) OK = .FALSE.
   20    CONTINUE
         NOCC = 0
         DO 25 I = 1, TSIZE
            IF (TABLE(I) .NE. EMPTY) NOCC = NOCC + 1
   25    CONTINUE
         IF (NOCC .NE. NINS) OK = .FALSE.
C
C        --- look all of them up again
         S = SEED
         HITS1 = 0
         DO 30 I = 1, NINS
            CALL NXTODD(S, KEY)
            IF (HFIND(TABLE, TSIZE, KEY, NPROBE) .GT. 0)
     &         HITS1 = HITS1 + 1
   30    CONTINUE
         IF (HITS1 .NE. NINS) OK = .FALSE.
C
C        --- delete every third key
         S = SEED
         NDEL = 0
         DO 40 I = 1, NINS
            CALL NXTODD(S, KEY)
            IF (MOD(I,3) .EQ. 0) THEN
               CALL HDEL(TABLE, TSIZE, KEY, POS)
               IF (POS .GT. 0) NDEL = NDEL + 1
            END IF
   40    CONTINUE
         IF (NDEL .NE. NTHIRD) OK = .FALSE.
C
C        --- replay: deleted keys must miss, the others must hit
         S = SEED
         HITS2 = 0
         MISS2 = 0
         DO 50 I = 1, NINS
            CALL NXTODD(S, KEY)
            IF (HFIND(TABLE, TSIZE, KEY, NPROBE) .GT. 0) THEN
               HITS2 = HITS2 + 1
               IF (MOD(I,3) .EQ. 0) OK = .FALSE.
            ELSE
               MISS2 = MISS2 + 1
               IF (MOD(I,3) .NE. 0) OK = .FALSE.
            END IF
   50    CONTINUE
         IF (HITS2 .NE. NINS-NTHIRD) OK = .FALSE.
C
C        --- even keys are never present
         S = SEED + 1
         HITS3 = 0
         DO 60 I = 1, NINS/2
            CALL PMRAND(S)
            KEY = 2*(S/2)
            IF (KEY .EQ. 0) KEY = 2
            IF (HFIND(TABLE, TSIZE, KEY, NPROBE) .GT. 0)
     &         HITS3 = HITS3 + 1
   60    CONTINUE
         IF (HITS3 .NE. 0) OK = .FALSE.
C
C        --- odd keys from an unrelated stream: result is data
         S = 987654321 - IR
         HITOTH = 0
         DO 70 I = 1, NINS/2
            CALL NXTODD(S, KEY)
            IF (HFIND(TABLE, TSIZE, KEY, NPROBE) .GT. 0)
     &         HITOTH = HITOTH + 1
   70    CONTINUE
         TOTHIT = TOTHIT + HITS1 + HITS2 + HITOTH
C
         NOCC = 0
         DO 80 I = 1, TSIZE
            IF (TABLE(I) .NE. EMPTY) NOCC = NOCC + 1
   80    CONTINUE
         IF (NOCC .NE. NINS-NDEL) OK = .FALSE.
         WRITE(*,'(A,I2,4I9)') ' ROUND', IR, HITS1, HITS2, MISS2,
     &        HITOTH
  500 CONTINUE
C
      WRITE(*,'(A,I14)') 'CHECKSUM HASHTAB HITS ', TOTHIT
      WRITE(*,'(A,I14)') 'CHECKSUM HASHTAB PROBES ', PROBES
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK HASHTAB PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK HASHTAB FAIL'
      END IF
      END
C
C     ------------------------------------------------------------------
C     Park-Miller minimal standard step, Schrage factorisation.
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
C     Next odd value of the stream (distinct within one period).
      SUBROUTINE NXTODD(S, KEY)
      IMPLICIT NONE
      INTEGER S, KEY
   10 CONTINUE
      CALL PMRAND(S)
      IF (MOD(S,2) .EQ. 0) GO TO 10
      KEY = S
      RETURN
      END
C
C     Home slot of a key (1..TSIZE).  Multiplicative scramble done in
C     two 16-bit halves so nothing overflows.
      INTEGER FUNCTION HHOME(KEY, TSIZE)
      IMPLICIT NONE
      INTEGER KEY, TSIZE, KH, KL
      KH = KEY/65536
      KL = MOD(KEY,65536)
      HHOME = MOD(MOD(KL*31421, TSIZE) + MOD(KH*27183, TSIZE)
     &        + KH, TSIZE) + 1
      RETURN
      END
C
C     Lookup: returns slot index or 0.  NPROBE = slots inspected.
      INTEGER FUNCTION HFIND(TABLE, TSIZE, KEY, NPROBE)
      IMPLICIT NONE
      INTEGER TSIZE, TABLE(TSIZE), KEY, NPROBE
      INTEGER I, HHOME
      INTEGER*8 PROBES
      COMMON /HSTAT/ PROBES
      I = HHOME(KEY, TSIZE)
      NPROBE = 0
   10 CONTINUE
      NPROBE = NPROBE + 1
      IF (TABLE(I) .EQ. 0) THEN
         HFIND = 0
         GO TO 90
      END IF
      IF (TABLE(I) .EQ. KEY) THEN
         HFIND = I
         GO TO 90
      END IF
      I = I + 1
      IF (I .GT. TSIZE) I = 1
      IF (NPROBE .GE. TSIZE) THEN
         HFIND = 0
         GO TO 90
      END IF
      GO TO 10
   90 CONTINUE
      PROBES = PROBES + NPROBE
      RETURN
      END
C
C     Insert: POS = slot used (existing slot if already present),
C     0 if table full.
      SUBROUTINE HINS(TABLE, TSIZE, KEY, POS)
      IMPLICIT NONE
      INTEGER TSIZE, TABLE(TSIZE), KEY, POS
      INTEGER I, N, HHOME
      I = HHOME(KEY, TSIZE)
      DO 10 N = 1, TSIZE
         IF (TABLE(I) .EQ. 0) THEN
            TABLE(I) = KEY
            POS = I
            RETURN
         END IF
         IF (TABLE(I) .EQ. KEY) THEN
            POS = I
            RETURN
         END IF
         I = I + 1
         IF (I .GT. TSIZE) I = 1
   10 CONTINUE
      POS = 0
      RETURN
      END
C
C     Delete with backward shift (no tombstones). POS = freed slot or 0.
      SUBROUTINE HDEL(TABLE, TSIZE, KEY, POS)
      IMPLICIT NONE
      INTEGER TSIZE, TABLE(TSIZE), KEY, POS
      INTEGER I, J, K, NPROBE, HFIND, HHOME
      LOGICAL STAY
      POS = HFIND(TABLE, TSIZE, KEY, NPROBE)
      IF (POS .EQ. 0) RETURN
      I = POS
      J = POS
   10 CONTINUE
      J = J + 1
      IF (J .GT. TSIZE) J = 1
      IF (TABLE(J) .EQ. 0) GO TO 90
      K = HHOME(TABLE(J), TSIZE)
C     entry at J may stay if its home K lies cyclically in (I,J]
      IF (I .LE. J) THEN
         STAY = (I .LT. K) .AND. (K .LE. J)
      ELSE
         STAY = (I .LT. K) .OR. (K .LE. J)
      END IF
      IF (.NOT. STAY) THEN
         TABLE(I) = TABLE(J)
         I = J
      END IF
      GO TO 10
   90 CONTINUE
      TABLE(I) = 0
      RETURN
      END
