"""Compiled helpers behind :class:`fastpuzzle.Board`: packing, moves, hashing.

Everything here works on packed boards (one ``uint64``, 4 bits per cell, up to 16 cells) whose
tiles have been relabelled so the goal is canonical (see ``_packed.pxd``). The Python layer
validates input; these functions trust it.
"""

from libc.stdint cimport uint8_t, uint64_t

from fastpuzzle._core._packed cimport (
    DIR_D,
    DIR_L,
    DIR_R,
    DIR_U,
    Geometry,
    NO_CELL,
    get_tile,
    hash_board,
    init_geometry,
    move_letters,
    slide,
)

DIRECTION_LETTERS = move_letters()[:4].decode("ascii")


def pack(tiles):
    """Pack a sequence of at most 16 tiles (each 0..15) into one integer, cell i at bits 4i."""
    cdef uint64_t packed = 0
    cdef int cell = 0
    for tile in tiles:
        packed |= (<uint64_t>tile) << (4 * cell)
        cell += 1
    return packed


def unpack(uint64_t packed, int cells):
    """Return the tuple of ``cells`` tiles held in ``packed``."""
    return tuple([get_tile(packed, cell) for cell in range(cells)])


def neighbour_table(int rows, int cols):
    """Return, per cell, the cells the blank reaches moving U, D, L, R (-1 where it cannot)."""
    cdef Geometry g
    init_geometry(&g, rows, cols)
    return tuple(
        tuple([g.neighbour[cell][d] for d in range(4)]) for cell in range(g.cells)
    )


def apply_moves(uint64_t packed, int blank, int rows, int cols, const unsigned char[:] codes):
    """Slide the blank along direction codes (U=0, D=1, L=2, R=3).

    Returns ``(packed, blank, failed)``: ``failed`` is the index of the first move that would take
    the blank off the board (the board returned is the one before it), or -1.
    """
    cdef Geometry g
    cdef Py_ssize_t i
    cdef int target
    init_geometry(&g, rows, cols)
    for i in range(codes.shape[0]):
        target = g.neighbour[blank][codes[i]]
        if target == NO_CELL:
            return packed, blank, i
        packed = slide(packed, blank, target)
        blank = target
    return packed, blank, -1


def hash_packed(uint64_t packed):
    """The 64-bit hash the search tables use for a packed board."""
    return hash_board(packed)


def direction_constants():
    """The direction codes, for tests that check the Python and compiled layers agree."""
    return {"U": DIR_U, "D": DIR_D, "L": DIR_L, "R": DIR_R}


def random_walk_codes(
    int rows, int cols, int blank, const uint64_t[::1] draws, uint8_t[::1] out, int last=-1
):
    """Fill ``out`` with a random walk of the blank (codes U=0, D=1, L=2, R=3) on any shape.

    Step i takes ``draws[i]`` modulo the number of moves that stay on the board and do not undo
    the previous one (``last``: the code before the first step, -1 for none). Only the blank's
    cell is tracked, so any size up to 100x100 works. Returns ``(blank, last)`` after the walk,
    to continue it in another call.
    """
    cdef Py_ssize_t i, n = draws.shape[0]
    cdef int row = blank // cols, col = blank % cols, d, count
    cdef int options[4]
    if out.shape[0] < n:
        raise ValueError("out is shorter than draws")
    with nogil:
        for i in range(n):
            count = 0
            for d in range(4):
                # Directions are U, D, L, R: d ^ 1 undoes d.
                if last >= 0 and d == (last ^ 1):
                    continue
                if (d == DIR_U and row == 0) or (d == DIR_D and row == rows - 1):
                    continue
                if (d == DIR_L and col == 0) or (d == DIR_R and col == cols - 1):
                    continue
                options[count] = d
                count += 1
            d = options[draws[i] % <uint64_t>count]
            out[i] = d
            last = d
            if d == DIR_U:
                row -= 1
            elif d == DIR_D:
                row += 1
            elif d == DIR_L:
                col -= 1
            else:
                col += 1
    return row * cols + col, last
