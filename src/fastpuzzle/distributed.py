"""One IDA* search on a Dask cluster: the large iterations' units of work as tasks.

The calling process runs the search as the parallel IDA* does (``fastpuzzle._parallel``): the
small iterations on its own threads, and for each large one the frontier of units (subtree
roots, with the heuristic state each goes on from), split where the last iteration found the
work. Here those units go to the cluster instead, in chunks, as Dask futures: each task searches
its units to the iteration's bound with the worker's compiled kernel and returns the expansions
per unit, the next bound and the path if it reached the goal. The first path claimed is kept (every
path found within the bound is optimal) and the other tasks are cancelled; a worker lost
mid-search costs only its tasks, which Dask runs again elsewhere, so the result stays optimal.

Tables are read once per worker process, from that machine's cache as ``fastpuzzle pdb build``
left it: exactly the tables the calling process searches with (a worker without them fails the
task with a message saying what to build; it never builds or substitutes another). Threads
inside a worker are Dask's: a worker with ``nthreads=4`` searches four chunks at once, each
without the GIL.

Limits hold: the deadline and a share of the node budget travel with every task (so a search
stopped by a node limit may stop below it), and a task's limit ends the search with that
status. Ctrl-C in the calling process cancels the futures and tells running tasks to stop (a
Dask ``Event`` they look at about four times a second).
"""

from __future__ import annotations

import contextlib
import math
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from fastpuzzle._core import _idastar, _wide_pdb
from fastpuzzle._parallel import Team
from fastpuzzle._solver import pruning
from fastpuzzle._util.optional import require

__all__ = ["REMOTE_FROM", "KernelCall", "search_units", "share_with"]

#: Iterations expected (from the growth of the last two) to expand at least this many nodes go
#: to the cluster; smaller ones stay on the calling process's threads. A task's round trip costs
#: milliseconds; at 2**22 expansions an iteration takes about 0.1 s on one core.
REMOTE_FROM = 1 << 22

#: Tasks per worker thread in an iteration: enough to even out chunks of uneven work.
TASKS_PER_THREAD = 4

_STATUS_RUNNING = -1
_STATUS_SOLVED = 0
_STATUS_TIME_LIMIT = 2
_STATUS_NODE_LIMIT = 3
_STOP_ABORTED = 100
_INFINITE = 1 << 30

#: A worker process's tables, by KernelCall.tables_key: read once, shared by its tasks.
_TABLES: dict[str, Any] = {}


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
        The search's duplicate pruning (a worker builds or reads the same machine, whose states
        the units carry).
    """

    kernel: str
    args: tuple[Any, ...]
    max_depth: int
    tables: Callable[[], Any] = field(compare=False)
    tables_key: str
    prune: str | int = "parent"


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
            return (_STATUS_TIME_LIMIT, "", 0, 0, _INFINITE, [])
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
    """``share`` for :func:`fastpuzzle._parallel.run_team`: large iterations to the cluster."""

    client: Any
    call: KernelCall
    node_limit: int
    time_limit: float
    remote_from: int
    large: bool = False
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
        chunks = _chunks(count, threads * TASKS_PER_THREAD)
        node_limit = 0
        if self.node_limit:
            left = max(self.node_limit - expanded, 1)
            node_limit = math.ceil(left / len(chunks))
        name = f"fastpuzzle-stop-{uuid.uuid4().hex}"
        stop = dask.Event(name, client=self.client)
        futures: dict[Any, int] = {}
        try:
            for first, end in chunks:
                future = self.client.submit(
                    search_units, self.call, bound, nodes[first * size : end * size],
                    node_limit, self.deadline, name, pure=False,
                )  # fmt: skip
                futures[future] = first
            for future in dask.as_completed(list(futures)):
                status, moves, done, generated, next_bound, work = future.result()
                if status == _STOP_ABORTED:
                    # Only this search sets its event, and only once it has its answer.
                    raise RuntimeError("a cluster task was stopped before the search ended")
                team.absorb(futures[future], work, done, generated, next_bound, moves)
                if progress is not None:
                    progress(*team.snapshot())
                if status in (_STATUS_TIME_LIMIT, _STATUS_NODE_LIMIT):
                    team.stop_with(status)
                if status != _STATUS_RUNNING:
                    break
        finally:
            self.client.cancel(list(futures))
            # A scheduler already gone leaves nothing running to stop.
            with contextlib.suppress(Exception):
                stop.set()


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
) -> Callable[[Team, Callable[[int, int, float, int], None] | None], bool]:
    """The ``share`` argument of :func:`fastpuzzle._parallel.run_team` for ``client``'s cluster.

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
    """
    return _ClusterShare(client, call, node_limit, time_limit, remote_from, large)
