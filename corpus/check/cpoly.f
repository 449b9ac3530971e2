C     ROOTS OF COMPLEX POLYNOMIALS BY THE DURAND-KERNER (WEIERSTRASS)
C     ITERATION: ALL N ROOTS ARE REFINED TOGETHER BY
C       Z(I) := Z(I) - P(Z(I)) / PRODUCT OVER J .NE. I OF (Z(I) - Z(J))
C     (GAUSS-SEIDEL STYLE, EACH NEW Z(I) USED AT ONCE), FROM THE
C     STARTING VALUES (0.4 + 0.9I)**I, UNTIL THE LARGEST CORRECTION IS
C     BELOW 1E-6 OF THE ROOT OR EVERY RESIDUAL IS AT ROUNDING LEVEL
C     (AT MOST MAXIT SWEEPS). P(Z) IS EVALUATED
C     BY HORNER'S RULE IN COMPLEX ARITHMETIC. EACH REPETITION SOLVES
C       (A) A MONIC POLYNOMIAL OF DEGREE ND1 BUILT BY MULTIPLYING OUT
C           (Z - R(K)) FOR ROOTS R(K) = RHO EXP(I THETA), RHO RANDOM
C           IN [0.8, 1.2], THETA = PHI + 2 PI (K + D) / ND1 WITH A
C           RANDOM ROTATION PHI AND RANDOM JITTER D IN [-1/4, 1/4]
C           (ZEROS SPREAD AROUND THE UNIT CIRCLE, AS IN A FILTER);
C       (B) Z**ND2 - C WITH C = 2 EXP(I PHI), WHOSE ROOTS ARE
C           2**(1/ND2) EXP(I (PHI + 2 PI K) / ND2), FROM CEXP.
C     RANDOM NUMBERS: MINIMAL STANDARD GENERATOR (16807, SCHRAGE).
C
C     SELF-CHECK, EVERY REPETITION: EVERY COMPUTED ROOT HAS A SMALL
C     BACKWARD ERROR, |P(Z)| .LE. 1E-4 SUM |A(K)| |Z|**K; THE PRODUCT
C     OF THE ROOTS EQUALS (-1)**N A(0) AND THEIR SUM EQUALS -A(N-1)
C     (VIETA) TO 1E-3; EACH ROOT OF (A) IS WITHIN 1E-3 OF ONE OF THE
C     R(K) AND EACH ROOT OF (B) WITHIN 1E-4 OF ONE OF THE EXACT ROOTS;
C     THE ITERATION CONVERGED.
C
C     OUTPUT: CHECKSUM CPOLY SWEEPS (TOTAL DURAND-KERNER SWEEPS),
C     RESMAX (LARGEST RELATIVE RESIDUAL), ROOTSUM (SUM OF THE ROOTS
C     OF (A), LAST REPETITION, REAL AND IMAGINARY PARTS), SELFCHECK.
C
      PROGRAM CPOLY
      INTEGER ND1, ND2, NMAX, NREP
      PARAMETER (ND1 = 12, ND2 = 9, NMAX = 12, NREP = 12000)
      COMPLEX A(0:NMAX), Z(NMAX), R(NMAX), C, S, PROD
      REAL RHO, THETA, PHI, PI, RES, RESMAX, DMIN
      INTEGER I, K, N, IREP, ISEED, NSWEEP, NTOT, NBAD, IERR
      REAL URAND
      EXTERNAL URAND
C
      PI = 4.0 * ATAN(1.0)
      ISEED = 777
      NBAD = 0
      NTOT = 0
      RESMAX = 0.0
      S = (0.0, 0.0)
      DO 100 IREP = 1, NREP
C
C        (A) ROOTS JITTERED ABOUT THE UNIT CIRCLE, MULTIPLIED OUT.
C
         N = ND1
         K = 0
         PHI = 2.0 * PI * URAND(ISEED)
         DO 15 K = 1, N
            RHO = 0.8 + 0.4 * URAND(ISEED)
            THETA = PHI + 2.0 * PI * (REAL(K) + 0.5 * (URAND(ISEED)
     &              - 0.5)) / REAL(N)
            R(K) = RHO * CEXP(CMPLX(0.0, THETA))
   15    CONTINUE
         A(0) = (1.0, 0.0)
         DO 25 K = 1, N
C           MULTIPLY A(0..K-1) BY (Z - R(K)).
            A(K) = A(K - 1)
            DO 20 I = K - 1, 1, -1
               A(I) = A(I - 1) - R(K) * A(I)
   20       CONTINUE
            A(0) = -R(K) * A(0)
   25    CONTINUE
         CALL DURKER(N, A, Z, 500, NSWEEP, IERR)
         NTOT = NTOT + NSWEEP
         IF (IERR .NE. 0) NBAD = NBAD + 1
         CALL CHECK(N, A, Z, RES, IERR)
         RESMAX = MAX(RESMAX, RES)
         IF (IERR .NE. 0) NBAD = NBAD + 1
         S = (0.0, 0.0)
         DO 35 I = 1, N
            S = S + Z(I)
            DMIN = 1.0E30
            DO 30 K = 1, N
               DMIN = MIN(DMIN, CABS(Z(I) - R(K)))
   30       CONTINUE
            IF (DMIN .GT. 1.0E-3) NBAD = NBAD + 1
   35    CONTINUE
C
C        (B) Z**N - C.
C
         N = ND2
         PHI = 2.0 * PI * URAND(ISEED)
         C = 2.0 * CEXP(CMPLX(0.0, PHI))
         A(N) = (1.0, 0.0)
         DO 40 I = 1, N - 1
            A(I) = (0.0, 0.0)
   40    CONTINUE
         A(0) = -C
         CALL DURKER(N, A, Z, 500, NSWEEP, IERR)
         NTOT = NTOT + NSWEEP
         IF (IERR .NE. 0) NBAD = NBAD + 1
         CALL CHECK(N, A, Z, RES, IERR)
         RESMAX = MAX(RESMAX, RES)
         IF (IERR .NE. 0) NBAD = NBAD + 1
         RHO = 2.0**(1.0 / REAL(N))
         DO 50 K = 1, N
            R(K) = RHO * CEXP(CMPLX(0.0, (PHI + 2.0 * PI * REAL(K))
     &             / REAL(N)))
   50    CONTINUE
         DO 60 I = 1, N
            DMIN = 1.0E30
            DO 55 K = 1, N
               DMIN = MIN(DMIN, CABS(Z(I) - R(K)))
   55       CONTINUE
            IF (DMIN .GT. 1.0E-4 * RHO) NBAD = NBAD + 1
   60    CONTINUE
C        THE PRODUCT OF THE EXACT ROOTS IS (-1)**(N-1) C.
         PROD = (1.0, 0.0)
         DO 65 K = 1, N
            PROD = PROD * R(K)
   65    CONTINUE
         IF (MOD(N, 2) .EQ. 0) PROD = -PROD
         IF (CABS(PROD - C) .GT. 1.0E-4 * CABS(C)) NBAD = NBAD + 1
  100 CONTINUE
C
      WRITE (*, 200) NTOT
      WRITE (*, 201) RESMAX
      WRITE (*, 202) REAL(S)
      WRITE (*, 203) AIMAG(S)
      IF (NBAD .EQ. 0) THEN
         WRITE (*, 204)
      ELSE
         WRITE (*, 205)
      END IF
  200 FORMAT (' CHECKSUM CPOLY SWEEPS ', I12)
  201 FORMAT (' CHECKSUM CPOLY RESMAX ', 1PE12.4)
  202 FORMAT (' CHECKSUM CPOLY ROOTSUMRE ', 1PE16.8)
  203 FORMAT (' CHECKSUM CPOLY ROOTSUMIM ', 1PE16.8)
  204 FORMAT (' SELFCHECK CPOLY PASS')
  205 FORMAT (' SELFCHECK CPOLY FAIL')
      END
C
C     DURAND-KERNER ITERATION FOR THE N ROOTS Z(1..N) OF
C     A(N) Z**N + ... + A(0). A SWEEP ENDS THE ITERATION WHEN ITS
C     LARGEST RELATIVE CORRECTION IS BELOW 1E-6 OR WHEN EVERY |P(Z)|
C     IS WITHIN 16 N EPS OF SUM |A(K)| |Z|**K, THE SIZE OF ITS OWN
C     ROUNDING ERROR (FURTHER SWEEPS COULD ONLY STIR THE NOISE).
C     IERR = 1 IF MAXIT SWEEPS DID NOT CONVERGE; NSWEEP IS THE NUMBER
C     OF SWEEPS MADE.
C
      SUBROUTINE DURKER(N, A, Z, MAXIT, NSWEEP, IERR)
      INTEGER N, MAXIT, NSWEEP, IERR
      COMPLEX A(0:N), Z(N)
      COMPLEX Z0, P, Q, DZ, HORNER
      REAL DMAX, ZA, SCALE, EPS
      INTEGER I, J, NOISY
      PARAMETER (EPS = 5.96E-8)
      EXTERNAL HORNER
C
      Z0 = (0.4, 0.9)
      Z(1) = Z0
      DO 10 I = 2, N
         Z(I) = Z(I - 1) * Z0
   10 CONTINUE
      NSWEEP = 0
      IERR = 0
   20 NSWEEP = NSWEEP + 1
      DMAX = 0.0
      NOISY = 0
      DO 40 I = 1, N
         P = HORNER(N, A, Z(I))
C        IS P(Z(I)) STILL ABOVE ITS ROUNDING ERROR?
         ZA = CABS(Z(I))
         SCALE = CABS(A(N))
         DO 25 J = N - 1, 0, -1
            SCALE = SCALE * ZA + CABS(A(J))
   25    CONTINUE
         IF (CABS(P) .GT. 16.0 * REAL(N) * EPS * SCALE) NOISY = NOISY+1
         P = P / A(N)
         Q = (1.0, 0.0)
         DO 30 J = 1, N
            IF (J .NE. I) Q = Q * (Z(I) - Z(J))
   30    CONTINUE
         DZ = P / Q
         Z(I) = Z(I) - DZ
         DMAX = MAX(DMAX, CABS(DZ) / MAX(1.0, CABS(Z(I))))
   40 CONTINUE
      IF (DMAX .LE. 1.0E-6 .OR. NOISY .EQ. 0) RETURN
      IF (NSWEEP .LT. MAXIT) GO TO 20
      IERR = 1
      RETURN
      END
C
C     P(Z) = A(N) Z**N + ... + A(0) BY HORNER'S RULE.
C
      COMPLEX FUNCTION HORNER(N, A, Z)
      INTEGER N
      COMPLEX A(0:N), Z
      COMPLEX P
      INTEGER K
      P = A(N)
      DO 10 K = N - 1, 0, -1
         P = P * Z + A(K)
   10 CONTINUE
      HORNER = P
      RETURN
      END
C
C     CHECKS OF THE ROOTS Z(1..N) OF A: RES IS THE LARGEST BACKWARD
C     ERROR |P(Z)| / SUM |A(K)| |Z|**K; IERR = 1 IF IT EXCEEDS 1E-4
C     OR IF THE PRODUCT OR SUM OF THE ROOTS DISAGREES WITH VIETA.
C
      SUBROUTINE CHECK(N, A, Z, RES, IERR)
      INTEGER N, IERR
      COMPLEX A(0:N), Z(N)
      REAL RES
      COMPLEX PROD, SUM, V, HORNER
      REAL SCALE, ZA, ABSSUM, ABSPRD
      INTEGER I, K
      EXTERNAL HORNER
      IERR = 0
      RES = 0.0
      PROD = (1.0, 0.0)
      SUM = (0.0, 0.0)
      ABSSUM = 0.0
      ABSPRD = 1.0
      DO 20 I = 1, N
         ZA = CABS(Z(I))
         SCALE = CABS(A(N))
         DO 10 K = N - 1, 0, -1
            SCALE = SCALE * ZA + CABS(A(K))
   10    CONTINUE
         V = HORNER(N, A, Z(I))
         RES = MAX(RES, CABS(V) / SCALE)
         PROD = PROD * Z(I)
         SUM = SUM + Z(I)
         ABSSUM = ABSSUM + ZA
         ABSPRD = ABSPRD * ZA
   20 CONTINUE
      IF (RES .GT. 1.0E-4) IERR = 1
      IF (MOD(N, 2) .EQ. 1) PROD = -PROD
      IF (CABS(PROD * A(N) - A(0)) .GT. 1.0E-3 * ABSPRD * CABS(A(N)))
     &   IERR = 1
      IF (CABS(SUM * A(N) + A(N - 1)) .GT. 1.0E-3 * ABSSUM * CABS(A(N)))
     &   IERR = 1
      RETURN
      END
C
C     UNIFORM DEVIATE IN (0, 1) FROM THE MINIMAL STANDARD GENERATOR
C     (PARK AND MILLER 1988), MULTIPLIER 16807, SCHRAGE'S METHOD.
C
      REAL FUNCTION URAND(ISEED)
      INTEGER ISEED
      INTEGER IA, IM, IQ, IR
      PARAMETER (IA = 16807, IM = 2147483647, IQ = 127773, IR = 2836)
      INTEGER K
      K = ISEED / IQ
      ISEED = IA * (ISEED - K * IQ) - IR * K
      IF (ISEED .LT. 0) ISEED = ISEED + IM
      URAND = REAL(ISEED) / 2147483647.0
      RETURN
      END
