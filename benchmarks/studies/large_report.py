"""Print the table for large boards: constructive solve time and length / Manhattan sum.

Usage: ``python -m benchmarks.studies.large_report [--seeds N]``. Times are the best of a few runs
on this machine, next to a same-run baseline (replaying the answer with ``Board.apply``), so the
ratio column survives a noisy machine better than the seconds do.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import fastpuzzle as fp
from benchmarks.harness import best_of, table
from fastpuzzle._solver.constructive import manhattan_sum, solve_fast

SIZES = [(4, 4), (5, 5), (7, 3), (10, 10), (20, 20), (30, 30), (50, 50), (100, 100)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for shape in SIZES:
        times, replays, lengths, lowers = [], [], [], []
        for seed in range(args.seeds):
            board = fp.random_board(shape, rng=seed)
            repeats = 1 if shape[0] * shape[1] > 2500 else 3
            seconds, solution = best_of(repeats, lambda b=board: solve_fast(b))
            replay, after = best_of(repeats, lambda b=board, s=solution: b.apply(s.moves))
            assert after == fp.Board.goal(shape)
            times.append(seconds)
            replays.append(replay)
            lengths.append(len(solution))
            lowers.append(manhattan_sum(board))
        rows.append((
            f"{shape[0]}x{shape[1]}",
            f"{statistics.fmean(times):.4f}",
            f"{statistics.fmean(replays):.4f}",
            round(statistics.fmean(lengths)),
            round(statistics.fmean(lowers)),
            f"{statistics.fmean(n / m for n, m in zip(lengths, lowers)):.2f}",
        ))  # fmt: skip
        print(f"{shape[0]}x{shape[1]} done", file=sys.stderr, flush=True)
    print(table(("size", "seconds", "replay s", "length", "manhattan", "ratio"), rows))


if __name__ == "__main__":
    main()
