"""Classic searches against deliberately plain pure-Python versions, measured in the same run.

Each benchmark asserts its answer and records in ``extra_info``: ``impl`` (fastpuzzle or
python), ``nodes`` (children generated) and ``expanded``; fastpuzzle's also record
``core_seconds`` (time inside the compiled loops, as SearchStats reports it). Print the node
rates and ratios with ``python -m benchmarks.suite.report results.json``.

Run: ``python -m pytest benchmarks/suite/bench_classic.py --benchmark-json=results.json``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import fastpuzzle as fp
from benchmarks.baselines import plain_python

HARDEST_3X3 = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves: BFS sees (almost) the whole space
# 55 moves, the farthest 2x5 board: BFS sees (almost) all 1,814,400 boards. Past 8 tiles the
# perfect index ranks with its digit loop, not table lookups.
HARDEST_2X5 = (0, 5, 3, 2, 1, 9, 4, 8, 7, 6)


@dataclass(frozen=True)
class Case:
    tiles: tuple[int, ...]
    optimal_length: int


def _record(benchmark, impl, nodes, expanded, core_seconds=None):
    benchmark.extra_info["impl"] = impl
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["expanded"] = expanded
    if core_seconds is not None:
        benchmark.extra_info["core_seconds"] = core_seconds


class FastpuzzleRuns:
    """Calls fp.search on every case; remembers the least compiled-loop time of any round."""

    def __init__(self, cases, algorithm, heuristic=None, shape=None):
        self.cases = cases
        self.algorithm = algorithm
        self.heuristic = heuristic
        self.shape = shape  # for boards that are not square; built inside the timed call
        self.core_seconds = float("inf")

    def __call__(self):
        results = [
            fp.search(
                fp.Board(case.tiles, shape=self.shape) if self.shape else case.tiles,
                algorithm=self.algorithm,
                heuristic=self.heuristic,
            )
            for case in self.cases
        ]
        self.core_seconds = min(self.core_seconds, sum(r.stats.seconds for r in results))
        return results


def _check_fastpuzzle(benchmark, runs, results):
    for case, result in zip(runs.cases, results):
        assert len(result.unwrap()) == case.optimal_length
        assert result.solution.verify()
    _record(
        benchmark,
        "fastpuzzle",
        sum(r.stats.generated for r in results),
        sum(r.stats.expanded for r in results),
        runs.core_seconds,
    )


def _check_python(benchmark, results, cases):
    for case, (moves, _, _) in zip(cases, results):
        assert len(moves) == case.optimal_length
        assert fp.Board(case.tiles).apply(moves) == fp.Board.goal(case.shape)
    _record(
        benchmark,
        "python",
        sum(generated for _, _, generated in results),
        sum(expanded for _, expanded, _ in results),
    )


# --- BFS over the whole 3x3 space ---------------------------------------------------------------


@pytest.mark.benchmark(group="bfs-3x3-whole-space")
def test_bfs_3x3_fastpuzzle(benchmark):
    runs = FastpuzzleRuns([Case(HARDEST_3X3, 31)], "bfs")
    results = benchmark(runs)
    assert results[0].stats.expanded > 180_000  # 181,440 boards in the space
    _check_fastpuzzle(benchmark, runs, results)


@pytest.mark.benchmark(group="bfs-3x3-whole-space")
def test_bfs_3x3_python(benchmark):
    moves, expanded, generated = benchmark.pedantic(
        plain_python.bfs, args=(HARDEST_3X3, 3, 3), rounds=5, iterations=1
    )
    assert len(moves) == 31
    assert fp.Board(HARDEST_3X3).apply(moves) == fp.Board.goal((3, 3))
    _record(benchmark, "python", generated, expanded)


# --- BFS over the whole 2x5 space ---------------------------------------------------------------


@pytest.mark.benchmark(group="bfs-2x5-whole-space")
def test_bfs_2x5_fastpuzzle(benchmark):
    runs = FastpuzzleRuns([Case(HARDEST_2X5, 55)], "bfs", shape=(2, 5))
    results = benchmark(runs)
    assert results[0].stats.expanded > 1_800_000
    _check_fastpuzzle(benchmark, runs, results)


@pytest.mark.benchmark(group="bfs-2x5-whole-space")
def test_bfs_2x5_python(benchmark):
    moves, expanded, generated = benchmark.pedantic(
        plain_python.bfs, args=(HARDEST_2X5, 2, 5), rounds=3, iterations=1
    )
    assert len(moves) == 55
    assert fp.Board(HARDEST_2X5, shape=(2, 5)).apply(moves) == fp.Board.goal((2, 5))
    _record(benchmark, "python", generated, expanded)


# --- A* + Manhattan on the hardest 3x3 board ---------------------------------------------------


@pytest.mark.benchmark(group="astar-manhattan-3x3-hardest")
def test_astar_3x3_fastpuzzle(benchmark):
    runs = FastpuzzleRuns([Case(HARDEST_3X3, 31)], "astar", "manhattan")
    results = benchmark(runs)
    _check_fastpuzzle(benchmark, runs, results)


@pytest.mark.benchmark(group="astar-manhattan-3x3-hardest")
def test_astar_3x3_python(benchmark):
    moves, expanded, generated = benchmark.pedantic(
        plain_python.astar, args=(HARDEST_3X3, 3, 3), rounds=5, iterations=1
    )
    assert len(moves) == 31
    assert fp.Board(HARDEST_3X3).apply(moves) == fp.Board.goal((3, 3))
    _record(benchmark, "python", generated, expanded)


# --- A* + Manhattan on the seed 4x4 boards -----------------------------------------------------


@pytest.mark.benchmark(group="astar-manhattan-4x4-seeds")
def test_astar_seeds_fastpuzzle(benchmark, seed_4x4):
    runs = FastpuzzleRuns(seed_4x4, "astar", "manhattan")
    results = benchmark(runs)
    _check_fastpuzzle(benchmark, runs, results)


@pytest.mark.benchmark(group="astar-manhattan-4x4-seeds")
def test_astar_seeds_python(benchmark, seed_4x4):
    def run():
        return [plain_python.astar(case.tiles, 4, 4) for case in seed_4x4]

    results = benchmark.pedantic(run, rounds=5, iterations=1)
    _check_python(benchmark, results, seed_4x4)


# --- A* + Manhattan on the random50 boards a pure-Python A* finishes in seconds -----------------


@pytest.mark.benchmark(group="astar-manhattan-4x4-random50")
def test_astar_random50_fastpuzzle(benchmark, random50_easy):
    runs = FastpuzzleRuns(random50_easy, "astar", "manhattan")
    results = benchmark(runs)
    _check_fastpuzzle(benchmark, runs, results)


@pytest.mark.benchmark(group="astar-manhattan-4x4-random50")
def test_astar_random50_python(benchmark, random50_easy):
    def run():
        return [plain_python.astar(case.tiles, 4, 4) for case in random50_easy]

    results = benchmark.pedantic(run, rounds=5, iterations=1)
    _check_python(benchmark, results, random50_easy)


# --- IDA* + Manhattan on the seed 4x4 boards (the registry's idastar entry) --------------------


@pytest.mark.benchmark(group="idastar-manhattan-4x4-seeds")
def test_idastar_seeds_fastpuzzle(benchmark, seed_4x4):
    runs = FastpuzzleRuns(seed_4x4, "idastar", "manhattan")
    results = benchmark(runs)
    _check_fastpuzzle(benchmark, runs, results)


@pytest.mark.benchmark(group="idastar-manhattan-4x4-seeds")
def test_idastar_seeds_python(benchmark, seed_4x4):
    def run():
        return [plain_python.idastar(case.tiles, 4, 4) for case in seed_4x4]

    results = benchmark.pedantic(run, rounds=5, iterations=1)
    _check_python(benchmark, results, seed_4x4)
