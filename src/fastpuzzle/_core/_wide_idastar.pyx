"""IDA* on wide boards: any size up to 100x100, one uint16 per cell (see ``_wide.pxd``).

Cells hold tiles relabelled so the goal is canonical; the Python layer validates input and the
kernel trusts it. Moves are direction codes of the **blank**: U=0, D=1, L=2, R=3.
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
from fastpuzzle._core._packed cimport DIR_D, DIR_L, NO_CELL, goal_cell_of, move_letters
from fastpuzzle._core._wide cimport WIDE_MAX_SIDE, wide_leave_count, wide_neighbour


# -- IDA* on wide boards ------------------------------------------------------------------------
#
# f is kept in thousandths so a weight w (f = g + w*h) stays an exact integer: the weight is
# rounded down to 1/1000, which keeps the bound "length <= w * optimal" true for the w asked.

cdef enum:
    WIDE_MAX_PATH = 1000        # deepest path IDA* follows: keeps the recursion's stack small
    SCALE = 1000

cdef struct WideSearch:
    int rows
    int cols
    int blank
    int kind
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
    int row_conf[WIDE_MAX_SIDE]
    int col_conf[WIDE_MAX_SIDE]
    # walking distance: the state of each side's abstraction and its tables; a side without
    # tables (its abstraction is too big) keeps its Manhattan component in the state instead
    int wd_v
    int wd_h
    int wd_v_lines
    int wd_h_lines
    const int32_t* wd_v_next
    const int32_t* wd_h_next
    const uint8_t* wd_v_dist
    const uint8_t* wd_h_dist
    uint8_t path[WIDE_MAX_PATH]
    Control* control
    SearchCounters* counters
    const int32_t* machine      # duplicate pruning (_fsm.pyx), as in _idastar


cdef inline int search_distance(const WideSearch* s, int tile, int cell) noexcept nogil:
    return abs(s.row_of[cell] - s.goal_row[tile]) + abs(s.col_of[cell] - s.goal_col[tile])


cdef int search_row_conflicts(const WideSearch* s, int r) noexcept nogil:
    cdef int keys[WIDE_MAX_SIDE]
    cdef int c, tile, n = 0
    for c in range(s.cols):
        tile = s.cells[r * s.cols + c]
        if tile != 0 and s.goal_row[tile] == r:
            keys[n] = s.goal_col[tile]
            n += 1
    return 2 * wide_leave_count(keys, n)


cdef int search_col_conflicts(const WideSearch* s, int c) noexcept nogil:
    cdef int keys[WIDE_MAX_SIDE]
    cdef int r, tile, n = 0
    for r in range(s.rows):
        tile = s.cells[r * s.cols + c]
        if tile != 0 and s.goal_col[tile] == c:
            keys[n] = s.goal_row[tile]
            n += 1
    return 2 * wide_leave_count(keys, n)


cdef inline int walking_h(const WideSearch* s) noexcept nogil:
    return ((s.wd_v_dist[s.wd_v] if s.wd_v_dist != NULL else s.wd_v)
            + (s.wd_h_dist[s.wd_h] if s.wd_h_dist != NULL else s.wd_h))


cdef inline void walk(WideSearch* s, int d, int tile, int blank, int target) noexcept nogil:
    # The tile on ``target`` slides onto ``blank``: it crosses from the blank's new line into
    # the blank's old one (d names the blank's direction).
    cdef int goal
    if d <= DIR_D:
        goal = s.goal_row[tile]
        if s.wd_v_next != NULL:
            s.wd_v = s.wd_v_next[(s.wd_v * 2 + d) * s.wd_v_lines + goal]
        else:
            s.wd_v += abs(s.row_of[blank] - goal) - abs(s.row_of[target] - goal)
    else:
        goal = s.goal_col[tile]
        if s.wd_h_next != NULL:
            s.wd_h = s.wd_h_next[(s.wd_h * 2 + d - DIR_L) * s.wd_h_lines + goal]
        else:
            s.wd_h += abs(s.col_of[blank] - goal) - abs(s.col_of[target] - goal)


cdef int dfs(WideSearch* s, int g, int h, int32_t state) except -2 nogil:
    # A return code of _engine.pxd (FOUND: the path is in s.path[:g]); children in the engine's
    # order, less those the machine forbids (``state``: its state here).
    cdef long long f = <long long>SCALE * g + s.weight * h
    cdef int k, d, target, tile, blank, nh, found, a, b, old_a, result, old_v, old_h
    cdef int32_t next_state
    if f > s.bound:
        if f < s.next_bound:
            s.next_bound = f
        return SEARCHED
    if h == 0:
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
        nh = h - search_distance(s, tile, target) + search_distance(s, tile, blank)
        old_v = s.wd_v
        old_h = s.wd_h
        if s.kind == H_WALKING_DISTANCE:
            walk(s, d, tile, blank, target)
            nh = walking_h(s)
        s.cells[blank] = tile
        s.cells[target] = 0
        s.blank = target
        a = -1
        old_a = 0
        if s.kind == H_LINEAR_CONFLICT:
            # A vertical move takes one tile from one row to another (its column keeps its
            # order); a horizontal move, from one column to another. A line counts only the
            # tiles whose goal is on it, so only the tile's goal line can change, if it is one
            # of the two.
            if d <= DIR_D:
                b = s.goal_row[tile]
                if b == s.row_of[blank] or b == s.row_of[target]:
                    a = b
                    old_a = s.row_conf[a]
                    s.row_conf[a] = search_row_conflicts(s, a)
                    nh += s.row_conf[a] - old_a
            else:
                b = s.goal_col[tile]
                if b == s.col_of[blank] or b == s.col_of[target]:
                    a = b
                    old_a = s.col_conf[a]
                    s.col_conf[a] = search_col_conflicts(s, a)
                    nh += s.col_conf[a] - old_a
        s.counters.generated += 1
        s.path[g] = d
        found = dfs(s, g + 1, nh, next_state)
        if found != SEARCHED:
            return found
        s.cells[target] = tile
        s.cells[blank] = 0
        s.blank = blank
        s.wd_v = old_v
        s.wd_h = old_h
        if a >= 0:
            if d <= DIR_D:
                s.row_conf[a] = old_a
            else:
                s.col_conf[a] = old_a
    return SEARCHED


cdef int run_idastar(WideSearch* s) except -2 nogil:
    cdef int h = 0, cell, r, c, found
    cdef int n = s.rows * s.cols
    for cell in range(n):
        if s.cells[cell] != 0:
            h += search_distance(s, s.cells[cell], cell)
    if s.kind == H_LINEAR_CONFLICT:
        for r in range(s.rows):
            s.row_conf[r] = search_row_conflicts(s, r)
            h += s.row_conf[r]
        for c in range(s.cols):
            s.col_conf[c] = search_col_conflicts(s, c)
            h += s.col_conf[c]
    elif s.kind == H_WALKING_DISTANCE:
        h = walking_h(s)
    s.bound = s.weight * h
    while True:
        # Every node on a path of at most max_depth moves has f <= w * max_depth (h is
        # admissible), so past that bound no such path is left to find.
        if s.bound > s.weight * s.max_depth:
            return STATUS_DEPTH_LIMIT
        s.counters.iterations += 1
        s.counters.depth = <int>(s.bound // SCALE)
        s.next_bound = 1LL << 62
        s.depth_cut = False
        found = dfs(s, 0, h, MACHINE_START)
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
    cdef int n = rows * cols, cell, tile, home, status, levels
    cdef const int32_t[::1] v_next
    cdef const int32_t[::1] h_next
    cdef const uint8_t[::1] v_dist
    cdef const uint8_t[::1] h_dist
    cdef list keep = []
    if weight < 1.0:
        raise ValueError(f"expected a weight >= 1, got {weight!r}")
    if heuristic not in (H_MANHATTAN, H_LINEAR_CONFLICT, H_WALKING_DISTANCE):
        raise ValueError(f"wide IDA* has no kernel for heuristic code {heuristic}")
    s.kind = heuristic
    s.wd_v = s.wd_h = 0
    s.wd_v_lines = rows
    s.wd_h_lines = cols
    s.wd_v_next = s.wd_h_next = NULL
    s.wd_v_dist = s.wd_h_dist = NULL
    if s.kind == H_WALKING_DISTANCE:
        if tables is None:
            raise ValueError("walking_distance needs its tables")
        vertical, horizontal = tables.vertical, tables.horizontal
        if vertical.lines != rows or horizontal.lines != cols:
            raise ValueError("walking-distance tables do not match the board")
        s.wd_v, s.wd_h = vertical.start, horizontal.start
        # The caller keeps the arrays alive (``tables`` is referenced for the whole call).
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
        s.goal_row[0] = goal_blank // cols
        s.goal_col[0] = goal_blank % cols
        for tile in range(1, n):
            home = goal_cell_of(tile, goal_blank)
            s.goal_row[tile] = home // cols
            s.goal_col[tile] = home % cols
        with nogil:
            status = run_idastar(&s)
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


_LETTERS = bytes.maketrans(bytes(range(4)), move_letters()[:4])
