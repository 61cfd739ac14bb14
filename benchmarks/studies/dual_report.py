"""Dual lookups and dual search against today's two lookups, on the same tables, in one run.

Usage: ``python -m benchmarks.studies.dual_report [--sets random50,hard,korf24] [--workers 2]
[--dida 10] [--rounds 1] [--skip hard5,korf24-1]``.

For each board: nodes generated and expanded, and wall time (best of ``--rounds``), of IDA*
with the two lookups (the board and its reflection: ``pdb78``/``pdb663``, ``pdb6666``) and with
the four (``*_dual``: the dual board and its reflection too, with BPMX). random50 runs on one
thread (serial counts); the others on ``--workers`` threads. ``--dida N`` also runs dual search
(DIDA*, jumping when larger) on random50's first N boards in plain Python
(``tests/dual_reference.py``): node counts only, beside the reference's own dual lookups + BPMX,
which count exactly what the kernel counts.

Tables: 7-8 when built, else 6-6-3 (4x4); 6-6-6-6 for korf24 (skipped when not built). The
tables the dual lookups add (one a partition) are built on first use.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import fastpuzzle as fp
from benchmarks.harness import Instance, hard, korf24, random50
from fastpuzzle import pdb
from fastpuzzle.pdb import dual
from tests.dual_reference import DualLookups, ida_bpmx, tables_of


def _search(instance: Instance, heuristic: str, workers: int) -> tuple[fp.SearchResult, float]:
    started = time.perf_counter()
    result = fp.search(
        list(instance.tiles), algorithm="idastar", heuristic=heuristic, workers=workers
    )
    seconds = time.perf_counter() - started
    assert result.solution is not None, instance.name
    assert len(result.solution) == instance.optimal_length, (instance.name, heuristic)
    return result, seconds


def _compare(
    label: str, instances: list[Instance], plain: str, four: str, workers: int, rounds: int
) -> None:
    totals = {plain: [0, 0, 0.0], four: [0, 0, 0.0]}
    for heuristic in (plain, four):
        # Tables read (or built) outside the timings.
        _search(min(instances, key=lambda i: i.optimal_length), heuristic, 1)
    for instance in instances:
        cells = []
        for heuristic in (plain, four):
            best = float("inf")
            for _ in range(rounds):
                result, seconds = _search(instance, heuristic, workers)
                best = min(best, seconds)
            stats = result.stats
            totals[heuristic][0] += stats.generated
            totals[heuristic][1] += stats.expanded
            totals[heuristic][2] += best
            cells.append(f"{stats.generated:>14,} {best:8.3f} s")
        if len(instances) <= 10:
            print(f"{instance.name:>12} {'   '.join(cells)}", flush=True)
    (g0, e0, t0), (g1, e1, t1) = totals[plain], totals[four]
    print(
        f"{label:>12} {g0:>14,} {t0:8.3f} s   {g1:>14,} {t1:8.3f} s   "
        f"nodes {g1 / g0:.3f}x, expanded {e1 / e0:.3f}x, time {t1 / t0:.3f}x",
        flush=True,
    )


def _dida(count: int, partition: str) -> None:
    database = pdb.load_pdb(partition, (4, 4))
    assert database is not None
    alts = dual.dual_tables(database, build=True)
    assert alts is not None
    walled = dual.walled_regions(database)
    lookups = DualLookups(
        4,
        4,
        database.goal_blank,
        tables_of(database),
        database.reflect,
        alt={(i, walled[i]): tables_of(a)[0] for i, a in enumerate(alts) if a is not None},
    )
    plain = dataclasses.replace(lookups, dual=False)
    totals = {"two lookups": 0, "four + BPMX": 0, "dual search": 0}
    jumps = 0
    for instance in list(random50())[:count]:
        for name, searched, options in (
            ("two lookups", plain, {"bpmx": False}),
            ("four + BPMX", lookups, {}),
            ("dual search", lookups, {"jump": True}),
        ):
            length, counts = ida_bpmx(searched, instance.tiles, **options)
            assert length == instance.optimal_length
            totals[name] += counts.generated
            jumps += counts.jumps if name == "dual search" else 0
    base = totals["two lookups"]
    print(
        f"dual search (plain Python, {partition}, random50's first {count}): "
        + ", ".join(f"{k} {v:,} ({v / base:.3f}x)" for k, v in totals.items())
        + f"; {jumps:,} jumps",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="random50,hard,korf24")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--dida", type=int, default=0)
    parser.add_argument("--skip", default="", help="boards left out, e.g. hard5,korf24-1")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    sets = args.sets.split(",")
    four_by_four = "7-8" if pdb.load_pdb("7-8") is not None else "6-6-3"
    plain = "pdb78" if four_by_four == "7-8" else "pdb663"
    print(
        f"{'board':>12} {'two lookups: nodes':>14} {'time':>10}   {'four: nodes':>14} {'time':>10}"
    )
    if "random50" in sets:
        _compare("random50", list(random50()), plain, plain + "_dual", 1, args.rounds)
    if "hard" in sets:
        boards = [i for i in hard() if i.name not in skip]
        _compare("hard", boards, plain, plain + "_dual", args.workers, args.rounds)
    if "korf24" in sets:
        if pdb.load_pdb("6-6-6-6", (5, 5)) is None:
            print("korf24: skipped (fastpuzzle pdb build 6-6-6-6)")
        else:
            instances = sorted(
                (i for i in korf24() if i.name not in skip), key=lambda i: i.published_nodes or 0
            )
            _compare("korf24", instances, "pdb6666", "pdb6666_dual", args.workers, args.rounds)
    if args.dida:
        _dida(args.dida, four_by_four)


if __name__ == "__main__":
    main()
