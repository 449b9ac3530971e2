! opcost xray: a chain of multiply-adds x = x*y + z (seed 000: FMA existence). Compiled twice,
! once allowing the compiler to contract into a fused multiply-add for this machine and once
! forbidding it; with y = 0.5, z = 1 the value converges to 2 (no overflow, no denormals).
subroutine NAME(iters, x, y, z)
  integer(8), intent(in) :: iters
  real(8), intent(inout) :: x
  real(8), intent(in) :: y, z
  integer(8) :: k
  do k = 1, iters
    x = x * y + z; x = x * y + z; x = x * y + z; x = x * y + z
    x = x * y + z; x = x * y + z; x = x * y + z; x = x * y + z
  end do
end subroutine
