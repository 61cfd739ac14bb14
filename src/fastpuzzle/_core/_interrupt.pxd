# Stopping compiled searches on worker threads: see _interrupt.pyx. Every function here is
# called with the GIL held.

cdef bint stop_requested() noexcept
cdef int poll_interrupt() noexcept
cdef int check_interrupt() except -1
