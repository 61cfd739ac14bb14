"""Batch figures measured in one run: per-board time on 3x3, thread scaling and Dask overhead.

Usage: ``python benchmarks/batch_report.py [--boards-4x4 N]``. Prints one table; every figure
it prints was measured by this run on this machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastpuzzle as fp
from tests.oracle import distances_3x3


def best_of(rounds: int, run):  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(rounds):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards-3x3", type=int, default=10_000)
    parser.add_argument("--boards-4x4", type=int, default=1_000)
    parser.add_argument("--dask", action="store_true", help="also time a 2-process LocalCluster")
    args = parser.parse_args()

    small = [fp.random_board((3, 3), rng=s) for s in range(args.boards_3x3)]
    packed3 = np.array([b.packed for b in small], dtype=np.uint64)
    fp.solve_many(packed3[:10], shape=(3, 3))
    seconds3, result3 = best_of(5, lambda: fp.solve_many(packed3, shape=(3, 3)))
    dist = distances_3x3()
    assert result3.lengths.tolist() == [dist[b.tiles] for b in small]
    print(
        f"3x3: {args.boards_3x3} boards in {seconds3:.3f} s = "
        f"{seconds3 / args.boards_3x3 * 1e6:.2f} us a board (all optimal, checked by BFS)"
    )

    big = [fp.random_board((4, 4), rng=10_000 + s) for s in range(args.boards_4x4)]
    packed4 = np.array([b.packed for b in big], dtype=np.uint64)
    fp.solve(big[0])
    one, r1 = best_of(1, lambda: fp.solve_many(packed4, shape=(4, 4), workers=1))
    two, r2 = best_of(1, lambda: fp.solve_many(packed4, shape=(4, 4), workers=2))
    assert (r1.lengths == r2.lengths).all() and r1.solved.all()
    print(
        f"4x4: {args.boards_4x4} boards, 1 thread {one:.2f} s, 2 threads {two:.2f} s: "
        f"{one / two:.2f}x (mean length {r1.lengths.mean():.1f})"
    )

    if args.dask:
        from distributed import Client, LocalCluster

        with (
            LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
            Client(cluster) as client,
        ):
            fp.solve_many(packed4[:20], shape=(4, 4), client=client, chunk_size=10)  # warm up
            dask_s, r3 = best_of(
                1, lambda: fp.solve_many(packed4, shape=(4, 4), client=client, chunk_size=50)
            )
        assert (r3.lengths == r1.lengths).all()
        print(
            f"4x4 on a 2-process LocalCluster: {dask_s:.2f} s = {dask_s / two:.2f}x the "
            "2-thread time"
        )


if __name__ == "__main__":
    main()
