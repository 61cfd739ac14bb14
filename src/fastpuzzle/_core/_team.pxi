# The iterations of IDA*, included by _idastar.pyx and _wide_pdb.pyx: the serial iterative
# deepening (run_search, from the kernel's root_h and descend), and the parallel iterations,
# where the calling thread collects a frontier and pool threads search its subtrees. It is
# compiled once in each module over that module's own Search, Node, root_h, descend and
# node_key (a cdef class cannot be shared across modules without calls through pointers), so
# both kernels run one text.
#
# Load balance follows the work: the pool threads take frontier nodes (the units of work) in
# order from a shared counter, and each unit's expansions are recorded. A unit that took more
# than 1 / (SPLIT_PER_WORKER * workers) of an iteration is remembered (HeavySet), and from the
# next iteration on it is split into its children before the pool starts, level after level
# while they are remembered too. IDA*'s subtrees keep their relative sizes from one bound to
# the next, so the split follows where the work is; the frontier keeps the serial search's
# order, and an iteration searched to its end counts exactly the serial search's nodes.

cdef int run_search(Search* s, const Node* root, int max_depth,
                    int64_t switch_after, int min_bound) except -2 nogil:
    # Iterative deepening on f from the kernel's root_h, or from min_bound when that is larger
    # (the caller knows there is no shorter solution). Returns the status; the path and
    # counters are in s. With switch_after >= 0, returns SWITCH (s.bound the next bound) before
    # an iteration expected to expand at least that many nodes (0: before the first): the last
    # iteration's expansions times their growth over the one before. Waiting for an iteration
    # that has expanded that many would leave it on this thread alone, and iterations grow
    # 5-15 times a step (an 80-move board: 416 K of its 5.4 M expansions ran serially so).
    cdef int r
    cdef uint64_t before = 0, last = 0, previous = 0
    cdef double expected
    s.bound = root_h(s, root)
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
        r = descend(s, root, DESCEND)
        previous = last
        last = s.counters.expanded - before
        if r == 1:
            return STATUS_SOLVED
        if r == 2:
            return s.status
        if s.next_bound >= INFINITE:
            return STATUS_EXHAUSTED
        # With Manhattan, linear conflict and the pattern databases (stored relative to
        # Manhattan) every f has the parity of the root's h, so this is a rise of at least 2.
        s.bound = s.next_bound


cdef object hand_over(Search* s, const Node* root, int workers, int max_depth, list keep,
                      units, runner, progress):
    # A _Team takes s (the caller's pointer must be cleared first) and runs what is left:
    # another process's units (fastpuzzle.distributed), else the shared iterations, on
    # ``runner`` or fastpuzzle._parallel.run_team.
    cdef _Team team = _Team.__new__(_Team)
    team.adopt(s, root, workers, max_depth, keep)
    if units is not None:
        from fastpuzzle._parallel import run_units

        team.load_units(units[0], units[1])
        return run_units(team, workers, progress)
    if runner is None:
        from fastpuzzle._parallel import run_team

        runner = run_team
    return runner(team, workers, progress)


cdef Node* frontier_slot(Search* s) noexcept nogil:
    # Collect mode: the next free node of the frontier being collected, its array doubled when
    # full; NULL (s.status set to the memory limit) when it cannot grow.
    cdef Collector* c = s.collector
    cdef Node* grown
    if c.count == c.capacity:
        grown = <Node*>realloc(c.nodes, 2 * c.capacity * sizeof(Node))
        if grown == NULL:
            s.status = STATUS_MEMORY_LIMIT
            return NULL
        c.nodes = grown
        c.capacity *= 2
    c.count += 1
    return &c.nodes[c.count - 1]


cdef class _Team:
    """One parallel IDA*, past its serial iterations (driven by ``fastpuzzle._parallel``).

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

    def __dealloc__(self):
        free(self.s)
        free(self.members)
        free(self.frontier.nodes)
        free(self.spare.nodes)
        free(self.unit_work)
        free(self.heavy.keys)

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
        if (self.members == NULL or self.frontier.nodes == NULL or self.spare.nodes == NULL
                or self.unit_work == NULL or self.heavy.keys == NULL):
            raise MemoryError()
        # The serial grant is handed back: from here on every thread draws on one budget.
        init_team(&self.team, workers, s.control.node_limit, s.counters.expanded)
        s.control.next_check = s.counters.expanded
        s.member.team = &self.team
        s.member.main = 1
        return 0

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
        give_back(&self.team, &s.control, &s.counters)
        if not refill(&self.team, &s.control, &s.counters):
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
                load_node(s, &self.frontier.nodes[i])
                r = descend(s, &self.frontier.nodes[i], COLLECT)
                if r:
                    break
            s.collector = NULL
            if r == 1:
                s.counters.depth = s.bound
                self.status = STATUS_SOLVED
                return 0
            if r == 2:
                self.status = s.status
                return 0
            swap = self.frontier
            self.frontier = self.spare
            self.spare = swap
            if self.frontier.count == 0:
                return 0
        if self.frontier.cut > self.base_cut:
            self.base_cut = self.frontier.cut
        r = self._split()
        if r == 1:
            s.counters.depth = s.bound
            self.status = STATUS_SOLVED
            return 0
        if r == 2:
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
        give_back(&self.team, &s.control, &s.counters)
        self.team.next_node = 0
        self.team.live_expanded = 0
        self.team.live_generated = 0
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
            m.control.next_check = 0
        self.solver_unit = -1
        self.shared = True
        return 0

    cdef int _split(self) except -2 nogil:
        # The remembered units of the frontier become their children, in place (Collect mode,
        # cut one level below each), pass after pass while any is remembered. 0, or descend's
        # 1 (a goal among the children) or 2 (stopped).
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
                    load_node(s, node)
                    r = descend(s, node, COLLECT)
                    if r:
                        s.collector = NULL
                        return r
                    split = True
                else:
                    slot = frontier_slot(s)
                    if slot == NULL:
                        s.collector = NULL
                        return 2
                    memcpy(slot, node, sizeof(Node))
            s.collector = NULL
            swap = self.frontier
            self.frontier = self.spare
            self.spare = swap
            if not split:
                return 0

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
        cdef uint64_t i, before
        cdef int r
        if not refill(&self.team, &m.control, &m.counters):
            team_stop(&self.team, STATUS_NODE_LIMIT)
            return 0
        while atomic_read_int(&self.team.stop) == STATUS_RUNNING:
            i = atomic_add(&self.team.next_node, 1)
            if i >= self.frontier.count:
                break
            load_node(m, &self.frontier.nodes[i])
            before = m.counters.expanded
            r = descend(m, &self.frontier.nodes[i], DESCEND)
            self.unit_work[i] = m.counters.expanded - before
            if r == 1:
                # Every solution within this bound is optimal: the first one claimed is kept.
                if atomic_claim(&self.team.stop, STATUS_RUNNING, STATUS_SOLVED):
                    self.solver = index
                    self.solver_unit = <int64_t>i
                break
            if r == 2:
                break
        give_back(&self.team, &m.control, &m.counters)
        return 0

    def work(self, int index):
        """Search frontier nodes until none is left or the team stops (a pool thread)."""
        with nogil:
            self._work(index)

    def abort(self):
        """Stop every pool thread at its next checkpoint (the caller raised)."""
        team_stop(&self.team, STOP_ABORTED)

    def units(self):
        """``(bound, work, solver)`` of the iteration the pool threads just searched: ``work``
        holds the expansions of each unit of work (frontier node) in the order they were handed
        out (partial for those stopped, 0 for those not reached), ``solver`` the unit in which
        the goal was found (-1: none); None when no pool thread searched. For measuring the
        balance (``fastpuzzle._parallel.tracing``)."""
        cdef size_t i
        if not self.shared:
            return None
        return (self.s.bound, [self.unit_work[i] for i in range(self.frontier.count)],
                self.solver_unit)

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
            # A cheap check that the bytes are units of this build and board size.
            node = &self.frontier.nodes[i]
            if not (0 <= node.depth <= MAX_CUT and 0 <= node.blank < MAX_CELLS):
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
            + self.unit_capacity * sizeof(uint64_t) + (self.heavy.mask + 1) * sizeof(uint64_t),
            elapsed(&s.control),
            s.counters.depth,
            s.counters.iterations,
        )
