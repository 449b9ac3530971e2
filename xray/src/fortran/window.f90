! opcost xray: the instructions the core keeps in flight (its out-of-order window), by two
! independent pointer chases through memory (every load a miss) with N filler instructions
! after each load (the generated assembly routine xray_window, one loop per N). While a load of
! one chase and the next load of the other fit in the window together, their misses overlap and
! an iteration takes about one miss; past the window they run one after the other and an
! iteration takes two.
!
! Input (standard input): "lines iters samples kinds": the chases' lines (64 bytes each, two
! cycles of lines/2 in a random order), loads per chase in a sample, samples per kind, kinds.
! Output: per kind k, "W k ns_per_iteration" (the best of its samples).
program window
  use iso_c_binding
  implicit none
  interface
    subroutine xray_window(p, q, iters, k) bind(C, name='xray_window')
      import :: c_int64_t
      integer(c_int64_t), intent(inout) :: p, q
      integer(c_int64_t), value :: iters, k
    end subroutine xray_window
  end interface
  integer(c_int64_t), allocatable, target :: buf(:)
  integer(8), allocatable :: perm(:)
  integer(8) :: lines, iters, samples, kinds, half, i, k, s, t0, t1, rate, state
  integer(c_int64_t) :: p, q
  real(8) :: best
  read (*, *) lines, iters, samples, kinds
  half = lines / 2
  allocate (buf(lines * 8), perm(lines))
  state = 88172645463325252_8
  do i = 1, lines
    perm(i) = i
  end do
  call sattolo(perm(1:half), state)
  call sattolo(perm(half + 1:lines), state)
  ! The first word of line x holds the address of the first word of line perm(x).
  do i = 1, lines
    buf((i - 1) * 8 + 1) = transfer(c_loc(buf((perm(i) - 1) * 8 + 1)), 0_c_int64_t)
  end do
  p = transfer(c_loc(buf(1)), 0_c_int64_t)
  q = transfer(c_loc(buf(half * 8 + 1)), 0_c_int64_t)
  call system_clock(count_rate=rate)
  call xray_window(p, q, 10 * iters, 1_c_int64_t)
  do k = 1, kinds
    best = huge(best)
    do s = 1, samples
      call system_clock(t0)
      call xray_window(p, q, iters, k)
      call system_clock(t1)
      best = min(best, dble(t1 - t0) * 1.0d9 / dble(rate) / dble(iters))
    end do
    write (*, '(a,1x,i0,1x,f0.3)') 'W', k, best
  end do
contains
  ! Sattolo's shuffle: a random permutation that is one cycle through every element.
  subroutine sattolo(a, state)
    integer(8), intent(inout) :: a(:), state
    integer(8) :: i, j, tmp
    do i = size(a, kind=8), 2, -1
      state = ieor(state, ishft(state, 13))
      state = ieor(state, ishft(state, -7))
      state = ieor(state, ishft(state, 17))
      j = 1 + mod(iand(state, huge(state)), i - 1)
      tmp = a(i)
      a(i) = a(j)
      a(j) = tmp
    end do
  end subroutine sattolo
end program window
