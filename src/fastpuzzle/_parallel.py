"""Threads for the parallel IDA* kernels: a pool, a waiting loop, Ctrl-C and progress.

A compiled kernel (``_idastar._Team``) does the searching without the GIL; this module only
starts the iterations and waits for them. Python threads rather than OpenMP: the calling thread
stays free to wait in a loop that Ctrl-C can interrupt (signals reach the main thread only, and
an OpenMP region would hold it in C), the progress callback runs in the caller's thread, and the
build needs no ``-fopenmp`` (macOS's clang has none).

The kernel's side, per iteration: ``prepare()`` (calling thread: serial part and frontier; False
when the iteration needs no pool threads), ``work(i)`` for ``i`` in ``range(workers)`` (pool
threads), ``finish()`` (calling thread; True when the search is over), ``abort()``,
``snapshot()`` and ``result()``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import cache
from typing import Any, Protocol

from fastpuzzle._checks import whole
from fastpuzzle._core._interrupt import raise_if_stopped

__all__ = [
    "MAX_WORKERS",
    "POLL_SECONDS",
    "available_cores",
    "check_workers",
    "resolve_workers",
    "run_team",
]

#: The most threads a search may be given: the compiled kernels count them in a C int.
MAX_WORKERS = 2**31 - 1

#: How often the calling thread wakes while the pool searches, to report progress (Ctrl-C and
#: the limits do not wait for it: a signal interrupts the wait, the threads check the limits).
POLL_SECONDS = 0.05

_REPORT_EVERY = 1 << 16


@cache
def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it), read
    once per process: every solve() asks, and a board of one move takes microseconds."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def check_workers(workers: object) -> int | None:
    """``workers`` checked: None, or a whole number of threads from 1 to :data:`MAX_WORKERS`.

    Raises
    ------
    InvalidOptionError
        For anything else (a bool, a float, a string, 0).
    """
    return whole("workers", workers, low=1, high=MAX_WORKERS, none=True)


def resolve_workers(workers: object) -> int:
    """``workers`` checked, None meaning every available core."""
    checked = check_workers(workers)
    return available_cores() if checked is None else checked


class Team(Protocol):
    """What a compiled parallel search offers (see the module docstring)."""

    def prepare(self) -> bool: ...
    def work(self, index: int) -> None: ...
    def abort(self) -> None: ...
    def finish(self) -> bool: ...
    def snapshot(self) -> tuple[int, int, float, int]: ...
    def result(self) -> Any: ...


def run_team(
    team: Team, workers: int, progress: Callable[[int, int, float, int], None] | None = None
) -> Any:
    """Run a parallel search to its end with ``workers`` pool threads; returns its result.

    Any exception in the calling thread (KeyboardInterrupt, the progress callback's) stops every
    pool thread before it propagates.
    """
    pool: ThreadPoolExecutor | None = None
    try:
        while True:
            if team.prepare():
                if pool is None:
                    pool = ThreadPoolExecutor(workers, thread_name_prefix="fastpuzzle-idastar")
                tasks = [pool.submit(team.work, index) for index in range(workers)]
                try:
                    _wait(team, tasks, progress)
                except BaseException:
                    team.abort()
                    wait(tasks)
                    raise
            if team.finish():
                return team.result()
    finally:
        if pool is not None:
            pool.shutdown(wait=True)


def _wait(
    team: Team, tasks: list[Future[None]], progress: Callable[[int, int, float, int], None] | None
) -> None:
    """Wait for the pool threads, reporting progress every 2**16 expansions or so."""
    report = (team.snapshot()[0] // _REPORT_EVERY + 1) * _REPORT_EVERY
    while True:
        _, pending = wait(tasks, timeout=POLL_SECONDS)
        if not pending:
            break
        # A caller on a worker thread sees no Ctrl-C; its stop event (run_stoppable: batches,
        # the puzzle page's Stop) is looked at here, and run_team stops the pool.
        raise_if_stopped()
        if progress is not None:
            expanded, generated, seconds, bound = team.snapshot()
            if expanded >= report:
                progress(expanded, generated, seconds, bound)
                report = (expanded // _REPORT_EVERY + 1) * _REPORT_EVERY
    for task in tasks:
        task.result()
