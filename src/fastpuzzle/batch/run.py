""":func:`solve_many`: the input cut into chunks, solved on threads or a Dask cluster."""

from __future__ import annotations

import itertools
import math
import os
import stat
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from fastpuzzle._core._interrupt import run_stoppable
from fastpuzzle._solver.parallel import Endings, available_cores, check_workers, submit
from fastpuzzle._util.checks import (
    MAX_LISTED,
    choice,
    dask_client,
    flag,
    optional_path,
    ordered,
    shown,
    whole,
)
from fastpuzzle._util.files import file_kind
from fastpuzzle._util.progress import Meter
from fastpuzzle.algorithms import AlgorithmName, is_auto, resolve_algorithm
from fastpuzzle.batch.chunk import BatchSpec, BoardTexts, solve_chunk, walks_exact_table
from fastpuzzle.batch.result import (
    BatchInterrupted,
    BatchResult,
    ChunkResult,
    MemoryRows,
    PackedChunk,
    PartialRows,
    RowSource,
)
from fastpuzzle.batch.store import OUT_FORMATS, ChunkStore, OutFormat, batch_lock
from fastpuzzle.batch.tables import fetch_shared_tables
from fastpuzzle.board import Board, BoardLike, Shape, check_shape
from fastpuzzle.errors import BatchFileError, InvalidBoardError, InvalidOptionError
from fastpuzzle.heuristics import HeuristicName, resolve_heuristic
from fastpuzzle.limits import Limits, as_limits
from fastpuzzle.solve import check_fast_method

__all__ = ["Progress", "ProgressArg", "check_progress", "solve_many"]

ProgressArg = bool | Callable[[int, int], Any] | None


# -- input ------------------------------------------------------------------------------------


def _normalise(boards: Any, shape: Shape | None) -> tuple[Sequence[Any], bool, Shape | None]:
    """Rows to solve, whether they are packed words, and the shape when known."""
    if shape is not None:
        shape = check_shape(shape)
    if isinstance(boards, np.ndarray):
        if boards.ndim == 1 and boards.dtype == np.uint64:
            if shape is None:
                raise InvalidBoardError("an array of packed boards needs shape=(rows, cols)")
            return boards, True, shape  # type: ignore[return-value]
        if boards.ndim == 2 and boards.dtype.kind in "iu":
            cells = boards.shape[1]
            if shape is None:
                side = math.isqrt(cells)
                if side * side != cells:
                    raise InvalidBoardError(
                        f"expected square rows or shape=(rows, cols), got rows of {cells} tiles"
                    )
                shape = (side, side)
            return boards, False, shape  # type: ignore[return-value]
        raise InvalidBoardError(
            "expected packed boards (1-D uint64 with shape=) or rows of tiles (2-D integers), "
            f"got an array of dtype {boards.dtype} and {boards.ndim} dimensions"
        )
    if isinstance(boards, (str, Board)):
        raise InvalidBoardError("expected a collection of boards, got a single board")
    listed = ordered("a collection of boards", boards, error=InvalidBoardError, most=MAX_LISTED)
    return listed, False, shape


def _check_names(algorithm: str, heuristic: str, optimal: bool) -> None:
    if not flag("optimal", optimal):
        # Checked here: a worker would raise it for the first row, after the batch started.
        check_fast_method(algorithm, heuristic)
    chosen = None
    if not is_auto(algorithm):
        chosen = resolve_algorithm(algorithm)
    if not is_auto(heuristic):
        resolve_heuristic(heuristic, chosen)


def _default_workers() -> int:
    return available_cores()


def _make_directory(directory: Path) -> None:
    """``out=`` as a directory, created if missing, before the batch starts; anything else
    there (a file, a FIFO), or a directory that cannot be created, is a BatchFileError."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass
    except OSError as error:
        raise BatchFileError(
            directory, f"cannot create the out= directory: {error.strerror or error}"
        ) from None
    try:
        mode = os.stat(directory).st_mode  # a link to a directory is one
    except OSError as error:
        raise BatchFileError(directory, f"cannot use it as out=: {error.strerror}") from None
    if not stat.S_ISDIR(mode):
        raise BatchFileError(
            directory,
            f"is {file_kind(mode) if not stat.S_ISREG(mode) else 'a file'}, not a directory: "
            "out= names the directory the chunk files go to",
        )


def check_progress(progress: object) -> None:
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise InvalidOptionError(
            "expected progress=True, False, None or a callable progress(done, total), got "
            f"{shown(progress)}"
        )


# -- progress ---------------------------------------------------------------------------------


class Progress:
    """``progress=`` of a batch: a bar (``True``), a callable ``(done, total)``, or nothing."""

    def __init__(self, total: int, progress: ProgressArg) -> None:
        self.total = total
        self.done = 0
        self.callback: Callable[[int, int], Any] | None = None
        self.bar: Meter | None = None
        if callable(progress):
            self.callback = progress
        elif progress:
            self.bar = Meter(total, "fastpuzzle", "board")

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


def _default_chunk_size(total: int, quick: bool) -> int:
    # From the batch's boards and options only, never the workers or the cluster: a resume with
    # other workers (or none of a lost manifest) cuts the same chunks. 64 chunks keep up to 8
    # threads busy to the end; 4096 rows bound what a chunk holds in memory. ``quick`` chunks
    # (boards solved in a microsecond) have at least 2048 rows: smaller ones held the GIL longer
    # for their handling than their walk ran without it (``batch_report.py``; docs/performance.rst,
    # "Where the constants come from").
    smallest = _MIN_QUICK_CHUNK if quick else 1
    return max(1, min(_MAX_DEFAULT_CHUNK, max(smallest, -(-total // 64))))


_MAX_DEFAULT_CHUNK = 4096
_MIN_QUICK_CHUNK = 2048


def solve_many(
    boards: np.ndarray | Iterable[BoardLike],
    goal: BoardLike | None = None,
    *,
    shape: Shape | None = None,
    algorithm: AlgorithmName | Literal["auto"] = "auto",
    heuristic: HeuristicName | Literal["auto"] = "auto",
    limits: Limits | None = None,
    workers: int | None = None,
    client: Any = None,
    chunk_size: int | None = None,
    progress: ProgressArg = None,
    out: str | os.PathLike[str] | None = None,
    out_format: OutFormat = "csv",
    resume: bool = False,
    optimal: bool = True,
    keep_rows: bool = False,
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
        Limits applied to each row's search separately: each board gets the whole of them. A
        pattern database that every row reads and the solver builds on first use (4x4's 6-6-3,
        the rectangles') is built once before the rows, after a
        :class:`~fastpuzzle.errors.FastPuzzleWarning`, outside their limits
        (:mod:`fastpuzzle.batch.tables`).
    workers : int, optional
        Threads for the in-process path (default: every core). The compiled searches release
        the GIL, and pattern databases are shared read-only between threads.
    client : dask.distributed.Client, optional
        Send chunks to this Dask cluster instead of local threads.
    chunk_size : int, optional
        Boards per task (default: the number of boards over 64, at most 4096, whatever the
        workers; when resuming, the chunk size the batch was written with).
    progress : bool or callable, optional
        ``True`` shows a progress bar (tqdm if installed, else a line on stderr); a callable
        receives ``(done, total)``.
    out : path, optional
        Directory that receives one file per finished chunk (written atomically), a check file
        per chunk and a manifest. The rows are not kept in memory: the result reads them back
        from the chunk files when a column is first used.
    out_format : {"csv", "jsonl", "parquet"}
        Format of the chunk files (parquet needs pyarrow).
    resume : bool
        Reuse the chunks already in ``out``. A chunk is reused only when its check file says it
        holds this batch's rows for the same boards and its bytes are as written; any other
        chunk (missing, truncated, edited, copied from another chunk) is solved again.
        The manifest may be missing (it is written again); a manifest or chunk of another batch
        (other boards or options), a damaged manifest or one that is not a regular file, or a
        directory where a chunk or check file goes raises :class:`~fastpuzzle.BatchFileError`
        naming the file, before anything is solved, and the directory is left as it was. Only
        regular files are read: a FIFO never blocks a resume.
    optimal : bool
        ``False``: fast solutions not guaranteed shortest, as ``solve(..., optimal=False)``:
        without ``limits.seconds`` or ``limits.nodes`` the constructive answer (milliseconds a
        board); with either, on boards past 16 cells, the anytime near-optimal solver, each
        board with the whole of the limits for itself (``Limits(seconds=5)`` and 100 boards on
        2 workers: about 250 s; see :doc:`/near_optimal`). Each row's ``lower_bounds`` and
        ``gaps`` say how far from optimal it may be.
    keep_rows : bool
        With ``out=``, keep the rows in memory too (as without ``out=``: about 63 bytes a 3x3
        row), so that the result's columns are not read back from the chunk files: for a
        caller that writes them all out at once (``fastpuzzle batch --out``). Chunks reused by
        a resume are read once, as they are checked.

    Returns
    -------
    BatchResult
        Columns in input order.

    Raises
    ------
    BatchInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``): its ``result`` holds the rows of the chunks that
        finished, the others marked ``"interrupted"``.
    InvalidOptionError, UnknownNameError
        Before the batch starts, for an option that is not valid (or a name not known).
    InvalidBoardError
        Before the batch starts, for boards that are no collection in order, or a shape or goal
        that is not valid (a row that is no board gets its own error status instead).
    FileExistsError
        ``out`` already holds results and ``resume`` is False.
    BatchFileError
        Before the batch starts, when ``out`` is not a directory (a file, a FIFO) or cannot be
        created; resuming into a directory that cannot be trusted (see ``resume``), or a chunk
        file changed before the result read it back.
    BatchInUseError
        Another batch (another process, or another thread) is writing into ``out``: each batch
        holds the directory's lock file from its first look at it to its last chunk.
    """
    # Every argument is checked here, before the batch starts: a wrong one fails once, not in
    # every worker, and wrong names do not give one error row per board.
    as_limits(limits)
    _check_names(algorithm, heuristic, optimal)
    flag("resume", resume)
    flag("keep_rows", keep_rows)
    workers = check_workers(workers)
    chunk_size = whole("chunk_size", chunk_size, low=1, none=True)
    directory = optional_path("out", out)
    choice("out_format", out_format, OUT_FORMATS)
    dask_client(client)
    check_progress(progress)
    rows, packed, found_shape = _normalise(boards, shape)
    if directory is not None:
        _make_directory(directory)
    total = len(rows)
    goal_tiles = None if goal is None else Board(goal, shape=found_shape).tiles
    spec = BatchSpec(found_shape, packed, goal_tiles, algorithm, heuristic, limits, optimal)

    default_chunk = _default_chunk_size(total, walks_exact_table(rows, spec))
    run = _Run(rows, spec, workers, client, progress, keep_rows)
    if directory is None:
        return run.solve(None, chunk_size or default_chunk, resume=False)
    # No other batch writes into out= from this one's first look at it to its last chunk.
    with batch_lock(directory):
        store = ChunkStore(directory, out_format, spec)
        store.open(rows, resume, chunk_size, default_chunk)
        return run.solve(store, store.chunk_size, resume)


@dataclass(frozen=True)
class _Run:
    """What :func:`solve_many` solves, and where: its rows, their spec, threads or a cluster."""

    rows: Sequence[Any]
    spec: BatchSpec
    workers: int | None
    client: Any
    progress: ProgressArg
    keep_rows: bool = False

    def solve(self, store: ChunkStore | None, chunk_size: int, resume: bool) -> BatchResult:
        """Solve the rows in chunks of ``chunk_size``, into ``store`` (reusing its chunks when
        ``resume``) or, without one, into memory."""
        rows, spec, total = self.rows, self.spec, len(self.rows)
        # Without out=, the rows are kept here; with it, only in the chunk files (and here too
        # with keep_rows).
        keep = store is None or self.keep_rows
        memory = MemoryRows(total, chunk_size) if keep else None
        starts = list(range(0, total, chunk_size))

        def chunk_rows(number: int) -> Sequence[Any]:
            start = starts[number]
            return rows[start : start + chunk_size]

        # The chunks whose rows are kept (solved, or reused by a resume): what Ctrl-C leaves.
        finished: set[int] = set()

        def save(number: int, result: ChunkResult) -> int:
            # Runs on the pool's threads (the Dask client's thread for Dask): writing and
            # packing a chunk overlaps with solving the next ones. Returns its row count.
            if store is not None:
                packed = store.put(number, result, chunk_rows(number))
            else:
                size = len(chunk_rows(number))
                packed = PackedChunk.from_columns(starts[number], size, result)
            if memory is not None:
                memory.put(number, packed)
            finished.add(number)
            return len(result.index)

        def solve_and_save(number: int) -> int:
            # solve_chunk is looked up at each call: tests replace it in this module.
            return save(number, solve_chunk(starts[number], chunk_rows(number), spec))

        tracker = Progress(total, self.progress)
        try:
            todo: list[int] = []
            for number in range(len(starts)):
                if store is not None and resume and store.reusable(number, chunk_rows(number)):
                    if memory is not None:
                        memory.put(number, store.load(number))
                    finished.add(number)
                    tracker.advance(len(chunk_rows(number)))
                else:
                    todo.append(number)
            if todo:
                # Before the boards, not within each one's time limit (batch/tables.py).
                fetch_shared_tables(rows, spec)
            if store is not None:
                store.start()
            if self.client is not None:
                _run_dask(self.client, todo, starts, chunk_rows, spec, save, tracker.advance)
            else:
                pool_size = self.workers or _default_workers()
                _run_threads(pool_size, todo, solve_and_save, tracker.advance)
        except KeyboardInterrupt as interrupt:
            # The pool has stopped: no chunk is still being saved. What finished is kept.
            source = memory if memory is not None else store
            assert source is not None
            kept = BatchResult.over(PartialRows(source, finished)).with_boards(
                BoardTexts(rows, spec)
            )
            count = sum(len(chunk_rows(number)) for number in finished)
            raise BatchInterrupted(kept, count) from interrupt
        finally:
            tracker.close()
        boards = BoardTexts(rows, spec)
        whole: RowSource = memory if memory is not None else store  # type: ignore[assignment]
        return BatchResult.over(whole).with_boards(boards)


def _run_threads(
    pool_size: int,
    todo: list[int],
    solve_and_save: Callable[[int], int],
    advance: Callable[[int], None],
) -> None:
    """Run ``solve_and_save`` over the chunks ``todo`` on a thread pool; ``advance`` (on this
    thread) receives each finished chunk's row count."""
    # Signals reach the main thread only: on Ctrl-C (or any error here) the stop event makes
    # the searches running on the pool raise at their next check, so the pool's shutdown below
    # does not wait for them to finish.
    stop = threading.Event()
    # At most two chunks per thread are submitted ahead, so that chunks do not wait in memory
    # for long and Ctrl-C has little to cancel.
    waiting = iter(todo)
    with ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="fastpuzzle") as pool:
        pending: set[Future[int]] = set()
        endings = Endings()  # not concurrent.futures.wait: a Ctrl-C there can hang the pool

        def start(number: int) -> None:
            what = f"a thread for the batch (workers={pool_size})"
            pending.add(endings.watch(submit(pool, what, run_stoppable, stop, solve_and_save,
                                             number)))  # fmt: skip

        try:
            for number in itertools.islice(waiting, 2 * pool_size):
                start(number)
            while pending:
                # A timeout keeps the main thread responsive to Ctrl-C.
                future = endings.next(timeout=0.2)
                if future is None:
                    continue
                pending.discard(future)
                advance(future.result())
                number = next(waiting, -1)
                if number >= 0:
                    start(number)
        except BaseException:
            stop.set()
            for future in pending:
                future.cancel()
            raise


def _run_dask(
    client: Any,
    todo: list[int],
    starts: list[int],
    chunk_rows: Callable[[int], Sequence[Any]],
    spec: BatchSpec,
    save: Callable[[int, ChunkResult], int],
    advance: Callable[[int], None],
) -> None:
    from distributed import as_completed  # the dask extra: only a batch given a client needs it

    # As on threads, at most two chunks per worker are out at once, so that neither the
    # client nor the cluster holds every chunk's rows and results.
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    waiting = iter(todo)
    futures: dict[Any, int] = {}

    def submit(number: int) -> Any:
        future = client.submit(solve_chunk, starts[number], chunk_rows(number), spec, pure=False)
        futures[future] = number
        return future

    running = as_completed(  # type: ignore[no-untyped-call]
        [submit(number) for number in itertools.islice(waiting, 2 * workers)]
    )
    try:
        for future in running:
            advance(save(futures.pop(future), future.result()))
            number = next(waiting, -1)
            if number >= 0:
                running.add(submit(number))  # type: ignore[no-untyped-call]
    except BaseException:
        client.cancel(list(futures))
        raise
