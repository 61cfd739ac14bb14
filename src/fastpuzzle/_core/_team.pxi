# The iterations of IDA*, part of the engine text (_engine.pxi, which includes it and lists what
# a host defines): the serial iterative deepening (run_search, from the root's h and the
# kernel's descend), and the parallel iterations, where the calling thread collects a frontier
# and pool threads search its subtrees.
#
# Load balance follows the work: the pool threads take frontier nodes (the units of work) in
# order from a shared counter, and each unit's expansions are recorded. A unit that took more
# than 1 / (SPLIT_PER_WORKER * workers) of an iteration is remembered (HeavySet), and from the
# next iteration on it is split into its children before the pool starts, level after level
# while they are remembered too. IDA*'s subtrees keep their relative sizes from one bound to
# the next, so the split follows where the work is; the frontier keeps the serial search's
# order, and an iteration searched to its end counts exactly the serial search's nodes.
#
# Within an iteration, work moves to where threads are free. A busy pool thread polls every
# STEAL_QUANTUM expansions; when more threads wait for work than offers are on their way, or
# when its unit has run SHARE_AFTER expansions since it last gave, it gives away the untried
# children at the shallowest open level of its path: an offer holding its unit's root node and
# the moves down to that level. The giver stops before those children; a thread that finishes
# a unit takes the queued offer earliest in the serial order before the next frontier unit,
# re-enters the path from the root (guided: one child a level, the ancestors' counts taken
# back, they were the giver's) and searches the given children as the giver would have. Every
# node is still generated and expanded once, so an iteration searched to its end counts
# exactly the serial nodes with or without steals, and its work still counts for its frontier
# unit (the next iteration's splits follow it). The drivers' only part in it is skip_child(),
# called for each child; it does nothing outside the pool threads' Share mode, so the serial
# search and the frontier collection compile as before.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from fastpuzzle._core._control cimport checkpoint, elapsed, init_counters
from fastpuzzle._core._engine cimport FORBIDDEN, FOUND, SEARCHED, STOPPED, machine_next

from fastpuzzle._core._result cimport (
    STATUS_ABORTED,
    STATUS_DEPTH_LIMIT,
    STATUS_EXHAUSTED,
    STATUS_MEMORY_LIMIT,
    STATUS_NODE_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    core_result,
)
from fastpuzzle._core._team cimport (
    HEAVY_CAPACITY,
    HeavySet,
    Member,
    Team,
    atomic_add,
    atomic_claim,
    atomic_read,
    atomic_read_int,
    atomic_take,
    give_back,
    heavy_add,
    heavy_contains,
    init_team,
    refill,
    team_stop,
    atomic_store,
    between_steps,
    atomic_sub,
    barrier_free,
    barrier_leave,
    barrier_new,
    barrier_reset,
    barrier_wait,
    clock_of,
    gate_free,
    gate_lock,
    gate_new,
    gate_unlock,
    gate_wait,
    gate_wake,
    gate_wake_one,
    set_next_check,
    wake_waiting,
)

#: Pool threads look for idle ones every this many expansions and give them work (0: never;
#: then a unit is searched by the thread that took it, to its end). The poll is an atomic read;
#: a steal costs the taker the path from its unit's root (tens of nodes). A thread waits at
#: most this long for work while another has some.
STEAL_QUANTUM = 512

#: A unit that has run this many expansions since it started or last gave work away gives its
#: shallowest open level to the queue (0: only to threads that wait), and threads that finish a
#: unit take queued work before the next frontier unit. That shares the work early in the
#: serial order first, which is where the iteration that finds the goal ends.
SHARE_AFTER = 1024

cdef enum:
    # A waiting thread looks at the stop flag at least this often, though a stop (all), an
    # offer (one thread) and the last busy thread's end (all) wake waiting threads at once.
    # Waking every millisecond, 250 threads on two cores spent more time switching than
    # searching.
    IDLE_WAIT_MS = 20

cdef Share* SHARE = NULL


cdef struct Offer:
    # Work given away: the children of the node at ``level`` on the path from ``root`` (moves in
    # ``guide``) after the child moving ``after``, which the giver kept.
    Node root
    int64_t origin              # the frontier unit its work counts for
    uint64_t tag                # lockstep: the quantum it was made in (taken from the next on)
    int level
    int after
    uint8_t guide[MAX_PATH + 1]


cdef struct OfferQueue:
    # Offers in no order (see _take), under the team's lock.
    Offer* items
    size_t count
    size_t capacity


cdef inline bint skip_child(Search* s, int depth, int direction, Mode* mode) noexcept nogil:
    # Every driver calls this for each child the machine allows, before generating it: True to
    # skip it. Only the pool threads' Share mode does anything (the other modes compile to
    # nothing): it writes the path (what a thread gives away is found along it), and a child
    # shallower than the trap (levels given away, a guided unit's path, a donation asked) is
    # decided by share_child.
    if Mode is Share:
        s.path[depth] = direction
        if depth < s.member.trap:
            return share_child(s, depth, direction)
    return False


cdef bint share_child(Search* s, int depth, int direction) noexcept nogil:
    cdef Member* m = &s.member
    if depth <= m.guide_level:
        # A taken offer: one child a level down the giver's path, then the given children.
        if depth < m.guide_level:
            return direction != m.guide[depth]
        if m.guide_state == 0:
            arrive(s)
        if m.guide_state == 1:
            # The giver's children up to guide_after, that one included, are the giver's.
            if direction == m.guide_after:
                m.guide_state = 2
            return True
    if depth < m.floor:
        return True
    if m.requested:
        donate(s, depth, direction)
    return False


cdef void arrive(Search* s) noexcept nogil:
    # A guided unit reached the level of its given children. The ancestors it entered on the
    # way were expanded and generated by the giver: their counts are taken back, and their
    # expansions move to the clock (this thread did the work).
    cdef Member* m = &s.member
    cdef uint64_t again = m.guide_level - (<const Node*>m.unit).depth + 1
    s.counters.expanded -= again
    s.counters.generated -= again - 1
    s.control.next_check -= again
    m.offset += again
    m.gave_at = s.counters.expanded
    m.replaying = 0
    m.guide_state = 1


cdef void donate(Search* s, int depth, int direction) noexcept nogil:
    # Work was asked of this thread: offer the untried children at the shallowest open level of
    # its path, from its unit's root (levels shallower than m.floor have given theirs). The
    # frame at ``depth`` is about to try ``direction``, and keeps it (so that every unit
    # searches something however often it is asked: an offer never passes on whole).
    cdef Member* m = &s.member
    cdef const Node* root = <const Node*>m.unit
    cdef int level = root.depth, blank = root.blank, kept
    cdef int32_t state = root.state
    cdef bint given = False
    m.requested = 0
    while level <= depth:
        if level >= m.floor:
            kept = direction if level == depth else s.path[level]
            if has_untried(s, blank, state, kept):
                given = offer(s, level, kept)
                break
        if level < depth:
            state = machine_next(s.machine, state, s.path[level])
            blank = cell_after(s, blank, s.path[level])
        level += 1
    # Made, or nothing to give (or no memory for it): another busy thread gives at its next
    # poll while threads still wait.
    atomic_sub(&m.team.pending, 1)
    m.gave_at = s.counters.expanded
    if given:
        m.floor = level + 1
    m.trap = m.floor if m.floor > m.guide_level + 1 else m.guide_level + 1


cdef bint has_untried(const Search* s, int blank, int32_t state, int kept) noexcept nogil:
    # Whether the node with its blank at ``blank`` and the machine in ``state`` has a child the
    # machine allows after the one moving ``kept``, in the drivers' order.
    cdef int k
    cdef bint past = False
    for k in range(s.n_moves[blank]):
        if child_state(s, state, blank, k) == FORBIDDEN:
            continue
        if past:
            return True
        if s.move_dir[blank][k] == kept:
            past = True
    return False


cdef int cell_after(const Search* s, int blank, int direction) noexcept nogil:
    cdef int k
    for k in range(s.n_moves[blank]):
        if s.move_dir[blank][k] == direction:
            return s.move_cell[blank][k]
    return blank


cdef bint offer(Search* s, int level, int kept) noexcept nogil:
    # Queues the offer; False when the queue cannot grow.
    cdef Member* m = &s.member
    cdef Team* t = m.team
    cdef OfferQueue* q = <OfferQueue*>t.queue
    cdef Offer* o
    gate_lock(t.gate)
    o = queue_slot(q)
    if o != NULL:
        memcpy(&o.root, m.unit, sizeof(Node))
        memcpy(o.guide, s.path, level)
        o.origin = m.origin
        o.tag = clock_of(m, &s.counters) // t.quantum
        o.level = level
        o.after = kept
        t.steals += 1
        atomic_store(&t.queued, q.count)
        gate_wake_one(t.gate)
    gate_unlock(t.gate)
    return o != NULL


cdef Offer* queue_slot(OfferQueue* q) noexcept nogil:
    # A new slot in the queue (under the team's lock); NULL when it cannot grow.
    cdef Offer* grown
    cdef size_t capacity
    if q.count == q.capacity:
        capacity = 2 * q.capacity if q.capacity else 16
        grown = <Offer*>realloc(q.items, capacity * sizeof(Offer))
        if grown == NULL:
            return NULL
        q.items = grown
        q.capacity = capacity
    q.count += 1
    return &q.items[q.count - 1]


cdef inline bint earlier(const Offer* a, const Offer* b) noexcept nogil:
    # Whether a comes before b in the serial search's order, nearly: by frontier unit, and in
    # one unit the deeper first (a thread gives its shallowest open level first, then deeper
    # ones along its path, which come before it).
    return a.origin < b.origin or (a.origin == b.origin and a.level > b.level)


cdef int run_search(Search* s, const Node* root, int max_depth,
                    int64_t switch_after, int min_bound) except -2 nogil:
    # Iterative deepening on f from the root's h, or from min_bound when that is larger
    # (the caller knows there is no shorter solution). Returns the status; the path and
    # counters are in s. With switch_after >= 0, returns SWITCH (s.bound the next bound) before
    # an iteration expected to expand at least that many nodes (0: before the first): the last
    # iteration's expansions times their growth over the one before. Waiting for an iteration
    # that has expanded that many would leave it on this thread alone, and iterations grow
    # 5-15 times a step (an 80-move board: 416 K of its 5.4 M expansions ran serially so).
    cdef int r
    cdef uint64_t before = 0, last = 0, previous = 0
    cdef double expected
    s.bound = root.h
    if min_bound > s.bound:
        # Rounded down to the parity of every f (see below), so that a lower bound of the other
        # parity still starts at or below the optimal length.
        s.bound = min_bound - ((min_bound - s.bound) & 1)
    while True:
        if s.bound > max_depth:
            s.counters.depth = s.bound
            return STATUS_DEPTH_LIMIT
        if switch_after >= 0:
            expected = <double>last
            if previous > 0 and last > previous:
                expected *= <double>last / <double>previous
            if expected >= <double>switch_after:
                return SWITCH
        s.next_bound = INFINITE
        s.counters.iterations += 1
        s.counters.depth = s.bound
        before = s.counters.expanded
        s.study.solutions = 0
        r = descend_iteration(s, root)
        previous = last
        last = s.counters.expanded - before
        if s.study.trace != NULL and r != STOPPED:
            trace_iteration(s, s.bound, 1, r == FOUND)
        if r == FOUND or (r == SEARCHED and s.study.solutions):
            return STATUS_SOLVED
        if r == STOPPED:
            return s.status
        if s.next_bound >= INFINITE:
            return STATUS_EXHAUSTED
        # With Manhattan, linear conflict and the pattern databases (stored relative to
        # Manhattan) every f has the parity of the root's h, so this is a rise of at least 2.
        s.bound = s.next_bound


cdef object hand_over(Search* s, const Node* root, int workers, int max_depth, list keep,
                      units, runner, progress):
    # A _Team takes s (the caller's pointer must be cleared first) and runs what is left on
    # ``runner`` (fastpuzzle._solver.parallel's run_team, or run_units): another process's
    # units (fastpuzzle.distributed), else the shared iterations.
    cdef _Team team = _Team.__new__(_Team)
    team.adopt(s, root, workers, max_depth, keep)
    if units is not None:
        team.load_units(units[0], units[1])
    return runner(team, workers, progress)


cdef class _Team:
    """One parallel IDA*, past its serial iterations (driven by ``fastpuzzle._solver.parallel``).

    ``prepare()`` and ``finish()`` run in the calling thread, ``work(i)`` in pool thread ``i``;
    every field is written by the calling thread between iterations, except the ``Team`` atomics,
    each pool thread's own search, ``unit_work[i]`` (by the thread that took unit ``i``) and
    ``solver``/``solver_unit`` (by the thread that claimed the goal); all are read after the
    pool's tasks have ended.
    """

    cdef Search* s              # the calling thread's search (and the tables' one copy)
    cdef Search* members        # one search per pool thread
    cdef int workers
    cdef Team team
    cdef Node root
    cdef Collector frontier
    cdef Collector spare
    cdef size_t target
    cdef int max_depth
    cdef int status
    cdef int solver             # the pool thread whose path is the solution; -1: the caller's
    cdef int64_t solver_unit    # the unit in which it found the goal; -1: none (units())
    cdef bint shared            # pool threads searched the current iteration
    cdef list keep
    cdef uint64_t* unit_work    # expansions of each frontier node's subtree, this iteration
    cdef size_t unit_capacity
    cdef HeavySet heavy         # the boards of units that held a large share of an iteration
    cdef int base_cut           # the frontier never gets shallower than this
    cdef uint64_t split_per_worker
    cdef int spread             # the threads the frontier and its splits are sized for
    cdef OfferQueue queue       # work given away, not taken yet
    cdef Offer* taken           # one per pool thread: the offer it searches
    cdef uint64_t steal_quantum  # STEAL_QUANTUM when the team formed
    cdef uint64_t share_after  # SHARE_AFTER when the team formed
    cdef uint64_t lockstep_quantum  # 0: the pool threads run freely (see lockstep())
    cdef uint64_t solver_clock  # the solver's clock when it found the goal
    cdef bint pooled            # pool threads searched this iteration (not a cluster)

    def __dealloc__(self):
        free(self.s)
        free(self.members)
        free(self.frontier.nodes)
        free(self.spare.nodes)
        free(self.unit_work)
        free(self.heavy.keys)
        free(self.queue.items)
        free(self.taken)
        gate_free(self.team.gate)
        barrier_free(self.team.barrier)

    cdef int adopt(self, Search* s, const Node* root, int workers, int max_depth,
                   list keep) except -1:
        # Takes ownership of s, which run_search left at its next bound.
        self.s = s
        self.root = root[0]
        self.workers = workers
        self.max_depth = max_depth
        self.keep = keep
        self.status = STATUS_RUNNING
        self.solver = -1
        self.shared = False
        self.target = <size_t>workers * FRONTIER_PER_WORKER
        self.members = <Search*>malloc(workers * sizeof(Search))
        # Room for a level past the target (it grows when needed).
        self.frontier.capacity = self.spare.capacity = 4 * self.target + 64
        self.frontier.nodes = <Node*>malloc(self.frontier.capacity * sizeof(Node))
        self.spare.nodes = <Node*>malloc(self.spare.capacity * sizeof(Node))
        self.unit_capacity = self.frontier.capacity
        self.unit_work = <uint64_t*>calloc(self.unit_capacity, sizeof(uint64_t))
        self.heavy.mask = HEAVY_CAPACITY - 1
        self.heavy.count = 0
        self.heavy.keys = <uint64_t*>calloc(HEAVY_CAPACITY, sizeof(uint64_t))
        self.base_cut = 0
        self.split_per_worker = SPLIT_PER_WORKER
        self.spread = workers
        self.steal_quantum = STEAL_QUANTUM
        self.share_after = SHARE_AFTER
        self.lockstep_quantum = 0
        self.queue.items = NULL
        self.queue.count = self.queue.capacity = 0
        self.taken = <Offer*>malloc(workers * sizeof(Offer))
        # The serial grant is handed back: from here on every thread draws on one budget.
        init_team(&self.team, workers, s.control.node_limit, s.counters.expanded)
        self.team.gate = gate_new()
        self.team.queue = &self.queue
        if (self.members == NULL or self.frontier.nodes == NULL or self.spare.nodes == NULL
                or self.unit_work == NULL or self.heavy.keys == NULL or self.taken == NULL
                or self.team.gate == NULL):
            raise MemoryError()
        s.control.next_check = s.counters.expanded
        s.member.team = &self.team
        s.member.main = 1
        s.member.grant_end = s.counters.expanded
        s.member.unit = NULL
        s.member.replaying = 0
        s.member.guide_level = -1
        return 0

    def lockstep(self, uint64_t quantum):
        """Run the pool threads in lockstep from the next shared iteration on (0: freely).

        Each thread waits at a barrier whenever its clock (its expansions, plus the quanta it
        spent waiting for work, plus the nodes it re-entered to reach taken work) reaches a
        multiple of ``quantum``, so that the threads advance as on a machine of ``workers``
        cores whatever this machine has; ``balance()`` gives each iteration's span.
        """
        if quantum and self.team.barrier == NULL:
            self.team.barrier = barrier_new()
            if self.team.barrier == NULL:
                raise MemoryError()
        self.lockstep_quantum = quantum

    cdef int _prepare(self) except -2 nogil:
        # 1: the frontier is ready for the pool; 0: this iteration ended here (self.status set
        # if the search did, else the next bound is in s.next_bound).
        cdef Search* s = self.s
        cdef Collector swap
        cdef size_t i
        cdef int r = 0
        if s.bound > self.max_depth:
            s.counters.depth = s.bound
            self.status = STATUS_DEPTH_LIMIT
            return 0
        s.next_bound = INFINITE
        s.counters.iterations += 1
        s.counters.depth = s.bound
        give_back(&s.member, &s.control, &s.counters)
        if not refill(&s.member, &s.control, &s.counters):
            self.status = team_stop(&self.team, STATUS_NODE_LIMIT)
            return 0
        # Level by level from the root: each node of the frontier is expanded (Collect mode,
        # cut one level below it), in order, so the frontier keeps the serial search's order.
        # It reaches at least the last iteration's depth, where the remembered units are.
        self.frontier.nodes[0] = self.root
        self.frontier.count = 1
        self.frontier.cut = 0
        while ((self.frontier.count < self.target or self.frontier.cut < self.base_cut)
               and self.frontier.cut < MAX_CUT):
            self.spare.count = 0
            self.spare.cut = self.frontier.cut + 1
            s.collector = &self.spare
            for i in range(self.frontier.count):
                r = descend(s, &self.frontier.nodes[i], COLLECT)
                if r:
                    break
            s.collector = NULL
            if r == FOUND:
                s.counters.depth = s.bound
                self.status = STATUS_SOLVED
                return 0
            if r == STOPPED:
                self.status = s.status
                return 0
            swap = self.frontier
            self.frontier = self.spare
            self.spare = swap
            if self.frontier.count == 0:
                return 0
            r = between_steps(&s.control)
            if r != STATUS_RUNNING:
                self.status = team_stop(&self.team, r)
                return 0
        if self.frontier.cut > self.base_cut:
            self.base_cut = self.frontier.cut
        r = self._split()
        if r == FOUND:
            s.counters.depth = s.bound
            self.status = STATUS_SOLVED
            return 0
        if r == STOPPED:
            self.status = s.status
            return 0
        if self.frontier.count == 0:
            return 0
        if self._start_pool() < 0:
            return 0
        return 1

    cdef int _start_pool(self) noexcept nogil:
        # The frontier is ready: its unit counters are cleared and each pool thread's search
        # starts from the calling thread's at this bound. -1 (status set) out of memory.
        cdef Search* s = self.s
        cdef Search* m
        cdef Team* t = &self.team
        cdef int w
        if self.frontier.count > self.unit_capacity:
            free(self.unit_work)
            self.unit_capacity = self.frontier.capacity
            self.unit_work = <uint64_t*>calloc(self.unit_capacity, sizeof(uint64_t))
            if self.unit_work == NULL:
                self.unit_capacity = 0
                self.status = STATUS_MEMORY_LIMIT
                return -1
        memset(self.unit_work, 0, self.frontier.count * sizeof(uint64_t))
        # The pool threads search now: the calling thread's unspent grant goes to them.
        give_back(&s.member, &s.control, &s.counters)
        t.next_node = 0
        t.live_expanded = 0
        t.live_generated = 0
        t.lockstep = self.lockstep_quantum != 0
        t.quantum = self.lockstep_quantum if t.lockstep else self.steal_quantum
        t.steal = self.steal_quantum != 0
        t.share_after = self.share_after
        t.waiting = 0
        t.pending = 0
        t.working = self.workers
        t.queued = 0
        t.steals = 0
        self.queue.count = 0
        if t.lockstep:
            barrier_reset(t.barrier, self.workers)
        for w in range(self.workers):
            m = &self.members[w]
            memcpy(m, s, sizeof(Search))
            init_counters(&m.counters)
            m.counters.depth = s.bound
            m.next_bound = INFINITE
            m.status = STATUS_RUNNING
            m.member.main = 0
            m.member.flushed_expanded = 0
            m.member.flushed_generated = 0
            m.member.grant_end = 0
            m.member.offset = 0
            m.member.finish = 0
            m.member.unit = NULL
            m.member.requested = 0
            m.member.replaying = 0
            m.member.guide_level = -1
            m.control.next_check = 0
        self.solver_unit = -1
        self.solver_clock = 0
        self.shared = True
        self.pooled = False
        return 0

    cdef int _split(self) except -2 nogil:
        # The remembered units of the frontier become their children, in place (Collect mode,
        # cut one level below each), pass after pass while any is remembered. SEARCHED, or
        # descend's FOUND (a goal among the children) or STOPPED.
        cdef Search* s = self.s
        cdef Node* node
        cdef Node* slot
        cdef Collector swap
        cdef size_t i
        cdef int r
        cdef bint split
        if self.heavy.count == 0:
            return 0
        while True:
            split = False
            self.spare.count = 0
            s.collector = &self.spare
            for i in range(self.frontier.count):
                node = &self.frontier.nodes[i]
                if node.depth < MAX_CUT and heavy_contains(&self.heavy, node_key(s, node)):
                    self.spare.cut = node.depth + 1
                    r = descend(s, node, COLLECT)
                    if r:
                        s.collector = NULL
                        return r
                    split = True
                else:
                    slot = frontier_slot(s)
                    if slot == NULL:
                        s.collector = NULL
                        return STOPPED
                    memcpy(slot, node, sizeof(Node))
            s.collector = NULL
            swap = self.frontier
            self.frontier = self.spare
            self.spare = swap
            if not split:
                return 0
            r = between_steps(&s.control)
            if r != STATUS_RUNNING:
                s.status = r
                return 2

    cdef void _remember(self) noexcept nogil:
        # After an iteration searched to its end: the units that took a large share of it.
        cdef uint64_t total = 0, share
        cdef size_t i
        if self.split_per_worker == 0:
            return
        for i in range(self.frontier.count):
            total += self.unit_work[i]
        share = total // (<uint64_t>self.spread * self.split_per_worker)
        if share == 0:
            return
        for i in range(self.frontier.count):
            if self.unit_work[i] > share:
                heavy_add(&self.heavy, node_key(self.s, &self.frontier.nodes[i]))

    def prepare(self):
        """Start the next iteration; True when its frontier waits for the pool threads."""
        cdef int r
        if self.status != STATUS_RUNNING:
            return False
        with nogil:
            r = self._prepare()
        return r == 1

    cdef int _work(self, int index) except -2 nogil:
        cdef Search* m = &self.members[index]
        cdef Team* t = &self.team
        cdef uint64_t i
        cdef int r = 0
        if not refill(&m.member, &m.control, &m.counters):
            team_stop(t, STATUS_NODE_LIMIT)
            r = STOPPED
        while r == SEARCHED and atomic_read_int(&t.stop) == STATUS_RUNNING:
            # Work given away comes before the frontier's next unit (it is earlier in the
            # serial order).
            if atomic_read(&t.queued):
                gate_lock(t.gate)
                if self._take(m, index):
                    gate_unlock(t.gate)
                    r = self._search(m, index, &self.taken[index].root,
                                     self.taken[index].origin, &self.taken[index])
                    continue
                gate_unlock(t.gate)
            i = atomic_add(&t.next_node, 1)
            if i >= self.frontier.count:
                if t.steal:
                    r = self._idle(m, index)
                break
            r = self._search(m, index, &self.frontier.nodes[i], <int64_t>i, NULL)
        if t.lockstep:
            barrier_leave(t.barrier)
        give_back(&m.member, &m.control, &m.counters)
        return 0

    cdef bint _take(self, Search* m, int index) noexcept nogil:
        # Under the team's lock: the queued offer earliest in the serial order into
        # self.taken[index] (the iteration that finds the goal ends sooner when the threads
        # work where the serial search would), if there is one this thread may take. In
        # lockstep an offer is taken from the quantum after the one it was made in, so that
        # which offers a thread sees does not depend on the scheduling.
        cdef Team* t = &self.team
        cdef OfferQueue* q = &self.queue
        cdef uint64_t now = clock_of(&m.member, &m.counters) // t.quantum if t.lockstep else 0
        cdef size_t i, best = q.count
        for i in range(q.count):
            if t.lockstep and q.items[i].tag >= now:
                continue
            if best == q.count or earlier(&q.items[i], &q.items[best]):
                best = i
        if best == q.count:
            return False
        memcpy(&self.taken[index], &q.items[best], sizeof(Offer))
        q.count -= 1
        if best != q.count:
            memcpy(&q.items[best], &q.items[q.count], sizeof(Offer))
        atomic_store(&t.queued, q.count)
        return True

    cdef int _search(self, Search* m, int index, const Node* root, int64_t origin,
                     const Offer* taken) except -2 nogil:
        # One unit: a frontier node, or a taken offer (its root, guided to the given children).
        # descend's return code; the goal, when found, is claimed for this thread.
        cdef Member* b = &m.member
        cdef uint64_t before
        cdef int r
        b.unit = root
        b.origin = origin
        b.requested = 0
        b.gave_at = m.counters.expanded
        if taken != NULL:
            b.guide = &taken.guide[0]
            b.guide_level = taken.level
            b.guide_after = taken.after
            b.guide_state = 0
            b.floor = taken.level
            b.trap = taken.level + 1
            b.replaying = 1
        else:
            b.guide_level = -1
            b.floor = b.trap = root.depth
            b.replaying = 0
        set_next_check(b, &m.control, &m.counters)
        before = m.counters.expanded
        if self.team.steal:
            r = descend(m, root, SHARE)
        else:
            r = descend(m, root, DESCEND)
        b.unit = NULL
        b.guide_level = -1
        b.replaying = 0
        if b.requested:
            # Asked too late to give anything.
            b.requested = 0
            atomic_sub(&self.team.pending, 1)
        atomic_add(&self.unit_work[origin], m.counters.expanded - before)
        b.finish = clock_of(b, &m.counters)
        if r == FOUND and atomic_claim(&self.team.stop, STATUS_RUNNING, STATUS_SOLVED):
            # Every solution within this bound is optimal: the first one claimed is kept.
            self.solver = index
            self.solver_unit = origin
            self.solver_clock = b.finish
            wake_waiting(&self.team)
        return r

    cdef int _idle(self, Search* m, int index) except -2 nogil:
        # Out of frontier units: take offers until the queue is empty and no thread holds a
        # unit (none can offer any more), or the team stops. Counts as waiting meanwhile, and
        # sleeps until an offer comes (or, in lockstep, to the end of the quantum).
        cdef Team* t = &self.team
        cdef Offer* taken = &self.taken[index]
        cdef bint waits = False
        cdef int r = 0
        gate_lock(t.gate)
        self._release(t)
        while atomic_read_int(&t.stop) == STATUS_RUNNING:
            if self._take(m, index):
                atomic_store(&t.working, t.working + 1)
                gate_unlock(t.gate)
                if waits:
                    atomic_sub(&t.waiting, 1)
                    waits = False
                r = self._search(m, index, &taken.root, taken.origin, taken)
                gate_lock(t.gate)
                self._release(t)
                if r:
                    break
                continue
            if self.queue.count == 0 and t.working == 0:
                break
            if not waits:
                atomic_add(&t.waiting, 1)
                waits = True
            if t.lockstep:
                # Idle for the rest of this quantum: the clock moves to its end.
                gate_unlock(t.gate)
                m.member.offset += t.quantum - clock_of(&m.member, &m.counters) % t.quantum
                barrier_wait(t.barrier)
                gate_lock(t.gate)
            else:
                # Woken by an offer, the last busy thread or a stop (or after IDLE_WAIT_MS).
                gate_wait(t.gate, IDLE_WAIT_MS)
        gate_unlock(t.gate)
        if waits:
            atomic_sub(&t.waiting, 1)
        return r

    cdef void _release(self, Team* t) noexcept nogil:
        # Under the gate: this thread holds no unit any more; the last one wakes the waiting.
        atomic_store(&t.working, t.working - 1)
        if t.working == 0:
            gate_wake(t.gate)

    def work(self, int index):
        """Search frontier nodes until none is left or the team stops (a pool thread)."""
        self.pooled = True
        with nogil:
            self._work(index)

    def abort(self):
        """Stop every pool thread at its next checkpoint (the caller raised)."""
        team_stop(&self.team, STATUS_ABORTED)

    def units(self):
        """``(bound, work, solver)`` of the iteration the pool threads just searched: ``work``
        holds the expansions of each unit of work (frontier node) in the order they were handed
        out (partial for those stopped, 0 for those not reached), ``solver`` the unit in which
        the goal was found (-1: none); None when no pool thread searched. For measuring the
        balance (``fastpuzzle._solver.parallel.tracing``)."""
        cdef size_t i
        if not self.shared:
            return None
        return (self.s.bound, [self.unit_work[i] for i in range(self.frontier.count)],
                self.solver_unit)

    def balance(self):
        """``(span, steals)`` of the iteration the pool threads just searched: ``span`` the
        expansions on its critical path when they ran in lockstep (``lockstep()``): the clock
        of the thread that found the goal, else the latest clock at which a thread finished a
        unit; -1 when they ran freely. ``steals``: the offers one thread made another."""
        cdef uint64_t span = 0
        cdef int w
        if not self.shared:
            return None
        if not (self.team.lockstep and self.pooled):
            return -1, self.team.steals
        if self.solver_unit >= 0:
            span = self.solver_clock
        else:
            for w in range(self.workers):
                if self.members[w].member.finish > span:
                    span = self.members[w].member.finish
        return span, self.team.steals

    def frontier_units(self):
        """``(bound, nodes)``: the units the pool threads would search now (after ``prepare()``
        returned True), as raw bytes for another process of the same build
        (``load_units``) — a cluster searches them instead (``fastpuzzle.distributed``)."""
        cdef const char* raw = <const char*>self.frontier.nodes
        return self.s.bound, raw[:self.frontier.count * sizeof(Node)]

    def load_units(self, int bound, const unsigned char[::1] nodes not None):
        """Take another process's units (``frontier_units``) as this team's frontier at
        ``bound``, for the pool threads to search (``work``, then ``unit_results``)."""
        cdef Search* s = self.s
        cdef size_t count = nodes.shape[0] // sizeof(Node), i
        cdef Node* grown
        cdef const Node* node
        if count == 0 or nodes.shape[0] % sizeof(Node) or not 0 <= bound <= self.max_depth:
            raise ValueError("expected the nodes of frontier_units() and its bound")
        if count > self.frontier.capacity:
            grown = <Node*>realloc(self.frontier.nodes, count * sizeof(Node))
            if grown == NULL:
                raise MemoryError()
            self.frontier.nodes = grown
            self.frontier.capacity = count
        memcpy(self.frontier.nodes, &nodes[0], count * sizeof(Node))
        self.frontier.count = count
        for i in range(count):
            # A cheap check that the bytes are units of this build, board size and machine.
            node = &self.frontier.nodes[i]
            if not (0 <= node.depth <= MAX_CUT and 0 <= node.blank < MAX_CELLS
                    and 0 <= node.state < s.machine_states):
                self.frontier.count = 0
                raise ValueError("the units are not this kernel's frontier nodes")
        s.bound = bound
        s.next_bound = INFINITE
        s.counters.depth = bound
        if self._start_pool() < 0:
            raise MemoryError()

    def unit_results(self):
        """After the pool searched loaded units: ``(status, moves, expanded, generated,
        next_bound, work)``: status RUNNING when every unit was searched to its end (else what
        stopped them), moves the path when one reached the goal, work per unit as ``units()``."""
        cdef Search* s = self.s
        cdef Search* m
        cdef uint64_t expanded = 0, generated = 0
        cdef int w, next_bound = INFINITE, status = self.team.stop
        cdef size_t i
        for w in range(self.workers):
            m = &self.members[w]
            expanded += m.counters.expanded
            generated += m.counters.generated
            if m.next_bound < next_bound:
                next_bound = m.next_bound
        self.shared = False
        moves = ""
        if status == STATUS_SOLVED and self.solver >= 0:
            m = &self.members[self.solver]
            moves = "".join([DIRECTION_LETTERS[m.path[i]] for i in range(s.bound)])
        return (status, moves, expanded, generated, next_bound,
                [self.unit_work[i] for i in range(self.frontier.count)])

    def spread_over(self, int threads):
        """Size the next iterations' frontier and splits for ``threads`` threads (a cluster's)
        rather than this team's pool."""
        if threads < 1:
            raise ValueError(f"expected threads >= 1, got {threads}")
        self.spread = threads
        self.target = <size_t>threads * FRONTIER_PER_WORKER

    def stop_with(self, int status):
        """End the search with ``status`` (a limit that units searched elsewhere reached)."""
        team_stop(&self.team, status)

    def absorb(self, size_t first, list work, uint64_t expanded, uint64_t generated,
               int next_bound, str moves):
        """Count units searched elsewhere into this iteration (units ``first`` on, their
        ``work``; a path to the goal in ``moves`` ends the search, the first one kept)."""
        cdef Search* s = self.s
        cdef size_t i
        cdef int k
        if first + len(work) > self.frontier.count:
            raise ValueError("more units than the frontier holds")
        if moves and (len(moves) != s.bound or moves.strip(DIRECTION_LETTERS)):
            raise ValueError(f"expected a path of {s.bound} moves to the goal, got {moves!r}")
        for i in range(len(work)):
            self.unit_work[first + i] = work[i]
        self.team.done_expanded += expanded
        self.team.done_generated += generated
        if self.team.limited:
            # Those expansions were granted elsewhere: later local ones draw on what is left.
            atomic_take(&self.team.budget, expanded)
        if next_bound < s.next_bound:
            s.next_bound = next_bound
        if moves and atomic_claim(&self.team.stop, STATUS_RUNNING, STATUS_SOLVED):
            for k in range(s.bound):
                s.path[k] = DIRECTION_LETTERS.index(moves[k])
            self.solver = -1

    def finish(self):
        """End the iteration; True when the search is over."""
        cdef Search* s = self.s
        cdef Search* m
        cdef int w, stop
        if self.shared:
            self.shared = False
            for w in range(self.workers):
                m = &self.members[w]
                self.team.done_expanded += m.counters.expanded
                self.team.done_generated += m.counters.generated
                if m.next_bound < s.next_bound:
                    s.next_bound = m.next_bound
            self.team.live_expanded = 0
            self.team.live_generated = 0
            stop = self.team.stop
            if stop == STATUS_SOLVED:
                s.counters.depth = s.bound
            if stop != STATUS_RUNNING:
                self.status = stop
            else:
                self._remember()
        if self.status != STATUS_RUNNING:
            return True
        if s.next_bound >= INFINITE:
            self.status = STATUS_EXHAUSTED
            return True
        s.bound = s.next_bound
        return False

    def snapshot(self):
        """``(expanded, generated, seconds, bound)`` so far, over every thread."""
        cdef Search* s = self.s
        return (
            s.counters.expanded + self.team.done_expanded + atomic_read(&self.team.live_expanded),
            s.counters.generated + self.team.done_generated
            + atomic_read(&self.team.live_generated),
            elapsed(&s.control),
            s.bound,
        )

    def result(self):
        """The finished search's ``CoreResult``."""
        cdef Search* s = self.s
        cdef Search* solver = s if self.solver < 0 else &self.members[self.solver]
        cdef const uint8_t* path = &solver.path[0]
        cdef int i, status = self.status
        moves = "".join([DIRECTION_LETTERS[path[i]] for i in range(s.counters.depth)]
                        ) if status == STATUS_SOLVED else ""
        return core_result(
            status,
            moves,
            s.counters.expanded + self.team.done_expanded,
            s.counters.generated + self.team.done_generated,
            s.counters.depth + 1 if status == STATUS_SOLVED else s.bound + 1,
            (self.workers + 1) * sizeof(Search)
            + (self.frontier.capacity + self.spare.capacity) * sizeof(Node)
            + self.unit_capacity * sizeof(uint64_t) + (self.heavy.mask + 1) * sizeof(uint64_t)
            + (self.queue.capacity + self.workers) * sizeof(Offer),
            elapsed(&s.control),
            s.counters.depth,
            s.counters.iterations,
        )
