"""``Solution.lower_bound`` and ``Solution.gap``: certified, never above the optimal length.

Optimal lengths come from outside the code under test: the breadth-first oracle over every 3x3
board (tests/oracle.py) and the instance sets of tests/data.
"""

from __future__ import annotations

import math
import random

import pytest

import fastpuzzle as fp
from tests import instances
from tests.oracle import distances_3x3


def _sample_3x3(count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    table = distances_3x3()
    boards = sorted(table)
    picked = random.Random(seed).sample(boards, count)
    return [(board, table[board]) for board in picked]


@pytest.mark.parametrize("algorithm", ["greedy", "idastar", "wastar", "random"])
def test_3x3_bounds_never_exceed_the_oracle(algorithm):
    options = {"seed": 3} if algorithm == "random" else {}
    for tiles, distance in _sample_3x3(60, seed=7):
        board = fp.Board(tiles, shape=(3, 3))
        solution = fp.solve(board, algorithm=algorithm, **options)
        assert solution.verify()
        assert fp.manhattan(board) <= solution.lower_bound <= distance <= len(solution)
        # Optimal says the method's promise; a promise comes with its length as the bound.
        assert solution.optimal == (algorithm == "idastar")
        assert not solution.optimal or solution.lower_bound == len(solution)
        if algorithm == "idastar":
            assert solution.lower_bound == distance and solution.gap == 1.0


def test_3x3_fast_solutions_carry_a_bound():
    for tiles, distance in _sample_3x3(100, seed=11):
        solution = fp.solve(fp.Board(tiles, shape=(3, 3)), optimal=False)
        assert solution.lower_bound <= distance <= len(solution)
        assert solution.gap == pytest.approx(len(solution) / solution.lower_bound)


def test_a_method_without_the_promise_stays_not_optimal_at_a_gap_of_one():
    # One move from the goal: greedy's one move meets the linear-conflict bound, which the gap
    # says; optimal keeps saying the method's promise (tests/api/test_compare.py).
    solution = fp.solve("1 2 3/4 5 6/7 _ 8", algorithm="greedy")
    assert (len(solution), solution.lower_bound, solution.gap) == (1, 1, 1.0)
    assert solution.optimal is False


def test_the_goal_itself_has_a_gap_of_one():
    solution = fp.solve(fp.Board.goal((6, 6)), optimal=False)
    assert (solution.moves, solution.lower_bound, solution.gap) == ("", 0, 1.0)


def test_a_solution_built_without_a_bound_has_an_infinite_gap():
    board = fp.Board("1 2 3/4 5 6/7 _ 8")
    built = fp.Solution(board, fp.Board.goal((3, 3)), "R", fp.SearchStats(), "mine")
    assert built.lower_bound == 0 and math.isinf(built.gap)


def _known() -> list[tuple[str, tuple[int, int], tuple[int, ...], int]]:
    out = [(i.name, i.shape, i.tiles, i.optimal_length) for i in instances.random50()]
    out += [(i.name, i.shape, i.tiles, i.optimal_length) for i in instances.hard()]
    out += [(i.name, i.shape, i.tiles, i.optimal_length) for i in instances.korf24()]
    out += [
        (i.name, i.shape, i.tiles, i.optimal_length)
        for i in instances.deepcubea(5)
        if i.optimal_length is not None
    ]
    return [row for row in out if row[3] is not None]  # type: ignore[misc]


def test_bounds_of_every_shared_instance_stay_below_its_optimum():
    known = _known()
    assert len(known) >= 50 + 2 + 5 + 20
    for name, shape, tiles, optimum in known:
        board = fp.Board(tiles, shape=shape)
        solution = fp.solve(board, optimal=False)
        assert solution.verify(), name
        assert fp.manhattan(board) <= solution.lower_bound <= optimum, name
        assert not solution.optimal, name


def test_the_json_line_and_the_text_say_the_bound(capsys):
    from fastpuzzle.cli import main

    board = fp.random_board((5, 5), rng=4)
    solution = fp.solve(board, optimal=False)
    assert f"lower bound {solution.lower_bound}" in str(solution)
    main(["solve", "--fast", "--json", board.to_string()])
    assert f'"lower_bound": {solution.lower_bound}' in capsys.readouterr().out
