! opcost xray: the streams of the bandwidth benchmark (issue 27), one pass each over blocks of
! 32 doubles (256 B), `passes` times. Compiled alone and optimized for this machine, so each
! loop is a tight vectorized stream; keep() is external (stream.f90), so the kernels must
! assume it reads the array they wrote and cannot drop a pass's stores.

! Read: 32 partial sums, i.e. independent vector additions, so the add latency does not bound
! the loads; s carries the sums across passes and calls (every load contributes to them).
subroutine stream_read(a, m, passes, s)
  integer(8), intent(in) :: m, passes
  real(8), intent(in) :: a(32, m)
  real(8), intent(inout) :: s(32)
  integer(8) :: k, p
  do p = 1, passes
    do k = 1, m
      s = s + a(:, k)
    end do
  end do
end subroutine stream_read

! Write: x into every element.
subroutine stream_write(a, m, passes, x)
  integer(8), intent(in) :: m, passes
  real(8), intent(inout) :: a(32, m)
  real(8), intent(in) :: x
  integer(8) :: k, p
  do p = 1, passes
    do k = 1, m
      a(:, k) = x
    end do
    call keep(a)
  end do
end subroutine stream_write

! Copy: B(I) = A(I).
subroutine stream_copy(b, a, m, passes)
  integer(8), intent(in) :: m, passes
  real(8), intent(inout) :: b(32, m)
  real(8), intent(in) :: a(32, m)
  integer(8) :: k, p
  do p = 1, passes
    do k = 1, m
      b(:, k) = a(:, k)
    end do
    call keep(b)
  end do
end subroutine stream_copy
