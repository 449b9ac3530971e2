! opcost xray: a fixed amount of work (chains of dependent integer additions) for the SMP and
! SMT test of seed 000; several copies run at once. Reads "iters reps"; prints
! "T min_ns_per_add" over reps short runs (a run short enough to fit between preemptions shows
! only the hardware's own sharing, SMT) and "W total_ns" for the whole (time slicing shows).
program spin
  implicit none
  integer(8) :: iters, reps, a, b, k, r, t0, t1, s0, s1
  real(8) :: best
  read (*, *) iters, reps
  a = iters / iters
  b = a + 1
  best = huge(best)
  call system_clock(s0)
  do r = 1, reps
    call system_clock(t0)
    do k = 1, iters
      a = a + b; b = b + a; a = a + b; b = b + a
      a = a + b; b = b + a; a = a + b; b = b + a
    end do
    call system_clock(t1)
    best = min(best, dble(t1 - t0) / dble(8 * iters))
  end do
  call system_clock(s1)
  write (*, '(a,1x,f0.5)') 'T', best
  write (*, '(a,1x,i0,1x,i0)') 'W', s1 - s0, a + b
end program spin
