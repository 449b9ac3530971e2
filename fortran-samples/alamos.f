C     LOS ALAMOS VECTOR KERNELS IN THE MANNER OF BMK8A1 (SEED 004
C     SECTION 5.2.1, TABLE 5.2): TEN SIMPLE VECTOR OPERATIONS RUN IN
C     SCALAR MODE OVER A SWEEP OF VECTOR LENGTHS, TO SHOW HOW THE RATE
C     OF EACH OPERATION DEPENDS ON THE VECTOR LENGTH. THE VECTORS AND
C     SCALARS ARE IN COMMON (GLOBAL OPERANDS), CONTIGUOUS IN MEMORY.
C     FOR EVERY LENGTH L THE KERNEL IS REPEATED NWORK / L TIMES, SO
C     EACH LENGTH DOES THE SAME NUMBER OF ELEMENT OPERATIONS.
C       K01 A = B + C           K06 Q = SUM B * C (DOT PRODUCT)
C       K02 A = B * C           K07 Q = SUM B
C       K03 A = B / C           K08 A = B (COPY)
C       K04 A = S * B + C       K09 A = S * B
C       K05 A = B * C + D * E   K10 A = (B + C) * (D - E)
C     INPUTS: B(I) = (MOD(I,7)+1)/8, C(I) = (MOD(I,5)+1)/4,
C     D(I) = (MOD(I,3)+2)/2, E(I) = (MOD(I,11)+1)/16, S = 0.375.
C
C     OUTPUT (THE ONLY OUTPUT): FOR EACH KERNEL KNN,
C       CHECKSUM ALAMOS KNN <SUM OVER THE LENGTHS L OF THE RESULT:
C                            SUM OF A(1..L), OR Q>
C
      PROGRAM ALAMOS
      INTEGER NMAX, NLEN, NWORK, NKERN
      PARAMETER (NMAX = 1000, NLEN = 7, NWORK = 12000000, NKERN = 10)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER LENS(NLEN)
      REAL CK(NKERN)
      INTEGER I, IL, L, IPASS, NPASS, KERN
      DATA LENS /10, 25, 50, 100, 250, 500, 1000/
C
      DO 10 I = 1, NMAX
         B(I) = REAL(MOD(I, 7) + 1) / 8.0
         C(I) = REAL(MOD(I, 5) + 1) / 4.0
         D(I) = REAL(MOD(I, 3) + 2) / 2.0
         E(I) = REAL(MOD(I, 11) + 1) / 16.0
   10 CONTINUE
      S = 0.375
      DO 15 KERN = 1, NKERN
         CK(KERN) = 0.0
   15 CONTINUE
C
      DO 100 IL = 1, NLEN
         L = LENS(IL)
         NPASS = NWORK / L
         DO 20 IPASS = 1, NPASS
            CALL VADD(L)
   20    CONTINUE
         CALL SUMUP(L, CK(1))
         DO 21 IPASS = 1, NPASS
            CALL VMUL(L)
   21    CONTINUE
         CALL SUMUP(L, CK(2))
         DO 22 IPASS = 1, NPASS
            CALL VDIV(L)
   22    CONTINUE
         CALL SUMUP(L, CK(3))
         DO 23 IPASS = 1, NPASS
            CALL VTRIAD(L)
   23    CONTINUE
         CALL SUMUP(L, CK(4))
         DO 24 IPASS = 1, NPASS
            CALL VTWOPR(L)
   24    CONTINUE
         CALL SUMUP(L, CK(5))
         DO 25 IPASS = 1, NPASS
            CALL VDOT(L)
   25    CONTINUE
         CK(6) = CK(6) + Q
         DO 26 IPASS = 1, NPASS
            CALL VSUM(L)
   26    CONTINUE
         CK(7) = CK(7) + Q
         DO 27 IPASS = 1, NPASS
            CALL VCOPY(L)
   27    CONTINUE
         CALL SUMUP(L, CK(8))
         DO 28 IPASS = 1, NPASS
            CALL VSCAL(L)
   28    CONTINUE
         CALL SUMUP(L, CK(9))
         DO 29 IPASS = 1, NPASS
            CALL VMIX(L)
   29    CONTINUE
         CALL SUMUP(L, CK(10))
  100 CONTINUE
C
      DO 110 KERN = 1, NKERN
         WRITE (*, 200) KERN, CK(KERN)
  110 CONTINUE
  200 FORMAT (' CHECKSUM ALAMOS K', I2.2, ' ', 1PE16.8)
      END
C
C     ADDS A(1..L) TO THE CHECKSUM CK (OUTSIDE THE TIMED KERNELS'
C     INNER LOOPS; ONCE PER KERNEL AND LENGTH).
C
      SUBROUTINE SUMUP(L, CK)
      INTEGER L
      REAL CK
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         CK = CK + A(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VADD(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = B(I) + C(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VMUL(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = B(I) * C(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VDIV(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = B(I) / C(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VTRIAD(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = S * B(I) + C(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VTWOPR(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = B(I) * C(I) + D(I) * E(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VDOT(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      Q = 0.0
      DO 10 I = 1, L
         Q = Q + B(I) * C(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VSUM(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      Q = 0.0
      DO 10 I = 1, L
         Q = Q + B(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VCOPY(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = B(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VSCAL(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = S * B(I)
   10 CONTINUE
      RETURN
      END
C
      SUBROUTINE VMIX(L)
      INTEGER L
      INTEGER NMAX
      PARAMETER (NMAX = 1000)
      REAL A(NMAX), B(NMAX), C(NMAX), D(NMAX), E(NMAX), S, Q
      COMMON /VECTRS/ A, B, C, D, E, S, Q
      INTEGER I
      DO 10 I = 1, L
         A(I) = (B(I) + C(I)) * (D(I) - E(I))
   10 CONTINUE
      RETURN
      END
