# Packed-board primitives shared by every compiled module (inline, so they cost no call).
#
# A board of up to 16 cells is one uint64: cell i at bits 4i..4i+3, value = tile, 0 = blank.
# Tiles are relabelled by the Python layer so that the goal is canonical: tiles 1..n-1 in
# row-major order, skipping the goal's blank cell. The blank's cell is kept beside the board.
#
# Direction codes name the way the blank moves: U=0, D=1, L=2, R=3; the inverse is d ^ 1.

from libc.stdint cimport int8_t, uint64_t

cdef enum:
    MAX_CELLS = 16
    DIR_U = 0
    DIR_D = 1
    DIR_L = 2
    DIR_R = 3
    NO_CELL = -1

# The letter of each direction code: the compiled core's one spelling of the moves
# (fastpuzzle.moves.MOVES is the Python layer's; tests/core/test_moves_spelling.py checks both).
# A C inline function, not a static array, so that modules that never read it warn of nothing.
cdef extern from *:
    """
    static inline const char* fastpuzzle_move_letters(void) { return "UDLR"; }
    """
    const char* move_letters "fastpuzzle_move_letters"()

cdef struct Geometry:
    int rows
    int cols
    int cells
    int8_t neighbour[16][4]     # cell the blank reaches moving in direction d, or NO_CELL
    int8_t row_of[16]
    int8_t col_of[16]

cdef inline uint64_t get_tile(uint64_t board, int cell) noexcept nogil:
    return (board >> (4 * cell)) & 15

cdef inline uint64_t slide(uint64_t board, int blank, int target) noexcept nogil:
    # The blank holds 0, so moving tile t from target to blank is one subtract and one add.
    cdef uint64_t tile = (board >> (4 * target)) & 15
    return board - (tile << (4 * target)) + (tile << (4 * blank))

cdef inline uint64_t hash_board(uint64_t x) noexcept nogil:
    # splitmix64 finaliser: every input bit affects every output bit.
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x

cdef inline int goal_cell_of(int tile, int goal_blank) noexcept nogil:
    # Canonical goal: tile t sits at cell t-1, shifted past the goal's blank cell.
    return tile - 1 if tile - 1 < goal_blank else tile

cdef inline void init_geometry(Geometry* g, int rows, int cols) noexcept nogil:
    cdef int cell, d
    g.rows = rows
    g.cols = cols
    g.cells = rows * cols
    for cell in range(MAX_CELLS):
        for d in range(4):
            g.neighbour[cell][d] = NO_CELL
        g.row_of[cell] = 0
        g.col_of[cell] = 0
    for cell in range(g.cells):
        g.row_of[cell] = cell // cols
        g.col_of[cell] = cell % cols
        if cell >= cols:
            g.neighbour[cell][DIR_U] = cell - cols
        if cell + cols < g.cells:
            g.neighbour[cell][DIR_D] = cell + cols
        if cell % cols != 0:
            g.neighbour[cell][DIR_L] = cell - 1
        if cell % cols != cols - 1:
            g.neighbour[cell][DIR_R] = cell + 1
