"""Check a heuristic written in Python against the exact distances of a small puzzle.

:func:`check_heuristic` evaluates a heuristic function (see
:data:`~fastpuzzle.conventions.HeuristicFunction`) on every board of a shape of up to 9 cells
(3x3: 181,440 boards, listed by :func:`~fastpuzzle.all_boards`), compares it with their exact
distances (the exact table the solver itself uses for such shapes, walked once per board), tests
it on every move (consistency: ``|h(a) - h(b)| <= 1`` for boards one move apart), and runs A* with
it and with the built-in heuristics on a sample of boards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, cast

import numpy as np

from fastpuzzle._core import _batch
from fastpuzzle._problem import canonical_labels
from fastpuzzle._util.checks import MAX_LISTED, ordered, random_generator, shown, whole
from fastpuzzle.board import Board, BoardLike, Shape, as_board, as_goal, check_shape
from fastpuzzle.conventions import HeuristicFunction
from fastpuzzle.datasets import all_boards
from fastpuzzle.errors import BoardTooLargeError, InvalidOptionError
from fastpuzzle.heuristics import HeuristicName
from fastpuzzle.pdb.search_tables import exact_table
from fastpuzzle.solve import search

__all__ = ["COMPARED", "DEFAULT_SAMPLE", "HeuristicCheck", "check_heuristic"]

#: The built-in heuristics whose A* node counts a check reports beside the function's.
COMPARED = ("misplaced", "manhattan", "linear_conflict")

#: Boards in the A* sample when none is given (drawn with a fixed seed: the same every time).
DEFAULT_SAMPLE = 10

# The largest space checked: the exact tables exist for boards of up to 9 cells.
_MAX_CELLS = 9


@dataclass(frozen=True)
class HeuristicCheck:
    """What :func:`check_heuristic` found.

    Attributes
    ----------
    shape : (rows, cols)
        The shape checked.
    boards : int
        Boards evaluated: every board that can reach the goal.
    admissible : bool
        Whether the heuristic never exceeds a board's exact distance.
    consistent : bool
        Whether the goal's heuristic is 0 and ``|h(a) - h(b)| <= 1`` for every pair of boards
        one move apart (which implies admissible).
    overestimated : int
        Boards whose heuristic exceeds their exact distance.
    overestimate_share : float
        ``overestimated / boards``.
    largest_overestimate : float
        The most by which it exceeds a distance (0 when admissible).
    inconsistent_moves : int
        Pairs of boards one move apart whose heuristics differ by more than 1.
    goal_value : float
        The heuristic of the goal (0 for an admissible one).
    expanded : mapping of str to float
        Mean nodes expanded by A* over the sample: ``"function"`` with the heuristic, and each of
        :data:`COMPARED`.
    sample : int
        Boards in the A* sample.
    """

    shape: Shape
    boards: int
    admissible: bool
    consistent: bool
    overestimated: int
    overestimate_share: float
    largest_overestimate: float
    inconsistent_moves: int
    goal_value: float
    expanded: Mapping[str, float] = field(default_factory=dict)
    sample: int = 0

    def __repr__(self) -> str:
        rows, cols = self.shape
        verdict = (
            "admissible"
            if self.admissible
            else (
                f"NOT admissible: {self.overestimated:,} boards overestimated "
                f"({100 * self.overestimate_share:.1f} %), by up to {self.largest_overestimate:g}"
            )
        )
        moves = (
            "consistent"
            if self.consistent
            else f"not consistent ({self.inconsistent_moves:,} moves change it by more than 1)"
        )
        nodes = ", ".join(f"{name} {mean:,.1f}" for name, mean in self.expanded.items())
        return (
            f"HeuristicCheck({rows}x{cols}, {self.boards:,} boards: {verdict}; {moves}; "
            f"A* mean expanded over {self.sample} boards: {nodes})"
        )


def _tiles(words: np.ndarray, cells: int) -> np.ndarray:
    """The tiles of packed words, one row a board (cell order)."""
    shifts = (4 * np.arange(cells, dtype=np.uint64)).astype(np.uint64)
    return ((words[:, None] >> shifts[None, :]) & np.uint64(15)).astype(np.uint8)


def _distances(tiles: np.ndarray, target: Board) -> np.ndarray:
    """Exact distance to ``target`` of each board (rows of ``tiles``), down the exact table."""
    rows, cols = target.shape
    labels = np.array(canonical_labels(target), dtype=np.uint64)
    canonical = labels[tiles]
    shifts = (4 * np.arange(target.size, dtype=np.uint64)).astype(np.uint64)
    words = np.bitwise_or.reduce(canonical << shifts[None, :], axis=1).astype(np.uint64)
    blanks = np.argmax(tiles == 0, axis=1).astype(np.int8)
    database = exact_table(rows, cols, target.blank)
    ((_, _, nibble, table),) = database.groups
    count = len(words)
    lengths = np.empty(count, dtype=np.int32)
    _batch.walk_exact_many(
        np.ascontiguousarray(words),
        np.ascontiguousarray(blanks),
        rows,
        cols,
        target.blank,
        table,
        nibble,
        lengths,
        np.zeros((count, 64), dtype=np.uint8),
        np.empty(count, dtype=np.int64),
        np.empty(count, dtype=np.float64),
    )
    return lengths


def _values(function: HeuristicFunction, tiles: np.ndarray) -> np.ndarray:
    """The function on every board, checked to be numbers."""
    name = getattr(function, "__name__", repr(function))
    out = np.empty(len(tiles), dtype=np.float64)
    for index, row in enumerate(map(tuple, tiles.tolist())):
        value = function(row)
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise InvalidOptionError(
                f"heuristic {name} must return a number, got {shown(value)} for {row}"
            )
        out[index] = value
    if not np.isfinite(out).all():
        raise InvalidOptionError(f"heuristic {name} must return finite numbers")
    return out


def _inconsistent(words: np.ndarray, tiles: np.ndarray, values: np.ndarray, cols: int) -> int:
    """Pairs of boards one move apart (each pair once: the blank moving down or right) whose
    values differ by more than 1."""
    cells = tiles.shape[1]
    blank = np.argmax(tiles == 0, axis=1)
    count = 0
    for step, allowed in ((cols, blank + cols < cells), (1, blank % cols != cols - 1)):
        source = np.flatnonzero(allowed)
        where = blank[source]
        other = where + step
        tile = tiles[source, other].astype(np.uint64)
        moved = (
            words[source]
            - (tile << (4 * other).astype(np.uint64))
            + (tile << (4 * where).astype(np.uint64))
        )
        partner = np.searchsorted(words, moved)
        count += int((np.abs(values[source] - values[partner]) > 1 + 1e-9).sum())
    return count


def _sample(
    sample: int | Iterable[BoardLike] | None, words: np.ndarray, target: Board, rng: Any
) -> list[Board]:
    if sample is None or isinstance(sample, (int, np.integer)):
        count = DEFAULT_SAMPLE if sample is None else whole("sample", sample, low=1)
        generator = random_generator(0 if rng is None else rng)
        picked = generator.choice(len(words), size=min(count, len(words)), replace=False)
        return [Board(int(words[i]), shape=target.shape) for i in picked]
    if isinstance(sample, (str, Board)):
        sample = [sample]
    listed = ordered("sample= a count or boards", sample, most=MAX_LISTED)
    return [as_board(board, target.shape) for board in listed]


def check_heuristic(
    function: HeuristicFunction,
    shape: Shape = (3, 3),
    goal: BoardLike | None = None,
    sample: int | Iterable[BoardLike] | None = None,
    *,
    rng: int | np.random.Generator | None = None,
) -> HeuristicCheck:
    """Check a heuristic function against the exact distances of every board of ``shape``.

    Parameters
    ----------
    function : callable
        The heuristic: it receives a board's tiles as a tuple, row by row, 0 for the blank, and
        returns a number (see :data:`~fastpuzzle.conventions.HeuristicFunction`).
    shape : (rows, cols)
        A shape of at most 9 cells (3x3: 181,440 boards, about a second for a plain Python
        function, plus the function's own time).
    goal : BoardLike, optional
        The goal (default: tiles in order, blank last).
    sample : int or boards, optional
        The boards A* is run on with the function and with each built-in of :data:`COMPARED`
        (default: :data:`DEFAULT_SAMPLE` boards drawn with ``rng``, seed 0 unless given).

    Returns
    -------
    HeuristicCheck
        Admissible? consistent? the share and largest size of overestimates, and A*'s mean
        nodes expanded.

    Raises
    ------
    BoardTooLargeError
        If ``shape`` has more than 9 cells.
    InvalidOptionError
        If ``function`` is not callable or returns something other than a finite number.

    Examples
    --------
    >>> check = check_heuristic(lambda tiles: 0, shape=(2, 3), sample=2)
    >>> check.admissible, check.consistent, check.overestimated
    (True, True, 0)
    """
    if not callable(function):
        raise InvalidOptionError(f"expected a heuristic function, got {shown(function)}")
    target = as_goal(Board.goal(check_shape(shape)), goal)
    if target.size > _MAX_CELLS:
        raise BoardTooLargeError(
            f"check_heuristic takes shapes of at most {_MAX_CELLS} cells (their exact distances "
            f"fit in memory), got {target.rows}x{target.cols}"
        )
    words = all_boards(target.shape, goal=target)
    tiles = _tiles(words, target.size)
    truth = _distances(tiles, target)
    values = _values(function, tiles)
    over = values - truth
    overestimated = int((over > 1e-9).sum())
    inconsistent = _inconsistent(words, tiles, values, target.cols)
    goal_value = float(values[int(np.flatnonzero(truth == 0)[0])])
    boards = _sample(sample, words, target, rng)
    expanded: dict[str, float] = {}
    guides: list[tuple[str, HeuristicFunction | HeuristicName]] = [("function", function)]
    guides += [(name, cast(HeuristicName, name)) for name in COMPARED]
    for name, heuristic in guides:
        counts = [
            search(board, target, algorithm="astar", heuristic=heuristic).stats.expanded
            for board in boards
        ]
        expanded[name] = float(np.mean(counts)) if counts else 0.0
    return HeuristicCheck(
        shape=target.shape,
        boards=len(words),
        admissible=overestimated == 0,
        consistent=inconsistent == 0 and goal_value == 0,
        overestimated=overestimated,
        overestimate_share=overestimated / len(words),
        largest_overestimate=float(max(over.max(), 0.0)),
        inconsistent_moves=inconsistent,
        goal_value=goal_value,
        expanded=MappingProxyType(expanded),
        sample=len(boards),
    )
