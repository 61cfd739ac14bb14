# Limits, Ctrl-C and progress for every compiled search, checked at one place.
#
# A driver counts expansions in SearchCounters and calls checkpoint() whenever
# counters.expanded reaches control.next_check: at most every CHECK_INTERVAL expansions, and
# exactly at the node limit. The limits are read without the GIL; the GIL is taken only to let
# Python handle signals (Ctrl-C raises KeyboardInterrupt), to look at the thread's stop event (a
# batch's worker threads, which never see signals: see _interrupt.pyx) and to call the progress
# callback.

from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from fastpuzzle._core._interrupt cimport poll_interrupt, stop_requested
from fastpuzzle._core._result cimport (
    STATUS_MEMORY_LIMIT,
    STATUS_NODE_LIMIT,
    STATUS_RUNNING,
    STATUS_TIME_LIMIT,
)

cdef enum:
    CHECK_INTERVAL = 65536

cdef struct SearchCounters:
    uint64_t expanded
    uint64_t generated
    uint64_t max_frontier
    uint64_t peak_memory_bytes
    uint64_t iterations
    int depth                   # solution length; while running, the current depth or bound

cdef struct Control:
    uint64_t node_limit         # 0: none
    double time_limit           # seconds; <= 0: none
    uint64_t memory_limit       # bytes; 0: none
    double started
    uint64_t next_check
    # Borrowed callable or NULL, called as progress(expanded, generated, seconds, depth);
    # the def entry that sets it keeps it alive.
    PyObject* progress

cdef inline double monotonic_seconds() noexcept nogil:
    cdef timespec now
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec + 1e-9 * now.tv_nsec

cdef inline void init_counters(SearchCounters* s) noexcept nogil:
    s.expanded = 0
    s.generated = 0
    s.max_frontier = 0
    s.peak_memory_bytes = 0
    s.iterations = 0
    s.depth = -1

cdef inline void init_control(
    Control* c, uint64_t node_limit, double time_limit, uint64_t memory_limit, object progress
) noexcept:
    c.node_limit = node_limit
    c.time_limit = time_limit
    c.memory_limit = memory_limit
    c.started = monotonic_seconds()
    c.next_check = CHECK_INTERVAL
    if node_limit and node_limit < c.next_check:
        c.next_check = node_limit
    if stop_requested():
        # A search started on a stopped batch thread stops at its first expansion, so a chunk
        # of short searches, none reaching CHECK_INTERVAL, does not run on to its end.
        c.next_check = 0
    c.progress = NULL if progress is None else <PyObject*>progress

cdef inline double elapsed(const Control* c) noexcept nogil:
    return monotonic_seconds() - c.started

cdef inline void note_memory(SearchCounters* s, uint64_t memory_bytes) noexcept nogil:
    if memory_bytes > s.peak_memory_bytes:
        s.peak_memory_bytes = memory_bytes

cdef inline int checkpoint(Control* c, SearchCounters* s, uint64_t memory_bytes) except -2 nogil:
    # Returns STATUS_RUNNING to go on, or the status of the limit reached. Returns -2 with a
    # Python exception set when Ctrl-C was pressed, the thread's stop event was set or the
    # progress callback raised.
    cdef double seconds = elapsed(c)
    note_memory(s, memory_bytes)
    c.next_check = s.expanded + CHECK_INTERVAL
    if c.node_limit:
        if s.expanded >= c.node_limit:
            return STATUS_NODE_LIMIT
        if c.node_limit < c.next_check:
            c.next_check = c.node_limit
    if c.time_limit > 0 and seconds >= c.time_limit:
        return STATUS_TIME_LIMIT
    if c.memory_limit and memory_bytes >= c.memory_limit:
        return STATUS_MEMORY_LIMIT
    with gil:
        if poll_interrupt() < 0:
            return -2
        if c.progress != NULL:
            (<object>c.progress)(s.expanded, s.generated, seconds, s.depth)
    return STATUS_RUNNING
