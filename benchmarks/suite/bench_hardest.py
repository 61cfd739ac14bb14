"""The hardest boards with the best tables: 7-8 on 4x4 and 6-6-6-6 on 5x5, 1 and 2 threads.

Every benchmark here reads a table the user built once (``fastpuzzle pdb build 7-8``, and
``6-6-6-6`` for 5x5) from their cache, and is skipped until it is there; none builds one. Each
runs on one thread and on two in the same session and records ``impl`` (``"1 thread"``,
``"2 threads"``), ``nodes`` (generated, summed over threads) and ``core_seconds``:

- each board of ``tests/data/hard.tsv`` (four 80-move boards, lengths from Korf and Schultze's
  complete search; the 70-move board, which takes 17 s on two threads with 7-8 alone,
  is ``slow``);
- random50 (lengths from ``random50.tsv``) as one total;
- 1,000 seeded random boards through ``solve_many`` (one board per thread);
- a 5x5 board 90 random moves from the goal, 60 moves from it at best, with 6-6-6-6 (its
  length checked against linear conflict's);
- the first ``solve()`` in a new Python process, loading and checking 7-8 included.

Run: ``python -m pytest benchmarks/suite/bench_hardest.py --benchmark-json=r.json`` (``-m ''`` for
the slow ones), then ``python -m benchmarks.suite.report r.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from benchmarks.harness import Instance, hard, random50
from fastpuzzle import pdb

#: Where the one-time builds live, read before any fixture points the cache elsewhere.
USER_CACHE = pdb.pdb_cache_dir()

WORKERS = [1, 2]


@pytest.fixture(scope="module")
def cache_78(monkeypatch_module: pytest.MonkeyPatch) -> Path:
    if not pdb.pdb_path("7-8", cache_dir=USER_CACHE).is_file():
        pytest.skip(f"7-8 not built in {USER_CACHE} (fastpuzzle pdb build 7-8)")
    monkeypatch_module.setenv("FASTPUZZLE_CACHE", str(USER_CACHE))
    fp.solve(list(random50()[0].tiles))  # read and check the table before timing
    return USER_CACHE


@pytest.fixture(scope="module")
def monkeypatch_module() -> pytest.MonkeyPatch:
    with pytest.MonkeyPatch.context() as patch:
        yield patch  # type: ignore[misc]


def _threads(workers: int) -> str:
    return f"{workers} thread{'s' if workers > 1 else ''}"


def _solve_all(cases: list[Instance], workers: int) -> tuple[int, float]:
    nodes, seconds = 0, 0.0
    for case in cases:
        solution = fp.solve(list(case.tiles), workers=workers)
        assert len(solution) == case.optimal_length, case.name
        assert solution.heuristic == "pdb"
        nodes += solution.stats.generated
        seconds += solution.stats.seconds
    return nodes, seconds


def _record(benchmark, workers: int, nodes: int, seconds: float) -> None:  # type: ignore[no-untyped-def]
    benchmark.extra_info.update(impl=_threads(workers), nodes=nodes, core_seconds=seconds)


def _hard_params() -> list[object]:
    params: list[object] = []
    for case in hard():
        marks = [pytest.mark.slow] if case.optimal_length < 80 else []
        for workers in WORKERS:
            params.append(pytest.param(case, workers, marks=marks, id=f"{case.name}-{workers}"))
    return params


@pytest.mark.benchmark(group="hard-78-threads")
@pytest.mark.parametrize(("case", "workers"), _hard_params())
def test_hard_board_78(benchmark, cache_78: Path, case: Instance, workers: int) -> None:  # type: ignore[no-untyped-def]
    nodes, seconds = benchmark.pedantic(_solve_all, args=([case], workers), rounds=1, iterations=1)
    _record(benchmark, workers, nodes, seconds)


@pytest.mark.benchmark(group="random50-78-threads")
@pytest.mark.parametrize("workers", WORKERS)
def test_random50_78(benchmark, cache_78: Path, workers: int) -> None:  # type: ignore[no-untyped-def]
    nodes, seconds = benchmark.pedantic(
        _solve_all, args=(random50(), workers), rounds=3, iterations=1
    )
    _record(benchmark, workers, nodes, seconds)


@pytest.mark.benchmark(group="solve-many-1000-4x4-78")
@pytest.mark.parametrize("workers", WORKERS)
def test_solve_many_1000_78(benchmark, cache_78: Path, workers: int) -> None:  # type: ignore[no-untyped-def]
    boards = [fp.random_board((4, 4), rng=1000 + i) for i in range(1000)]
    packed = np.array([board.packed for board in boards], dtype=np.uint64)
    result = benchmark.pedantic(
        fp.solve_many, args=(packed,), kwargs={"shape": (4, 4), "workers": workers}, rounds=1
    )
    assert result.solved.all()
    assert all(b.apply(m) == fp.Board.goal((4, 4)) for b, m in zip(boards, result.moves))
    _record(benchmark, workers, int(result.generated.sum()), float(result.seconds.sum()))


_FIRST_SOLVE = """
import json, sys, time
started = time.perf_counter()
import fastpuzzle as fp
imported = time.perf_counter()
solution = fp.solve(sys.argv[1])
done = time.perf_counter()
print(json.dumps([imported - started, done - imported, len(solution), solution.stats.generated]))
"""


@pytest.mark.benchmark(group="first-solve-78")
def test_first_solve_in_a_new_process(benchmark, cache_78: Path) -> None:  # type: ignore[no-untyped-def]
    # The board whose search is shortest: the time is the table's reading and checking.
    case = min(random50(), key=lambda case: case.manhattan_ida_nodes or 0)
    board = " ".join(map(str, case.tiles))

    def run() -> list[float]:
        out = subprocess.run(
            [sys.executable, "-c", _FIRST_SOLVE, board], capture_output=True, text=True, check=True
        )
        return json.loads(out.stdout)  # type: ignore[no-any-return]

    import_s, solve_s, length, nodes = benchmark.pedantic(run, rounds=3, iterations=1)
    assert length == case.optimal_length
    benchmark.extra_info.update(
        impl="new process", nodes=nodes, import_seconds=import_s, first_solve_seconds=solve_s
    )
    print(f"\nfirst solve() in a new process: import {import_s:.3f} s, solve {solve_s:.3f} s")


@pytest.mark.benchmark(group="5x5-6666-threads")
@pytest.mark.parametrize("workers", WORKERS)
def test_5x5_scramble_6666(benchmark, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:  # type: ignore[no-untyped-def]
    if not pdb.pdb_path("6-6-6-6", cache_dir=USER_CACHE).is_file():
        pytest.skip(f"6-6-6-6 not built in {USER_CACHE} (fastpuzzle pdb build 6-6-6-6)")
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(USER_CACHE))
    board = fp.scramble(fp.Board.goal((5, 5)), 90, rng=101)
    # The length from another heuristic: linear conflict, serial (about 0.1 s on this board).
    expected = len(fp.solve(board, heuristic="linear_conflict", workers=1))
    assert expected >= 60
    fp.solve(board, workers=workers)  # read the table before timing
    solution = benchmark.pedantic(fp.solve, args=(board,), kwargs={"workers": workers}, rounds=3)
    assert len(solution) == expected and solution.heuristic == "pdb"
    _record(benchmark, workers, solution.stats.generated, solution.stats.seconds)
