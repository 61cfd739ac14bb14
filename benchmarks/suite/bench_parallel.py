"""Parallel IDA*: 6-6-3 searches on 1 and 2 threads.

Both thread counts run in the same session on the same boards and record ``impl`` (``"1 thread"``,
``"2 threads"``), ``nodes`` (generated, summed over threads) and ``core_seconds``. Boards:
random50's largest 6-6-3 searches (lengths from ``random50.tsv``), four seeded random boards
whose serial search takes 0.13-0.45 s (each length checked against the serial search's, run
first), and, marked ``slow``, an 80-move board of ``hard.tsv`` (10-20 s on one thread).

Run: ``python -m pytest benchmarks/suite/bench_parallel.py --benchmark-json=r.json`` (``-m ''`` for
the slow ones), then ``python -m benchmarks.suite.report r.json``. ``python -m
benchmarks.studies.parallel_report`` interleaves the thread counts round by round and prints each
board's speedup range.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import fastpuzzle as fp
from benchmarks.harness import Instance, hard, random50
from tests.pdbcache import cache_holding

#: The random50 boards with the most 6-6-3 nodes (0.8 to 3.1 million generated on one thread).
BOARDS = ("random50-48", "random50-39", "random50-3", "random50-33")

#: Seeds of ``fp.random_board((4, 4), rng=seed)`` whose 6-6-3 search generates 8 to 27 million
#: nodes on one thread.
RANDOM_SEEDS = (37, 65, 885, 398)


@pytest.fixture(scope="module")
def cache_663(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with cache_holding("6-6-3", tmp_path_factory.mktemp("pdb-parallel")) as directory:
        yield directory


def _solve(cases: list[Instance], workers: int) -> tuple[int, float]:
    nodes, seconds = 0, 0.0
    for case in cases:
        result = fp.search(case.tiles, algorithm="idastar", heuristic="pdb663", workers=workers)
        assert result.solution is not None and len(result.solution) == case.optimal_length
        nodes += result.stats.generated
        seconds += result.stats.seconds
    return nodes, seconds


def _run(benchmark, cases: list[Instance], workers: int, rounds: int) -> None:  # type: ignore[no-untyped-def]
    _solve(cases[:1], workers)  # map the tables and start nothing else before timing
    nodes, seconds = benchmark.pedantic(_solve, args=(cases, workers), rounds=rounds, iterations=1)
    benchmark.extra_info["impl"] = f"{workers} thread{'s' if workers > 1 else ''}"
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["core_seconds"] = seconds


@pytest.mark.benchmark(group="random50-pdb663-threads")
@pytest.mark.parametrize("workers", [1, 2])
def test_random50_largest_pdb663(benchmark, cache_663: Path, workers: int) -> None:  # type: ignore[no-untyped-def]
    cases = [case for case in random50() if case.name in BOARDS]
    _run(benchmark, cases, workers, rounds=5)


@pytest.fixture(scope="module")
def random_boards(cache_663: Path) -> list[Instance]:
    boards = []
    for seed in RANDOM_SEEDS:
        tiles = fp.random_board((4, 4), rng=seed).tiles
        length = len(fp.solve(tiles, algorithm="idastar", heuristic="pdb663", workers=1))
        boards.append(Instance(f"random-{seed}", 4, tiles, length))
    return boards


@pytest.mark.benchmark(group="random4x4-pdb663-threads")
@pytest.mark.parametrize("workers", [1, 2])
def test_random_boards_pdb663(benchmark, random_boards: list[Instance], workers: int) -> None:  # type: ignore[no-untyped-def]
    _run(benchmark, random_boards, workers, rounds=5)


@pytest.mark.slow
@pytest.mark.benchmark(group="hard80-pdb663-threads")
@pytest.mark.parametrize("workers", [1, 2])
def test_80_move_board_pdb663(benchmark, cache_663: Path, workers: int) -> None:  # type: ignore[no-untyped-def]
    cases = [case for case in hard() if case.optimal_length == 80][:1]
    _run(benchmark, cases, workers, rounds=1)
