"""IDA* with additive pattern databases on boards of 17 to 64 cells (5x5, 4x6, 6x6, ...).

The board is one byte per cell; each group's placement is kept as a sparse index (its cells 5
bits per slot, 6 past 32 cells), updated by one add when one of its tiles moves, and looked up
by compact rank in tables built by ``_pdb.build_levels`` / ``pack_table`` (values stored
relative to Manhattan distance, as for 4x4). With ``reflect`` the same tables are also read
for the board mirrored about the main diagonal, and the larger sum counts (both are
admissible); the mirrored lookup is skipped for a child the plain sum already cuts off (same
nodes, fewer lookups: the figure is in docs/performance.rst, "Where the constants come from").

Node counting, child order (D, R, L, U) and duplicate pruning (the moves the machine forbids; by
default only the one that undoes the previous move) are those of ``_idastar``, so node counts
compare with the 4x4 drivers and with ``_wide_idastar``; the search is the engine text
(``_engine.pxi``) both kernels run.

With ``weight`` > 1 the search is weighted IDA* (f = g + w*h, one thread, one partition): h is
replaced by floor(w*h) in thousandths of w (no more than w*h, so every node of a shortest path
has f <= w * its length, and the answer is at most w times optimal). It is its own copy of the
engine (the fused ``WeightedOne``), so the unweighted search's code is untouched; the tables'
cut-offs (the reflected lookup skipped for a child out of reach) are judged on the unweighted f,
which is never above the weighted one, so they stay sound and only skip less.

With ``workers > 1`` the large iterations are shared among threads exactly as in ``_idastar``
(see its docstring): a frontier collected level by level by the calling thread, each node with
its board, group indices and path prefix, searched by pool threads
(``fastpuzzle/_solver/parallel.py``).
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from fastpuzzle._core._control cimport Control, SearchCounters, init_control, init_counters
from fastpuzzle._core._result cimport STATUS_RUNNING
from fastpuzzle._core._packed cimport goal_cell_of
from fastpuzzle._core._patterns cimport LoadedPatterns, copy_duals, copy_patterns, patterns_for
from fastpuzzle._core._pdbgroups cimport (
    EXTRA_MAX_COUNT,
    EXTRA_MAX_GROUPS,
    GROUP_MAX_COUNT,
    Group,
    Patterns,
)
from fastpuzzle._core._ranking cimport compact_rank_bits
from fastpuzzle._core._zero cimport zero_entry
from fastpuzzle._core._team cimport Member


cdef enum:
    MIN_CELLS = 17
    MAX_CELLS = 64
    MAX_GROUPS = GROUP_MAX_COUNT
    # A weighted search's f, which caps its paths: weight 5 on a start of h 400 (5x5 boards'
    # values are below 220). Optimal 5x5 paths are far shorter.
    MAX_PATH = 2000
    SCALE = 1000            # weights in thousandths
    MAX_CUT = 48            # deepest frontier (each node carries its path from the root)
    MAX_EXTRA = EXTRA_MAX_COUNT
    EXTRA_GROUPS = EXTRA_MAX_GROUPS
    NODE_GROUPS = MAX_GROUPS


ctypedef int BoardWord      # unused: s.cells holds the board


# The heuristics of the node driver (expand, _engine.pxi): one partition, or a compound; their
# state and snapshots (_h_pdb.pxi).
include "_h_pdb.pxi"


cdef union SearchHeuristic:
    PdbState pdb


cdef union NodeHeuristic:
    PdbNode pdb
    DualNode dual


cdef struct Node:
    # A frontier node: its board, where its subtree starts, and its groups' indices and values.
    uint8_t cells[MAX_CELLS]
    int blank
    int depth
    int32_t state           # the duplicate-pruning machine's
    int h
    NodeHeuristic heur      # the pattern databases' snapshot (_h_pdb.pxi)
    uint8_t path[MAX_CUT]


cdef struct WeightedOne:
    # One partition for weighted IDA*: h is floor(weight * the partition's h).
    PdbOne pdb

ctypedef fused Heuristic:
    PdbOne
    PdbSeveral
    WeightedOne

cdef PdbOne* ONE = NULL
cdef PdbSeveral* SEVERAL = NULL
cdef WeightedOne* WEIGHTED = NULL


# The engine: modes, the node driver, the collector and the iterations (see _engine.pxi).
include "_engine.pxi"


cdef struct Search:
    int n
    const int32_t* machine          # duplicate pruning (_fsm.pyx), read-only, shared by threads
    int32_t machine_states
    uint8_t cells[MAX_CELLS]
    int n_moves[MAX_CELLS]
    int move_cell[MAX_CELLS][4]     # cells the blank reaches from each cell, in child order
    int move_dir[MAX_CELLS][4]
    int distance[MAX_CELLS][MAX_CELLS]  # [tile][cell] -> Manhattan distance from its goal cell
    SearchHeuristic heur            # the pattern databases' state (_h_pdb.pxi)
    int dual                        # 1: dual lookups and BPMX (dfs_dual)
    int weight                      # weighted IDA*: w in thousandths (0: unweighted)
    int bound
    int next_bound
    int status
    uint8_t path[MAX_PATH + 1]
    SearchCounters counters
    Control control
    # parallel search: the team this thread belongs to, and where Collect mode puts nodes
    Member member
    Collector* collector
    Study study                     # a study's requests (_engine.pxi)
    int order                       # children by increasing f at depths below it (expand)


# ---------------------------------------------------------------------------------------------
# The board hooks of the engine (_engine.pxi) over a board that s.cells holds.

cdef inline int tile_on(const Search* s, BoardWord board, int cell) noexcept nogil:
    return s.cells[cell]


cdef inline BoardWord moved_board(Search* s, BoardWord board, int blank, int cell,
                                  int tile) noexcept nogil:
    s.cells[blank] = tile
    s.cells[cell] = 0
    return board


cdef inline void unmove_board(Search* s, int blank, int cell, int tile) noexcept nogil:
    s.cells[cell] = tile
    s.cells[blank] = 0


cdef inline void save_board(const Search* s, Node* node, BoardWord board) noexcept nogil:
    cdef int i
    for i in range(s.n):
        node.cells[i] = s.cells[i]


cdef inline BoardWord load_board(Search* s, const Node* node) noexcept nogil:
    cdef int i
    for i in range(s.n):
        s.cells[i] = node.cells[i]
    return 0


cdef inline int manhattan_change(const Search* s, int tile, int cell, int blank) noexcept nogil:
    return s.distance[tile][blank] - s.distance[tile][cell]


cdef inline uint64_t group_entry_of(const Group* grp, uint64_t index) noexcept nogil:
    # Dual lookups read plain tables only (LoadedPatterns refuses zero-aware ones there). Each
    # slot width a constant, so that the rank's shifts and masks fold in (5x5: 1.4 % fewer
    # instructions a node than the width read from the group).
    if grp.bits == 5:
        return compact_rank_bits(index, grp.k, grp.weight, 5)
    return compact_rank_bits(index, grp.k, grp.weight, 6)


cdef inline uint64_t entry_of(const Group* grp, uint64_t index, int blank) noexcept nogil:
    # Only compact tables past 16 cells, so no test of grp.sparse per lookup; a zero-aware one
    # (5-bit slots) also reads the blank's cell (where the moved tile was; reflected on the
    # mirrored board).
    if grp.zero:
        return zero_entry(grp.layout, index, grp.k, 5, blank, grp.weight, grp.data,
                          grp.nibble)
    return group_entry_of(grp, index)


# ---------------------------------------------------------------------------------------------
# The heuristics' hooks (see _engine.pxi): the pattern databases' of _h_pdb.pxi.

cdef inline int weighted(const Search* s, int h) noexcept nogil:
    # floor(w * h), w in thousandths: never above w * h.
    return <int>((<long long>s.weight * h) // SCALE)


cdef inline int h_value(const Search* s, const Heuristic* v) noexcept nogil:
    if Heuristic is WeightedOne:
        return weighted(s, pdb_h(s, &v.pdb))
    else:
        return pdb_h(s, v)


cdef inline int goal_value(const Search* s, const Heuristic* v) noexcept nogil:
    if Heuristic is WeightedOne:
        return pdb_goal(s, &v.pdb)
    else:
        return pdb_goal(s, v)


cdef inline void look_ahead(Search* s, BoardWord board, int blank, int depth, int32_t state,
                            Heuristic* v) noexcept nogil:
    if Heuristic is WeightedOne:
        pdb_look_ahead(s, board, blank, depth, state, &v.pdb)
    else:
        pdb_look_ahead(s, board, blank, depth, state, v)


cdef inline int child_f(Search* s, BoardWord board, int blank, int cell, int tile, int k,
                        int depth, Heuristic* v, Heuristic* child) noexcept nogil:
    cdef int f
    if Heuristic is WeightedOne:
        # The unweighted f, exact or (cut) short: g + floor(w * its h) is then exact, or short
        # and still cut (never below the unweighted f that was out of reach).
        f = pdb_child_f(s, blank, cell, tile, k, depth, &v.pdb, &child.pdb)
        return depth + 1 + weighted(s, f - depth - 1)
    else:
        return pdb_child_f(s, blank, cell, tile, k, depth, v, child)


cdef inline void enter_child(Search* s, int blank, int cell, int tile, int k, Heuristic* v,
                             Heuristic* child) noexcept nogil:
    if Heuristic is WeightedOne:
        pdb_enter_child(s, tile, k, &v.pdb, &child.pdb)
    else:
        pdb_enter_child(s, tile, k, v, child)


cdef inline void leave_child(Search* s, int blank, int cell, int tile, int k, Heuristic* v,
                             Heuristic* child) noexcept nogil:
    if Heuristic is WeightedOne:
        pdb_leave_child(s, tile, &child.pdb)
    else:
        pdb_leave_child(s, tile, child)


cdef inline void save_value(const Search* s, Node* node, const Heuristic* v) noexcept nogil:
    if Heuristic is WeightedOne:
        pdb_save(s, node, &v.pdb)
    else:
        pdb_save(s, node, v)


cdef inline void load_value(Search* s, const Node* node, Heuristic* v) noexcept nogil:
    if Heuristic is WeightedOne:
        pdb_load(s, node, &v.pdb)
    else:
        pdb_load(s, node, v)


# Dual lookups with BPMX (dfs_dual, one text with _idastar's, in _dual.pxi).
include "_dual.pxi"


cdef inline int descend(Search* s, const Node* node, Mode* mode) except -2 nogil:
    # The node's search with the heuristic's driver.
    if s.dual:
        return dual_node(s, node, mode)
    if s.heur.pdb.n_extra:
        return search_node(s, node, SEVERAL, mode)
    if s.weight:
        return search_node(s, node, WEIGHTED, mode)
    return search_node(s, node, ONE, mode)


cdef void init_root(Search* s, Node* root, int blank) noexcept nogil:
    # The start as a node, with s's incremental state its.
    cdef int cell, tile, md = 0
    cdef PdbOne one
    cdef PdbSeveral several
    cdef WeightedOne weighted_one
    for cell in range(s.n):
        tile = s.cells[cell]
        if tile != 0:
            md += s.distance[tile][cell]
    if s.dual:
        dual_root(s, root, 0, s.cells, s.n, blank, md)
    elif s.heur.pdb.n_extra:
        pdb_root(s, s.cells, s.n, md, &several)
        save_root(s, root, 0, blank, &several)
    elif s.weight:
        pdb_root(s, s.cells, s.n, md, &weighted_one.pdb)
        save_root(s, root, 0, blank, &weighted_one)
    else:
        pdb_root(s, s.cells, s.n, md, &one)
        save_root(s, root, 0, blank, &one)


cdef void init_board(Search* s, int rows, int cols, int goal_blank) noexcept nogil:
    cdef int cell, tile, home
    init_moves(s, rows, cols)
    for tile in range(s.n):
        home = goal_cell_of(tile, goal_blank) if tile else goal_blank
        for cell in range(s.n):
            s.distance[tile][cell] = (abs(cell // cols - home // cols)
                                      + abs(cell % cols - home % cols))


cdef int init_groups(Search* s, int goal_blank, tables, list keep) except -1:
    # A slot of a group's index holds a cell: 5 bits up to 32 cells, 6 past.
    cdef LoadedPatterns loaded = patterns_for(tables, s.n, 5 if s.n <= 32 else 6, goal_blank)
    cdef const Patterns* p
    cdef int grp, j
    # Tables past 16 cells are compact (a sparse 32**k range would be mostly empty).
    for j in range(loaded.n_extra + 1):
        p = &loaded.pat if j == 0 else &loaded.extra[j - 1]
        for grp in range(p.n_groups):
            if p.groups[grp].sparse:
                raise ValueError("tables past 16 cells are compact, not sparse")
    keep.append(loaded)
    copy_patterns(&s.heur.pdb.pat, &loaded.pat)
    s.heur.pdb.n_extra = loaded.n_extra
    for grp in range(s.heur.pdb.n_extra):
        copy_patterns(&s.heur.pdb.extra[grp], &loaded.extra[grp])
    s.dual = loaded.dual
    if s.dual:
        copy_duals(&s.heur.pdb.duals, &loaded.duals, loaded.pat.n_groups)
    return 0


cdef inline uint64_t node_key(const Search* s, const Node* node) noexcept nogil:
    # A hash of the frontier node's board (FNV-1a), as the parallel search remembers where the
    # work was; two boards with one key only split one more node.
    cdef uint64_t key = <uint64_t>14695981039346656037ULL
    cdef int i
    for i in range(s.n):
        key = (key ^ node.cells[i]) * <uint64_t>1099511628211ULL
    return key

cdef bint node_from_board(Search* s, Node* node, const uint8_t* board, int blank) noexcept nogil:
    # A*+IDA*: a stored board as a node (its sums from the whole board), s's state its.
    cdef int i
    for i in range(s.n):
        s.cells[i] = board[i]
    init_root(s, node, blank)
    return True


cdef inline int board_bytes(const Search* s, const Node* node, uint8_t* out) noexcept nogil:
    # A*+IDA* tells stored boards apart by their cells.
    cdef int i
    for i in range(s.n):
        out[i] = node.cells[i]
    return s.n


cdef int path_length(Search* s, const uint8_t[::1] start, int blank) noexcept nogil:
    # The moves in s.path up to the goal, replayed from ``start``: a weighted search finds it
    # at any f within the bound, so the bound (what the serial iterations leave as the length)
    # is not its length. Nodes on the path were expanded, so the first goal is its end.
    cdef int i, k, cell, md = 0
    for cell in range(s.n):
        s.cells[cell] = start[cell]
        if start[cell] != 0:
            md += s.distance[start[cell]][cell]
    i = 0
    while md != 0 and i < MAX_PATH:
        for k in range(s.n_moves[blank]):
            if s.move_dir[blank][k] == s.path[i]:
                break
        cell = s.move_cell[blank][k]
        md += manhattan_change(s, s.cells[cell], cell, blank)
        s.cells[blank] = s.cells[cell]
        s.cells[cell] = 0
        blank = cell
        i += 1
    return i


cdef object run_weighted(Search* s, Node* root, int max_depth, const uint8_t[::1] start,
                         int blank):
    # Weighted IDA*: the serial iterations, its path's length counted.
    cdef int status
    s.study.complete = 0
    s.study.solutions = 0
    s.study.trace = NULL
    with nogil:
        status = run_search(s, root, max_depth, -1, 0)
    if status == STATUS_SOLVED:
        s.counters.depth = path_length(s, start, blank)
    return _finished(s, status, 0)


# ---------------------------------------------------------------------------------------------
# The Python entry.

def idastar(
    const uint8_t[::1] cells,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    *,
    tables,
    unsigned long long node_limit=0,
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
    double weight=1.0,
    int order=0,
):
    """IDA* with additive pattern databases on a canonical board of 17 to 64 cells.

    Parameters
    ----------
    cells : uint8 array
        The canonical start board, one tile per cell (0 = blank), in reading order.
    blank, rows, cols, goal_blank
        The start's blank cell, the shape and the goal's blank cell.
    tables : Database
        A :class:`fastpuzzle.pdb.Database` for this shape and goal: ``groups`` holds
        ``(tiles, sparse, nibble, table)`` per group, compact tables from ``_pdb.pack_table``
        (tiles in no group count their Manhattan distance); ``reflect`` the cell mirrored about
        the main diagonal per cell, to also look up the reflected board (valid only when the
        goal's blank lies on the diagonal), or None. A
        :class:`~fastpuzzle._core._patterns.LoadedPatterns` laid out with ``dual`` also reads
        them on the dual boards, with BPMX (``dfs_dual``).
    node_limit, time_limit, max_depth
        Limits (0, 0.0 and -1 mean none); DEPTH_LIMIT before a bound above ``max_depth``.
    progress : callable, optional
        ``progress(expanded, generated, seconds, bound)``, at most every 2**16 expansions
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
        The first iteration's bound when it is above the start's h (no shorter solution
        exists), as in ``_idastar.idastar``.
    machine : numpy.ndarray, optional
        The duplicate-pruning machine, as in ``_idastar.idastar`` (None: parent pruning).

    frontier : int
        A*+IDA* (Bu & Korf): A* from the start until it stores this many nodes (keyed by board
        and machine state), then IDA* below each node left open, in increasing (f, h), each
        keeping its backed-up f; 0: plain IDA*. One thread, no dual lookups.
    complete : bool
        For studies: the iteration that reaches the goal is searched to its end (a goal is a
        leaf), and the result has the optimal length but no moves.
    weight : float
        Weighted IDA* when above 1 (f = g + w*h, h rounded down to thousandths of w): the
        answer is at most ``weight`` times optimal. One thread and one partition (no
        ``workers``, ``runner``, ``units``, ``frontier``, ``min_bound``, ``complete``,
        ``trace``, dual lookups or compound); ``max_depth`` then caps f, not the length (a
        path that short may be missed), and a stopped search's ``depth`` is a weighted f.
        Without ``max_depth``, a weight whose start value passes 2,000 moves raises
        ValueError.
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
    cdef Search* s
    cdef Node root
    cdef bint capped
    cdef list keep = []
    cdef int cell, n = rows * cols
    cdef uint64_t present = 0
    if not MIN_CELLS <= n <= MAX_CELLS or rows < 1 or cols < 1:
        raise ValueError(f"expected a board of {MIN_CELLS} to {MAX_CELLS} cells, got {rows}x{cols}")
    if cells.shape[0] != n or not 0 <= blank < n or cells[blank] != 0:
        raise ValueError("cells do not describe the board")
    for cell in range(n):
        if cells[cell] < n:
            present |= (<uint64_t>1) << cells[cell]
    if present != (~(<uint64_t>0)) >> (64 - n):
        raise ValueError("cells must hold every tile 0..n-1 once")
    if not 0 <= goal_blank < n:
        raise ValueError(f"goal blank {goal_blank} is not a cell")
    if workers < 1:
        raise ValueError(f"expected workers >= 1, got {workers}")
    if frontier and n > BOARD_BYTES:
        raise ValueError(f"A*+IDA* (frontier=) stores boards of up to {BOARD_BYTES} cells")
    if not 1.0 <= weight <= 1000.0:
        raise ValueError(f"expected a weight from 1 to 1000, got {weight!r}")
    if weight > 1.0 and (workers > 1 or runner is not None or units is not None or frontier
                         or min_bound or complete or trace is not None):
        raise ValueError("weighted IDA* (weight > 1) runs on one thread, without a runner, "
                         "units, frontier=, min_bound=, complete= or trace=")
    s = <Search*>malloc(sizeof(Search))
    if s == NULL:
        raise MemoryError()
    try:
        s.n = n
        for cell in range(n):
            s.cells[cell] = cells[cell]
        init_board(s, rows, cols, goal_blank)
        init_groups(s, goal_blank, tables, keep)
        s.weight = 0 if weight <= 1.0 else <int>(weight * SCALE + 1e-9)
        if s.weight and (s.dual or s.heur.pdb.n_extra):
            raise ValueError("weighted IDA* (weight > 1) reads one partition: not dual lookups "
                             "or a compound")
        init_counters(&s.counters)
        if order < 0:
            raise ValueError(f"expected order >= 0, got {order}")
        s.order = order
        init_control(&s.control, node_limit, time_limit, 0, progress)
        s.status = STATUS_RUNNING
        s.member.team = NULL
        s.collector = NULL
        s.machine = machine_table(machine, keep)
        s.machine_states = machine_states(machine)
        capped = max_depth < 0 or max_depth > MAX_PATH
        if capped:
            max_depth = MAX_PATH
        init_root(s, &root, blank)
        if s.weight and capped and root.h > max_depth:
            raise ValueError(f"weight {weight!r} is too large for this board: its start's "
                             f"weighted value {root.h} passes the longest path searched "
                             f"({MAX_PATH} moves)")
        if s.weight:
            return run_weighted(s, &root, max_depth, cells, blank)
        return run_entry(&s, &root, workers, max_depth, keep, units, runner, progress, min_bound,
                         frontier, complete, trace)
    finally:
        free(s)
