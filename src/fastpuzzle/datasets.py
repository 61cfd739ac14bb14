"""Data sets of solved boards: many random boards at once, labelled with optimal lengths.

Boards are packed ``uint64`` words (cell i at bits 4i..4i+3), so at most 16 cells. Moves are U,
D, L, R: the direction the blank moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fastpuzzle._checks import flag, random_generator, whole
from fastpuzzle._core._generate import random_packed
from fastpuzzle.batch import solve_many
from fastpuzzle.batch.chunk import limit_error
from fastpuzzle.board import MAX_CELLS, Board, BoardLike, Shape, as_goal
from fastpuzzle.errors import BoardTooLargeError
from fastpuzzle.generate import RandomSource
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchStats

__all__ = ["Labelled", "labelled", "random_boards"]


def _target(shape: Shape, goal: BoardLike | None) -> Board:
    target = as_goal(Board.goal(shape), goal)
    if target.size > MAX_CELLS:
        raise BoardTooLargeError(
            f"data sets hold packed boards of at most {MAX_CELLS} cells, got shape {target.shape}"
        )
    return target


def random_boards(
    n: int, shape: Shape = (4, 4), *, rng: RandomSource = None, goal: BoardLike | None = None
) -> np.ndarray:
    """``n`` boards drawn uniformly from those that can reach ``goal``, as packed words.

    Compiled: a Fisher-Yates shuffle per board written straight into the result, and the
    unsolvable half mapped one-to-one onto the solvable half by swapping tiles 1 and 2. Memory is
    the result (8 bytes a board) and nothing per board besides. Drawn in blocks of 65,536 boards,
    so Ctrl-C stops the draw within a block (milliseconds). A seed gives the same boards whatever
    the block size.

    Parameters
    ----------
    n : int
        How many boards.
    shape : tuple of int
        ``(rows, cols)``, at most 16 cells.
    rng : int, numpy.random.Generator or None
        Seed or generator; its bit generator supplies the random numbers.
    goal : Board-like, optional
        The boards can all reach this goal (default: the canonical goal of ``shape``).

    Returns
    -------
    numpy.ndarray
        ``n`` packed boards (uint64).

    Notes
    -----
    The draw is a compiled shuffle; earlier versions sorted blocks of random floats with numpy
    (2.6 kB a board in flight on 4x4). The distribution is the same, uniform on the boards that
    can reach ``goal``, but a seed gives other boards than it gave there.

    Raises
    ------
    InvalidOptionError
        If ``n`` is not a whole number >= 0, or ``rng`` not a seed, a numpy Generator or None.
    BoardTooLargeError
        If the shape has more than 16 cells (packed words hold at most 16).

    Examples
    --------
    >>> boards = random_boards(1000, (3, 3), rng=1)
    >>> boards.dtype, boards.shape
    (dtype('uint64'), (1000,))
    """
    count = whole("n", n, low=0)
    target = _target(shape, goal)
    bits = random_generator(rng).bit_generator
    goal_word = target.packed
    out = np.empty(count, dtype=np.uint64)
    # Python runs a Ctrl-C's handler only between calls: one call a block lets it stop the draw.
    for first in range(0, count, _BLOCK):
        block = out[first : first + _BLOCK]
        random_packed(block, bits, goal_word, target.rows, target.cols)
    return out


#: Boards drawn per compiled call by :func:`random_boards`: a block of 4x4 boards takes a few
#: milliseconds, the longest a Ctrl-C waits; the blocks cost no memory of their own.
_BLOCK = 1 << 16


@dataclass(frozen=True)
class Labelled:
    """Boards with their exact distances to the goal.

    Attributes
    ----------
    boards : numpy.ndarray
        Packed start boards (uint64).
    lengths : numpy.ndarray
        Optimal solution length of each board.
    first_moves : numpy.ndarray
        The first move of an optimal solution (``""`` for the goal itself).
    states, distances, origins : numpy.ndarray or None
        With ``path=True``: every board on each optimal path (start included, goal included),
        its exact distance to the goal, and the row of ``boards`` it came from.
    """

    shape: Shape
    boards: np.ndarray
    lengths: np.ndarray
    first_moves: np.ndarray
    states: np.ndarray | None = None
    distances: np.ndarray | None = None
    origins: np.ndarray | None = None


def _path_states(word: int, blank: int, moves: str, cols: int) -> list[int]:
    offset = {"U": -cols, "D": cols, "L": -1, "R": 1}
    out = [word]
    for move in moves:
        target = blank + offset[move]
        tile = (word >> (4 * target)) & 15
        word = word - (tile << (4 * target)) + (tile << (4 * blank))
        blank = target
        out.append(word)
    return out


def labelled(
    n: int,
    shape: Shape = (3, 3),
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    path: bool = False,
    limits: Limits | None = None,
    workers: int | None = None,
) -> Labelled:
    """``n`` random boards solved optimally: training data for learned heuristics.

    With ``path=True`` every board along each optimal path comes too, labelled with its exact
    distance (a shortest path's suffix is a shortest path), at no extra search cost.

    Raises
    ------
    SearchLimitError
        If a board was not solved within ``limits``: the error of the limit that stopped it
        (:class:`~fastpuzzle.TimeLimitError`...), with that board's statistics.

    Examples
    --------
    >>> data = labelled(100, (3, 3), rng=2, path=True)
    >>> bool((data.distances[data.origins == 0] == range(data.lengths[0], -1, -1)).all())
    True
    """
    flag("path", path)
    target = _target(shape, goal)
    boards = random_boards(n, shape, rng=rng, goal=target)
    result = solve_many(boards, target, shape=target.shape, limits=limits, workers=workers)
    if not result.solved.all():
        failed = int(np.flatnonzero(~result.solved)[0])
        status = str(result.status[failed])
        stats = SearchStats(
            expanded=int(result.expanded[failed]),
            generated=int(result.generated[failed]),
            seconds=float(result.seconds[failed]),
        )
        raise limit_error(status)(
            f"board {failed} was not solved ({status}): {result.messages[failed]}", stats
        )
    first = np.array([moves[:1] for moves in result.moves], dtype="<U1")
    if not path:
        return Labelled(target.shape, boards, result.lengths.copy(), first)
    states: list[int] = []
    distances: list[int] = []
    origins: list[int] = []
    for row, (word, moves) in enumerate(zip(boards.tolist(), result.moves)):
        tiles = [(word >> (4 * i)) & 15 for i in range(target.size)]
        walk = _path_states(word, tiles.index(0), moves, target.cols)
        states.extend(walk)
        distances.extend(range(len(moves), -1, -1))
        origins.extend([row] * len(walk))
    return Labelled(
        target.shape,
        boards,
        result.lengths.copy(),
        first,
        np.array(states, dtype=np.uint64),
        np.array(distances, dtype=np.int32),
        np.array(origins, dtype=np.int64),
    )
