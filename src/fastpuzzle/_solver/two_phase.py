"""One IDA* search in two parts: a cheap heuristic first, a stronger one once the search is large.

Two searches switch this way: 4x4 with 7-8 takes the larger of 7-8's and 7-8b's sums past
:data:`SECOND_FROM` expansions (where 7-8b is built), and ``pdb`` past 16 cells reads its tables
on the dual board too past :data:`DUAL_FROM` (where their extra table is built). The second part
starts from the bound the first had reached (no shorter solution exists), with what is left of
the limits, and reads its tables only then; :func:`in_two_parts` joins both parts into one
result, as if one search had run.
"""

from __future__ import annotations

from collections.abc import Callable

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import CoreLimits
from fastpuzzle.results import CoreProgress

__all__ = ["DUAL_FROM", "SECOND_FROM", "Part", "in_two_parts", "shifted"]

#: With 7-8b built beside 7-8, a 4x4 search takes the larger of both partitions' sums once 7-8
#: alone has expanded this many nodes. On boards 7-8 handles well the pair expands about 0.7x
#: the nodes at 1.5x the cost a node; on boards it does not, 8x fewer (hard.tsv's 70-move board:
#: 60 M nodes against 492 M). 7-8 alone expands at most 58 K nodes on a random50 board and
#: 5.1-6.1 M on the 80-move boards, so those never pay for the pair, nor for reading 7-8b.
SECOND_FROM = 1 << 23

#: With the dual lookups' extra table on disk, a ``pdb`` search past 16 cells (5x5: 6-6-6-6)
#: reads the tables on the dual board too (:mod:`fastpuzzle.pdb.dual`) once it has expanded this
#: many nodes with the two lookups, from the bound it had reached. Four lookups cost about 1.4x
#: as much a node; on Korf and Felner's instances they save 0.73-0.82x of the nodes on searches
#: of 2e7 to 2e8 expansions, and 0.27x on one of 9e8 (instance 1: 2.5x faster on two threads),
#: so searches of seconds keep the two lookups and long ones switch. With duplicate pruning
#: (IDA*'s default) the same held on the shared instances: no slower on 25, 32, 38 and 40, 0.6x
#: the nodes and 0.7x the time on 1 (``benchmarks/pdb5x5_default_report.py``).
DUAL_FROM = 1 << 27

_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT
_NODE_LIMIT = SearchStatus.STATUS_NODE_LIMIT

#: One part of a search: ``part(core_limits, progress, min_bound)``.
Part = Callable[[CoreLimits, "CoreProgress | None", int], CoreResult]


def in_two_parts(
    request: Request, switch_at: int, first: Part, then: Callable[[], Part]
) -> CoreResult:
    """``first`` for ``switch_at`` expansions; past them, the part ``then()`` gives (reading its
    tables only then), from the bound the first had reached (no shorter solution exists)."""
    core = request.limits_left()
    if core is None:
        return request.out_of_time()
    wanted = core.node_limit
    alone = first(core._replace(node_limit=_least_limit(wanted, switch_at)), request.progress, 0)
    # A user's limit at or below the switch is what stopped it (threads that hand back unspent
    # grants can stop short of the limit itself).
    if alone.status != _NODE_LIMIT or (wanted and wanted <= switch_at):
        return alone
    second = then()
    core = request.limits_left()
    if core is None:
        # Out of time while reading the second part's tables: stopped at the bound reached.
        return _replace_status(alone, _TIME_LIMIT)
    rest = second(
        core._replace(node_limit=wanted - alone.expanded if wanted else 0),
        shifted(request.progress, alone),
        alone.depth,
    )
    return _joined(alone, rest)


def _replace_status(result: CoreResult, status: int) -> CoreResult:
    # The same counts and bound, ended another way (and without moves).
    return CoreResult(
        status,
        "",
        result.expanded,
        result.generated,
        result.max_frontier,
        result.peak_memory_bytes,
        result.seconds,
        result.depth,
        result.iterations,
        result.allocated_bytes,
    )


def _least_limit(limit: int, cap: int) -> int:
    # Node limits where 0 means none.
    return cap if not limit else min(limit, cap)


def shifted(progress: CoreProgress | None, before: CoreResult) -> CoreProgress | None:
    """``progress`` for a search that goes on from ``before``: counts and time run on."""
    if progress is None:
        return None

    def relay(expanded: int, generated: int, seconds: float, depth: int) -> None:
        progress(
            before.expanded + expanded, before.generated + generated,
            before.seconds + seconds, depth,
        )  # fmt: skip

    return relay


def _joined(before: CoreResult, after: CoreResult) -> CoreResult:
    """One search's result from its two parts: how it ended, and what both did."""
    return CoreResult(
        after.status,
        after.moves,
        before.expanded + after.expanded,
        before.generated + after.generated,
        max(before.max_frontier, after.max_frontier),
        max(before.peak_memory_bytes, after.peak_memory_bytes),
        before.seconds + after.seconds,
        after.depth,
        before.iterations + after.iterations,
        max(before.allocated_bytes, after.allocated_bytes),
    )
