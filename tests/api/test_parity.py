"""Solvability by parity, checked against exhaustive breadth-first reachability."""

import itertools
import random

import pytest

import fastpuzzle as fp
from tests.oracle import distances_from

SMALL_SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]


@pytest.mark.heavy
@pytest.mark.parametrize("shape", SMALL_SHAPES)
def test_parity_matches_bfs_reachability_for_random_goals(shape):
    rows, cols = shape
    n = rows * cols
    rng = random.Random(n * 31 + rows)
    every_board = list(itertools.permutations(range(n)))
    for _ in range(3):
        goal = tuple(rng.sample(range(n), n))
        reachable = distances_from(goal, rows, cols)
        # Exactly half of all boards reach any goal.
        assert len(reachable) == len(every_board) // 2
        sample = every_board if n <= 8 else rng.sample(every_board, 3000)
        for tiles in sample:
            expected = tiles in reachable
            assert fp.is_solvable(fp.Board(tiles, shape=shape), fp.Board(goal, shape=shape)) == (
                expected
            ), (tiles, goal)


def test_even_width_rule_on_4x4():
    # Swapping two tiles flips solvability; moving the blank a row does not.
    goal = fp.Board.goal((4, 4))
    assert fp.is_solvable(goal.apply("UULDR"))
    swapped = list(goal.tiles)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not fp.is_solvable(fp.Board(swapped))
    assert not fp.is_solvable("1 2 3 4/5 6 7 8/9 10 12 11/13 14 15 _")
    assert (
        fp.is_solvable(
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 _", goal="_ 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
        )
        is False
    )
    assert fp.is_solvable(
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 _", goal="1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15"
    )


def test_seed_cases_unsolvable_are_detected():
    from tests.instances import seed_cases

    for case in seed_cases():
        board = fp.Board(case.tiles, shape=case.shape)
        assert board.is_solvable() == (case.optimal_length is not None), case.name


def test_goal_shape_must_match():
    with pytest.raises(fp.InvalidBoardError, match="expected"):
        fp.is_solvable("1 2/3 _", goal="1 2 3/4 5 6/7 8 _")
