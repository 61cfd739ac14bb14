"""The optimal solver's older entry points, kept for code that uses them.

IDA* for every board size lives in :mod:`fastpuzzle._solver.idastar` and the default choice for
a shape in :mod:`fastpuzzle._solver.policy`; the heuristics IDA* takes are those of the catalogue
(:mod:`fastpuzzle.heuristics`) with IDA* support. Moves are U, D, L, R: the direction the blank
moves.
"""

from __future__ import annotations

from collections.abc import Callable

from fastpuzzle._problem import Problem
from fastpuzzle._solver import idastar
from fastpuzzle._solver.policy import auto_choice
from fastpuzzle.limits import Limits
from fastpuzzle.results import CoreResult

__all__ = ["HEURISTICS", "auto_heuristic", "run_auto", "run_idastar"]

CoreProgress = Callable[[int, int, float, int], None]

#: Heuristic names :func:`run_idastar` accepts (boards of up to 16 cells).
HEURISTICS = idastar.PACKED_HEURISTICS


def run_idastar(
    problem: Problem,
    heuristic: str,
    limits: Limits,
    progress: CoreProgress | None = None,
) -> CoreResult:
    """Run IDA* with ``heuristic`` on a validated problem (see
    :func:`fastpuzzle._solver.idastar.run`)."""
    return idastar.run(problem, heuristic, limits, progress)


def auto_heuristic(problem: Problem) -> tuple[str, str]:
    """The ``(algorithm, heuristic)`` :func:`run_auto` uses for this problem's shape."""
    choice = auto_choice((problem.rows, problem.cols), problem.goal_blank)
    return choice.algorithm, choice.heuristic


def run_auto(
    problem: Problem, limits: Limits, progress: CoreProgress | None = None
) -> tuple[CoreResult, str, str]:
    """The default optimal solver: ``(core result, algorithm name, heuristic name)``."""
    algorithm, heuristic = auto_heuristic(problem)
    return idastar.run(problem, heuristic, limits, progress), algorithm, heuristic
