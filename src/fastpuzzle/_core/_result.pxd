# The one result type every compiled search returns (see _result.pyx), and its status codes.

cpdef enum SearchStatus:
    # How a search ended (fastpuzzle.Status maps each code by value), or that it runs on.
    STATUS_RUNNING = -1
    STATUS_SOLVED = 0
    STATUS_EXHAUSTED = 1
    STATUS_TIME_LIMIT = 2
    STATUS_NODE_LIMIT = 3
    STATUS_MEMORY_LIMIT = 4
    STATUS_DEPTH_LIMIT = 5
    # A team's stop flag when the calling thread raised (Ctrl-C, the progress callback): no
    # result carries it, but a cluster's unit results may.
    STATUS_ABORTED = 100

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
    cdef readonly unsigned long long allocated_bytes
    cdef readonly int max_depth_reached
    cdef readonly long long reexpanded


# peak_memory_bytes: the most bytes of nodes stored at once (entries held x bytes an entry);
# allocated_bytes: the most bytes the search's structures held at their capacity, which is what
# Limits.memory_bytes caps (0 where a driver does not report it). max_depth_reached: the deepest
# g of any node generated (-1: the driver does not count it); reexpanded: expansions of a board
# already expanded (-1: the driver cannot know, keeping no record of the boards expanded).
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
    unsigned long long allocated_bytes=*,
    int max_depth_reached=*,
    long long reexpanded=*,
)
