"""Why a board can or cannot reach its goal, in the words of a course on search:
:func:`explain_solvability`, whose record :class:`~fastpuzzle.UnsolvableError` quotes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fastpuzzle.board import (
    Board,
    BoardLike,
    _goal_board,
    _goal_parity,
    _permutation_parity,
    as_board,
    as_goal,
    solvable_pair,
)

__all__ = ["Solvability", "count_inversions", "explain_solvability"]


@dataclass(frozen=True)
class Solvability:
    """Why a board can or cannot reach its goal (see :func:`explain_solvability`).

    Attributes
    ----------
    solvable : bool
        Whether the goal can be reached (as :func:`~fastpuzzle.is_solvable`).
    inversions : int
        Pairs of tiles, the blank not counted, that stand in the opposite order to the goal's,
        reading row by row: for the usual goal (tiles in order), the textbook count of pairs
        of tiles in which the larger comes first.
    blank_row : int or None
        The blank's row counted from the bottom (1 = the bottom row) where the width is even,
        and so the row matters; None for an odd width.
    rule : str
        The rule for this width and goal, in words, with this board's figures.
    swap : tuple of int, or None
        Two tiles (never the blank) whose exchange makes an unsolvable board solvable: the
        first pair of neighbours in reading order that stand in the wrong order (which
        removes one inversion), else the last two tiles; None for a solvable board.
    """

    solvable: bool
    inversions: int
    blank_row: int | None
    rule: str
    swap: tuple[int, int] | None

    def __str__(self) -> str:
        if self.swap is None:
            return self.rule
        first, second = self.swap
        return f"{self.rule}; swapping tiles {first} and {second} would let it reach the goal"


def count_inversions(order: Sequence[int]) -> int:
    """Pairs ``i < j`` with ``order[i] > order[j]``, for a permutation of 0..n-1: O(n log n)
    with a Fenwick tree, as a 100x100 board has 50 million pairs."""
    size = len(order)
    tree = [0] * (size + 1)
    inversions = 0
    for seen, value in enumerate(order):
        # Counted: the values seen so far that are at most this one.
        index, below = value + 1, 0
        while index > 0:
            below += tree[index]
            index -= index & -index
        inversions += seen - below
        index = value + 1
        while index <= size:
            tree[index] += 1
            index += index & -index
    return inversions


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' * (count != 1)}"


def _parity(count: int) -> str:
    return "odd" if count % 2 else "even"


def _swap(tiles: Sequence[int], order: Sequence[int]) -> tuple[int, int]:
    """Two tiles whose exchange flips the permutation's parity: an inverted pair of neighbours
    (one inversion fewer), else the last two (the board is in the goal's order already)."""
    for i in range(len(order) - 1):
        if order[i] > order[i + 1]:
            return tiles[i], tiles[i + 1]
    return tiles[-2], tiles[-1]


def _textbook_rule(width: int, inversions: int, blank_row: int | None) -> str:
    count = _plural(inversions, "inversion")
    if blank_row is None:
        return (
            f"on a board {width} wide a move never changes the parity of the inversions (pairs "
            "of tiles in which the larger comes first, the blank not counted), so a board "
            f"reaches the goal exactly when it has an even number: this one has {count}"
        )
    total = inversions + blank_row
    return (
        f"on a board {width} wide an up or down move changes the parity of the inversions "
        "(pairs of tiles in which the larger comes first, the blank not counted) and of the "
        "blank's row, so a board reaches the goal exactly when its inversions plus the blank's "
        f"row counted from the bottom (1 = the bottom row) is odd: this one has {count} and "
        f"the blank on row {blank_row}, {inversions:,} + {blank_row} = {total:,} is "
        f"{_parity(total)}"
    )


def _general_rule(start: Board, target: Board) -> str:
    parity = _permutation_parity(start.tiles) ^ _goal_parity(target.tiles)
    (r1, c1), (r2, c2) = divmod(start.blank, start.cols), divmod(target.blank, start.cols)
    distance = abs(r1 - r2) + abs(c1 - c2)
    return (
        "each move swaps the blank with a tile, so a board reaches the goal exactly when the "
        "permutation taking it to the goal (the blank included) has the parity of the blank's "
        f"distance to its goal cell (rows plus columns): this permutation is {_parity(parity)} "
        f"and the blank is {_plural(distance, 'move')} away ({_parity(distance)})"
    )


def explain_solvability(board: BoardLike, goal: BoardLike | None = None) -> Solvability:
    """Why ``board`` can or cannot reach ``goal`` (default: tiles in order, blank last).

    For the usual goal, the textbook rule: on a board of odd width, the number of inversions
    must be even; of even width, the inversions plus the blank's row counted from the bottom
    must be odd. For any other goal, the general rule that both come from: the permutation
    taking the board to the goal must have the parity of the blank's Manhattan distance to its
    goal cell. An unsolvable board comes with two tiles to swap that make it solvable.

    Raises
    ------
    InvalidBoardError
        If the board or goal is not valid, or they differ in shape.

    Examples
    --------
    >>> why = explain_solvability("1 2 3/4 5 6/8 7 _")
    >>> why.solvable, why.inversions, why.blank_row, why.swap
    (False, 1, None, (8, 7))
    """
    start = as_board(board)
    target = as_goal(start, goal)
    rows, width = start.shape
    # Each tile's place in the goal's reading order, the blank skipped: the board's tiles in
    # those terms count the inversions against any goal (the textbook count for the usual one).
    place = {tile: rank for rank, tile in enumerate(t for t in target.tiles if t)}
    tiles = [tile for tile in start.tiles if tile]
    order = [place[tile] for tile in tiles]
    inversions = count_inversions(order)
    blank_row = None if width % 2 else rows - start.blank // width
    solvable = solvable_pair(start, target)
    if target == _goal_board(rows, width, False):
        rule = _textbook_rule(width, inversions, blank_row)
    else:
        rule = _general_rule(start, target)
    return Solvability(
        solvable=solvable,
        inversions=inversions,
        blank_row=blank_row,
        rule=rule,
        swap=None if solvable else _swap(tiles, order),
    )
