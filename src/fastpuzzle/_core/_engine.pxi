# The IDA* engine: the one text of the search that both IDA* kernels with threads run,
# _idastar.pyx (packed boards, up to 16 cells) and _wide_pdb.pyx (a byte a cell, 17 to 25
# cells). Each kernel includes it once, after its Node and its heuristics' fused type, and
# compiles it over its own types (a cdef class or function cimported from another module is a
# call through a pointer). It holds the drivers' modes, the one node driver (expand), the
# frontier's collector and, through _team.pxi, the iterations: serial iterative deepening and the
# parallel ones with work stealing. _engine.pxd holds the return codes, the child order and the
# duplicate-pruning machine's step, which _wide_idastar.pyx shares too.
#
# A host defines:
#   enum MAX_PATH, MAX_CUT, MAX_CELLS       the longest path, the deepest frontier, the cells
#   ctypedef BoardWord                      the board argument of the drivers (packed: the board;
#                                           wide: unused, s holds the board)
#   struct Node                             a frontier node, with at least
#       int blank, int depth                    where its subtree starts
#       int32_t state                           the machine's state there
#       int h                                   its h (what its f is judged by)
#       uint8_t path[MAX_CUT]                   the moves from the root
#   struct Search                           one thread's search, with at least
#       int bound, int next_bound, int status
#       uint8_t path[MAX_PATH + 1]              the moves to the node being searched
#       SearchCounters counters, Control control
#       Member member, Collector* collector     the team, and where Collect mode puts nodes
#       const int32_t* machine                  the duplicate-pruning machine (_fsm.pyx)
#       int dual                                1: dual lookups (dfs_dual; no A*+IDA*)
#       Study study                             what a study asks of the iterations (below)
#       int32_t machine_states                  and its count of states (machine_states)
#       int n_moves[MAX_CELLS]                  per cell, the blank's moves in child order:
#       int move_cell[MAX_CELLS][4]             the cell it reaches
#       int move_dir[MAX_CELLS][4]              and the direction
#   ctypedef fused Heuristic                one struct per heuristic: a node's value (what its
#                                           children's h follow from) and the scratch of its
#                                           children (look_ahead), and how the node's move from
#                                           its parent is undone (enter_child)
#   and these inline functions, fused over Heuristic (``H*``: one of its structs):
#   int h_value(const Search* s, const H* v)            the node's h
#   int goal_value(const Search* s, const H* v)         0 exactly on the goal
#   void look_ahead(Search* s, BoardWord board, int blank, int depth, int32_t state, H* v)
#                                           before the children are tried (prefetches)
#   int child_f(Search* s, BoardWord board, int blank, int cell, int tile, int k, int depth,
#               H* v, H* child)             child k's f (the tile on ``cell`` slides into
#                                           ``blank``) and value, without changing s; a value
#                                           over the bound and not below s.next_bound may be
#                                           left short (the child is cut whatever the rest says)
#   void enter_child(Search* s, int blank, int cell, int tile, int k, H* v, H* child)
#   void leave_child(Search* s, int blank, int cell, int tile, int k, H* v, H* child)
#                                           s's incremental state into the child, and back
#   void save_value(const Search* s, Node* node, const H* v)
#   void load_value(Search* s, const Node* node, H* v)
#                                           a frontier node's value and s's incremental state
#   int tile_on(const Search* s, BoardWord board, int cell)
#   BoardWord moved_board(Search* s, BoardWord board, int blank, int cell, int tile)
#   void unmove_board(Search* s, int blank, int cell, int tile)
#                                           the board once the tile on cell slides into the
#                                           blank, and back (wide: s's cells change)
#   void save_board(const Search* s, Node* node, BoardWord board)
#   BoardWord load_board(Search* s, const Node* node)
#   int descend(Search* s, const Node* node, Mode* mode) except -2 nogil
#                                           the node's search (search_node with its heuristic,
#                                           or a driver of its own: _dual.pxi's)
#   uint64_t node_key(const Search* s, const Node* node) noexcept nogil
#                                           a key of the node's board (remembered heavy units)
#   int board_bytes(const Search* s, const Node* node, uint8_t* out) noexcept nogil
#                                           the node's board as at most BOARD_BYTES bytes (how
#                                           many it wrote): A*+IDA* tells boards apart by them
#   bint node_from_board(Search* s, Node* node, const uint8_t* board, int blank) noexcept nogil
#                                           a node (depth 0, its value from scratch) of a board
#                                           board_bytes wrote, or False where the host cannot
#                                           (A*+IDA* then re-enters it from the root)
#
# Every driver tries the children of a node in the order of s.move_dir (D, R, L, U, see
# child_direction), skips a child the machine forbids, calls skip_child() for the others (work
# stealing) and counts each child it does not skip as generated, once, whether or not its f is
# within the bound. A node is expanded (counted, its children tried) only within the bound and
# short of the goal; expand() judges each child before it goes down, so a child cut by the bound
# costs no call.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport realloc

from fastpuzzle._core._control cimport checkpoint, elapsed
from fastpuzzle._core._result cimport (
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    core_result,
)
from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_R, DIR_U, NO_CELL, move_letters
from fastpuzzle._core._team cimport team_checkpoint
from fastpuzzle._core._engine cimport (
    FORBIDDEN,
    FOUND,
    MACHINE_START,
    OVER_BOUND,
    SEARCHED,
    STOPPED,
    child_direction,
    machine_next,
    machine_states,
    machine_table,
)

cdef enum:
    INFINITE = 1 << 30
    SWITCH = -3             # run_search: go on with threads from s.bound

#: With several workers, the iterations expected to expand at least this many nodes (the last
#: one's expansions times their growth over the one before) are shared among threads (0: every
#: iteration). Starting the threads and collecting a frontier costs more than a small iteration
#: saves (the figures: docs/performance.rst, "Where the constants come from").
PARALLEL_FROM = 1 << 15

#: Frontier nodes per thread in a shared iteration. Subtree sizes vary by orders of magnitude,
#: but threads that run out take work from busy ones (see _team.pxi), so a few nodes a thread
#: suffice; the calling thread collects them alone. Fewer or more gave no better speed-up on
#: virtual cores (docs/performance.rst, "Where the constants come from").
FRONTIER_PER_WORKER = 32

#: A unit of work (frontier node) that took more than 1 / (SPLIT_PER_WORKER * threads) of a
#: shared iteration is split into its children in the next ones (0: never), so that on P threads
#: no unit holds more than 1/64 of one thread's share when the work keeps its place from one
#: bound to the next. See _team.pxi; the speed-ups each value gave are in docs/performance.rst,
#: "Where the constants come from".
SPLIT_PER_WORKER = 64

#: The next bound of an iteration (or of units) with no f over its bound: nothing left to search.
NO_BOUND = INFINITE

#: The letter of each direction code (U=0, D=1, L=2, R=3): the moves a kernel returns.
DIRECTION_LETTERS = move_letters()[:4].decode("ascii")

# The drivers are compiled three times (a fused type on a dummy pointer): ``Descend`` searches
# as always; ``Share`` is the pool threads' search, which gives work to idle threads
# (skip_child, _team.pxi); ``Collect`` stops at s.collector.cut and adds the nodes it reaches
# there to the frontier, writing the path on the way down. The serial search runs the
# ``Descend`` copy, which has no trace of either.
cdef struct Descend:
    char unused

cdef struct Share:
    char unused

cdef struct Collect:
    char unused

ctypedef fused Mode:
    Descend
    Share
    Collect

cdef Descend* DESCEND = NULL
cdef Collect* COLLECT = NULL


cdef struct Collector:
    # The frontier being collected (Collect mode): nodes at depth ``cut``. With ``guided`` > 0
    # only the path ``guide`` is followed down to that depth (A*+IDA* re-enters a stored node
    # so, _hybrid.pxi); with ``keep_goals`` a goal at the cut is collected like any node.
    Node* nodes
    size_t count
    size_t capacity
    int cut
    int guided
    const uint8_t* guide
    int keep_goals


cdef struct Study:
    # What a study asks of the iterations (benchmarks/studies; all 0 for a search): with
    # ``complete``, the serial iteration that reaches the goal goes on to its end, a goal being
    # a leaf (``solutions`` counts them; the first one's counters are kept); ``trace``, a
    # borrowed list or NULL, gets one tuple per iteration (see run_search).
    int complete
    uint64_t solutions
    uint64_t first_expanded
    uint64_t first_generated
    void* trace


cdef void init_moves(Search* s, int rows, int cols) noexcept nogil:
    # Per cell, the blank's moves in child order: the cell reached and the direction.
    cdef int cell, k, d, target, cells = rows * cols
    for cell in range(cells):
        s.n_moves[cell] = 0
        for k in range(4):
            d = child_direction(k)
            target = NO_CELL
            if d == DIR_U and cell >= cols:
                target = cell - cols
            elif d == DIR_D and cell + cols < cells:
                target = cell + cols
            elif d == DIR_L and cell % cols != 0:
                target = cell - 1
            elif d == DIR_R and cell % cols != cols - 1:
                target = cell + 1
            if target != NO_CELL:
                s.move_cell[cell][s.n_moves[cell]] = target
                s.move_dir[cell][s.n_moves[cell]] = d
                s.n_moves[cell] += 1


cdef inline int32_t child_state(const Search* s, int32_t state, int blank,
                                int k) noexcept nogil:
    # The machine's state in the node's k-th child, or FORBIDDEN.
    return machine_next(s.machine, state, s.move_dir[blank][k])


cdef inline int judge(Search* s, int goal_h, int f) noexcept nogil:
    # Whether a node is to be expanded: SEARCHED, FOUND when it is the goal (goal_h, a
    # heuristic that is 0 exactly there), OVER_BOUND when f is over the bound (lowering the next
    # bound).
    if f > s.bound:
        if f < s.next_bound:
            s.next_bound = f
        return OVER_BOUND
    if goal_h == 0:
        return FOUND
    return SEARCHED


cdef int check(Search* s) except -2 nogil:
    # The checkpoint of a search that has expanded s.control.next_check nodes: SEARCHED to go
    # on, STOPPED at a limit or when the team stops (s.status set).
    cdef int status
    if s.member.team == NULL:
        status = checkpoint(&s.control, &s.counters, sizeof(Search))
    else:
        status = team_checkpoint(&s.member, &s.control, &s.counters)
    if status != STATUS_RUNNING:
        s.status = status
        return STOPPED
    return SEARCHED


cdef inline int count_expansion(Search* s) except -2 nogil:
    # A node is expanded: counted, and the limits looked at every so often.
    s.counters.expanded += 1
    if s.counters.expanded >= s.control.next_check:
        return check(s)
    return SEARCHED


cdef inline int enter(Search* s, int goal_h, int f) except -2 nogil:
    # The prologue of a driver that judges a node itself (dfs_dual): judge(), then the
    # expansion counted. SEARCHED to expand the node, FOUND, OVER_BOUND or STOPPED.
    cdef int r = judge(s, goal_h, f)
    if r != SEARCHED:
        return r
    return count_expansion(s)


cdef int expand(Search* s, BoardWord board, int blank, int depth, Heuristic* v, int32_t state,
                Mode* mode) except -2 nogil:
    # The node driver: expands a node within the bound and short of the goal (its value v, the
    # machine's state), trying its children as the engine's header says. Returns a code of
    # _engine.pxd; the path is written on the way back from the goal.
    cdef Heuristic child
    cdef int r, i, k, n, cell, tile, f, direction
    cdef int ranked[4]
    cdef int32_t next_state
    cdef bint ordered = depth < s.order
    r = count_expansion(s)
    if r != SEARCHED:
        return r
    look_ahead(s, board, blank, depth, state, v)
    n = s.n_moves[blank]
    if ordered:
        n = rank_children(s, board, blank, depth, v, state, ranked)
    for i in range(n):
        k = ranked[i] if ordered else i
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        direction = s.move_dir[blank][k]
        if skip_child(s, depth, direction, mode):
            continue
        if Mode is Collect:
            if depth < s.collector.guided and direction != s.collector.guide[depth]:
                continue
        cell = s.move_cell[blank][k]
        tile = tile_on(s, board, cell)
        s.counters.generated += 1
        f = child_f(s, board, blank, cell, tile, k, depth, v, &child)
        if f > s.bound:
            if f < s.next_bound:
                s.next_bound = f
            continue
        if goal_value(s, &child) == 0:
            if Mode is Collect:
                # A study's complete iteration runs in this copy (descend_iteration), so that
                # the Descend copy's goal stays an exit: a goal that may be passed over costs
                # the node loop instructions at every node, not only at goals.
                if s.study.complete:
                    note_solution(s)
                    continue
                # A*+IDA*'s open list holds a goal until it is the best node.
                if not (s.collector.keep_goals and depth + 1 == s.collector.cut):
                    s.path[depth] = direction
                    return FOUND
            else:
                s.path[depth] = direction
                return FOUND
        enter_child(s, blank, cell, tile, k, v, &child)
        if Mode is Collect:
            s.path[depth] = direction
            if depth + 1 == s.collector.cut:
                r = collect(s, moved_board(s, board, blank, cell, tile), cell, depth + 1, &child,
                            next_state)
            else:
                r = expand(s, moved_board(s, board, blank, cell, tile), cell, depth + 1, &child,
                           next_state, mode)
        else:
            r = expand(s, moved_board(s, board, blank, cell, tile), cell, depth + 1, &child,
                       next_state, mode)
        unmove_board(s, blank, cell, tile)
        leave_child(s, blank, cell, tile, k, v, &child)
        if r:
            s.path[depth] = direction
            return r
    return SEARCHED


cdef int rank_children(Search* s, BoardWord board, int blank, int depth, Heuristic* v,
                       int32_t state, int* ranked) noexcept nogil:
    # The order= option (s.order, one thread: a team's giver tells its untried children by the
    # fixed order, has_untried): the children the machine allows, those within the bound by
    # increasing f (smallest h first), then the cut ones, ties in the fixed order, into
    # ``ranked``; returns how many. Each f is found again as the child is tried (its entries
    # in cache by then).
    cdef Heuristic child
    cdef int key[4]
    cdef int n = 0, j, k, cell, f
    for k in range(s.n_moves[blank]):
        if child_state(s, state, blank, k) == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        f = child_f(s, board, blank, cell, tile_on(s, board, cell), k, depth, v, &child)
        key[k] = f if f <= s.bound else INFINITE
        j = n
        while j > 0 and key[ranked[j - 1]] > key[k]:
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = k
        n += 1
    return n


cdef int descend_iteration(Search* s, const Node* node) except -2 nogil:
    # One iteration's descent from ``node`` as the serial search and A*+IDA* make it: the
    # Descend copy, or for a study's complete iteration the Collect copy with a cut it never
    # reaches (goals counted and passed over there; see expand).
    cdef Collector never
    cdef Collector* kept
    cdef int r
    if not s.study.complete:
        return descend(s, node, DESCEND)
    never.nodes = NULL
    never.count = 0
    never.capacity = 0
    never.cut = -1
    never.guided = 0
    never.guide = NULL
    never.keep_goals = 0
    kept = s.collector
    s.collector = &never
    r = descend(s, node, COLLECT)
    s.collector = kept
    return r


cdef void note_solution(Search* s) noexcept nogil:
    # A complete iteration (Study) reached the goal: counted, and the first one's counters kept.
    if s.study.solutions == 0:
        s.study.first_expanded = s.counters.expanded
        s.study.first_generated = s.counters.generated
    s.study.solutions += 1


cdef int collect(Search* s, BoardWord board, int blank, int depth, const Heuristic* v,
                 int32_t state) noexcept nogil:
    # Collect mode at the cut: the node (within the bound, short of the goal) joins the frontier
    # instead of being expanded (the thread that searches it counts its expansion). SEARCHED, or
    # STOPPED when the frontier cannot grow.
    cdef Node* node = frontier_slot(s)
    cdef int i
    if node == NULL:
        return STOPPED
    node.blank = blank
    node.depth = depth
    node.state = state
    node.h = h_value(s, v)
    for i in range(depth):
        node.path[i] = s.path[i]
    save_board(s, node, board)
    save_value(s, node, v)
    return SEARCHED


cdef int search_node(Search* s, const Node* node, Heuristic* kind, Mode* mode) except -2 nogil:
    # descend() with the node's heuristic (``kind``: a NULL pointer of its struct): s takes the
    # node's path, board and state, and the node is judged and expanded.
    cdef Heuristic v
    cdef BoardWord board
    cdef int i, r
    for i in range(node.depth):
        s.path[i] = node.path[i]
    board = load_board(s, node)
    load_value(s, node, &v)
    r = judge(s, goal_value(s, &v), node.depth + h_value(s, &v))
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    return expand(s, board, node.blank, node.depth, &v, node.state, mode)


cdef void save_root(Search* s, Node* root, BoardWord board, int blank,
                    const Heuristic* v) noexcept nogil:
    # The search's start as a node (depth 0, the machine's start), s's incremental state its.
    root.blank = blank
    root.depth = 0
    root.state = MACHINE_START
    root.h = h_value(s, v)
    save_board(s, root, board)
    save_value(s, root, v)


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


cdef object run_entry(Search** owner, Node* root, int workers, int max_depth, list keep,
                      units, runner, progress, int min_bound, uint64_t frontier=0,
                      bint complete=False, list trace=None):
    # The tail of a kernel's Python entry, once its search and root are set up: the serial
    # iterations, then (with threads or a cluster) the shared ones, or only another process's
    # units; with ``frontier`` > 0, A*+IDA* storing at most that many nodes (_hybrid.pxi).
    # ``complete`` and ``trace``: a study's (see Study). Returns the CoreResult (or the units'
    # results); a team that takes the search takes *owner too (set to NULL, so that the entry's
    # ``finally`` does not free it).
    cdef Search* s = owner[0]
    cdef int64_t switch_after
    cdef uint64_t stored = 0
    cdef int status, i
    cdef bint one_thread
    if runner is None and (workers > 1 or units is not None):
        # The core never imports the layer above it: the caller hands its threads' runner in.
        raise ValueError("a search on several threads, or of units, needs its runner: "
                         "fastpuzzle._solver.parallel.run_team (run_units for units)")
    one_thread = frontier or complete or trace is not None or s.order
    if one_thread and (runner is not None or workers > 1):
        raise ValueError("A*+IDA* (frontier=), order= and a study's complete= and trace= run "
                         "on one thread, without a runner")
    if frontier and s.dual:
        raise ValueError("A*+IDA* (frontier=) needs a consistent heuristic: not dual lookups")
    s.study.complete = complete
    s.study.solutions = 0
    s.study.trace = NULL if trace is None else <void*>trace
    if frontier:
        with nogil:
            status = run_hybrid(s, root, max_depth, min_bound, frontier, &stored)
        return _finished(s, status, stored)
    # With a runner (threads or a cluster), the large iterations are shared, even with one
    # local thread.
    switch_after = PARALLEL_FROM if runner is not None else -1
    if switch_after >= 0 and min_bound > root.h:
        # The caller has searched up to min_bound already: this search is large, and its first
        # iteration (the switch to 7-8b's, 33 M expansions on a 74-move board) would otherwise
        # run on the calling thread alone.
        switch_after = 0
    if units is not None:
        # Another process's units at their bound (fastpuzzle.distributed): searched by this
        # process's threads, and their results returned as they are.
        owner[0] = NULL
        return hand_over(s, root, workers, max_depth, keep, units, runner, progress)
    with nogil:
        status = run_search(s, root, max_depth, switch_after, min_bound)
    if status == SWITCH:
        owner[0] = NULL
        return hand_over(s, root, workers, max_depth, keep, None, runner, progress)
    return _finished(s, status, 0)


cdef object _finished(Search* s, int status, uint64_t stored):
    # The serial search's CoreResult; ``stored``: the bytes A*+IDA*'s store took.
    cdef int i
    # A complete iteration (a study) keeps no path.
    moves = "".join([DIRECTION_LETTERS[s.path[i]] for i in range(s.counters.depth)]
                    ) if status == STATUS_SOLVED and not s.study.complete else ""
    return core_result(
        status,
        moves,
        s.counters.expanded,
        s.counters.generated,
        s.counters.depth + 1 if status == STATUS_SOLVED else s.bound + 1,
        sizeof(Search) + stored,
        elapsed(&s.control),
        s.counters.depth,
        s.counters.iterations,
    )


include "_team.pxi"
include "_hybrid.pxi"
