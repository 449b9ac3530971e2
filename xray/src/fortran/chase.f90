! opcost xray: timed pointer chasing over a sequence of sequences <<m0, s, n>, S, N>
! (seed 002 sections 4.2 and 5). Every load depends on the previous one (J = NXT(J)), the
! chain visits the elements in a pseudo-random cyclic order (Sattolo's algorithm) so stride
! prefetchers cannot help, the loop is unrolled 32 times so its overhead vanishes, and the
! final index is printed so nothing is optimized away. The buffer is 2 MiB aligned and asked
! for transparent huge pages (madvise), so that physically indexed levels see contiguous
! memory (seed 002 section 5.3); the granted huge-page kilobytes are reported.
!
! Input (standard input): first line "extent_bytes use_huge_pages(0/1)", then one query per
! line "samples target_ns D stride_1 count_1 ... stride_D count_D": the sequence is every
! sum of k_d * stride_d with 0 <= k_d < count_d (byte strides, multiples of 8); dimension 1
! is the innermost.
! Output: "HUGE kb", then per query "R m t1 ... tk" (ns per access of each sample), "J j".
module xray_chase
  implicit none
contains
  ! Follow the chain for at least `count` loads (a multiple of 32), starting at `j`.
  subroutine follow(nxt, j, count)
    integer(8), intent(in) :: nxt(*)
    integer(8), intent(inout) :: j
    integer(8), intent(in) :: count
    integer(8) :: k
    do k = 1, count / 32
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
      j = nxt(j); j = nxt(j); j = nxt(j); j = nxt(j)
    end do
  end subroutine follow

  ! xorshift64: a fixed, fast pseudo-random stream (wrap-free: shifts and xor only).
  function next_random(state) result(r)
    integer(8), intent(inout) :: state
    integer(8) :: r
    state = ieor(state, ishft(state, 13))
    state = ieor(state, ishft(state, -7))
    state = ieor(state, ishft(state, 17))
    r = iand(state, huge(state))
  end function next_random
end module xray_chase

program chase
  use iso_c_binding
  use xray_buffer
  use xray_chase
  implicit none
  integer(8), pointer :: nxt(:)
  integer(8), allocatable :: perm(:)
  integer(8) :: extent, words, hugeflag, nsamples, target_ns, nd, d
  integer(8) :: st(8), ct(8)
  integer(8) :: m, k, i, jj, tmp, j, start, count, t0, t1, rate, warm, state, jsum
  integer(8) :: hugekb
  real(8), allocatable :: t(:)
  real(8) :: est
  integer(c_size_t) :: bytes
  type(c_ptr) :: p
  integer :: ios, u
  character(len=256) :: line

  read (*, *) extent, hugeflag
  call aligned_buffer(extent, hugeflag, p, bytes)
  words = int(bytes, 8) / 8
  call c_f_pointer(p, nxt, [words])
  nxt = 0
  hugekb = 0
  open (newunit=u, file='/proc/self/smaps_rollup', status='old', action='read', iostat=ios)
  if (ios == 0) then
    do
      read (u, '(a)', iostat=ios) line
      if (ios /= 0) exit
      if (line(1:14) == 'AnonHugePages:') read (line(15:), *) hugekb
    end do
    close (u)
  else
    hugekb = -1
  end if
  write (*, '(a,1x,i0)') 'HUGE', hugekb
  jsum = 0
  state = 88172645463325252_8
  do
    read (*, *, iostat=ios) nsamples, target_ns, nd, (st(d), ct(d), d = 1, min(nd, 8_8))
    if (ios /= 0) exit
    m = product(ct(1:nd))
    if (allocated(perm)) deallocate (perm)
    allocate (perm(0:m - 1))
    do k = 0, m - 1
      perm(k) = k
    end do
    ! Sattolo: a uniformly random single cycle through all m elements.
    do k = m - 1, 1, -1
      i = mod(next_random(state), k)
      tmp = perm(k); perm(k) = perm(i); perm(i) = tmp
    end do
    do k = 0, m - 1
      jj = mod(k + 1, m)
      nxt(word_of(perm(k))) = word_of(perm(jj))
    end do
    start = word_of(perm(0))
    j = start
    ! Warm-up: one whole pass (at least 4096 loads) brings the sequence in and estimates
    ! the time per load, from which each timed sample's length is chosen.
    warm = (max(m, 4096_8) + 31) / 32 * 32
    call system_clock(t0, rate)
    call follow(nxt, j, warm)
    call system_clock(t1)
    est = max(dble(t1 - t0) / dble(warm), 0.05d0)
    count = max(m, int(dble(target_ns) / est, 8))
    count = (count + 31) / 32 * 32
    if (allocated(t)) deallocate (t)
    allocate (t(nsamples))
    do k = 1, nsamples
      call system_clock(t0)
      call follow(nxt, j, count)
      call system_clock(t1)
      t(k) = dble(t1 - t0) / dble(count)
    end do
    jsum = jsum + j
    write (*, '(a,1x,i0,*(1x,f0.4))') 'R', m, t
    flush (6)
  end do
  write (*, '(a,1x,i0)') 'J', jsum
contains
  ! Word index (1-based) of element k: its mixed-radix digits times the strides.
  function word_of(k) result(w)
    integer(8), intent(in) :: k
    integer(8) :: w, r, e
    r = k
    w = 0
    do e = 1, nd
      w = w + mod(r, ct(e)) * st(e)
      r = r / ct(e)
    end do
    w = w / 8 + 1
  end function word_of
end program chase
