"""Data sets of solved boards: many random boards at once, labelled with optimal lengths, in
memory (:func:`labelled`) or streamed to a Parquet file (:func:`write_labelled`).

Boards are packed ``uint64`` words (cell i at bits 4i..4i+3), so at most 16 cells. Moves are U,
D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import glob
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fastpuzzle._core._generate import random_packed
from fastpuzzle._util.checks import flag, optional_path, random_generator, shown, whole
from fastpuzzle._util.files import atomic_writer, open_regular, try_lock
from fastpuzzle._util.optional import require
from fastpuzzle.batch import BatchResult, solve_many
from fastpuzzle.batch.chunk import limit_error
from fastpuzzle.batch.run import Progress, ProgressArg, check_progress
from fastpuzzle.board import MAX_CELLS, Board, BoardLike, Shape, as_goal
from fastpuzzle.errors import BoardTooLargeError, InvalidOptionError
from fastpuzzle.generate import RandomSource
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchStats

__all__ = ["Labelled", "labelled", "random_boards", "write_labelled"]


def _target(shape: Shape, goal: BoardLike | None) -> Board:
    target = as_goal(Board.goal(shape), goal)
    if target.size > MAX_CELLS:
        raise BoardTooLargeError(
            f"data sets hold packed boards of at most {MAX_CELLS} cells, got shape {target.shape}"
        )
    return target


def random_boards(
    n: int, shape: Shape = (4, 4), *, rng: RandomSource = None, goal: BoardLike | None = None
) -> np.ndarray:
    """``n`` boards drawn uniformly from those that can reach ``goal``, as packed words.

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
        ``(rows, cols)``, at most 16 cells.
    rng : int, numpy.random.Generator or None
        Seed or generator; its bit generator supplies the random numbers.
    goal : Board-like, optional
        The boards can all reach this goal (default: the canonical goal of ``shape``).

    Returns
    -------
    numpy.ndarray
        ``n`` packed boards (uint64).

    Notes
    -----
    The draw is a compiled shuffle; earlier versions sorted blocks of random floats with numpy
    (2.6 kB a board in flight on 4x4). The distribution is the same, uniform on the boards that
    can reach ``goal``, but a seed gives other boards than it gave there.

    Raises
    ------
    InvalidOptionError
        If ``n`` is not a whole number >= 0, or ``rng`` not a seed, a numpy Generator or None.
    BoardTooLargeError
        If the shape has more than 16 cells (packed words hold at most 16).

    Examples
    --------
    >>> boards = random_boards(1000, (3, 3), rng=1)
    >>> boards.dtype, boards.shape
    (dtype('uint64'), (1000,))
    """
    count = whole("n", n, low=0)
    target = _target(shape, goal)
    bits = random_generator(rng).bit_generator
    goal_word = target.packed
    out = np.empty(count, dtype=np.uint64)
    # Python runs a Ctrl-C's handler only between calls: one call a block lets it stop the draw.
    for first in range(0, count, _BLOCK):
        block = out[first : first + _BLOCK]
        random_packed(block, bits, goal_word, target.rows, target.cols)
    return out


#: Boards drawn per compiled call by :func:`random_boards`: a block of 4x4 boards takes a few
#: milliseconds, the longest a Ctrl-C waits; the blocks cost no memory of their own.
_BLOCK = 1 << 16


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
    states, distances, origins : numpy.ndarray or None
        With ``path=True``: every board on each optimal path (start included, goal included),
        its exact distance to the goal, and the row of ``boards`` it came from.
    """

    shape: Shape
    boards: np.ndarray
    lengths: np.ndarray
    first_moves: np.ndarray
    states: np.ndarray | None = None
    distances: np.ndarray | None = None
    origins: np.ndarray | None = None


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


def labelled(
    n: int,
    shape: Shape = (3, 3),
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    path: bool = False,
    limits: Limits | None = None,
    workers: int | None = None,
) -> Labelled:
    """``n`` random boards solved optimally: training data for learned heuristics.

    With ``path=True`` every board along each optimal path comes too, labelled with its exact
    distance (a shortest path's suffix is a shortest path), at no extra search cost.

    Raises
    ------
    SearchLimitError
        If a board was not solved within ``limits``: the error of the limit that stopped it
        (:class:`~fastpuzzle.TimeLimitError`...), with that board's statistics.

    Examples
    --------
    >>> data = labelled(100, (3, 3), rng=2, path=True)
    >>> bool((data.distances[data.origins == 0] == range(data.lengths[0], -1, -1)).all())
    True
    """
    flag("path", path)
    target = _target(shape, goal)
    boards = random_boards(n, shape, rng=rng, goal=target)
    result = solve_many(boards, target, shape=target.shape, limits=limits, workers=workers)
    _all_solved(result, 0)
    first = np.array([moves[:1] for moves in result.moves], dtype="<U1")
    if not path:
        return Labelled(target.shape, boards, result.lengths.copy(), first)
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
        np.array(states, dtype=np.uint64),
        np.array(distances, dtype=np.int32),
        np.array(origins, dtype=np.int64),
    )


#: Boards solved and written per step of :func:`write_labelled` (one Parquet row group): about
#: 100 MB in flight for 3x3 boards (pyarrow's buffers included), whatever ``n``.
DEFAULT_CHUNK = 1 << 17


def write_labelled(
    path: str | os.PathLike[str],
    n: int,
    shape: Shape = (3, 3),
    *,
    rng: RandomSource = None,
    goal: BoardLike | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    limits: Limits | None = None,
    workers: int | None = None,
    progress: ProgressArg = None,
) -> Path:
    """Write ``n`` random boards solved optimally to a Parquet file, a chunk at a time.

    Memory stays that of one chunk (``chunk_size`` boards drawn, solved and written as one row
    group), whatever ``n``: ten million 3x3 boards fit in a few hundred megabytes. The file is
    written under a temporary name beside ``path`` and renamed into place once whole, so
    ``path`` never holds part of a data set; Ctrl-C (or any error) removes the temporary file,
    and the next write of ``path`` removes the one a killed writer (``kill -9``) left.
    The boards are those of ``random_boards(n, shape, rng=rng, goal=goal)``, whatever
    ``chunk_size``. Needs pyarrow (``pip install 'fastpuzzle[parquet]'``).

    Columns, one row a board:

    - ``board`` (uint64): the packed board, cell i at bits 4i..4i+3;
    - ``tiles`` (fixed-size list of ``rows * cols`` uint8): the tile in each cell, row by row,
      0 for the blank;
    - ``length`` (uint8): the optimal number of moves to ``goal``;
    - ``moves`` (string): one optimal solution, U/D/L/R naming the direction the blank moves;
    - ``first_move`` (string): its first move (``""`` for the goal itself).

    The file's metadata (``fastpuzzle.shape``, ``fastpuzzle.goal``) names the shape and the
    packed goal.

    Parameters
    ----------
    path : path
        The Parquet file to write (replaced if it exists).
    n : int
        How many boards.
    shape : tuple of int
        ``(rows, cols)``, at most 16 cells.
    rng : int, numpy.random.Generator or None
        Seed or generator of the boards.
    goal : Board-like, optional
        The goal (default: the canonical goal of ``shape``).
    chunk_size : int
        Boards per step and per row group.
    limits : Limits, optional
        Limits for each board's search; a board not solved within them stops the data set.
    workers : int, optional
        Threads (default: every core).
    progress : bool or callable, optional
        ``True`` shows a progress bar on stderr; a callable receives ``(done, n)``.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ImportError
        Without pyarrow.
    SearchLimitError
        If a board was not solved within ``limits`` (nothing is left at ``path``).

    Examples
    --------
    Ten million 3x3 boards with a progress bar (:doc:`datasets` loads them for training):

    .. code-block:: python

        fp.write_labelled("boards.parquet", 10_000_000, (3, 3), rng=1, progress=True)
    """
    target = _target(shape, goal)
    count = whole("n", n, low=0)
    step = whole("chunk_size", chunk_size, low=1)
    out = optional_path("path", path)
    if out is None or "\0" in str(out) or out.is_dir():
        raise InvalidOptionError(f"expected path as the path of a file, got {shown(path)}")
    check_progress(progress)
    pa = require("pyarrow", "write_labelled", "parquet")
    parquet = require("pyarrow.parquet", "write_labelled", "parquet")
    generator = random_generator(rng)
    schema = _schema(pa, target)
    tracker = Progress(count, progress)
    _remove_dead_partials(out)
    try:
        with (
            atomic_writer(out, suffix=".partial", lock=True) as stream,
            parquet.ParquetWriter(stream, schema) as writer,
        ):
            for first in range(0, count, step):
                words = random_boards(
                    min(step, count - first), rng=generator, goal=target, shape=target.shape
                )
                result = solve_many(
                    words, target, shape=target.shape, limits=limits, workers=workers
                )
                _all_solved(result, first)
                writer.write_table(_labelled_table(pa, schema, words, result, target))
                tracker.advance(len(words))
    finally:
        tracker.close()
    return out


#: Seconds a temporary file must have been left unwritten before another writer removes it: a
#: writer locks its file an instant after creating it (:func:`_remove_dead_partials`).
_PARTIAL_GRACE = 5.0


def _remove_dead_partials(out: Path) -> None:
    """Remove the temporary files (``.NAME.XXXXXXXX.partial``) that writers of ``out`` killed
    mid-write left: a running writer holds its file's lock, which the system drops with the
    process however it ends (``kill -9`` included)."""
    for path in out.parent.glob(f".{glob.escape(out.name)}.*.partial"):
        try:
            with open_regular(path) as stream:
                dead = try_lock(stream.fileno())  # let go at once, by the close
                fresh = time.time() - os.fstat(stream.fileno()).st_mtime < _PARTIAL_GRACE
            if dead and not fresh:
                path.unlink(missing_ok=True)
        except OSError:
            continue  # gone already, or not ours to read: the write itself says what is wrong


def _schema(pa: Any, target: Board) -> Any:
    fields = [
        pa.field("board", pa.uint64()),
        pa.field("tiles", pa.list_(pa.uint8(), target.size)),
        pa.field("length", pa.uint8()),
        pa.field("moves", pa.string()),
        pa.field("first_move", pa.string()),
    ]
    meta = {
        "fastpuzzle.shape": f"{target.rows}x{target.cols}",
        "fastpuzzle.goal": str(target.packed),
    }
    return pa.schema(fields, metadata=meta)


def _labelled_table(
    pa: Any, schema: Any, words: np.ndarray, result: BatchResult, target: Board
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
        pa.array(np.asarray(result.lengths).astype(np.uint8)),
        moves,
        first,
    ]
    return pa.Table.from_arrays(columns, schema=schema)
