"""A start/goal pair turned into the plain values the compiled core takes.

The core always solves towards a canonical goal: tiles are relabelled so that the goal reads
1..n-1 in reading order, skipping the goal's blank cell. Moves name blank directions, which do
not depend on labels, so nothing is mapped back.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastpuzzle import _board
from fastpuzzle.board import Board, BoardLike, as_board, as_goal, is_solvable
from fastpuzzle.errors import UnsolvableError

__all__ = ["Problem", "canonical_labels", "make_problem"]


def canonical_labels(goal: Board) -> list[int]:
    """``labels[tile]``: the canonical label of each tile of ``goal`` (the blank stays 0)."""
    labels = [0] * goal.size
    gap = goal.blank
    for cell, tile in enumerate(goal.tiles):
        if tile:
            labels[tile] = cell + 1 if cell < gap else cell
    return labels


@dataclass(frozen=True)
class Problem:
    """A validated start/goal pair in canonical packed form.

    Attributes
    ----------
    board, goal : Board
        What the user asked for.
    packed : int
        The start, relabelled so the goal is canonical, packed 4 bits per cell.
    blank : int
        The start's blank cell.
    goal_blank : int
        The goal's blank cell (the canonical goal is determined by it and the shape).
    """

    board: Board
    goal: Board
    packed: int
    blank: int
    goal_blank: int

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return self.board.rows

    @property
    def cols(self) -> int:
        """Columns of the board."""
        return self.board.cols

    @property
    def solvable(self) -> bool:
        """Whether the goal can be reached (permutation parity)."""
        return is_solvable(self.board, self.goal)


def make_problem(
    board: BoardLike, goal: BoardLike | None = None, *, check_solvable: bool = True
) -> Problem:
    """Validate ``board`` and ``goal`` and relabel them for the core.

    Raises
    ------
    InvalidBoardError
        If either is not a valid board, or their shapes differ.
    UnsolvableError
        If ``check_solvable`` and the goal cannot be reached.
    """
    start = as_board(board)
    target = as_goal(start, goal)
    if check_solvable and not is_solvable(start, target):
        raise UnsolvableError(start, target)
    labels = canonical_labels(target)
    packed = _board.pack([labels[tile] for tile in start.tiles])
    return Problem(start, target, packed, start.blank, target.blank)
