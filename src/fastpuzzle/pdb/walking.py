"""Walking-distance tables: per side, the fewest vertical (horizontal) moves that bring every
tile to its goal row (column), over states that count the tiles of each goal row in each row."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from fastpuzzle._core import _pdb
from fastpuzzle._problem import Problem
from fastpuzzle.pdb.database import stopped_at_deadline

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

_Tables = tuple[dict[tuple[int, ...], int], Any, Any]


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


# Built tables, or None where the abstraction is too big, by (lines, width, goal line). A plain
# dict rather than lru_cache: a build stopped by its deadline must not be remembered.
_BUILT: dict[tuple[int, int, int], _Tables | None] = {}
_BUILT_LOCK = threading.Lock()


def _compositions(total: int, caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    # Every way to split ``total`` into len(caps) parts, part i at most caps[i].
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for first in range(min(total, caps[0]) + 1):
        for rest in _compositions(total - first, caps[1:]):
            yield (first, *rest)


@lru_cache(maxsize=64)
def _matrices(lines: int, width: int) -> int:
    # Square count matrices with one row and one column summing to width - 1, the others to
    # width. Rows and columns may be permuted freely, so sorted remaining column sums key a memo.
    @cache
    def fill(row: int, remaining: tuple[int, ...]) -> int:
        if row == lines:
            return 1
        return sum(
            fill(row + 1, tuple(sorted(r - c for r, c in zip(remaining, counts))))
            for counts in _compositions(width - (row == 0), remaining)
        )

    return fill(0, tuple(sorted([width - 1] + [width] * (lines - 1))))


def _walking_states(lines: int, width: int, cap: int) -> int:
    """States of the walking-distance abstraction of ``lines`` lines of ``width``, or, when that
    is past ``cap``, some number past ``cap``.

    Every count matrix with the right sums is reachable, with the blank on any line (checked
    against the search for every shape up to 16 cells), so the number is ``lines`` times
    :func:`_matrices`. Adding a line or a column of width only adds states, so smaller
    abstractions are counted first, and the count stops once one is past ``cap``: counting 5x5
    directly would take long, and it tells in milliseconds what the search would in seconds.
    """
    size, wide = 2, 2
    while True:
        count = size * _matrices(size, wide)
        if count > cap or (size, wide) == (lines, width):
            return count
        if size < lines and (wide == width or size <= wide):
            size += 1
        else:
            wide += 1


def _walking(lines: int, width: int, goal_line: int, deadline: float | None) -> _Tables | None:
    # None (remembered too, so the attempt is made once) when the abstraction is too big.
    key = (lines, width, goal_line)
    with _BUILT_LOCK:
        if key in _BUILT:
            return _BUILT[key]
    found: _Tables | None = None
    if _walking_states(lines, width, WALKING_MAX_STATES) <= WALKING_MAX_STATES:
        with stopped_at_deadline(f"walking-distance tables of {lines} lines of {width} were"):
            states, nxt, dist = _pdb.walking_table(
                lines, width, goal_line, WALKING_MAX_STATES, deadline=deadline
            )
        nxt.setflags(write=False)
        dist.setflags(write=False)
        found = (states, nxt, dist)
    with _BUILT_LOCK:
        return _BUILT.setdefault(key, found)


def walking_tables(problem: Problem, *, deadline: float | None = None) -> WalkingTables:
    """The walking-distance tables IDA* reads for ``problem`` (a board of up to 16 cells).

    ``deadline`` (a :func:`time.monotonic` time) bounds the first build of a table:
    :class:`~fastpuzzle.pdb.BuildTimeLimitError` once it has passed.
    """
    return walking_args(
        problem.rows,
        problem.cols,
        problem.goal_blank,
        problem.packed,
        problem.blank,
        deadline=deadline,
    )


def walking_args(
    rows: int,
    cols: int,
    goal_blank: int,
    packed: int,
    blank: int,
    *,
    deadline: float | None = None,
) -> WalkingTables:
    """:func:`walking_tables` for a canonical packed board.

    A side whose abstraction has too many states (the columns of 2x8) gets no tables; the search
    then counts that side's Manhattan component instead, which is admissible too.
    """
    tiles = [(packed >> (4 * cell)) & 15 for cell in range(rows * cols)]
    return walking_args_for_cells(rows, cols, goal_blank, tiles, blank, deadline=deadline)


def walking_args_for_cells(
    rows: int,
    cols: int,
    goal_blank: int,
    tiles: Sequence[int],
    blank: int,
    *,
    deadline: float | None = None,
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
        tables = _walking(lines, width, goal_line, deadline)
        if tables is None:
            sides.append(WalkingSide(None, None, lines, md))
        else:
            states, nxt, dist = tables
            sides.append(WalkingSide(nxt, dist, lines, states[tuple(state)]))
    return WalkingTables(sides[0], sides[1])
