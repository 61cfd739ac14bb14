"""Where the 24-puzzle's work goes: per iteration, IDA* with the machine against A*+IDA*.

Usage: ``python -m benchmarks.studies.last_iteration_report [--boards 38,40,1] [--frontier
1000000] [--complete] [--order 10]``.

For each of Korf & Felner's boards in ``tests/data/korf24_some.tsv`` (38 and 40 the easiest;
13, 28 and 36 medium) and each search, one thread, same run, 6-6-6-6 with its reflection and the
default duplicate-pruning machine, no dual lookups: the nodes expanded in each iteration, and
for the last one the nodes up to the first solution and, with ``--complete``, in the whole
iteration (the search goes on past the goal: the counts at the goal are the plain search's);
then the last iteration's share of all the nodes up to the solution, nodes and seconds in all.
A*+IDA* (``frontier=``, ``_core/_hybrid.pxi``) first lists its A* part: its expansions and
the nodes it stored; each iteration then says how many frontier nodes it searched. With
``--order DEPTH`` each search runs again with the children within the bound tried by increasing
f, smallest h first, at depths below DEPTH (the kernels' ``order=``; "by h" rows): its
iterations before the last expand the same nodes, only where the last one meets the goal moves.
``--frontier 0`` leaves A*+IDA* out.

Needs 6-6-6-6 built (``fastpuzzle pdb build 6-6-6-6``). Boards 38 and 40 take seconds; the
medium ones minutes each on one thread (more with ``--complete``). Judge on the medium boards:
on 38 and 40 the frontier is most of the search.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from benchmarks.harness import Instance
from fastpuzzle import pdb
from fastpuzzle._core import _wide_pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import idastar
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from tests.instances import korf24

#: A row of the kernels' trace: bound, expanded, generated (from the start), expanded and
#: generated at the first solution (-1: none), units.
Row = tuple[int, int, int, int, int, int]


def _run(
    instance: Instance, frontier: int, complete: bool, order: int
) -> tuple[list[Row], int, float]:
    """The trace, total expansions and seconds of one search of ``instance``."""
    problem = make_problem(list(instance.tiles))
    prepared = idastar.prepare(Request(problem, "pdb6666", Limits(), workers=1))
    cells = problem.wide_cells().astype(np.uint8)
    trace: list[Row] = []
    started = time.perf_counter()
    core = _wide_pdb.idastar(
        cells, problem.blank, 5, 5, problem.goal_blank, tables=prepared.tables,
        machine=prepared.machine, max_depth=400, frontier=frontier, complete=complete,
        trace=trace, order=order,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    assert core.status == 0 and core.depth == instance.optimal_length, (instance.name, core)
    if not complete:
        assert len(core.moves) == instance.optimal_length
    return trace, core.expanded, seconds


def _report(label: str, trace: list[Row], expanded: int, seconds: float) -> None:
    before = 0
    parts = []
    for bound, done, _, first, _, units in trace:
        if bound < 0:
            parts.append(f"A* {done - before:,} ({units:,} stored)")
        elif first >= 0:
            whole = f", in all {done - before:,}" if done != first else ""
            parts.append(f"{bound}: to the goal {first - before:,}{whole} [{units:,}]")
        else:
            parts.append(f"{bound}: {done - before:,} [{units:,}]")
        before = done
    start_last = trace[-2][1] if len(trace) > 1 else 0
    to_goal = trace[-1][3]
    share = (to_goal - start_last) / to_goal
    print(f"  {label:<9} " + "; ".join(parts))
    print(
        f"  {'':<9} last iteration to the goal {share:.0%} of {to_goal:,} nodes; "
        f"{expanded:,} expanded, {seconds:.1f} s",
        flush=True,
    )


def _searches(frontier: int, order: int | None) -> list[tuple[str, int, int]]:
    """Each search's label, A*+IDA*'s store (0: IDA*) and ordering depth (0: fixed order)."""
    stores = [("IDA*", 0)] + ([("A*+IDA*", frontier)] if frontier else [])
    orders = [("", 0)] + ([(" by h", order)] if order else [])
    return [(name + mark, store, depth) for name, store in stores for mark, depth in orders]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="38,40,1", help="Korf & Felner ids, e.g. 38,40,13")
    parser.add_argument(
        "--frontier", type=int, default=1 << 20, help="A*+IDA*'s store (nodes; 0: no A*+IDA*)"
    )
    parser.add_argument("--complete", action="store_true", help="search the last iteration whole")
    parser.add_argument(
        "--order",
        type=int,
        default=None,
        help="also search with children by increasing f below this depth (400: every level)",
    )
    args = parser.parse_args()
    if pdb.load_pdb("6-6-6-6", (5, 5)) is None:
        raise SystemExit("needs 6-6-6-6: fastpuzzle pdb build 6-6-6-6")
    wanted = args.boards.split(",")
    instances = {i.name.split("-")[1]: i for i in korf24(medium=True)}
    print(
        "nodes expanded per iteration (bound: nodes [frontier nodes searched]), one thread, "
        f"6-6-6-6, default machine; A*+IDA* stores {args.frontier:,} nodes"
        + (f"; by h: children by increasing f below depth {args.order}" if args.order else "")
    )
    for name in wanted:
        instance = instances[name]
        print(f"board {name} ({instance.optimal_length} moves)")
        for label, frontier, order in _searches(args.frontier, args.order):
            trace, expanded, seconds = _run(instance, frontier, args.complete, order)
            _report(label, trace, expanded, seconds)


if __name__ == "__main__":
    main()
