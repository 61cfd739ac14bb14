"""Walking-distance tables: per side, the fewest vertical (horizontal) moves that bring every
tile to its goal row (column), over states that count the tiles of each goal row in each row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from fastpuzzle import _pdb
from fastpuzzle.problem import Problem

__all__ = [
    "WALKING_MAX_STATES",
    "WalkingSide",
    "WalkingTables",
    "walking_args",
    "walking_args_for_cells",
    "walking_tables",
]


#: Walking-distance abstractions with more states than this are not built (2x8's columns have
#: hundreds of millions); that side then counts its Manhattan component.
WALKING_MAX_STATES = 500_000


class WalkingSide(NamedTuple):
    """One side's abstraction (rows, or columns) and where a board starts in it.

    Attributes
    ----------
    next : numpy.ndarray or None
        Transition table (int32) of the abstraction's states; None when it has too many states.
    distance : numpy.ndarray or None
        Exact distance (uint8) of each state to the goal's.
    lines : int
        Lines on this side (rows for the vertical side, columns for the horizontal one).
    start : int
        The board's state index; without tables, the side's Manhattan component instead.
    """

    next: Any
    distance: Any
    lines: int
    start: int


@dataclass(frozen=True)
class WalkingTables:
    """What IDA* with walking distance reads for one board: both sides' tables."""

    vertical: WalkingSide
    horizontal: WalkingSide

    def start_value(self) -> int:
        """The walking distance of the board the tables start from."""
        return sum(
            side.start if side.distance is None else int(side.distance[side.start])
            for side in (self.vertical, self.horizontal)
        )


@lru_cache(maxsize=32)
def _walking(
    lines: int, width: int, goal_line: int
) -> tuple[dict[tuple[int, ...], int], Any, Any] | None:
    # None (cached too, so the attempt is made once) when the abstraction is too big.
    try:
        states, nxt, dist = _pdb.walking_table(lines, width, goal_line, WALKING_MAX_STATES)
    except ValueError:
        return None
    nxt.setflags(write=False)
    dist.setflags(write=False)
    return states, nxt, dist


def walking_tables(problem: Problem) -> WalkingTables:
    """The walking-distance tables IDA* reads for ``problem`` (a board of up to 16 cells)."""
    return walking_args(
        problem.rows, problem.cols, problem.goal_blank, problem.packed, problem.blank
    )


def walking_args(rows: int, cols: int, goal_blank: int, packed: int, blank: int) -> WalkingTables:
    """:func:`walking_tables` for a canonical packed board.

    A side whose abstraction has too many states (the columns of 2x8) gets no tables; the search
    then counts that side's Manhattan component instead, which is admissible too.
    """
    tiles = [(packed >> (4 * cell)) & 15 for cell in range(rows * cols)]
    return walking_args_for_cells(rows, cols, goal_blank, tiles, blank)


def walking_args_for_cells(
    rows: int, cols: int, goal_blank: int, tiles: Sequence[int], blank: int
) -> WalkingTables:
    """:func:`walking_args` for a canonical board given as one tile per cell (any size)."""
    blank_row, blank_col = divmod(goal_blank, cols)
    v = [0] * (rows * rows) + [blank // cols]
    h = [0] * (cols * cols) + [blank % cols]
    v_md = h_md = 0
    for cell in range(rows * cols):
        tile = int(tiles[cell])
        if tile == 0:
            continue
        home = tile - 1 if tile - 1 < goal_blank else tile
        row, col = divmod(cell, cols)
        v[row * rows + home // cols] += 1
        h[col * cols + home % cols] += 1
        v_md += abs(row - home // cols)
        h_md += abs(col - home % cols)
    sides = []
    for lines, width, goal_line, state, md in (
        (rows, cols, blank_row, v, v_md),
        (cols, rows, blank_col, h, h_md),
    ):
        tables = _walking(lines, width, goal_line)
        if tables is None:
            sides.append(WalkingSide(None, None, lines, md))
        else:
            states, nxt, dist = tables
            sides.append(WalkingSide(nxt, dist, lines, states[tuple(state)]))
    return WalkingTables(sides[0], sides[1])
