! opcost xray: driver of the CPU nano-benchmarks (seed 000). Reads "reps target_ns" and the
! operands from standard input (so nothing is known at compile time), calibrates each kernel's
! iteration count until one run lasts target_ns, then times every kernel once a round for reps
! rounds and prints
! "K name ns_per_op_min ns_per_op_median" (8 operations per iteration, 16 for the
! throughput kernels of floating point, 8 per element of the vector kernels' arrays). The
! results are printed too (no dead code).
program cpu_main
  implicit none
  integer(8) :: reps, target_ns, ia, ib, im, iv(8)
  real(4) :: sx, sy, sz, sv(8), sq, sr, sqv(8), sa(NELEM)
  real(8) :: dx, dy, dz, dv(8), dq, dr, dqv(8), da(NELEM), sink
  read (*, *) reps, target_ns
  read (*, *) ia, ib, im
  read (*, *) sx, sy, sz
  read (*, *) dx, dy, dz
  read (*, *) sq, sr
  read (*, *) dq, dr
  iv = ia; sv = sx; dv = dx; sqv = sq; dqv = dq; sink = 0
  call measure_all()
  sink = sink + dble(ia + ib + sum(iv)) + dble(sx + sum(sv)) + dx + sum(dv)
  sink = sink + dble(sq + sum(sqv) + sum(sa)) + dq + sum(dqv) + sum(da)
  write (*, '(a,1x,g0)') 'S', sink
contains
  subroutine run(name, iters)
    character(*), intent(in) :: name
    integer(8), intent(in) :: iters
    select case (name)
    case ('int_add_lat'); call int_add_lat(iters, ia, ib)
    case ('int_add_thr'); call int_add_thr(iters, iv, ib)
    case ('int_mul_lat'); call int_mul_lat(iters, ia, im)
    case ('int_mul_thr'); call int_mul_thr(iters, iv, im)
    case ('r4_add_lat'); call add_lat_r4(iters, sx, sy)
    case ('r4_add_thr'); call add_thr_r4(iters, sv, sy)
    case ('r4_mul_lat'); call mul_lat_r4(iters, sx, sy, sz)
    case ('r4_mul_thr'); call mul_thr_r4(iters, sv, sy, sz)
    case ('r8_add_lat'); call add_lat_r8(iters, dx, dy)
    case ('r8_add_thr'); call add_thr_r8(iters, dv, dy)
    case ('r8_mul_lat'); call mul_lat_r8(iters, dx, dy, dz)
    case ('r8_mul_thr'); call mul_thr_r8(iters, dv, dy, dz)
    case ('madd_fused'); call madd_fused(iters, dx, 0.5d0 * dy / dy, dz / dz)
    case ('madd_separate'); call madd_separate(iters, dx, 0.5d0 * dy / dy, dz / dz)
    case ('r4_div_lat'); call div_lat_r4(iters, sq, sr)
    case ('r4_div_thr'); call div_thr_r4(iters, sqv, sr)
    case ('r4_sqrt_lat'); call sqrt_lat_r4(iters, sq, sr)
    case ('r4_sqrt_thr'); call sqrt_thr_r4(iters, sqv, sr)
    case ('r8_div_lat'); call div_lat_r8(iters, dq, dr)
    case ('r8_div_thr'); call div_thr_r8(iters, dqv, dr)
    case ('r8_sqrt_lat'); call sqrt_lat_r8(iters, dq, dr)
    case ('r8_sqrt_thr'); call sqrt_thr_r8(iters, dqv, dr)
    case ('r4_vadd'); call vadd_r4(iters, sa, sy)
    case ('r4_vmul'); call vmul_r4(iters, sa, sy, sz)
    case ('r4_vfma'); call vfma_r4(iters, sa, 0.5 * sy / sy, sz / sz)
    case ('r4_vdiv'); call vdiv_r4(iters, sa, sr)
    case ('r4_vsqrt'); call vsqrt_r4(iters, sa, sr)
    case ('r8_vadd'); call vadd_r8(iters, da, dy)
    case ('r8_vmul'); call vmul_r8(iters, da, dy, dz)
    case ('r8_vfma'); call vfma_r8(iters, da, 0.5d0 * dy / dy, dz / dz)
    case ('r8_vdiv'); call vdiv_r8(iters, da, dr)
    case ('r8_vsqrt'); call vsqrt_r8(iters, da, dr)
    end select
  end subroutine run

  ! Every kernel's iteration count is calibrated first; then each of `reps` rounds times every
  ! kernel once, so a host whose speed drifts for seconds at a time slows all of a round's
  ! kernels alike and the ratios between rows (a packed row against its scalar one) hold.
  ! Each vector kernel starts from fresh operands (x = q) before every run, outside the
  ! timing; their operations are counted per element of the array.
  subroutine measure_all()
    integer, parameter :: nk = 32
    integer :: j
    character(16), parameter :: names(nk) = [character(16) :: &
      'int_add_lat', 'int_add_thr', 'int_mul_lat', 'int_mul_thr', &
      'r4_add_lat', 'r4_add_thr', 'r4_mul_lat', 'r4_mul_thr', &
      'r8_add_lat', 'r8_add_thr', 'r8_mul_lat', 'r8_mul_thr', &
      'madd_fused', 'madd_separate', &
      'r4_div_lat', 'r4_div_thr', 'r4_sqrt_lat', 'r4_sqrt_thr', &
      'r8_div_lat', 'r8_div_thr', 'r8_sqrt_lat', 'r8_sqrt_thr', &
      'r4_vadd', 'r4_vmul', 'r4_vfma', 'r4_vdiv', 'r4_vsqrt', &
      'r8_vadd', 'r8_vmul', 'r8_vfma', 'r8_vdiv', 'r8_vsqrt']
    ! Operations per iteration of each kernel, in the order of `names`.
    integer(8), parameter :: ops(nk) = [integer(8) :: &
      8, 8, 8, 8, &
      8, 16, 8, 16, &
      8, 16, 8, 16, &
      8, 8, &
      8, 16, 8, 16, &
      8, 16, 8, 16, &
      (8 * NELEM, j = 1, 10)]
    integer(8) :: iters(nk), t0, t1, k
    real(8), allocatable :: t(:, :)
    do j = 1, nk
      iters(j) = max(1_8, 8192 / ops(j))
      do
        call timed(names(j), iters(j), t0, t1)
        if (t1 - t0 >= target_ns .or. iters(j) > 2_8**40) exit
        iters(j) = iters(j) * 2
      end do
    end do
    allocate (t(reps, nk))
    do k = 1, reps
      do j = 1, nk
        call timed(names(j), iters(j), t0, t1)
        t(k, j) = dble(t1 - t0) / dble(iters(j) * ops(j))
      end do
    end do
    do j = 1, nk
      call sort(t(:, j))
      write (*, '(a,1x,a,2(1x,f0.5))') 'K', trim(names(j)), t(1, j), t((reps + 1) / 2, j)
    end do
  end subroutine measure_all

  ! One run of kernel `name` for `iters` iterations, its clock readings before and after.
  subroutine timed(name, iters, t0, t1)
    character(*), intent(in) :: name
    integer(8), intent(in) :: iters
    integer(8), intent(out) :: t0, t1
    if (name(4:4) == 'v') then
      sa = sq; da = dq
    end if
    call system_clock(t0)
    call run(trim(name), iters)
    call system_clock(t1)
  end subroutine timed

  subroutine sort(t)
    real(8), intent(inout) :: t(:)
    integer :: i, j
    real(8) :: x
    do i = 2, size(t)
      x = t(i)
      j = i - 1
      do while (j >= 1)
        if (t(j) <= x) exit
        t(j + 1) = t(j)
        j = j - 1
      end do
      t(j + 1) = x
    end do
  end subroutine sort
end program cpu_main
