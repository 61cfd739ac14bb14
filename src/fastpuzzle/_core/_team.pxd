# What the threads of one parallel IDA* share: a stop flag, the node budget, live counters.
#
# A parallel search (driven by fastpuzzle/_parallel.py) is run by the calling thread, which searches
# the small iterations and the shallow frontier of each large one and handles Ctrl-C and
# progress, and by pool threads that take frontier nodes from a shared counter and search their
# subtrees without the GIL. Each thread has its own search struct, linked to the team by a
# Member; only the fields below are written by several threads, through the atomics declared
# here (GCC/Clang builtins, Interlocked functions on MSVC). Everything else a thread reads was
# written before the pool started the iteration's tasks, or is read after they ended (the pool's
# futures order both).
#
# The node limit is shared as a budget: a thread may expand as many nodes as it has been granted,
# and takes a grant at each checkpoint, so that the threads together never pass the limit. Grants
# are CHECK_INTERVAL expansions until the budget runs low, then a share of what is left, so that
# the search stops close to the limit (within MIN_GRANT per thread) rather than with threads
# holding unspent grants. Without a node limit the budget is not touched.

from libc.stdint cimport uint64_t

from fastpuzzle._core._interrupt cimport poll_interrupt
from fastpuzzle._core._control cimport (
    CHECK_INTERVAL,
    Control,
    STATUS_NODE_LIMIT,
    STATUS_RUNNING,
    STATUS_TIME_LIMIT,
    SearchCounters,
    elapsed,
)

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline uint64_t fp_atomic_add(uint64_t* p, uint64_t v) {
        return (uint64_t)_InterlockedExchangeAdd64((volatile __int64*)p, (__int64)v);
    }
    static __inline uint64_t fp_atomic_read(uint64_t* p) {
        return (uint64_t)_InterlockedOr64((volatile __int64*)p, 0);
    }
    static __inline int fp_atomic_read_int(int* p) {
        return (int)_InterlockedOr((volatile long*)p, 0);
    }
    static __inline int fp_atomic_claim(int* p, int expected, int desired) {
        return _InterlockedCompareExchange((volatile long*)p, desired, expected) == expected;
    }
    static __inline uint64_t fp_atomic_take(uint64_t* p, uint64_t want) {
        __int64 seen = (__int64)fp_atomic_read(p), got;
        for (;;) {
            uint64_t take = (uint64_t)seen < want ? (uint64_t)seen : want;
            got = _InterlockedCompareExchange64((volatile __int64*)p, seen - (__int64)take, seen);
            if (got == seen) return take;
            seen = got;
        }
    }
    #else
    static inline uint64_t fp_atomic_add(uint64_t* p, uint64_t v) {
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    }
    static inline uint64_t fp_atomic_read(uint64_t* p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    static inline int fp_atomic_read_int(int* p) {
        return __atomic_load_n(p, __ATOMIC_ACQUIRE);
    }
    static inline int fp_atomic_claim(int* p, int expected, int desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE);
    }
    static inline uint64_t fp_atomic_take(uint64_t* p, uint64_t want) {
        /* Takes min(want, *p) from *p and returns it. */
        uint64_t seen = __atomic_load_n(p, __ATOMIC_RELAXED), take;
        do {
            take = seen < want ? seen : want;
        } while (!__atomic_compare_exchange_n(p, &seen, seen - take, 1, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED));
        return take;
    }
    #endif
    """
    uint64_t atomic_add "fp_atomic_add"(uint64_t* p, uint64_t v) noexcept nogil
    uint64_t atomic_read "fp_atomic_read"(uint64_t* p) noexcept nogil
    int atomic_read_int "fp_atomic_read_int"(int* p) noexcept nogil
    bint atomic_claim "fp_atomic_claim"(int* p, int expected, int desired) noexcept nogil
    uint64_t atomic_take "fp_atomic_take"(uint64_t* p, uint64_t want) noexcept nogil

cdef enum:
    # The stop flag's value when the calling thread raised (Ctrl-C, the progress callback):
    # not a status any result carries.
    STOP_ABORTED = 100
    MIN_GRANT = 256
    HEAVY_CAPACITY = 1 << 15    # remembered units (see HeavySet), at most half of it

cdef struct Team:
    int stop                    # STATUS_RUNNING, else the status that ends the search
    int limited                 # 1: a node limit is set and expansions are drawn from budget
    int threads                 # pool threads (the calling thread aside)
    uint64_t budget             # expansions not yet granted to any thread
    uint64_t next_node          # the next frontier node to hand out
    uint64_t live_expanded      # flushed by the pool threads at their checkpoints
    uint64_t live_generated
    uint64_t done_expanded      # pool threads of finished iterations (calling thread only)
    uint64_t done_generated

cdef struct Member:
    Team* team                  # NULL: a serial search
    int main                    # 1: the calling thread (checks signals, reports progress)
    uint64_t flushed_expanded   # what this pool thread has added to the live counters
    uint64_t flushed_generated

cdef inline void init_team(Team* t, int threads, uint64_t node_limit,
                           uint64_t spent) noexcept nogil:
    # spent: expansions made before the team formed (the calling thread's serial iterations).
    t.stop = STATUS_RUNNING
    t.limited = node_limit != 0
    t.threads = threads
    t.budget = node_limit - spent if node_limit > spent else 0
    t.next_node = 0
    t.live_expanded = 0
    t.live_generated = 0
    t.done_expanded = 0
    t.done_generated = 0

cdef inline int team_stop(Team* t, int status) noexcept nogil:
    # The first reason to stop wins; returns the one in force.
    atomic_claim(&t.stop, STATUS_RUNNING, status)
    return atomic_read_int(&t.stop)

cdef inline bint refill(Team* t, Control* c, const SearchCounters* s) noexcept nogil:
    # A fresh grant of expansions up to the next checkpoint; False when the budget is spent.
    cdef uint64_t grant = CHECK_INTERVAL
    if t.limited:
        grant = atomic_read(&t.budget) // (2 * t.threads)
        if grant > CHECK_INTERVAL:
            grant = CHECK_INTERVAL
        elif grant < MIN_GRANT:
            grant = MIN_GRANT
        grant = atomic_take(&t.budget, grant)
    c.next_check = s.expanded + grant
    return grant != 0

cdef inline void give_back(Team* t, Control* c, const SearchCounters* s) noexcept nogil:
    # Returns the unspent part of a thread's grant when it has no more to do in this iteration.
    if t.limited and c.next_check > s.expanded:
        atomic_add(&t.budget, c.next_check - s.expanded)
    c.next_check = s.expanded

cdef inline void flush(Member* m, const SearchCounters* s) noexcept nogil:
    atomic_add(&m.team.live_expanded, s.expanded - m.flushed_expanded)
    atomic_add(&m.team.live_generated, s.generated - m.flushed_generated)
    m.flushed_expanded = s.expanded
    m.flushed_generated = s.generated

cdef inline int team_checkpoint(Member* m, Control* c, SearchCounters* s) except -2 nogil:
    # The parallel checkpoint(): STATUS_RUNNING to go on, else the status that stops the team.
    # Only the calling thread takes the GIL (signals are delivered to the main thread alone).
    cdef Team* t = m.team
    cdef int stop
    cdef double seconds = elapsed(c)
    if not m.main:
        flush(m, s)
    stop = atomic_read_int(&t.stop)
    if stop != STATUS_RUNNING:
        return stop
    if c.time_limit > 0 and seconds >= c.time_limit:
        return team_stop(t, STATUS_TIME_LIMIT)
    if not refill(t, c, s):
        return team_stop(t, STATUS_NODE_LIMIT)
    if m.main:
        with gil:
            # As every checkpoint: Ctrl-C, and a batch thread's stop event.
            if poll_interrupt() < 0:
                return -2
            if c.progress != NULL:
                (<object>c.progress)(s.expanded + t.done_expanded,
                                     s.generated + t.done_generated, seconds, s.depth)
    return STATUS_RUNNING


# Where the work was: the frontier nodes whose subtrees took a large share of an iteration,
# kept as 64-bit keys of their boards (open addressing, 0 marks a free slot). The next
# iteration splits them into their children before the pool threads start, so that no subtree
# holds an iteration hostage. A key is only a hint: two boards with one key make the frontier
# a little finer, never a search wrong.
cdef struct HeavySet:
    uint64_t* keys
    uint64_t mask               # capacity - 1 (a power of two)
    uint64_t count

cdef inline uint64_t heavy_slot(const HeavySet* h, uint64_t key) noexcept nogil:
    # The slot holding key (never 0: see heavy_key), or the free slot where it would go.
    cdef uint64_t i = ((key * <uint64_t>0x9E3779B97F4A7C15) >> 20) & h.mask
    while h.keys[i] != 0 and h.keys[i] != key:
        i = (i + 1) & h.mask
    return i

cdef inline uint64_t heavy_key(uint64_t key) noexcept nogil:
    return key if key != 0 else 1

cdef inline bint heavy_contains(const HeavySet* h, uint64_t key) noexcept nogil:
    if h.count == 0:
        return False
    return h.keys[heavy_slot(h, heavy_key(key))] != 0

cdef inline void heavy_add(HeavySet* h, uint64_t key) noexcept nogil:
    # Past half full the set stops growing: its keys then only ever cover the work found so far.
    cdef uint64_t i
    if 2 * (h.count + 1) > h.mask + 1:
        return
    key = heavy_key(key)
    i = heavy_slot(h, key)
    if h.keys[i] == 0:
        h.keys[i] = key
        h.count += 1
