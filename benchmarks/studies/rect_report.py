"""Which rectangles of 10 to 25 cells should ``auto`` give a pattern database (issue 34, item 5).

Usage: ``python -m benchmarks.studies.rect_report [--shapes 2x5,2x6,...] [--boards 10]
[--seconds 20] [--seed 1] [--cache DIR] [--workers 1] [--build-only 4x6]``.

For each shape: the build time and file size of its default partition
(``fastpuzzle.build_pdb("auto", shape)``, into ``--cache``, a fresh temporary folder unless
given, so every build is timed from nothing), then ``--boards`` random boards
(``fastpuzzle.random_board(shape, rng=seed * 1000 + i)``) each searched by IDA* with linear
conflict, walking distance (where the shape has its tables) and ``heuristic="pdb"``, every
search stopped after ``--seconds``. Per heuristic: boards solved, the median wall time and
nodes expanded (a board stopped by the limit counts as the limit, so a median past it reads
``>``), and the time of all the boards together (the first search's includes building walking
distance's tables, or loading the pattern database). Where two heuristics solve a board, their
lengths must agree (each is an independent optimal search). ``--build-only`` shapes are only
built and timed (4x6, whose random boards no search here solves in 20 s).

``old auto`` marks the heuristic ``auto`` took before this issue (walking distance on up to 16
cells with both sides at most 4, else linear conflict; a table past 16 cells only when on
disk); ``auto now`` the one it takes today without the table on disk (``pdb`` where the policy
builds it on first use) and with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._solver import policy
from fastpuzzle.pdb.partitions import default_partition

SHAPES = "2x5,2x6,2x7,2x8,3x4,3x5,3x6,4x5"


def _old_auto(shape: tuple[int, int]) -> str:
    rows, cols = shape
    if rows * cols <= 16 and rows <= 4 and cols <= 4:
        return "walking_distance"
    return "linear_conflict"


def _heuristics(shape: tuple[int, int]) -> list[str]:
    rows, cols = shape
    out = ["linear_conflict"]
    # Walking distance: any board of up to 16 cells (long lines build slowly), past 16 cells
    # where one side has at most 4 lines.
    if rows * cols <= 16 or min(rows, cols) <= 4:
        out.append("walking_distance")
    return [*out, "pdb"]


def _groups(partition: object) -> str:
    if isinstance(partition, str):
        return partition
    return "-".join(str(len(group)) for group in partition)  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=SHAPES)
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=None)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--build-only", default="", help="shapes whose table is only built and timed (4x6)"
    )
    args = parser.parse_args(argv)
    cache = Path(args.cache) if args.cache else Path(tempfile.mkdtemp(prefix="rect-report-"))
    os.environ["FASTPUZZLE_CACHE"] = str(cache)
    print(
        f"cache {cache}; {args.boards} boards a shape (seed {args.seed}), "
        f"{args.seconds:g} s a search, {args.workers} thread(s)"
    )
    print(
        f"{'shape':>5} {'partition':>9} {'build s':>8} {'MiB':>6}  "
        f"{'heuristic':<17} {'solved':>6} {'median s':>9} {'median nodes':>13} "
        f"{'all s':>7}  note"
    )
    for text in args.shapes.split(","):
        rows, cols = (int(part) for part in text.split("x"))
        shape = (rows, cols)
        blank = rows * cols - 1
        partition = default_partition(shape, blank)
        without = policy.auto_choice(shape, blank).heuristic  # the cache is fresh
        started = time.perf_counter()
        path = pdb.build_pdb("auto", shape, progress=False)
        build = time.perf_counter() - started
        mib = path.stat().st_size / 2**20
        boards = [fp.random_board(shape, rng=args.seed * 1000 + i) for i in range(args.boards)]
        lengths: list[dict[str, int]] = [{} for _ in boards]
        with_table = policy.auto_choice(shape, blank).heuristic
        for number, heuristic in enumerate(_heuristics(shape)):
            times, nodes, solved = [], [], 0
            for board, found in zip(boards, lengths):
                begun = time.perf_counter()
                result = fp.search(
                    board,
                    algorithm="idastar",
                    heuristic=heuristic,
                    limits=fp.Limits(seconds=args.seconds),
                    workers=args.workers,
                )
                spent = time.perf_counter() - begun
                if result.status is fp.Status.SOLVED:
                    solved += 1
                    assert result.solution is not None
                    found[heuristic] = len(result.solution)
                    times.append(spent)
                else:
                    times.append(max(spent, args.seconds))
                nodes.append(result.stats.expanded)
            median = statistics.median(times)
            shown = f">{args.seconds:g}" if median >= args.seconds else f"{median:.3f}"
            marks = []
            if heuristic == _old_auto(shape):
                marks.append("old auto")
            if heuristic == without:
                marks.append("auto now without table")
            if heuristic == with_table:
                marks.append("auto now with table")
            lead = (
                f"{text:>5} {_groups(partition):>9} {build:8.2f} {mib:6.1f}"
                if number == 0
                else " " * 31
            )
            print(
                f"{lead}  {heuristic:<17} {solved:>3}/{len(boards):<2} {shown:>9} "
                f"{int(statistics.median(nodes)):>13,} {sum(times):7.1f}  {', '.join(marks)}",
                flush=True,
            )
        for index, found in enumerate(lengths):
            if len(set(found.values())) > 1:
                print(f"  LENGTHS DISAGREE on {text} board {index}: {found}")
                return 1
        optimal = sorted(max(found.values()) for found in lengths if found)
        if optimal:
            print(f"{'':>31}  optimal lengths {optimal}")
    for text in filter(None, args.build_only.split(",")):
        rows, cols = (int(part) for part in text.split("x"))
        partition = default_partition((rows, cols), rows * cols - 1)
        started = time.perf_counter()
        path = pdb.build_pdb("auto", (rows, cols), progress=False)
        build = time.perf_counter() - started
        print(
            f"{text:>5} {_groups(partition):>9} {build:8.2f} {path.stat().st_size / 2**20:6.1f}  "
            "(built only)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
