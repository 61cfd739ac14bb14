"""Random boards: uniform over solvable boards, or random walks from a board.

Both take ``rng``: a seed, a :class:`numpy.random.Generator`, or None for fresh entropy; a seed
may be given as ``seed=`` too, the name :func:`~fastpuzzle.compare` and the command line use.
"""

from __future__ import annotations

from fastpuzzle._util.checks import random_generator, rng_or_seed
from fastpuzzle._util.default_shape import DEFAULT_SHAPE
from fastpuzzle._walk import MAX_SCRAMBLE, RandomSource, scramble
from fastpuzzle.board import Board, BoardLike, Shape, as_goal, is_solvable
from fastpuzzle.distance import MAX_TRIES, packed_at_distance
from fastpuzzle.limits import Limits

__all__ = ["MAX_SCRAMBLE", "random_board", "scramble"]


def random_board(
    shape: Shape = DEFAULT_SHAPE,
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    seed: int | None = None,
    distance: int | None = None,
    max_tries: int = MAX_TRIES,
    limits: Limits | None = None,
) -> Board:
    """A board drawn uniformly from those that can reach ``goal`` (default: blank last), or
    from those exactly ``distance`` optimal moves from it.

    Swapping two fixed tiles maps solvable boards one-to-one onto unsolvable ones, so a uniform
    permutation, swapped when unsolvable, is uniform over the solvable half.

    With ``distance``, boards of up to 9 cells (3x3, 2x4...) come uniformly from the boards
    that far, read from an exact table of every board's distance (built once per goal blank
    cell in a few hundredths of a second and kept in memory). Larger boards are the goal
    scrambled and solved optimally (each solve bounded by ``limits``) until a scramble is that
    far: not uniform among those boards, and as slow as solving them (a 4x4 board 50 moves
    away takes seconds; the draw logs its progress at INFO on the ``fastpuzzle.distance``
    logger when it takes long), at most ``max_tries`` scrambles.

    Parameters
    ----------
    shape : (rows, cols)
        The board's shape (default: (4, 4), the library's one default).
    rng : int, numpy.random.Generator or None
        A seed, a generator (its next numbers are used), or None for fresh entropy.
    goal : Board-like, optional
        The goal the board can reach (default: tiles in order, blank last).
    seed : int, optional
        A seed, in place of ``rng`` (``random_board(seed=7) == random_board(rng=7)``).
    distance : int, optional
        The board's optimal number of moves to ``goal``.
    max_tries : int
        With ``distance`` past 9 cells: the most scrambles solved.
    limits : Limits, optional
        With ``distance`` past 9 cells: bounds of each solve, as :func:`~fastpuzzle.solve`'s.

    Raises
    ------
    InvalidOptionError
        If ``rng`` is not a seed (a non-negative integer), a numpy Generator or None; or
        ``seed`` is given with ``rng``, or is not a seed; or ``distance`` is not a whole number
        from 0, or is farther than any board can be, at once: exactly on up to 9 cells (3x3: at
        most 31) and on 4x4 (80 from the usual goal), past a sound overestimate on other shapes
        (``fastpuzzle.distance.farthest_bound``).
    InvalidBoardError
        If ``shape`` or ``goal`` is not valid.
    DistanceNotFoundError
        If ``max_tries`` scrambles found no board ``distance`` moves away. A solve stopped by
        ``limits`` is a failed try, not an error: the message says when limits stopped them.

    Examples
    --------
    >>> random_board((3, 3), rng=7).is_solvable()
    True
    >>> from fastpuzzle import solve
    >>> len(solve(random_board((3, 3), distance=20, rng=7)))
    20
    """
    generator = random_generator(rng_or_seed(rng, seed))
    target = as_goal(Board.goal(shape), goal)
    if distance is not None:
        drawn = packed_at_distance(
            1, target, distance, generator, max_tries=max_tries, limits=limits
        )
        if isinstance(drawn, list):
            return drawn[0]
        return Board.from_packed(int(drawn[0]), target.shape)
    n = target.size
    tiles = generator.permutation(n).tolist()
    # A permutation of 0..n-1 is a valid board: skip re-validating it (10,000 cells at 100x100).
    board = Board._trusted(target.shape, tuple(tiles))
    if not is_solvable(board, target):
        first, second = tiles.index(1), tiles.index(2)
        tiles[first], tiles[second] = tiles[second], tiles[first]
        board = Board._trusted(target.shape, tuple(tiles))
    return board
