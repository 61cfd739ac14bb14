"""The 24-puzzle's stronger heuristics on Korf and Felner's boards, beside another.

Usage: ``python -m benchmarks.studies.compound_report [--korf 1,25,32,38,40] [--workers 2]
[--heuristic pdb24[,pdb24z,default]] [--base pdb6666] [--base-prune parent]``. For each board of
``tests/data/korf24_some.tsv``, in turn in one run: the base heuristic (``pdb6666``: 6-6-6-6 and
its reflection, the published partition; ``--base-prune parent`` searches it with parent pruning
alone, as Korf and Felner counted) and the others: ``pdb24`` (the largest of seven 6-6-6-6
partitions' sums, each with its reflection; tables: ``fastpuzzle pdb build 6-6-6-6x7``, which
builds 6-6-6-6 too), ``pdb6666z`` (6-6-6-6 zero-aware; ``fastpuzzle pdb build 6-6-6-6z``),
``pdb24z`` (``pdb24`` zero-aware; ``fastpuzzle pdb build 6-6-6-6x7z``) or ``default`` (what
``solve()`` does: 6-6-6-6, switching to its dual lookups on long searches): nodes generated,
wall seconds and the generated nodes a second, with Korf and Felner's published count beside
them, and each one's nodes and time over the base's. Tables are loaded before the first search is
timed.
"""

from __future__ import annotations

import argparse
import time

import fastpuzzle as fp
from benchmarks.harness import korf24
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle.pdb import compound, load_pdb

HEURISTICS = ("pdb6666", "pdb", "pdb6666z", "pdb24", "pdb24z")

#: What ``default`` names: ``solve()`` with its own choices.
DEFAULT = "default"


def _tables_ready(heuristic: str) -> bool:
    """Whether the heuristic's tables are built; says which are missing."""
    if heuristic == DEFAULT:
        return _tables_ready("pdb6666")
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


def _run(heuristic: str, tiles: list[int], workers: int, prune: str | None) -> tuple[int, int]:
    """One search: a heuristic with IDA* (``prune``: its duplicate pruning), or ``solve()``.
    Returns the solution's length and the nodes generated."""
    if heuristic == DEFAULT:
        solution = fp.solve(tiles, workers=workers, limits=fp.Limits(seconds=24 * 3600))
        return len(solution.moves), solution.stats.generated
    result = fp.search(
        tiles, algorithm="idastar", heuristic=heuristic, workers=workers, prune=prune
    )
    return len(result.unwrap()), result.stats.generated


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", default="1,25,32,38,40")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--heuristic", default="pdb24",
                        help="one or more (comma-separated) of " + ", ".join(
                            (*HEURISTICS, DEFAULT)))  # fmt: skip
    parser.add_argument("--base", default="pdb6666", choices=HEURISTICS)
    parser.add_argument(
        "--base-prune",
        choices=("machine", "parent"),
        default="machine",
        help="the base's duplicate pruning (parent: Korf and Felner's)",
    )
    args = parser.parse_args(argv)
    base = args.base
    others = [h for h in args.heuristic.split(",") if h]
    unknown = [h for h in others if h not in (*HEURISTICS, DEFAULT)]
    if unknown or not others:
        parser.error(f"unknown heuristic {unknown or args.heuristic!r}")
    base_label = f"{base} ({args.base_prune})"
    heuristics = [base, *others]
    # The base's pruning as asked; the others' the default machine.
    prunes = ["parent" if args.base_prune == "parent" else None] + [None] * len(others)
    wanted = {f"korf24-{k}" for k in args.korf.split(",")}
    boards = [instance for instance in korf24() if instance.name in wanted]
    if len(boards) != len(wanted):
        known = ", ".join(instance.name.split("-")[1] for instance in korf24())
        parser.error(f"--korf takes some of {known}, got {args.korf!r}")
    if not all(_tables_ready(h) for h in dict.fromkeys(heuristics)):
        return 1
    for heuristic, prune in zip(heuristics, prunes):
        # Loaded (and laid out) before anything is timed.
        _run(heuristic, fp.scramble(fp.Board.goal((5, 5)), 6, rng=1), args.workers, prune)
    totals = [[0, 0.0] for _ in heuristics]
    published = 0
    print(f"{args.workers} threads; {base_label} beside {', '.join(others)} "
          "(theirs by the machine): nodes generated, wall s")  # fmt: skip
    for instance in boards:
        row = []
        for index, (heuristic, prune) in enumerate(zip(heuristics, prunes)):
            started = time.perf_counter()
            length, generated = _run(heuristic, list(instance.tiles), args.workers, prune)
            seconds = time.perf_counter() - started
            assert length == instance.optimal_length
            totals[index][0] += generated
            totals[index][1] += seconds
            row.append((generated, seconds))
        known = instance.published_nodes
        published += known or 0
        (n1, s1) = row[0]
        print(f"  {instance.name:>10} ({instance.optimal_length}): published {known:>14,}  "
              f"{base_label} {n1:>14,} {s1:7.1f} s {n1 / s1 / 1e6:5.1f} M/s")  # fmt: skip
        for heuristic, (n2, s2) in zip(others, row[1:]):
            print(f"  {'':>16} {heuristic:>10} {n2:>14,} {s2:7.1f} s {n2 / s2 / 1e6:5.1f} M/s  "
                  f"nodes {n2 / n1:.3f}x time {s2 / s1:.2f}x")  # fmt: skip
    n1, s1 = totals[0]
    print(f"  total: published {published:,}; {base_label} {n1:,} ({n1 / published:.3f}x) in "
          f"{s1:.1f} s")  # fmt: skip
    for heuristic, (n2, s2) in zip(others, totals[1:]):
        print(f"  {heuristic:>10} {n2:,} ({n2 / published:.3f}x) in {s2:.1f} s; over the base: "
              f"nodes {n2 / n1:.3f}x, time {s2 / s1:.2f}x, node rate "
              f"{(n2 / s2) / (n1 / s1):.2f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
