"""Threads for the parallel IDA* kernels: a crew, a waiting loop, Ctrl-C and progress.

A compiled kernel (``_idastar._Team``) does the searching without the GIL; this module only
starts the iterations and waits for them, on the threads of a :class:`~.crew.Crew` (one that
does not begin within seconds counts as not started, where a ``ThreadPoolExecutor`` would wait
for it for ever). Python threads rather than OpenMP: the calling thread stays free to wait in a
loop that Ctrl-C can interrupt (signals reach the main thread only, and an OpenMP region would
hold it in C), the progress callback runs in the caller's thread, and the build needs no
``-fopenmp`` (macOS's clang has none).

The kernel's side, per iteration: ``prepare()`` (calling thread: serial part and frontier; False
when the iteration needs no pool threads), ``work(i)`` for ``i`` in ``range(workers)`` (pool
threads), ``finish()`` (calling thread; True when the search is over), ``abort()``,
``snapshot()``, ``units()``, ``balance()`` and ``result()``.

:func:`tracing` records the units of work each shared iteration handed out, so that the balance
of a P-thread run can be judged on any machine (``benchmarks/studies/scaling_report.py``); with
``lockstep=True`` the P threads run as P virtual cores and each iteration's critical path is
measured rather than replayed (see :func:`tracing`).
"""

from __future__ import annotations

import heapq
import os
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from fastpuzzle._core._interrupt import raise_if_stopped
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._solver.crew import Crew, cannot_start
from fastpuzzle._util.checks import is_whole, shown, whole
from fastpuzzle.errors import InvalidOptionError

__all__ = [
    "LOCKSTEP_QUANTUM",
    "MAX_WORKERS",
    "POLL_SECONDS",
    "Endings",
    "SharedIteration",
    "available_cores",
    "check_workers",
    "max_workers",
    "resolve_workers",
    "run_team",
    "run_units",
    "simulated_speedup",
    "submit",
    "tracing",
]

#: The most threads one search (or batch) may be given with ``workers=``, unless the machine has
#: more cores (:func:`max_workers`); :func:`check_workers` refuses more. Past the cores, threads
#: only share them (:func:`tracing` runs them as virtual cores to measure balance), and each
#: costs its search state (about 0.4 MB), 32 units of the frontier the calling thread prepares
#: alone, and its turn at the GIL whenever an iteration starts or stops: at this count a time
#: limit still holds within a fraction of a second (docs/performance.rst, "Where the constants
#: come from"), and ``tests/core/test_parallel_idastar.py`` holds it to 0.5 s.
MAX_WORKERS = 256

#: How often the calling thread wakes while the pool searches, to report progress and look at
#: the clock (Ctrl-C and the other limits do not wait for it: a signal interrupts the wait, the
#: threads check the limits; it wakes at a time limit too).
POLL_SECONDS = 0.05

_REPORT_EVERY = 1 << 16

#: The kernels' status of a search stopped by its time limit (``Team.stop_with``).
_STATUS_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT

#: Expansions between two barriers of threads in lockstep (:func:`tracing`): a thread waiting
#: for work waits at least this long, as a thread on a real machine waits for the next poll of
#: a busy one (the kernels' ``STEAL_QUANTUM``).
LOCKSTEP_QUANTUM = 512


@dataclass(frozen=True)
class SharedIteration:
    """One iteration searched by pool threads.

    Attributes
    ----------
    bound : int
        The iteration's cost bound.
    units : list of int
        The expansions of each unit of work (frontier node) in the order the shared counter
        handed them out; work one thread gave another counts for the unit it came from.
    solver : int or None
        The unit in which the goal was found (None: not in this iteration).
    span : int or None
        With threads in lockstep (``tracing(lockstep=True)``): the expansions on the
        iteration's critical path on ``threads`` virtual cores; None otherwise.
    threads : int or None
        The threads that searched it in lockstep; None otherwise.
    steals : int
        The times a thread gave untried work to one that had none.
    """

    bound: int
    units: list[int]
    solver: int | None = None
    span: int | None = None
    threads: int | None = None
    steals: int = 0


_trace: ContextVar[list[SharedIteration] | None] = ContextVar("fastpuzzle_trace", default=None)
_lockstep: ContextVar[int] = ContextVar("fastpuzzle_lockstep", default=0)


def simulated_speedup(
    expanded: int, trace: list[SharedIteration], threads: int, serial: int | None = None
) -> float:
    """The speed-up a machine of ``threads`` cores would give the traced search, in expansions.

    The work outside the traced units (serial iterations, the frontier the calling thread
    collects) runs on one thread. An iteration traced in lockstep adds its measured ``span``
    (it must have run on ``threads`` threads). Any other iteration is replayed: its units are
    taken in order by the first free thread (as the shared counter hands them out), and it ends
    with its last unit, or with the unit that found the goal (the others are stopped then); this
    replay holds only for searches without work stealing (a unit whose work other threads
    shared would count as one thread's). Returns ``serial`` (the serial search's expansions;
    default ``expanded``, the traced search's) over that critical path.

    Raises
    ------
    ValueError
        For ``threads < 1``, or an iteration traced in lockstep on another number of threads.
    """
    if threads < 1:
        raise ValueError(f"expected threads >= 1, got {threads}")
    shared = sum(sum(iteration.units) for iteration in trace)
    path = expanded - shared
    for iteration in trace:
        if iteration.span is not None:
            if iteration.threads != threads:
                raise ValueError(
                    f"an iteration traced in lockstep on {iteration.threads} threads "
                    f"does not tell the critical path on {threads}"
                )
            path += iteration.span
            continue
        free_at = [0] * threads
        end = 0
        for index, work in enumerate(iteration.units):
            start = heapq.heappop(free_at)
            heapq.heappush(free_at, start + work)
            if index == iteration.solver:
                # The goal ends the iteration: the units still running are stopped there.
                end = start + work
                break
            end = max(end, start + work)
        path += end
    return (expanded if serial is None else serial) / path if path > 0 else 1.0


@contextmanager
def tracing(
    *, lockstep: bool = False, quantum: int = LOCKSTEP_QUANTUM
) -> Iterator[list[SharedIteration]]:
    """Record every shared iteration of the parallel searches run inside the block.

    Yields the list that fills up, one :class:`SharedIteration` per iteration, for measuring
    load balance on any machine.

    With ``lockstep``, a search's ``workers`` threads run as that many virtual cores: each
    keeps a clock (its expansions, plus the nodes it re-entered to reach work it took, plus
    the time it waited for work, counted in quanta) and waits at a barrier whenever its clock
    reaches a multiple of ``quantum``, so P threads advance together on a 2-core machine as on
    P equal cores, and the work stealing happens as it would there. Each iteration's ``span``
    is its critical path in expansions: the clock of the thread that found the goal, else the
    latest clock at which a thread finished its work. Limits of the model: a node costs one
    unit of time whatever its heuristic lookups cost (cache misses, a second table); a thread
    sees a request for work, and starts on work it was given, on the next quantum rather than
    at once (a waiting thread loses up to two quanta a steal, where the real poll loses half of
    one on average); thread starts, the lock and memory bandwidth cost nothing. Lockstep is for
    measuring: it is slower than running freely (every quantum is a barrier of every thread).

    Raises
    ------
    ValueError
        For ``quantum < 1``.
    """
    if quantum < 1:
        raise ValueError(f"expected quantum >= 1, got {quantum}")
    trace: list[SharedIteration] = []
    token = _trace.set(trace)
    step = _lockstep.set(quantum if lockstep else 0)
    try:
        yield trace
    finally:
        _lockstep.reset(step)
        _trace.reset(token)


@cache
def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it), read
    once per process: every solve() asks, and a board of one move takes microseconds."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def max_workers() -> int:
    """The most threads ``workers=`` takes here: :data:`MAX_WORKERS`, or the available cores
    where there are more."""
    return max(MAX_WORKERS, available_cores())


def check_workers(workers: object) -> int | None:
    """``workers`` checked: None, or a whole number of threads from 1 to :func:`max_workers`.

    Raises
    ------
    InvalidOptionError
        For anything else (a bool, a float, a string, 0, more than :func:`max_workers`).
    """
    most = max_workers()
    if is_whole(workers) and int(workers) > most:
        raise InvalidOptionError(
            f"expected workers as a whole number from 1 to {most} (the most threads one search "
            f"takes: {MAX_WORKERS}, or the cores where there are more) or None, got "
            f"{shown(workers)}"
        )
    return whole("workers", workers, low=1, high=most, none=True)


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
    def units(self) -> tuple[int, list[int], int] | None: ...
    def balance(self) -> tuple[int, int] | None: ...
    def lockstep(self, quantum: int) -> None: ...
    def result(self) -> Any: ...
    def frontier_units(self) -> tuple[int, bytes]: ...
    def unit_results(self) -> tuple[int, str, int, int, int, list[int]]: ...
    def absorb(
        self,
        first: int,
        work: list[int],
        expanded: int,
        generated: int,
        next_bound: int,
        moves: str,
    ) -> None: ...
    def stop_with(self, status: int) -> None: ...
    def spread_over(self, threads: int) -> None: ...


#: ``share(team, progress)`` searches a prepared iteration elsewhere (a cluster) and returns
#: True, or returns False to leave it to the pool threads.
Share = Callable[[Team, Callable[[int, int, float, int], None] | None], bool]


def run_team(
    team: Team,
    workers: int,
    progress: Callable[[int, int, float, int], None] | None = None,
    share: Share | None = None,
    *,
    time_limit: float = 0.0,
) -> Any:
    """Run a parallel search to its end with ``workers`` pool threads; returns its result.

    Any exception in the calling thread (KeyboardInterrupt, the progress callback's, a thread
    that cannot start) stops every pool thread before it propagates. With ``share``, each
    iteration is offered to it first (``fastpuzzle.distributed``). ``time_limit`` (seconds from
    the search's start, the kernel's own limit; 0: none) is also watched by the calling thread,
    which stops the team once it has passed: a pool thread looks at the clock only when its
    grant of expansions is spent, and many threads on few cores spend theirs slowly.
    """
    crew: Crew | None = None
    trace = _trace.get()
    lockstep = _lockstep.get() if trace is not None else 0
    if lockstep:
        team.lockstep(lockstep)
    try:
        while True:
            if team.prepare():
                if share is None or not share(team, progress):
                    if crew is None:
                        crew = Crew(workers)
                    _search_locally(team, crew, workers, progress, time_limit)
                if trace is not None:
                    trace.append(_traced(team, workers))
            if team.finish():
                return team.result()
    finally:
        if crew is not None:
            crew.close()


def _traced(team: Team, workers: int) -> SharedIteration:
    """The iteration the pool threads (or a cluster) just searched, for :func:`tracing`."""
    bound, units, solver = team.units() or (0, [], -1)
    span, steals = team.balance() or (-1, 0)
    return SharedIteration(
        bound,
        units,
        solver if solver >= 0 else None,
        span=span if span >= 0 else None,
        threads=workers if span >= 0 else None,
        steals=steals,
    )


def run_units(
    team: Team, workers: int, progress: Callable[[int, int, float, int], None] | None = None
) -> tuple[int, str, int, int, int, list[int]]:
    """Search the units another process handed over (``team.load_units``) with ``workers`` pool
    threads; returns ``team.unit_results()``. Stops as :func:`run_team` does."""
    crew = Crew(workers)
    try:
        _search_locally(team, crew, workers, progress)
    finally:
        crew.close()
    return team.unit_results()


def _search_locally(
    team: Team,
    crew: Crew,
    workers: int,
    progress: Callable[[int, int, float, int], None] | None,
    time_limit: float = 0.0,
) -> None:
    """The pool threads search the prepared frontier; an exception here, in starting them
    included, stops them first.

    Every task waits for ``go`` before it searches, so that the calling thread starts the pool's
    threads (the first iteration) and hands out the tasks on an idle machine: with a thousand
    threads on two cores, each thread started while the others search took the caller longer
    than the last (8 s for 1,024 threads, past any time limit).
    """
    go = threading.Event()
    tasks: list[Future[None]] = []
    endings = Endings()
    try:
        for index in range(workers):
            what = f"thread {index + 1:,} of the {workers:,} asked for (workers={workers})"
            tasks.append(endings.watch(crew.submit(index, what, _when_set, go, team.work, index)))
            if time_limit > 0 and team.snapshot()[2] >= time_limit:
                # Out of time while starting threads (each may take a millisecond on a busy
                # machine): the team stops, and the tasks not handed out are not needed.
                team.stop_with(_STATUS_TIME_LIMIT)
                break
        go.set()
        _wait(team, endings, progress, time_limit)
    except BaseException:
        team.abort()
        go.set()
        for task in tasks:
            # Stopped at their next checkpoint; a task's own lock, taken alone, is never left
            # taken by a Ctrl-C.
            task.exception()
        raise
    for task in tasks:
        task.result()


class Endings:
    """The futures of a pool's tasks, as they end, waited for without holding their locks.

    :func:`concurrent.futures.wait` takes every future's lock in turn before it waits, and
    gives them back as it leaves: a Ctrl-C landing among those takes leaves some taken, and the
    pool's threads then block for ever on them as they hand over their results (seen with 256
    threads). Here each future puts itself in a queue as it ends (its own thread, under its own
    lock), and the waiting thread reads the queue alone, which a Ctrl-C leaves as it was.
    """

    def __init__(self) -> None:
        self._ended: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()
        self.watched = 0

    def watch(self, future: Future[Any]) -> Future[Any]:
        """Have ``future`` reported by :meth:`next` once it ends; returns it."""
        future.add_done_callback(self._ended.put)
        self.watched += 1
        return future

    def next(self, timeout: float | None = None) -> Future[Any] | None:
        """The next future to end (None if none did within ``timeout`` seconds)."""
        try:
            return self._ended.get(timeout=timeout)
        except queue.Empty:
            return None


def submit(
    pool: ThreadPoolExecutor, what: str, call: Callable[..., Any], *args: Any
) -> Future[Any]:
    """``pool.submit(call, *args)``, which starts a thread when none is idle; a thread the system
    will not start (``what`` names it) is a :class:`~fastpuzzle.errors.ThreadStartError`. (A
    batch's pool; a search's threads start through :class:`~.crew.Crew`, whose wait is bounded.)"""
    try:
        return pool.submit(call, *args)
    except RuntimeError as error:
        if "new thread" not in str(error):  # not "can't start new thread": a pool shut down
            raise
        raise cannot_start(what, str(error)) from error


def _when_set(go: threading.Event, work: Callable[[int], None], index: int) -> None:
    go.wait()
    work(index)


def _wait(
    team: Team,
    endings: Endings,
    progress: Callable[[int, int, float, int], None] | None,
    time_limit: float = 0.0,
) -> None:
    """Wait for the pool threads' tasks to end, reporting progress every 2**16 expansions or
    so, and stop them once ``time_limit`` has passed."""
    expanded, _, seconds, _ = team.snapshot()
    report = (expanded // _REPORT_EVERY + 1) * _REPORT_EVERY
    timeout = POLL_SECONDS
    left = endings.watched
    while left:
        if time_limit > 0:
            timeout = min(POLL_SECONDS, max(time_limit - seconds, 0.0) + 0.001)
        if endings.next(timeout) is not None:
            left -= 1
        if time_limit > 0:
            seconds = team.snapshot()[2]
            if seconds >= time_limit:
                team.stop_with(_STATUS_TIME_LIMIT)
        # A caller on a worker thread sees no Ctrl-C; its stop event (run_stoppable: batches,
        # the puzzle page's Stop) is looked at here, and run_team stops the pool.
        raise_if_stopped()
        if progress is not None:
            expanded, generated, seconds, bound = team.snapshot()
            if expanded >= report:
                progress(expanded, generated, seconds, bound)
                report = (expanded // _REPORT_EVERY + 1) * _REPORT_EVERY
