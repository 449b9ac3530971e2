C     ------------------------------------------------------------------
C     RK4ORB: classical 4th-order Runge-Kutta integration of a coupled
C     system made of
C       - a Kepler two-body orbit (GM=1, semi-major axis 1)   [SQRT]
C       - Y' = COS(T)*Y,  exact solution EXP(SIN(T))          [COS]
C       - W' = EXP(-W),   exact solution LOG(T+EXP(W0))       [EXP]
C       - a chain of NP pendula coupled by torsion springs    [SIN]
C     Checks: orbit returns to its start after whole periods, energy
C     and angular momentum are conserved, the scalar ODEs match their
C     closed forms, and the pendulum-chain energy is conserved.
C     ------------------------------------------------------------------
      PROGRAM RK4ORB
      IMPLICIT NONE
      INTEGER NP, NEQ, NECC, NREP, NSTEP
      PARAMETER (NP = 32, NEQ = 6 + 2*NP, NECC = 3, NREP = 20)
C     NREP = number of orbits, integrated at 10000 steps per orbit
      PARAMETER (NSTEP = 10000*NREP)
      DOUBLE PRECISION Y(NEQ), Y0(NEQ)
      DOUBLE PRECISION WK(NEQ,5)
      DOUBLE PRECISION ECC(NECC), E, PI, T, H, TEND
      DOUBLE PRECISION EK0, EK1, AM0, AM1, EP0, EP1
      DOUBLE PRECISION DPOS, DY5, DY6, WORSTP, WORSTE, WORSTC, CSUM
      DOUBLE PRECISION KSPR
      INTEGER IE, I, IS
      LOGICAL OK
      COMMON /CHAIN/ KSPR
      DATA ECC /0.0D0, 0.3D0, 0.6D0/
C
      PI = 4.0D0*ATAN(1.0D0)
      KSPR = 0.75D0
      OK = .TRUE.
      WORSTP = 0.0D0
      WORSTE = 0.0D0
      WORSTC = 0.0D0
      CSUM = 0.0D0
C
      DO 200 IE = 1, NECC
         E = ECC(IE)
C        Kepler orbit starting at perihelion
         Y0(1) = 1.0D0 - E
         Y0(2) = 0.0D0
         Y0(3) = 0.0D0
         Y0(4) = SQRT((1.0D0+E)/(1.0D0-E))
C        scalar ODEs
         Y0(5) = 1.0D0
         Y0(6) = 0.0D0
C        pendulum chain: angles then angular velocities
         DO 10 I = 1, NP
            Y0(6+I) = 0.4D0*SIN(DBLE(I)*PI/DBLE(NP+1)) + 0.1D0*E
            Y0(6+NP+I) = 0.0D0
   10    CONTINUE
         Y0(7) = Y0(7) + 0.5D0
         DO 20 I = 1, NEQ
            Y(I) = Y0(I)
   20    CONTINUE
C
         CALL INVAR(NEQ, NP, Y0, EK0, AM0, EP0)
         TEND = 2.0D0*PI*DBLE(NREP)
         H = TEND/DBLE(NSTEP)
         T = 0.0D0
         DO 100 IS = 1, NSTEP
            CALL RK4STP(NEQ, T, H, Y, WK)
            T = DBLE(IS)*H
  100    CONTINUE
         CALL INVAR(NEQ, NP, Y, EK1, AM1, EP1)
C
         DPOS = SQRT((Y(1)-Y0(1))**2 + (Y(2)-Y0(2))**2
     &             + (Y(3)-Y0(3))**2 + (Y(4)-Y0(4))**2)
         DY5 = ABS(Y(5) - EXP(SIN(TEND)))
         DY6 = ABS(Y(6) - LOG(TEND + EXP(Y0(6))))
         WORSTP = MAX(WORSTP, DPOS)
         WORSTE = MAX(WORSTE, ABS(EK1-EK0), ABS(AM1-AM0))
         WORSTC = MAX(WORSTC, ABS(EP1-EP0)/ABS(EP0))
         DO 110 I = 1, NEQ
            CSUM = CSUM + ABS(Y(I))
  110    CONTINUE
         WRITE(*,'(A,F4.1,1P,4E11.3)') ' ECC', E, DPOS, ABS(EK1-EK0),
     &        ABS(EP1-EP0), MAX(DY5,DY6)
         IF (DPOS .GT. 1.0D-5) OK = .FALSE.
         IF (ABS(EK1-EK0) .GT. 1.0D-6) OK = .FALSE.
         IF (ABS(AM1-AM0) .GT. 1.0D-6) OK = .FALSE.
         IF (DY5 .GT. 1.0D-9 .OR. DY6 .GT. 1.0D-9) OK = .FALSE.
         IF (ABS(EP1-EP0) .GT. 1.0D-6*ABS(EP0)) OK = .FALSE.
  200 CONTINUE
C
      WRITE(*,'(A,F20.10)') 'CHECKSUM RK4ORB STATESUM ', CSUM
      WRITE(*,'(A,1P,E12.4)') 'CHECKSUM RK4ORB ORBITERR ', WORSTP
      WRITE(*,'(A,1P,E12.4)') 'CHECKSUM RK4ORB INVARERR ', WORSTE
      WRITE(*,'(A,1P,E12.4)') 'CHECKSUM RK4ORB CHAINERR ', WORSTC
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK RK4ORB PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK RK4ORB FAIL'
      END IF
      END
C
C     ------------------------------------------------------------------
C     Right-hand side F = DY/DT.
C     ------------------------------------------------------------------
      SUBROUTINE DERIV(NEQ, T, Y, F)
      IMPLICIT NONE
      INTEGER NEQ
      DOUBLE PRECISION T, Y(NEQ), F(NEQ)
      DOUBLE PRECISION R, R3, KSPR, TL, TR
      INTEGER NP, I
      COMMON /CHAIN/ KSPR
      NP = (NEQ-6)/2
C     Kepler
      R = SQRT(Y(1)*Y(1) + Y(2)*Y(2))
      R3 = R*R*R
      F(1) = Y(3)
      F(2) = Y(4)
      F(3) = -Y(1)/R3
      F(4) = -Y(2)/R3
C     scalar equations with closed forms
      F(5) = COS(T)*Y(5)
      F(6) = EXP(-Y(6))
C     pendulum chain with free ends
      DO 10 I = 1, NP
         IF (I .GT. 1) THEN
            TL = Y(6+I-1) - Y(6+I)
         ELSE
            TL = 0.0D0
         END IF
         IF (I .LT. NP) THEN
            TR = Y(6+I+1) - Y(6+I)
         ELSE
            TR = 0.0D0
         END IF
         F(6+I) = Y(6+NP+I)
         F(6+NP+I) = -SIN(Y(6+I)) + KSPR*(TL + TR)
   10 CONTINUE
      RETURN
      END
C
C     ------------------------------------------------------------------
C     One classical RK4 step, WK is scratch (NEQ,5).
C     ------------------------------------------------------------------
      SUBROUTINE RK4STP(NEQ, T, H, Y, WK)
      IMPLICIT NONE
      INTEGER NEQ
      DOUBLE PRECISION T, H, Y(NEQ), WK(NEQ,5)
      INTEGER I
      CALL DERIV(NEQ, T, Y, WK(1,1))
      DO 10 I = 1, NEQ
         WK(I,5) = Y(I) + 0.5D0*H*WK(I,1)
   10 CONTINUE
      CALL DERIV(NEQ, T+0.5D0*H, WK(1,5), WK(1,2))
      DO 20 I = 1, NEQ
         WK(I,5) = Y(I) + 0.5D0*H*WK(I,2)
   20 CONTINUE
      CALL DERIV(NEQ, T+0.5D0*H, WK(1,5), WK(1,3))
      DO 30 I = 1, NEQ
         WK(I,5) = Y(I) + H*WK(I,3)
   30 CONTINUE
      CALL DERIV(NEQ, T+H, WK(1,5), WK(1,4))
      DO 40 I = 1, NEQ
         Y(I) = Y(I) + H/6.0D0*(WK(I,1) + 2.0D0*WK(I,2)
     &        + 2.0D0*WK(I,3) + WK(I,4))
   40 CONTINUE
      RETURN
      END
C
C     ------------------------------------------------------------------
C     Invariants: Kepler energy, angular momentum, chain energy.
C     ------------------------------------------------------------------
      SUBROUTINE INVAR(NEQ, NP, Y, EK, AM, EP)
      IMPLICIT NONE
      INTEGER NEQ, NP
      DOUBLE PRECISION Y(NEQ), EK, AM, EP, KSPR
      INTEGER I
      COMMON /CHAIN/ KSPR
      EK = 0.5D0*(Y(3)**2 + Y(4)**2) - 1.0D0/SQRT(Y(1)**2 + Y(2)**2)
      AM = Y(1)*Y(4) - Y(2)*Y(3)
      EP = 0.0D0
      DO 10 I = 1, NP
         EP = EP + 0.5D0*Y(6+NP+I)**2 + (1.0D0 - COS(Y(6+I)))
   10 CONTINUE
      DO 20 I = 1, NP-1
         EP = EP + 0.5D0*KSPR*(Y(6+I+1) - Y(6+I))**2
   20 CONTINUE
      RETURN
      END
