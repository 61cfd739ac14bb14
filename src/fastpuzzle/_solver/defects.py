"""Results no correct search gives, raised as :class:`~fastpuzzle.errors.InternalError` instead
of being returned as an answer.

A complete search (one that finds a solution whenever there is one, given the time and memory)
of a board that can reach its goal never runs out of paths: ``EXHAUSTED`` from it means a bug, or
a cache file (a pruning machine, a table) that forbids paths it should not and got past the
checks. Limits end such searches with their own statuses (``DEPTH_LIMIT`` included), so this
costs a correct search nothing but one status comparison.
"""

from __future__ import annotations

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._problem import Problem
from fastpuzzle.board import solvable_pair
from fastpuzzle.errors import InternalError

__all__ = ["check_result"]

_EXHAUSTED = SearchStatus.STATUS_EXHAUSTED


def check_result(core: CoreResult, problem: Problem, *, method: str, complete: bool) -> None:
    """Raise :class:`~fastpuzzle.errors.InternalError` if ``core``, the result of ``method``
    (a complete search when ``complete``) on ``problem``, is one it cannot give."""
    if core.status != _EXHAUSTED or not complete:
        return
    board, goal = problem.board, problem.goal
    if not solvable_pair(board, goal):
        return  # an unsolvable board's search may well run out of paths
    raise InternalError(
        f"internal defect: {method} tried every path from {board.to_string()!r} without "
        f"reaching {goal.to_string()!r}, which it can reach; a damaged cache file can do this "
        "('fastpuzzle pdb clear --all' removes the cached tables and pruning machines, rebuilt "
        "when next needed), else it is a bug: please report it with this call"
    )
