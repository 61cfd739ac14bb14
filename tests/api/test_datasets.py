"""Data sets: vectorised uniform random boards, and boards labelled with exact distances."""

from collections import Counter

import numpy as np
import pytest

import fastpuzzle as fp
from tests.oracle import distances_3x3, distances_from


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (4, 4), (2, 5), (3, 4)])
def test_random_boards_are_valid_solvable_and_reproducible(shape):
    words = fp.random_boards(500, shape, rng=3)
    assert words.dtype == np.uint64 and words.shape == (500,)
    boards = [fp.Board.from_packed(int(w), shape=shape) for w in words]
    assert all(b.is_solvable() for b in boards)
    assert (fp.random_boards(500, shape, rng=3) == words).all()
    goal = fp.random_board(shape, rng=9)
    assert all(
        fp.Board.from_packed(int(w), shape=shape).is_solvable(goal)
        for w in fp.random_boards(200, shape, rng=4, goal=goal)
    )


def test_random_boards_are_uniform_on_2x3():
    reachable = distances_from((1, 2, 3, 4, 5, 0), 2, 3)
    words = fp.random_boards(36_000, (2, 3), rng=12)
    counts = Counter(fp.Board.from_packed(int(w), shape=(2, 3)).tiles for w in words)
    assert set(counts) == set(reachable)
    observed = np.array(list(counts.values()))
    assert float(((observed - 100) ** 2 / 100).sum()) < 452  # chi-square, 359 dof, p = 0.001


def test_labelled_lengths_first_moves_and_paths_match_bfs():
    dist = distances_3x3()
    data = fp.labelled(300, (3, 3), rng=5, path=True)
    boards = [fp.Board.from_packed(int(w), shape=(3, 3)) for w in data.boards]
    assert data.lengths.tolist() == [dist[b.tiles] for b in boards]
    for board, move, length in zip(boards, data.first_moves, data.lengths):
        if length:
            assert dist[board.move(str(move)).tiles] == length - 1
    states = [fp.Board.from_packed(int(w), shape=(3, 3)) for w in data.states]
    assert [dist[s.tiles] for s in states] == data.distances.tolist()
    assert len(states) == int((data.lengths + 1).sum())
    assert (np.bincount(data.origins) == data.lengths + 1).all()


def test_labelled_without_paths_and_too_big_shapes():
    data = fp.labelled(20, (2, 4), rng=1)
    assert data.states is None and len(data.lengths) == 20
    with pytest.raises(fp.BoardTooLargeError):
        fp.random_boards(3, (5, 5))
