"""The vectorised checks of packed boards agree with make_problem and is_solvable."""

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._problem import make_problem
from fastpuzzle.batch.prep import prepare_packed


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (2, 4), (3, 4), (4, 4), (2, 8)])
def test_prepare_matches_one_board_at_a_time(shape):
    rng = np.random.default_rng(sum(shape))
    n = shape[0] * shape[1]
    goal = fp.Board([int(t) for t in rng.permutation(n)], shape=shape)
    boards = [fp.Board([int(t) for t in rng.permutation(n)], shape=shape) for _ in range(400)]
    broken = [0, _board_with_duplicate(n)] + ([1 << (4 * n)] if n < 16 else [])
    words = np.array([b.packed for b in boards] + broken, dtype=np.uint64)
    prep = prepare_packed(words, goal)
    assert prep.valid[: len(boards)].all() and not prep.valid[len(boards) :].any()
    assert not prep.solvable[len(boards) :].any()
    for i, board in enumerate(boards):
        problem = make_problem(board, goal, check_solvable=False)
        assert bool(prep.solvable[i]) == fp.is_solvable(board, goal)
        assert int(prep.canonical[i]) == problem.packed
        assert int(prep.blanks[i]) == problem.blank
    assert prep.goal_blank == goal.blank


def _board_with_duplicate(n):
    tiles = list(range(n))
    tiles[1] = tiles[2]
    return sum(t << (4 * i) for i, t in enumerate(tiles))
