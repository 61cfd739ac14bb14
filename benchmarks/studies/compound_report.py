"""The 24-puzzle's stronger heuristics on Korf and Felner's boards, beside another.

Usage: ``python -m benchmarks.studies.compound_report [--korf 1,25,32,38,40] [--workers 2]
[--heuristic pdb24] [--base pdb6666]``. For each board of ``tests/data/korf24_some.tsv``, in
turn in one run: the base heuristic (``pdb6666``: 6-6-6-6 and its reflection, the published
partition) and the other: ``pdb24`` (the largest of seven 6-6-6-6 partitions' sums, each with
its reflection; tables: ``fastpuzzle pdb build 6-6-6-6x7``, which builds 6-6-6-6 too),
``pdb6666z`` (6-6-6-6 zero-aware; ``fastpuzzle pdb build 6-6-6-6z``) or ``pdb24z`` (``pdb24``
zero-aware; ``fastpuzzle pdb build 6-6-6-6x7z``): nodes generated, wall seconds and the
generated nodes a second, with Korf and Felner's published count beside them. Tables are loaded
before the first search is timed.
"""

from __future__ import annotations

import argparse
import time

import fastpuzzle as fp
from benchmarks.harness import korf24
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle.pdb import compound, load_pdb

HEURISTICS = ("pdb6666", "pdb", "pdb6666z", "pdb24", "pdb24z")


def _tables_ready(heuristic: str) -> bool:
    """Whether the heuristic's tables are built; says which are missing."""
    entry = BY_NAME[heuristic]
    if entry.compound is not None:
        if not compound.compound_built(entry.compound, (5, 5), 24):
            name = entry.compound
            print(f"the {name} tables are not built: `fastpuzzle pdb build {name}`")
            return False
        tables = compound.compound_for(entry.compound, (5, 5), 24, build=False)
        print(f"{entry.compound}: {len({id(t) for p in tables.partitions for *_, t in p})} tables, "
              f"{tables.nbytes / 2**20:.0f} MiB in memory")  # fmt: skip
        return True
    partition = entry.partition or "6-6-6-6"
    database = load_pdb(partition, (5, 5), 24)
    if database is None:
        print(f"{partition} is not built: `fastpuzzle pdb build {partition}`")
        return False
    print(f"{partition}: {len(database.groups)} tables, {database.nbytes / 2**20:.0f} MiB")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", default="1,25,32,38,40")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--heuristic", default="pdb24", choices=HEURISTICS)
    parser.add_argument("--base", default="pdb6666", choices=HEURISTICS)
    args = parser.parse_args(argv)
    base, other = args.base, args.heuristic
    heuristics = (base, other)
    if not all(_tables_ready(h) for h in heuristics):
        return 1
    for heuristic in heuristics:
        # Loaded (and laid out) before anything is timed.
        fp.search(fp.scramble(fp.Board.goal((5, 5)), 6, rng=1), algorithm="idastar",
                  heuristic=heuristic)  # fmt: skip
    wanted = {f"korf24-{k}" for k in args.korf.split(",")}
    totals = {h: [0, 0.0] for h in heuristics}
    published = 0
    print(f"{args.workers} threads, duplicate pruning by the machine: nodes generated, wall s")
    for instance in korf24():
        if instance.name not in wanted:
            continue
        row = {}
        for heuristic in heuristics:
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
        (n1, s1), (n2, s2) = row[base], row[other]
        print(
            f"  {instance.name:>10} ({instance.optimal_length}): published {known:>14,}  "
            f"{base} {n1:>14,} {s1:7.1f} s {n1 / s1 / 1e6:5.1f} M/s   "
            f"{other} {n2:>13,} {s2:7.1f} s {n2 / s2 / 1e6:5.1f} M/s   "
            f"nodes {n2 / n1:.3f}x time {s2 / s1:.2f}x"
        )
    (n1, s1), (n2, s2) = totals[base], totals[other]
    print(
        f"  total: published {published:,}; {base} {n1:,} ({n1 / published:.3f}x) in "
        f"{s1:.1f} s; {other} {n2:,} ({n2 / published:.3f}x) in {s2:.1f} s; "
        f"{other}/{base} nodes {n2 / n1:.3f}x, time {s2 / s1:.2f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
