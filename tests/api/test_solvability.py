"""explain_solvability and UnsolvableError's message: inversions, the blank's row, the rule, a
swap that makes the board solvable."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.solvability import count_inversions

SHAPES = [(3, 3), (4, 4), (3, 4), (2, 5), (4, 3), (5, 2)]


def _random_tiles(shape, rng):
    tiles = list(range(shape[0] * shape[1]))
    rng.shuffle(tiles)
    return tiles


def _direct_inversions(tiles, goal_tiles):
    """Pairs of tiles (no blank) in the opposite order to the goal's, by looking at each pair."""
    place = {tile: goal_tiles.index(tile) for tile in goal_tiles}
    seq = [place[t] for t in tiles if t]
    return sum(seq[i] > seq[j] for i in range(len(seq)) for j in range(i + 1, len(seq)))


def _swapped(tiles, pair):
    a, b = (tiles.index(t) for t in pair)
    out = list(tiles)
    out[a], out[b] = out[b], out[a]
    return out


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("usual_goal", [True, False], ids=["usual-goal", "random-goal"])
def test_random_boards_and_goals(shape, usual_goal):
    rng = random.Random(f"{shape}{usual_goal}")
    unsolvable = 0
    for _ in range(150):
        tiles = _random_tiles(shape, rng)
        goal = fp.Board.goal(shape) if usual_goal else fp.Board(_random_tiles(shape, rng), shape)
        why = fp.explain_solvability(fp.Board(tiles, shape), goal)
        assert why.solvable == fp.is_solvable(fp.Board(tiles, shape), goal)
        assert why.inversions == _direct_inversions(tiles, list(goal.tiles))
        if why.solvable:
            assert why.swap is None
            continue
        unsolvable += 1
        assert 0 not in why.swap and why.swap[0] != why.swap[1]
        assert fp.is_solvable(fp.Board(_swapped(tiles, why.swap), shape), goal)
    assert unsolvable > 30


@pytest.mark.parametrize("shape", SHAPES)
def test_the_textbook_rule_for_the_usual_goal(shape):
    rows, cols = shape
    rng = random.Random(str(shape))
    for _ in range(200):
        tiles = _random_tiles(shape, rng)
        why = fp.explain_solvability(fp.Board(tiles, shape))
        textbook = sum(a > b for i, a in enumerate(tiles) for b in tiles[i + 1 :] if a and b)
        assert why.inversions == textbook
        if cols % 2:
            assert why.blank_row is None
            assert why.solvable == (textbook % 2 == 0)
        else:
            assert why.blank_row == rows - tiles.index(0) // cols
            assert why.solvable == ((textbook + why.blank_row) % 2 == 1)
        assert f"{textbook:,} inversion" in why.rule


def test_the_swap_removes_an_inversion_where_there_is_one():
    why = fp.explain_solvability("2 1 3/4 5 6/7 8 _")
    assert (why.solvable, why.inversions, why.swap) == (False, 1, (2, 1))
    # In the goal's order already, the blank on the wrong row of a board 4 wide.
    why = fp.explain_solvability("1 2 3 4/5 6 7 8/9 10 11 12/_ 13 14 15")
    assert why.solvable and why.blank_row == 1
    why = fp.explain_solvability("1 2 3 4/5 6 7 8/9 10 11 _/12 13 14 15")
    assert (why.solvable, why.inversions, why.blank_row, why.swap) == (False, 0, 2, (14, 15))


def test_a_solvable_board_says_why_too():
    why = fp.explain_solvability("1 2 3/4 5 6/7 _ 8")
    assert (why.solvable, why.inversions, why.blank_row, why.swap) == (True, 0, None, None)
    assert "even number" in why.rule


def test_count_inversions_of_a_100x100_permutation():
    order = np.random.default_rng(5).permutation(9999)
    direct = sum(int((order[i] > order[i + 1 :]).sum()) for i in range(len(order)))
    assert count_inversions(order.tolist()) == direct


@pytest.mark.parametrize(
    ("board", "said"),
    [
        ("1 2 3/4 5 6/8 7 _", ("has 1 inversion", "3 wide", "swapping tiles 8 and 7")),
        (
            "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 _",
            ("has 1 inversion", "4 wide", "blank on row 1", "1 + 1 = 2 is even", "15 and 14"),
        ),
    ],
)
def test_unsolvable_error_explains(board, said):
    with pytest.raises(fp.UnsolvableError) as caught:
        fp.solve(board)
    error = caught.value
    message = str(error)
    assert message.startswith(f"this puzzle is not solvable: {board!r} cannot reach")
    for words in said:
        assert words in message, words
    assert error.board == fp.Board(board) and error.goal == fp.Board.goal(error.board.shape)
    assert error.explanation == fp.explain_solvability(board)


def test_unsolvable_error_for_another_goal_gives_the_general_rule():
    goal = fp.Board.goal((3, 3), blank="first")
    with pytest.raises(fp.UnsolvableError) as caught:
        fp.solve("1 2 3/4 5 6/8 7 _", goal)
    message = str(caught.value)
    assert "permutation" in message and "is odd" in message and "4 moves away (even)" in message
    assert "swapping tiles 8 and 7" in message


def test_explain_refuses_a_goal_of_another_shape():
    with pytest.raises(fp.InvalidBoardError, match="expected a goal of shape"):
        fp.explain_solvability("1 2 3/4 5 6/7 8 _", fp.Board.goal((2, 2)))


def test_unsolvable_error_survives_pickling():
    # A process pool or Dask worker sends it back pickled: it raised TypeError (no goal).
    with pytest.raises(fp.UnsolvableError) as caught:
        fp.solve("1 2 3/4 5 6/8 7 _")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is fp.UnsolvableError and str(copy) == str(caught.value)
    assert (copy.board, copy.goal, copy.explanation) == (
        caught.value.board,
        caught.value.goal,
        caught.value.explanation,
    )
