# The heuristic codes of every compiled kernel, the tables for a canonical goal (see _packed.pxd)
# and the whole-board evaluations of the heuristics that need no tables.
#
# Names live in one place only, the catalogue of fastpuzzle/heuristics.py, which reads these codes
# from the Python-visible enum (``fastpuzzle._core._heuristics.HeuristicCode``). misplaced,
# manhattan and linear_conflict are admissible and consistent; none counts the blank.

from libc.math cimport ceil, sqrt
from libc.stdint cimport int8_t, uint8_t, uint64_t

from fastpuzzle._core._packed cimport Geometry, MAX_CELLS, get_tile, goal_cell_of

cpdef enum HeuristicCode:
    H_NONE = -1                 # uninformed searches
    H_MISPLACED = 0
    H_MANHATTAN = 1
    H_LINEAR_CONFLICT = 2
    H_WALKING_DISTANCE = 3      # needs its tables (IDA* only)
    H_PDB = 4                   # needs its tables (IDA* only)
    H_SQUARED_DIFFERENCE = 5
    H_EUCLIDEAN = 6

cdef enum:
    LINE_MAX = 100              # longest line leave_count takes (a 100x100 wide board's)

cdef struct GoalTables:
    int goal_blank
    int8_t goal_cell[16]            # [tile] -> cell in the goal (tile 0: the goal's blank cell)
    uint8_t distance[16][16]        # [tile][cell] -> Manhattan distance of tile at cell to its goal

cdef inline void init_goal_tables(GoalTables* t, const Geometry* g, int goal_blank) noexcept nogil:
    cdef int tile, cell, home
    t.goal_blank = goal_blank
    for tile in range(MAX_CELLS):
        t.goal_cell[tile] = 0
        for cell in range(MAX_CELLS):
            t.distance[tile][cell] = 0
    t.goal_cell[0] = goal_blank
    for tile in range(1, g.cells):
        home = goal_cell_of(tile, goal_blank)
        t.goal_cell[tile] = home
        for cell in range(g.cells):
            t.distance[tile][cell] = (
                abs(g.row_of[cell] - g.row_of[home]) + abs(g.col_of[cell] - g.col_of[home])
            )

cdef inline int misplaced_of(uint64_t board, const Geometry* g, const GoalTables* t) noexcept nogil:
    cdef int cell, tile, count = 0
    for cell in range(g.cells):
        tile = get_tile(board, cell)
        if tile != 0 and t.goal_cell[tile] != cell:
            count += 1
    return count

cdef inline int manhattan_of(uint64_t board, const Geometry* g, const GoalTables* t) noexcept nogil:
    cdef int cell, tile, total = 0
    for cell in range(g.cells):
        tile = get_tile(board, cell)
        if tile != 0:
            total += t.distance[tile][cell]
    return total

cdef inline int leave_count(const int* keys, int n) noexcept nogil:
    # Tiles that must leave a line: n minus the longest increasing run of goal positions
    # (patience sorting, O(n log n), so the 100-cell lines of wide boards stay cheap).
    cdef int tails[LINE_MAX]
    cdef int i, lo, hi, mid, length = 0
    for i in range(n):
        lo = 0
        hi = length
        while lo < hi:
            mid = (lo + hi) >> 1
            if tails[mid] < keys[i]:
                lo = mid + 1
            else:
                hi = mid
        tails[lo] = keys[i]
        if lo == length:
            length += 1
    return n - length

cdef inline int line_conflicts_of(
    uint64_t board, const Geometry* g, const GoalTables* t
) noexcept nogil:
    # Hansson's rule: in each row (column), the tiles whose goal is that row (column) must all
    # be in increasing goal order; every tile that must leave the line costs two extra moves.
    cdef int keys[16]
    cdef int r, c, cell, tile, home, n, extra = 0
    for r in range(g.rows):
        n = 0
        for c in range(g.cols):
            cell = r * g.cols + c
            tile = get_tile(board, cell)
            if tile != 0:
                home = t.goal_cell[tile]
                if g.row_of[home] == r:
                    keys[n] = g.col_of[home]
                    n += 1
        extra += leave_count(keys, n)
    for c in range(g.cols):
        n = 0
        for r in range(g.rows):
            cell = r * g.cols + c
            tile = get_tile(board, cell)
            if tile != 0:
                home = t.goal_cell[tile]
                if g.col_of[home] == c:
                    keys[n] = g.row_of[home]
                    n += 1
        extra += leave_count(keys, n)
    return 2 * extra

cdef inline int linear_conflict_of(
    uint64_t board, const Geometry* g, const GoalTables* t
) noexcept nogil:
    return manhattan_of(board, g, t) + line_conflicts_of(board, g, t)


cdef inline int squared_difference_of(
    uint64_t board, const Geometry* g, const GoalTables* t
) noexcept nogil:
    # The source documents' one-level greedy weight: the sum over cells of the squared
    # difference between the tile there and the goal's tile there (blank = 0). Tiles carry
    # canonical labels, so a tile's number is its goal position. Not admissible.
    cdef int cell, goal_tile, d, total = 0
    for cell in range(g.cells):
        goal_tile = cell + 1 if cell < t.goal_blank else (0 if cell == t.goal_blank else cell)
        d = get_tile(board, cell) - goal_tile
        total += d * d
    return total


cdef inline int euclidean_of(uint64_t board, const Geometry* g, const GoalTables* t) noexcept nogil:
    # The sum over tiles of the straight-line distance to the goal cell, rounded up: the true
    # distance is a whole number at least the sum, so the ceiling stays admissible, and one move
    # changes the sum by at most 1, so it stays consistent. The small offset keeps a sum that is
    # a whole number (every tile in its goal row or column) from rounding up past itself.
    cdef int cell, tile, home, dr, dc
    cdef double total = 0.0
    for cell in range(g.cells):
        tile = get_tile(board, cell)
        if tile != 0:
            home = t.goal_cell[tile]
            dr = g.row_of[cell] - g.row_of[home]
            dc = g.col_of[cell] - g.col_of[home]
            total += sqrt(<double>(dr * dr + dc * dc))
    return <int>ceil(total - 1e-9)


cdef inline bint is_board_heuristic(int code) noexcept nogil:
    # Whether board_heuristic() computes `code` from a board alone (no tables needed).
    return (
        code == H_MISPLACED or code == H_MANHATTAN or code == H_LINEAR_CONFLICT
        or code == H_SQUARED_DIFFERENCE or code == H_EUCLIDEAN
    )


cdef inline bint is_consistent(int code) noexcept nogil:
    # Whether h(parent) <= 1 + h(child) always holds, so A* never reopens a board.
    return (
        code == H_MISPLACED or code == H_MANHATTAN or code == H_LINEAR_CONFLICT
        or code == H_EUCLIDEAN
    )


cdef inline int board_heuristic(
    int code, uint64_t board, const Geometry* g, const GoalTables* t
) noexcept nogil:
    # The heuristic `code` of a whole board; 0 for a code that needs tables.
    if code == H_MANHATTAN:
        return manhattan_of(board, g, t)
    if code == H_MISPLACED:
        return misplaced_of(board, g, t)
    if code == H_LINEAR_CONFLICT:
        return linear_conflict_of(board, g, t)
    if code == H_SQUARED_DIFFERENCE:
        return squared_difference_of(board, g, t)
    if code == H_EUCLIDEAN:
        return euclidean_of(board, g, t)
    return 0


cdef inline int step_heuristic(
    int code, int h, uint64_t child, int tile, int blank, int target,
    const Geometry* g, const GoalTables* t,
) noexcept nogil:
    # h of `child`, where `tile` slid from `target` into the old blank cell `blank` of a board
    # whose h was `h`. Manhattan and misplaced change by that one tile; the others are
    # recomputed (linear conflict's lines all change together).
    if code == H_MANHATTAN:
        return h - t.distance[tile][target] + t.distance[tile][blank]
    if code == H_MISPLACED:
        return h - (t.goal_cell[tile] != target) + (t.goal_cell[tile] != blank)
    return board_heuristic(code, child, g, t)
