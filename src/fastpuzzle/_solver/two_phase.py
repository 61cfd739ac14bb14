"""One IDA* search in two parts: a cheap heuristic first, a stronger one once the search is large.

Which searches switch, and when, is the policy's (:func:`fastpuzzle._solver.policy.table_switch`:
4x4 with 7-8 takes the larger of 7-8's and 7-8b's sums, ``pdb`` past 16 cells reads its tables
on the dual board too); this module is the mechanism. The second part starts from the bound
the first had reached (no shorter solution exists), with what is left of the limits, and reads
its tables only then; :func:`in_two_parts` joins both parts into one result, as if one search
had run.
"""

from __future__ import annotations

from collections.abc import Callable

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._solver.prepared import Prepared
from fastpuzzle.limits import CoreLimits
from fastpuzzle.results import CoreProgress

__all__ = ["Part", "in_two_parts", "shifted"]

_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT
_NODE_LIMIT = SearchStatus.STATUS_NODE_LIMIT

#: One part of a search: ``part(core_limits, progress, min_bound)``.
Part = Callable[[CoreLimits, "CoreProgress | None", int], CoreResult]


def in_two_parts(
    prepared: Prepared, switch_at: int, first: Part, then: Callable[[], Part]
) -> CoreResult:
    """``first`` for ``switch_at`` expansions; past them, the part ``then()`` gives (reading its
    tables only then), from the bound the first had reached (no shorter solution exists)."""
    core = prepared.limits_left()
    if core is None:
        return prepared.out_of_time()
    wanted, progress = core.node_limit, prepared.request.progress
    alone = first(core._replace(node_limit=_least_limit(wanted, switch_at)), progress, 0)
    # A user's limit at or below the switch is what stopped it (threads that hand back unspent
    # grants can stop short of the limit itself).
    if alone.status != _NODE_LIMIT or (wanted and wanted <= switch_at):
        return alone
    second = then()
    core = prepared.limits_left()
    if core is None:
        # Out of time while reading the second part's tables: stopped at the bound reached.
        return _replace_status(alone, _TIME_LIMIT)
    rest = second(
        core._replace(node_limit=wanted - alone.expanded if wanted else 0),
        shifted(progress, alone),
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
