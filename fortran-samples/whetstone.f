C     WHETSTONE (SEED 004 SECTION 5.2.1, TABLE 5.2; THE SYNTHETIC
C     BENCHMARK OF CURNOW AND WICHMANN, 1976). EACH MODULE REPEATS
C     ONE KIND OF STATEMENT MIX A FIXED NUMBER OF TIMES PER UNIT OF
C     WORK, AND NLOOP UNITS ARE RUN:
C        1  SIMPLE IDENTIFIERS         2  ARRAY ELEMENTS
C        3  ARRAY AS PARAMETER (PA)    4  CONDITIONAL JUMPS
C        6  INTEGER ARITHMETIC         7  TRIGONOMETRIC FUNCTIONS
C        8  PROCEDURE CALLS (P3)       9  ARRAY REFERENCES (P0)
C       10  INTEGER ARITHMETIC        11  STANDARD FUNCTIONS
C     (MODULE 5 OF THE ORIGINAL IS EMPTY.) THE WHOLE SEQUENCE OF
C     MODULES, EACH STARTING FROM ITS OWN INITIAL VALUES, IS RUN NREP
C     TIMES; THE MODULE COUNTS STAY SMALL SO THAT NO OPERAND DECAYS
C     INTO DENORMALS (SEED 003, RANGE GUARD).
C
C     OUTPUT (THE ONLY OUTPUT): ONE LINE PER MODULE RESULT,
C       CHECKSUM WHETSTONE <MODULE>-<NAME> <VALUE>
C     E.G. CHECKSUM WHETSTONE M07-X <X AT THE END OF MODULE 7>.
C
      PROGRAM WHETST
      INTEGER NLOOP, NREP
      PARAMETER (NLOOP = 100, NREP = 1200)
      REAL T, T1, T2, E1(4)
      INTEGER J, K, L
      COMMON /WCONST/ T, T1, T2
      COMMON /WARRAY/ E1
      COMMON /WINDEX/ J, K, L
      INTEGER N1, N2, N3, N4, N6, N7, N8, N9, N10, N11, I, IREP
      INTEGER J4, J6, K6, L6, J10, K10
      REAL X1, X2, X3, X4, X, Y, Z, E2(4), E3(4), E6(2), E9(3)
      REAL X7, Y7, Z8, X11
C
      T = 0.499975
      T1 = 0.50025
      T2 = 2.0
      N1 = 10 * NLOOP
      N2 = 12 * NLOOP
      N3 = 14 * NLOOP
      N4 = 345 * NLOOP
      N6 = 210 * NLOOP
      N7 = 32 * NLOOP
      N8 = 899 * NLOOP
      N9 = 616 * NLOOP
      N10 = 100 * NLOOP
      N11 = 93 * NLOOP
C
      DO 200 IREP = 1, NREP
C     MODULE 1: SIMPLE IDENTIFIERS
      X1 = 1.0
      X2 = -1.0
      X3 = -1.0
      X4 = -1.0
      DO 10 I = 1, N1
         X1 = (X1 + X2 + X3 - X4) * T
         X2 = (X1 + X2 - X3 + X4) * T
         X3 = (X1 - X2 + X3 + X4) * T
         X4 = (-X1 + X2 + X3 + X4) * T
   10 CONTINUE
C
C     MODULE 2: ARRAY ELEMENTS
      E1(1) = 1.0
      E1(2) = -1.0
      E1(3) = -1.0
      E1(4) = -1.0
      DO 20 I = 1, N2
         E1(1) = (E1(1) + E1(2) + E1(3) - E1(4)) * T
         E1(2) = (E1(1) + E1(2) - E1(3) + E1(4)) * T
         E1(3) = (E1(1) - E1(2) + E1(3) + E1(4)) * T
         E1(4) = (-E1(1) + E1(2) + E1(3) + E1(4)) * T
   20 CONTINUE
      DO 25 I = 1, 4
         E2(I) = E1(I)
   25 CONTINUE
C
C     MODULE 3: ARRAY AS PARAMETER
      DO 30 I = 1, N3
         CALL PA(E1)
   30 CONTINUE
      DO 35 I = 1, 4
         E3(I) = E1(I)
   35 CONTINUE
C
C     MODULE 4: CONDITIONAL JUMPS
      J = 1
      DO 40 I = 1, N4
         IF (J .EQ. 1) THEN
            J = 2
         ELSE
            J = 3
         END IF
         IF (J .GT. 2) THEN
            J = 0
         ELSE
            J = 1
         END IF
         IF (J .LT. 1) THEN
            J = 1
         ELSE
            J = 0
         END IF
   40 CONTINUE
      J4 = J
C
C     MODULE 6: INTEGER ARITHMETIC
      J = 1
      K = 2
      L = 3
      DO 60 I = 1, N6
         J = J * (K - J) * (L - K)
         K = L * K - (L - J) * K
         L = (L - K) * (K + J)
         E1(L - 1) = REAL(J + K + L)
         E1(K - 1) = REAL(J * K * L)
   60 CONTINUE
      J6 = J
      K6 = K
      L6 = L
      E6(1) = E1(1)
      E6(2) = E1(2)
C
C     MODULE 7: TRIGONOMETRIC FUNCTIONS
      X = 0.5
      Y = 0.5
      DO 70 I = 1, N7
         X = T * ATAN(T2 * SIN(X) * COS(X) /
     &       (COS(X + Y) + COS(X - Y) - 1.0))
         Y = T * ATAN(T2 * SIN(Y) * COS(Y) /
     &       (COS(X + Y) + COS(X - Y) - 1.0))
   70 CONTINUE
      X7 = X
      Y7 = Y
C
C     MODULE 8: PROCEDURE CALLS
      X = 1.0
      Y = 1.0
      Z = 1.0
      DO 80 I = 1, N8
         CALL P3(X, Y, Z)
   80 CONTINUE
      Z8 = Z
C
C     MODULE 9: ARRAY REFERENCES
      J = 1
      K = 2
      L = 3
      E1(1) = 1.0
      E1(2) = 2.0
      E1(3) = 3.0
      DO 90 I = 1, N9
         CALL P0
   90 CONTINUE
      DO 91 I = 1, 3
         E9(I) = E1(I)
   91 CONTINUE
C
C     MODULE 10: INTEGER ARITHMETIC
      J = 2
      K = 3
      DO 95 I = 1, N10
         J = J + K
         K = J + K
         J = K - J
         K = K - J - J
   95 CONTINUE
      J10 = J
      K10 = K
C
C     MODULE 11: STANDARD FUNCTIONS
      X = 0.75
      DO 99 I = 1, N11
         X = SQRT(EXP(LOG(X) / T1))
   99 CONTINUE
      X11 = X
  200 CONTINUE
C
      WRITE (*, 101) X1, X2, X3, X4
      WRITE (*, 102) E2
      WRITE (*, 103) E3
      WRITE (*, 104) J4
      WRITE (*, 106) J6, K6, L6, E6
      WRITE (*, 107) X7, Y7
      WRITE (*, 108) Z8
      WRITE (*, 109) E9
      WRITE (*, 110) J10, K10
      WRITE (*, 111) X11
  101 FORMAT (' CHECKSUM WHETSTONE M01-X1 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M01-X2 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M01-X3 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M01-X4 ', 1PE16.8)
  102 FORMAT (' CHECKSUM WHETSTONE M02-E1 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M02-E2 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M02-E3 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M02-E4 ', 1PE16.8)
  103 FORMAT (' CHECKSUM WHETSTONE M03-E1 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M03-E2 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M03-E3 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M03-E4 ', 1PE16.8)
  104 FORMAT (' CHECKSUM WHETSTONE M04-J ', I12)
  106 FORMAT (' CHECKSUM WHETSTONE M06-J ', I12 /
     &        ' CHECKSUM WHETSTONE M06-K ', I12 /
     &        ' CHECKSUM WHETSTONE M06-L ', I12 /
     &        ' CHECKSUM WHETSTONE M06-E1 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M06-E2 ', 1PE16.8)
  107 FORMAT (' CHECKSUM WHETSTONE M07-X ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M07-Y ', 1PE16.8)
  108 FORMAT (' CHECKSUM WHETSTONE M08-Z ', 1PE16.8)
  109 FORMAT (' CHECKSUM WHETSTONE M09-E1 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M09-E2 ', 1PE16.8 /
     &        ' CHECKSUM WHETSTONE M09-E3 ', 1PE16.8)
  110 FORMAT (' CHECKSUM WHETSTONE M10-J ', I12 /
     &        ' CHECKSUM WHETSTONE M10-K ', I12)
  111 FORMAT (' CHECKSUM WHETSTONE M11-X ', 1PE16.8)
      END
C
C     MODULE 3'S PROCEDURE: SIX PASSES OVER AN ARRAY ARGUMENT.
C
      SUBROUTINE PA(E)
      REAL E(4)
      REAL T, T1, T2
      COMMON /WCONST/ T, T1, T2
      INTEGER M
      DO 10 M = 1, 6
         E(1) = (E(1) + E(2) + E(3) - E(4)) * T
         E(2) = (E(1) + E(2) - E(3) + E(4)) * T
         E(3) = (E(1) - E(2) + E(3) + E(4)) * T
         E(4) = (-E(1) + E(2) + E(3) + E(4)) / T2
   10 CONTINUE
      RETURN
      END
C
C     MODULE 8'S PROCEDURE: SCALAR ARGUMENTS, RESULT IN Z.
C
      SUBROUTINE P3(X, Y, Z)
      REAL X, Y, Z
      REAL T, T1, T2
      COMMON /WCONST/ T, T1, T2
      REAL X1, Y1
      X1 = X
      Y1 = Y
      X1 = T * (X1 + Y1)
      Y1 = T * (X1 + Y1)
      Z = (X1 + Y1) / T2
      RETURN
      END
C
C     MODULE 9'S PROCEDURE: ROTATES THREE ELEMENTS OF A COMMON ARRAY
C     THROUGH INDEXES HELD IN COMMON.
C
      SUBROUTINE P0
      REAL E1(4)
      INTEGER J, K, L
      COMMON /WARRAY/ E1
      COMMON /WINDEX/ J, K, L
      E1(J) = E1(K)
      E1(K) = E1(L)
      E1(L) = E1(J)
      RETURN
      END
