"""A phase's share of the anytime solver's budget, spent in steps that grow while it lasts.

The beams (:mod:`~fastpuzzle._solver.beam`) and batch A* (:mod:`~fastpuzzle._solver.batch_astar`)
each take a share of the time and node limits and run searches of growing width; the next is
wider only where what is left holds it at the last one's cost.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastpuzzle._solver.budget import Budget

__all__ = ["PhaseShare"]


class PhaseShare:
    """``share`` of ``budget``'s time (counted from ``since``, a :func:`time.monotonic` time)
    and nodes; :meth:`step` gives each search its limits, :meth:`room` how many times the last
    one's cost is left."""

    def __init__(self, budget: Budget, share: float, since: float):
        self.budget = budget
        deadline = budget.deadline
        self.deadline = None if deadline is None else since + (deadline - since) * share
        self.nodes_left = None if budget.nodes is None else int(budget.nodes * share)
        self._started = since
        self._before = budget.expanded

    def step(self) -> tuple[float, int] | None:
        """The next search's time limit (0.0: none) and node limit (0: none), or None when the
        share or the budget is spent."""
        if self.budget.spent:
            return None
        self._started, self._before = time.monotonic(), self.budget.expanded
        time_limit = 0.0 if self.deadline is None else self.deadline - self._started
        if (self.nodes_left is not None and self.nodes_left <= 0) or (
            self.deadline is not None and time_limit <= 0
        ):
            return None
        return time_limit, self.nodes_left or 0

    def room(self, fit: float) -> float:
        """How many times the last step's nodes and time fit in what is left of the share,
        ``fit`` of it counted (inf where neither is limited); call once a step."""
        room = float("inf")
        spent = self.budget.expanded - self._before
        if self.nodes_left is not None:
            self.nodes_left -= spent
            room = fit * self.nodes_left / max(1, spent)
        if self.deadline is not None:
            took = max(1e-3, time.monotonic() - self._started)
            room = min(room, fit * (self.deadline - time.monotonic()) / took)
        return room
