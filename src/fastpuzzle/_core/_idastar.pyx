"""IDA*: the optimal workhorse on boards of up to 16 cells.

The engine's one node driver (``expand`` in ``_engine.pxi``) is compiled for each heuristic (a
fused type: one struct and a few inline hooks each), so no function pointer and no Python object
is touched per node. The heuristic is updated incrementally from the tile that moves: Manhattan
by per-tile tables, linear conflict by one key per row and column (only the two lines a move
touches change), walking distance by a transition table, pattern databases by one sparse index
per group (and per reflected group; ``_pdbnode.pxi``, shared with ``_wide_pdb``).

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

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from fastpuzzle._core._control cimport (
    Control,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
)
from fastpuzzle._core._result cimport (
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    core_result,
)
from fastpuzzle._core._heuristics cimport (
    H_LINEAR_CONFLICT,
    H_MANHATTAN,
    H_MISPLACED,
    H_PDB,
    H_WALKING_DISTANCE,
    GoalTables,
    init_goal_tables,
    leave_count,
    manhattan_of,
    misplaced_of,
)
from fastpuzzle._core._packed cimport (
    DIR_D,
    DIR_L,
    DIR_R,
    DIR_U,
    Geometry,
    MAX_CELLS,
    NO_CELL,
    get_tile,
    init_geometry,
    slide,
)

from fastpuzzle._core._team cimport Member
from fastpuzzle._core._patterns cimport LoadedPatterns, copy_duals, copy_patterns, patterns_for
from fastpuzzle._core._pdbgroups cimport (
    DualStep,
    Duals,
    Group,
    GroupMove,
    Patterns,
    apply_dual,
    dual_change,
    dual_step,
    entry_address,
    fill_dual,
    fill_patterns,
    four_h,
    group_entry,
    mirrored_child_index,
    move_mirrored,
    move_plain,
    pattern_h,
    plain_child_index,
    read_entry,
    restore_patterns,
    save_patterns,
    unapply_dual,
    unmove_mirrored,
    unmove_plain,
)


cdef enum:
    MAX_PATH = 255          # longest solution a driver can hold
    MAX_LINE_TABLE = 6      # lines up to this long use a lookup table; longer ones are computed
    NODE_GROUPS = 16        # a packed board has at most 15 tiles, so at most 15 groups
    MAX_CUT = 48            # deepest frontier (each node carries its path from the root)
    # Two partitions (h the larger of their sums): the compound of _pdbnode.pxi with one more.
    MAX_EXTRA = 1
    EXTRA_GROUPS = NODE_GROUPS

ctypedef uint64_t BoardWord


cdef struct Node:
    # A frontier node: where its subtree starts, and the state its heuristic goes on from.
    uint64_t board
    int blank
    int depth
    int32_t state           # the duplicate-pruning machine's
    int h
    # misplaced, Manhattan: h; linear conflict: h and the line keys; walking distance: the
    # abstractions' states
    int row_key[16]
    int col_key[16]
    int wd_v
    int wd_h
    # pattern databases (_pdbnode.pxi): Manhattan, the sums, the groups' state
    int md
    int plain
    int mirrored
    uint64_t index[NODE_GROUPS]
    uint64_t mindex[NODE_GROUPS]
    int value[NODE_GROUPS]
    int mvalue[NODE_GROUPS]
    int xplain[MAX_EXTRA]
    int xmirrored[MAX_EXTRA]
    uint64_t xindex[MAX_EXTRA][EXTRA_GROUPS]
    uint64_t xmindex[MAX_EXTRA][EXTRA_GROUPS]
    int xvalue[MAX_EXTRA][EXTRA_GROUPS]
    int xmvalue[MAX_EXTRA][EXTRA_GROUPS]
    # with dual lookups (_dual.pxi): the dual sums and the dual boards
    int dual
    int dmirrored
    uint64_t dindex[2][NODE_GROUPS]
    int dvalue[2][NODE_GROUPS]
    uint8_t path[MAX_CUT]


# The heuristics of the node driver (expand, _engine.pxi): a node's value, and how its move
# from the parent is undone. The pattern databases' are _pdbnode.pxi's.

cdef struct Misplaced:
    int h


cdef struct Manhattan:
    int h


cdef struct LinearConflict:
    int h
    int a                   # the two lines the tile moved between (rows on a vertical move)
    int b


cdef struct Walking:
    int h
    int v                   # the states of the vertical and horizontal abstractions
    int hz


include "_pdbnode.pxi"

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
    # linear conflict: one key per line, digits = goal position + 1 of tiles that belong there
    int row_key[16]
    int col_key[16]
    int row_delta[16][16]   # [tile][cell] -> that tile's digit in its row's key
    int col_delta[16][16]
    int row_len
    int col_len
    const uint8_t* row_table
    const uint8_t* col_table
    # walking distance: transition tables (the states are the nodes' values)
    const int32_t* wd_v_next
    const int32_t* wd_h_next
    const uint8_t* wd_v_dist
    const uint8_t* wd_h_dist
    int wd_v_groups
    int wd_h_groups
    int wd_v_class[16]      # [tile] -> goal row
    int wd_h_class[16]      # [tile] -> goal column
    # A side whose abstraction is too big (2x8's columns) has no tables: its state is then the
    # Manhattan component along it (still a lower bound on the moves along it).
    # pattern databases (_pdbnode.pxi): the groups and their incremental state, plain and
    # reflected; with a second partition (n_extra 1), its sums on the node being searched
    Patterns pat
    int n_extra
    int xplain[MAX_EXTRA]
    int xmirrored[MAX_EXTRA]
    Patterns extra[MAX_EXTRA]
    # dual lookups with BPMX (dfs_dual; one partition): their maps and incremental state
    int dual
    Duals duals
    # parallel search: the team this thread belongs to, and where Collect mode puts nodes
    Member member
    Collector* collector
    Study study                     # a study's requests (_engine.pxi)


# ---------------------------------------------------------------------------------------------
# Tables shared by every search (built once, under the GIL, before the first search needs them).

cdef uint8_t* LINE_TABLES[MAX_LINE_TABLE + 1]


cdef int line_extra_of_key(int key, int length) noexcept nogil:
    # Extra moves (2 per tile that must leave the line) for a line key in base length + 1.
    cdef int keys[16]
    cdef int n = 0, digit, _i
    for _i in range(length):
        digit = key % (length + 1)
        key //= length + 1
        if digit:
            keys[n] = digit - 1
            n += 1
    return 2 * leave_count(keys, n)


cdef int ensure_line_tables() except -1:
    cdef int length, size, key, _i
    cdef uint8_t* table
    for length in range(1, MAX_LINE_TABLE + 1):
        if LINE_TABLES[length] != NULL:
            continue
        size = 1
        for _i in range(length):
            size *= length + 1
        table = <uint8_t*>malloc(size)
        if table == NULL:
            raise MemoryError()
        for key in range(size):
            table[key] = line_extra_of_key(key, length)
        LINE_TABLES[length] = table
    return 0


cdef inline int line_extra(const uint8_t* table, int key, int length) noexcept nogil:
    if table != NULL:
        return table[key]
    return line_extra_of_key(key, length)


# ---------------------------------------------------------------------------------------------
# Set-up.

cdef uint64_t goal_board(const Geometry* g, const GoalTables* t) noexcept nogil:
    cdef uint64_t board = 0
    cdef int tile
    for tile in range(1, g.cells):
        board |= (<uint64_t>tile) << (4 * t.goal_cell[tile])
    return board


cdef void init_lines(Search* s, uint64_t board) noexcept nogil:
    cdef int tile, cell, home, r, c, power, _j
    s.row_len = s.g.cols
    s.col_len = s.g.rows
    s.row_table = LINE_TABLES[s.row_len] if s.row_len <= MAX_LINE_TABLE else NULL
    s.col_table = LINE_TABLES[s.col_len] if s.col_len <= MAX_LINE_TABLE else NULL
    for tile in range(16):
        for cell in range(16):
            s.row_delta[tile][cell] = 0
            s.col_delta[tile][cell] = 0
    for tile in range(1, s.g.cells):
        home = s.t.goal_cell[tile]
        for cell in range(s.g.cells):
            r = s.g.row_of[cell]
            c = s.g.col_of[cell]
            if s.g.row_of[home] == r:
                power = 1
                for _j in range(c):
                    power *= s.row_len + 1
                s.row_delta[tile][cell] = (s.g.col_of[home] + 1) * power
            if s.g.col_of[home] == c:
                power = 1
                for _j in range(r):
                    power *= s.col_len + 1
                s.col_delta[tile][cell] = (s.g.row_of[home] + 1) * power
    for r in range(16):
        s.row_key[r] = 0
        s.col_key[r] = 0
    for cell in range(s.g.cells):
        tile = get_tile(board, cell)
        if tile:
            s.row_key[s.g.row_of[cell]] += s.row_delta[tile][cell]
            s.col_key[s.g.col_of[cell]] += s.col_delta[tile][cell]


cdef int lines_extra(const Search* s) noexcept nogil:
    cdef int i, total = 0
    for i in range(s.g.rows):
        total += line_extra(s.row_table, s.row_key[i], s.row_len)
    for i in range(s.g.cols):
        total += line_extra(s.col_table, s.col_key[i], s.col_len)
    return total


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
# The heuristics' hooks (see _engine.pxi).

cdef inline int walking_h(const Search* s, int v, int hz) noexcept nogil:
    return ((s.wd_v_dist[v] if s.wd_v_dist != NULL else v)
            + (s.wd_h_dist[hz] if s.wd_h_dist != NULL else hz))


cdef inline int h_value(const Search* s, const Heuristic* v) noexcept nogil:
    if Heuristic is PdbOne or Heuristic is PdbSeveral:
        return pdb_h(s, v)
    else:
        return v.h


cdef inline int goal_value(const Search* s, const Heuristic* v) noexcept nogil:
    if Heuristic is PdbOne or Heuristic is PdbSeveral:
        return v.md
    else:
        return v.h


cdef inline void look_ahead(Search* s, BoardWord board, int blank, int depth, int32_t state,
                            Heuristic* v) noexcept nogil:
    if Heuristic is PdbOne or Heuristic is PdbSeveral:
        pdb_look_ahead(s, board, blank, depth, state, v)


cdef inline int lines_change(const Search* s, int tile, int cell, int blank, int vertical,
                             LinearConflict* child) noexcept nogil:
    # Linear conflict's change of the line extras when the tile slides from cell into the blank:
    # only the two lines it moves between (rows on a vertical move) change; its column (row)
    # keeps its order.
    cdef int a, b, before, after
    if vertical:
        a = s.g.row_of[cell]
        b = s.g.row_of[blank]
        before = (line_extra(s.row_table, s.row_key[a], s.row_len)
                  + line_extra(s.row_table, s.row_key[b], s.row_len))
        after = (line_extra(s.row_table, s.row_key[a] - s.row_delta[tile][cell], s.row_len)
                 + line_extra(s.row_table, s.row_key[b] + s.row_delta[tile][blank], s.row_len))
    else:
        a = s.g.col_of[cell]
        b = s.g.col_of[blank]
        before = (line_extra(s.col_table, s.col_key[a], s.col_len)
                  + line_extra(s.col_table, s.col_key[b], s.col_len))
        after = (line_extra(s.col_table, s.col_key[a] - s.col_delta[tile][cell], s.col_len)
                 + line_extra(s.col_table, s.col_key[b] + s.col_delta[tile][blank], s.col_len))
    child.a = a
    child.b = b
    return after - before


cdef inline void walk(const Search* s, int tile, int cell, int blank, int d, const Walking* v,
                      Walking* child) noexcept nogil:
    # The blank moves d, so the tile crosses from the blank's new line into its old one.
    child.v = v.v
    child.hz = v.hz
    if d <= DIR_D:
        if s.wd_v_next != NULL:
            child.v = s.wd_v_next[(v.v * 2 + d) * s.wd_v_groups + s.wd_v_class[tile]]
        else:
            child.v += (abs(s.g.row_of[blank] - s.wd_v_class[tile])
                        - abs(s.g.row_of[cell] - s.wd_v_class[tile]))
    else:
        if s.wd_h_next != NULL:
            child.hz = s.wd_h_next[(v.hz * 2 + d - DIR_L) * s.wd_h_groups + s.wd_h_class[tile]]
        else:
            child.hz += (abs(s.g.col_of[blank] - s.wd_h_class[tile])
                         - abs(s.g.col_of[cell] - s.wd_h_class[tile]))
    child.h = walking_h(s, child.v, child.hz)


cdef inline int child_f(Search* s, BoardWord board, int blank, int cell, int tile, int k,
                        int depth, Heuristic* v, Heuristic* child) noexcept nogil:
    if Heuristic is PdbOne or Heuristic is PdbSeveral:
        return pdb_child_f(s, blank, cell, tile, k, depth, v, child)
    else:
        if Heuristic is Misplaced:
            child.h = v.h + (cell == s.t.goal_cell[tile]) - (blank == s.t.goal_cell[tile])
        elif Heuristic is Manhattan:
            child.h = v.h + manhattan_change(s, tile, cell, blank)
        elif Heuristic is LinearConflict:
            child.h = (v.h + manhattan_change(s, tile, cell, blank)
                       + lines_change(s, tile, cell, blank, s.move_dir[blank][k] <= DIR_D,
                                      child))
        else:
            walk(s, tile, cell, blank, s.move_dir[blank][k], v, child)
        return depth + 1 + child.h


cdef inline void enter_child(Search* s, int blank, int cell, int tile, int k, Heuristic* v,
                             Heuristic* child) noexcept nogil:
    if Heuristic is LinearConflict:
        if s.move_dir[blank][k] <= DIR_D:
            s.row_key[child.a] -= s.row_delta[tile][cell]
            s.row_key[child.b] += s.row_delta[tile][blank]
            s.col_key[s.g.col_of[cell]] += s.col_delta[tile][blank] - s.col_delta[tile][cell]
        else:
            s.col_key[child.a] -= s.col_delta[tile][cell]
            s.col_key[child.b] += s.col_delta[tile][blank]
            s.row_key[s.g.row_of[cell]] += s.row_delta[tile][blank] - s.row_delta[tile][cell]
    elif Heuristic is PdbOne or Heuristic is PdbSeveral:
        pdb_enter_child(s, tile, k, v, child)


cdef inline void leave_child(Search* s, int blank, int cell, int tile, int k, Heuristic* v,
                             Heuristic* child) noexcept nogil:
    if Heuristic is LinearConflict:
        if s.move_dir[blank][k] <= DIR_D:
            s.row_key[child.a] += s.row_delta[tile][cell]
            s.row_key[child.b] -= s.row_delta[tile][blank]
            s.col_key[s.g.col_of[cell]] -= s.col_delta[tile][blank] - s.col_delta[tile][cell]
        else:
            s.col_key[child.a] += s.col_delta[tile][cell]
            s.col_key[child.b] -= s.col_delta[tile][blank]
            s.row_key[s.g.row_of[cell]] -= s.row_delta[tile][blank] - s.row_delta[tile][cell]
    elif Heuristic is PdbOne or Heuristic is PdbSeveral:
        pdb_leave_child(s, tile, child)


cdef inline void save_value(const Search* s, Node* node, const Heuristic* v) noexcept nogil:
    cdef int i
    if Heuristic is LinearConflict:
        for i in range(s.g.rows):
            node.row_key[i] = s.row_key[i]
        for i in range(s.g.cols):
            node.col_key[i] = s.col_key[i]
    elif Heuristic is Walking:
        node.wd_v = v.v
        node.wd_h = v.hz
    elif Heuristic is PdbOne or Heuristic is PdbSeveral:
        pdb_save(s, node, v)


cdef inline void load_value(Search* s, const Node* node, Heuristic* v) noexcept nogil:
    cdef int i
    if Heuristic is Misplaced or Heuristic is Manhattan:
        v.h = node.h
    elif Heuristic is LinearConflict:
        v.h = node.h
        for i in range(s.g.rows):
            s.row_key[i] = node.row_key[i]
        for i in range(s.g.cols):
            s.col_key[i] = node.col_key[i]
    elif Heuristic is Walking:
        v.v = node.wd_v
        v.hz = node.wd_h
        v.h = walking_h(s, v.v, v.hz)
    else:
        pdb_load(s, node, v)


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
    if s.n_extra:
        return search_node(s, node, SEVERAL, mode)
    return search_node(s, node, ONE, mode)


cdef void init_root(Search* s, Node* root, uint64_t board, int blank, int wd_v,
                    int wd_h) noexcept nogil:
    # The start as a node, with s's incremental state its (linear conflict's line keys were set
    # by init_lines; wd_v and wd_h: walking distance's states).
    cdef uint8_t tile_at[16]
    cdef int cell, md = manhattan_of(board, &s.g, &s.t)
    cdef Misplaced misplaced
    cdef Manhattan manhattan
    cdef LinearConflict conflict
    cdef Walking walking
    cdef PdbOne one
    cdef PdbSeveral several
    for cell in range(s.g.cells):
        tile_at[cell] = get_tile(board, cell)
    if s.kind == H_MISPLACED:
        misplaced.h = misplaced_of(board, &s.g, &s.t)
        save_root(s, root, board, blank, &misplaced)
    elif s.kind == H_MANHATTAN:
        manhattan.h = md
        save_root(s, root, board, blank, &manhattan)
    elif s.kind == H_LINEAR_CONFLICT:
        conflict.h = md + lines_extra(s)
        save_root(s, root, board, blank, &conflict)
    elif s.kind == H_WALKING_DISTANCE:
        walking.v = wd_v
        walking.hz = wd_h
        walking.h = walking_h(s, wd_v, wd_h)
        save_root(s, root, board, blank, &walking)
    elif s.dual:
        dual_root(s, root, board, tile_at, s.g.cells, blank, md)
    elif s.n_extra:
        pdb_root(s, tile_at, s.g.cells, md, &several)
        save_root(s, root, board, blank, &several)
    else:
        pdb_root(s, tile_at, s.g.cells, md, &one)
        save_root(s, root, board, blank, &one)


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
    machine=None,    unsigned long long frontier=0,
    bint complete=False,
    list trace=None,
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
        as in ``_pdb``; ``reflect``: the cell mirrored about the main diagonal per cell, or None);
        for ``H_WALKING_DISTANCE`` a :class:`fastpuzzle.pdb.WalkingTables`.
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

    Returns
    -------
    CoreResult
        Moves are blank directions.
    """
    cdef Search* s = <Search*>malloc(sizeof(Search))
    cdef Node root
    cdef const uint8_t[::1] v_dist, h_dist
    cdef const int32_t[::1] v_next, h_next
    cdef list keep = []
    cdef LoadedPatterns loaded
    cdef int tile, wd_v = 0, wd_h = 0
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
        init_control(&s.control, node_limit, time_limit, 0, progress)
        s.kind = heuristic
        s.goal = goal_board(&s.g, &s.t)
        s.status = STATUS_RUNNING
        s.pat.n_groups = 0
        s.pat.mirror = 0
        s.n_extra = 0
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
            ensure_line_tables()
            init_lines(s, packed)
        elif s.kind == H_WALKING_DISTANCE:
            if tables is None:
                raise ValueError("walking_distance needs its tables")
            vertical, horizontal = tables.vertical, tables.horizontal
            keep.append(tables)
            s.wd_v_groups, wd_v = vertical.lines, vertical.start
            s.wd_h_groups, wd_h = horizontal.lines, horizontal.start
            s.wd_v_next = s.wd_h_next = NULL
            s.wd_v_dist = s.wd_h_dist = NULL
            if vertical.next is not None:
                v_next = vertical.next
                v_dist = vertical.distance
                s.wd_v_next = &v_next[0]
                s.wd_v_dist = &v_dist[0]
            if horizontal.next is not None:
                h_next = horizontal.next
                h_dist = horizontal.distance
                s.wd_h_next = &h_next[0]
                s.wd_h_dist = &h_dist[0]
            for tile in range(1, s.g.cells):
                s.wd_v_class[tile] = s.g.row_of[s.t.goal_cell[tile]]
                s.wd_h_class[tile] = s.g.col_of[s.t.goal_cell[tile]]
        elif s.kind == H_PDB:
            if tables is None:
                raise ValueError("pattern databases need their tables")
            if isinstance(tables, tuple):
                # Two partitions: h is the larger of their (plain and reflected) sums.
                if len(tables) != 2:
                    raise ValueError("expected one pattern database or a pair of them")
                loaded = patterns_for(tables[1], s.g.cells, 4, goal_blank)
                if loaded.pat.n_groups > EXTRA_GROUPS:
                    raise ValueError(f"a second partition has at most {EXTRA_GROUPS} groups")
                keep.append(loaded)
                copy_patterns(&s.extra[0], &loaded.pat)
                s.n_extra = 1
                tables = tables[0]
            loaded = patterns_for(tables, s.g.cells, 4, goal_blank)
            if loaded.n_extra:
                raise ValueError("compound tables are read past 16 cells (_wide_pdb)")
            keep.append(loaded)
            copy_patterns(&s.pat, &loaded.pat)
            if loaded.dual:
                if s.n_extra:
                    raise ValueError("dual lookups take one pattern database, not a pair")
                copy_duals(&s.duals, &loaded.duals, loaded.pat.n_groups)
                s.dual = 1
        init_root(s, &root, packed, blank, wd_v, wd_h)
        return run_entry(&s, &root, workers, max_depth, keep, units, runner, progress, min_bound,
                         frontier, complete, trace)
    finally:
        free(s)
