! opcost xray: packed (vector) throughput of floating-point add, multiply, fused multiply-add,
! divide and square root (issue 27 item 3), for the REAL kind the caller substitutes. Compiled
! for this machine with vectorization on; the caller reads the listing to learn the vector
! width and how many packed instructions one pass of each inner loop runs. Each element of an
! L1-resident array takes 8 dependent operations of one class per pass over the array: the
! elements are independent chains, so the packed instructions overlap as far as the hardware
! allows, and one load and one store per 8 operations leave the arithmetic the bound (4 made
! the fused multiply-adds of an AMD Zen 3 a quarter slower, 16 as well: the out-of-order
! window then holds too few chains). Values stay bounded as in cpu_kernels.f90 (seed 003,
! RangeGuard).
subroutine vadd_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(NELEM)
  real(WP), intent(in) :: y
  integer(8) :: k
  integer :: i
  do k = 1, iters
    do i = 1, NELEM
      x(i) = x(i) + y - y + y - y + y - y + y - y
    end do
  end do
end subroutine

subroutine vmul_rWP(iters, x, y, z)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(NELEM)
  real(WP), intent(in) :: y, z
  integer(8) :: k
  integer :: i
  do k = 1, iters
    do i = 1, NELEM
      x(i) = x(i) * y * z * y * z * y * z * y * z
    end do
  end do
end subroutine

! x*y + z contracted into one instruction where the machine has it (y = 0.5, z = 1: the
! values converge to 2).
subroutine vfma_rWP(iters, x, y, z)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(NELEM)
  real(WP), intent(in) :: y, z
  integer(8) :: k
  integer :: i
  do k = 1, iters
    do i = 1, NELEM
      x(i) = (((x(i) * y + z) * y + z) * y + z) * y + z
      x(i) = (((x(i) * y + z) * y + z) * y + z) * y + z
    end do
  end do
end subroutine

! y / (y / x) is x again; x = 1.1, y = 1.3: full mantissas.
subroutine vdiv_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(NELEM)
  real(WP), intent(in) :: y
  integer(8) :: k
  integer :: i
  do k = 1, iters
    do i = 1, NELEM
      x(i) = y / (y / (y / (y / x(i))))
      x(i) = y / (y / (y / (y / x(i))))
    end do
  end do
end subroutine

! The multiplication keeps the roots away from exactly 1.0 (see sqrt_lat in fp_kernels).
subroutine vsqrt_rWP(iters, x, y)
  integer(8), intent(in) :: iters
  real(WP), intent(inout) :: x(NELEM)
  real(WP), intent(in) :: y
  integer(8) :: k
  integer :: i
  do k = 1, iters
    do i = 1, NELEM
      x(i) = sqrt(sqrt(sqrt(sqrt(x(i)))))
      x(i) = sqrt(sqrt(sqrt(sqrt(x(i))))) * y
    end do
  end do
end subroutine
