! opcost xray: floating-point nano-benchmarks for the REAL kind the caller substitutes for WP
! (4 or 8; see cpu_kernels.f90).
subroutine add_lat_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x
  real(WP), intent(in) :: y
  integer(8) :: k
  do k = 1, iters
    x = x + y; x = x - y; x = x + y; x = x - y
    x = x + y; x = x - y; x = x + y; x = x - y
  end do
end subroutine

subroutine add_thr_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(8)
  real(WP), intent(in) :: y
  integer(8) :: k
  real(WP) :: x1, x2, x3, x4, x5, x6, x7, x8
  x1 = x(1); x2 = x(2); x3 = x(3); x4 = x(4); x5 = x(5); x6 = x(6); x7 = x(7); x8 = x(8)
  do k = 1, iters
    x1 = x1 + y; x2 = x2 + y; x3 = x3 + y; x4 = x4 + y
    x5 = x5 + y; x6 = x6 + y; x7 = x7 + y; x8 = x8 + y
    x1 = x1 - y; x2 = x2 - y; x3 = x3 - y; x4 = x4 - y
    x5 = x5 - y; x6 = x6 - y; x7 = x7 - y; x8 = x8 - y
  end do
  x = [x1, x2, x3, x4, x5, x6, x7, x8]
end subroutine

subroutine mul_lat_rWP(iters, x, y, z)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x
  real(WP), intent(in) :: y, z
  integer(8) :: k
  do k = 1, iters
    x = x * y; x = x * z; x = x * y; x = x * z
    x = x * y; x = x * z; x = x * y; x = x * z
  end do
end subroutine

subroutine mul_thr_rWP(iters, x, y, z)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(8)
  real(WP), intent(in) :: y, z
  integer(8) :: k
  real(WP) :: x1, x2, x3, x4, x5, x6, x7, x8
  x1 = x(1); x2 = x(2); x3 = x(3); x4 = x(4); x5 = x(5); x6 = x(6); x7 = x(7); x8 = x(8)
  do k = 1, iters
    x1 = x1 * y; x2 = x2 * y; x3 = x3 * y; x4 = x4 * y
    x5 = x5 * y; x6 = x6 * y; x7 = x7 * y; x8 = x8 * y
    x1 = x1 * z; x2 = x2 * z; x3 = x3 * z; x4 = x4 * z
    x5 = x5 * z; x6 = x6 * z; x7 = x7 * z; x8 = x8 * z
  end do
  x = [x1, x2, x3, x4, x5, x6, x7, x8]
end subroutine

! Division and square root (issue 27 item 3). x = y / x twice gives x back: two values, both
! with full mantissas (x = 1.1, y = 1.3), never 1.0, which some dividers finish early.
subroutine div_lat_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x
  real(WP), intent(in) :: y
  integer(8) :: k
  do k = 1, iters
    x = y / x; x = y / x; x = y / x; x = y / x
    x = y / x; x = y / x; x = y / x; x = y / x
  end do
end subroutine

subroutine div_thr_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(8)
  real(WP), intent(in) :: y
  integer(8) :: k
  real(WP) :: x1, x2, x3, x4, x5, x6, x7, x8
  x1 = x(1); x2 = x(2); x3 = x(3); x4 = x(4); x5 = x(5); x6 = x(6); x7 = x(7); x8 = x(8)
  do k = 1, iters
    x1 = y / x1; x2 = y / x2; x3 = y / x3; x4 = y / x4
    x5 = y / x5; x6 = y / x6; x7 = y / x7; x8 = y / x8
    x1 = y / x1; x2 = y / x2; x3 = y / x3; x4 = y / x4
    x5 = y / x5; x6 = y / x6; x7 = y / x7; x8 = y / x8
  end do
  x = [x1, x2, x3, x4, x5, x6, x7, x8]
end subroutine

! Repeated square roots converge to exactly 1.0; one multiplication by y per 8 roots keeps the
! value near y with a full mantissa. The latency chain carries that multiplication too (the
! driver's caller subtracts an eighth of a multiply's latency); in the throughput kernel the
! multiplications are independent and overlap the roots.
subroutine sqrt_lat_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x
  real(WP), intent(in) :: y
  integer(8) :: k
  do k = 1, iters
    x = sqrt(x); x = sqrt(x); x = sqrt(x); x = sqrt(x)
    x = sqrt(x); x = sqrt(x); x = sqrt(x); x = sqrt(x) * y
  end do
end subroutine

subroutine sqrt_thr_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(8)
  real(WP), intent(in) :: y
  integer(8) :: k
  real(WP) :: x1, x2, x3, x4, x5, x6, x7, x8
  x1 = x(1); x2 = x(2); x3 = x(3); x4 = x(4); x5 = x(5); x6 = x(6); x7 = x(7); x8 = x(8)
  do k = 1, iters
    x1 = sqrt(x1); x2 = sqrt(x2); x3 = sqrt(x3); x4 = sqrt(x4)
    x5 = sqrt(x5); x6 = sqrt(x6); x7 = sqrt(x7); x8 = sqrt(x8)
    x1 = sqrt(x1) * y; x2 = sqrt(x2) * y; x3 = sqrt(x3) * y; x4 = sqrt(x4) * y
    x5 = sqrt(x5) * y; x6 = sqrt(x6) * y; x7 = sqrt(x7) * y; x8 = sqrt(x8) * y
  end do
  x = [x1, x2, x3, x4, x5, x6, x7, x8]
end subroutine
