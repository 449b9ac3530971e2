! opcost xray: the longest DO loop whose exit the branch predictor learns. An empty DO loop of
! T trips is entered again and again; each entry takes about T times an iteration while the
! predictor foresees the exit, and a branch miss more once it no longer does.
program loop_exit
  implicit none
  integer :: t, tmax, r, nr, j, k, samples, s
  integer(8) :: c0, c1, rate, work
  real(8) :: best, ns
  read (*, *) tmax, work, samples
  call system_clock(count_rate=rate)
  s = 0
  do t = 1, tmax
    nr = int(max(1000_8, work / t))
    best = huge(1.0d0)
    do k = 1, samples
      call system_clock(c0)
      do r = 1, nr
        do j = 1, t
        end do
        s = s + j
      end do
      call system_clock(c1)
      ns = dble(c1 - c0) / dble(rate) * 1.0d9 / dble(nr)
      best = min(best, ns)
    end do
    write (*, '(a,1x,i0,1x,f0.4)') 'E', t, best
  end do
  if (s == -1) write (*, *) s
end program loop_exit
