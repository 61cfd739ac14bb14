"""Batch solving: :func:`solve_many` over a thread pool (default) or a Dask cluster.

Rows are solved independently: a bad or unsolvable row gets an error status and its message,
and the batch goes on. With ``out=`` every chunk is written to its own file as soon as it is
done (atomically), and ``resume=True`` reuses the chunks already written, so an interrupted run
loses nothing it had finished.

Moves are U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from fastpuzzle import _batch
from fastpuzzle._batch_prep import prepare_packed
from fastpuzzle.board import MAX_CELLS, Board, BoardLike, Shape
from fastpuzzle.errors import (
    DepthLimitError,
    FastPuzzleError,
    InvalidBoardError,
    MemoryLimitError,
    NodeLimitError,
    SearchLimitError,
    TimeLimitError,
    UnsolvableError,
)
from fastpuzzle.limits import Limits
from fastpuzzle.render import write_text_atomically
from fastpuzzle.results import Status, stats_from_core

__all__ = ["BatchResult", "solve_many"]

OutFormat = Literal["csv", "jsonl", "parquet"]
ProgressArg = bool | Callable[[int, int], Any] | None

COLUMNS = ("index", "length", "status", "expanded", "generated", "seconds", "moves", "message")

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


@dataclass
class ChunkResult:
    """The columns of one chunk, in row order."""

    index: list[int] = field(default_factory=list)
    length: list[int] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    expanded: list[int] = field(default_factory=list)
    generated: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)

    def add(
        self, index: int, length: int, status: str, stats: Any, moves: str, message: str
    ) -> None:
        self.index.append(index)
        self.length.append(length)
        self.status.append(status)
        self.expanded.append(int(getattr(stats, "expanded", 0)))
        self.generated.append(int(getattr(stats, "generated", 0)))
        self.seconds.append(float(getattr(stats, "seconds", 0.0)))
        self.moves.append(moves)
        self.message.append(message)

    def rows(self) -> Iterator[tuple[Any, ...]]:
        return zip(*(getattr(self, name) for name in COLUMNS))


def _row_board(row: Any, spec: BatchSpec) -> Board:
    if spec.packed:
        if spec.shape is None:
            raise InvalidBoardError("packed boards need shape=(rows, cols)")
        return Board.from_packed(int(row), shape=spec.shape)
    return Board(row, shape=spec.shape)


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


def _error_status(error: FastPuzzleError) -> str:
    return next(name for kind, name in _ERROR_STATUS if isinstance(error, kind))


def _walk_exact(
    shape: Shape, goal_blank: int, canonical: np.ndarray, blanks: np.ndarray, limits: Limits
) -> ChunkResult:
    """Boards of at most 9 cells: one compiled walk down the exact table for the whole chunk."""
    from fastpuzzle import pdb

    database = pdb.exact_table(shape[0], shape[1], goal_blank)
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
                out.message[i] = f"no solution within max_depth={limits.max_depth}"
    return out


def _run_each(
    shape: Shape, goal_blank: int, canonical: np.ndarray, blanks: np.ndarray, limits: Limits
) -> ChunkResult:
    """Larger boards: the default solver board by board (the core releases the GIL)."""
    from fastpuzzle import optimal
    from fastpuzzle.problem import Problem

    goal = Board.goal(shape)
    template = Problem(goal, goal, 0, goal.blank, goal_blank)
    out = ChunkResult()
    for word, blank in zip(canonical.tolist(), blanks.tolist()):
        core = optimal.run_auto(replace(template, word=word, blank=blank), limits)[0]
        status = Status.from_code(core[0])
        stats = stats_from_core(core)
        if status is Status.SOLVED:
            out.add(0, len(core[1]), "solved", stats, core[1], "")
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
    run = _walk_exact if spec.shape[0] * spec.shape[1] <= 9 else _run_each
    solved = run(spec.shape, goal.blank, prep.canonical[good], prep.blanks[good], limits)
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
                out.add(index, -1, _error_status(error), None, "", str(error))
            continue
        out.index.append(index)
        for name in COLUMNS[1:]:
            getattr(out, name).append(getattr(solved, name)[k])
    return out


def solve_chunk(first_index: int, rows: Sequence[Any], spec: BatchSpec) -> ChunkResult:
    """Solve ``rows`` (row ``i`` has global index ``first_index + i``) one after another."""
    from fastpuzzle.solve import solve

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
                algorithm=spec.algorithm,
                heuristic=spec.heuristic,
                limits=spec.limits,
                optimal=spec.optimal,
            )
        except FastPuzzleError as error:
            out.add(index, -1, _error_status(error), getattr(error, "stats", None), "", str(error))
        else:
            out.add(index, len(solution), "solved", solution.stats, solution.moves, "")
    return out


@dataclass(frozen=True)
class BatchResult:
    """Columns of a batch, in input order.

    Attributes
    ----------
    lengths : numpy.ndarray
        Solution lengths (int32), -1 where a row was not solved.
    status : numpy.ndarray
        ``"solved"``, or why not: ``"unsolvable"``, ``"invalid"``, ``"time_limit"``,
        ``"node_limit"``, ``"memory_limit"``, ``"depth_limit"``, ``"exhausted"``, ``"error"``.
    expanded, generated : numpy.ndarray
        Nodes (int64) per row.
    seconds : numpy.ndarray
        Search time per row (float64).
    moves : numpy.ndarray
        Move strings (U/D/L/R, blank directions), ``""`` where not solved.
    messages : numpy.ndarray
        Error messages, ``""`` for solved rows.
    """

    lengths: np.ndarray
    status: np.ndarray
    expanded: np.ndarray
    generated: np.ndarray
    seconds: np.ndarray
    moves: np.ndarray
    messages: np.ndarray

    def __len__(self) -> int:
        return len(self.lengths)

    @property
    def solved(self) -> np.ndarray:
        """Boolean mask of solved rows."""
        return np.asarray(self.status == "solved", dtype=bool)

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per row."""
        return [
            {
                "index": i,
                "length": int(self.lengths[i]),
                "status": str(self.status[i]),
                "expanded": int(self.expanded[i]),
                "generated": int(self.generated[i]),
                "seconds": float(self.seconds[i]),
                "moves": str(self.moves[i]),
                "message": str(self.messages[i]),
            }
            for i in range(len(self))
        ]

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """The rows as CSV text; also written atomically to ``path`` when given."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for record in self.to_records():
            writer.writerow([record[name] for name in COLUMNS])
        text = buffer.getvalue()
        if path is not None:
            write_text_atomically(path, text)
        return text

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the rows (needs pandas)."""
        import pandas as pd

        return pd.DataFrame.from_records(self.to_records(), index="index")

    @classmethod
    def from_chunks(cls, total: int, chunks: Iterable[ChunkResult]) -> BatchResult:
        """Assemble chunk columns into input order."""
        lengths = np.full(total, -1, dtype=np.int32)
        status = np.full(total, "", dtype=object)
        expanded = np.zeros(total, dtype=np.int64)
        generated = np.zeros(total, dtype=np.int64)
        seconds = np.zeros(total, dtype=np.float64)
        moves = np.full(total, "", dtype=object)
        messages = np.full(total, "", dtype=object)
        for chunk in chunks:
            idx = np.asarray(chunk.index, dtype=np.int64)
            lengths[idx] = chunk.length
            status[idx] = chunk.status
            expanded[idx] = chunk.expanded
            generated[idx] = chunk.generated
            seconds[idx] = chunk.seconds
            moves[idx] = chunk.moves
            messages[idx] = chunk.message
        return cls(lengths, status, expanded, generated, seconds, moves, messages)


# -- input ------------------------------------------------------------------------------------


def _normalise(boards: Any, shape: Shape | None) -> tuple[Sequence[Any], bool, Shape | None]:
    """Rows to solve, whether they are packed words, and the shape when known."""
    if isinstance(boards, np.ndarray):
        if boards.ndim == 1 and boards.dtype == np.uint64:
            if shape is None:
                raise InvalidBoardError("an array of packed boards needs shape=(rows, cols)")
            return boards, True, tuple(shape)  # type: ignore[return-value]
        if boards.ndim == 2 and boards.dtype.kind in "iu":
            cells = boards.shape[1]
            if shape is None:
                side = math.isqrt(cells)
                if side * side != cells:
                    raise InvalidBoardError(
                        f"expected square rows or shape=(rows, cols), got rows of {cells} tiles"
                    )
                shape = (side, side)
            return boards, False, tuple(shape)  # type: ignore[return-value]
        raise InvalidBoardError(
            "expected packed boards (1-D uint64 with shape=) or rows of tiles (2-D integers), "
            f"got an array of dtype {boards.dtype} and {boards.ndim} dimensions"
        )
    if isinstance(boards, (str, Board)):
        raise InvalidBoardError("expected a collection of boards, got a single board")
    return list(boards), False, None if shape is None else tuple(shape)  # type: ignore[return-value]


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# -- output files -----------------------------------------------------------------------------


class ChunkStore:
    """One file per chunk under a directory, written atomically, with a manifest."""

    def __init__(self, directory: Path, fmt: OutFormat, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.fmt = fmt
        self.manifest = manifest

    def open(self, resume: bool) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / "manifest.json"
        if path.exists():
            found = json.loads(path.read_text())
            if not resume:
                raise FileExistsError(
                    f"{self.directory} already holds results; pass resume=True to continue them "
                    "or choose another out="
                )
            if found != self.manifest:
                raise ValueError(
                    f"cannot resume: {path} was written for another batch "
                    f"({found}), expected {self.manifest}"
                )
        else:
            write_text_atomically(path, json.dumps(self.manifest, indent=1, sort_keys=True))

    def path(self, chunk: int) -> Path:
        return self.directory / f"part-{chunk:06d}.{self.fmt}"

    def write(self, chunk: int, result: ChunkResult) -> None:
        target = self.path(chunk)
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.table({name: getattr(result, name) for name in COLUMNS})
            temporary = target.with_name(
                f".{target.name}.tmp-{os.getpid()}-{threading.get_ident()}"
            )
            pq.write_table(table, temporary)
            os.replace(temporary, target)
            return
        buffer = io.StringIO()
        if self.fmt == "csv":
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(COLUMNS)
            writer.writerows(result.rows())
        else:
            for row in result.rows():
                buffer.write(json.dumps(dict(zip(COLUMNS, row))) + "\n")
        write_text_atomically(target, buffer.getvalue())

    def read(self, chunk: int, expected_rows: int) -> ChunkResult | None:
        """The chunk's rows if its file is there and whole, else None."""
        target = self.path(chunk)
        if not target.exists():
            return None
        try:
            records = self._records(target)
        except (OSError, ValueError, KeyError):
            return None
        if len(records) != expected_rows:
            return None
        out = ChunkResult()
        for r in records:
            out.index.append(int(r["index"]))
            out.length.append(int(r["length"]))
            out.status.append(str(r["status"]))
            out.expanded.append(int(r["expanded"]))
            out.generated.append(int(r["generated"]))
            out.seconds.append(float(r["seconds"]))
            out.moves.append("" if r["moves"] is None else str(r["moves"]))
            out.message.append("" if r["message"] is None else str(r["message"]))
        return out

    def _records(self, target: Path) -> list[dict[str, Any]]:
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(target).to_pylist()  # type: ignore[no-any-return]
        text = target.read_text()
        if self.fmt == "csv":
            return list(csv.DictReader(io.StringIO(text)))
        return [json.loads(line) for line in text.splitlines() if line]


# -- progress ---------------------------------------------------------------------------------


class _Progress:
    def __init__(self, total: int, progress: ProgressArg) -> None:
        self.total = total
        self.done = 0
        self.callback: Callable[[int, int], Any] | None = None
        self.bar: Any = None
        if callable(progress):
            self.callback = progress
        elif progress:
            try:
                from tqdm import tqdm
            except ImportError:
                self.callback = self._plain
            else:
                self.bar = tqdm(total=total, unit="board", desc="fastpuzzle")

    def _plain(self, done: int, total: int) -> None:
        print(f"\rfastpuzzle: {done}/{total} boards", end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    def advance(self, count: int) -> None:
        self.done += count
        if self.bar is not None:
            self.bar.update(count)
        if self.callback is not None:
            self.callback(self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# -- the entry point --------------------------------------------------------------------------


def solve_many(
    boards: np.ndarray | Iterable[BoardLike],
    goal: BoardLike | None = None,
    *,
    shape: Shape | None = None,
    algorithm: str = "auto",
    heuristic: str = "auto",
    limits: Limits | None = None,
    workers: int | None = None,
    client: Any = None,
    chunk_size: int | None = None,
    progress: ProgressArg = None,
    out: str | os.PathLike[str] | None = None,
    out_format: OutFormat = "csv",
    resume: bool = False,
    optimal: bool = True,
) -> BatchResult:
    """Solve many boards; every row is solved independently.

    Parameters
    ----------
    boards : array or iterable
        A 1-D ``uint64`` array of packed boards (with ``shape=``), an ``(n, cells)`` integer
        array, or any iterable of board-likes.
    goal : BoardLike, optional
        One goal for every row (default: tiles in order, blank last).
    shape : tuple of int, optional
        ``(rows, cols)`` of the boards, needed for packed boards and non-square rows.
    algorithm, heuristic : str
        As for :func:`fastpuzzle.solve`.
    limits : Limits, optional
        Limits applied to each row separately.
    workers : int, optional
        Threads for the in-process path (default: every core). The compiled searches release
        the GIL, and pattern databases are shared read-only between threads.
    client : dask.distributed.Client, optional
        Send chunks to this Dask cluster instead of local threads.
    chunk_size : int, optional
        Boards per task (default: a few tasks per worker; thousands per task on Dask).
    progress : bool or callable, optional
        ``True`` shows a progress bar (tqdm if installed, else a line on stderr); a callable
        receives ``(done, total)``.
    out : path, optional
        Directory that receives one file per finished chunk (written atomically) and a
        manifest.
    out_format : {"csv", "jsonl", "parquet"}
        Format of the chunk files (parquet needs pyarrow).
    resume : bool
        Reuse the chunks already in ``out`` (written by the same batch) instead of solving
        them again.
    optimal : bool
        ``False``: fast solutions not guaranteed shortest, as ``solve(..., optimal=False)``.

    Returns
    -------
    BatchResult
        Columns in input order.
    """
    rows, packed, found_shape = _normalise(boards, shape)
    total = len(rows)
    goal_tiles = None if goal is None else Board(goal, shape=found_shape).tiles
    spec = BatchSpec(found_shape, packed, goal_tiles, algorithm, heuristic, limits, optimal)
    if workers is not None and workers < 1:
        raise ValueError(f"expected workers >= 1, got {workers}")
    pool_size = workers or _default_workers()
    if chunk_size is None:
        if client is not None:
            n_workers = max(1, len(client.scheduler_info().get("workers", {})))
            chunk_size = max(1000, math.ceil(total / (n_workers * 4)))
        else:
            chunk_size = max(1, min(4096, math.ceil(total / (pool_size * 8))))
    if chunk_size < 1:
        raise ValueError(f"expected chunk_size >= 1, got {chunk_size}")
    starts = list(range(0, total, chunk_size))

    store = None
    if out is not None:
        manifest = {
            "version": 1,
            "rows": total,
            "chunk_size": chunk_size,
            "spec": json.loads(json.dumps(asdict(spec), default=str)),
        }
        store = ChunkStore(Path(out), out_format, manifest)
        store.open(resume)

    tracker = _Progress(total, progress)
    results: list[ChunkResult] = []
    todo: list[int] = []
    for number, start in enumerate(starts):
        size = min(chunk_size, total - start)
        done = store.read(number, size) if (store is not None and resume) else None
        if done is not None:
            results.append(done)
            tracker.advance(size)
        else:
            todo.append(number)

    def finished(number: int, result: ChunkResult) -> None:
        if store is not None:
            store.write(number, result)
        results.append(result)
        tracker.advance(len(result.index))

    def chunk_rows(number: int) -> Sequence[Any]:
        start = starts[number]
        return rows[start : start + chunk_size]

    try:
        if client is not None:
            _run_dask(client, todo, starts, chunk_rows, spec, finished)
        else:
            _run_threads(pool_size, todo, starts, chunk_rows, spec, finished)
    finally:
        tracker.close()
    return BatchResult.from_chunks(total, results)


def _run_threads(
    pool_size: int,
    todo: list[int],
    starts: list[int],
    chunk_rows: Callable[[int], Sequence[Any]],
    spec: BatchSpec,
    finished: Callable[[int, ChunkResult], None],
) -> None:
    with ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="fastpuzzle") as pool:
        pending: dict[Future[ChunkResult], int] = {
            pool.submit(solve_chunk, starts[n], chunk_rows(n), spec): n for n in todo
        }
        try:
            while pending:
                # A timeout keeps the main thread responsive to Ctrl-C.
                done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    finished(pending.pop(future), future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _run_dask(
    client: Any,
    todo: list[int],
    starts: list[int],
    chunk_rows: Callable[[int], Sequence[Any]],
    spec: BatchSpec,
    finished: Callable[[int, ChunkResult], None],
) -> None:
    from distributed import as_completed

    futures = {
        client.submit(solve_chunk, starts[n], chunk_rows(n), spec, pure=False): n for n in todo
    }
    try:
        for future in as_completed(list(futures)):  # type: ignore[no-untyped-call]
            finished(futures[future], future.result())
    except BaseException:
        client.cancel(list(futures))
        raise
