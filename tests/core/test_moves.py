"""Moves (blank directions): parsing, applying, undoing, converting."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle import Board, IllegalMoveError, InvalidMoveError
from fastpuzzle._core._board import direction_constants


def test_python_and_compiled_direction_codes_agree():
    assert direction_constants() == {m: i for i, m in enumerate(fp.MOVES)}


def test_moves_name_the_blank_direction():
    board = Board("1 2 3/4 _ 5/6 7 8")
    assert board.moves() == ("U", "D", "L", "R")
    assert board.move("U") == Board("1 _ 3/4 2 5/6 7 8")
    assert board.move("D") == Board("1 2 3/4 7 5/6 _ 8")
    assert board.move("L") == Board("1 2 3/_ 4 5/6 7 8")
    assert board.move("R") == Board("1 2 3/4 5 _/6 7 8")


def test_corner_and_edge_moves():
    assert Board("_ 1/2 3").moves() == ("D", "R")
    assert Board("1 2 3/4 5 6/7 8 _").moves() == ("U", "L")
    assert Board([1, 2, 0, 3, 4, 5, 6, 7], shape=(2, 4)).moves() == ("D", "L", "R")


def test_parse_moves_forms():
    assert fp.parse_moves("ULDR") == "ULDR"
    assert fp.parse_moves("u l d r") == "ULDR"
    assert fp.parse_moves("up, Left; down right") == "ULDR"
    assert fp.parse_moves(["U", "left"]) == "UL"
    assert fp.parse_moves("") == ""
    for bad in ("UX", "up-left", "1", "north"):
        with pytest.raises(InvalidMoveError, match="expected moves U, D, L, R"):
            fp.parse_moves(bad)
    with pytest.raises(InvalidMoveError):
        fp.parse_moves([1])  # type: ignore[list-item]


def test_illegal_move_names_the_move_and_what_was_legal():
    board = Board("1 2 3/4 5 6/7 8 _")
    with pytest.raises(IllegalMoveError, match=r"move 'D' \(number 1 of 'D'\)"):
        board.move("D")
    with pytest.raises(IllegalMoveError, match=r"number 3 of 'UUU'.*expected one of DL"):
        board.apply("UUU")
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_tile_directions_and_tiles_moved():
    board = Board("1 2 3/4 5 6/7 8 _")
    assert fp.to_tile_directions("ULDR") == "DRUL"
    assert board.tiles_moved("UL") == [6, 5]
    assert board.tiles_moved("") == []
    assert fp.inverse("ULL") == "RRD"


@st.composite
def board_and_walk(draw):
    shape = draw(st.sampled_from([(2, 2), (3, 3), (2, 4), (4, 4), (3, 5), (2, 8)]))
    board = fp.random_board(shape, rng=draw(st.integers(0, 2**32 - 1)))
    moves = []
    current = board
    for _ in range(draw(st.integers(0, 40))):
        move = draw(st.sampled_from(current.moves()))
        moves.append(move)
        current = current.move(move)
    return board, "".join(moves), current


@given(board_and_walk())
def test_apply_then_inverse_returns_to_the_start(case):
    board, moves, end = case
    assert board.apply(moves) == end
    assert end.apply(fp.inverse(moves)) == board
    assert len(board.tiles_moved(moves)) == len(moves)
    # A move and its undo leave the packed word unchanged.
    for move in board.moves():
        assert board.move(move).move(fp.inverse(move)).packed == board.packed


@given(board_and_walk())
def test_tiles_moved_matches_the_tile_that_changed_cell(case):
    board, moves, _ = case
    current = board
    for move, tile in zip(moves, board.tiles_moved(moves)):
        after = current.move(move)
        assert after.tiles[current.blank] == tile
        assert current.tiles[after.blank] == tile
        current = after
