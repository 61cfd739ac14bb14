"""Input that must be refused with a typed error, and requests that must say what to do instead.

Each case failed before its fix: a raw ValueError or OverflowError, a silently accepted value, or
a message that did not say what went wrong (the hostile-input review of issue 14).
"""

from __future__ import annotations

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _board
from fastpuzzle.moves import parse_moves


@pytest.mark.parametrize(
    "text",
    [
        "1 ² 3/4 5 6/7 8 _",  # a superscript: isdigit() but not int()
        "\uff11 2 3/4 5 6/7 8 _",  # a full-width 1: int() would read it as 1
        "1 2 3/4 \u0665 6/7 8 _",  # an Arabic-Indic 5
    ],
)
def test_only_ascii_digits_are_tiles(text):
    with pytest.raises(fp.InvalidBoardError, match="expected integer tiles"):
        fp.Board(text)


@pytest.mark.parametrize(
    "data",
    [
        {1, 2, 3, 0},
        frozenset({1, 2, 3, 0}),
        {1: 0, 2: 0, 3: 0, 0: 0},
        memoryview(bytes([1, 2, 3, 0])),
        bytearray([1, 2, 3, 0]),
        np.ma.array([1, 2, 3, 0], mask=[0, 1, 0, 0]),
    ],
    ids=["set", "frozenset", "dict", "memoryview", "bytearray", "masked"],
)
def test_unordered_and_masked_inputs_are_refused(data):
    with pytest.raises(fp.InvalidBoardError):
        fp.Board(data)


@pytest.mark.parametrize("packed", [801.9, 801.0, "801", b"801", float("inf"), True, None])
def test_from_packed_takes_integers_only(packed):
    with pytest.raises(fp.InvalidBoardError, match="expected an integer packed board"):
        fp.Board.from_packed(packed, shape=(2, 2))


def test_from_packed_still_takes_python_and_numpy_integers():
    assert fp.Board.from_packed(801, shape=(2, 2)) == fp.Board("1 2/3 _")
    assert fp.Board.from_packed(np.uint64(801), shape=(2, 2)) == fp.Board("1 2/3 _")


def test_move_words_parse_alone_and_together():
    assert parse_moves("up") == "U"
    assert parse_moves("Left") == "L"
    assert parse_moves("up left") == "UL"
    assert parse_moves("ULDR") == "ULDR"
    with pytest.raises(fp.InvalidMoveError):
        parse_moves("upp")


@pytest.mark.parametrize("moves", [None, 5, b"UL", 2.5])
def test_parse_moves_refuses_non_text(moves):
    with pytest.raises(fp.InvalidMoveError, match="expected moves"):
        parse_moves(moves)


@pytest.mark.parametrize("progress", [5, "print", [print]])
def test_a_progress_that_cannot_be_called_is_refused_up_front(progress):
    with pytest.raises(fp.InvalidOptionError, match="callable"):
        fp.solve("1 2 3/4 5 6/7 _ 8", algorithm="astar", progress=progress)


def test_optimal_solve_of_a_huge_board_names_the_fast_solver():
    board = fp.random_board((40, 40), rng=1)
    with pytest.raises(fp.DepthLimitError, match=r"optimal=False"):
        fp.solve(board)


def test_scramble_of_millions_of_moves_ends_on_a_solvable_board():
    # The walk runs in a compiled loop (10**7 moves: 0.43 s here, against 47 s for the Python
    # loop it replaced; speed is measured outside the tests).
    board = fp.scramble(fp.Board.goal((4, 4)), 2 * 10**6, rng=1)
    assert board.is_solvable() and board != fp.Board.goal((4, 4))


def test_random_walk_never_undoes_a_move_and_stays_on_the_board():
    rng = np.random.default_rng(5)
    draws = rng.integers(0, 2**64, size=20_000, dtype=np.uint64, endpoint=False)
    codes = np.empty(len(draws), dtype=np.uint8)
    rows, cols = 3, 5
    end, last = _board.random_walk_codes(rows, cols, 7, draws, codes)
    row, col = divmod(7, cols)
    steps = {0: (-1, 0), 1: (1, 0), 2: (0, -1), 3: (0, 1)}
    seen = set()
    for previous, code in zip([-1, *codes[:-1].tolist()], codes.tolist()):
        assert previous < 0 or code != previous ^ 1
        row, col = row + steps[code][0], col + steps[code][1]
        assert 0 <= row < rows and 0 <= col < cols
        seen.add(row * cols + col)
    assert (end, last) == (row * cols + col, int(codes[-1]))
    assert len(seen) == rows * cols  # it wanders over the whole board
    # The same seed gives the same board.
    assert fp.scramble(fp.Board.goal((4, 4)), 500, rng=9) == fp.scramble(
        fp.Board.goal((4, 4)), 500, rng=9
    )


@pytest.mark.parametrize("weight", [float("inf"), float("nan"), 10**9, 0.5])
def test_a_weight_the_queue_cannot_hold_is_refused(weight):
    # inf raised OverflowError inside the search; 10**6 took 800 MB on a 3x3 board.
    with pytest.raises(fp.InvalidOptionError, match="expected a weight from 1 to 1,000"):
        fp.search("8 6 7/2 5 4/3 _ 1", algorithm="wastar", weight=weight)


@pytest.mark.parametrize("optimal", [None, "yes", 0, 1])
def test_optimal_must_be_a_bool(optimal):
    # optimal=None used to give a fast, non-optimal solution.
    with pytest.raises(fp.InvalidOptionError, match="optimal=True or optimal=False"):
        fp.solve("1 2 3/4 5 6/7 _ 8", optimal=optimal)


def test_solve_many_refuses_unknown_names_up_front():
    # Every row used to come back with status 'error'.
    boards = np.array([fp.Board("1 2 3/4 5 6/7 _ 8").packed], dtype=np.uint64)
    with pytest.raises(fp.UnknownNameError, match="unknown algorithm 'nope'"):
        fp.solve_many(boards, shape=(3, 3), algorithm="nope")
    with pytest.raises(fp.UnknownNameError, match="unknown heuristic 'nope'"):
        fp.solve_many(boards, shape=(3, 3), algorithm="astar", heuristic="nope")
    with pytest.raises(fp.InvalidOptionError):
        fp.solve_many(boards, shape=(3, 3), optimal=None)


@pytest.mark.parametrize(
    "moves",
    [{"U", "L", "D"}, frozenset({"U", "L"}), {"U": 1, "L": 2}, memoryview(b"UL")],
    ids=["set", "frozenset", "dict", "memoryview"],
)
def test_moves_from_unordered_containers_are_refused(moves):
    # A set's order (and so the board it led to) changed from process to process.
    board = fp.Board("1 2 3/4 5 6/7 8 _")
    for call in (parse_moves, board.apply, board.tiles_moved, fp.inverse):
        with pytest.raises(fp.InvalidMoveError, match=r"expected moves .* in order, got a "):
            call(moves)
    assert (
        board.apply(["U", "L"]) == board.apply(iter("UL")) == board.apply({"U": 1, "L": 2}.keys())
    )
