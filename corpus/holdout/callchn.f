C=======================================================================
C     CALLCHN: CALL-INTENSIVE KERNELS BUILT FROM MANY SMALL ROUTINES.
C       1. COMPOSITE SIMPSON QUADRATURE OF A PIECEWISE CUBIC DEFINED BY
C          REGION: MAIN -> PIECE -> EVALRG -> CUBIC (CALL DEPTH 4).
C          SIMPSON IS EXACT FOR CUBICS, SO THE RESULT MUST MATCH THE
C          CLOSED-FORM INTEGRAL.  KAHAN ACCUMULATION BY REFERENCE.
C       2. BINARY SEARCH TREE STORED IN ARRAYS (KEY, LEFT, RIGHT),
C          ITERATIVE INSERT, ITERATIVE SEARCH (INTEGER FUNCTION USED
C          IN IF CONDITIONS), IN-ORDER WALK WITH AN EXPLICIT STACK.
C       3. IMPLICIT (HEAP-LAYOUT) COMPLETE BINARY TREE: BOTTOM-UP
C          SUBTREE SUMS AND ROOT-TO-LEAF PATH WALKS.
C=======================================================================
      PROGRAM CALLCN
      IMPLICIT NONE
      INTEGER NPAN, NREP, NT, NQ, NH
      PARAMETER (NPAN=4000, NREP=1000, NT=2047, NQ=4000, NH=4095)
      INTEGER KEY(NT), LEFT(NT), RIGHT(NT), ISTK(NT), MARK(0:65535)
      INTEGER IHV(NH), ISUB(NH)
      INTEGER IR, I, J, NNODE, ISEED, IK, NFOUND, NEXP, NOUT, LAST
      INTEGER NSORTE, KSUM, KSUMW, IHT, IROOT, IPATH, NPATHS
      DOUBLE PRECISION A, B, H, S, C, X, W, EXACT, ERRMAX, QTOT
      DOUBLE PRECISION PIECE, FINT
      INTEGER ISRCH, IDEPTH, INEXT
      LOGICAL OK
      EXTERNAL PIECE, FINT, ISRCH, IDEPTH, INEXT
C     STATEMENT FUNCTION: SIMPSON WEIGHT FOR POINT J OF 2*NPAN+1
      INTEGER JJ, NN
      DOUBLE PRECISION SWT
C     (1 AT BOTH ENDS, 4 AT ODD J, 2 AT INTERIOR EVEN J; NN EVEN)
      SWT(JJ, NN) = DBLE(2 + 2*MOD(JJ, 2)
     &            - (1 - MIN(1, JJ*(NN - JJ))))
C
      OK = .TRUE.
      A = 0.0D0
      B = 4.0D0
      EXACT = FINT(B) - FINT(A)
      ERRMAX = 0.0D0
      QTOT = 0.0D0
      ISEED = 4711
      NFOUND = 0
      NEXP = 0
      NSORTE = 0
      KSUMW = 0
      NPATHS = 0
      DO 500 IR = 1, NREP
C
C        ---- 1. SIMPSON QUADRATURE OVER [A, B + SHIFT] ----
         H = (B - A) / DBLE(2*NPAN)
         S = 0.0D0
         C = 0.0D0
         DO 20 J = 0, 2*NPAN
            X = A + DBLE(J)*H
            W = SWT(J, 2*NPAN)
            CALL KAHAN(S, C, W*PIECE(X))
   20    CONTINUE
         S = S*H/3.0D0
         ERRMAX = MAX(ERRMAX, ABS(S - EXACT))
         QTOT = QTOT + S
C
C        ---- 2. BST: INSERT PSEUDO-RANDOM KEYS, QUERY, WALK ----
         DO 30 I = 0, 65535
            MARK(I) = 0
   30    CONTINUE
         NNODE = 0
         KSUM = 0
         DO 40 I = 1, NT
            IK = INEXT(ISEED)
            IF (MARK(IK) .EQ. 0) THEN
               MARK(IK) = 1
               KSUM = KSUM + IK
               CALL INSERT(IK, KEY, LEFT, RIGHT, NNODE)
            ENDIF
   40    CONTINUE
         DO 50 I = 1, NQ
            IK = INEXT(ISEED)
            IF (ISRCH(IK, KEY, LEFT, RIGHT) .GT. 0) THEN
               NFOUND = NFOUND + 1
            ENDIF
            IF (MARK(IK) .EQ. 1) NEXP = NEXP + 1
   50    CONTINUE
C        EVERY INSERTED KEY MUST BE FOUND, AT A VALID DEPTH
         DO 55 I = 1, NNODE
            IF (ISRCH(KEY(I), KEY, LEFT, RIGHT) .NE. I) OK = .FALSE.
            IF (IDEPTH(KEY(I), KEY, LEFT, RIGHT) .GT. NNODE)
     &         OK = .FALSE.
   55    CONTINUE
         CALL INORD(KEY, LEFT, RIGHT, ISTK, NNODE, NOUT, LAST, KSUMW,
     &              NSORTE)
         IF (NOUT .NE. NNODE) OK = .FALSE.
         IF (KSUMW .NE. KSUM) OK = .FALSE.
C
C        ---- 3. HEAP-LAYOUT TREE ----
         DO 60 I = 1, NH
            IHV(I) = MOD(INEXT(ISEED), 1000)
   60    CONTINUE
         CALL SUBSUM(IHV, ISUB, NH)
         IROOT = 0
         DO 70 I = 1, NH
            IROOT = IROOT + IHV(I)
   70    CONTINUE
         IF (ISUB(1) .NE. IROOT) OK = .FALSE.
C        GREEDY ROOT-TO-LEAF WALK TOWARDS THE HEAVIER CHILD
         IPATH = 1
         IHT = 0
   80    IF (2*IPATH .GT. NH) GO TO 90
         IF (ISUB(2*IPATH) .GE. ISUB(2*IPATH+1)) THEN
            IPATH = 2*IPATH
         ELSE
            IPATH = 2*IPATH + 1
         ENDIF
         IHT = IHT + 1
         GO TO 80
   90    CONTINUE
C        NH = 2**12 - 1, SO EVERY LEAF IS AT DEPTH 11
         IF (IHT .NE. 11) OK = .FALSE.
         NPATHS = NPATHS + IPATH
  500 CONTINUE
C
      WRITE(*,'(A,F22.14)') 'CHECKSUM CALLCHN QUAD ', QTOT/DBLE(NREP)
      WRITE(*,'(A,1PE12.4)') 'CHECKSUM CALLCHN QUADERR ', ERRMAX
      WRITE(*,'(A,2I10)') 'CHECKSUM CALLCHN FOUND ', NFOUND, NEXP
      WRITE(*,'(A,2I10)') 'CHECKSUM CALLCHN INORDER ', KSUMW, NSORTE
      WRITE(*,'(A,I12)') 'CHECKSUM CALLCHN HEAPPATH ', NPATHS
      IF (ERRMAX .GT. 1.0D-11) OK = .FALSE.
      IF (NFOUND .NE. NEXP) OK = .FALSE.
      IF (NSORTE .NE. 0) OK = .FALSE.
      IF (OK) THEN
         WRITE(*,'(A)') 'SELFCHECK CALLCHN PASS'
      ELSE
         WRITE(*,'(A)') 'SELFCHECK CALLCHN FAIL'
      ENDIF
      END
C
C-----------------------------------------------------------------------
C     KAHAN COMPENSATED SUMMATION, S AND C UPDATED BY REFERENCE
C-----------------------------------------------------------------------
      SUBROUTINE KAHAN(S, C, V)
      IMPLICIT NONE
      DOUBLE PRECISION S, C, V, Y, T
      Y = V - C
      T = S + Y
      C = (T - S) - Y
      S = T
      RETURN
      END
C
C-----------------------------------------------------------------------
C     REGION INDEX OF X: [0,1) -> 1, [1,2) -> 2, [2,3) -> 3, ELSE 4
C-----------------------------------------------------------------------
      INTEGER FUNCTION IREGN(X)
      IMPLICIT NONE
      DOUBLE PRECISION X
      IF (X .LT. 1.0D0) THEN
         IREGN = 1
      ELSE IF (X .LT. 2.0D0) THEN
         IREGN = 2
      ELSE IF (X .LT. 3.0D0) THEN
         IREGN = 3
      ELSE
         IREGN = 4
      ENDIF
      RETURN
      END
C
C-----------------------------------------------------------------------
C     PIECEWISE CUBIC:  DEPTH 2 -> EVALRG (3) -> CUBIC (4)
C-----------------------------------------------------------------------
      DOUBLE PRECISION FUNCTION PIECE(X)
      IMPLICIT NONE
      DOUBLE PRECISION X, V
      INTEGER IREGN, IR
      EXTERNAL IREGN
      IR = IREGN(X)
      CALL EVALRG(IR, X, V)
      PIECE = V
      RETURN
      END
C
      SUBROUTINE EVALRG(IR, X, V)
      IMPLICIT NONE
      INTEGER IR
      DOUBLE PRECISION X, V, COEF(0:3,4), T
      DOUBLE PRECISION CUBIC
      EXTERNAL CUBIC
C     COEFFICIENTS IN POWERS OF (X - LEFT END OF REGION)
      DATA COEF / 0.0D0,  0.0D0,  1.0D0,  0.0D0,
     &            1.0D0,  2.0D0,  0.0D0, -1.0D0,
     &            2.0D0, -1.0D0,  0.5D0,  0.25D0,
     &            1.75D0, 0.0D0, -3.0D0,  1.5D0 /
      T = X - DBLE(IR - 1)
      V = CUBIC(COEF(0,IR), T)
      RETURN
      END
C
      DOUBLE PRECISION FUNCTION CUBIC(C, T)
      IMPLICIT NONE
      DOUBLE PRECISION C(0:3), T
      CUBIC = ((C(3)*T + C(2))*T + C(1))*T + C(0)
      RETURN
      END
C
C-----------------------------------------------------------------------
C     ANTIDERIVATIVE OF PIECE, ASSEMBLED REGION BY REGION
C-----------------------------------------------------------------------
      DOUBLE PRECISION FUNCTION FINT(X)
      IMPLICIT NONE
      DOUBLE PRECISION X, T
      INTEGER IREGN, IR, K
      DOUBLE PRECISION PINT
      EXTERNAL IREGN, PINT
      IR = IREGN(X)
      FINT = 0.0D0
      DO 10 K = 1, IR - 1
         FINT = FINT + PINT(K, 1.0D0)
   10 CONTINUE
      T = X - DBLE(IR - 1)
      FINT = FINT + PINT(IR, T)
      RETURN
      END
C
C     INTEGRAL OF REGION K POLYNOMIAL FROM 0 TO T (IN LOCAL VARIABLE)
      DOUBLE PRECISION FUNCTION PINT(K, T)
      IMPLICIT NONE
      INTEGER K
      DOUBLE PRECISION T, C(0:3,4)
      DATA C    / 0.0D0,  0.0D0,  1.0D0,  0.0D0,
     &            1.0D0,  2.0D0,  0.0D0, -1.0D0,
     &            2.0D0, -1.0D0,  0.5D0,  0.25D0,
     &            1.75D0, 0.0D0, -3.0D0,  1.5D0 /
      PINT = C(0,K)*T + C(1,K)*T**2/2.0D0 + C(2,K)*T**3/3.0D0
     &     + C(3,K)*T**4/4.0D0
      RETURN
      END
C
C-----------------------------------------------------------------------
C     PSEUDO-RANDOM KEY IN 0..65535
C-----------------------------------------------------------------------
      INTEGER FUNCTION INEXT(ISEED)
      IMPLICIT NONE
      INTEGER ISEED, K
      K = ISEED / 127773
      ISEED = 16807*(ISEED - K*127773) - 2836*K
      IF (ISEED .LT. 0) ISEED = ISEED + 2147483647
      INEXT = MOD(ISEED / 16, 65536)
      RETURN
      END
C
C-----------------------------------------------------------------------
C     ITERATIVE BST INSERT (KEY ASSUMED NOT PRESENT)
C-----------------------------------------------------------------------
      SUBROUTINE INSERT(IK, KEY, LEFT, RIGHT, NNODE)
      IMPLICIT NONE
      INTEGER IK, KEY(*), LEFT(*), RIGHT(*), NNODE, IP, ICMP
      EXTERNAL ICMP
      NNODE = NNODE + 1
      KEY(NNODE) = IK
      LEFT(NNODE) = 0
      RIGHT(NNODE) = 0
      IF (NNODE .EQ. 1) RETURN
      IP = 1
   10 CONTINUE
      IF (ICMP(IK, KEY(IP)) .LT. 0) THEN
         IF (LEFT(IP) .EQ. 0) THEN
            LEFT(IP) = NNODE
            RETURN
         ENDIF
         IP = LEFT(IP)
      ELSE
         IF (RIGHT(IP) .EQ. 0) THEN
            RIGHT(IP) = NNODE
            RETURN
         ENDIF
         IP = RIGHT(IP)
      ENDIF
      GO TO 10
      END
C
C     THREE-WAY COMPARISON, -1 / 0 / +1
      INTEGER FUNCTION ICMP(I, J)
      IMPLICIT NONE
      INTEGER I, J
      IF (I - J) 10, 20, 30
   10 ICMP = -1
      RETURN
   20 ICMP = 0
      RETURN
   30 ICMP = 1
      RETURN
      END
C
C-----------------------------------------------------------------------
C     ITERATIVE SEARCH: NODE INDEX OR 0.  DEPTH OF A KEY (OR -1).
C-----------------------------------------------------------------------
      INTEGER FUNCTION ISRCH(IK, KEY, LEFT, RIGHT)
      IMPLICIT NONE
      INTEGER IK, KEY(*), LEFT(*), RIGHT(*), IP, IC, ICMP
      EXTERNAL ICMP
      IP = 1
   10 IF (IP .EQ. 0) GO TO 20
      IC = ICMP(IK, KEY(IP))
      IF (IC .EQ. 0) GO TO 20
      IF (IC .LT. 0) THEN
         IP = LEFT(IP)
      ELSE
         IP = RIGHT(IP)
      ENDIF
      GO TO 10
   20 ISRCH = IP
      RETURN
      END
C
      INTEGER FUNCTION IDEPTH(IK, KEY, LEFT, RIGHT)
      IMPLICIT NONE
      INTEGER IK, KEY(*), LEFT(*), RIGHT(*), IP, ICMP
      EXTERNAL ICMP
      IP = 1
      IDEPTH = 0
   10 IF (IP .EQ. 0) THEN
         IDEPTH = -1
         RETURN
      ENDIF
      IF (ICMP(IK, KEY(IP)) .EQ. 0) RETURN
      IDEPTH = IDEPTH + 1
      IF (ICMP(IK, KEY(IP)) .LT. 0) THEN
         IP = LEFT(IP)
      ELSE
         IP = RIGHT(IP)
      ENDIF
      GO TO 10
      END
C
C-----------------------------------------------------------------------
C     IN-ORDER TRAVERSAL WITH AN EXPLICIT STACK.  RETURNS THE NUMBER OF
C     NODES VISITED, LAST KEY, KEY SUM AND COUNT OF ORDER VIOLATIONS.
C-----------------------------------------------------------------------
      SUBROUTINE INORD(KEY, LEFT, RIGHT, ISTK, NNODE, NOUT, LAST,
     &                 KSUM, NBAD)
      IMPLICIT NONE
      INTEGER KEY(*), LEFT(*), RIGHT(*), ISTK(*), NNODE
      INTEGER NOUT, LAST, KSUM, NBAD, ISP, IP
      NOUT = 0
      KSUM = 0
      LAST = -1
      ISP = 0
      IP = 1
      IF (NNODE .EQ. 0) RETURN
   10 CONTINUE
C     DESCEND LEFT, PUSHING
   20 IF (IP .NE. 0) THEN
         ISP = ISP + 1
         ISTK(ISP) = IP
         IP = LEFT(IP)
         GO TO 20
      ENDIF
      IF (ISP .EQ. 0) RETURN
      IP = ISTK(ISP)
      ISP = ISP - 1
      CALL VISIT(KEY(IP), NOUT, LAST, KSUM, NBAD)
      IP = RIGHT(IP)
      GO TO 10
      END
C
      SUBROUTINE VISIT(K, NOUT, LAST, KSUM, NBAD)
      IMPLICIT NONE
      INTEGER K, NOUT, LAST, KSUM, NBAD
      NOUT = NOUT + 1
      IF (K .LE. LAST) NBAD = NBAD + 1
      LAST = K
      KSUM = KSUM + K
      RETURN
      END
C
C-----------------------------------------------------------------------
C     SUBTREE SUMS FOR A HEAP-LAYOUT TREE (CHILDREN 2I, 2I+1)
C-----------------------------------------------------------------------
      SUBROUTINE SUBSUM(IV, IS, N)
      IMPLICIT NONE
      INTEGER N, IV(N), IS(N), I, ICHILD
      EXTERNAL ICHILD
      DO 10 I = N, 1, -1
         IS(I) = IV(I) + ICHILD(IS, N, 2*I) + ICHILD(IS, N, 2*I+1)
   10 CONTINUE
      RETURN
      END
C
      INTEGER FUNCTION ICHILD(IS, N, J)
      IMPLICIT NONE
      INTEGER N, IS(N), J
      IF (J .LE. N) THEN
         ICHILD = IS(J)
      ELSE
         ICHILD = 0
      ENDIF
      RETURN
      END
