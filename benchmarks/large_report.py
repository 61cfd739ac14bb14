"""Print the table for large boards: constructive solve time and length / Manhattan sum.

Usage: ``python benchmarks/large_report.py [--seeds N]``. Times are the best of a few runs on
this machine, next to a same-run baseline (replaying the answer with ``Board.apply``), so the
ratio column survives a noisy machine better than the seconds do.
"""

from __future__ import annotations

import argparse
import statistics
import time

import fastpuzzle as fp
from fastpuzzle._solver.constructive import manhattan_sum, solve_fast

SIZES = [(4, 4), (5, 5), (7, 3), (10, 10), (20, 20), (30, 30), (50, 50), (100, 100)]


def best_of(function, repeats):
    best, value = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - started)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'size':>8} {'seconds':>9} {'replay s':>9} {'length':>10} {'manhattan':>10} {'ratio':>6}"
    )
    for shape in SIZES:
        times, replays, lengths, lowers = [], [], [], []
        for seed in range(args.seeds):
            board = fp.random_board(shape, rng=seed)
            repeats = 1 if shape[0] * shape[1] > 2500 else 3
            seconds, solution = best_of(lambda b=board: solve_fast(b), repeats)
            replay, after = best_of(lambda b=board, s=solution: b.apply(s.moves), repeats)
            assert after == fp.Board.goal(shape)
            times.append(seconds)
            replays.append(replay)
            lengths.append(len(solution))
            lowers.append(manhattan_sum(board))
        ratio = statistics.fmean(n / m for n, m in zip(lengths, lowers))
        print(
            f"{shape[0]:>3}x{shape[1]:<4} {statistics.fmean(times):9.4f} "
            f"{statistics.fmean(replays):9.4f} {statistics.fmean(lengths):10.0f} "
            f"{statistics.fmean(lowers):10.0f} {ratio:6.2f}"
        )


if __name__ == "__main__":
    main()
