"""The compiled packed-board primitives."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle._core import _board


@given(st.permutations(list(range(16))))
def test_pack_unpack_round_trip(tiles):
    packed = _board.pack(tiles)
    assert _board.unpack(packed, 16) == tuple(tiles)
    assert packed == sum(tile << (4 * cell) for cell, tile in enumerate(tiles))


def test_neighbour_table_matches_grid_geometry():
    for rows, cols in [(2, 2), (3, 3), (2, 8), (4, 4), (4, 3), (3, 5)]:
        table = _board.neighbour_table(rows, cols)
        assert len(table) == rows * cols
        for cell, (up, down, left, right) in enumerate(table):
            r, c = divmod(cell, cols)
            assert up == (cell - cols if r > 0 else -1)
            assert down == (cell + cols if r < rows - 1 else -1)
            assert left == (cell - 1 if c > 0 else -1)
            assert right == (cell + 1 if c < cols - 1 else -1)


def test_apply_moves_reports_the_failing_index():
    board = fp.Board.goal((3, 3))
    codes = np.array([0, 0, 0], dtype=np.uint8)  # U, U, U from the bottom-right corner
    packed, blank, failed = _board.apply_moves(board.packed, board.blank, 3, 3, codes)
    assert failed == 2
    assert fp.Board.from_packed(packed, shape=(3, 3)) == board.apply("UU")
    assert blank == 2


def test_hash_spreads_neighbouring_boards():
    boards = [fp.random_board((4, 4), rng=seed).packed for seed in range(2000)]
    hashes = [_board.hash_packed(b) for b in boards]
    assert len(set(hashes)) == len(set(boards))
    # Low bits index the search tables: they must be well spread too.
    buckets = np.bincount([h & 255 for h in hashes], minlength=256)
    assert buckets.max() < 30


def test_blank_subtract_add_slide_equals_swap():
    board = fp.random_board((4, 4), rng=3)
    for move, after in board.successors():
        tiles = list(board.tiles)
        tiles[board.blank], tiles[after.blank] = tiles[after.blank], 0
        assert after.tiles == tuple(tiles), move
