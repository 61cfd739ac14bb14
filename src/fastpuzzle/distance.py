"""Boards at an exact optimal distance from a goal: what :func:`~fastpuzzle.random_board` and
:func:`~fastpuzzle.random_boards` draw with ``distance=``.

A scramble of ``d`` random moves is seldom ``d`` moves from the goal (a 20-move 3x3 scramble
is often 8 moves away), so a study by solution depth needs boards drawn by their optimal
length. Boards of up to 9 cells are drawn uniformly from an exact table of every board's
distance (the whole 3x3 space, 181,440 boards, by a breadth-first search from the goal, built
once per goal blank cell and kept in memory); larger boards are scrambled and solved optimally
until one has the length asked for.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from time import monotonic

import numpy as np

from fastpuzzle._core import _pdb
from fastpuzzle._util.checks import shown, whole
from fastpuzzle._walk import scramble
from fastpuzzle.board import Board
from fastpuzzle.errors import DistanceNotFoundError, InvalidOptionError, SearchLimitError
from fastpuzzle.limits import Limits

__all__ = [
    "FARTHEST_4X4",
    "MAX_TRIES",
    "TABLE_CELLS",
    "distance_counts",
    "farthest_bound",
    "packed_at_distance",
]

#: Boards of up to this many cells are drawn from their exact distance table.
TABLE_CELLS = 9

#: Scrambles solved per board asked for, at most, before :class:`DistanceNotFoundError`.
MAX_TRIES = 1000

#: A draw by solving says how it goes (``logging``, INFO) once it has run this long, and then
#: this often (seconds): a 4x4 board 50 moves away takes seconds to solve, and many tries.
_TELL_AFTER = 2.0

_log = logging.getLogger(__name__)

#: Marks a placement the table's breadth-first search never reached (the other parity).
_UNREACHED = 255

#: The most moves any 4x4 board needs to reach a goal with the blank in a corner (Brüngger et
#: al. 1999; Korf and Schultze's breadth-first search of the whole space, 2005).
FARTHEST_4X4 = 80

#: A breadth-first count of the boards at a distance past 9 cells stops past this many boards
#: (a few tenths of a second): it only tells that few boards are that near.
_LAYER_CAP = 20_000


@lru_cache(maxsize=8)
def _by_distance(rows: int, cols: int, goal_blank: int) -> tuple[np.ndarray, np.ndarray]:
    """``(ranks, starts)``: the compact ranks of every board sorted by distance, and where each
    distance begins (``ranks[starts[d]:starts[d + 1]]`` are the boards ``d`` moves away).

    Of the canonical goal (tiles in order, the blank on ``goal_blank``); a board is the
    placement of its tiles 1..n-1, ranked as the pattern databases rank it.
    """
    tiles = list(range(1, rows * cols))
    levels = _pdb.build_levels(rows, cols, goal_blank, tiles, False)
    ranks = np.argsort(levels, kind="stable").astype(np.int64)
    counts = np.bincount(levels, minlength=_UNREACHED + 1)[:_UNREACHED]
    starts = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    ranks.setflags(write=False)
    starts.setflags(write=False)
    return ranks, starts


def distance_counts(goal: Board) -> list[int]:
    """How many boards are at each distance from ``goal`` (index: the distance), for shapes of
    up to :data:`TABLE_CELLS` cells; trailing zeros left out.

    >>> distance_counts(Board.goal((2, 2)))
    [1, 2, 2, 2, 2, 2, 1]
    """
    _, starts = _by_distance(goal.rows, goal.cols, goal.blank)
    counts = np.diff(starts)
    return [int(c) for c in counts[: int(np.flatnonzero(counts)[-1]) + 1]]


def farthest_bound(target: Board) -> int:
    """A distance no board of ``target``'s shape is from ``target``: the exact farthest on up
    to :data:`TABLE_CELLS` cells and on 4x4, a sound overestimate past them.

    On 4x4, :data:`FARTHEST_4X4` from a goal with the blank in a corner (every such goal is the
    usual one with its tiles renamed and the board turned); from another goal, that plus the
    blank's moves to the nearest corner (a board adjacent to the goal is at most one move
    nearer to any board). Elsewhere the moves of the row-by-row method, counted generously:
    every tile travels at most ``rows + cols - 2`` steps of at most 5 moves (the blank goes
    round a 2x2 square), the blank needs at most ``rows + cols`` moves to reach it, and the last
    tile of a line at most 30 more to turn in: ``6 * cells * (rows + cols + 5)``. It refuses an
    absurd distance at once; near it, a draw would not end anyway.
    """
    if target.size <= TABLE_CELLS:
        return len(distance_counts(target)) - 1
    rows, cols = target.shape
    if (rows, cols) == (4, 4):
        row, col = divmod(target.blank, cols)
        return FARTHEST_4X4 + min(row, rows - 1 - row) + min(col, cols - 1 - col)
    return 6 * target.size * (rows + cols + 5)


def _layer_size(target: Board, distance: int) -> int | None:
    """How many boards are exactly ``distance`` moves from ``target``, by a breadth-first search;
    None once the search holds more than :data:`_LAYER_CAP` boards."""
    seen = {target}
    layer = [target]
    for _ in range(distance):
        following = []
        for board in layer:
            for _, after in board.successors():
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        if len(seen) > _LAYER_CAP:
            return None
        layer = following
    return len(layer)


def _too_many(count: int, there: int, target: Board, distance: int) -> InvalidOptionError:
    return InvalidOptionError(
        f"expected n of at most {there:,} with unique=True (every "
        f"{target.rows}x{target.cols} board {distance} moves from the goal), got {count:,}"
    )


def _unrank(ranks: np.ndarray, cells: int) -> np.ndarray:
    """The cells of tiles 1..cells-1 of each compact rank, as an ``(len(ranks), cells - 1)``
    array: the rank's digits in a falling-factorial base index the cells still free."""
    k = cells - 1
    count = len(ranks)
    out = np.empty((count, k), dtype=np.int64)
    free = np.ones((count, cells), dtype=bool)
    left = ranks.copy()
    rows = np.arange(count)
    for slot in range(k):
        weight = 1
        for later in range(slot + 1, k):
            weight *= cells - later
        digit, left = np.divmod(left, weight)
        # The digit-th free cell (from 0): the first whose running count of free cells exceeds it.
        cell = np.argmax(np.cumsum(free, axis=1) > digit[:, None], axis=1)
        out[:, slot] = cell
        free[rows, cell] = False
    return out


def _tabled(
    count: int, target: Board, distance: int, generator: np.random.Generator, unique: bool
) -> np.ndarray:
    ranks, starts = _by_distance(target.rows, target.cols, target.blank)
    low, high = (int(starts[distance]), int(starts[distance + 1])) if distance < 255 else (0, 0)
    there = high - low
    if there == 0:
        farthest = int(np.flatnonzero(np.diff(starts))[-1])
        raise InvalidOptionError(
            f"no {target.rows}x{target.cols} board is {distance} moves from the goal: the "
            f"farthest are {farthest} moves away"
        )
    if unique and count > there:
        raise _too_many(count, there, target, distance)
    picks = generator.choice(there, size=count, replace=False) if unique else None
    if picks is None:
        picks = generator.integers(0, there, size=count)
    placements = _unrank(ranks[low + picks], target.size)
    # Canonical tile t belongs on the goal's t-th cell that is not its blank: the goal's own
    # tile there is the one drawn.
    names = [tile for tile in target.tiles if tile]
    words = np.zeros(count, dtype=np.uint64)
    for slot, name in enumerate(names):
        words |= np.uint64(name) << (np.uint64(4) * placements[:, slot].astype(np.uint64))
    return words


def _solved(
    count: int,
    target: Board,
    distance: int,
    generator: np.random.Generator,
    unique: bool,
    max_tries: int,
    limits: Limits | None,
) -> list[Board]:
    # Lazy: the solver is loaded by the first draw that needs it, not by import fastpuzzle.
    from fastpuzzle.solve import solve

    if unique and count > 1:
        there = _layer_size(target, distance)
        if there is not None and count > there:
            raise _too_many(count, there, target, distance)
    if distance == 0:
        return [target] * count
    found: list[Board] = []
    seen: set[Board] = set()
    # Tries that found a board already drawn, and solves a limit stopped: what to change when
    # the tries run out.
    again = stopped = 0
    # A walk of w moves ends w, w - 2, ... moves away: walks start at d and lengthen (by 2,
    # keeping the parity) while they fall short, shorten while they overshoot.
    walk, tries, budget = distance, 0, max_tries * count
    started = monotonic()
    tell = started + _TELL_AFTER
    while len(found) < count:
        if tries >= budget:
            raise DistanceNotFoundError(
                f"no board {distance} moves from the goal in {tries:,} scrambles solved "
                f"({len(found)} of {count} found){_advice(again, stopped)}"
            )
        tries += 1
        board = scramble(target, walk, rng=generator)
        try:
            length: int | None = len(solve(board, target, limits=limits))
        except SearchLimitError:
            length = None  # a failed try: the board's distance is not known
            stopped += 1
        if length is None:
            pass
        elif length == distance:
            if not unique or board not in seen:
                found.append(board)
                seen.add(board)
            else:
                again += 1
        elif length < distance:
            walk += 2
        elif walk > distance:
            walk -= 2
        if monotonic() >= tell:
            _log.info(
                "boards %d moves away: %d of %d found in %d tries, %.1f s (scrambles of %d moves)",
                distance,
                len(found),
                count,
                tries,
                monotonic() - started,
                walk,
            )
            tell = monotonic() + _TELL_AFTER
    return found


def _advice(again: int, stopped: int) -> str:
    """What the message of tries run out suggests: more tries only when neither limits nor a
    shortage of boards that far stopped them."""
    if stopped:
        return f"; the limits stopped {stopped:,} of the solves: raise them, or pass none"
    if again:
        return (
            f"; {again:,} tries found a board already drawn: there may be no other boards that far"
        )
    return "; a larger max_tries tries longer"


def packed_at_distance(
    count: int,
    target: Board,
    distance: object,
    generator: np.random.Generator,
    *,
    unique: bool = False,
    max_tries: object = MAX_TRIES,
    limits: Limits | None = None,
) -> list[Board] | np.ndarray:
    """``count`` boards exactly ``distance`` optimal moves from ``target``.

    Packed words (uint64) from the exact table on up to :data:`TABLE_CELLS` cells, drawn
    uniformly among the boards that far; else a list of boards, each a scramble of the goal
    solved optimally (``limits`` bound each solve), not uniform among them.

    A solve stopped by ``limits`` is a failed try.

    Raises
    ------
    InvalidOptionError
        If ``distance`` or ``max_tries`` is not a whole number from 0 (``max_tries`` from 1),
        ``distance`` is past :func:`farthest_bound`, no board of a tabled shape is that far (the
        message names the farthest), or ``unique`` asks for more boards than there are that far
        (counted when few are).
    DistanceNotFoundError
        If ``max_tries`` scrambles a board found none that far (the message says whether limits
        stopped solves, or tries found boards already drawn).
    """
    d = whole("distance", distance, low=0, why="an optimal number of moves")
    tries = whole("max_tries", max_tries, low=1, why="scrambles solved per board")
    if target.size <= TABLE_CELLS:
        return _tabled(count, target, d, generator, unique)
    farthest = farthest_bound(target)
    if d > farthest:
        exact = (target.rows, target.cols) == (4, 4)
        raise InvalidOptionError(
            f"expected distance of at most {farthest:,}, got {shown(distance)}: no "
            f"{target.rows}x{target.cols} board is farther from the goal"
            + ("" if exact else " (a sound overestimate; the farthest are nearer)")
        )
    return _solved(count, target, d, generator, unique, tries, limits)
