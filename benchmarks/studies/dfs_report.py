"""Depth-first search as the source documents run it, measured in one run.

Usage: ``python -m benchmarks.studies.dfs_report [--rounds N]``. The C++ report's two boards at
depth 25 with ``dfs`` (the report's brute force: a tree search that never undoes its last move and
keeps no table) beside ``dfs_visited`` (a table of the smallest depth each board was reached at),
nodes and best time of ``--rounds``; then ``dfs`` with no ``max_depth`` on the 15-puzzle report's
12-move board (bound: misplaced + Manhattan). The C++ report's own figures, from its authors'
machine: 0.42 s and 0.07 s.
"""

from __future__ import annotations

import argparse

import fastpuzzle as fp
from benchmarks.harness import best_of, table
from fastpuzzle._problem import make_problem
from fastpuzzle.algorithms import dfs_depth

CPP_BOARDS = ("5 10 2 4/3 1 0 8/9 7 6 12/13 14 11 15", "0 1 3 4/5 2 6 8/9 10 7 11/13 14 15 12")
TWELVE_MOVES = "1 2 3 4/5 6 8 12/13 9 0 7/14 11 10 15"


def best(rounds: int, board: str, algorithm: str, limits: fp.Limits | None):  # type: ignore[no-untyped-def]
    seconds, result = best_of(rounds, lambda: fp.search(board, algorithm=algorithm, limits=limits))
    if result.solution is not None:
        assert result.solution.verify()
    return seconds, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    found = []
    rows = [(board, algorithm, 25) for board in CPP_BOARDS for algorithm in ("dfs", "dfs_visited")]
    rows += [(TWELVE_MOVES, "dfs", None)]
    for board, algorithm, depth in rows:
        limits = None if depth is None else fp.Limits(max_depth=depth)
        seconds, result = best(args.rounds, board, algorithm, limits)
        bound = depth if depth is not None else dfs_depth(make_problem(board, None))
        length = len(result.solution) if result.solution is not None else "-"
        stats = result.stats
        found.append((
            board, algorithm, bound, result.status.value, length, stats.expanded,
            f"{seconds:.3f}", f"{stats.expanded / seconds / 1e6:.1f}", stats.peak_memory_bytes,
        ))  # fmt: skip
    header = ("board", "algorithm", "depth", "status", "length", "expanded", "time s", "Mnodes/s")
    print(table((*header, "memory"), found))


if __name__ == "__main__":
    main()
