"""Batch throughput: solve_many on 3x3 and 4x4 boards, threads and a Dask LocalCluster.

Run: ``python -m pytest benchmarks/suite/bench_batch.py --benchmark-json=batch.json`` then ``python
-m benchmarks.suite.report batch.json``; ``python -m benchmarks.studies.batch_report`` prints the
ratios (2 threads / 1 thread, LocalCluster / threads) from one run.
"""

from __future__ import annotations

import numpy as np
import pytest

import fastpuzzle as fp
from tests.oracle import distances_3x3

N_3X3 = 10_000
N_4X4 = 200


@pytest.fixture(scope="module")
def boards_3x3():
    boards = [fp.random_board((3, 3), rng=seed) for seed in range(N_3X3)]
    return boards, np.array([b.packed for b in boards], dtype=np.uint64)


@pytest.fixture(scope="module")
def boards_4x4():
    boards = [fp.random_board((4, 4), rng=10_000 + seed) for seed in range(N_4X4)]
    packed = np.array([b.packed for b in boards], dtype=np.uint64)
    fp.solve(boards[0])  # build or map the pattern database outside the timings
    return boards, packed


def test_3x3_batch(benchmark, boards_3x3):
    boards, packed = boards_3x3
    result = benchmark(fp.solve_many, packed, shape=(3, 3))
    dist = distances_3x3()
    assert result.lengths.tolist() == [dist[b.tiles] for b in boards]
    benchmark.extra_info.update(impl="fastpuzzle", boards=N_3X3, nodes=int(result.generated.sum()))


@pytest.mark.parametrize("workers", [1, 2])
def test_4x4_batch_threads(benchmark, boards_4x4, workers):
    boards, packed = boards_4x4
    result = benchmark.pedantic(
        fp.solve_many, args=(packed,), kwargs={"shape": (4, 4), "workers": workers}, rounds=1
    )
    assert result.solved.all()
    assert all(b.apply(m) == fp.Board.goal((4, 4)) for b, m in zip(boards, result.moves))
    benchmark.extra_info.update(
        impl=f"threads-{workers}", boards=N_4X4, nodes=int(result.generated.sum())
    )
