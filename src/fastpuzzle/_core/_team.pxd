# What the threads of one parallel IDA* share: a stop flag, the node budget, live counters, and
# the work one thread gives another.
#
# A parallel search (driven by fastpuzzle/_solver/parallel.py) is run by the calling thread,
# which searches the small iterations and the shallow frontier of each large one and handles
# Ctrl-C and progress, and by pool threads that take frontier nodes from a shared counter and
# search their subtrees without the GIL. Each thread has its own search struct, linked to the
# team by a Member; only the fields below are written by several threads, through the atomics
# declared here (GCC/Clang builtins, Interlocked functions on MSVC) or under the team's gate (a
# lock). Everything else a thread reads was written before the pool started the iteration's
# tasks, or is read after they ended (the pool's futures order both).
#
# The node limit is shared as a budget: a thread may expand as many nodes as it has been granted,
# and takes a grant at each checkpoint, so that the threads together never pass the limit. Grants
# are CHECK_INTERVAL expansions until the budget runs low, then a share of what is left, so that
# the search stops close to the limit (within MIN_GRANT per thread) rather than with threads
# holding unspent grants. Without a node limit the budget is not touched.
#
# Work stealing (see _team.pxi): a pool thread that has no unit left waits for work (``waiting``);
# a busy one sees it at its next poll (every ``quantum`` expansions, between
# checkpoints) and gives away the untried children at the shallowest open level of its path, as
# an offer in the team's queue. In lockstep (virtual cores, for measuring balance), every pool
# thread waits at a barrier each ``quantum`` expansions of its clock (expansions, plus the
# quanta it spent idle), so that P threads on any machine advance as P cores would.

from libc.stdint cimport int64_t, uint8_t, uint64_t

from fastpuzzle._core._interrupt cimport poll_interrupt
from fastpuzzle._core._control cimport CHECK_INTERVAL, Control, SearchCounters, elapsed
from fastpuzzle._core._result cimport STATUS_NODE_LIMIT, STATUS_RUNNING, STATUS_TIME_LIMIT

cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline uint64_t fp_atomic_add(uint64_t* p, uint64_t v) {
        return (uint64_t)_InterlockedExchangeAdd64((volatile __int64*)p, (__int64)v);
    }
    static __inline uint64_t fp_atomic_sub(uint64_t* p, uint64_t v) {
        return (uint64_t)_InterlockedExchangeAdd64((volatile __int64*)p, -(__int64)v);
    }
    static __inline uint64_t fp_atomic_read(uint64_t* p) {
        return (uint64_t)_InterlockedOr64((volatile __int64*)p, 0);
    }
    static __inline int fp_atomic_read_int(int* p) {
        return (int)_InterlockedOr((volatile long*)p, 0);
    }
    static __inline void fp_atomic_store(uint64_t* p, uint64_t v) {
        _InterlockedExchange64((volatile __int64*)p, (__int64)v);
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
    static inline uint64_t fp_atomic_sub(uint64_t* p, uint64_t v) {
        return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);
    }
    static inline uint64_t fp_atomic_read(uint64_t* p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    static inline int fp_atomic_read_int(int* p) {
        return __atomic_load_n(p, __ATOMIC_ACQUIRE);
    }
    static inline void fp_atomic_store(uint64_t* p, uint64_t v) {
        __atomic_store_n(p, v, __ATOMIC_RELEASE);
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

    /* The team's gate (a lock over the offer queue, and a condition that waiting threads
       sleep on), and the lockstep barrier: parties wait until every party has arrived or
       left; phase counts the releases. */
    #if defined(_WIN32)
    #include <windows.h>
    typedef SRWLOCK fp_mutex;
    typedef CONDITION_VARIABLE fp_cond;
    static void fp_mutex_init(fp_mutex* m) { InitializeSRWLock(m); }
    static void fp_mutex_lock(fp_mutex* m) { AcquireSRWLockExclusive(m); }
    static void fp_mutex_unlock(fp_mutex* m) { ReleaseSRWLockExclusive(m); }
    static void fp_mutex_destroy(fp_mutex* m) { (void)m; }
    static void fp_cond_init(fp_cond* c) { InitializeConditionVariable(c); }
    static void fp_cond_wait(fp_cond* c, fp_mutex* m) {
        SleepConditionVariableSRW(c, m, INFINITE, 0);
    }
    static void fp_cond_wait_ms(fp_cond* c, fp_mutex* m, int ms) {
        SleepConditionVariableSRW(c, m, (DWORD)ms, 0);
    }
    static void fp_cond_broadcast(fp_cond* c) { WakeAllConditionVariable(c); }
    static void fp_cond_signal(fp_cond* c) { WakeConditionVariable(c); }
    static void fp_cond_destroy(fp_cond* c) { (void)c; }
    #else
    #include <pthread.h>
    #include <time.h>
    typedef pthread_mutex_t fp_mutex;
    typedef pthread_cond_t fp_cond;
    static void fp_mutex_init(fp_mutex* m) { pthread_mutex_init(m, NULL); }
    static void fp_mutex_lock(fp_mutex* m) { pthread_mutex_lock(m); }
    static void fp_mutex_unlock(fp_mutex* m) { pthread_mutex_unlock(m); }
    static void fp_mutex_destroy(fp_mutex* m) { pthread_mutex_destroy(m); }
    static void fp_cond_init(fp_cond* c) { pthread_cond_init(c, NULL); }
    static void fp_cond_wait(fp_cond* c, fp_mutex* m) { pthread_cond_wait(c, m); }
    static void fp_cond_wait_ms(fp_cond* c, fp_mutex* m, int ms) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)ms * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
        }
        pthread_cond_timedwait(c, m, &until);
    }
    static void fp_cond_broadcast(fp_cond* c) { pthread_cond_broadcast(c); }
    static void fp_cond_signal(fp_cond* c) { pthread_cond_signal(c); }
    static void fp_cond_destroy(fp_cond* c) { pthread_cond_destroy(c); }
    #endif

    typedef struct {
        fp_mutex mutex;
        fp_cond ready;
    } fp_gate;

    static fp_gate* fp_gate_new(void) {
        fp_gate* g = (fp_gate*)malloc(sizeof(fp_gate));
        if (g) { fp_mutex_init(&g->mutex); fp_cond_init(&g->ready); }
        return g;
    }
    static void fp_gate_free(fp_gate* g) {
        if (g) { fp_cond_destroy(&g->ready); fp_mutex_destroy(&g->mutex); free(g); }
    }
    static void fp_gate_lock(fp_gate* g) { fp_mutex_lock(&g->mutex); }
    static void fp_gate_unlock(fp_gate* g) { fp_mutex_unlock(&g->mutex); }
    /* With the gate locked: sleep until woken or ms milliseconds have passed. */
    static void fp_gate_wait(fp_gate* g, int ms) { fp_cond_wait_ms(&g->ready, &g->mutex, ms); }
    static void fp_gate_wake(fp_gate* g) { fp_cond_broadcast(&g->ready); }
    /* One waiting thread, for one offer: waking them all (hundreds, on a few cores) to take
       it cost more than the search. */
    static void fp_gate_wake_one(fp_gate* g) { fp_cond_signal(&g->ready); }

    typedef struct {
        fp_mutex mutex;
        fp_cond turn;
        int parties;
        int arrived;
        uint64_t phase;
    } fp_barrier;

    static fp_barrier* fp_barrier_new(void) {
        fp_barrier* b = (fp_barrier*)malloc(sizeof(fp_barrier));
        if (b) {
            fp_mutex_init(&b->mutex);
            fp_cond_init(&b->turn);
            b->parties = b->arrived = 0;
            b->phase = 0;
        }
        return b;
    }
    static void fp_barrier_free(fp_barrier* b) {
        if (b) { fp_cond_destroy(&b->turn); fp_mutex_destroy(&b->mutex); free(b); }
    }
    static void fp_barrier_reset(fp_barrier* b, int parties) {
        /* Only while no party waits (between iterations). */
        fp_mutex_lock(&b->mutex);
        b->parties = parties;
        b->arrived = 0;
        b->phase = 0;
        fp_mutex_unlock(&b->mutex);
    }
    static void fp_barrier_release(fp_barrier* b) {
        b->arrived = 0;
        b->phase++;
        fp_cond_broadcast(&b->turn);
    }
    static void fp_barrier_wait(fp_barrier* b) {
        uint64_t phase;
        fp_mutex_lock(&b->mutex);
        phase = b->phase;
        if (++b->arrived >= b->parties) {
            fp_barrier_release(b);
        } else {
            while (b->phase == phase) fp_cond_wait(&b->turn, &b->mutex);
        }
        fp_mutex_unlock(&b->mutex);
    }
    static void fp_barrier_leave(fp_barrier* b) {
        fp_mutex_lock(&b->mutex);
        b->parties--;
        if (b->arrived > 0 && b->arrived >= b->parties) fp_barrier_release(b);
        fp_mutex_unlock(&b->mutex);
    }
    """
    ctypedef struct Gate "fp_gate":
        pass
    ctypedef struct Barrier "fp_barrier":
        pass
    Gate* gate_new "fp_gate_new"() noexcept nogil
    void gate_free "fp_gate_free"(Gate* g) noexcept nogil
    void gate_lock "fp_gate_lock"(Gate* g) noexcept nogil
    void gate_unlock "fp_gate_unlock"(Gate* g) noexcept nogil
    void gate_wait "fp_gate_wait"(Gate* g, int ms) noexcept nogil
    void gate_wake "fp_gate_wake"(Gate* g) noexcept nogil
    void gate_wake_one "fp_gate_wake_one"(Gate* g) noexcept nogil
    Barrier* barrier_new "fp_barrier_new"() noexcept nogil
    void barrier_free "fp_barrier_free"(Barrier* b) noexcept nogil
    void barrier_reset "fp_barrier_reset"(Barrier* b, int parties) noexcept nogil
    void barrier_wait "fp_barrier_wait"(Barrier* b) noexcept nogil
    void barrier_leave "fp_barrier_leave"(Barrier* b) noexcept nogil
    uint64_t atomic_add "fp_atomic_add"(uint64_t* p, uint64_t v) noexcept nogil
    uint64_t atomic_sub "fp_atomic_sub"(uint64_t* p, uint64_t v) noexcept nogil
    uint64_t atomic_read "fp_atomic_read"(uint64_t* p) noexcept nogil
    int atomic_read_int "fp_atomic_read_int"(int* p) noexcept nogil
    void atomic_store "fp_atomic_store"(uint64_t* p, uint64_t v) noexcept nogil
    bint atomic_claim "fp_atomic_claim"(int* p, int expected, int desired) noexcept nogil
    uint64_t atomic_take "fp_atomic_take"(uint64_t* p, uint64_t want) noexcept nogil

cdef enum:
    MIN_GRANT = 256
    HEAVY_CAPACITY = 1 << 15    # remembered units (see HeavySet), at most half of it
    # Member.trap while a donation is asked of the thread: its next child goes through
    # share_child (_team.pxi), whatever its depth.
    TRAP_ALL = 1 << 20

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
    # Work stealing, per iteration (see _team.pxi).
    uint64_t quantum            # pool threads poll every this many expansions; 0: never
    uint64_t share_after        # a unit running this long since it last gave, gives (0: never)
    int steal                   # 1: a busy thread gives work to idle ones at its polls
    int lockstep                # 1: every poll is a barrier (virtual cores)
    uint64_t waiting            # threads waiting for work
    uint64_t pending            # donations asked of busy threads, not made yet
    uint64_t working            # threads holding a unit (under the gate)
    uint64_t queued             # offers waiting in the queue (under the gate)
    uint64_t steals             # offers made this iteration (under the gate)
    Gate* gate                  # locks the offer queue, working, queued and steals
    Barrier* barrier            # lockstep only
    void* queue                 # the kernel's OfferQueue (_team.pxi)

cdef struct Member:
    Team* team                  # NULL: a serial search
    int main                    # 1: the calling thread (checks signals, reports progress)
    uint64_t flushed_expanded   # what this pool thread has added to the live counters
    uint64_t flushed_generated
    uint64_t grant_end          # the expansion count this thread's grant reaches
    # Work stealing (pool threads; see _team.pxi).
    uint64_t offset             # clock = expanded + offset (idle quanta, replayed ancestors)
    uint64_t gave_at            # expanded when the unit started or last gave work away
    uint64_t finish             # the clock when this thread last finished a unit
    int trap                    # a child shallower than this goes through share_child
    int floor                   # frames shallower stop after their current child (given away)
    int requested               # a donation is asked of this thread
    int replaying               # a guided unit is re-entering its ancestors (not flushed)
    int guide_level             # -1, or the level whose given children this unit searches
    int guide_after             # the giver's child there: the ones after it are given
    int guide_state             # 0: the level not reached, 1: reached, 2: past guide_after
    const uint8_t* guide        # the moves from the root to guide_level
    const void* unit            # the unit's root Node; NULL outside a unit
    int64_t origin              # the frontier unit its work counts for

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
    t.quantum = 0
    t.share_after = 0
    t.steal = 0
    t.lockstep = 0
    t.waiting = 0
    t.pending = 0
    t.working = 0
    t.queued = 0
    t.steals = 0
    t.gate = NULL
    t.barrier = NULL
    t.queue = NULL

cdef inline int team_stop(Team* t, int status) noexcept nogil:
    # The first reason to stop wins; returns the one in force. Never called with the gate held.
    if atomic_claim(&t.stop, STATUS_RUNNING, status):
        wake_waiting(t)
    return atomic_read_int(&t.stop)

cdef inline void wake_waiting(Team* t) noexcept nogil:
    # The threads waiting for work see the stop flag now rather than at the end of their wait.
    # Under the gate's lock, which a waiting thread holds from its look at the flag to its
    # sleep, so that none misses it; never called with the gate held.
    if t.gate != NULL:
        gate_lock(t.gate)
        gate_wake(t.gate)
        gate_unlock(t.gate)

cdef inline uint64_t clock_of(const Member* m, const SearchCounters* s) noexcept nogil:
    return s.expanded + m.offset

cdef inline void set_next_check(Member* m, Control* c, const SearchCounters* s) noexcept nogil:
    # The next checkpoint: the grant's end, or the next poll (a multiple of the quantum on the
    # thread's clock) when that comes first.
    cdef uint64_t q = m.team.quantum
    cdef uint64_t at = m.grant_end
    if q and not m.main:
        if s.expanded + q - clock_of(m, s) % q < at:
            at = s.expanded + q - clock_of(m, s) % q
    c.next_check = at

cdef inline bint refill(Member* m, Control* c, const SearchCounters* s) noexcept nogil:
    # A fresh grant of expansions up to the next checkpoint; False when the budget is spent.
    cdef Team* t = m.team
    cdef uint64_t grant = CHECK_INTERVAL
    if t.limited:
        grant = atomic_read(&t.budget) // (2 * t.threads)
        if grant > CHECK_INTERVAL:
            grant = CHECK_INTERVAL
        elif grant < MIN_GRANT:
            grant = MIN_GRANT
        grant = atomic_take(&t.budget, grant)
    m.grant_end = s.expanded + grant
    set_next_check(m, c, s)
    return grant != 0

cdef inline void give_back(Member* m, Control* c, const SearchCounters* s) noexcept nogil:
    # Returns the unspent part of a thread's grant when it has no more to do in this iteration.
    if m.team.limited and m.grant_end > s.expanded:
        atomic_add(&m.team.budget, m.grant_end - s.expanded)
    m.grant_end = s.expanded
    c.next_check = s.expanded

cdef inline void flush(Member* m, const SearchCounters* s) noexcept nogil:
    atomic_add(&m.team.live_expanded, s.expanded - m.flushed_expanded)
    atomic_add(&m.team.live_generated, s.generated - m.flushed_generated)
    m.flushed_expanded = s.expanded
    m.flushed_generated = s.generated

cdef inline int poll(Member* m, Control* c, SearchCounters* s) noexcept nogil:
    # A pool thread between checkpoints: the stop flag, the lockstep barrier, and requests for
    # work. In lockstep they are looked at only on the quantum (a barrier), so that every busy
    # thread sees the same requests whatever the machine's scheduling.
    cdef Team* t = m.team
    cdef int stop
    cdef bint on_quantum = t.quantum and clock_of(m, s) % t.quantum == 0
    if t.lockstep and on_quantum:
        barrier_wait(t.barrier)
    stop = atomic_read_int(&t.stop)
    if stop != STATUS_RUNNING:
        return stop
    if t.steal and m.unit != NULL and not m.requested and (on_quantum or not t.lockstep):
        # This thread gives work at its next child when more threads wait than offers are on
        # their way, or when its unit has run long and the queue is short: work early in the
        # serial order is then shared before later units are started (the goal is found
        # sooner), and no unit holds an iteration back.
        if (atomic_read(&t.waiting) > atomic_read(&t.queued) + atomic_read(&t.pending)
                or (t.share_after and s.expanded >= m.gave_at + t.share_after
                    and atomic_read(&t.queued) + atomic_read(&t.pending) < <uint64_t>t.threads)):
            atomic_add(&t.pending, 1)
            m.requested = 1
            m.trap = TRAP_ALL
    set_next_check(m, c, s)
    return STATUS_RUNNING

cdef inline int between_steps(Control* c) except -2 nogil:
    # The calling thread's look at the time limit and Ctrl-C between the steps of preparing an
    # iteration (its frontier's levels, its splits), which expand few nodes for much copying:
    # 256 threads' frontier took a second past a limit. STATUS_RUNNING, the time limit's status,
    # or -2 with a Python exception set.
    if c.time_limit > 0 and elapsed(c) >= c.time_limit:
        return STATUS_TIME_LIMIT
    with gil:
        if poll_interrupt() < 0:
            return -2
    return STATUS_RUNNING


cdef inline int team_checkpoint(Member* m, Control* c, SearchCounters* s) except -2 nogil:
    # The parallel checkpoint(): STATUS_RUNNING to go on, else the status that stops the team.
    # Only the calling thread takes the GIL (signals are delivered to the main thread alone).
    # A pool thread checks the limits when its grant is spent, and polls in between.
    cdef Team* t = m.team
    cdef int stop
    cdef double seconds
    if not m.main and s.expanded < m.grant_end:
        return poll(m, c, s)
    seconds = elapsed(c)
    if not m.main and not m.replaying:
        flush(m, s)
    stop = atomic_read_int(&t.stop)
    if stop != STATUS_RUNNING:
        return stop
    if c.time_limit > 0 and seconds >= c.time_limit:
        return team_stop(t, STATUS_TIME_LIMIT)
    if not refill(m, c, s):
        return team_stop(t, STATUS_NODE_LIMIT)
    if not m.main:
        return poll(m, c, s)
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
