"""The Dask plumbing of one IDA* search: its large iterations handed to a cluster.

With a client, a kernel's ``runner`` (what runs a shared iteration) becomes
:func:`~fastpuzzle._solver.cluster_tasks.share_with`'s: iterations expected to expand at least
the request's ``remote_from`` nodes (by default
:data:`~fastpuzzle._solver.cluster_tasks.REMOTE_FROM`) go to the cluster, the others to
local threads (:func:`fastpuzzle._solver.parallel.run_team`). A worker process rebuilds the
kernel from a :class:`~fastpuzzle._solver.cluster_tasks.KernelCall`, and reads the very tables
this search uses from its own cache (:func:`load_exactly`), never another table and never a
build.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

from fastpuzzle._problem import Problem
from fastpuzzle._solver import cluster_tasks
from fastpuzzle._solver.parallel import run_team
from fastpuzzle._solver.prepared import Prepared
from fastpuzzle.heuristics import Heuristic
from fastpuzzle.limits import CoreLimits
from fastpuzzle.pdb.compound import Compound, compound_for
from fastpuzzle.pdb.database import Database, PatternDatabaseError
from fastpuzzle.pdb.dual import dual_layout
from fastpuzzle.pdb.partitions import CUSTOM_NAME, ResolvedPartition, partition_of
from fastpuzzle.pdb.search_tables import exact_table
from fastpuzzle.pdb.store import load
from fastpuzzle.pdb.walking import walking_tables

__all__ = ["load_exactly", "runner"]


def runner(
    prepared: Prepared,
    problem: Problem,
    kernel: Literal["packed", "wide_pdb"],
    args: tuple[Any, ...],
    max_depth: int,
    core: CoreLimits,
    *,
    databases: tuple[Database | Compound, ...] = (),
    dual: bool = False,
    min_bound: int = 0,
) -> Any:
    """The kernel's ``runner`` for a search of ``problem`` with ``prepared``: without a client,
    shared iterations on local threads (None for one thread); with one, large iterations on
    the cluster too (from the first, for a search that starts at a known bound).
    ``databases``: the tables behind the kernel's (a worker reads the same ones), with their
    dual lookups when ``dual``."""
    request = prepared.request
    if request.client is None:
        # Local threads: the calling thread watches the time limit too (run_team); one thread
        # takes no runner (a runner would share the iterations even then).
        if request.workers > 1:
            return functools.partial(run_team, time_limit=core.time_limit)
        return None
    loader, key = _worker_tables(prepared.entry, problem, databases, dual=dual)
    call = cluster_tasks.KernelCall(kernel, args, max_depth, loader, key, prepared.machine_prune)
    remote_from = request.remote_from
    share = cluster_tasks.share_with(
        request.client, call, node_limit=core.node_limit, time_limit=core.time_limit,
        remote_from=cluster_tasks.REMOTE_FROM if remote_from is None else remote_from,
        large=min_bound > 0,
    )  # fmt: skip
    return functools.partial(run_team, share=share, time_limit=core.time_limit)


def _worker_tables(
    entry: Heuristic,
    problem: Problem,
    databases: tuple[Database | Compound, ...],
    *,
    dual: bool,
) -> tuple[Callable[[], Any], str]:
    """How a worker process reads the very tables a search of ``problem`` with ``entry``'s
    heuristic uses, and their cache key."""
    rows, cols = problem.board.shape
    where = f"{rows}x{cols}:{problem.goal_blank}"
    if entry.tables == "walking":
        return functools.partial(walking_tables, problem), f"walking:{where}"
    if not databases:
        return _no_tables, "none"
    if isinstance(databases[0], Compound):
        name = databases[0].name
        loader = functools.partial(_compound_exactly, name, (rows, cols), problem.goal_blank)
        return loader, f"compound:{where}:{name}"
    resolved = tuple(partition_of(d) for d in databases if isinstance(d, Database))
    loader = functools.partial(load_exactly, resolved, dual=dual)
    names = ",".join(p.name for p in resolved)
    return loader, f"pdb:{where}:{names}:{'dual' if dual else 'plain'}"


def _no_tables() -> None:
    return None


def _compound_exactly(name: str, shape: tuple[int, int], blank: int) -> object:
    """A worker process's compound tables, from its cache, never built there."""
    return compound_for(name, shape, blank, build=False).loaded()


def load_exactly(partitions: tuple[ResolvedPartition, ...], *, dual: bool = False) -> object:
    """A worker process's tables: those of the resolved ``partitions`` (as the calling process
    searches them) from its cache, never another one and never a build (the units it searches
    carry those tables' group indices and values); with ``dual``, laid out with their dual
    lookups (whose extra tables must be in its cache too)."""
    databases = []
    for partition in partitions:
        rows, cols = partition.shape
        database: Database | None
        if partition.name == "exact":
            database = exact_table(rows, cols, partition.goal_blank)
        else:
            database = load(partition)
        if database is None:
            raise PatternDatabaseError(
                f"a Dask worker has no {partition.name} table for {rows}x{cols} in its cache: "
                f"build it there first ({_build_hint(partition)})"
            )
        databases.append(database)
    first, *others = databases
    if not others:
        return dual_layout(first, build=False) if dual else first.loaded()
    if dual:
        raise ValueError("dual lookups take one partition, not a compound")
    return first.loaded_with(*others)


def _build_hint(partition: ResolvedPartition) -> str:
    """The command that builds ``partition``'s table as the calling process has it."""
    (rows, cols), blank = partition.shape, partition.goal_blank
    other_blank = blank != rows * cols - 1
    if not CUSTOM_NAME.fullmatch(partition.name):
        option = f" --goal-blank {blank}" if other_blank else ""
        return f"`fastpuzzle pdb build {partition.name}{option}`"
    groups = [list(group) for group in partition.groups]
    wrapped = f"ZeroAwareGroups({groups})" if partition.zero_aware else str(groups)
    blank_arg = f", goal_blank={blank}" if other_blank else ""
    return f"`fastpuzzle.build_pdb({wrapped}, ({rows}, {cols}){blank_arg})`"
