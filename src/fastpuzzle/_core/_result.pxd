# The one result type every compiled search returns (see _result.pyx).

cdef class CoreResult:
    cdef readonly int status
    cdef readonly str moves
    cdef readonly unsigned long long expanded
    cdef readonly unsigned long long generated
    cdef readonly unsigned long long max_frontier
    cdef readonly unsigned long long peak_memory_bytes
    cdef readonly double seconds
    cdef readonly int depth
    cdef readonly unsigned long long iterations


cdef CoreResult core_result(
    int status,
    str moves,
    unsigned long long expanded,
    unsigned long long generated,
    unsigned long long max_frontier,
    unsigned long long peak_memory_bytes,
    double seconds,
    int depth,
    unsigned long long iterations,
)
