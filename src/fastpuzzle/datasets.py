"""Data sets of solved boards: many random boards at once, labelled with optimal lengths.

Boards are packed ``uint64`` words (cell i at bits 4i..4i+3), so at most 16 cells. Moves are U,
D, L, R: the direction the blank moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fastpuzzle._batch_prep import prepare_packed
from fastpuzzle._checks import flag, random_generator, whole
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

    Vectorised: uniform permutations, and the unsolvable half mapped one-to-one onto the
    solvable half by swapping tiles 1 and 2. Drawn in blocks of 16,384 boards: memory is the
    result (8 bytes a board) and one block (at most 42 MB, on 4x4), and Ctrl-C stops the draw
    within a block (milliseconds). A seed gives the same boards whatever the block size.

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
    generator = random_generator(rng)
    out = np.empty(count, dtype=np.uint64)
    # One numpy call for every board took 930 bytes a board at once (2.6 kB on 4x4) and could
    # not be interrupted: Python runs a Ctrl-C's handler only between calls, here between
    # blocks. Generator.random draws the same numbers in blocks of rows as in one call.
    for first in range(0, count, _BLOCK):
        out[first : first + _BLOCK] = _draw_block(generator, target, min(_BLOCK, count - first))
    return out


#: Boards drawn per numpy call by :func:`random_boards`: a block takes about 2.6 kB a board on
#: 4x4 (the solvability check's pairs of cells), and smaller blocks stay in cache (10**6 4x4
#: boards: 1.8-2.0 s in blocks of 2**14, 2.5 s of 2**16, 4.2-5.3 s in one block).
_BLOCK = 1 << 14


def _draw_block(generator: np.random.Generator, target: Board, count: int) -> np.ndarray:
    """``count`` uniform boards that can reach ``target``, packed."""
    cells = target.size
    tiles = np.argsort(generator.random((count, cells)), axis=1)
    shifts = (4 * np.arange(cells, dtype=np.uint64))[None, :]
    words = (tiles.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)
    flip = ~prepare_packed(words, target).solvable
    rows = np.flatnonzero(flip)
    one = np.argmax(tiles[rows] == 1, axis=1)
    two = np.argmax(tiles[rows] == 2, axis=1)
    tiles[rows, one], tiles[rows, two] = 2, 1
    packed: np.ndarray = (tiles.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)
    return packed


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
