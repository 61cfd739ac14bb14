"""Data sets of solved boards: many random boards at once (with or without repeats), every
board of a small space (:func:`all_boards`), labelled with optimal lengths and every optimal
first move, in memory (:func:`labelled`) or streamed to a Parquet file (:func:`write_labelled`),
and a train/test split that keeps each board on one side (:func:`split_mask`).

Boards are packed ``uint64`` words (cell i at bits 4i..4i+3), so at most 16 cells. Moves are U,
D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import contextlib
import glob
import html
import math
import os
import time
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from fastpuzzle._core._generate import random_packed
from fastpuzzle._util.checks import (
    flag,
    optional_path,
    random_generator,
    real,
    rng_or_seed,
    shown,
    whole,
)
from fastpuzzle._util.default_shape import DEFAULT_SHAPE, OLD_DEFAULT_SHAPE, old_default_shape
from fastpuzzle._util.files import (
    UNWRITABLE_ERRNOS,
    atomic_writer,
    open_regular,
    try_lock,
    unwritable_file,
)
from fastpuzzle._util.optional import require
from fastpuzzle._util.text_tables import MAX_ROWS, Table
from fastpuzzle._util.units import size
from fastpuzzle._walk import RandomSource
from fastpuzzle.batch import BatchResult, solve_many
from fastpuzzle.batch.chunk import limit_error
from fastpuzzle.batch.export import packed_board_texts
from fastpuzzle.batch.run import Progress, ProgressArg, check_progress
from fastpuzzle.board import MAX_CELLS, Board, BoardLike, Shape, as_goal, check_shape
from fastpuzzle.distance import MAX_TRIES, packed_at_distance
from fastpuzzle.errors import (
    BoardTooLargeError,
    FastPuzzleWarning,
    InvalidOptionError,
    OutOfMemoryError,
)
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchStats

__all__ = [
    "MAX_BOARDS",
    "MAX_LABELLED",
    "MAX_LABELLED_PATHS",
    "MOVE_ORDER",
    "Labelled",
    "all_boards",
    "labelled",
    "random_boards",
    "space_size",
    "split_mask",
    "write_labelled",
]

#: The moves of the columns of an optimal-move mask (``Labelled.optimal_mask``, the Parquet
#: column ``optimal_mask``), as the Gymnasium environment's actions 0..3: the blank's direction.
MOVE_ORDER = "UDLR"

#: The most boards :func:`random_boards` draws at once: 2**30, 8 GiB of packed words (2**40
#: asked numpy for 8 TiB). Larger data sets go to a file a chunk at a time
#: (:func:`write_labelled`).
MAX_BOARDS = 1 << 30

#: The most boards :func:`labelled` solves in memory, and the largest ``chunk_size`` of
#: :func:`write_labelled`: about 300 bytes a 3x3 board with its labels and solution, 3 GB here.
MAX_LABELLED = 10_000_000

#: The most boards :func:`labelled` takes with ``path=True``: every board along each optimal
#: path comes too, about 2 kB a 3x3 board, 2 GB here.
MAX_LABELLED_PATHS = 1_000_000


def _target(shape: Shape, goal: BoardLike | None) -> Board:
    target = as_goal(Board.goal(shape), goal)
    if target.size > MAX_CELLS:
        raise BoardTooLargeError(
            f"data sets hold packed boards of at most {MAX_CELLS} cells, got shape "
            f"{target.shape}; random_board({target.shape}) draws one board of any shape"
        )
    return target


def space_size(shape: Shape) -> int:
    """How many boards of ``shape`` can reach a goal: half the arrangements, ``cells! / 2``.

    >>> space_size((3, 3)), space_size((4, 4))
    (181440, 10461394944000)
    """
    rows, cols = check_shape(shape)
    return math.factorial(rows * cols) // 2


def random_boards(
    n: int,
    shape: Shape = DEFAULT_SHAPE,
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    unique: bool = False,
    seed: int | None = None,
    distance: int | None = None,
    max_tries: int = MAX_TRIES,
    limits: Limits | None = None,
) -> np.ndarray:
    """``n`` boards drawn uniformly from those that can reach ``goal``, as packed words; with
    ``distance``, from those exactly that many optimal moves from it.

    Drawn with replacement unless ``unique=True``: 200,000 draws from the 181,440 boards of 3x3
    hold about 121,000 distinct ones. With ``unique=True`` no board repeats (sampling without
    replacement: each set of ``n`` boards equally likely, in random order), and ``n`` may be at
    most :func:`space_size`.

    Compiled: a Fisher-Yates shuffle per board written straight into the result, and the
    unsolvable half mapped one-to-one onto the solvable half by swapping tiles 1 and 2. Memory is
    the result (8 bytes a board) and nothing per board besides. Drawn in blocks of 65,536 boards,
    so Ctrl-C stops the draw within a block (milliseconds). A seed gives the same boards whatever
    the block size.

    Parameters
    ----------
    n : int
        How many boards.
    shape : tuple of int
        ``(rows, cols)``, at most 16 cells (default: (4, 4), the library's one default).
    rng : int, numpy.random.Generator or None
        Seed or generator; its bit generator supplies the random numbers.
    goal : Board-like, optional
        The boards can all reach this goal (default: the canonical goal of ``shape``).
    unique : bool
        No board twice. Redraws repeats while ``n`` is at most half the space; past that (on
        spaces of up to 10 cells, which :func:`all_boards` lists), a random choice among them
        all.
    seed : int, optional
        A seed, in place of ``rng`` (as :func:`~fastpuzzle.random_board` takes it).
    distance : int, optional
        Every board's optimal number of moves to ``goal``: drawn uniformly from an exact table
        on up to 9 cells, else scrambles solved optimally until one is that far, as
        :func:`~fastpuzzle.random_board` draws them (``max_tries`` scrambles a board at most,
        each solve bounded by ``limits``).

    Notes
    -----
    The draw is a compiled shuffle; earlier versions sorted blocks of random floats with numpy
    (2.6 kB a board in flight on 4x4). The distribution is the same, uniform on the boards that
    can reach ``goal``, but a seed gives other boards than it gave there.

    Returns
    -------
    numpy.ndarray
        ``n`` packed boards (uint64).

    Raises
    ------
    InvalidOptionError
        If ``n`` is not a whole number from 0 to :data:`MAX_BOARDS` (at most
        :func:`space_size` with ``unique=True``, or than the boards ``distance`` away where
        they are counted), or ``rng`` not a seed, a numpy Generator or None; or ``distance`` is
        farther than any board can be (as :func:`~fastpuzzle.random_board` says).
    DistanceNotFoundError
        With ``distance`` past 9 cells: if ``max_tries`` scrambles a board found none that far
        (a solve that ``limits`` stopped is a failed try).
    OutOfMemoryError
        If the system would not give the result's memory (8 bytes a board: 8 GiB at the
        bound), naming how much.
    BoardTooLargeError
        If the shape has more than 16 cells (packed words hold at most 16).

    Examples
    --------
    >>> boards = random_boards(1000, (3, 3), rng=1)
    >>> boards.dtype, boards.shape
    (dtype('uint64'), (1000,))
    >>> len(set(random_boards(181_440, (3, 3), rng=1, unique=True).tolist()))
    181440
    """
    count = whole("n", n, low=0, high=MAX_BOARDS, why="8 bytes a board: 8 GiB at most")
    target = _target(shape, goal)
    flag("unique", unique)
    generator = random_generator(rng_or_seed(rng, seed))
    if distance is not None:
        drawn = packed_at_distance(
            count, target, distance, generator, unique=unique, max_tries=max_tries, limits=limits
        )
        if isinstance(drawn, list):
            return np.array([board.packed for board in drawn], dtype=np.uint64)
        return drawn
    if not unique:
        return _draw(count, target, generator)
    space = space_size(target.shape)
    if count > space:
        raise InvalidOptionError(
            f"expected n of at most {space:,} with unique=True (every board of shape "
            f"{target.shape} that can reach the goal), got {count:,}"
        )
    if 2 * count > space and target.size <= _ALL_CELLS:
        every = all_boards(target.shape, goal=target)
        return every[generator.choice(space, size=count, replace=False)]
    out = _draw(count, target, generator)
    while True:
        # Keep each board's first draw, in the order drawn; redraw as many as were repeats.
        _, first = np.unique(out, return_index=True)
        if len(first) == count:
            return out
        kept = out[np.sort(first)]
        more = _draw(count - len(kept), target, generator)
        out = np.concatenate([kept, more])


def _draw(count: int, target: Board, generator: np.random.Generator) -> np.ndarray:
    bits = generator.bit_generator
    goal_word = target.packed
    try:
        out = np.empty(count, dtype=np.uint64)
    except MemoryError:
        # numpy's refusal says nothing of what asked for the memory, or how to ask for less.
        raise OutOfMemoryError(
            f"random_boards(n={count:,}) needs {size(8 * count)} for its packed boards (8 bytes "
            "a board), which the system would not give: draw fewer at a time, or write them to "
            "a file with write_labelled"
        ) from None
    # Python runs a Ctrl-C's handler only between calls: one call a block lets it stop the draw.
    for first in range(0, count, _BLOCK):
        block = out[first : first + _BLOCK]
        random_packed(block, bits, goal_word, target.rows, target.cols)
    return out


#: Boards drawn per compiled call by :func:`random_boards`: a block of 4x4 boards takes a few
#: milliseconds, the longest a Ctrl-C waits; the blocks cost no memory of their own.
_BLOCK = 1 << 16

#: The most cells of a shape whose boards :func:`all_boards` lists: 10 cells (2x5) are 1,814,400
#: boards (14.5 MB, a second); 12 (3x4) would be 239,500,800 (1.9 GB).
_ALL_CELLS = 10


def all_boards(shape: Shape = (3, 3), *, goal: BoardLike | None = None) -> np.ndarray:
    """Every board of ``shape`` that can reach ``goal``, as sorted packed words.

    For spaces that fit in memory: up to 10 cells (3x3: 181,440 boards; 2x5: 1,814,400).
    ``write_labelled(path, space_size(shape), shape, unique=True)`` labels every one of them
    (in random order): a data set with no repeat and nothing left out.

    Parameters
    ----------
    shape : tuple of int
        ``(rows, cols)``, at most 10 cells.
    goal : Board-like, optional
        The goal (default: the canonical goal of ``shape``).

    Returns
    -------
    numpy.ndarray
        :func:`space_size` packed boards (uint64), in increasing order.

    Raises
    ------
    BoardTooLargeError
        If the shape has more than 10 cells.

    Examples
    --------
    >>> boards = all_boards((2, 3))
    >>> len(boards), len(set(boards.tolist())) == space_size((2, 3))
    (360, True)
    """
    target = as_goal(Board.goal(check_shape(shape)), goal)
    cells = target.size
    if cells > _ALL_CELLS:
        raise BoardTooLargeError(
            f"all_boards lists shapes of at most {_ALL_CELLS} cells, got shape {target.shape} "
            f"({space_size(target.shape):,} boards); draw some with random_boards(n, "
            f"{target.shape}, unique=True) instead"
        )
    # Every arrangement of the tiles 0..cells-1 over the cells, built up a tile at a time by
    # inserting the next tile at every place.
    perms = np.zeros((1, 0), dtype=np.uint8)
    for tile in range(cells):
        count = len(perms)
        grown = np.empty((count * (tile + 1), tile + 1), dtype=np.uint8)
        for place in range(tile + 1):
            block = grown[place * count : (place + 1) * count]
            block[:, :place] = perms[:, :place]
            block[:, place] = tile
            block[:, place + 1 :] = perms[:, place:]
        perms = grown
    # Solvable for the goal: the parity of the cell mapping (where each tile stands in the goal)
    # equals the parity of the blank's distance from its goal cell.
    where = np.empty(cells, dtype=np.uint8)
    where[list(target.tiles)] = np.arange(cells, dtype=np.uint8)
    mapping = where[perms]
    parity = np.zeros(len(perms), dtype=bool)
    for i in range(cells):
        for j in range(i + 1, cells):
            parity ^= mapping[:, i] > mapping[:, j]
    blank = np.argmax(perms == 0, axis=1)
    goal_row, goal_col = divmod(target.blank, target.cols)
    moved = np.abs(blank // target.cols - goal_row) + np.abs(blank % target.cols - goal_col)
    perms = perms[parity == (moved % 2 == 1)]
    words = np.zeros(len(perms), dtype=np.uint64)
    for cell in range(cells):
        words |= perms[:, cell].astype(np.uint64) << np.uint64(4 * cell)
    words.sort()
    return words


def split_mask(boards: Any, test_size: float = 0.1, *, seed: int = 0) -> np.ndarray:
    """Which boards go to the test side of a train/test split: ``True`` for test.

    The side is a function of the board alone (a hash of its packed word and ``seed``), so a
    board that appears twice, in another file, or as a state along another board's path
    (``labelled(path=True)``) always lands on the same side: nothing leaks from training into
    test. A random split by rows puts a repeated board on both sides.

    Parameters
    ----------
    boards : array of uint64
        Packed boards (a Parquet file's ``board`` column, ``Labelled.boards`` or ``.states``).
    test_size : float
        The share of distinct boards on the test side, from 0 to 1 (about: each board is
        drawn by its hash).
    seed : int
        Another seed, another split.

    Returns
    -------
    numpy.ndarray
        A boolean mask as long as ``boards``.

    Examples
    --------
    >>> boards = random_boards(20_000, (3, 3), rng=1)
    >>> test = split_mask(boards, 0.2)
    >>> set(boards[test].tolist()) & set(boards[~test].tolist())
    set()
    >>> round(float(test.mean()), 1)
    0.2
    """
    share = real("test_size", test_size)
    if not 0.0 <= share <= 1.0:
        raise InvalidOptionError(f"expected test_size from 0 to 1, got {shown(test_size)}")
    key = whole("seed", seed, low=0, high=2**64 - 1)
    try:
        words = np.asarray(boards)
    except (ValueError, TypeError, OverflowError):  # ragged lists, objects numpy refuses
        words = np.empty((0, 0))
    if words.ndim != 1 or not (words.dtype == np.uint64 or words.size == 0):
        raise InvalidOptionError(
            f"expected boards as a 1-D uint64 array of packed boards, got {shown(boards)}"
        )
    # splitmix64 of the word and the seed: well mixed, so the shares are as asked.
    with np.errstate(over="ignore"):
        z = words.astype(np.uint64) + np.uint64((0x9E3779B97F4A7C15 * (key + 1)) % 2**64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    # The top 53 bits as a number in [0, 1).
    mask: np.ndarray = (z >> np.uint64(11)).astype(np.float64) * 2.0**-53 < share
    return mask


@dataclass(frozen=True)
class Labelled:
    """Boards with their exact distances to the goal.

    Attributes
    ----------
    boards : numpy.ndarray
        Packed start boards (uint64).
    lengths : numpy.ndarray
        Optimal solution length of each board.
    first_moves : numpy.ndarray
        The first move of an optimal solution (``""`` for the goal itself).
    optimal_mask : numpy.ndarray or None
        Every optimal first move: ``(n, 4)`` uint8, a column a move of :data:`MOVE_ORDER`
        (U, D, L, R), 1 where that move starts an optimal solution (all 0 at the goal); None
        with ``optimal_mask=False``.
    states, distances, origins : numpy.ndarray or None
        With ``path=True``: every board on each optimal path (start included, goal included),
        its exact distance to the goal, and the row of ``boards`` it came from.
    """

    shape: Shape
    boards: np.ndarray
    lengths: np.ndarray
    first_moves: np.ndarray
    optimal_mask: np.ndarray | None
    states: np.ndarray | None = None
    distances: np.ndarray | None = None
    origins: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.boards)

    def __repr__(self) -> str:
        rows, cols = self.shape
        lengths = f", lengths {self.lengths.min()}-{self.lengths.max()}" if len(self) else ""
        states = "" if self.states is None else f", {len(self.states):,} path states"
        return (
            f"<Labelled: {len(self):,} boards of {rows}x{cols}{lengths}{states}; "
            "to_pandas() for the rows>"
        )

    def to_pandas(self, *, states: bool = False) -> Any:
        """The boards as a pandas DataFrame, one row a board: ``board`` (its text,
        ``"1 2 3/4 5 6/7 8 _"``), ``packed`` (uint64), ``length`` (int32), ``first_move`` and,
        with the mask, ``optimal_U``, ``optimal_D``, ``optimal_L``, ``optimal_R`` (1 where that
        move starts an optimal solution). The columns :func:`write_labelled`'s file shares with
        it have its names and types (``packed``, ``length``, ``first_move``); the file writes
        the mask as one ``optimal_mask`` list and adds ``tiles`` and ``moves``.

        With ``states=True`` the path states instead (``labelled(..., path=True)``): ``board``,
        ``packed``, ``distance`` and ``origin`` (the row of the board whose path holds it).

        Raises
        ------
        ImportError
            Without pandas (``pip install 'fastpuzzle[pandas]'``).
        InvalidOptionError
            With ``states=True`` on data labelled without ``path=True``.
        """
        pd = require("pandas", "Labelled.to_pandas", "pandas")
        flag("states", states)
        if states:
            if self.states is None or self.distances is None or self.origins is None:
                raise InvalidOptionError(
                    "expected data labelled with path=True for states=True: these have no "
                    "path states"
                )
            return pd.DataFrame(
                {
                    "board": _texts(self.states, self.shape),
                    "packed": self.states,
                    "distance": self.distances,
                    "origin": self.origins,
                }
            )
        columns: dict[str, Any] = {
            "board": _texts(self.boards, self.shape),
            "packed": self.boards,
            "length": self.lengths.astype(np.int32, copy=False),
            "first_move": self.first_moves,
        }
        if self.optimal_mask is not None:
            for index, move in enumerate(MOVE_ORDER):
                columns[f"optimal_{move}"] = self.optimal_mask[:, index]
        return pd.DataFrame(columns)

    def _repr_html_(self) -> str:
        # A notebook shows what the data set is, then its rows as a DataFrame shows them (the
        # first and last five past 60), not arrays.
        rows, cols = self.shape
        summary = {
            "boards": f"{len(self):,} of {rows}x{cols}",
            "distinct boards": f"{len(np.unique(self.boards)):,}",
            "length (min / mean / max)": (
                f"{self.lengths.min()} / {self.lengths.mean():.2f} / {self.lengths.max()}"
                if len(self)
                else "-"
            ),
        }
        if self.states is not None:
            summary["path states"] = f"{len(self.states):,}"
        cells = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
            for k, v in summary.items()
        )
        header = (
            "board",
            "length",
            "first move",
            *(("optimal moves",) if self.optimal_mask is not None else ()),
        )

        def row(i: int) -> tuple[str, ...]:
            board = Board.from_packed(int(self.boards[i]), self.shape).to_string()
            first = str(self.first_moves[i]) or "-"
            if self.optimal_mask is None:
                return (board, str(int(self.lengths[i])), first)
            moves = "".join(m for m, on in zip(MOVE_ORDER, self.optimal_mask[i]) if on) or "-"
            return (board, str(int(self.lengths[i])), first, moves)

        table = Table(header, len(self), row, frozenset({1})).html(MAX_ROWS)
        return f"<div><table><caption>Labelled</caption>{cells}</table>{table}</div>"


def _texts(words: np.ndarray, shape: Shape) -> list[str]:
    """``Board.to_string()`` of each packed board, a block of rows per numpy pass."""
    out: list[str] = []
    for first in range(0, len(words), _BLOCK):
        matrix = packed_board_texts(np.asarray(words[first : first + _BLOCK]), shape)
        rows = np.ascontiguousarray(matrix).view(f"S{matrix.shape[1]}").reshape(-1)
        out.extend(text.replace(b"\0", b"").decode("ascii") for text in rows.tolist())
    return out


def _path_states(word: int, blank: int, moves: str, cols: int) -> list[int]:
    offset = {"U": -cols, "D": cols, "L": -1, "R": 1}
    out = [word]
    for move in moves:
        target = blank + offset[move]
        tile = (word >> (4 * target)) & 15
        word = word - (tile << (4 * target)) + (tile << (4 * blank))
        blank = target
        out.append(word)
    return out


def _all_solved(result: BatchResult, first_row: int) -> None:
    """Raise the limit's error for the first row of ``result`` that was not solved."""
    if result.solved.all():
        return
    failed = int(np.flatnonzero(~result.solved)[0])
    status = str(result.status[failed])
    stats = SearchStats(
        expanded=int(result.expanded[failed]),
        generated=int(result.generated[failed]),
        seconds=float(result.seconds[failed]),
    )
    raise limit_error(status)(
        f"board {first_row + failed} was not solved ({status}): {result.messages[failed]}", stats
    )


def _optimal_mask(
    words: np.ndarray,
    result: BatchResult,
    target: Board,
    limits: Limits | None,
    workers: int | None,
) -> np.ndarray:
    """``(n, 4)`` uint8: 1 where a move (U, D, L, R) of a solved board reaches a board one move
    nearer. A neighbour is one move nearer or one further (every move changes the parity of
    the distance): the solution's own first move is nearer; the others are solved, with a
    depth limit of one less than the board's length past 9 cells (a further neighbour's search
    then stops early, at ``depth_limit``)."""
    count, rows, cols = len(words), target.rows, target.cols
    lengths = np.asarray(result.lengths, dtype=np.int64)
    mask = np.zeros((count, 4), dtype=np.uint8)
    if count == 0:
        return mask
    shifts = 4 * np.arange(target.size, dtype=np.uint64)
    blank = np.argmax(((words[:, None] >> shifts[None, :]) & np.uint64(15)) == 0, axis=1)
    row, col = blank // cols, blank % cols
    first = np.array([moves[:1] for moves in result.moves], dtype="<U1")
    todo_rows: list[np.ndarray] = []
    todo_words: list[np.ndarray] = []
    todo_moves: list[int] = []
    for k, (move, legal, step) in enumerate(
        (
            ("U", row > 0, -cols),
            ("D", row < rows - 1, cols),
            ("L", col > 0, -1),
            ("R", col < cols - 1, 1),
        )
    ):
        mask[:, k] = (first == move).astype(np.uint8)
        open_ = np.flatnonzero(legal & (lengths > 0) & (first != move))
        if len(open_) == 0:
            continue
        b = blank[open_].astype(np.uint64)
        q = (blank[open_] + step).astype(np.uint64)
        w = words[open_]
        tile = (w >> (np.uint64(4) * q)) & np.uint64(15)
        todo_rows.append(open_)
        todo_words.append(w - (tile << (np.uint64(4) * q)) + (tile << (np.uint64(4) * b)))
        todo_moves.extend([k] * len(open_))
    if not todo_rows:
        return mask
    at = np.concatenate(todo_rows)
    neighbours = np.concatenate(todo_words)
    column = np.array(todo_moves, dtype=np.int64)
    wanted = lengths[at] - 1
    if target.size <= 9:
        groups = [np.arange(len(at))]
    else:
        groups = [np.flatnonzero(wanted == length) for length in np.unique(wanted).tolist()]
    for group in groups:
        bound = limits or Limits()
        if target.size > 9:
            depth = int(wanted[group[0]])
            if bound.max_depth is None or bound.max_depth > depth:
                bound = replace(bound, max_depth=depth)
        found = solve_many(
            neighbours[group], target, shape=target.shape, limits=bound, workers=workers
        )
        stopped = ~found.solved & (np.asarray(found.status) != "depth_limit")
        if stopped.any():
            bad = int(np.flatnonzero(stopped)[0])
            status = str(found.status[bad])
            raise limit_error(status)(
                f"a neighbour of board {int(at[group[bad]])} was not solved ({status}): "
                f"{found.messages[bad]}",
                SearchStats(
                    expanded=int(found.expanded[bad]),
                    generated=int(found.generated[bad]),
                    seconds=float(found.seconds[bad]),
                ),
            )
        nearer = found.solved & (np.asarray(found.lengths) == wanted[group])
        mask[at[group], column[group]] = nearer.astype(np.uint8)
    return mask


def labelled(
    n: int,
    shape: Shape = OLD_DEFAULT_SHAPE,
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    path: bool = False,
    limits: Limits | None = None,
    workers: int | None = None,
    unique: bool | None = None,
    optimal_mask: bool = True,
    seed: int | None = None,
) -> Labelled:
    """``n`` random boards solved optimally: training data for learned heuristics.

    The boards are those of ``random_boards(n, shape, rng=rng, goal=goal, unique=unique)``
    (``seed=`` gives a seed in place of ``rng``):
    by default (``unique=None``) no board twice where the space allows it (``n`` at most
    :func:`space_size`), else drawn with replacement after a
    :class:`~fastpuzzle.errors.FastPuzzleWarning` that says what share of the rows repeat a
    board; ``unique=False`` draws with replacement, ``unique=True`` refuses an ``n`` past the
    space. Each is labelled with its optimal length,
    one optimal first move and every optimal first move (``optimal_mask``: its neighbours
    are solved too, a table walk up to 9 cells, about twice the time of the lengths alone on
    3x3, and a search a neighbour past that; ``optimal_mask=False`` saves that).

    With ``path=True`` every board along each optimal path comes too, labelled with its exact
    distance (a shortest path's suffix is a shortest path), at no extra search cost. Split
    such data with :func:`split_mask` on the boards (or states), which keeps each board on one
    side.

    Omitting ``shape`` gives 3x3 boards after a ``FutureWarning``: the default becomes (4, 4),
    the library's default, in the next minor release (pass ``shape=(3, 3)`` to keep 3x3).

    Memory holds every board and its labels (about 300 bytes a 3x3 board, 2 kB with
    ``path=True``), so ``n`` is at most :data:`MAX_LABELLED` (:data:`MAX_LABELLED_PATHS` with
    ``path=True``); :func:`write_labelled` writes more to a file, a chunk at a time.

    Raises
    ------
    InvalidOptionError
        If ``n`` is not a whole number from 0 to its bound, or another option is not valid.
    SearchLimitError
        If a board was not solved within ``limits``: the error of the limit that stopped it
        (:class:`~fastpuzzle.TimeLimitError`...), with that board's statistics.

    Examples
    --------
    >>> data = labelled(100, (3, 3), rng=2, path=True)
    >>> bool((data.distances[data.origins == 0] == range(data.lengths[0], -1, -1)).all())
    True
    """
    shape = old_default_shape(shape, "labelled()")
    flag("path", path)
    flag("optimal_mask", optimal_mask)
    most = MAX_LABELLED_PATHS if path else MAX_LABELLED
    memory = "in memory, with every board of each path" if path else "in memory"
    count = whole("n", n, low=0, high=most, why=f"labelled boards are held {memory}; "
                  "write_labelled writes more to a file")  # fmt: skip
    target = _target(shape, goal)
    unique = _unique_by_default(unique, count, target.shape)
    boards = random_boards(count, shape, rng=rng_or_seed(rng, seed), goal=target, unique=unique)
    result = solve_many(boards, target, shape=target.shape, limits=limits, workers=workers)
    _all_solved(result, 0)
    first = np.array([moves[:1] for moves in result.moves], dtype="<U1")
    mask = _optimal_mask(boards, result, target, limits, workers) if optimal_mask else None
    if not path:
        return Labelled(target.shape, boards, result.lengths.copy(), first, mask)
    states: list[int] = []
    distances: list[int] = []
    origins: list[int] = []
    for row, (word, moves) in enumerate(zip(boards.tolist(), result.moves)):
        tiles = [(word >> (4 * i)) & 15 for i in range(target.size)]
        walk = _path_states(word, tiles.index(0), moves, target.cols)
        states.extend(walk)
        distances.extend(range(len(moves), -1, -1))
        origins.extend([row] * len(walk))
    return Labelled(
        target.shape,
        boards,
        result.lengths.copy(),
        first,
        mask,
        np.array(states, dtype=np.uint64),
        np.array(distances, dtype=np.int32),
        np.array(origins, dtype=np.int64),
    )


def _unique_by_default(unique: object, n: object, shape: Shape) -> bool:
    """``unique`` of :func:`labelled` and :func:`write_labelled`, checked; None (the default):
    True where ``n`` boards of ``shape`` can all differ, else False after a warning that says
    what share of the rows will repeat a board (its expected value: ``n`` draws from ``S``
    boards hold ``S (1 - (1 - 1/S)^n)`` distinct ones)."""
    if unique is not None:
        flag("unique", unique)
        return bool(unique)
    count = whole("n", n, low=0)
    space = space_size(shape)
    if count <= space:
        return True
    distinct = space * -math.expm1(count * math.log1p(-1 / space))
    share = 1 - distinct / count
    warnings.warn(
        f"{count:,} boards of {shape[0]}x{shape[1]} cannot all differ: only {space:,} can reach "
        f"the goal, so they are drawn with repeats, and about {100 * share:.0f} % of the rows "
        "will repeat a board of an earlier row; pass unique=False to draw with repeats without "
        "this warning, or n at most space_size(shape) for boards that all differ",
        FastPuzzleWarning,
        stacklevel=3,
    )
    return False


#: The suffixes of a path :func:`write_labelled` writes to (none is one).
_PARQUET_SUFFIXES = ("", ".parquet", ".pq", ".parq")

#: Boards solved and written per step of :func:`write_labelled` (one Parquet row group): about
#: 100 MB in flight for 3x3 boards (pyarrow's buffers included), whatever ``n``.
DEFAULT_CHUNK = 1 << 17


def write_labelled(
    path: str | os.PathLike[str],
    n: int,
    shape: Shape = OLD_DEFAULT_SHAPE,
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    limits: Limits | None = None,
    workers: int | None = None,
    progress: ProgressArg = None,
    unique: bool | None = None,
    optimal_mask: bool = True,
    seed: int | None = None,
) -> Path:
    """Write ``n`` random boards solved optimally to a Parquet file, a chunk at a time.

    The file is Parquet whatever its name, so ``path`` must end in ``.parquet`` (or ``.pq``,
    ``.parq``, or have no suffix): a ``.csv`` name is refused rather than given Parquet bytes
    (``pandas.read_parquet(path).to_csv(...)`` makes a CSV file of it).

    Memory stays that of one chunk (``chunk_size`` boards drawn, solved and written as one row
    group), whatever ``n``: ten million 3x3 boards fit in a few hundred megabytes. The file is
    written under a temporary name beside ``path`` and renamed into place once whole, so
    ``path`` never holds part of a data set; Ctrl-C (or any error) removes the temporary file,
    and the next write of ``path`` removes the one a killed writer (``kill -9``) left.
    The boards are those of ``random_boards(n, shape, rng=rng, goal=goal, unique=unique)``,
    whatever ``chunk_size``. By default (``unique=None``) no board is written twice where the
    space allows it (``n`` at most :func:`space_size`: ``n=space_size(shape)`` writes every
    board once); past that they are drawn with replacement after a
    :class:`~fastpuzzle.errors.FastPuzzleWarning` that says what share of the rows repeat a
    board (10 M rows of the 181,440 3x3 boards: 98 %, each board 55 times on average).
    ``unique=False`` draws with replacement without a word (200,000 rows of 3x3 then hold about
    39 % repeats), ``unique=True`` refuses an ``n`` past the space. Unique boards are drawn
    before the first chunk (8 bytes a board). Needs pyarrow (``pip install 'fastpuzzle[parquet]'``).

    Columns, one row a board:

    - ``board`` (uint64): the packed board, cell i at bits 4i..4i+3;
    - ``tiles`` (fixed-size list of ``rows * cols`` uint8): the tile in each cell, row by row,
      0 for the blank;
    - ``length`` (uint8): the optimal number of moves to ``goal``;
    - ``moves`` (string): one optimal solution, U/D/L/R naming the direction the blank moves;
    - ``first_move`` (string): its first move (``""`` for the goal itself);
    - ``optimal_mask`` (fixed-size list of 4 uint8): every optimal first move, a 1 for each of
      U, D, L, R (:data:`MOVE_ORDER`) that starts an optimal solution, all 0 at the goal (a
      table walk a neighbour up to 9 cells, about twice the time of the other columns on 3x3;
      past that a search a neighbour, which costs more than the board's own); left out with
      ``optimal_mask=False``.

    Split it with :func:`split_mask` on the ``board`` column, which keeps each board on one side.

    The file's metadata (``fastpuzzle.shape``, ``fastpuzzle.goal``) names the shape and the
    packed goal.

    Parameters
    ----------
    path : path
        The Parquet file to write (replaced if it exists).
    n : int
        How many boards, at most :data:`MAX_BOARDS` (tens of gigabytes of Parquet).
    shape : tuple of int
        ``(rows, cols)``, at most 16 cells. Omitted, it is still (3, 3), after a
        ``FutureWarning``: it becomes (4, 4), the library's default, in the next minor release.
    rng : int, numpy.random.Generator or None
        Seed or generator of the boards (or ``seed=``, a seed in its place).
    goal : Board-like, optional
        The goal (default: the canonical goal of ``shape``).
    chunk_size : int
        Boards per step and per row group, at most :data:`MAX_LABELLED`.
    limits : Limits, optional
        Limits for each board's search; a board not solved within them stops the data set.
    workers : int, optional
        Threads (default: every core).
    progress : bool or callable, optional
        ``True`` shows a progress bar on stderr; a callable receives ``(done, n)``.
    unique : bool or None
        No board twice: None (the default) where the space allows, True always (``n`` at most
        :func:`space_size`), False never (draws with replacement).
    optimal_mask : bool
        Write the ``optimal_mask`` column.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    InvalidOptionError
        Before any board is solved, if ``n`` or another option is not valid, if ``path`` is a
        folder, is in a folder that does not exist, has a name longer than the folder's file
        system takes (most take 255 bytes, less 26 for the temporary file's name), ends in a
        suffix other than Parquet's, or is where no file can be created (no permission, a
        read-only mount, ``/proc`` or ``/sys``).
    ImportError
        Without pyarrow.
    SearchLimitError
        If a board was not solved within ``limits`` (nothing is left at ``path``).
    KeyboardInterrupt
        On Ctrl-C, saying how many boards were written (nothing is left at ``path``).
    OSError
        If the file cannot be written for another reason (a full disk; nothing is left at
        ``path``).

    Examples
    --------
    Every 3x3 board once, in random order, with a progress bar (:doc:`datasets` loads them
    for training):

    .. code-block:: python

        fp.write_labelled("boards.parquet", fp.space_size((3, 3)), (3, 3), rng=1)
    """
    shape = old_default_shape(shape, "write_labelled()")
    target = _target(shape, goal)
    count = whole("n", n, low=0, high=MAX_BOARDS, why="the most random_boards draws at once; "
                  "write more boards as several files")  # fmt: skip
    step = whole(
        "chunk_size", chunk_size, low=1, high=MAX_LABELLED, why="a chunk is held in memory"
    )
    flag("optimal_mask", optimal_mask)
    out = optional_path("path", path)
    if out is None or "\0" in str(out) or os.path.isdir(out):
        raise InvalidOptionError(f"expected path as the path of a file, got {shown(path)}")
    problem = unwritable_file(out, suffix=_PARTIAL)
    if problem is not None:
        raise InvalidOptionError(f"path: {problem}")
    if out.suffix.lower() not in _PARQUET_SUFFIXES:
        raise InvalidOptionError(
            f"write_labelled writes Parquet: expected a path ending in .parquet, got "
            f"{shown(str(path))} (for {out.suffix} convert the Parquet file, e.g. with "
            "pandas.read_parquet)"
        )
    check_progress(progress)
    unique = _unique_by_default(unique, count, target.shape)
    pa = require("pyarrow", "write_labelled", "parquet")
    parquet = require("pyarrow.parquet", "write_labelled", "parquet")
    generator = random_generator(rng_or_seed(rng, seed))
    drawn = None
    if unique:
        drawn = random_boards(count, target.shape, rng=generator, goal=target, unique=True)
    schema = _schema(pa, target, optimal_mask)
    tracker = Progress(count, progress)
    _remove_dead_partials(out)
    written = 0
    try:
        with contextlib.ExitStack() as files:
            try:
                stream = files.enter_context(atomic_writer(out, suffix=_PARTIAL, lock=True))
            except OSError as error:
                if error.errno not in UNWRITABLE_ERRNOS:
                    raise
                raise InvalidOptionError(
                    f"path: no file can be written at {shown(str(path))} "
                    f"({os.strerror(error.errno).lower()})"
                ) from error
            writer = files.enter_context(parquet.ParquetWriter(stream, schema))
            for first in range(0, count, step):
                if drawn is None:
                    words = random_boards(
                        min(step, count - first), rng=generator, goal=target, shape=target.shape
                    )
                else:
                    words = drawn[first : first + step]
                result = solve_many(
                    words, target, shape=target.shape, limits=limits, workers=workers
                )
                _all_solved(result, first)
                mask = None
                if optimal_mask:
                    mask = _optimal_mask(words, result, target, limits, workers)
                writer.write_table(_labelled_table(pa, schema, words, result, mask, target))
                written += len(words)
                tracker.advance(len(words))
    except KeyboardInterrupt:
        # Not solve_many's own message: its chunks and counts are of one step of this call.
        raise KeyboardInterrupt(
            f"write_labelled() interrupted: {written:,} of {count:,} boards written, and none "
            f"kept: {shown(str(path))} was left as it was"
        ) from None
    finally:
        tracker.close()
    return out


#: The ending of the temporary file's name (``.NAME.XXXXXXXX.partial``).
_PARTIAL = ".partial"

#: Seconds a temporary file must have been left unwritten before another writer removes it
#: (:func:`_remove_dead_partials`): on Windows a writer locks its file an instant after
#: creating it under its name (elsewhere the file has its lock before its name).
_PARTIAL_GRACE = 5.0


def _remove_dead_partials(out: Path) -> None:
    """Remove the temporary files (``.NAME.XXXXXXXX.partial``) that writers of ``out`` killed
    mid-write left: a running writer holds its file's lock, which the system drops with the
    process however it ends (``kill -9`` included)."""
    for path in out.parent.glob(f".{glob.escape(out.name)}.*{_PARTIAL}"):
        try:
            with open_regular(path) as stream:
                dead = try_lock(stream.fileno())  # let go at once, by the close
                fresh = time.time() - os.fstat(stream.fileno()).st_mtime < _PARTIAL_GRACE
            if dead and not fresh:
                path.unlink(missing_ok=True)
        except OSError:
            continue  # gone already, or not ours to read: the write itself says what is wrong


def _schema(pa: Any, target: Board, optimal_mask: bool) -> Any:
    # The names and types of Labelled.to_pandas() where both have a column: ``packed`` the
    # uint64 board (``board`` is the text there), ``length`` int32 (stored as Parquet's INT32
    # whether uint8 or int32, so it costs nothing on disk).
    fields = [
        pa.field("packed", pa.uint64()),
        pa.field("tiles", pa.list_(pa.uint8(), target.size)),
        pa.field("length", pa.int32()),
        pa.field("moves", pa.string()),
        pa.field("first_move", pa.string()),
    ]
    if optimal_mask:
        fields.append(pa.field("optimal_mask", pa.list_(pa.uint8(), 4)))
    meta = {
        "fastpuzzle.shape": f"{target.rows}x{target.cols}",
        "fastpuzzle.goal": str(target.packed),
    }
    return pa.schema(fields, metadata=meta)


def _labelled_table(
    pa: Any,
    schema: Any,
    words: np.ndarray,
    result: BatchResult,
    mask: np.ndarray | None,
    target: Board,
) -> Any:
    """One chunk's rows, every column built from numpy buffers (no Python object a row)."""
    cells = target.size
    # A cell at a time: a (boards, cells) uint64 intermediate would be 72 bytes a 3x3 board.
    tiles = np.empty((len(words), cells), dtype=np.uint8)
    for cell in range(cells):
        tiles[:, cell] = (words >> np.uint64(4 * cell)) & np.uint64(15)
    data, offsets = result.moves.buffers()
    moves = pa.StringArray.from_buffers(
        len(words), pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)
    )
    moved = np.diff(offsets) > 0
    first_bytes = np.frombuffer(data, dtype=np.uint8)[offsets[:-1][moved]]
    first_offsets = np.zeros(len(words) + 1, dtype=np.int32)
    np.cumsum(moved, out=first_offsets[1:])
    first = pa.StringArray.from_buffers(
        len(words), pa.py_buffer(first_offsets), pa.py_buffer(first_bytes.tobytes())
    )
    columns = [
        pa.array(words, pa.uint64()),
        pa.FixedSizeListArray.from_arrays(pa.array(tiles.reshape(-1)), cells),
        pa.array(np.asarray(result.lengths).astype(np.int32)),
        moves,
        first,
    ]
    if mask is not None:
        columns.append(pa.FixedSizeListArray.from_arrays(pa.array(mask.reshape(-1)), 4))
    return pa.Table.from_arrays(columns, schema=schema)
