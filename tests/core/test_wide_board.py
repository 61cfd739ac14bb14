"""Boards past 16 cells (up to 100x100): the same Board API, checked against simple models."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle import Board, InvalidBoardError
from fastpuzzle._core import _wide
from fastpuzzle._problem import canonical_labels, make_problem
from fastpuzzle.errors import BoardTooLargeError

SHAPES = [(5, 5), (6, 6), (7, 3), (3, 7), (2, 9), (10, 10), (30, 30), (100, 100), (2, 100)]

shapes = st.tuples(st.integers(2, 12), st.integers(2, 12)).filter(lambda s: s[0] * s[1] > 16)


def model_apply(tiles, cols, moves):
    """Plain-Python replay of blank moves (None when the blank would leave the board)."""
    cells, blank, rows = list(tiles), tiles.index(0), len(tiles) // cols
    for m in moves:
        r, c = divmod(blank, cols)
        r, c = {"U": (r - 1, c), "D": (r + 1, c), "L": (r, c - 1), "R": (r, c + 1)}[m]
        if not (0 <= r < rows and 0 <= c < cols):
            return None
        target = r * cols + c
        cells[blank], cells[target] = cells[target], 0
        blank = target
    return tuple(cells)


@pytest.mark.parametrize("shape", SHAPES)
def test_round_trips_for_large_shapes(shape):
    board = fp.random_board(shape, rng=sum(shape))
    assert board.shape == shape and board.size == shape[0] * shape[1]
    assert sorted(board.tiles) == list(range(board.size))
    assert Board(board.to_string()) == board
    assert Board(str(board)) == board
    assert eval(repr(board), {"Board": Board}) == board
    assert Board(board.to_list()) == board
    assert Board(board.to_numpy()) == board
    assert Board(board.tiles, shape=shape) == board
    assert pickle.loads(pickle.dumps(board)) == board
    assert hash(Board(board.tiles, shape=shape)) == hash(board)


def test_str_is_an_aligned_grid_at_any_size():
    lines = str(Board.goal((10, 10))).splitlines()
    assert len(lines) == 10 and len({len(line) for line in lines}) == 1
    assert lines[0].split() == [str(v) for v in range(1, 11)]
    assert lines[-1].split()[-1] == "_"
    assert str(Board.goal((100, 100))).splitlines()[-1].endswith(" 9999    _")


def test_packed_form_is_refused_past_16_cells():
    board = Board.goal((5, 5))
    with pytest.raises(BoardTooLargeError, match="at most 16 cells") as info:
        _ = board.packed
    assert isinstance(info.value, InvalidBoardError) and isinstance(info.value, ValueError)
    with pytest.raises(BoardTooLargeError, match=r"shape \(5, 5\)"):
        Board.from_packed(0, shape=(5, 5))
    with pytest.raises(BoardTooLargeError):
        _ = make_problem(board).packed
    assert Board.goal((4, 4)).packed == Board.from_packed(Board.goal((4, 4)).packed, (4, 4)).packed


def test_value_semantics_past_16_cells():
    a = Board.goal((5, 5))
    b = Board([*range(1, 25), 0], shape=(5, 5))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.move("U")
    assert Board([*range(1, 18), 0], shape=(3, 6)) != Board([*range(1, 18), 0], shape=(6, 3))


@pytest.mark.parametrize("shape", [(5, 5), (7, 3), (2, 13), (100, 100)])
def test_moves_match_a_plain_model(shape):
    rng = np.random.default_rng(3)
    board = fp.random_board(shape, rng=rng)
    for _ in range(20):
        moves = "".join(rng.choice(list("UDLR"), int(rng.integers(0, 12))))
        expected = model_apply(board.tiles, board.cols, moves)
        if expected is None:
            with pytest.raises(fp.IllegalMoveError):
                board.apply(moves)
        else:
            after = board.apply(moves)
            assert after.tiles == expected and after.blank == expected.index(0)
            assert after.apply(fp.inverse(moves)) == board
            assert after.tiles_moved(fp.inverse(moves)) == board.tiles_moved(moves)[::-1]


def test_a_million_moves_on_100x100():
    board = Board.goal((100, 100))
    forward = "UL" * 99 + "RD" * 99  # the blank climbs a staircase to the corner and back
    moves = forward * (10**6 // len(forward))
    assert len(moves) > 900_000
    assert board.apply(moves) == board
    assert board.apply(moves[:1]).blank == board.blank - 100


def test_illegal_move_message_is_short_for_long_sequences():
    board = Board.goal((10, 10))
    with pytest.raises(fp.IllegalMoveError, match=r"number 1 of 'DUDU[DU]*\.\.\.\)"):
        board.apply("D" + "UD" * 1000)


@settings(max_examples=60, deadline=None)
@given(shapes, st.integers(0, 2**32 - 1))
def test_random_board_parse_print_and_parity(shape, seed):
    board = fp.random_board(shape, rng=seed)
    assert board.is_solvable()
    assert Board(str(board)) == board and Board(board.to_string()) == board
    # Swapping two tiles flips the permutation parity: exactly one of the pair is solvable.
    tiles = list(board.tiles)
    i, j = tiles.index(1), tiles.index(2)
    tiles[i], tiles[j] = tiles[j], tiles[i]
    assert not Board(tiles, shape=shape).is_solvable()


@settings(max_examples=40, deadline=None)
@given(shapes, st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_scramble_stays_solvable_for_any_goal(shape, seed, length):
    goal = fp.random_board(shape, rng=seed + 1)
    board = fp.scramble(goal, length, rng=seed)
    assert board.is_solvable(goal)
    assert fp.random_board(shape, rng=seed, goal=goal).is_solvable(goal)


def test_parity_matches_a_swap_count_on_100x100():
    goal = Board.goal((100, 100))
    board = fp.scramble(goal, 501, rng=1)
    assert board.is_solvable() and board != goal
    # An odd walk moves the blank an odd Manhattan distance: the blank-last goal with an even
    # permutation is then unreachable from the swapped board.
    tiles = list(board.tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    assert not Board(tiles, shape=(100, 100)).is_solvable()


def test_problem_relabels_wide_boards_to_the_canonical_goal():
    goal = fp.random_board((5, 6), rng=4)
    board = fp.scramble(goal, 40, rng=5)
    problem = make_problem(board, goal)
    assert problem.wide and problem.cells is not None and problem.cells.dtype == np.uint16
    labels = canonical_labels(goal)
    assert problem.cells.tolist() == [labels[t] for t in board.tiles]
    # The goal relabelled is the canonical goal: 1..n-1 in reading order around its blank.
    canonical = [labels[t] for t in goal.tiles]
    assert [t for t in canonical if t] == list(range(1, 30))
    assert not problem.cells.flags.writeable
    assert problem.wide_cells().flags.writeable
    small = make_problem(fp.random_board((3, 3), rng=1))
    assert not small.wide and small.cells is None
    assert small.wide_cells().tolist() == list(Board.from_packed(small.packed, (3, 3)).tiles)


def test_wide_apply_moves_agrees_with_the_packed_core():
    from fastpuzzle._core import _board

    assert _wide.direction_constants() == _board.direction_constants()
    board = fp.random_board((4, 4), rng=9)
    codes = np.array([0, 2, 1, 3, 3, 0], dtype=np.uint8)
    cells = np.array(board.tiles, dtype=np.uint16)
    blank, failed = _wide.apply_moves(cells, board.blank, 4, 4, codes)
    packed, blank2, failed2 = _board.apply_moves(board.packed, board.blank, 4, 4, codes)
    assert (blank, failed) == (blank2, failed2)
    if failed < 0:
        assert tuple(cells.tolist()) == _board.unpack(packed, 16)


@pytest.mark.parametrize("shape", [(3, 6), (4, 5), (5, 5), (3, 7), (2, 12), (4, 6)])
def test_two_word_packing_round_trips(shape):
    seen = set()
    for seed in range(30):
        board = fp.random_board(shape, rng=seed)
        cells = np.array(board.tiles, dtype=np.uint16)
        lo, hi = _wide.pack_two_words(cells)
        assert lo < 1 << 60 and hi < 1 << 60
        assert _wide.unpack_two_words(lo, hi, board.size) == board.tiles
        seen.add((lo, hi))
    assert len(seen) == 30
    with pytest.raises(ValueError, match="17 to 25 cells"):
        _wide.pack_two_words(np.arange(16, dtype=np.uint16))
