"""Whole-board evaluations of the heuristics that need no tables, on canonical packed boards.

The codes are :class:`HeuristicCode` (declared in ``_heuristics.pxd``, the one enum every
compiled kernel uses); the catalogue in :mod:`fastpuzzle.heuristics` ties each name to its code.
The Python layer validates boards; these functions trust them.
"""

from libc.stdint cimport int64_t, uint64_t

from fastpuzzle._core._heuristics cimport (
    GoalTables,
    board_heuristic,
    init_goal_tables,
    is_board_heuristic,
)
from fastpuzzle._core._packed cimport Geometry, init_geometry


cdef int check_code(int code) except -1:
    if not is_board_heuristic(code):
        raise ValueError(f"heuristic code {code} needs tables; it has no whole-board kernel")
    return 0


def evaluate(int code, uint64_t packed, int rows, int cols, int goal_blank):
    """The heuristic ``code`` of one canonical packed board."""
    cdef Geometry g
    cdef GoalTables t
    check_code(code)
    init_geometry(&g, rows, cols)
    init_goal_tables(&t, &g, goal_blank)
    return board_heuristic(code, packed, &g, &t)


def evaluate_many(
    int code, const uint64_t[:] boards, int rows, int cols, int goal_blank, int64_t[:] out
):
    """The heuristic ``code`` of each canonical packed board in ``boards``, into ``out``."""
    cdef Geometry g
    cdef GoalTables t
    cdef Py_ssize_t i
    check_code(code)
    init_geometry(&g, rows, cols)
    init_goal_tables(&t, &g, goal_blank)
    with nogil:
        for i in range(boards.shape[0]):
            out[i] = board_heuristic(code, boards[i], &g, &t)
