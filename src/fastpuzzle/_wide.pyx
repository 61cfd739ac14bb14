"""Compiled helpers for wide boards: any size up to 100x100, one uint16 per cell.

Cells hold tiles relabelled so the goal is canonical (see ``_wide.pxd``); the Python layer
validates input and these functions trust it. Moves are direction codes of the **blank**:
U=0, D=1, L=2, R=3.
"""

from libc.stdint cimport uint16_t

from fastpuzzle._packed cimport DIR_D, DIR_L, DIR_R, DIR_U, NO_CELL
from fastpuzzle._wide cimport (
    wide_col_conflicts,
    wide_hash,
    wide_linear_conflict,
    wide_manhattan,
    wide_neighbour,
    wide_row_conflicts,
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


def hash_cells(const uint16_t[::1] cells):
    """The 64-bit hash wide searches use for a board."""
    return wide_hash(&cells[0], cells.shape[0])


HEURISTIC_KINDS = {"manhattan": 1, "linear_conflict": 2}


def heuristic(str name, const uint16_t[::1] cells, int rows, int cols, int goal_blank):
    """Evaluate ``"manhattan"`` or ``"linear_conflict"`` on one canonical wide board."""
    cdef int kind = HEURISTIC_KINDS[name]
    if kind == 1:
        return wide_manhattan(&cells[0], rows, cols, goal_blank)
    return wide_linear_conflict(&cells[0], rows, cols, goal_blank)


def line_conflicts(const uint16_t[::1] cells, int rows, int cols, int goal_blank):
    """Per-line linear-conflict extras: ``(rows_list, cols_list)``, each 2 x tiles that leave."""
    return (
        [wide_row_conflicts(&cells[0], r, cols, goal_blank) for r in range(rows)],
        [wide_col_conflicts(&cells[0], c, rows, cols, goal_blank) for c in range(cols)],
    )


def direction_constants():
    """The direction codes, for tests that check the Python and compiled layers agree."""
    return {"U": DIR_U, "D": DIR_D, "L": DIR_L, "R": DIR_R}
