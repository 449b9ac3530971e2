! opcost xray: sustained single-thread bandwidths (issue 27). For each footprint F, three
! streams of stream_kernels.f90 over F bytes: read (a sum), write (a store into every
! element) and copy (B = A, each F/2 bytes, B 1 KiB + 64 B past A's end so that A(I) and B(I)
! do not alias in the L1 sets). Each stream runs in passes doubled until one timing lasts
! target_ns (the first, cold, runs warm the level), then is timed reps times; the best (least)
! nanoseconds per pass are kept. The buffer is 2 MiB aligned, asked for transparent huge pages
! (madvise) when the flag says so, and written once before any timing (page faults).
!
! Input (standard input): "buffer_bytes use_huge_pages(0/1)", then one query per line
! "footprint_bytes reps target_ns" (footprint a multiple of 512 B, footprint + 1088 B at most
! buffer_bytes).
! Output: per query "BW footprint_bytes read_ns write_ns copy_ns" (best ns per pass; every
! pass moves F bytes: F read, F written, F/2 read plus F/2 written), then "S sink".
program stream
  use iso_c_binding
  use xray_buffer
  implicit none
  integer(8), parameter :: gap_words = 136
  real(8), pointer, contiguous :: buf(:)
  real(8) :: s(32), x, best(3)
  integer(8) :: total, hugeflag, f, reps, target_ns, words, m, kind
  integer(c_size_t) :: bytes
  type(c_ptr) :: p
  integer :: ios

  read (*, *) total, hugeflag
  call aligned_buffer(total, hugeflag, p, bytes)
  words = int(bytes, 8) / 8
  call c_f_pointer(p, buf, [words])
  buf = 1
  s = 0
  x = 0.5d0
  do
    read (*, *, iostat=ios) f, reps, target_ns
    if (ios /= 0) exit
    if (mod(f, 512_8) /= 0 .or. f / 8 + gap_words > words .or. reps < 1) then
      write (*, '(a,1x,i0)') 'ERROR bad footprint or repetitions', f
      stop 2
    end if
    m = f / 256
    do kind = 1, 3
      best(kind) = timed(kind)
    end do
    write (*, '(a,1x,i0,3(1x,f0.3))') 'BW', f, best
    flush (6)
    x = x + 0.25d0
  end do
  write (*, '(a,1x,g0)') 'S', sum(s) + buf(1) + buf(words)
contains
  ! Best nanoseconds per pass of stream `kind` over the current footprint.
  function timed(kind) result(ns)
    integer(8), intent(in) :: kind
    real(8) :: ns
    integer(8) :: passes, r
    passes = 1
    do
      ns = run(kind, passes)
      if (ns >= dble(target_ns) .or. passes >= 2_8**30) exit
      passes = passes * 2
    end do
    ns = huge(ns)
    do r = 1, reps
      ns = min(ns, run(kind, passes) / dble(passes))
    end do
  end function timed

  ! Nanoseconds taken by `passes` passes of stream `kind`.
  function run(kind, passes) result(ns)
    integer(8), intent(in) :: kind, passes
    real(8) :: ns
    integer(8) :: t0, t1, rate
    call system_clock(t0, rate)
    select case (kind)
    case (1); call stream_read(buf, m, passes, s)
    case (2); call stream_write(buf, m, passes, x)
    case (3); call stream_copy(buf(m * 16 + gap_words + 1:), buf, m / 2, passes)
    end select
    call system_clock(t1)
    ns = dble(t1 - t0) * 1d9 / dble(rate)
  end function run
end program stream

! Does nothing, from another unit than the kernels: to them it may read the array.
subroutine keep(a)
  real(8), intent(inout) :: a(*)
end subroutine keep
