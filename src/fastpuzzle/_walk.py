"""Random walks from a board (:func:`scramble`), apart from :mod:`fastpuzzle.generate` so that
the draws at an exact distance (:mod:`fastpuzzle.distance`), which it uses, sit below it."""

from __future__ import annotations

import numpy as np

from fastpuzzle._core import _board
from fastpuzzle._util.checks import random_generator, rng_or_seed, whole
from fastpuzzle.board import Board, BoardLike, as_board
from fastpuzzle.moves import MOVES

__all__ = ["MAX_SCRAMBLE", "RandomSource", "scramble"]

RandomSource = int | np.random.Generator | None

#: The longest walk :func:`scramble` takes: a billion moves, about a minute (a walk of 2**63
#: moves would never end). :func:`random_board` draws a board uniformly, in one step.
MAX_SCRAMBLE = 1_000_000_000


def scramble(
    board: BoardLike, moves: int, *, rng: RandomSource = None, seed: int | None = None
) -> Board:
    """The board after ``moves`` random blank moves, never undoing the previous one.

    The walk runs in a compiled loop (ten million moves take well under a second), of at most
    :data:`MAX_SCRAMBLE` moves. ``rng`` is a seed, a generator or None (fresh entropy);
    ``seed=`` gives a seed in its place.

    Raises
    ------
    InvalidBoardError
        If ``board`` is not valid.
    InvalidOptionError
        If ``moves`` is not a whole number from 0 to :data:`MAX_SCRAMBLE`; if ``rng`` is not a
        seed (a non-negative integer), a numpy Generator or None; or ``seed`` is given with
        ``rng``, or is not a seed.

    Examples
    --------
    >>> scramble("1 2 3/4 5 6/7 8 _", 20, rng=1).is_solvable()
    True
    """
    count = whole("moves", moves, low=0, high=MAX_SCRAMBLE, why="the longest walk scramble takes")
    generator = random_generator(rng_or_seed(rng, seed))
    walked = start = as_board(board)
    blank, last = start.blank, -1
    # The walk goes in chunks, each applied as it is drawn: memory stays a few megabytes
    # however long the walk (it held 4.4 bytes a move: 10**9 moves ran out of memory).
    codes = np.empty(min(count, _CHUNK), dtype=np.uint8)
    for first in range(0, count, _CHUNK):
        part = codes[: min(_CHUNK, count - first)]
        draws = generator.integers(0, 2**64, size=len(part), dtype=np.uint64, endpoint=False)
        blank, last = _board.random_walk_codes(start.rows, start.cols, blank, draws, part, last)
        walked = walked.apply(part.tobytes().translate(_LETTERS).decode("ascii"))
    return walked


_CHUNK = 1 << 20
_LETTERS = bytes.maketrans(bytes([0, 1, 2, 3]), MOVES.encode("ascii"))
