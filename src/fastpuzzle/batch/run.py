""":func:`solve_many`: the input cut into chunks, solved on threads or a Dask cluster."""

from __future__ import annotations

import itertools
import json
import math
import os
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from fastpuzzle._interrupt import run_stoppable
from fastpuzzle.batch.chunk import BatchSpec, solve_chunk
from fastpuzzle.batch.result import BatchResult, ChunkResult
from fastpuzzle.batch.store import ChunkStore, OutFormat
from fastpuzzle.board import Board, BoardLike, Shape
from fastpuzzle.errors import InvalidBoardError
from fastpuzzle.limits import Limits

__all__ = ["ProgressArg", "solve_many"]

ProgressArg = bool | Callable[[int, int], Any] | None


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
    # Signals reach the main thread only: on Ctrl-C (or any error here) the stop event makes
    # the searches running on the pool raise at their next check, so the pool's shutdown below
    # does not wait for them to finish.
    stop = threading.Event()

    def solve_one(number: int) -> ChunkResult:
        # solve_chunk is looked up at each call: tests replace it in this module.
        return run_stoppable(stop, solve_chunk, starts[number], chunk_rows(number), spec)

    # At most two chunks per thread are submitted ahead, so finished chunks waiting for the main
    # thread cannot pile up in memory.
    waiting = iter(todo)
    with ThreadPoolExecutor(max_workers=pool_size, thread_name_prefix="fastpuzzle") as pool:
        pending: dict[Future[ChunkResult], int] = {}
        try:
            for number in itertools.islice(waiting, 2 * pool_size):
                pending[pool.submit(solve_one, number)] = number
            while pending:
                # A timeout keeps the main thread responsive to Ctrl-C.
                done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    finished(pending.pop(future), future.result())
                    number = next(waiting, -1)
                    if number >= 0:
                        pending[pool.submit(solve_one, number)] = number
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
