"""Compiled helpers for wide boards: any size up to 100x100, one uint16 per cell.

Moving and packing a board, and its whole-board heuristics; the search is
``_wide_idastar``. Cells hold tiles relabelled so the goal is canonical (see ``_wide.pxd``);
the Python layer validates input and these functions trust it. Moves are direction codes of
the **blank**: U=0, D=1, L=2, R=3.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int16_t, uint16_t, uint64_t

from fastpuzzle._core._heuristics cimport H_LINEAR_CONFLICT, H_MANHATTAN, H_MISPLACED
from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_R, DIR_U, NO_CELL, goal_cell_of
from fastpuzzle._core._wide cimport (
    PACK5_MAX_CELLS,
    pack5,
    unpack5,
    wide_goal_lines,
    wide_line_extra,
    wide_manhattan,
    wide_neighbour,
    wide_slide,
)


def apply_moves(uint16_t[::1] cells, int blank, int rows, int cols, const unsigned char[:] codes):
    """Slide the blank along direction codes (U=0, D=1, L=2, R=3), changing ``cells`` in place.

    Returns ``(blank, failed)``: ``failed`` is the index of the first move that would take the
    blank off the board (``cells`` is then the board before it), or -1.
    """
    cdef Py_ssize_t i, n = codes.shape[0]
    cdef Py_ssize_t failed = -1
    cdef int target
    with nogil:
        for i in range(n):
            if codes[i] > DIR_R:
                failed = i
                break
            target = wide_neighbour(blank, codes[i], rows, cols)
            if target == NO_CELL:
                failed = i
                break
            wide_slide(&cells[0], blank, target)
            blank = target
    return blank, failed


def pack_two_words(const uint16_t[::1] cells):
    """Pack a board of 17 to 25 cells 5 bits per cell into ``(lo, hi)`` (a 25th cell implied)."""
    cdef uint64_t lo, hi
    cdef int n = cells.shape[0]
    if not 16 < n <= PACK5_MAX_CELLS:
        raise ValueError(f"expected 17 to {PACK5_MAX_CELLS} cells, got {n}")
    pack5(&cells[0], n, &lo, &hi)
    return lo, hi


def unpack_two_words(uint64_t lo, uint64_t hi, int cells):
    """The tuple of ``cells`` tiles packed by :func:`pack_two_words`."""
    cdef uint16_t out[PACK5_MAX_CELLS]
    if not 16 < cells <= PACK5_MAX_CELLS:
        raise ValueError(f"expected 17 to {PACK5_MAX_CELLS} cells, got {cells}")
    unpack5(lo, hi, cells, out)
    return tuple([out[i] for i in range(cells)])


cdef int line_extras(const uint16_t* cells, int rows, int cols, int goal_blank) except -1:
    # Linear conflict less Manhattan: the rows' and columns' extra moves.
    cdef int n = rows * cols, r, c, total = 0
    cdef int16_t* goal_row = <int16_t*>PyMem_Malloc(2 * n * sizeof(int16_t))
    cdef int16_t* goal_col = goal_row + n
    if goal_row == NULL:
        raise MemoryError()
    wide_goal_lines(n, cols, goal_blank, goal_row, goal_col)
    for r in range(rows):
        total += wide_line_extra(&cells[r * cols], 1, cols, goal_row, goal_col, r)
    for c in range(cols):
        total += wide_line_extra(&cells[c], cols, rows, goal_col, goal_row, c)
    PyMem_Free(goal_row)
    return total


def heuristic(int code, const uint16_t[::1] cells, int rows, int cols, int goal_blank):
    """The heuristic ``code`` (misplaced, Manhattan or linear conflict) of a canonical wide board.

    Raises ValueError for a code without a whole-board kernel on wide boards.
    """
    cdef int cell, count = 0
    if code == H_MANHATTAN:
        return wide_manhattan(&cells[0], rows, cols, goal_blank)
    if code == H_LINEAR_CONFLICT:
        return (wide_manhattan(&cells[0], rows, cols, goal_blank)
                + line_extras(&cells[0], rows, cols, goal_blank))
    if code == H_MISPLACED:
        for cell in range(rows * cols):
            if cells[cell] != 0 and goal_cell_of(cells[cell], goal_blank) != cell:
                count += 1
        return count
    raise ValueError(f"heuristic code {code} has no whole-board kernel on wide boards")


def direction_constants():
    """The direction codes, for tests that check the Python and compiled layers agree."""
    return {"U": DIR_U, "D": DIR_D, "L": DIR_L, "R": DIR_R}
