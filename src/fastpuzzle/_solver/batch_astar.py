"""Batch weighted A* answers for the anytime solver (6x6 on its pattern database).

Moves are U, D, L, R: the direction the **blank** moves.

:func:`astar_phase` runs the compiled search (``_core/_wastar.pyx``: the ``batch`` open boards
of least ``f = g + w*h`` expanded at a time, every board kept in a closed set, DeepCubeA's
scheme on a learned heuristic) on the shape's pattern database, batches growing from
:data:`FIRST_BATCH` while :data:`SHARE` of the budget lasts, each capped below the best length
found so far (a board whose unweighted ``g + h`` reaches it cannot lead to a shorter path).
The shortest answer goes on to the windows and weighted IDA* (docs/near_optimal.rst has the
measurements).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from fastpuzzle._core import _wastar
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._problem import Problem
from fastpuzzle._solver.phase_share import PhaseShare

if TYPE_CHECKING:
    from fastpuzzle._solver.budget import Budget

__all__ = [
    "FIRST_BATCH",
    "GROWTH",
    "MAX_BATCH",
    "MEMORY_BYTES",
    "SHARE",
    "WEIGHT",
    "astar_phase",
]

#: ``f = g + WEIGHT * h`` (DeepCubeA's ``0.6 g + h``). With wide batches the weight barely
#: counts (6x6, DeepCubeA's first 5 boards, a batch of 30,000: 140.8 moves at 1.667 and 2,
#: 141.6 at 1.5); the batch does.
WEIGHT = 1 / 0.6

#: The first batch, each next one this many times larger while what is left allows it at the
#: last one's cost a node, up to the widest (6x6, first 5 boards: 150.4 moves at 1,000, 142.4
#: at 10,000, 140.8 at 30,000 for 0.3, 1.3 and 3.9 million expansions a board).
FIRST_BATCH = 1_000
GROWTH = 4
MAX_BATCH = 64_000
FIT = 0.8

#: The share of the time (or node) limit the phase may take (6x6, DeepCubeA's first 5 boards,
#: 20 million nodes: 140.0 moves at 0.8 from the first round; 140.4 at 0.6 after 30 % of the
#: limit, see ``anytime.ASTAR_AFTER``; 148.0 without the phase).
SHARE = 0.8

#: The most bytes the boards stored may take without ``Limits(memory_bytes=)`` (the store
#: doubles: at most about 8.4 million 6x6 boards, 772 MB measured).
MEMORY_BYTES = 1 << 30

_SOLVED = int(SearchStatus.STATUS_SOLVED)
_MEMORY = int(SearchStatus.STATUS_MEMORY_LIMIT)


def astar_phase(
    problem: Problem,
    best: str,
    budget: Budget,
    tables: object | None,
    report: Callable[[str], None],
    *,
    memory_bytes: int | None = None,
) -> str:
    """``best``, or the shortest path from batch weighted A* of growing batches while
    :data:`SHARE` of ``budget`` lasts; ``tables``: laid-out pattern databases for the shape
    and goal (None: linear conflict); ``memory_bytes``: what the boards stored may take."""
    share = PhaseShare(budget, SHARE, time.monotonic())
    cap = MEMORY_BYTES if memory_bytes is None else memory_bytes
    batch = FIRST_BATCH
    while (limits := share.step()) is not None:
        time_limit, node_limit = limits
        found = _wastar.wastar(
            problem.wide_cells(),
            problem.blank,
            problem.rows,
            problem.cols,
            problem.goal_blank,
            weight=WEIGHT,
            batch=batch,
            tables=tables,
            node_limit=node_limit,
            time_limit=time_limit,
            memory_bytes=cap,
            # Lengths between the start and the goal share their parity.
            max_f=len(best) - 2,
        )
        budget.charge(found.expanded, found.generated, found.allocated_bytes)
        if found.status == _SOLVED and len(found.moves) < len(best):
            best = found.moves
            report(best)
        room = share.room(FIT)
        # A larger batch stores about as many more boards: one that would not fit ends the
        # phase (6x6: 84 MiB at a batch of 1,000, 672 MiB at 16,000).
        if (
            found.status == _MEMORY
            or found.allocated_bytes * GROWTH > cap
            or room < GROWTH
            or batch * GROWTH > MAX_BATCH
        ):
            break
        batch *= GROWTH
    return best
