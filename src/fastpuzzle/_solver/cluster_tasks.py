"""The tasks of one IDA* search on a Dask cluster, and the ``share`` that hands them out.

What a user sees of it (and the whole story: units, chunks, limits, Ctrl-C) is
:mod:`fastpuzzle.distributed`; :mod:`fastpuzzle._solver.cluster` builds a search's runner from
it. The units are the parallel IDA*'s (:mod:`fastpuzzle._solver.parallel`); a worker rebuilds
the kernel from a :class:`KernelCall` and reads its tables once per process.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from fastpuzzle._core import _idastar, _wide_pdb
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._solver import pruning
from fastpuzzle._solver.parallel import Team, run_units
from fastpuzzle._util.optional import require

__all__ = ["REMOTE_FROM", "STOP_WAIT", "KernelCall", "running_tasks", "search_units", "share_with"]

#: Iterations expected (from the growth of the last two) to expand at least this many nodes go
#: to the cluster; smaller ones stay on the calling process's threads, where a task's round trip
#: would cost more than the iteration (``cluster_report.py``).
REMOTE_FROM = 1 << 22

#: Tasks per worker thread in an iteration: enough to even out chunks of uneven work.
TASKS_PER_THREAD = 4

_STATUS_RUNNING = SearchStatus.STATUS_RUNNING
_STATUS_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT
_STATUS_NODE_LIMIT = SearchStatus.STATUS_NODE_LIMIT
_STOP_ABORTED = SearchStatus.STATUS_ABORTED
#: The next bound of units that found nothing over their bound (the kernels' own).
_NO_BOUND = _idastar.NO_BOUND

#: A worker process's tables, by KernelCall.tables_key: read once, shared by its tasks.
_TABLES: dict[str, Any] = {}

#: Seconds the calling process waits, once it has its answer, for the tasks still running to
#: see the stop event and end (they look every 0.25 s): a task left running when the client or
#: the cluster closes is logged as cancelled there.
STOP_WAIT = 5.0

#: How many of this worker process's tasks are searching now.
_running = [0]


def running_tasks() -> int:
    """How many :func:`search_units` tasks this process is running now (a worker's count, as
    ``client.run(running_tasks)`` reads it)."""
    return _running[0]


@dataclass(frozen=True)
class KernelCall:
    """What a worker process needs to rebuild one search's kernel.

    Attributes
    ----------
    kernel : str
        ``"packed"`` (``_idastar``, up to 16 cells) or ``"wide_pdb"`` (``_wide_pdb``).
    args : tuple
        The kernel's positional arguments (the canonical board, its blank, the shape, the goal's
        blank and, for ``"packed"``, the heuristic code).
    max_depth : int
        The search's depth cap.
    tables : callable
        Returns the loaded tables in a worker process (picklable: a module-level function or a
        ``functools.partial`` of one).
    tables_key : str
        Names those tables in the worker's cache.
    prune : str or int
        The search's duplicate pruning as the calling process does it
        (``Prepared.machine_prune``): a worker builds or reads the same machine, whose states the
        units carry.
    """

    kernel: str
    args: tuple[Any, ...]
    max_depth: int
    tables: Callable[[], Any] = field(compare=False)
    tables_key: str
    prune: str | int


def search_units(
    call: KernelCall,
    bound: int,
    nodes: bytes,
    node_limit: int,
    deadline: float,
    stop_event: str | None,
) -> tuple[int, str, int, int, int, list[int]]:
    """A Dask task: search ``nodes`` (units of one iteration) to ``bound`` on this worker.

    ``deadline`` is a :func:`time.time` (0: none), so that a task that waited in the queue
    gets only what is left. Returns ``(status, moves, expanded, generated, next_bound, work per
    unit)``; status -1 when every unit was searched to its end.
    """
    time_limit = 0.0
    if deadline:
        time_limit = deadline - time.time()
        if time_limit <= 0:
            return (_STATUS_TIME_LIMIT, "", 0, 0, _NO_BOUND, [])
    if stop_event is not None and _dask().Event(stop_event).is_set():
        return (_STOP_ABORTED, "", 0, 0, 0, [])  # queued past the search's answer
    _running[0] += 1
    try:
        return _search_units(call, bound, nodes, node_limit, time_limit, stop_event)
    finally:
        _running[0] -= 1


def _search_units(
    call: KernelCall,
    bound: int,
    nodes: bytes,
    node_limit: int,
    time_limit: float,
    stop_event: str | None,
) -> tuple[int, str, int, int, int, list[int]]:
    tables = _TABLES.get(call.tables_key)
    if tables is None:
        tables = _TABLES.setdefault(call.tables_key, call.tables())
    kernel = _idastar if call.kernel == "packed" else _wide_pdb
    try:
        found: tuple[int, str, int, int, int, list[int]] = kernel.idastar(
            *call.args,
            tables=tables,
            node_limit=node_limit,
            time_limit=time_limit,
            max_depth=call.max_depth,
            progress=_stop_watch(stop_event),
            units=(bound, nodes),
            runner=run_units,
            machine=pruning.machine((call.args[2], call.args[3]), call.prune),
        )
    except _Stopped:
        return (_STOP_ABORTED, "", 0, 0, 0, [])
    return found


def _dask() -> ModuleType:
    return require("distributed", "a search on a Dask cluster", "dask")


class _Stopped(Exception):
    """The calling process has its answer: this task's work is not needed any more."""


def _stop_watch(name: str | None) -> Callable[[int, int, float, int], None] | None:
    """A progress callback that stops the task once the calling process sets the event."""
    if name is None:
        return None
    event = _dask().Event(name)
    looked = [time.monotonic()]

    def look(expanded: int, generated: int, seconds: float, bound: int) -> None:
        now = time.monotonic()
        if now - looked[0] >= 0.25:
            looked[0] = now
            if event.is_set():
                raise _Stopped

    return look


@dataclass
class _ClusterShare:
    """``share`` for :func:`~fastpuzzle._solver.parallel.run_team`: large iterations to the
    cluster."""

    client: Any
    call: KernelCall
    node_limit: int
    time_limit: float
    remote_from: int
    large: bool = False
    stop_wait: float = 0.0
    deadline: float = 0.0
    last: int = 0
    previous: int = 0
    counted: int = 0
    offers: int = 0

    def __call__(self, team: Team, progress: Callable[[int, int, float, int], None] | None) -> bool:
        expanded, _, seconds, _ = team.snapshot()
        if self.offers == 0:
            if self.time_limit > 0:
                self.deadline = time.time() + self.time_limit - seconds
            # The frontier and its splits for every thread of the cluster, from the next
            # iteration on (this one's frontier is already collected).
            team.spread_over(max(1, sum(self.client.nthreads().values())))
        self.offers += 1
        # The work since the last offer (the last iteration's), as run_search's switch measures.
        self.previous, self.last = self.last, expanded - self.counted
        self.counted = expanded
        expected = self.last * (self.last / self.previous if self.last > self.previous > 0 else 1)
        if expected < self.remote_from and not (self.large and self.offers == 1):
            return False
        self._search(team, progress, expanded)
        return True

    def _search(
        self,
        team: Team,
        progress: Callable[[int, int, float, int], None] | None,
        expanded: int,
    ) -> None:
        dask = _dask()
        bound, nodes = team.frontier_units()
        shared = team.units()
        count = len(shared[1]) if shared else 0
        size = len(nodes) // count
        threads = sum(self.client.nthreads().values()) or 1
        # Chunks of units to search, each with the grant it reached before (0: none yet).
        waiting = [(first, end, 0) for first, end in _chunks(count, threads * TASKS_PER_THREAD)]
        budget = _Budget(self.node_limit - expanded, len(waiting), limited=self.node_limit > 0)
        if not budget.open():
            team.stop_with(_STATUS_NODE_LIMIT)
            return
        name = f"fastpuzzle-stop-{uuid.uuid4().hex}"
        stop = dask.Event(name, client=self.client)
        futures: dict[Any, tuple[int, int, int]] = {}
        cut: list[tuple[int, int, int]] = []

        def submit() -> Any:
            first, end, _ = waiting.pop(0)
            share = budget.grant()
            future = self.client.submit(
                search_units, self.call, bound, nodes[first * size : end * size],
                share, self.deadline, name, pure=False,
            )  # fmt: skip
            futures[future] = (first, end, share)
            return future

        # Without a node limit every chunk goes at once. With one, at most one chunk a thread is
        # out, each granted its part of what is left when it starts: a chunk that ends below its
        # grant leaves the rest to the chunks after it, and one that reaches its grant (the
        # iteration cannot end without it) does not stop the others, which go on to theirs.
        # Once every other chunk has ended, the chunks cut short run again from their start
        # while what is left would take them further. So the search spends the budget, and
        # ``expanded`` counts every expansion of every task.
        out = len(waiting) if not budget.limited else threads
        running = dask.as_completed([submit() for _ in range(min(out, len(waiting)))])
        busy = len(futures)
        try:
            for future in running:
                busy -= 1
                status, moves, done, generated, next_bound, work = future.result()
                if status == _STOP_ABORTED:
                    # Only this search sets its event, and only once it has its answer.
                    raise RuntimeError("a cluster task was stopped before the search ended")
                first, end, share = futures[future]
                budget.settle(share, done)
                team.absorb(first, work, done, generated, next_bound, moves)
                if progress is not None:
                    progress(*team.snapshot())
                if status == _STATUS_NODE_LIMIT:
                    cut.append((first, end, share))
                elif status != _STATUS_RUNNING:
                    if status == _STATUS_TIME_LIMIT:
                        team.stop_with(status)
                    break
                if not waiting and not busy:
                    budget.again(cut, waiting)
                while waiting and busy < out and budget.open():
                    running.add(submit())
                    busy += 1
            else:
                if cut or waiting:
                    # A chunk stopped at its grant, and the budget left would not take it
                    # further: the iteration cannot end.
                    team.stop_with(_STATUS_NODE_LIMIT)
        finally:
            # The tasks still running stop at the event; those queued end at once. Waited for
            # (a few tenths of a second), so that none is still running when the caller closes
            # its client or cluster, which would log each as a cancelled task.
            # A scheduler already gone leaves nothing running to stop.
            with contextlib.suppress(Exception):
                stop.set()
                dask.wait(list(futures), timeout=self.stop_wait)
            self.client.cancel(list(futures))


@dataclass
class _Budget:
    """The node budget of one iteration on the cluster: ``left`` expansions not granted to any
    chunk, among the ``chunks`` chunks not granted yet; no limit unless ``limited``."""

    left: int
    chunks: int
    limited: bool

    def open(self) -> bool:
        """Whether another chunk can be granted expansions."""
        return not self.limited or self.left >= 1

    def grant(self) -> int:
        """The next chunk's node limit, its part of what is left (0: no limit)."""
        if not self.limited:
            return 0
        share = max(1, self.left // max(self.chunks, 1))
        self.left -= share
        self.chunks -= 1
        return share

    def settle(self, share: int, done: int) -> None:
        """A task granted ``share`` expanded ``done``: what it did not spend goes back."""
        if self.limited:
            self.left += max(share - done, 0)

    def again(self, cut: list[tuple[int, int, int]], waiting: list[tuple[int, int, int]]) -> None:
        """Move the first chunks of ``cut`` (``(first, end, grant reached)``, in order) to
        ``waiting`` while each would be granted more than it reached before."""
        if not self.limited:
            return
        n = len(cut)
        while n and self.left // n <= max(reached for _, _, reached in cut[:n]):
            n -= 1
        waiting.extend(cut[:n])
        del cut[:n]
        self.chunks += n


def _chunks(count: int, tasks: int) -> list[tuple[int, int]]:
    """``count`` units in order as at most ``tasks`` runs of nearly equal length."""
    tasks = max(1, min(count, tasks))
    edges = [round(i * count / tasks) for i in range(tasks + 1)]
    return [(edges[i], edges[i + 1]) for i in range(tasks) if edges[i] < edges[i + 1]]


def share_with(
    client: Any,
    call: KernelCall,
    *,
    node_limit: int = 0,
    time_limit: float = 0.0,
    remote_from: int = REMOTE_FROM,
    large: bool = False,
    stop_wait: float = STOP_WAIT,
) -> Callable[[Team, Callable[[int, int, float, int], None] | None], bool]:
    """The ``share`` argument of :func:`~fastpuzzle._solver.parallel.run_team` for ``client``'s
    cluster.

    Parameters
    ----------
    client : distributed.Client
        The cluster's client.
    call : KernelCall
        How a worker rebuilds the search.
    node_limit, time_limit : int, float
        The search's limits (0: none), shared among the tasks of an iteration.
    remote_from : int
        Iterations expected to expand fewer nodes stay on the calling process's threads.
    large : bool
        The search starts at a known bound (7-8b's second part): its first iteration is large
        and goes to the cluster whatever came before.
    stop_wait : float
        Seconds to wait, once the search has its answer, for the tasks still running to see
        the stop event and end.
    """
    return _ClusterShare(client, call, node_limit, time_limit, remote_from, large, stop_wait)
