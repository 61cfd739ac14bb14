"""A start/goal pair turned into the plain values the compiled core takes.

The core always solves towards a canonical goal: tiles are relabelled so that the goal reads
1..n-1 in reading order, skipping the goal's blank cell. Moves name blank directions, which do
not depend on labels, so nothing is mapped back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from fastpuzzle._core import _board
from fastpuzzle._util.records import record
from fastpuzzle.board import (
    MAX_CELLS,
    Board,
    BoardLike,
    as_board,
    as_goal,
    is_packed_word,
    is_solvable,
    solvable_pair,
)
from fastpuzzle.errors import BoardTooLargeError, UnsolvableError

__all__ = ["Problem", "canonical_labels", "make_problem"]


def canonical_labels(goal: Board) -> list[int]:
    """``labels[tile]``: the canonical label of each tile of ``goal`` (the blank stays 0)."""
    return list(_labels(goal.tiles)[0])


@lru_cache(maxsize=16)
def _labels(goal_tiles: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """:func:`canonical_labels` of a goal, and whether relabelling changes anything.

    Kept per goal: a session's searches mostly share a few goals, and the usual one (blank
    last) is already canonical, so its boards need no relabelling at all.
    """
    labels = [0] * len(goal_tiles)
    gap = goal_tiles.index(0)
    for cell, tile in enumerate(goal_tiles):
        if tile:
            labels[tile] = cell + 1 if cell < gap else cell
    return tuple(labels), labels != list(range(len(labels)))


@dataclass(frozen=True)
class Problem:
    """A validated start/goal pair in canonical form.

    Attributes
    ----------
    board, goal : Board
        What the user asked for.
    word : int or None
        The start, relabelled so the goal is canonical, packed 4 bits per cell (None past 16
        cells; read it as :attr:`packed`).
    blank : int
        The start's blank cell.
    goal_blank : int
        The goal's blank cell (the canonical goal is determined by it and the shape).
    cells : numpy.ndarray or None
        Past 16 cells: the relabelled start as a read-only ``uint16`` array (the wide core's
        form), else None.
    """

    board: Board
    goal: Board
    word: int | None
    blank: int
    goal_blank: int
    cells: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def packed(self) -> int:
        """The relabelled start packed 4 bits per cell.

        Raises
        ------
        BoardTooLargeError
            If the board has more than 16 cells (the core takes :attr:`cells` instead).
        """
        if self.word is None:
            raise BoardTooLargeError(
                f"expected a board of at most {MAX_CELLS} cells for the packed core, got a "
                f"{self.rows}x{self.cols} board ({self.board.size} cells)"
            )
        return self.word

    @property
    def wide(self) -> bool:
        """Whether the board needs the wide (cell array) core: more than 16 cells."""
        return self.word is None

    def wide_cells(self) -> np.ndarray:
        """The relabelled start as a fresh writable ``uint16`` array, for any size."""
        if self.cells is not None:
            return self.cells.copy()
        labels = _labels(self.goal.tiles)[0]
        return np.array([labels[tile] for tile in self.board.tiles], dtype=np.uint16)

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
    if goal is not None and is_packed_word(board):
        # A packed start takes its shape from the goal, the one thing here that knows it.
        known = as_board(goal)
        start = as_board(board, known.shape)
    else:
        start = as_board(board)
    target = as_goal(start, goal)
    if check_solvable and not solvable_pair(start, target):
        raise UnsolvableError(start, target)
    labels, relabel = _labels(target.tiles)
    if start.size > MAX_CELLS:
        cells = np.array(labels, dtype=np.uint16)[np.array(start.tiles, dtype=np.intp)]
        cells.flags.writeable = False
        return Problem(start, target, None, start.blank, target.blank, cells)
    packed = _board.pack([labels[tile] for tile in start.tiles]) if relabel else start.packed
    return record(
        Problem,
        board=start,
        goal=target,
        word=packed,
        blank=start.blank,
        goal_blank=target.blank,
        cells=None,
    )
