"""The optimal workhorse: IDA* node rate against the C yardstick, pattern databases, pure Python.

Each benchmark asserts its answers and records ``impl``, ``nodes`` and ``core_seconds`` in
``extra_info``. Baselines run in the same session: the C yardstick (compiled with ``cc -O3`` into
a temporary directory; skipped without a compiler) and the pure-Python IDA* of ``plain_ida.py``.
The 7-8 benchmark runs only when 7-8 is built in the user's cache (``fastpuzzle pdb build 7-8``)
and is marked ``slow``.

Run: ``python -m pytest benchmarks/suite/bench_optimal.py --benchmark-json=results.json`` (add ``-m
slow`` or ``-m ''`` for the opt-in ones), then ``python -m benchmarks.suite.report results.json``;
``python -m benchmarks.baselines.yardstick`` prints the same figures as one ratio report.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import fastpuzzle as fp
from benchmarks.baselines import plain_ida, yardstick
from benchmarks.harness import random50
from fastpuzzle import pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import idastar
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from tests.pdbcache import cache_holding

#: Where a one-time 7-8 build lives, read before any fixture points the cache elsewhere.
USER_CACHE = pdb.pdb_cache_dir()


@pytest.fixture(scope="module")
def yardstick_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = yardstick.compile_yardstick(tmp_path_factory.mktemp("yardstick"))
    if binary is None:
        pytest.skip("no C compiler")
    return binary


@pytest.fixture(scope="module")
def cache_663(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with cache_holding("6-6-3", tmp_path_factory.mktemp("pdb-bench")) as directory:
        yield directory


def _record(benchmark, impl: str, nodes: int, core_seconds: float) -> None:  # type: ignore[no-untyped-def]
    benchmark.extra_info["impl"] = impl
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["core_seconds"] = core_seconds


@pytest.mark.benchmark(group="idastar-manhattan-rate")
def test_idastar_manhattan_fastpuzzle(benchmark) -> None:  # type: ignore[no-untyped-def]
    boards = yardstick.rate_boards()
    nodes, seconds = benchmark.pedantic(
        yardstick.fastpuzzle_manhattan, args=(boards,), rounds=5, iterations=1
    )
    _record(benchmark, "fastpuzzle", nodes, seconds)


@pytest.mark.benchmark(group="idastar-manhattan-rate")
def test_idastar_manhattan_c_yardstick(benchmark, yardstick_binary: Path) -> None:  # type: ignore[no-untyped-def]
    boards = yardstick.rate_boards()
    runs = benchmark.pedantic(
        yardstick.run_yardstick,
        args=(yardstick_binary, [c.tiles for c in boards]),
        rounds=5,
        iterations=1,
    )
    assert [r[1] for r in runs] == [c.manhattan_ida_nodes for c in boards]
    _record(benchmark, "c", sum(r[1] for r in runs), sum(r[2] for r in runs))


@pytest.mark.benchmark(group="pdb663-build")
def test_pdb663_build(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = benchmark.pedantic(
        pdb.build_pdb,
        args=("6-6-3",),
        kwargs={"cache_dir": tmp_path, "progress": False, "force": True},
        rounds=1,
        iterations=1,
    )
    benchmark.extra_info["bytes"] = path.stat().st_size


def _solve_random50(heuristic: str) -> tuple[int, float]:
    nodes, seconds = 0, 0.0
    for case in random50():
        core = idastar.run(Request(make_problem(list(case.tiles)), heuristic, Limits()))
        assert core.depth == case.optimal_length, case.name
        nodes += core.generated
        seconds += core.seconds
    return nodes, seconds


@pytest.mark.benchmark(group="random50-pdb663")
def test_random50_pdb663(benchmark, cache_663: Path) -> None:  # type: ignore[no-untyped-def]
    _solve_random50("pdb663")  # map the tables before timing
    nodes, seconds = benchmark.pedantic(_solve_random50, args=("pdb663",), rounds=3, iterations=1)
    _record(benchmark, "fastpuzzle", nodes, seconds)


@pytest.mark.slow
@pytest.mark.benchmark(group="random50-pdb78")
def test_random50_pdb78(benchmark, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    if pdb.load_pdb("7-8", cache_dir=USER_CACHE) is None:
        pytest.skip(f"7-8 not built in {USER_CACHE} (fastpuzzle pdb build 7-8)")
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(USER_CACHE))
    _solve_random50("pdb78")
    nodes, seconds = benchmark.pedantic(_solve_random50, args=("pdb78",), rounds=3, iterations=1)
    _record(benchmark, "fastpuzzle", nodes, seconds)


@pytest.mark.benchmark(group="smallest-50-move-board")
def test_smallest_50_move_default_solver(benchmark, cache_663: Path) -> None:  # type: ignore[no-untyped-def]
    case = yardstick.smallest_50_move_board()
    solution = benchmark(fp.solve, list(case.tiles))
    assert len(solution) == case.optimal_length
    _record(benchmark, "fastpuzzle", solution.stats.generated, solution.stats.seconds)


@pytest.mark.benchmark(group="smallest-50-move-board")
def test_smallest_50_move_pure_python(benchmark) -> None:  # type: ignore[no-untyped-def]
    case = yardstick.smallest_50_move_board()

    def run() -> tuple[int, int, str] | None:
        try:
            return plain_ida.solve(case.tiles, seconds=60.0)
        except plain_ida.TimeUp:
            return None

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    if result is None:
        benchmark.extra_info["impl"] = "python"
        benchmark.extra_info["note"] = "> 60 s"
        pytest.skip("pure-Python IDA* took over 60 s: report it as '> 60 s'")
    length, nodes, _ = result
    assert length == case.optimal_length and nodes == case.manhattan_ida_nodes
    _record(benchmark, "python", nodes, benchmark.stats.stats.min)
