"""One IDA* search in parts: a cheap heuristic first, stronger ones once the search is large.

Which searches switch, and when, is the policy's (:func:`fastpuzzle._solver.policy.table_switch`:
4x4 with 7-8 takes the larger of 7-8's and 7-8b's sums, ``pdb`` past 16 cells reads its tables
on the dual board too, or on 5x5 goes on with the 6-6-6-6x7z compound where it is built); this
module is the mechanism. Each later part starts from the bound the part before had reached
(IDA* exhausted it: no shorter solution exists, so any admissible heuristic may go on from it),
with what is left of the limits, and reads its tables only then; :func:`in_parts` joins the
parts into one result, as if one search had run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._solver.prepared import Prepared
from fastpuzzle.limits import CoreLimits
from fastpuzzle.results import CoreProgress

__all__ = ["Part", "in_parts", "in_two_parts", "shifted"]

_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT
_NODE_LIMIT = SearchStatus.STATUS_NODE_LIMIT

#: One part of a search: ``part(core_limits, progress, min_bound)``.
Part = Callable[[CoreLimits, "CoreProgress | None", int], CoreResult]


def in_two_parts(
    prepared: Prepared, switch_at: int, first: Part, then: Callable[[], Part | None]
) -> CoreResult:
    """``first`` for ``switch_at`` expansions; past them, the part ``then()`` gives (reading its
    tables only then), from the bound the first had reached (no shorter solution exists)."""
    return in_parts(prepared, first, [(switch_at, then)])


def in_parts(
    prepared: Prepared, first: Part, later: Sequence[tuple[int, Callable[[], Part | None]]]
) -> CoreResult:
    """``first``, then each of ``later`` in turn: ``(after, then)`` goes on with the part
    ``then()`` gives (reading its tables only then; None: the part before goes on) once the
    search has made ``after`` expansions in all, from the bound reached (no shorter solution
    exists)."""
    core = prepared.limits_left()
    if core is None:
        return prepared.out_of_time()
    wanted, progress = core.node_limit, prepared.request.progress
    part, done = first, None
    for index in range(len(later) + 1):
        spent = 0 if done is None else done.expanded
        switch_at = later[index][0] if index < len(later) else None
        if switch_at is not None and switch_at <= spent:
            # A part that ran past the next switch too (threads overshoot): straight on.
            part = later[index][1]() or part
            continue
        limit = wanted - spent if wanted else 0
        if switch_at is not None:
            limit = _least_limit(limit, switch_at - spent)
        result = part(
            core._replace(node_limit=limit),
            progress if done is None else shifted(progress, done),
            0 if done is None else done.depth,
        )
        done = result if done is None else _joined(done, result)
        # A user's limit at or below the switch is what stopped it (threads that hand back
        # unspent grants can stop short of the limit itself).
        if switch_at is None or done.status != _NODE_LIMIT or (wanted and wanted <= switch_at):
            return done
        part = later[index][1]() or part
        left = prepared.limits_left()
        if left is None:
            # Out of time while reading the next part's tables: stopped at the bound reached.
            return _replace_status(done, _TIME_LIMIT)
        core = left
    assert done is not None
    return done


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
