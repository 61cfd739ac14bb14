"""The compound heuristic on Korf and Felner's 24-puzzles: ``pdb24`` beside ``pdb6666``.

Usage: ``python benchmarks/compound_report.py [--korf 1,25,32,38,40] [--workers 2]``. For each
board of ``tests/data/korf24_some.tsv``, in turn in one run: ``heuristic="pdb6666"`` (6-6-6-6 and
its reflection, the published partition) and ``heuristic="pdb24"`` (the largest of seven
6-6-6-6 partitions' sums, each with its reflection), nodes generated, wall seconds and the
generated nodes a second, with Korf and Felner's published count beside them. Needs the tables
built (``fastpuzzle pdb build 6-6-6-6x7``, which builds 6-6-6-6 too).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastpuzzle as fp
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle.pdb import compound
from tests.instances import korf24

HEURISTICS = ("pdb6666", "pdb24")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", default="1,25,32,38,40")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    name = BY_NAME["pdb24"].compound
    assert name is not None
    if not compound.compound_built(name, (5, 5), 24):
        print(f"the {name} tables are not built: `fastpuzzle pdb build {name}`")
        return 1
    tables = compound.compound_for(name, (5, 5), 24, build=False)
    print(f"{name}: {len({id(t) for p in tables.partitions for *_, t in p})} tables, "
          f"{tables.nbytes / 2**20:.0f} MiB in memory")  # fmt: skip
    wanted = {f"korf24-{k}" for k in args.korf.split(",")}
    totals = {h: [0, 0.0] for h in HEURISTICS}
    published = 0
    print(f"{args.workers} threads, duplicate pruning by the machine: nodes generated, wall s")
    for instance in korf24():
        if instance.name not in wanted:
            continue
        row = {}
        for heuristic in HEURISTICS:
            started = time.perf_counter()
            result = fp.search(
                list(instance.tiles), algorithm="idastar", heuristic=heuristic,
                workers=args.workers,
            )  # fmt: skip
            seconds = time.perf_counter() - started
            assert len(result.unwrap()) == instance.optimal_length
            totals[heuristic][0] += result.stats.generated
            totals[heuristic][1] += seconds
            row[heuristic] = (result.stats.generated, seconds)
        known = instance.published_nodes
        published += known or 0
        (n1, s1), (n2, s2) = row["pdb6666"], row["pdb24"]
        print(
            f"  {instance.name:>10} ({instance.optimal_length}): published {known:>14,}  "
            f"6-6-6-6 {n1:>14,} {s1:7.1f} s {n1 / s1 / 1e6:5.1f} M/s   "
            f"compound {n2:>13,} {s2:7.1f} s {n2 / s2 / 1e6:5.1f} M/s   "
            f"nodes {n2 / n1:.3f}x time {s2 / s1:.2f}x"
        )
    (n1, s1), (n2, s2) = totals["pdb6666"], totals["pdb24"]
    print(
        f"  total: published {published:,}; 6-6-6-6 {n1:,} ({n1 / published:.3f}x) in "
        f"{s1:.1f} s; compound {n2:,} ({n2 / published:.3f}x) in {s2:.1f} s; "
        f"compound/6-6-6-6 nodes {n2 / n1:.3f}x, time {s2 / s1:.2f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
