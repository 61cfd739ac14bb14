"""Boards of any size: the names this module has always offered, now kept where they belong.

The fast constructive solver lives in :mod:`fastpuzzle._solver.constructive`, IDA* for every
size in :mod:`fastpuzzle._solver.idastar`, and the default choice for a shape in
:mod:`fastpuzzle._solver.policy`; this module re-exports their public names so older code keeps
working. Moves are U, D, L, R: the direction the **blank** moves.
"""

from __future__ import annotations

from fastpuzzle._problem import Problem
from fastpuzzle._solver.constructive import cancel_inverse_pairs, manhattan_sum, solve_fast
from fastpuzzle._solver.idastar import MAX_OPTIMAL_DEPTH, WIDE_HEURISTICS, solve_wide_optimal
from fastpuzzle._solver.policy import auto_choice

__all__ = [
    "MAX_OPTIMAL_DEPTH",
    "WIDE_HEURISTICS",
    "auto_wide_heuristic",
    "cancel_inverse_pairs",
    "manhattan_sum",
    "solve_fast",
    "solve_wide_optimal",
]


def auto_wide_heuristic(problem: Problem) -> str:
    """The heuristic ``solve()`` uses for ``problem`` past 16 cells: ``"pdb"`` when the shape's
    pattern database is on disk and valid (5x5: 6-6-6-6), else ``"linear_conflict"``."""
    return auto_choice((problem.rows, problem.cols), problem.goal_blank).heuristic
