# The IDA* engine: the one text of the search that both IDA* kernels with threads run,
# _idastar.pyx (packed boards, up to 16 cells) and _wide_pdb.pyx (a byte a cell, 17 to 25
# cells). Each kernel includes it once, after its Node, and compiles it over its own types (a
# cdef class or function cimported from another module is a call through a pointer). It holds the
# drivers' modes, the node prologue (enter), the frontier's collector and, through _team.pxi,
# the iterations: serial iterative deepening and the parallel ones with work stealing.
# _engine.pxd holds the return codes, the child order and the duplicate-pruning machine's step,
# which _wide.pyx shares too.
#
# A host defines:
#   enum MAX_PATH, MAX_CUT, MAX_CELLS       the longest path, the deepest frontier, the cells
#   struct Node                             a frontier node, with at least
#       int blank, int depth                    where its subtree starts
#       int32_t state                           the machine's state there
#       uint8_t path[MAX_CUT]                   the moves from the root
#   struct Search                           one thread's search, with at least
#       int bound, int next_bound, int status
#       uint8_t path[MAX_PATH + 1]              the moves to the node being searched
#       SearchCounters counters, Control control
#       Member member, Collector* collector     the team, and where Collect mode puts nodes
#       const int32_t* machine                  the duplicate-pruning machine (_fsm.pyx)
#       int32_t machine_states                  and its count of states (machine_states)
#       int n_moves[MAX_CELLS]                  per cell, the blank's moves in child order:
#       int move_cell[MAX_CELLS][4]             the cell it reaches
#       int move_dir[MAX_CELLS][4]              and the direction
#   void load_node(Search* s, const Node* node) noexcept nogil
#                                           s's state and path prefix become the node's
#   int descend(Search* s, const Node* node, Mode* mode) except -2 nogil
#                                           the driver from a loaded node: a return code
#   int root_h(const Search* s, const Node* root) noexcept nogil
#                                           the first bound
#   uint64_t node_key(const Search* s, const Node* node) noexcept nogil
#                                           a key of the node's board (remembered heavy units)
#
# Every driver tries the children of a node in the order of s.move_dir (D, R, L, U, see
# child_direction), skips a child the machine forbids, calls skip_child() for the others (work
# stealing) and counts each child it does not skip as generated, once, whether or not its f is
# within the bound.

from fastpuzzle._core._control cimport (
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    checkpoint,
    elapsed,
)
from fastpuzzle._core._packed cimport move_letters
from fastpuzzle._core._result cimport core_result
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
#: iteration). Starting the threads and collecting a frontier costs about half a millisecond:
#: from 2**13, a 50-move board solved in 0.43 ms on one thread took 0.94 ms on two; from 2**15
#: it takes 0.43 ms, and random50 with 6-6-3 takes 0.204-0.208 s on two threads (2**13:
#: 0.213-0.215 s; one thread 0.227 s). Those figures are from when an iteration had to expand
#: this many before the next was shared.
PARALLEL_FROM = 1 << 15

#: Frontier nodes per thread in a shared iteration. Subtree sizes vary by orders of magnitude,
#: but threads that run out take work from busy ones (see _team.pxi), so a few nodes a thread
#: suffice; the calling thread collects them alone. With stealing, the 80-move boards on 16 and
#: 64 virtual cores (``parallel.tracing(lockstep=True)``) gave 14.6-16.1x and 41-53x with 32,
#: 14.4-16.1x and 43-50x with 16, 14.1-15.2x and 31-34x with 128 (one run each).
FRONTIER_PER_WORKER = 32

#: A unit of work (frontier node) that took more than 1 / (SPLIT_PER_WORKER * threads) of a
#: shared iteration is split into its children in the next ones (0: never), so that on P threads
#: no unit holds more than 1/64 of one thread's share when the work keeps its place from one
#: bound to the next. See _team.pxi. The four 80-move boards on 16 simulated threads: 13.5-14.3x
#: with 16, 13.9-14.7x with 64, 13.5-14.5x with 256 (one run each).
SPLIT_PER_WORKER = 64

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
    # The frontier being collected (Collect mode): nodes at depth ``cut``.
    Node* nodes
    size_t count
    size_t capacity
    int cut


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


cdef inline int enter(Search* s, int goal_h, int f) except -2 nogil:
    # The node prologue: SEARCHED to expand the node (counted), FOUND when it is the goal (the
    # kernel's goal_h, a heuristic that is 0 exactly there), OVER_BOUND when f is over the
    # bound (lowering the next bound), STOPPED at a limit (s.status set).
    cdef int status
    if f > s.bound:
        if f < s.next_bound:
            s.next_bound = f
        return OVER_BOUND
    if goal_h == 0:
        return FOUND
    s.counters.expanded += 1
    if s.counters.expanded >= s.control.next_check:
        if s.member.team == NULL:
            status = checkpoint(&s.control, &s.counters, sizeof(Search))
        else:
            status = team_checkpoint(&s.member, &s.control, &s.counters)
        if status != STATUS_RUNNING:
            s.status = status
            return STOPPED
    return SEARCHED


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
                      units, runner, progress, int min_bound):
    # The tail of a kernel's Python entry, once its search and root are set up: the serial
    # iterations, then (with threads or a cluster) the shared ones, or only another process's
    # units. Returns the CoreResult (or the units' results); a team that takes the search takes
    # *owner too (set to NULL, so that the entry's ``finally`` does not free it).
    cdef Search* s = owner[0]
    cdef int64_t switch_after
    cdef int status, i
    # With a runner (a cluster), the large iterations are shared even with one local thread.
    switch_after = PARALLEL_FROM if workers > 1 or runner is not None else -1
    if switch_after >= 0 and min_bound > root_h(s, root):
        # The caller has searched up to min_bound already: this search is large, and its first
        # iteration (the switch to 7-8b's, 33 M expansions on a 74-move board) would otherwise
        # run on the calling thread alone.
        switch_after = 0
    if units is not None:
        # Another process's units at their bound (fastpuzzle.distributed): searched by this
        # process's threads, and their results returned as they are.
        owner[0] = NULL
        return hand_over(s, root, workers, max_depth, keep, units, None, progress)
    with nogil:
        status = run_search(s, root, max_depth, switch_after, min_bound)
    if status == SWITCH:
        owner[0] = NULL
        return hand_over(s, root, workers, max_depth, keep, None, runner, progress)
    moves = "".join([DIRECTION_LETTERS[s.path[i]] for i in range(s.counters.depth)]
                    ) if status == STATUS_SOLVED else ""
    return core_result(
        status,
        moves,
        s.counters.expanded,
        s.counters.generated,
        s.counters.depth + 1 if status == STATUS_SOLVED else s.bound + 1,
        sizeof(Search),
        elapsed(&s.control),
        s.counters.depth,
        s.counters.iterations,
    )


include "_team.pxi"
