"""Bad input raises a typed error that quotes it; never a crash or a wrong board."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle import InvalidBoardError


@pytest.mark.parametrize(
    ("data", "kwargs", "message"),
    [
        ("1 2 3 4 5 6 7 8", {}, r"expected a square number of tiles .*got 8: '1 2 3 4 5 6 7 8'"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 8], {}, r"tile 8 appears twice"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 1], {}, r"tile 1 appears twice"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9], {}, r"expected tiles 0..8 \(0 = blank\), got 9"),
        ("1 2 3/4 5 6/7 8 _ _", {}, r"rows of equal length"),
        ("_ 1 2/3 _ 4/5 6 7", {}, r"the blank appears twice"),
        ("1 2 3/4 x 6/7 8 _", {}, r"got 'x'"),
        ("1 2 3/4 -5 6/7 8 _", {}, r"got '-5'"),
        ([1.0, 2, 3, 0], {}, r"expected integer tiles, got 1.0"),
        ([True, 2, 3, 0], {}, r"expected integer tiles, got True"),
        (["1", "2", "3", "0"], {}, r"expected integer tiles, got '1'"),
        (np.array([1.0, 2, 3, 0]), {}, r"integer array, got dtype float64"),
        (np.zeros((2, 2, 2), dtype=int), {}, r"1-D or 2-D"),
        ([[1, 2], [3]], {}, r"rows of equal length"),
        ([[1, 2], 3, 0], {}, r"not a mix"),
        ([], {}, r"empty board"),
        ("", {}, r"empty board"),
        (None, {}, r"expected a board"),
        (12, {}, r"expected a board"),
        (b"1 2 3 0", {}, r"expected a board"),
        (list(range(101 * 101)), {}, r"at most 100 rows and 100 columns"),
        (list(range(202)), {"shape": (2, 101)}, r"at most 100 rows and 100 columns"),
        (list(range(202)), {"shape": (101, 2)}, r"at most 100 rows and 100 columns"),
        (list(range(26)), {}, r"expected a square number of tiles .*got 26"),
        (list(range(101)), {"shape": (1, 101)}, r"at least 2 rows and 2 columns"),
        (list(range(6)), {"shape": (2, 2)}, r"expected 4 tiles for shape \(2, 2\), got 6"),
        (list(range(6)), {"shape": (1, 6)}, r"at least 2 rows and 2 columns"),
        (list(range(6)), {"shape": (2, "3")}, r"expected shape as \(rows, cols\)"),
        ("1 2/3 _", {"shape": (1, 4)}, r"at least 2 rows"),
        ("1 2 3/_ 4 5", {"shape": (3, 2)}, r"input has shape \(2, 3\)"),
    ],
)
def test_each_bad_input_raises_its_typed_error(data, kwargs, message):
    with pytest.raises(InvalidBoardError, match=message) as info:
        fp.Board(data, **kwargs)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, fp.FastPuzzleError)


def test_unsolvable_error_carries_the_pair():
    board, goal = fp.Board("1 2 3/4 5 6/8 7 _"), fp.Board.goal((3, 3))
    error = fp.UnsolvableError(board, goal)
    assert error.board == board and error.goal == goal
    assert "not solvable" in str(error) and "'1 2 3/4 5 6/8 7 _'" in str(error)
    assert isinstance(error, ValueError)


tokens = st.one_of(
    st.integers(-3, 20).map(str),
    st.sampled_from(["_", "0", ".", "x", "1.5", "", "-", "__", "٣"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(tokens, max_size=5), max_size=5), st.sampled_from(["/", "\n", " / "]))
def test_random_strings_give_a_valid_board_or_a_typed_error(rows, separator):
    text = separator.join(" ".join(row) for row in rows)
    try:
        board = fp.Board(text)
    except InvalidBoardError:
        return
    # Accepted: it must be exactly what was written.
    written = [t for row in rows for t in row if t]
    assert len(written) == board.size
    assert sorted(board.tiles) == list(range(board.size))
    assert [0 if t in ("_", ".") else int(t) for t in written] == list(board.tiles)


values = st.one_of(
    st.integers(-2, 20),
    st.floats(allow_nan=True),
    st.text(max_size=2),
    st.none(),
    st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(st.lists(values, max_size=20), st.lists(st.lists(values, max_size=5), max_size=5)),
    st.one_of(st.none(), st.tuples(st.integers(-1, 6), st.integers(-1, 6))),
)
def test_random_sequences_give_a_valid_board_or_a_typed_error(data, shape):
    try:
        board = fp.Board(data, shape=shape)
    except InvalidBoardError:
        return
    flat = [v for row in data for v in row] if data and isinstance(data[0], list) else data
    assert list(board.tiles) == flat
    assert all(type(v) is int for v in flat)
    assert sorted(board.tiles) == list(range(board.size))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([(2, 2), (3, 3), (4, 4)]))
def test_random_packed_words_give_a_valid_board_or_a_typed_error(word, shape):
    try:
        board = fp.Board.from_packed(word, shape=shape)
    except InvalidBoardError:
        return
    assert board.packed == word
    assert sorted(board.tiles) == list(range(board.size))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_random_move_strings_apply_or_raise_a_typed_error(text):
    board = fp.Board("1 2 3/4 _ 5/6 7 8")
    try:
        after = board.apply(text)
    except (fp.InvalidMoveError, fp.IllegalMoveError) as error:
        assert isinstance(error, ValueError)
        return
    assert after.apply(fp.inverse(text)) == board
