C     Dot product of two double precision vectors, the kernel of
C     Whaley & Castaldo's figure 1 (written for opcost's timing examples).
      DOUBLE PRECISION FUNCTION DDOT(N, X, Y)
      INTEGER N, I
      DOUBLE PRECISION X(N), Y(N), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I) * Y(I)
   10 CONTINUE
      DDOT = S
      END
