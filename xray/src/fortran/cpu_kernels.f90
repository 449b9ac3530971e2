! opcost xray: CPU nano-benchmarks (seed 000). Each kernel runs `iters` loop iterations of an
! unrolled body of 8 operations; latency kernels chain every operation on the previous one,
! throughput kernels run 8 independent chains. Operands arrive as arguments from a separately
! compiled driver (no constant folding); results are returned (no dead code). Additions
! alternate + and - and multiplications alternate *y and *z (y*z = 1) so the values stay
! bounded: no overflow, no denormals (seed 003, RangeGuard).

subroutine int_add_lat(iters, a, b)
  integer(8), intent(in) :: iters
  integer(8), intent(inout) :: a, b
  integer(8) :: k
  ! Each addition needs the previous result: one cycle each (seed 000: CPU frequency).
  do k = 1, iters
    a = a + b; b = b + a; a = a + b; b = b + a
    a = a + b; b = b + a; a = a + b; b = b + a
  end do
end subroutine

subroutine int_add_thr(iters, a, inc)
  integer(8), intent(in) :: iters, inc
  integer(8), intent(inout) :: a(8)
  integer(8) :: k, a1, a2, a3, a4, a5, a6, a7, a8
  a1 = a(1); a2 = a(2); a3 = a(3); a4 = a(4); a5 = a(5); a6 = a(6); a7 = a(7); a8 = a(8)
  do k = 1, iters
    a1 = a1 + inc; a2 = a2 + inc; a3 = a3 + inc; a4 = a4 + inc
    a5 = a5 + a1; a6 = a6 + a2; a7 = a7 + a3; a8 = a8 + a4
  end do
  a = [a1, a2, a3, a4, a5, a6, a7, a8]
end subroutine

subroutine int_mul_lat(iters, a, m)
  integer(8), intent(in) :: iters, m
  integer(8), intent(inout) :: a
  integer(8) :: k, b
  ! Each product needs the previous one, and no two can be regrouped: `a = a * m` eight
  ! times is a * m**8, which LLVM computes with one multiply a pass.
  b = m
  do k = 1, iters
    a = a * b; b = b * a; a = a * b; b = b * a
    a = a * b; b = b * a; a = a * b; b = b * a
  end do
  a = a + b
end subroutine

subroutine int_mul_thr(iters, a, m)
  integer(8), intent(in) :: iters, m
  integer(8), intent(inout) :: a(8)
  integer(8) :: k, a1, a2, a3, a4, a5, a6, a7, a8
  a1 = a(1); a2 = a(2); a3 = a(3); a4 = a(4); a5 = a(5); a6 = a(6); a7 = a(7); a8 = a(8)
  do k = 1, iters
    a1 = a1 * m; a2 = a2 * m; a3 = a3 * m; a4 = a4 * m
    a5 = a5 * m; a6 = a6 * m; a7 = a7 * m; a8 = a8 * m
  end do
  a = [a1, a2, a3, a4, a5, a6, a7, a8]
end subroutine
