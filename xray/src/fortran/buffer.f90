! opcost xray: the buffer the chase and stream programs measure in, 2 MiB aligned and
! asked for transparent huge pages (madvise) when wanted, so that physically indexed levels
! see contiguous memory (X-Ray section 5.3).
module xray_buffer
  use iso_c_binding
  implicit none
  interface
    function posix_memalign(p, align, sz) bind(c, name='posix_memalign')
      import :: c_ptr, c_size_t, c_int
      integer(c_int) :: posix_memalign
      type(c_ptr) :: p
      integer(c_size_t), value :: align, sz
    end function
    function madvise(addr, len, advice) bind(c, name='madvise')
      import :: c_ptr, c_size_t, c_int
      integer(c_int) :: madvise
      type(c_ptr), value :: addr
      integer(c_size_t), value :: len
      integer(c_int), value :: advice
    end function
  end interface
contains
  ! A buffer of at least `wanted` bytes rounded up to 2 MiB, at a 2 MiB boundary: its address
  ! `p` and its `bytes`; huge pages asked for when `use_huge` is 1.
  subroutine aligned_buffer(wanted, use_huge, p, bytes)
    integer(8), intent(in) :: wanted, use_huge
    type(c_ptr), intent(out) :: p
    integer(c_size_t), intent(out) :: bytes
    integer(c_int) :: rc
    bytes = int((wanted + 2097151_8) / 2097152_8 * 2097152_8, c_size_t)
    rc = posix_memalign(p, int(2097152, c_size_t), bytes)
    if (rc /= 0) then
      write (*, '(a)') 'ERROR posix_memalign failed'
      stop 2
    end if
    if (use_huge == 1) rc = madvise(p, bytes, int(14, c_int))
  end subroutine aligned_buffer
end module xray_buffer
