C     A small application around DDOT: many dot products of short
C     vectors that stay in cache (a Gram matrix of 16 vectors), then
C     a few of long vectors that stream from memory.
      PROGRAM DOTAPP
      INTEGER NS, NV, NL
      PARAMETER (NS = 1000, NV = 16, NL = 1000000)
      DOUBLE PRECISION V(NS, NV), G(NV, NV), X(NL), Y(NL), S
      DOUBLE PRECISION DDOT
      EXTERNAL DDOT
      INTEGER I, J, K
      DO 20 J = 1, NV
         DO 10 I = 1, NS
            V(I, J) = DBLE(MOD(I * J, 7)) - 3.0D0
   10    CONTINUE
   20 CONTINUE
      DO 50 K = 1, 20
         DO 40 J = 1, NV
            DO 30 I = 1, NV
               G(I, J) = DDOT(NS, V(1, I), V(1, J))
   30       CONTINUE
   40    CONTINUE
   50 CONTINUE
      DO 60 I = 1, NL
         X(I) = DBLE(MOD(I, 5)) - 2.0D0
         Y(I) = DBLE(MOD(I, 3)) - 1.0D0
   60 CONTINUE
      S = 0.0D0
      DO 70 K = 1, 8
         S = S + DDOT(NL, X, Y)
C        Touch 32 MB elsewhere between calls, as a real code would.
         CALL SWEEP(K)
   70 CONTINUE
      WRITE (*, *) 'GRAM TRACE', G(1, 1) + G(NV, NV), ' SUM', S
      END
C     Stream through a large work area, evicting X and Y from cache.
      SUBROUTINE SWEEP(K)
      INTEGER K, I, NW
      PARAMETER (NW = 4000000)
      DOUBLE PRECISION W(NW)
      COMMON /WORK/ W
      DO 10 I = 1, NW
         W(I) = W(I) + DBLE(K)
   10 CONTINUE
      END
