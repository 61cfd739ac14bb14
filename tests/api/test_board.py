"""Board: every input form, round trips, attributes, value semantics."""

import pickle

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import Board, InvalidBoardError

GOAL_3X3 = (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.mark.parametrize(
    "data",
    [
        "1 2 3/4 5 6/7 8 _",
        "1 2 3/4 5 6/7 8 0",
        "1 2 3\n4 5 6\n7 8 _\n",
        "  1,2,3 / 4,5,6 / 7,8,_  ",
        "1 2 3 4 5 6 7 8 0",
        [1, 2, 3, 4, 5, 6, 7, 8, 0],
        (1, 2, 3, 4, 5, 6, 7, 8, 0),
        range(1, 9).__iter__(),
        [[1, 2, 3], [4, 5, 6], [7, 8, 0]],
        ((1, 2, 3), (4, 5, 6), (7, 8, 0)),
        np.array([[1, 2, 3], [4, 5, 6], [7, 8, 0]]),
        np.array([1, 2, 3, 4, 5, 6, 7, 8, 0], dtype=np.uint8),
        [np.int64(v) for v in GOAL_3X3],
    ],
)
def test_every_input_form_gives_the_same_board(data):
    if not isinstance(data, (str, list, tuple, np.ndarray)):
        data = [*data, 0]
    board = Board(data)
    assert board.shape == (3, 3)
    assert board.tiles == GOAL_3X3
    assert board == Board.goal((3, 3))


def test_flat_input_needs_shape_when_not_square():
    board = Board([1, 2, 3, 4, 5, 6, 7, 0], shape=(2, 4))
    assert board.shape == (2, 4)
    assert board.to_list() == [[1, 2, 3, 4], [5, 6, 7, 0]]
    assert Board("1 2 3 4 5 6 7 _", shape=(4, 2)).to_list() == [[1, 2], [3, 4], [5, 6], [7, 0]]
    with pytest.raises(InvalidBoardError, match="expected a square number of tiles"):
        Board([1, 2, 3, 4, 5, 6, 7, 0])


@pytest.mark.parametrize(
    "shape",
    [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (3, 3),
        (3, 4),
        (4, 3),
        (2, 8),
        (4, 4),
        (8, 2),
        (3, 5),
        (5, 3),
        (2, 6),
    ],
)
def test_round_trips_for_every_shape(shape):
    board = fp.random_board(shape, rng=sum(shape))
    assert Board(board.to_string()) == board
    assert Board(str(board)) == board
    assert eval(repr(board), {"Board": Board}) == board
    assert Board(board.to_list()) == board
    assert Board(board.to_numpy()) == board
    assert Board(board.tiles, shape=shape) == board
    assert Board.from_packed(board.packed, shape=shape) == board
    assert pickle.loads(pickle.dumps(board)) == board
    assert board.to_numpy().shape == shape


def test_attributes():
    board = Board("5 1 2/_ 4 3/7 8 6")
    assert board.shape == (3, 3) and board.rows == 3 and board.cols == 3 and board.size == 9
    assert board.tiles == (5, 1, 2, 0, 4, 3, 7, 8, 6)
    assert board.blank == 3
    assert board.blank_position == (1, 0)
    assert board[0, 0] == 5 and board[2, 2] == 6
    with pytest.raises(IndexError):
        board[3, 0]
    expected = sum(tile << (4 * cell) for cell, tile in enumerate(board.tiles))
    assert board.packed == expected


def test_goal_constructor():
    assert Board.goal((3, 3)).tiles == GOAL_3X3
    assert Board.goal((2, 3), blank="first").tiles == (0, 1, 2, 3, 4, 5)
    assert Board.goal((4, 4)).tiles == (*range(1, 16), 0)
    with pytest.raises(InvalidBoardError):
        Board.goal((3, 3), blank="middle")  # type: ignore[arg-type]


def test_value_semantics():
    a, b = Board("1 2/3 _"), Board([[1, 2], [3, 0]])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Board("1 2/_ 3")
    assert Board([1, 2, 3, 4, 5, 0], shape=(2, 3)) != Board([1, 2, 3, 4, 5, 0], shape=(3, 2))
    assert a.__eq__("1 2/3 _") is NotImplemented
    with pytest.raises(AttributeError):
        a._tiles = (0, 1, 2, 3)  # type: ignore[misc]
    assert Board(a) == a


def test_str_is_an_aligned_grid():
    board = Board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 _")
    assert str(board).splitlines() == [" 1  2  3  4", " 5  6  7  8", " 9 10 11 12", "13 14 15  _"]
    assert repr(board) == "Board('1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 _')"


def test_from_packed_checks_its_input():
    with pytest.raises(InvalidBoardError):
        Board.from_packed(0, shape=(3, 3))  # all blanks
    with pytest.raises(InvalidBoardError):
        Board.from_packed(1 << 40, shape=(3, 3))  # bits beyond the 9 cells
    with pytest.raises(InvalidBoardError):
        Board.from_packed(-1, shape=(2, 2))


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (5, 5)])
def test_numpy_sees_the_grid_and_iteration_gives_rows(shape):
    board = fp.random_board(shape, rng=7)
    grid = np.asarray(board)
    assert grid.shape == shape and grid.tolist() == board.to_list()
    assert np.asarray(board, dtype=np.uint8).dtype == np.uint8
    assert np.array_equal(np.array(board), board.to_numpy())
    rows = list(board)
    assert rows == [tuple(row) for row in board.to_list()]
    assert fp.Board(rows) == board
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        with pytest.raises(ValueError, match="must copy"):
            np.asarray(board, copy=False)


def test_a_packed_word_is_a_board_given_its_shape() -> None:
    # Issue 47, item 4: the words of random_boards are boards wherever a shape is given.
    (word,) = fp.random_boards(1, (3, 3), rng=2)
    board = fp.Board.from_packed(int(word), (3, 3))
    assert fp.Board(word, shape=(3, 3)) == board == fp.Board(int(word), shape=(3, 3))
    with pytest.raises(fp.InvalidBoardError, match=r"Board\.from_packed"):
        fp.Board(word)
    with pytest.raises(fp.InvalidBoardError):
        fp.Board(True, shape=(3, 3))  # a bool is no word
    # solve() and search() take the shape from a goal.
    goal = fp.Board("1 2 3/4 5 _")
    (start,) = fp.random_boards(1, (2, 3), rng=3, goal=goal)
    solution = fp.solve(start, goal)
    assert solution.board == fp.Board(start, shape=(2, 3)) and solution.verify()


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("123/456/780", "1 2 3/4 5 6/7 8 _"),
        ("123456780", "1 2 3 4 5 6 7 8 _"),
        ("12/3_", "1 2/3 _"),
    ],
)
def test_tiles_written_without_spaces_are_refused_saying_how_to_write_them(text, written):
    # Before (issue 47, item 8): "123/456/780" read as three tiles, 123, 456 and 780, a board
    # of 3 rows and 1 column: "expected at least 2 rows and 2 columns, got shape (3, 1)".
    with pytest.raises(fp.InvalidBoardError, match="separated by spaces") as info:
        fp.Board(text)
    assert repr(written) in str(info.value)
    fp.Board(written)  # what it says to write is a board


def test_seed_is_a_name_for_a_seed():
    # Before: random_board(seed=7) was a TypeError (compare and the command line say seed).
    assert fp.random_board((3, 3), seed=7) == fp.random_board((3, 3), rng=7)
    board = fp.Board.goal((3, 3))
    assert fp.scramble(board, 30, seed=3) == fp.scramble(board, 30, rng=3)
    with pytest.raises(fp.InvalidOptionError, match="rng= or seed=, not both"):
        fp.random_board((3, 3), rng=1, seed=1)
