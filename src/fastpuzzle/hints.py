"""Every optimal first move of a board (:func:`hint`), for games and tutors."""

from __future__ import annotations

from dataclasses import replace

from fastpuzzle.board import BoardLike, as_board, as_goal
from fastpuzzle.errors import DepthLimitError
from fastpuzzle.limits import Limits
from fastpuzzle.moves import MOVES
from fastpuzzle.solve import solve

__all__ = ["hint"]


def hint(
    board: BoardLike, goal: BoardLike | None = None, *, limits: Limits | None = None
) -> tuple[str, ...]:
    """Every optimal first move of ``board`` towards ``goal`` (default: tiles in order, blank
    last), in the order U, D, L, R: the moves to a neighbour one move nearer the goal.

    The board is solved optimally (:func:`~fastpuzzle.solve`: an exact table walk on 3x3, IDA*
    with pattern databases past that); its solution's first move is one, and each other
    neighbour is solved with a depth limit of one less than the board's length, so a further
    neighbour (every neighbour is one move nearer or one further) stops at that depth. The
    goal itself has none: ``()``.

    Parameters
    ----------
    board, goal : BoardLike
        Start and goal.
    limits : Limits, optional
        Bounds of each search, as for :func:`~fastpuzzle.solve`.

    Raises
    ------
    UnsolvableError
        If the goal cannot be reached from the board.
    SearchLimitError
        If a search stopped at a limit of ``limits`` (not the depth that tells a further
        neighbour): the error of that limit, as :func:`~fastpuzzle.solve` raises it.

    Examples
    --------
    >>> hint("1 2 3/4 5 6/_ 7 8")
    ('R',)
    >>> hint("1 2 3/4 _ 5/7 8 6")
    ('R',)
    """
    start = as_board(board)
    target = as_goal(start, goal)
    first = solve(start, target, limits=limits)
    if not first.moves:
        return ()
    nearer = len(first.moves) - 1
    bound = limits or Limits()
    if bound.max_depth is None or bound.max_depth > nearer:
        bound = replace(bound, max_depth=nearer)
    optimal = {first.moves[0]}
    for move, neighbour in start.successors():
        if move in optimal:
            continue
        try:
            solve(neighbour, target, limits=bound)
        except DepthLimitError:
            continue
        optimal.add(move)
    return tuple(move for move in MOVES if move in optimal)
