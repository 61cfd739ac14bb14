"""Which 5x5 default pays with duplicate pruning: 6-6-6-6 alone, or switching to the dual lookups.

Usage: ``python -m benchmarks.studies.pdb5x5_default_report [--korf 25,32,38,40] [--workers 2]
[--prune fsm] [--first pdb]``. For each of Korf and Felner's boards
(``tests/data/korf24_some.tsv``), in turn in one run: ``heuristic="pdb6666"`` (the two lookups,
the board and its reflection) and ``heuristic="pdb"`` (the same until
:data:`fastpuzzle._solver.policy.DUAL_FROM` expansions, then the four lookups with BPMX),
nodes generated and wall seconds. Needs 6-6-6-6 and its dual table built
(``fastpuzzle pdb build 6-6-6-6``).
"""

from __future__ import annotations

import argparse
import time

import fastpuzzle as fp
from benchmarks.harness import korf24
from fastpuzzle import pdb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", default="25,32,38,40")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--prune", default="fsm")
    parser.add_argument(
        "--first", choices=("pdb6666", "pdb"), default="pdb6666", help="which search runs first"
    )
    args = parser.parse_args(argv)
    if pdb.load_pdb("6-6-6-6") is None:
        print("6-6-6-6 is not built: `fastpuzzle pdb build 6-6-6-6`")
        return 1
    wanted = {f"korf24-{k}" for k in args.korf.split(",")}
    totals = {"pdb6666": [0, 0.0], "pdb": [0, 0.0]}
    print(f"{args.workers} threads, prune={args.prune!r}: nodes generated, wall seconds")
    for instance in korf24():
        if instance.name not in wanted:
            continue
        row = {}
        order = ("pdb6666", "pdb") if args.first == "pdb6666" else ("pdb", "pdb6666")
        for heuristic in order:
            started = time.perf_counter()
            result = fp.search(
                list(instance.tiles), algorithm="idastar", heuristic=heuristic,
                workers=args.workers, prune=args.prune,
            )  # fmt: skip
            seconds = time.perf_counter() - started
            assert len(result.unwrap()) == instance.optimal_length
            totals[heuristic][0] += result.stats.generated
            totals[heuristic][1] += seconds
            row[heuristic] = (result.stats.generated, seconds)
        (n1, s1), (n2, s2) = row["pdb6666"], row["pdb"]
        print(
            f"  {instance.name:>10} ({instance.optimal_length}): 6-6-6-6 {n1:>14,} {s1:8.2f} s   "
            f"with dual {n2:>14,} {s2:8.2f} s   nodes {n2 / n1:.3f}x time {s2 / s1:.3f}x"
        )
    (n1, s1), (n2, s2) = totals["pdb6666"], totals["pdb"]
    if n1:
        print(
            f"  {'all':>10}: 6-6-6-6 {n1:>14,} {s1:8.2f} s   with dual {n2:>14,} {s2:8.2f} s   "
            f"nodes {n2 / n1:.3f}x time {s2 / s1:.3f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
