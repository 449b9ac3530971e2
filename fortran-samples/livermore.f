C     THE 24 LIVERMORE LOOPS (SEED 004 SECTION 5.2.1, TABLE 5.3),
C     WRITTEN FROM THE DESCRIPTION OF EACH KERNEL (F. H. MCMAHON'S
C     FORTRAN KERNELS) IN SINGLE PRECISION. EACH KERNEL RUNS
C     MULT * IREPS(K) / 10 TIMES OVER ITS OWN DATA (IREPS BALANCES THE
C     KERNELS' TIMES AT -O0); ITS INPUTS ARE FILLED
C     ONCE BY A SMALL GENERATOR (SUBROUTINE FILL) BEFORE ITS TIMED
C     REPETITIONS. KERNELS THAT UPDATE THEIR OWN INPUTS RESTORE THEM
C     AT THE START OF EACH REPETITION, SO THAT NO VALUE DRIFTS TO
C     OVERFLOW OR DENORMALS (SEED 003, RANGE GUARD).
C        1 HYDRO FRAGMENT                 13 2-D PARTICLE IN CELL
C        2 ICCG EXCERPT                   14 1-D PARTICLE IN CELL
C        3 INNER PRODUCT                  15 CASUAL FORTRAN
C        4 BANDED LINEAR EQUATIONS        16 MONTE CARLO SEARCH LOOP
C        5 TRI-DIAGONAL ELIMINATION       17 IMPLICIT CONDITIONAL
C        6 GENERAL LINEAR RECURRENCE      18 2-D EXPLICIT HYDRODYNAMICS
C        7 EQUATION OF STATE              19 GENERAL LINEAR RECURRENCE
C        8 A.D.I. INTEGRATION             20 DISCRETE ORDINATES
C        9 INTEGRATE PREDICTORS           21 MATRIX PRODUCT
C       10 DIFFERENCE PREDICTORS          22 PLANCKIAN DISTRIBUTION
C       11 FIRST SUM                      23 2-D IMPLICIT HYDRODYNAMICS
C       12 FIRST DIFFERENCE               24 FIRST MINIMUM
C
C     OUTPUT (THE ONLY OUTPUT): FOR EACH KERNEL KNN,
C       CHECKSUM LIVERMORE KNN <SUM OF ABSOLUTE VALUES OF ITS RESULTS>
C     (K16: STEPS + 1000 * MISSES; K24: THE INDEX OF THE MINIMUM).
C
      PROGRAM LIVERM
      INTEGER MULT, NL, NV
      PARAMETER (MULT = 3000, NL = 1001, NV = 2048)
      REAL X(NV), Y(NV), Z(NV), U(NV), V(NV), W(NV), G(NV), VX(NV)
      REAL XX(NV), XS(NV), EX(NV), DEX(NV)
      REAL B(64, 64), C(64, 64), P(4, 64), PS(4, 64), H(0:64, 0:64)
      REAL U1(5, 101, 2), U2(5, 101, 2), U3(5, 101, 2)
      REAL DU1(101), DU2(101), DU3(101)
      REAL PX(25, 101), PXS(25, 101), CX(25, 101), VY(25, 25)
      REAL ZA(101, 7), ZB(101, 7), ZP(101, 7), ZQ(101, 7), ZR(101, 7)
      REAL ZM(101, 7), ZU(101, 7), ZV(101, 7), ZZ(101, 7)
      REAL ZAS(101, 7), ZRS(101, 7), ZZS(101, 7)
      REAL VH(101, 8), VF(101, 8), VG(101, 8), VS(101, 8), VYY(101, 8)
      REAL RH(0:2049), GRD(NL), XI(NL), RX(NL), EX1(NL), DEX1(NL)
      REAL PLAN(300)
      INTEGER IX(NL), IR(NL), IE(96), IF2(96), IZONE(300)
      INTEGER IREPS(24)
      REAL CK(24)
      REAL Q, R, S, T, TEMP, AR, BR, CR, A11, A12, A13, A21, A22, A23
      REAL A31, A32, A33, SIG, DM22, DM23, DM24, DM25, DM26, DM27, DM28
      REAL C0, FLX, SCALE, XNM, E3, E6, XNEI, XNC, STB5, DI, DN, DK
      REAL QA, S20, T20, S1, S2, S3
      INTEGER I, J, K, L, M, II, IPNT, IPNTP, LW, IREP, NREP, KX, KY
      INTEGER I1, J1, I2, J2, IP, K2, K3, KSTEP, INK, NG, NZ, KERN
      REAL ASUM
      EXTERNAL ASUM
      DATA IREPS / 160, 80, 100, 160, 80, 50, 60, 120, 480, 120,
     &             100, 200, 200, 20, 27, 120, 300, 10, 200, 10,
     &             1, 640, 40, 400 /
C
C     ---- KERNEL 1: HYDRO FRAGMENT ----
      CALL FILL(Y, NL, 0.5, 1.5, 101)
      CALL FILL(Z, NL + 11, 0.5, 1.5, 103)
      Q = 0.5
      R = 0.25
      T = 0.125
      NREP = MULT * IREPS(1) / 10
      DO 19 IREP = 1, NREP
         DO 11 K = 1, NL
            X(K) = Q + Y(K) * (R * Z(K + 10) + T * Z(K + 11))
   11    CONTINUE
   19 CONTINUE
      CK(1) = ASUM(X, NL)
C
C     ---- KERNEL 2: ICCG EXCERPT (INCOMPLETE CHOLESKY CONJUGATE
C     GRADIENT): EACH LEVEL HALVES THE SEGMENT AND WRITES IT AFTER THE
C     SEGMENT IT READS ----
      CALL FILL(X, 2 * NL + 2, 0.5, 1.5, 201)
      CALL FILL(V, 2 * NL + 2, 0.0, 0.25, 203)
      NREP = MULT * IREPS(2) / 10
      DO 29 IREP = 1, NREP
         II = NL
         IPNTP = 0
   21    IPNT = IPNTP
         IPNTP = IPNTP + II
         II = II / 2
         I = IPNTP
         DO 22 K = IPNT + 2, IPNTP, 2
            I = I + 1
            X(I) = X(K) - V(K) * X(K - 1) - V(K + 1) * X(K + 1)
   22    CONTINUE
         IF (II .GT. 1) GO TO 21
   29 CONTINUE
      CK(2) = ASUM(X, 2 * NL)
C
C     ---- KERNEL 3: INNER PRODUCT ----
      CALL FILL(X, NL, 0.5, 1.5, 301)
      CALL FILL(Z, NL, 0.5, 1.5, 303)
      NREP = MULT * IREPS(3) / 10
      DO 39 IREP = 1, NREP
         Q = 0.0
         DO 31 K = 1, NL
            Q = Q + Z(K) * X(K)
   31    CONTINUE
   39 CONTINUE
      CK(3) = ABS(Q)
C
C     ---- KERNEL 4: BANDED LINEAR EQUATIONS ----
      CALL FILL(X, NL, 0.5, 1.5, 401)
      CALL FILL(Y, NL, 0.0, 0.01, 403)
      CALL FILL(Z, NL + 200, 0.5, 1.5, 405)
      M = (NL - 7) / 2
      S1 = X(6)
      S2 = X(6 + M)
      S3 = X(6 + 2 * M)
      NREP = MULT * IREPS(4) / 10
      DO 49 IREP = 1, NREP
         X(6) = S1
         X(6 + M) = S2
         X(6 + 2 * M) = S3
         DO 44 K = 7, NL, M
            LW = K - 6
            TEMP = X(K - 1)
            DO 42 J = 5, NL, 5
               TEMP = TEMP - Z(LW) * Y(J)
               LW = LW + 1
   42       CONTINUE
            X(K - 1) = Y(5) * TEMP
   44    CONTINUE
   49 CONTINUE
      CK(4) = ABS(X(6)) + ABS(X(6 + M)) + ABS(X(6 + 2 * M))
C
C     ---- KERNEL 5: TRI-DIAGONAL ELIMINATION, BELOW DIAGONAL ----
      CALL FILL(X, NL, 0.5, 1.5, 501)
      CALL FILL(Y, NL, 0.5, 1.5, 503)
      CALL FILL(Z, NL, 0.1, 0.9, 505)
      NREP = MULT * IREPS(5) / 10
      DO 59 IREP = 1, NREP
         DO 51 I = 2, NL
            X(I) = Z(I) * (Y(I) - X(I - 1))
   51    CONTINUE
   59 CONTINUE
      CK(5) = ASUM(X, NL)
C
C     ---- KERNEL 6: GENERAL LINEAR RECURRENCE EQUATIONS ----
      CALL FILL(W, 64, 0.5, 1.5, 601)
      CALL FILL(B, 64 * 64, 0.0, 0.01, 603)
      NREP = MULT * IREPS(6) / 10
      DO 69 IREP = 1, NREP
         DO 62 I = 2, 64
            W(I) = 0.01
            DO 61 K = 1, I - 1
               W(I) = W(I) + B(I, K) * W(I - K)
   61       CONTINUE
   62    CONTINUE
   69 CONTINUE
      CK(6) = ASUM(W, 64)
C
C     ---- KERNEL 7: EQUATION OF STATE FRAGMENT ----
      CALL FILL(U, NL + 6, 0.5, 1.5, 701)
      CALL FILL(Y, NL, 0.5, 1.5, 703)
      CALL FILL(Z, NL, 0.5, 1.5, 705)
      Q = 0.125
      R = 0.5
      T = 0.25
      NREP = MULT * IREPS(7) / 10
      DO 79 IREP = 1, NREP
         DO 71 K = 1, 995
            X(K) = U(K) + R * (Z(K) + R * Y(K)) +
     &             T * (U(K + 3) + R * (U(K + 2) + R * U(K + 1)) +
     &             T * (U(K + 6) + Q * (U(K + 5) + Q * U(K + 4))))
   71    CONTINUE
   79 CONTINUE
      CK(7) = ASUM(X, 995)
C
C     ---- KERNEL 8: A.D.I. INTEGRATION (3-D ARRAYS; PLANE 2 FROM
C     PLANE 1) ----
      CALL FILL(U1, 5 * 101 * 2, 0.5, 1.5, 801)
      CALL FILL(U2, 5 * 101 * 2, 0.5, 1.5, 803)
      CALL FILL(U3, 5 * 101 * 2, 0.5, 1.5, 805)
      A11 = 0.05
      A12 = 0.04
      A13 = 0.03
      A21 = 0.02
      A22 = 0.05
      A23 = 0.04
      A31 = 0.03
      A32 = 0.02
      A33 = 0.05
      SIG = 0.1
      NREP = MULT * IREPS(8) / 10
      DO 89 IREP = 1, NREP
         DO 82 KX = 2, 3
            DO 81 KY = 2, 100
               DU1(KY) = U1(KX, KY + 1, 1) - U1(KX, KY - 1, 1)
               DU2(KY) = U2(KX, KY + 1, 1) - U2(KX, KY - 1, 1)
               DU3(KY) = U3(KX, KY + 1, 1) - U3(KX, KY - 1, 1)
               U1(KX, KY, 2) = U1(KX, KY, 1) + A11 * DU1(KY) +
     &            A12 * DU2(KY) + A13 * DU3(KY) + SIG * (U1(KX + 1,
     &            KY, 1) - 2.0 * U1(KX, KY, 1) + U1(KX - 1, KY, 1))
               U2(KX, KY, 2) = U2(KX, KY, 1) + A21 * DU1(KY) +
     &            A22 * DU2(KY) + A23 * DU3(KY) + SIG * (U2(KX + 1,
     &            KY, 1) - 2.0 * U2(KX, KY, 1) + U2(KX - 1, KY, 1))
               U3(KX, KY, 2) = U3(KX, KY, 1) + A31 * DU1(KY) +
     &            A32 * DU2(KY) + A33 * DU3(KY) + SIG * (U3(KX + 1,
     &            KY, 1) - 2.0 * U3(KX, KY, 1) + U3(KX - 1, KY, 1))
   81       CONTINUE
   82    CONTINUE
   89 CONTINUE
      CK(8) = ASUM(U1, 1010) + ASUM(U2, 1010) + ASUM(U3, 1010)
C
C     ---- KERNEL 9: INTEGRATE PREDICTORS ----
      CALL FILL(PX, 25 * 101, 0.5, 1.5, 901)
      DM22 = 0.10
      DM23 = 0.09
      DM24 = 0.08
      DM25 = 0.07
      DM26 = 0.06
      DM27 = 0.05
      DM28 = 0.04
      C0 = 0.2
      NREP = MULT * IREPS(9) / 10
      DO 99 IREP = 1, NREP
         DO 91 I = 1, 101
            PX(1, I) = DM28 * PX(13, I) + DM27 * PX(12, I) +
     &         DM26 * PX(11, I) + DM25 * PX(10, I) + DM24 * PX(9, I) +
     &         DM23 * PX(8, I) + DM22 * PX(7, I) +
     &         C0 * (PX(5, I) + PX(6, I)) + PX(3, I)
   91    CONTINUE
   99 CONTINUE
      CK(9) = ASUM(PX, 25 * 101)
C
C     ---- KERNEL 10: DIFFERENCE PREDICTORS ----
      CALL FILL(PXS, 25 * 101, 0.5, 1.5, 1001)
      CALL FILL(CX, 25 * 101, 0.5, 1.5, 1003)
      NREP = MULT * IREPS(10) / 10
      DO 109 IREP = 1, NREP
         DO 101 I = 1, 101
            DO 100 J = 5, 14
               PX(J, I) = PXS(J, I)
  100       CONTINUE
  101    CONTINUE
         DO 102 I = 1, 101
            AR = CX(5, I)
            BR = AR - PX(5, I)
            PX(5, I) = AR
            CR = BR - PX(6, I)
            PX(6, I) = BR
            AR = CR - PX(7, I)
            PX(7, I) = CR
            BR = AR - PX(8, I)
            PX(8, I) = AR
            CR = BR - PX(9, I)
            PX(9, I) = BR
            AR = CR - PX(10, I)
            PX(10, I) = CR
            BR = AR - PX(11, I)
            PX(11, I) = AR
            CR = BR - PX(12, I)
            PX(12, I) = BR
            PX(14, I) = CR - PX(13, I)
            PX(13, I) = CR
  102    CONTINUE
  109 CONTINUE
      CK(10) = 0.0
      DO 104 I = 1, 101
         DO 103 J = 5, 14
            CK(10) = CK(10) + ABS(PX(J, I))
  103    CONTINUE
  104 CONTINUE
C
C     ---- KERNEL 11: FIRST SUM (PARTIAL SUMS) ----
      CALL FILL(Y, NL, 0.0, 1.0, 1101)
      NREP = MULT * IREPS(11) / 10
      DO 119 IREP = 1, NREP
         X(1) = Y(1)
         DO 111 K = 2, NL
            X(K) = X(K - 1) + Y(K)
  111    CONTINUE
  119 CONTINUE
      CK(11) = ASUM(X, NL)
C
C     ---- KERNEL 12: FIRST DIFFERENCE ----
      CALL FILL(Y, NL + 1, 0.0, 1.0, 1201)
      NREP = MULT * IREPS(12) / 10
      DO 129 IREP = 1, NREP
         DO 121 K = 1, NL
            X(K) = Y(K + 1) - Y(K)
  121    CONTINUE
  129 CONTINUE
      CK(12) = ASUM(X, NL)
C
C     ---- KERNEL 13: 2-D PARTICLE IN CELL (64 PARTICLES ON A 64 X 64
C     GRID; H COUNTS THE DEPOSITS OVER ALL REPETITIONS) ----
      CALL FILL(B, 64 * 64, 0.0, 0.5, 1301)
      CALL FILL(C, 64 * 64, 0.0, 0.5, 1303)
      CALL FILL(Y, 96, 0.0, 1.0, 1305)
      CALL FILL(Z, 96, 0.0, 1.0, 1307)
      CALL FILL(PS, 4 * 64, 1.0, 30.0, 1309)
      DO 130 K = 1, 96
         IE(K) = MOD(K, 2)
         IF2(K) = MOD(K + 1, 2)
  130 CONTINUE
      DO 131 J = 0, 64
         DO 1310 I = 0, 64
            H(I, J) = 0.0
 1310    CONTINUE
  131 CONTINUE
      NREP = MULT * IREPS(13) / 10
      DO 139 IREP = 1, NREP
         DO 132 IP = 1, 64
            P(1, IP) = PS(1, IP)
            P(2, IP) = PS(2, IP)
            P(3, IP) = PS(3, IP) / 30.0
            P(4, IP) = PS(4, IP) / 30.0
  132    CONTINUE
         DO 133 IP = 1, 64
            I1 = INT(P(1, IP))
            J1 = INT(P(2, IP))
            I1 = 1 + MOD(I1, 64)
            J1 = 1 + MOD(J1, 64)
            P(3, IP) = P(3, IP) + B(I1, J1)
            P(4, IP) = P(4, IP) + C(I1, J1)
            P(1, IP) = P(1, IP) + P(3, IP)
            P(2, IP) = P(2, IP) + P(4, IP)
            I2 = INT(P(1, IP))
            J2 = INT(P(2, IP))
            I2 = MOD(I2, 64)
            J2 = MOD(J2, 64)
            P(1, IP) = P(1, IP) + Y(I2 + 32)
            P(2, IP) = P(2, IP) + Z(J2 + 32)
            I2 = I2 + IE(I2 + 32)
            J2 = J2 + IF2(J2 + 32)
            H(I2, J2) = H(I2, J2) + 1.0
  133    CONTINUE
  139 CONTINUE
      CK(13) = ASUM(P, 4 * 64) + ASUM(H, 65 * 65) / REAL(NREP)
C
C     ---- KERNEL 14: 1-D PARTICLE IN CELL (RH, THE CHARGE, IS CLEARED
C     AT THE START OF EACH REPETITION) ----
      CALL FILL(GRD, NL, 1.0, 2000.0, 1401)
      CALL FILL(EX, NV, 0.5, 1.0, 1403)
      CALL FILL(DEX, NV, 0.0, 0.0001, 1405)
      FLX = 0.5
      NREP = MULT * IREPS(14) / 10
      DO 149 IREP = 1, NREP
         DO 140 I = 0, 2049
            RH(I) = 0.0
  140    CONTINUE
         DO 141 K = 1, NL
            VX(K) = 0.0
            XX(K) = 0.0
            IX(K) = INT(GRD(K))
            XI(K) = REAL(IX(K))
            EX1(K) = EX(IX(K))
            DEX1(K) = DEX(IX(K))
  141    CONTINUE
         DO 142 K = 1, NL
            VX(K) = VX(K) + EX1(K) + (XX(K) - XI(K)) * DEX1(K)
            XX(K) = XX(K) + VX(K) + FLX
            IR(K) = INT(XX(K))
            RX(K) = XX(K) - REAL(IR(K))
            IR(K) = MOD(IR(K), 2048) + 1
            XX(K) = RX(K) + REAL(IR(K))
  142    CONTINUE
         DO 143 K = 1, NL
            RH(IR(K)) = RH(IR(K)) + 1.0 - RX(K)
            RH(IR(K) + 1) = RH(IR(K) + 1) + RX(K)
  143    CONTINUE
  149 CONTINUE
      CK(14) = ASUM(XX, NL) + ASUM(RH, 2050)
C
C     ---- KERNEL 15: CASUAL FORTRAN (ARITHMETIC IF AND GO TO) ----
      CALL FILL(VH, 101 * 8, 0.5, 1.5, 1501)
      CALL FILL(VF, 101 * 8, 0.5, 1.5, 1503)
      CALL FILL(VG, 101 * 8, 0.5, 1.5, 1505)
      NG = 7
      NZ = 101
      AR = 0.053
      BR = 0.073
      NREP = MULT * IREPS(15) / 10
      DO 159 IREP = 1, NREP
         DO 158 J = 2, NG
            DO 157 K = 2, NZ
               IF (J - NG) 151, 150, 150
  150          VYY(K, J) = 0.0
               GO TO 157
  151          IF (VH(K, J + 1) - VH(K, J)) 152, 152, 153
  152          T = BR
               GO TO 154
  153          T = AR
  154          IF (VF(K, J) - VF(K - 1, J)) 155, 156, 156
  155          R = MAX(VH(K - 1, J), VH(K - 1, J + 1))
               S = VF(K - 1, J)
               GO TO 1550
  156          R = MAX(VH(K, J), VH(K, J + 1))
               S = VF(K, J)
 1550          VYY(K, J) = SQRT(VG(K, J)**2 + R * R) * T / S
               IF (K - NZ) 1552, 1551, 1551
 1551          VS(K, J) = 0.0
               GO TO 157
 1552          IF (VF(K, J) - VF(K, J - 1)) 1553, 1554, 1554
 1553          R = MAX(VG(K, J - 1), VG(K + 1, J - 1))
               S = VF(K, J - 1)
               T = BR
               GO TO 1555
 1554          R = MAX(VG(K, J), VG(K + 1, J))
               S = VF(K, J)
               T = AR
 1555          VS(K, J) = SQRT(VH(K, J)**2 + R * R) * T / S
  157       CONTINUE
  158    CONTINUE
  159 CONTINUE
      CK(15) = 0.0
      DO 1591 J = 2, NG
         DO 1590 K = 2, NZ
            CK(15) = CK(15) + ABS(VYY(K, J)) + ABS(VS(K, J))
 1590    CONTINUE
 1591 CONTINUE
C
C     ---- KERNEL 16: MONTE CARLO SEARCH: FOR EACH OF 75 TARGETS, WALK
C     A CHAIN OF ZONES UNTIL ONE'S PLAN VALUE REACHES THE TARGET (AT
C     MOST 50 STEPS); K2 COUNTS STEPS, K3 FAILED SEARCHES ----
      CALL FILL(PLAN, 300, 0.0, 1.0, 1601)
      CALL FILL(Y, 75, 0.8, 0.99, 1603)
      DO 160 J = 1, 300
         IZONE(J) = 1 + MOD(37 * J + 11, 300)
  160 CONTINUE
      K2 = 0
      K3 = 0
      NREP = MULT * IREPS(16) / 10
      DO 169 IREP = 1, NREP
         K2 = 0
         K3 = 0
         DO 165 M = 1, 75
            R = Y(M)
            J = 1 + MOD(7 * M, 300)
            KSTEP = 0
  161       KSTEP = KSTEP + 1
            IF (PLAN(J) - R) 162, 165, 165
  162       K2 = K2 + 1
            J = IZONE(J)
            IF (KSTEP .LT. 50) GO TO 161
            K3 = K3 + 1
  165    CONTINUE
  169 CONTINUE
      CK(16) = REAL(K2) + 1000.0 * REAL(K3)
C
C     ---- KERNEL 17: IMPLICIT, CONDITIONAL COMPUTATION (A BACKWARD
C     SWEEP WITH DATA-DEPENDENT BRANCHES) ----
      CALL FILL(U, 101, 0.0, 0.5, 1701)
      CALL FILL(V, 101, 0.0, 0.5, 1703)
      CALL FILL(W, 101, 0.0, 0.5, 1705)
      CALL FILL(G, 101, 0.0, 0.5, 1707)
      CALL FILL(XS, 101, 0.0, 1.0, 1709)
      NREP = MULT * IREPS(17) / 10
      DO 179 IREP = 1, NREP
         DO 170 I = 1, 101
            X(I) = XS(I)
  170    CONTINUE
         I = 101
         J = 1
         INK = -1
         SCALE = 5.0 / 3.0
         XNM = 1.0 / 3.0
         E6 = 1.03 / 3.07
         GO TO 172
  171    E6 = XNM * U(I) + V(I)
         X(I) = E6
         XNM = E6
         Z(I) = E6
         I = I + INK
         IF (I .EQ. J) GO TO 173
  172    E3 = XNM * W(I) + G(I)
         XNEI = X(I)
         Y(I) = E6
         XNC = SCALE * E3
         IF (XNM .GT. XNC) GO TO 171
         IF (XNEI .GT. XNC) GO TO 171
         Z(I) = E3
         E6 = E3 + E3 - XNM
         X(I) = E3 + E3 - XNEI
         XNM = E6
         I = I + INK
         IF (I .NE. J) GO TO 172
  173    CONTINUE
  179 CONTINUE
      CK(17) = ASUM(X, 101) + ASUM(Y, 101) + ASUM(Z, 101)
C
C     ---- KERNEL 18: 2-D EXPLICIT HYDRODYNAMICS FRAGMENT ----
      CALL FILL(ZP, 707, 0.5, 1.5, 1801)
      CALL FILL(ZQ, 707, 0.5, 1.5, 1803)
      CALL FILL(ZRS, 707, 0.5, 1.5, 1805)
      CALL FILL(ZM, 707, 1.0, 2.0, 1807)
      CALL FILL(ZZS, 707, 0.5, 1.5, 1809)
      CALL FILL(ZA, 707, 0.0, 0.1, 1811)
      CALL FILL(ZB, 707, 0.0, 0.1, 1813)
      T = 0.0037
      S = 0.0041
      NREP = MULT * IREPS(18) / 10
      DO 189 IREP = 1, NREP
         DO 181 K = 1, 7
            DO 180 J = 1, 101
               ZU(J, K) = 0.0
               ZV(J, K) = 0.0
               ZR(J, K) = ZRS(J, K)
               ZZ(J, K) = ZZS(J, K)
  180       CONTINUE
  181    CONTINUE
         DO 183 K = 2, 6
            DO 182 J = 2, 100
               ZA(J, K) = (ZP(J - 1, K + 1) + ZQ(J - 1, K + 1) -
     &            ZP(J - 1, K) - ZQ(J - 1, K)) * (ZR(J, K) +
     &            ZR(J - 1, K)) / (ZM(J - 1, K) + ZM(J - 1, K + 1))
               ZB(J, K) = (ZP(J - 1, K) + ZQ(J - 1, K) - ZP(J, K) -
     &            ZQ(J, K)) * (ZR(J, K) + ZR(J, K - 1)) /
     &            (ZM(J, K) + ZM(J - 1, K))
  182       CONTINUE
  183    CONTINUE
         DO 185 K = 2, 6
            DO 184 J = 2, 100
               ZU(J, K) = ZU(J, K) + S * (ZA(J, K) * (ZZ(J, K) -
     &            ZZ(J + 1, K)) - ZA(J - 1, K) * (ZZ(J, K) -
     &            ZZ(J - 1, K)) - ZB(J, K) * (ZZ(J, K) -
     &            ZZ(J, K - 1)) + ZB(J, K + 1) * (ZZ(J, K) -
     &            ZZ(J, K + 1)))
               ZV(J, K) = ZV(J, K) + S * (ZA(J, K) * (ZR(J, K) -
     &            ZR(J + 1, K)) - ZA(J - 1, K) * (ZR(J, K) -
     &            ZR(J - 1, K)) - ZB(J, K) * (ZR(J, K) -
     &            ZR(J, K - 1)) + ZB(J, K + 1) * (ZR(J, K) -
     &            ZR(J, K + 1)))
  184       CONTINUE
  185    CONTINUE
         DO 187 K = 2, 6
            DO 186 J = 2, 100
               ZR(J, K) = ZR(J, K) + T * ZU(J, K)
               ZZ(J, K) = ZZ(J, K) + T * ZV(J, K)
  186       CONTINUE
  187    CONTINUE
  189 CONTINUE
      CK(18) = ASUM(ZR, 707) + ASUM(ZZ, 707) + 1000.0 * (ASUM(ZU, 707)
     &         + ASUM(ZV, 707))
C
C     ---- KERNEL 19: GENERAL LINEAR RECURRENCE, FORWARD AND BACK ----
      CALL FILL(U, 101, 0.5, 1.5, 1901)
      CALL FILL(V, 101, 0.0, 0.5, 1903)
      NREP = MULT * IREPS(19) / 10
      DO 199 IREP = 1, NREP
         STB5 = 0.1
         DO 191 K = 1, 101
            W(K) = U(K) + STB5 * V(K)
            STB5 = W(K) - STB5
  191    CONTINUE
         DO 192 I = 1, 101
            K = 101 - I + 1
            W(K) = U(K) + STB5 * V(K)
            STB5 = W(K) - STB5
  192    CONTINUE
  199 CONTINUE
      CK(19) = ASUM(W, 101) + ABS(STB5)
C
C     ---- KERNEL 20: DISCRETE ORDINATES TRANSPORT ----
      CALL FILL(Y, 1000, 0.5, 1.0, 2001)
      CALL FILL(G, 1000, 0.5, 1.0, 2003)
      CALL FILL(Z, 1000, 0.5, 1.0, 2005)
      CALL FILL(W, 1000, 0.1, 0.5, 2007)
      CALL FILL(V, 1000, 0.0, 0.5, 2009)
      CALL FILL(U, 1000, 0.5, 1.0, 2011)
      CALL FILL(VX, 1000, 1.0, 2.0, 2013)
      XX(1) = 1.0
      DK = 0.5
      S20 = 0.05
      T20 = 0.5
      NREP = MULT * IREPS(20) / 10
      DO 209 IREP = 1, NREP
         DO 201 K = 1, 1000
            DI = Y(K) - G(K) / (XX(K) + DK)
            DN = 0.2
            IF (DI .NE. 0.0) DN = MAX(S20, MIN(Z(K) / DI, T20))
            X(K) = ((W(K) + V(K) * DN) * XX(K) + U(K)) /
     &             (VX(K) + V(K) * DN)
            XX(K + 1) = (X(K) - XX(K)) * DN + XX(K)
  201    CONTINUE
  209 CONTINUE
      CK(20) = ASUM(X, 1000) + ASUM(XX, 1001)
C
C     ---- KERNEL 21: MATRIX PRODUCT PX := PX + VY * CX ----
      CALL FILL(VY, 25 * 25, 0.0, 0.1, 2101)
      CALL FILL(CX, 25 * 101, 0.5, 1.5, 2103)
      NREP = MULT * IREPS(21) / 10
      DO 219 IREP = 1, NREP
         DO 211 J = 1, 101
            DO 210 I = 1, 25
               PX(I, J) = 0.0
  210       CONTINUE
  211    CONTINUE
         DO 214 K = 1, 25
            DO 213 I = 1, 25
               DO 212 J = 1, 101
                  PX(I, J) = PX(I, J) + VY(I, K) * CX(K, J)
  212          CONTINUE
  213       CONTINUE
  214    CONTINUE
  219 CONTINUE
      CK(21) = ASUM(PX, 25 * 101)
C
C     ---- KERNEL 22: PLANCKIAN DISTRIBUTION ----
      CALL FILL(U, 101, 0.5, 15.0, 2201)
      CALL FILL(V, 101, 0.5, 1.5, 2203)
      CALL FILL(X, 101, 0.5, 1.5, 2205)
      U(101) = 0.99 * 20.0 * V(101)
      NREP = MULT * IREPS(22) / 10
      DO 229 IREP = 1, NREP
         DO 221 K = 1, 101
            Y(K) = U(K) / V(K)
            W(K) = X(K) / (EXP(Y(K)) - 1.0)
  221    CONTINUE
  229 CONTINUE
      CK(22) = ASUM(W, 101)
C
C     ---- KERNEL 23: 2-D IMPLICIT HYDRODYNAMICS FRAGMENT ----
      CALL FILL(ZAS, 707, 0.5, 1.5, 2301)
      CALL FILL(ZB, 707, 0.0, 0.2, 2303)
      CALL FILL(ZR, 707, 0.0, 0.2, 2305)
      CALL FILL(ZU, 707, 0.0, 0.2, 2307)
      CALL FILL(ZV, 707, 0.0, 0.2, 2309)
      CALL FILL(ZZ, 707, 0.0, 1.0, 2311)
      NREP = MULT * IREPS(23) / 10
      DO 239 IREP = 1, NREP
         DO 231 J = 1, 7
            DO 230 K = 1, 101
               ZA(K, J) = ZAS(K, J)
  230       CONTINUE
  231    CONTINUE
         DO 233 J = 2, 6
            DO 232 K = 2, 100
               QA = ZA(K, J + 1) * ZR(K, J) + ZA(K, J - 1) * ZB(K, J) +
     &              ZA(K + 1, J) * ZU(K, J) + ZA(K - 1, J) * ZV(K, J) +
     &              ZZ(K, J)
               ZA(K, J) = ZA(K, J) + 0.175 * (QA - ZA(K, J))
  232       CONTINUE
  233    CONTINUE
  239 CONTINUE
      CK(23) = ASUM(ZA, 707)
C
C     ---- KERNEL 24: LOCATION OF THE FIRST MINIMUM ----
      CALL FILL(X, NL, 0.0, 1.0, 2401)
      X(501) = -1.0E10
      M = 1
      NREP = MULT * IREPS(24) / 10
      DO 249 IREP = 1, NREP
         M = 1
         DO 241 K = 2, NL
            IF (X(K) .LT. X(M)) M = K
  241    CONTINUE
  249 CONTINUE
      CK(24) = REAL(M)
C
      DO 250 KERN = 1, 24
         WRITE (*, 300) KERN, CK(KERN)
  250 CONTINUE
  300 FORMAT (' CHECKSUM LIVERMORE K', I2.2, ' ', 1PE16.8)
      L = 0
      END
C
C     A(1..N) := LO + (HI - LO) * S / 65536 FOR THE SEQUENCE
C     S := MOD(3125 * S, 65536) STARTING FROM ISEED (MADE ODD).
C
      SUBROUTINE FILL(A, N, LO, HI, ISEED)
      INTEGER N, ISEED
      REAL A(N), LO, HI
      INTEGER I, IS
      IS = 2 * ISEED + 1
      DO 10 I = 1, N
         IS = MOD(3125 * IS, 65536)
         A(I) = LO + (HI - LO) * REAL(IS) / 65536.0
   10 CONTINUE
      RETURN
      END
C
C     THE SUM OF ABS(A(1..N)).
C
      REAL FUNCTION ASUM(A, N)
      INTEGER N
      REAL A(N)
      INTEGER I
      ASUM = 0.0
      DO 10 I = 1, N
         ASUM = ASUM + ABS(A(I))
   10 CONTINUE
      RETURN
      END
