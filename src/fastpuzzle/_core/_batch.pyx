"""Batch kernels: many small boards solved in one call without the GIL.

``walk_exact_many`` solves boards of up to 9 cells by walking down an exact distance table (the
one :func:`fastpuzzle.pdb.exact_table` builds: every tile in one group, compact rank, entries
``(distance - Manhattan) / 2``): from each board, step to a neighbour one move closer until the
goal. No search, no Python object per board.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

from fastpuzzle._core._control cimport monotonic_seconds
from fastpuzzle._core._heuristics cimport GoalTables, init_goal_tables, manhattan_of
from fastpuzzle._core._packed cimport (
    Geometry,
    NO_CELL,
    get_tile,
    init_geometry,
    move_letters,
    slide,
)
from fastpuzzle._core._ranking cimport compact_rank, init_weights

cdef const char* LETTERS = move_letters()


cdef inline int exact_distance(
    uint64_t board, const Geometry* g, const GoalTables* t, const uint8_t* table, bint nibble,
    const uint64_t* weight,
) noexcept nogil:
    # Sparse index: slot (tile - 1) holds the tile's cell, as the table was built.
    cdef uint64_t index = 0, rank
    cdef int cell, tile, extra
    for cell in range(g.cells):
        tile = get_tile(board, cell)
        if tile:
            index |= (<uint64_t>cell) << (4 * (tile - 1))
    rank = compact_rank(index, g.cells - 1, weight)
    if nibble:
        extra = (table[rank >> 1] >> ((rank & 1) << 2)) & 15
    else:
        extra = table[rank]
    return manhattan_of(board, g, t) + 2 * extra


def walk_exact_many(
    const uint64_t[::1] boards,
    const int8_t[::1] blanks,
    int rows,
    int cols,
    int goal_blank,
    const uint8_t[::1] table,
    bint nibble,
    int32_t[::1] lengths,
    uint8_t[:, ::1] moves,
    int64_t[::1] generated,
    double[::1] seconds,
):
    """Solve canonical packed boards (at most 9 cells) down an exact distance table.

    Writes per board the length, the moves (ASCII U/D/L/R, the direction the blank moves, in
    ``moves[i, :length]``), the children looked up and the seconds taken. A row whose length
    would not fit ``moves`` gets length -1.
    """
    cdef Geometry g
    cdef GoalTables t
    cdef uint64_t weight[16]
    cdef Py_ssize_t i
    cdef uint64_t board, child
    cdef int blank, distance, d, target, steps, looked
    cdef double started
    cdef Py_ssize_t width = moves.shape[1]
    if rows * cols > 9:
        raise ValueError(f"exact tables exist for at most 9 cells, got {rows}x{cols}")
    if not (boards.shape[0] == blanks.shape[0] == lengths.shape[0] == moves.shape[0]
            == generated.shape[0] == seconds.shape[0]):
        raise ValueError("every array needs one entry per board")
    init_geometry(&g, rows, cols)
    init_goal_tables(&t, &g, goal_blank)
    init_weights(weight, g.cells - 1, g.cells)
    with nogil:
        for i in range(boards.shape[0]):
            started = monotonic_seconds()
            board = boards[i]
            blank = blanks[i]
            distance = exact_distance(board, &g, &t, &table[0], nibble, weight)
            steps = 0
            looked = 0
            while distance > 0 and steps < width:
                for d in range(4):
                    target = g.neighbour[blank][d]
                    if target == NO_CELL:
                        continue
                    child = slide(board, blank, target)
                    looked += 1
                    if exact_distance(child, &g, &t, &table[0], nibble, weight) == distance - 1:
                        moves[i, steps] = LETTERS[d]
                        board = child
                        blank = target
                        distance -= 1
                        steps += 1
                        break
                else:
                    steps = width  # no neighbour one step closer: the table is not exact
            lengths[i] = steps if distance == 0 else -1
            generated[i] = looked
            seconds[i] = monotonic_seconds() - started
