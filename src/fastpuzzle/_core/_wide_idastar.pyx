"""IDA* on wide boards: any size up to 100x100, one uint16 per cell (see ``_wide.pxd``).

The search is compiled once per heuristic (the fused ``WideHeuristic``: a value struct and three
hooks a family, below), so no child tests which heuristic it runs. Node counting, child order
(D, R, L, U) and duplicate pruning are those of ``_idastar``. Cells hold tiles relabelled so the
goal is canonical; the Python layer validates input and the kernel trusts it. Moves are
direction codes of the **blank**: U=0, D=1, L=2, R=3.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t

from fastpuzzle._core._engine cimport (
    FORBIDDEN,
    FOUND,
    MACHINE_START,
    SEARCHED,
    STOPPED,
    child_direction,
    machine_next,
    machine_table,
)

from fastpuzzle._core._control cimport (
    Control,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
)
from fastpuzzle._core._result cimport (
    STATUS_DEPTH_LIMIT,
    STATUS_EXHAUSTED,
    STATUS_RUNNING,
    STATUS_SOLVED,
    core_result,
)
from fastpuzzle._core._heuristics cimport H_LINEAR_CONFLICT, H_MANHATTAN, H_WALKING_DISTANCE
from fastpuzzle._core._packed cimport DIR_D, DIR_L, NO_CELL, move_letters
from fastpuzzle._core._walking cimport WalkingSide, side_setup, side_step, side_value
from fastpuzzle._core._wide cimport (
    WIDE_MAX_SIDE,
    wide_goal_lines,
    wide_line_extra,
    wide_neighbour,
)


# f is kept in thousandths so a weight w (f = g + w*h) stays an exact integer: the weight is
# rounded down to 1/1000, which keeps the bound "length <= w * optimal" true for the w asked.

cdef enum:
    WIDE_MAX_PATH = 1000        # deepest path IDA* follows: keeps the recursion's stack small
    SCALE = 1000


cdef struct LinesState:
    # Linear conflict: each line's extra moves (2 per tile that must leave it) at the node
    # being searched.
    int row_extra[WIDE_MAX_SIDE]
    int col_extra[WIDE_MAX_SIDE]


cdef struct WalkingState:
    # Walking distance: the two sides' tables (_walking.pxd, shared with the packed kernel).
    WalkingSide vert
    WalkingSide horz
    int v_start                 # the start's states
    int h_start


cdef union SearchHeuristic:
    # The state of the heuristic being searched with (Manhattan has none).
    LinesState lines
    WalkingState walking


cdef struct WideSearch:
    int rows
    int cols
    int blank
    long long weight            # w * SCALE, rounded down
    long long bound
    long long next_bound
    int max_depth               # nodes at this depth are not expanded
    bint depth_cut
    int status
    uint16_t* cells
    int16_t* row_of             # [cell]
    int16_t* col_of
    int16_t* goal_row           # [tile]
    int16_t* goal_col
    SearchHeuristic heur
    uint8_t path[WIDE_MAX_PATH]
    Control* control
    SearchCounters* counters
    const int32_t* machine      # duplicate pruning (_fsm.pyx), as in _idastar


cdef inline int manhattan_change(const WideSearch* s, int tile, int target,
                                 int blank) noexcept nogil:
    # The change of the tile's distance when it slides from ``target`` onto ``blank``.
    return (abs(s.row_of[blank] - s.goal_row[tile]) + abs(s.col_of[blank] - s.goal_col[tile])
            - abs(s.row_of[target] - s.goal_row[tile]) - abs(s.col_of[target] - s.goal_col[tile]))


cdef int board_manhattan(const WideSearch* s) noexcept nogil:
    cdef int cell, tile, total = 0
    for cell in range(s.rows * s.cols):
        tile = s.cells[cell]
        if tile != 0:
            total += (abs(s.row_of[cell] - s.goal_row[tile])
                      + abs(s.col_of[cell] - s.goal_col[tile]))
    return total


# -- The heuristic families: a node's value and its hooks, one struct each ----------------------
#
# value_root: the start's value (the search's state set for it); child_value: a child's, called
# once the tile has moved (s.cells is the child's board), updating the search's state;
# leave_child: that state back to the parent's. dfs is compiled once per family (the fused
# WideHeuristic), so no node tests which heuristic it runs.

cdef struct Manhattan:
    int h


cdef struct LinearConflict:
    int h
    int line                    # the line whose extra the move changed (-1: none)
    int old                     # its extra before


cdef struct Walking:
    int h
    int v                       # the states of the vertical and horizontal abstractions
    int hz


ctypedef fused WideHeuristic:
    Manhattan
    LinearConflict
    Walking


cdef int row_extra(const WideSearch* s, int r) noexcept nogil:
    return wide_line_extra(&s.cells[r * s.cols], 1, s.cols, s.goal_row, s.goal_col, r)


cdef int col_extra(const WideSearch* s, int c) noexcept nogil:
    return wide_line_extra(&s.cells[c], s.cols, s.rows, s.goal_col, s.goal_row, c)


cdef inline int walking_value(const WideSearch* s, int v, int hz) noexcept nogil:
    return side_value(&s.heur.walking.vert, v) + side_value(&s.heur.walking.horz, hz)


cdef void value_root(WideSearch* s, WideHeuristic* v) noexcept nogil:
    cdef int r, c
    if WideHeuristic is Manhattan:
        v.h = board_manhattan(s)
    elif WideHeuristic is LinearConflict:
        v.h = board_manhattan(s)
        for r in range(s.rows):
            s.heur.lines.row_extra[r] = row_extra(s, r)
            v.h += s.heur.lines.row_extra[r]
        for c in range(s.cols):
            s.heur.lines.col_extra[c] = col_extra(s, c)
            v.h += s.heur.lines.col_extra[c]
    else:
        v.v = s.heur.walking.v_start
        v.hz = s.heur.walking.h_start
        v.h = walking_value(s, v.v, v.hz)


cdef inline void child_value(WideSearch* s, const WideHeuristic* v, WideHeuristic* child, int d,
                             int tile, int blank, int target) noexcept nogil:
    # The tile slid from ``target`` onto ``blank`` (the blank moved d).
    cdef int b, old
    if WideHeuristic is Manhattan:
        child.h = v.h + manhattan_change(s, tile, target, blank)
    elif WideHeuristic is LinearConflict:
        # A vertical move takes one tile from one row to another (its column keeps its
        # order); a horizontal move, from one column to another. A line counts only the
        # tiles whose goal is on it, so only the tile's goal line can change, if it is one
        # of the two.
        child.h = v.h + manhattan_change(s, tile, target, blank)
        child.line = -1
        if d <= DIR_D:
            b = s.goal_row[tile]
            if b == s.row_of[blank] or b == s.row_of[target]:
                old = s.heur.lines.row_extra[b]
                s.heur.lines.row_extra[b] = row_extra(s, b)
                child.h += s.heur.lines.row_extra[b] - old
                child.line = b
                child.old = old
        else:
            b = s.goal_col[tile]
            if b == s.col_of[blank] or b == s.col_of[target]:
                old = s.heur.lines.col_extra[b]
                s.heur.lines.col_extra[b] = col_extra(s, b)
                child.h += s.heur.lines.col_extra[b] - old
                child.line = b
                child.old = old
    else:
        # The tile crosses from the blank's new line into its old one.
        child.v = v.v
        child.hz = v.hz
        if d <= DIR_D:
            child.v = side_step(&s.heur.walking.vert, v.v, d, s.goal_row[tile],
                                s.row_of[target], s.row_of[blank])
        else:
            child.hz = side_step(&s.heur.walking.horz, v.hz, d - DIR_L, s.goal_col[tile],
                                 s.col_of[target], s.col_of[blank])
        child.h = walking_value(s, child.v, child.hz)


cdef inline void leave_child(WideSearch* s, const WideHeuristic* child, int d) noexcept nogil:
    if WideHeuristic is LinearConflict:
        if child.line >= 0:
            if d <= DIR_D:
                s.heur.lines.row_extra[child.line] = child.old
            else:
                s.heur.lines.col_extra[child.line] = child.old


# -- The search -----------------------------------------------------------------------------------

cdef int dfs(WideSearch* s, int g, const WideHeuristic* v, int32_t state) except -2 nogil:
    # A return code of _engine.pxd (FOUND: the path is in s.path[:g]); children in the engine's
    # order, less those the machine forbids (``state``: its state here).
    cdef long long f = <long long>SCALE * g + s.weight * v.h
    cdef int k, d, target, tile, blank, found, result
    cdef int32_t next_state
    cdef WideHeuristic child
    if f > s.bound:
        if f < s.next_bound:
            s.next_bound = f
        return SEARCHED
    if v.h == 0:
        s.counters.depth = g
        return FOUND
    if g >= s.max_depth:
        s.depth_cut = True
        return SEARCHED
    s.counters.expanded += 1
    if s.counters.expanded >= s.control.next_check:
        result = checkpoint(s.control, s.counters, 0)
        if result != STATUS_RUNNING:
            s.status = result
            return STOPPED
    blank = s.blank
    for k in range(4):
        d = child_direction(k)
        next_state = machine_next(s.machine, state, d)
        if next_state == FORBIDDEN:
            continue
        target = wide_neighbour(blank, d, s.rows, s.cols)
        if target == NO_CELL:
            continue
        tile = s.cells[target]
        s.cells[blank] = tile
        s.cells[target] = 0
        s.blank = target
        child_value(s, v, &child, d, tile, blank, target)
        s.counters.generated += 1
        s.path[g] = d
        found = dfs(s, g + 1, &child, next_state)
        if found != SEARCHED:
            return found
        s.cells[target] = tile
        s.cells[blank] = 0
        s.blank = blank
        leave_child(s, &child, d)
    return SEARCHED


cdef int run_idastar(WideSearch* s, WideHeuristic* root) except -2 nogil:
    cdef int found
    value_root(s, root)
    s.bound = s.weight * root.h
    while True:
        # Every node on a path of at most max_depth moves has f <= w * max_depth (h is
        # admissible), so past that bound no such path is left to find.
        if s.bound > s.weight * s.max_depth:
            return STATUS_DEPTH_LIMIT
        s.counters.iterations += 1
        s.counters.depth = <int>(s.bound // SCALE)
        s.next_bound = 1LL << 62
        s.depth_cut = False
        found = dfs(s, 0, root, MACHINE_START)
        if found == FOUND:
            return STATUS_SOLVED
        if found == STOPPED:
            return s.status
        if s.next_bound == 1LL << 62:
            return STATUS_DEPTH_LIMIT if s.depth_cut else STATUS_EXHAUSTED
        s.bound = s.next_bound


def idastar(
    uint16_t[::1] cells,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    *,
    int heuristic=H_LINEAR_CONFLICT,
    double weight=1.0,
    tables=None,
    unsigned long long node_limit=0,
    double time_limit=0.0,
    int max_depth=-1,
    progress=None,
    machine=None,
):
    """IDA* (weighted when ``weight`` > 1: f = g + w*h) on a canonical wide board.

    ``cells`` is used as scratch and left in an unspecified order. ``heuristic`` is the
    :class:`~fastpuzzle._core._heuristics.HeuristicCode` of Manhattan, linear conflict or walking
    distance; the last needs ``tables``, a :class:`fastpuzzle.pdb.WalkingTables` (a side
    without transition tables starts from its Manhattan component). ``max_depth`` < 0 means the
    core's own cap (1000 moves). ``progress`` is called as ``progress(expanded, generated,
    seconds, bound)`` every 2**16 expansions. ``machine`` is the duplicate-pruning machine of a
    box that fits the board (``_fsm.compile``; None: parent pruning alone). Children are tried
    with the blank moving D, R, L, U, as in every IDA* kernel.

    Returns a :class:`~fastpuzzle._core._result.CoreResult`; moves are blank directions (U/D/L/R).
    """
    cdef WideSearch s
    cdef Control control
    cdef SearchCounters counters
    cdef int n = rows * cols, cell, status, levels
    cdef list keep = []
    cdef Manhattan manhattan
    cdef LinearConflict conflict
    cdef Walking walking
    if weight < 1.0:
        raise ValueError(f"expected a weight >= 1, got {weight!r}")
    if heuristic not in (H_MANHATTAN, H_LINEAR_CONFLICT, H_WALKING_DISTANCE):
        raise ValueError(f"wide IDA* has no kernel for heuristic code {heuristic}")
    if heuristic == H_WALKING_DISTANCE:
        if tables is None:
            raise ValueError("walking_distance needs its tables")
        vertical, horizontal = tables.vertical, tables.horizontal
        if vertical.lines != rows or horizontal.lines != cols:
            raise ValueError("walking-distance tables do not match the board")
        # The caller keeps the arrays alive (``tables`` is referenced for the whole call).
        side_setup(&s.heur.walking.vert, vertical)
        side_setup(&s.heur.walking.horz, horizontal)
        s.heur.walking.v_start = vertical.start
        s.heur.walking.h_start = horizontal.start
    s.rows = rows
    s.cols = cols
    s.blank = blank
    s.cells = &cells[0]
    s.weight = <long long>(weight * SCALE + 1e-9)
    s.max_depth = WIDE_MAX_PATH if max_depth < 0 or max_depth > WIDE_MAX_PATH else max_depth
    s.status = STATUS_RUNNING
    s.machine = machine_table(machine, keep)
    init_control(&control, node_limit, time_limit, 0, progress)
    init_counters(&counters)
    s.control = &control
    s.counters = &counters
    s.row_of = <int16_t*>PyMem_Malloc(n * sizeof(int16_t))
    s.col_of = <int16_t*>PyMem_Malloc(n * sizeof(int16_t))
    s.goal_row = <int16_t*>PyMem_Malloc(n * sizeof(int16_t))
    s.goal_col = <int16_t*>PyMem_Malloc(n * sizeof(int16_t))
    try:
        if s.row_of == NULL or s.col_of == NULL or s.goal_row == NULL or s.goal_col == NULL:
            raise MemoryError()
        for cell in range(n):
            s.row_of[cell] = cell // cols
            s.col_of[cell] = cell % cols
        wide_goal_lines(n, cols, goal_blank, s.goal_row, s.goal_col)
        with nogil:
            if heuristic == H_MANHATTAN:
                status = run_idastar(&s, &manhattan)
            elif heuristic == H_LINEAR_CONFLICT:
                status = run_idastar(&s, &conflict)
            else:
                status = run_idastar(&s, &walking)
        moves = ""
        if status == STATUS_SOLVED:
            moves = (<bytes>(<char*>s.path)[:counters.depth]).translate(_LETTERS)
            moves = moves.decode("ascii")
        else:
            counters.depth = <int>(s.bound // SCALE)
        # The deepest path: the solution's, else the last bound's (no deeper than max_depth).
        levels = min(counters.depth, s.max_depth) + 1
        return core_result(
            status,
            moves,
            counters.expanded,
            counters.generated,
            levels,
            # Stored: the one board, changed in place (2 bytes a cell), and a move byte a level.
            n * sizeof(uint16_t) + levels,
            elapsed(&control),
            counters.depth,
            counters.iterations,
            sizeof(WideSearch) + 4 * n * sizeof(int16_t),
        )
    finally:
        PyMem_Free(s.row_of)
        PyMem_Free(s.col_of)
        PyMem_Free(s.goal_row)
        PyMem_Free(s.goal_col)


#: The longest path the search follows: a larger ``max_depth`` is searched to this one.
MAX_PATH = WIDE_MAX_PATH

_LETTERS = bytes.maketrans(bytes(range(4)), move_letters()[:4])
