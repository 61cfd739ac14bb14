# Wide-board primitives: boards of any size up to 100x100, one uint16 per cell.
#
# Cell i (reading order) holds its tile, 0 = blank; the blank's cell is kept beside the array.
# Tiles are relabelled by the Python layer so the goal is canonical, exactly as for packed boards
# (see _packed.pxd): tile t belongs at cell t-1, shifted past the goal's blank cell.
#
# Direction codes name the way the blank moves: U=0, D=1, L=2, R=3; the inverse is d ^ 1.
# Neighbours are computed arithmetically (a 10,000-cell neighbour table would not stay in cache).

from libc.stdint cimport int16_t, uint16_t, uint64_t

from fastpuzzle._core._heuristics cimport leave_count
from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_U, NO_CELL, goal_cell_of

cdef enum:
    WIDE_MAX_SIDE = 100
    WIDE_MAX_CELLS = 10000

cdef inline int wide_neighbour(int cell, int d, int rows, int cols) noexcept nogil:
    # The cell the blank reaches from ``cell`` moving in direction d, or NO_CELL.
    if d == DIR_U:
        return cell - cols if cell >= cols else NO_CELL
    if d == DIR_D:
        return cell + cols if cell + cols < rows * cols else NO_CELL
    if d == DIR_L:
        return cell - 1 if cell % cols != 0 else NO_CELL
    return cell + 1 if cell % cols != cols - 1 else NO_CELL

cdef inline void wide_slide(uint16_t* cells, int blank, int target) noexcept nogil:
    # Move the tile at ``target`` into the blank cell; the blank goes to ``target``.
    cells[blank] = cells[target]
    cells[target] = 0

cdef inline int wide_distance(int tile, int cell, int cols, int goal_blank) noexcept nogil:
    # Manhattan distance of ``tile`` standing at ``cell`` from its canonical goal cell.
    cdef int home = goal_cell_of(tile, goal_blank)
    return abs(cell // cols - home // cols) + abs(cell % cols - home % cols)

cdef inline int wide_manhattan(
    const uint16_t* cells, int rows, int cols, int goal_blank
) noexcept nogil:
    cdef int cell, total = 0
    for cell in range(rows * cols):
        if cells[cell] != 0:
            total += wide_distance(cells[cell], cell, cols, goal_blank)
    return total

cdef inline void wide_goal_lines(int n, int cols, int goal_blank, int16_t* goal_row,
                                 int16_t* goal_col) noexcept nogil:
    # [tile] -> its goal cell's row and column (tile 0: the goal's blank cell's).
    cdef int tile, home
    goal_row[0] = goal_blank // cols
    goal_col[0] = goal_blank % cols
    for tile in range(1, n):
        home = goal_cell_of(tile, goal_blank)
        goal_row[tile] = home // cols
        goal_col[tile] = home % cols

cdef inline int wide_line_extra(
    const uint16_t* first, int stride, int count, const int16_t* goal_line,
    const int16_t* goal_place, int line
) noexcept nogil:
    # Hansson's rule on one line (``count`` cells, ``stride`` apart from ``first``): the tiles
    # whose goal line is ``line`` must appear in increasing goal place ([tile] -> its column on
    # a row, its row on a column); each that must leave costs two extra moves.
    cdef int keys[WIDE_MAX_SIDE]
    cdef int i, tile, n = 0
    for i in range(count):
        tile = first[i * stride]
        if tile != 0 and goal_line[tile] == line:
            keys[n] = goal_place[tile]
            n += 1
    return 2 * leave_count(keys, n)

# -- 17 to 25 cells: 5 bits per cell in two words ---------------------------------------------
# Cells 0..11 go to ``lo`` and cells 12..23 to ``hi`` (bits 5i of each word); a 25th cell is not
# stored: a permutation's last entry is what the others leave out. Two words make a compact
# key for tables of 5x5 (or 3x7, 4x6, ...) boards.

cdef enum:
    PACK5_MAX_CELLS = 25

cdef inline void pack5(
    const uint16_t* cells, int n, uint64_t* lo, uint64_t* hi
) noexcept nogil:
    cdef int i
    cdef int stored = n if n < 24 else 24
    lo[0] = 0
    hi[0] = 0
    for i in range(stored):
        if i < 12:
            lo[0] |= (<uint64_t>cells[i]) << (5 * i)
        else:
            hi[0] |= (<uint64_t>cells[i]) << (5 * (i - 12))

cdef inline void unpack5(uint64_t lo, uint64_t hi, int n, uint16_t* cells) noexcept nogil:
    cdef int i, stored = n if n < 24 else 24
    cdef int missing = n * (n - 1) // 2
    for i in range(stored):
        if i < 12:
            cells[i] = (lo >> (5 * i)) & 31
        else:
            cells[i] = (hi >> (5 * (i - 12))) & 31
        missing -= cells[i]
    if n == 25:
        cells[24] = missing
