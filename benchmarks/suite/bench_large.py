"""Benchmarks for boards past 16 cells (pytest-benchmark).

Run with ``python -m pytest benchmarks/suite/bench_large.py --benchmark-json=large.json``. Every
benchmark checks that its answer replays to the goal and records lengths in ``extra_info``;
``test_small_board_path`` is the same-run baseline for the 16-cell Board path.
"""

from __future__ import annotations

import statistics

import pytest

import fastpuzzle as fp
from benchmarks.harness import random50
from fastpuzzle._solver.constructive import manhattan_sum, solve_fast

SIZES = [(10, 10), (30, 30), (100, 100)]


@pytest.mark.parametrize("shape", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_solve_fast(benchmark, shape):
    board = fp.random_board(shape, rng=1)
    rounds = 1 if shape[0] * shape[1] > 5000 else 5
    solution = benchmark.pedantic(solve_fast, args=(board,), rounds=rounds, iterations=1)
    assert board.apply(solution.moves) == fp.Board.goal(shape)
    lower = manhattan_sum(board)
    benchmark.extra_info.update(
        length=len(solution),
        raw_length=solution.stats.expanded,
        manhattan=lower,
        ratio=len(solution) / lower,
    )


def test_solve_fast_random50(benchmark):
    instances = random50()
    boards = [fp.Board(inst.tiles, shape=inst.shape) for inst in instances]

    def run():
        return [solve_fast(board) for board in boards]

    solutions = benchmark.pedantic(run, rounds=3, iterations=1)
    ratios = []
    for inst, solution in zip(instances, solutions):
        assert solution.verify()
        assert len(solution) >= inst.optimal_length
        ratios.append(len(solution) / inst.optimal_length)
    benchmark.extra_info.update(
        boards=len(boards),
        mean_ratio_to_optimal=statistics.fmean(ratios),
        max_ratio_to_optimal=max(ratios),
        mean_length=statistics.fmean(len(s) for s in solutions),
        mean_optimal=statistics.fmean(i.optimal_length for i in instances),
    )


def test_small_board_path(benchmark):
    # The 16-cell path (packed word): construction plus a 1,000-move replay on a 4x4.
    board = fp.Board.goal((4, 4))
    moves = "ULDR" * 250  # the blank circles the bottom-right 2x2

    def run():
        return fp.Board(board.tiles, shape=(4, 4)).apply(moves)

    assert benchmark(run) == board.apply(moves)


# 5x5 optimal: the 6-6-6-6 pattern database against linear conflict on the same boards (60-move
# random walks), in the same run. Skipped until the database is built (fastpuzzle pdb build
# 6-6-6-6); benchmarks/studies/pdb5x5_report.py prints the longer table.
SCRAMBLES_5X5 = [fp.scramble(fp.Board.goal((5, 5)), 60, rng=seed) for seed in range(3)]


@pytest.mark.parametrize("heuristic", ["pdb6666", "linear_conflict"])
def test_optimal_5x5(benchmark, heuristic):
    from fastpuzzle import pdb

    if pdb.load_pdb("6-6-6-6") is None:
        pytest.skip("the 6-6-6-6 database is not built")

    def run():
        return [
            fp.solve(board, algorithm="idastar", heuristic=heuristic, workers=1)
            for board in SCRAMBLES_5X5
        ]

    solutions = benchmark.pedantic(run, rounds=1, iterations=1)
    for board, solution in zip(SCRAMBLES_5X5, solutions):
        assert board.apply(solution.moves) == fp.Board.goal((5, 5))
    benchmark.extra_info.update(
        lengths=[len(s) for s in solutions],
        nodes=sum(s.stats.generated for s in solutions),
    )
