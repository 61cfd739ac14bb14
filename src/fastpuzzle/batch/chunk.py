"""Solving one chunk of rows: each row on its own, an error becoming that row's status.

Packed rows under the ``"auto"`` policy take a faster path that builds no Board per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast, overload

import numpy as np

from fastpuzzle._core import _batch
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import idastar
from fastpuzzle._solver.defects import check_result
from fastpuzzle._solver.policy import auto_choice
from fastpuzzle._solver.prepared import Prepared
from fastpuzzle._solver.request import Request
from fastpuzzle.algorithms import AlgorithmName
from fastpuzzle.batch.prep import prepare_packed
from fastpuzzle.batch.result import COLUMNS, ChunkResult
from fastpuzzle.board import MAX_CELLS, Board, Shape
from fastpuzzle.errors import (
    DepthLimitError,
    FastPuzzleError,
    InternalError,
    InvalidBoardError,
    MemoryLimitError,
    NodeLimitError,
    SearchLimitError,
    TimeLimitError,
    UnsolvableError,
)
from fastpuzzle.heuristics import HeuristicName
from fastpuzzle.limits import Limits
from fastpuzzle.pdb.search_tables import exact_table
from fastpuzzle.results import Status, stats_from_core
from fastpuzzle.solve import solve

__all__ = ["BatchSpec", "error_status", "limit_error", "solve_chunk"]

# Most specific first: the first matching class names the row's status.
_ERROR_STATUS: tuple[tuple[type[BaseException], str], ...] = (
    (UnsolvableError, "unsolvable"),
    (InvalidBoardError, "invalid"),
    (TimeLimitError, "time_limit"),
    (NodeLimitError, "node_limit"),
    (MemoryLimitError, "memory_limit"),
    (DepthLimitError, "depth_limit"),
    (SearchLimitError, "exhausted"),
    (FastPuzzleError, "error"),
)


@dataclass(frozen=True)
class BatchSpec:
    """Everything a chunk needs besides its rows (small and picklable, for Dask)."""

    shape: Shape | None
    packed: bool
    goal: tuple[int, ...] | None
    algorithm: str
    heuristic: str
    limits: Limits | None
    optimal: bool = True


def _row_board(row: Any, spec: BatchSpec) -> Board:
    if spec.packed:
        if spec.shape is None:
            raise InvalidBoardError("packed boards need shape=(rows, cols)")
        return Board.from_packed(int(row), shape=spec.shape)
    return Board(row, shape=spec.shape)


class BoardTexts(Sequence[str]):
    """Each row's board as ``Board.to_string()`` text, formatted when read, so that a result
    carries its boards without a second copy of them; a row that is not a board gives its
    input as written (its row's message says what is wrong)."""

    def __init__(self, rows: Sequence[Any], spec: BatchSpec) -> None:
        self._rows = rows
        self._spec = spec

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        row = self._rows[index]
        try:
            return _row_board(row, self._spec).to_string()
        except FastPuzzleError:
            return str(row.tolist() if isinstance(row, np.ndarray) else row)

    def packed_rows(self) -> tuple[np.ndarray, Shape] | None:
        """The rows as packed words with their shape, where they are packed words (for
        formatting every row at once); None otherwise."""
        rows, spec = self._rows, self._spec
        if not (spec.packed and spec.shape is not None and isinstance(rows, np.ndarray)):
            return None
        if rows.dtype.kind not in "iu" or (rows.dtype.kind == "i" and (rows < 0).any()):
            return None  # not words that Board.from_packed reads
        return rows.astype(np.uint64, copy=False), spec.shape


def _fast_path_applies(rows: Sequence[Any], spec: BatchSpec) -> bool:
    return (
        spec.packed
        and spec.shape is not None
        and spec.shape[0] * spec.shape[1] <= MAX_CELLS
        and spec.algorithm == "auto"
        and spec.heuristic == "auto"
        and spec.optimal
        and isinstance(rows, np.ndarray)
    )


def walks_exact_table(rows: Sequence[Any], spec: BatchSpec) -> bool:
    """Whether a chunk of ``rows`` goes down the compiled walk of the exact table: about a
    microsecond a board, so chunks must be large for the walk to outweigh their handling."""
    if not _fast_path_applies(rows, spec):
        return False
    assert spec.shape is not None
    goal_blank = spec.shape[0] * spec.shape[1] - 1 if spec.goal is None else spec.goal.index(0)
    return auto_choice(spec.shape, goal_blank).heuristic == "table"


def error_status(error: FastPuzzleError) -> str:
    """A batch row's status word for ``error``: ``"unsolvable"``, ``"time_limit"``..."""
    return next(name for kind, name in _ERROR_STATUS if isinstance(error, kind))


def limit_error(status: str) -> type[SearchLimitError]:
    """The error of a row stopped with ``status`` (``"time_limit"``: TimeLimitError...), from the
    table that names the statuses; SearchLimitError for any other status."""
    for kind, name in _ERROR_STATUS:
        if name == status and issubclass(kind, SearchLimitError):
            return kind
    return SearchLimitError


def _walk_exact(
    shape: Shape, goal_blank: int, canonical: np.ndarray, blanks: np.ndarray, limits: Limits
) -> ChunkResult:
    """Boards of at most 9 cells: one compiled walk down the exact table for the whole chunk."""
    database = exact_table(shape[0], shape[1], goal_blank)
    ((_, _, nibble, table),) = database.groups
    count = len(canonical)
    lengths = np.empty(count, dtype=np.int32)
    moves = np.zeros((count, 64), dtype=np.uint8)
    generated = np.empty(count, dtype=np.int64)
    seconds = np.empty(count, dtype=np.float64)
    _batch.walk_exact_many(
        np.ascontiguousarray(canonical, dtype=np.uint64),
        np.ascontiguousarray(blanks, dtype=np.int8),
        shape[0],
        shape[1],
        goal_blank,
        table,
        nibble,
        lengths,
        moves,
        generated,
        seconds,
    )
    out = ChunkResult()
    out.length = lengths.tolist()
    out.lower_bound = list(out.length)  # the exact table's lengths are the optima
    out.moves = [row.tobytes().rstrip(b"\0").decode("ascii") for row in moves]
    out.expanded = list(out.length)
    out.generated = generated.tolist()
    out.seconds = seconds.tolist()
    out.status = ["solved"] * count
    out.message = [""] * count
    if limits.max_depth is not None:
        for i, length in enumerate(out.length):
            if length > limits.max_depth:
                out.length[i], out.moves[i], out.status[i] = -1, "", "depth_limit"
                out.lower_bound[i] = -1
                out.message[i] = f"no solution within max_depth={limits.max_depth}"
    return out


def _run_each(goal: Board, words: np.ndarray, heuristic: str, limits: Limits) -> ChunkResult:
    """Larger boards: the default solver board by board (the core releases the GIL), each on one
    thread (``Request.workers`` is 1: the batch runs one board per thread)."""
    out = ChunkResult()
    prepared: Prepared | None = None
    for word in words.tolist():
        board = Board.from_packed(word, shape=goal.shape)
        problem = make_problem(board, goal, check_solvable=False)
        # Prepared once for the chunk (tables, machine), each board with its own time budget.
        try:
            if prepared is None:
                prepared = idastar.prepare(Request(problem, heuristic, limits))
            else:
                prepared = prepared.restarted()
        except TimeLimitError as error:
            # Tables not ready within the board's time limit (pdb.BuildTimeLimitError): the
            # row's status, as for any board the limit stopped, not the batch's end.
            out.add(0, -1, "time_limit", error.stats, "", str(error))
            continue
        core = idastar.search(prepared, problem)
        check_result(core, problem, method="idastar", complete=True)
        status = Status.from_code(core.status)
        stats = stats_from_core(core)
        if status is Status.SOLVED:
            # Optimal IDA*: its length is its bound.
            out.add(0, len(core.moves), "solved", stats, core.moves, "", len(core.moves))
        else:
            out.add(0, -1, str(status), stats, "", f"stopped without a solution ({status})")
    return out


def _solve_packed_fast(first_index: int, words: np.ndarray, spec: BatchSpec) -> ChunkResult:
    """Packed rows checked and relabelled in numpy, then solved by the core without Boards."""
    assert spec.shape is not None
    goal = Board.goal(spec.shape) if spec.goal is None else Board(spec.goal, shape=spec.shape)
    prep = prepare_packed(words, goal)
    good = np.flatnonzero(prep.solvable)
    limits = spec.limits or Limits()
    # The same choice solve() makes, so a batch and a loop of solve() calls agree.
    choice = auto_choice(spec.shape, goal.blank)
    if choice.heuristic == "table":
        solved = _walk_exact(
            spec.shape, goal.blank, prep.canonical[good], prep.blanks[good], limits
        )
    else:
        solved = _run_each(goal, words[good], choice.heuristic, limits)
    if len(good) == len(words):
        solved.index = list(range(first_index, first_index + len(words)))
        return solved
    # Invalid and unsolvable rows are rare: build their exact messages the slow way.
    out = ChunkResult()
    position = dict(zip(good.tolist(), range(len(good))))
    for offset, word in enumerate(words):
        index = first_index + offset
        k = position.get(offset)
        if k is None:
            try:
                board = Board.from_packed(int(word), shape=spec.shape)
                raise UnsolvableError(board, goal)
            except FastPuzzleError as error:
                out.add(index, -1, error_status(error), None, "", str(error))
            continue
        out.index.append(index)
        for name in COLUMNS[1:]:
            getattr(out, name).append(getattr(solved, name)[k])
    return out


def solve_chunk(first_index: int, rows: Sequence[Any], spec: BatchSpec) -> ChunkResult:
    """Solve ``rows`` (row ``i`` has global index ``first_index + i``) one after another."""
    if isinstance(rows, np.ndarray) and _fast_path_applies(rows, spec):
        return _solve_packed_fast(first_index, rows, spec)

    goal = None if spec.goal is None else spec.goal
    out = ChunkResult()
    for offset, row in enumerate(rows):
        index = first_index + offset
        try:
            board = _row_board(row, spec)
            target = None if goal is None else Board(goal, shape=board.shape)
            solution = solve(
                board,
                target,
                # The batch's names, checked as solve() checks any caller's.
                algorithm=cast(AlgorithmName, spec.algorithm),
                heuristic=cast(HeuristicName, spec.heuristic),
                limits=spec.limits,
                optimal=spec.optimal,
                # One board per thread already: a parallel search inside would oversubscribe.
                workers=1,
            )
        except InternalError:
            raise  # a defect stops the batch: it would give every row after it too
        except FastPuzzleError as error:
            out.add(index, -1, error_status(error), getattr(error, "stats", None), "", str(error))
        else:
            out.add(
                index,
                len(solution),
                "solved",
                solution.stats,
                solution.moves,
                "",
                solution.lower_bound,
            )
    return out
