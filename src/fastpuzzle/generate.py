"""Random boards: uniform over solvable boards, or random walks from a board.

Both take ``rng``: a seed, a :class:`numpy.random.Generator`, or None for fresh entropy.
"""

from __future__ import annotations

import numpy as np

from fastpuzzle.board import Board, BoardLike, Shape, as_board, as_goal, is_solvable
from fastpuzzle.errors import InvalidBoardError
from fastpuzzle.moves import inverse

__all__ = ["random_board", "scramble"]

RandomSource = int | np.random.Generator | None


def random_board(
    shape: Shape = (4, 4), *, rng: RandomSource = None, goal: BoardLike | None = None
) -> Board:
    """A board drawn uniformly from those that can reach ``goal`` (default: blank last).

    Swapping two fixed tiles maps solvable boards one-to-one onto unsolvable ones, so a uniform
    permutation, swapped when unsolvable, is uniform over the solvable half.

    >>> random_board((3, 3), rng=7).is_solvable()
    True
    """
    generator = np.random.default_rng(rng)
    target = as_goal(Board.goal(shape), goal)
    n = target.size
    tiles = generator.permutation(n).tolist()
    # A permutation of 0..n-1 is a valid board: skip re-validating it (10,000 cells at 100x100).
    board = Board._trusted(target.shape, tuple(tiles))
    if not is_solvable(board, target):
        first, second = tiles.index(1), tiles.index(2)
        tiles[first], tiles[second] = tiles[second], tiles[first]
        board = Board._trusted(target.shape, tuple(tiles))
    return board


def scramble(board: BoardLike, moves: int, *, rng: RandomSource = None) -> Board:
    """The board after ``moves`` random blank moves, never undoing the previous one.

    >>> scramble("1 2 3/4 5 6/7 8 _", 20, rng=1).is_solvable()
    True
    """
    if not isinstance(moves, (int, np.integer)) or isinstance(moves, bool) or moves < 0:
        raise InvalidBoardError(f"expected a non-negative number of moves, got {moves!r}")
    generator = np.random.default_rng(rng)
    start = as_board(board)
    row, col = start.blank_position
    path: list[str] = []
    for _ in range(int(moves)):
        undo = inverse(path[-1]) if path else ""
        options = [
            (move, row + dr, col + dc)
            for move, (dr, dc) in _STEPS.items()
            if move != undo and 0 <= row + dr < start.rows and 0 <= col + dc < start.cols
        ]
        move, row, col = options[int(generator.integers(len(options)))]
        path.append(move)
    return start.apply("".join(path))


_STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
