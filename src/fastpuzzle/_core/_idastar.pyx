"""IDA*: the optimal workhorse on boards of up to 16 cells.

The engine's one node driver (``expand`` in ``_engine.pxi``) is compiled for each heuristic (a
fused type: one struct and a few inline hooks each), so no function pointer and no Python object
is touched per node. Each heuristic family is one ``_h_<family>.pxi``: its value, its search
state and frontier snapshot (``Search.heur`` and ``Node.heur``, unions of the families', so a
node is as large as the largest family's snapshot), its hooks and its set-up; the hooks here
are one line a family. The heuristic is updated incrementally from the tile that moves:
Manhattan by per-tile tables, linear conflict by one key per row and column (only the two lines
a move touches change), walking distance by a transition table, pattern databases by one sparse
index per group (and per reflected group; ``_h_pdb.pxi``, shared with ``_wide_pdb``).

Node counting (the definition of ``manhattan_ida_nodes`` in ``random50.tsv``): every child
generated counts once (the root does not), over all iterations, stopping at the first goal found
in the final iteration; children are tried with the blank moving D, R, L, U, skipping the moves
the duplicate-pruning machine forbids (``machine``; by default only the move that undoes the
previous one); a child whose f exceeds the bound is generated but not expanded.

Boards are canonical packed boards (see ``_packed.pxd``); the Python layer validates them.

With ``workers > 1`` the iterations run in the calling thread until one expands
``PARALLEL_FROM`` nodes; each later iteration is shared among threads (``_Team`` below, driven
by ``fastpuzzle/_solver/parallel.py``): the calling thread expands the tree level by level down to a
frontier of about ``FRONTIER_PER_WORKER`` nodes per thread, each node carrying the state its
heuristic's recursion goes on from, and the pool threads take frontier nodes in order from a
shared counter and search their subtrees with the same driver. The counts are summed
over threads; an iteration searched to its end counts exactly the nodes the serial search does.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from fastpuzzle._core._control cimport Control, SearchCounters, init_control, init_counters
from fastpuzzle._core._result cimport STATUS_RUNNING
from fastpuzzle._core._heuristics cimport (
    H_LINEAR_CONFLICT,
    H_MANHATTAN,
    H_MISPLACED,
    H_PDB,
    H_WALKING_DISTANCE,
    GoalTables,
    init_goal_tables,
    manhattan_of,
)
from fastpuzzle._core._packed cimport Geometry, MAX_CELLS, get_tile, init_geometry, slide
from fastpuzzle._core._team cimport Member
from fastpuzzle._core._patterns cimport LoadedPatterns, copy_duals, copy_patterns, patterns_for
from fastpuzzle._core._pdbgroups cimport Group, group_entry


cdef enum:
    MAX_PATH = 255          # longest solution a driver can hold
    NODE_GROUPS = 16        # a packed board has at most 15 tiles, so at most 15 groups
    MAX_CUT = 48            # deepest frontier (each node carries its path from the root)
    # Two partitions (h the larger of their sums): the compound of _h_pdb.pxi with one more.
    MAX_EXTRA = 1
    EXTRA_GROUPS = NODE_GROUPS

ctypedef uint64_t BoardWord


# The heuristic families of the node driver (expand, _engine.pxi), one text each: a node's
# value, the search's state, a frontier node's snapshot, and the hooks that the generic hooks
# below dispatch to.
include "_h_misplaced.pxi"
include "_h_manhattan.pxi"
include "_h_linear_conflict.pxi"
include "_h_walking.pxi"
include "_h_pdb.pxi"


cdef union SearchHeuristic:
    # The incremental state of the heuristic being searched with (a family with none has no
    # member): one at a time, so a Search holds the largest, not their sum.
    LinesState lines
    WalkingState walking
    PdbState pdb


cdef union NodeHeuristic:
    # A frontier node's snapshot of that state (Misplaced and Manhattan need only node.h).
    LinesNode lines
    WalkingNode walking
    PdbNode pdb
    DualNode dual


cdef struct Node:
    # A frontier node: where its subtree starts, and the state its heuristic goes on from.
    uint64_t board
    int blank
    int depth
    int32_t state           # the duplicate-pruning machine's
    int h
    NodeHeuristic heur      # its heuristic's snapshot
    uint8_t path[MAX_CUT]


ctypedef fused Heuristic:
    Misplaced
    Manhattan
    LinearConflict
    Walking
    PdbOne
    PdbSeveral

cdef Misplaced* MISPLACED = NULL
cdef Manhattan* MANHATTAN = NULL
cdef LinearConflict* LINEAR_CONFLICT = NULL
cdef Walking* WALKING = NULL
cdef PdbOne* ONE = NULL
cdef PdbSeveral* SEVERAL = NULL


# The engine: modes, the node driver, the collector and the iterations (see _engine.pxi).
include "_engine.pxi"


cdef struct Search:
    Geometry g
    GoalTables t
    int kind
    const int32_t* machine  # duplicate pruning (_fsm.pyx), read-only, shared by threads
    int32_t machine_states
    int n_moves[16]
    int move_cell[16][4]    # cells the blank reaches from each cell, in child order
    int move_dir[16][4]
    uint64_t goal
    int bound
    int next_bound
    int status
    uint8_t path[MAX_PATH + 1]
    SearchCounters counters
    Control control
    int dual                # 1: the pattern databases with dual lookups and BPMX (dfs_dual)
    SearchHeuristic heur    # the heuristic's incremental state
    # parallel search: the team this thread belongs to, and where Collect mode puts nodes
    Member member
    Collector* collector
    Study study                     # a study's requests (_engine.pxi)
    int order                       # children by increasing f at depths below it (expand)


# ---------------------------------------------------------------------------------------------
# Set-up.

cdef uint64_t goal_board(const Geometry* g, const GoalTables* t) noexcept nogil:
    cdef uint64_t board = 0
    cdef int tile
    for tile in range(1, g.cells):
        board |= (<uint64_t>tile) << (4 * t.goal_cell[tile])
    return board


# ---------------------------------------------------------------------------------------------
# The board hooks of the engine (_engine.pxi) over the packed board word.

cdef inline int tile_on(const Search* s, BoardWord board, int cell) noexcept nogil:
    return <int>get_tile(board, cell)


cdef inline BoardWord moved_board(Search* s, BoardWord board, int blank, int cell,
                                  int tile) noexcept nogil:
    return slide(board, blank, cell)


cdef inline void unmove_board(Search* s, int blank, int cell, int tile) noexcept nogil:
    pass


cdef inline void save_board(const Search* s, Node* node, BoardWord board) noexcept nogil:
    node.board = board


cdef inline BoardWord load_board(Search* s, const Node* node) noexcept nogil:
    return node.board


cdef inline int manhattan_change(const Search* s, int tile, int cell, int blank) noexcept nogil:
    return s.t.distance[tile][blank] - s.t.distance[tile][cell]


cdef inline uint64_t entry_of(const Group* grp, uint64_t index, int blank) noexcept nogil:
    # Tables of up to 16 cells are never zero-aware: the entry depends on the index alone.
    return group_entry(grp, index)


cdef inline uint64_t group_entry_of(const Group* grp, uint64_t index) noexcept nogil:
    return group_entry(grp, index)


# ---------------------------------------------------------------------------------------------
# The heuristics' hooks (see _engine.pxi): each a line a family, to that family's (_h_*.pxi).

cdef inline int h_value(const Search* s, const Heuristic* v) noexcept nogil:
    if Heuristic is Misplaced:
        return misplaced_h(s, v)
    elif Heuristic is Manhattan:
        return manhattan_h(s, v)
    elif Heuristic is LinearConflict:
        return conflict_h(s, v)
    elif Heuristic is Walking:
        return walking_h(s, v)
    else:
        return pdb_h(s, v)


cdef inline int goal_value(const Search* s, const Heuristic* v) noexcept nogil:
    if Heuristic is Misplaced:
        return misplaced_goal(s, v)
    elif Heuristic is Manhattan:
        return manhattan_goal(s, v)
    elif Heuristic is LinearConflict:
        return conflict_goal(s, v)
    elif Heuristic is Walking:
        return walking_goal(s, v)
    else:
        return pdb_goal(s, v)


cdef inline void look_ahead(Search* s, BoardWord board, int blank, int depth, int32_t state,
                            Heuristic* v) noexcept nogil:
    if Heuristic is Misplaced:
        misplaced_look_ahead(s, board, blank, depth, state, v)
    elif Heuristic is Manhattan:
        manhattan_look_ahead(s, board, blank, depth, state, v)
    elif Heuristic is LinearConflict:
        conflict_look_ahead(s, board, blank, depth, state, v)
    elif Heuristic is Walking:
        walking_look_ahead(s, board, blank, depth, state, v)
    else:
        pdb_look_ahead(s, board, blank, depth, state, v)


cdef inline int child_f(Search* s, BoardWord board, int blank, int cell, int tile, int k,
                        int depth, Heuristic* v, Heuristic* child) noexcept nogil:
    if Heuristic is Misplaced:
        return misplaced_child_f(s, blank, cell, tile, k, depth, v, child)
    elif Heuristic is Manhattan:
        return manhattan_child_f(s, blank, cell, tile, k, depth, v, child)
    elif Heuristic is LinearConflict:
        return conflict_child_f(s, blank, cell, tile, k, depth, v, child)
    elif Heuristic is Walking:
        return walking_child_f(s, blank, cell, tile, k, depth, v, child)
    else:
        return pdb_child_f(s, blank, cell, tile, k, depth, v, child)


cdef inline void enter_child(Search* s, int blank, int cell, int tile, int k, Heuristic* v,
                             Heuristic* child) noexcept nogil:
    if Heuristic is Misplaced:
        misplaced_enter_child(s, blank, cell, tile, k, v, child)
    elif Heuristic is Manhattan:
        manhattan_enter_child(s, blank, cell, tile, k, v, child)
    elif Heuristic is LinearConflict:
        conflict_enter_child(s, blank, cell, tile, k, v, child)
    elif Heuristic is Walking:
        walking_enter_child(s, blank, cell, tile, k, v, child)
    else:
        pdb_enter_child(s, tile, k, v, child)


cdef inline void leave_child(Search* s, int blank, int cell, int tile, int k, Heuristic* v,
                             Heuristic* child) noexcept nogil:
    if Heuristic is Misplaced:
        misplaced_leave_child(s, blank, cell, tile, k, v, child)
    elif Heuristic is Manhattan:
        manhattan_leave_child(s, blank, cell, tile, k, v, child)
    elif Heuristic is LinearConflict:
        conflict_leave_child(s, blank, cell, tile, k, v, child)
    elif Heuristic is Walking:
        walking_leave_child(s, blank, cell, tile, k, v, child)
    else:
        pdb_leave_child(s, tile, child)


cdef inline void save_value(const Search* s, Node* node, const Heuristic* v) noexcept nogil:
    if Heuristic is Misplaced:
        misplaced_save(s, node, v)
    elif Heuristic is Manhattan:
        manhattan_save(s, node, v)
    elif Heuristic is LinearConflict:
        conflict_save(s, node, v)
    elif Heuristic is Walking:
        walking_save(s, node, v)
    else:
        pdb_save(s, node, v)


cdef inline void load_value(Search* s, const Node* node, Heuristic* v) noexcept nogil:
    if Heuristic is Misplaced:
        misplaced_load(s, node, v)
    elif Heuristic is Manhattan:
        manhattan_load(s, node, v)
    elif Heuristic is LinearConflict:
        conflict_load(s, node, v)
    elif Heuristic is Walking:
        walking_load(s, node, v)
    else:
        pdb_load(s, node, v)


cdef inline void root_value(Search* s, uint64_t board, Heuristic* v) noexcept nogil:
    # The start's value, s's state set up (the family's set-up, in idastar) being the start's.
    cdef uint8_t tile_at[16]
    cdef int cell
    if Heuristic is Misplaced:
        misplaced_root(s, board, v)
    elif Heuristic is Manhattan:
        manhattan_root(s, board, v)
    elif Heuristic is LinearConflict:
        conflict_root(s, board, v)
    elif Heuristic is Walking:
        walking_root(s, board, v)
    else:
        for cell in range(s.g.cells):
            tile_at[cell] = get_tile(board, cell)
        pdb_root(s, tile_at, s.g.cells, manhattan_of(board, &s.g, &s.t), v)


# Dual lookups with BPMX (dfs_dual, one text with _wide_pdb's, in _dual.pxi), over the packed
# board word.
include "_dual.pxi"


cdef int descend(Search* s, const Node* node, Mode* mode) except -2 nogil:
    # The node's search with the heuristic's driver.
    if s.kind == H_MISPLACED:
        return search_node(s, node, MISPLACED, mode)
    if s.kind == H_MANHATTAN:
        return search_node(s, node, MANHATTAN, mode)
    if s.kind == H_LINEAR_CONFLICT:
        return search_node(s, node, LINEAR_CONFLICT, mode)
    if s.kind == H_WALKING_DISTANCE:
        return search_node(s, node, WALKING, mode)
    if s.dual:
        return dual_node(s, node, mode)
    if s.heur.pdb.n_extra:
        return search_node(s, node, SEVERAL, mode)
    return search_node(s, node, ONE, mode)


cdef void heuristic_root(Search* s, Node* root, uint64_t board, int blank,
                         Heuristic* kind) noexcept nogil:
    # init_root with the heuristic (``kind``: a NULL pointer of its struct).
    cdef Heuristic v
    root_value(s, board, &v)
    save_root(s, root, board, blank, &v)


cdef void init_root(Search* s, Node* root, uint64_t board, int blank) noexcept nogil:
    # The start as a node, with s's incremental state its (set up by the family's set-up).
    cdef uint8_t tile_at[16]
    cdef int cell
    if s.kind == H_MISPLACED:
        heuristic_root(s, root, board, blank, MISPLACED)
    elif s.kind == H_MANHATTAN:
        heuristic_root(s, root, board, blank, MANHATTAN)
    elif s.kind == H_LINEAR_CONFLICT:
        heuristic_root(s, root, board, blank, LINEAR_CONFLICT)
    elif s.kind == H_WALKING_DISTANCE:
        heuristic_root(s, root, board, blank, WALKING)
    elif s.dual:
        for cell in range(s.g.cells):
            tile_at[cell] = get_tile(board, cell)
        dual_root(s, root, board, tile_at, s.g.cells, blank, manhattan_of(board, &s.g, &s.t))
    elif s.heur.pdb.n_extra:
        heuristic_root(s, root, board, blank, SEVERAL)
    else:
        heuristic_root(s, root, board, blank, ONE)


cdef int pdb_setup(Search* s, tables, int goal_blank, list keep) except -1:
    # s's pattern databases: one partition (with dual lookups if its tables have them), or two
    # laid out as a compound (``LoadedPatterns(extra=)``, h the larger of their sums).
    cdef PdbState* p = &s.heur.pdb
    cdef LoadedPatterns loaded
    cdef int j
    p.pat.n_groups = 0
    p.pat.mirror = 0
    p.n_extra = 0
    if tables is None:
        raise ValueError("pattern databases need their tables")
    loaded = patterns_for(tables, s.g.cells, 4, goal_blank)
    if loaded.n_extra > MAX_EXTRA:
        raise ValueError(
            f"the kernel on packed boards reads at most {MAX_EXTRA + 1} partitions, "
            f"not {loaded.n_extra + 1}"
        )
    for j in range(loaded.n_extra):
        if loaded.extra[j].n_groups > EXTRA_GROUPS:
            raise ValueError(f"a second partition has at most {EXTRA_GROUPS} groups")
        copy_patterns(&p.extra[j], &loaded.extra[j])
    p.n_extra = loaded.n_extra
    keep.append(loaded)
    copy_patterns(&p.pat, &loaded.pat)
    if loaded.dual:
        copy_duals(&p.duals, &loaded.duals, loaded.pat.n_groups)
        s.dual = 1
    return 0


cdef inline uint64_t node_key(const Search* s, const Node* node) noexcept nogil:
    # The frontier node's board, as the parallel search remembers where the work was.
    return node.board

cdef inline bint node_from_board(Search* s, Node* node, const uint8_t* board,
                                 int blank) noexcept nogil:
    # A*+IDA* re-enters a stored node along its path instead: a board's walking-distance
    # states and line keys are set up from Python (see idastar).
    return False


cdef inline int board_bytes(const Search* s, const Node* node, uint8_t* out) noexcept nogil:
    # A*+IDA* tells stored boards apart by their packed word.
    memcpy(out, &node.board, sizeof(uint64_t))
    return sizeof(uint64_t)


# ---------------------------------------------------------------------------------------------
# The Python entry.

def idastar(
    uint64_t packed,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    int heuristic,
    *,
    tables=None,
    uint64_t node_limit=0,
    double time_limit=0.0,
    int max_depth=-1,
    progress=None,
    int workers=1,
    runner=None,
    units=None,
    int min_bound=0,
    machine=None,
    unsigned long long frontier=0,
    bint complete=False,
    list trace=None,
    int order=0,
):
    """Run IDA* on a canonical packed board.

    Parameters
    ----------
    packed, blank, rows, cols, goal_blank
        The canonical start board, its blank cell, its shape and the goal's blank cell.
    heuristic : int
        A :class:`~fastpuzzle._core._heuristics.HeuristicCode`: misplaced, Manhattan, linear
        conflict, walking distance or pattern databases (``H_PDB``).
    tables : object, optional
        What the heuristic reads: for ``H_PDB`` a :class:`fastpuzzle.pdb.Database` (``groups``:
        ``(tiles, sparse, nibble, table)`` per group, ``table`` a read-only uint8 buffer indexed
        as in ``_pdb``; ``reflect``: the cell mirrored about the main diagonal per cell, or None)
        or a :class:`~fastpuzzle._core._patterns.LoadedPatterns`, one partition or two
        (``extra=``: h is the larger sum); for ``H_WALKING_DISTANCE`` a
        :class:`fastpuzzle.pdb.WalkingTables`.
    node_limit, time_limit, max_depth
        Limits (0, 0.0 and -1 mean none); the search stops with DEPTH_LIMIT before a bound above
        ``max_depth``.
    progress : callable, optional
        ``progress(expanded, generated, seconds, depth)``, called at most every 2**16 expansions
        (with ``workers > 1``, from the calling thread, also while the pool threads search).
    workers : int
        Threads for the large iterations (see the module docstring); 1: the serial search,
        whose node counts are exact and reproducible. Ctrl-C and the limits stop every thread.
    runner : callable, optional
        ``runner(team, workers, progress)`` runs the shared iterations:
        ``fastpuzzle._solver.parallel.run_team`` (with ``share=``: on a Dask cluster too,
        ``fastpuzzle.distributed``). Needed with ``workers > 1``; None: the serial search.
    units : tuple, optional
        ``(bound, nodes)`` from another process's ``_Team.frontier_units()``: search only those
        units at that bound (``runner``: ``fastpuzzle._solver.parallel.run_units``) and return
        ``_Team.unit_results()``'s tuple.
    min_bound : int
        The first iteration's bound when it is above the start's h: the caller knows that no
        shorter solution exists (a search stopped in its iteration of that bound, say). It is
        rounded down to the parity of the start's h; a bound above the optimal length gives a
        solution that need not be shortest.
    machine : numpy.ndarray, optional
        The duplicate-pruning machine (``_fsm.compile``, int32 ``(states, 4)``) of a box that
        fits this board; None: parent pruning alone (the published node counts).

    frontier : int
        A*+IDA* (Bu & Korf): A* from the start until it stores this many nodes (keyed by board
        and machine state), then IDA* below each node left open, in increasing (f, h), each
        keeping its backed-up f; 0: plain IDA*. One thread, no dual lookups.
    complete : bool
        For studies: the iteration that reaches the goal is searched to its end (a goal is a
        leaf), and the result has the optimal length but no moves.
    trace : list, optional
        For studies: gets ``(bound, expanded, generated, first_expanded, first_generated,
        units)`` at the end of each iteration (counts from the start; ``first_*`` where
        ``complete`` reached the goal, else -1; bound -1: A*+IDA*'s A* part, ``units`` the
        nodes it stored; else the frontier nodes searched, 1 for plain IDA*).
    order : int
        Children within the bound are tried by increasing f (smallest h first; ties, and the
        children the bound cuts, in the fixed order) at depths below ``order``; 0: the fixed
        order (D, R, L, U) everywhere. An iteration searched to its end expands the same nodes
        either way: only the last iteration's count up to the goal changes. For studies (on
        Korf & Felner's 5x5 boards it did not pay: docs/performance.rst): one thread, no
        ``runner``; the dual lookups' driver (``dfs_dual``) keeps the fixed order.

    Returns
    -------
    CoreResult
        Moves are blank directions.
    """
    cdef Search* s = <Search*>malloc(sizeof(Search))
    cdef Node root
    cdef list keep = []
    if s == NULL:
        raise MemoryError()
    try:
        if heuristic not in (H_MISPLACED, H_MANHATTAN, H_LINEAR_CONFLICT, H_WALKING_DISTANCE,
                             H_PDB):
            raise ValueError(f"IDA* has no kernel for heuristic code {heuristic}")
        if rows * cols > MAX_CELLS or rows < 1 or cols < 1:
            raise ValueError(f"expected at most 16 cells, got {rows}x{cols}")
        init_geometry(&s.g, rows, cols)
        init_goal_tables(&s.t, &s.g, goal_blank)
        init_moves(s, rows, cols)
        init_counters(&s.counters)
        if order < 0:
            raise ValueError(f"expected order >= 0, got {order}")
        s.order = order
        init_control(&s.control, node_limit, time_limit, 0, progress)
        s.kind = heuristic
        s.goal = goal_board(&s.g, &s.t)
        s.status = STATUS_RUNNING
        s.dual = 0
        s.member.team = NULL
        s.collector = NULL
        s.machine = machine_table(machine, keep)
        s.machine_states = machine_states(machine)
        if workers < 1:
            raise ValueError(f"expected workers >= 1, got {workers}")
        if max_depth < 0 or max_depth > MAX_PATH:
            max_depth = MAX_PATH
        if s.kind == H_LINEAR_CONFLICT:
            conflict_setup(s, packed)
        elif s.kind == H_WALKING_DISTANCE:
            walking_setup(s, tables, keep)
        elif s.kind == H_PDB:
            pdb_setup(s, tables, goal_blank, keep)
        init_root(s, &root, packed, blank)
        return run_entry(&s, &root, workers, max_depth, keep, units, runner, progress, min_bound,
                         frontier, complete, trace)
    finally:
        free(s)
