"""IDA* for every board size: the one place that picks the compiled kernel.

:func:`run` takes a :class:`~fastpuzzle._solver.request.Request` whose heuristic is one of the
catalogue (:mod:`fastpuzzle.heuristics`) and dispatches, the way scikit-learn's ``_dispatcher``
picks a specialised kernel:

- boards of up to 16 cells (packed in one word): ``_idastar``, one recursive driver per
  heuristic, with walking-distance or pattern-database tables when the heuristic needs them;
- boards past 16 cells (one ``uint16`` per cell): ``_wide_idastar`` for Manhattan, linear
  conflict and walking distance (weighted IDA* too, on any board), ``_wide_pdb.idastar`` for
  additive pattern databases of up to 25 cells.

:func:`prepare` resolves what a search needs before any board (the kernel, the tables, the
pruning machine, the deadline) into a :class:`~fastpuzzle._solver.prepared.Prepared`, and
:func:`search` runs it on a board: a single search does both once, a batch chunk prepares once
and searches every board with it. The tables come from
:mod:`fastpuzzle._solver.heuristic_tables`; a search that switches to stronger tables once it is
large runs in two parts (:mod:`fastpuzzle._solver.two_phase`). ``workers > 1`` shares the large
iterations of ``_idastar`` and ``_wide_pdb`` among threads (:mod:`fastpuzzle._solver.parallel`);
``_wide_idastar`` has no parallel version and runs serially. With a Dask client, their largest
iterations go to the cluster (:mod:`fastpuzzle._solver.cluster`).

Every kernel returns the same :class:`~fastpuzzle._core._result.CoreResult`, whose memory figure
is the path (:func:`_path_memory`), as for the other depth-first searches. Moves are U, D, L, R:
the direction the **blank** moves.
"""

from __future__ import annotations

import numpy as np

from fastpuzzle._core import _idastar, _search, _wide, _wide_idastar, _wide_pdb
from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._problem import Problem
from fastpuzzle._solver import cluster, heuristic_tables, hybrid, pruning, two_phase
from fastpuzzle._solver.prepared import Kernel, Prepared, deadline_from_now
from fastpuzzle._solver.request import Request
from fastpuzzle._util.checks import shown
from fastpuzzle.errors import InvalidOptionError, UnknownNameError
from fastpuzzle.heuristics import BY_NAME, CATALOGUE, Heuristic
from fastpuzzle.limits import CoreLimits
from fastpuzzle.pdb.compound import Compound
from fastpuzzle.pdb.database import Database
from fastpuzzle.pdb.dual import dual_layout
from fastpuzzle.pdb.partitions import partition_of
from fastpuzzle.pdb.search_tables import partner_of
from fastpuzzle.results import CoreProgress

__all__ = [
    "MAX_OPTIMAL_DEPTH",
    "PACKED_HEURISTICS",
    "WIDE_HEURISTICS",
    "prepare",
    "prepare_if_built",
    "run",
    "search",
]

#: The longest path the wide IDA* follows (its recursion depth). A board whose Manhattan lower
#: bound is above it is refused at once with :attr:`Status.DEPTH_LIMIT`: no optimal search of
#: such a board could finish.
MAX_OPTIMAL_DEPTH = 1000

#: The longest path the pattern-database driver follows (optimal 5x5 solutions are far shorter).
_PDB_MAX_DEPTH = 400

#: Heuristics IDA* computes on boards of up to 16 cells.
PACKED_HEURISTICS = tuple(h.name for h in CATALOGUE if "packed" in h.idastar)

#: Heuristics IDA* computes past 16 cells. ``pdb`` (boards of up to 25 cells; built on first use
#: on 3x6 and 4x5) and ``pdb6666`` (5x5) need their database built beforehand.
WIDE_HEURISTICS = tuple(h.name for h in CATALOGUE if "wide" in h.idastar)

_DEPTH_LIMIT = SearchStatus.STATUS_DEPTH_LIMIT


def run(request: Request, *, wide: bool = False) -> CoreResult:
    """Run IDA* on ``request``'s problem with its heuristic, on the kernel that fits it.

    What the request's fields mean here:

    - ``heuristic``: a canonical name of a heuristic IDA* computes on the board's size
      (None: Manhattan);
    - ``limits``: ``nodes`` (expansions), ``seconds`` (building or reading the tables
      included) and
      ``max_depth`` are honoured; IDA* stores no nodes, so ``memory_bytes`` never binds;
    - ``progress``: the core-level ``progress(expanded, generated, seconds, bound)``;
    - ``weight``: ``w > 1`` runs weighted IDA* (f = g + w*h) on the wide kernel, for boards of
      any size, whose solutions are at most ``w`` times optimal;
    - ``workers``: threads for the large iterations of the packed kernel (boards of up to 16
      cells, every heuristic) and of the wide pattern-database kernel; the wide Manhattan,
      linear-conflict and walking-distance kernel (and weighted IDA*) runs serially. 1: the
      serial search, whose node counts are exact and reproducible;
    - ``client``: a Dask client; the iterations of the packed and pattern-database kernels
      expected to expand at least ``remote_from`` nodes (by default
      :data:`fastpuzzle.distributed.REMOTE_FROM`) are searched on its cluster (the others on
      ``workers`` local threads);
    - ``prune``: the duplicate pruning every kernel applies (:mod:`fastpuzzle._solver.pruning`):
      the machine of twin move strings by default, parent pruning alone with ``"parent"``.

    ``wide=True`` runs the wide kernel on a board of up to 16 cells too.
    """
    prepared = prepare(request, wide=wide)
    return search(prepared, request.problem)


def prepare(request: Request, *, wide: bool = False) -> Prepared:
    """What a search of ``request`` needs before any board, fetched once: its kernel, its
    tables (read, or built within the time limit where the policy builds them on first use),
    its pruning machine and its deadline (from now). :func:`search` runs it on boards of the
    request's shape and goal."""
    kernel, entry = _kernel(request, wide=wide)
    return _prepared(request, kernel, entry)


def prepare_if_built(request: Request) -> Prepared | None:
    """:func:`prepare` for the policy's pattern database (``heuristic="pdb"``) where it loads
    from the cache, or None where it would have to be built first (nothing is built). One
    look at the cache both answers whether the table is there and prepares the search."""
    kernel, entry = _kernel(request, wide=False)
    if entry.name != "pdb":
        raise ValueError(f"prepare_if_built takes heuristic='pdb', got {entry.name!r}")
    deadline = deadline_from_now(request.limits.seconds)
    database = heuristic_tables.built_database(request, deadline=deadline)
    if database is None:
        return None
    return _prepared(request, kernel, entry, deadline=deadline, database=database)


def search(prepared: Prepared, problem: Problem) -> CoreResult:
    """IDA* on ``problem`` (of the shape and goal ``prepared`` was made for) with what
    ``prepared`` holds."""
    if prepared.kernel == "packed":
        return _path_memory(
            _run_packed(prepared, problem), board_bytes=0, level_bytes=_search.FRAME_BYTES
        )
    return _run_wide(prepared, problem)


def _kernel(request: Request, *, wide: bool) -> tuple[Kernel, Heuristic]:
    """The kernel that runs ``request`` and its heuristic's catalogue entry, checked."""
    entry = BY_NAME.get(request.heuristic or "manhattan")
    weighted = request.weight is not None and request.weight != 1
    use_wide = request.problem.wide or wide or weighted
    encoding = "wide" if use_wide else "packed"
    if entry is None or encoding not in entry.idastar:
        valid = WIDE_HEURISTICS if use_wide else PACKED_HEURISTICS
        where = ""
        if request.problem.wide:
            where = " past 16 cells"
        elif use_wide:
            where = " weighted" if weighted else " on the wide kernel"
        raise UnknownNameError(
            f"unknown heuristic {shown(request.heuristic)} for idastar{where}; expected one of "
            f"{', '.join(valid)}"
        )
    workers = request.workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"expected workers >= 1, got {workers!r}")
    if request.client is not None and use_wide and entry.tables != "pdb":
        raise InvalidOptionError(
            f"a search on a Dask cluster past 16 cells takes a pattern database, got {entry.name}"
        )
    if weighted and entry.tables == "pdb":
        raise InvalidOptionError(
            f"weighted IDA* takes manhattan or linear_conflict, not a pattern database, got "
            f"heuristic={entry.name!r} with weight={shown(request.weight)}"
        )
    if not use_wide:
        return "packed", entry
    return ("wide_pdb" if entry.tables == "pdb" else "wide"), entry


def _prepared(
    request: Request,
    kernel: Kernel,
    entry: Heuristic,
    *,
    deadline: float | None = None,
    database: Database | None = None,
) -> Prepared:
    # A time limit covers building or reading the tables the heuristic needs, then the search;
    # the machine too, fetched once for the whole search (read from the cache, or built in
    # about a second the first time). ``database``: the heuristic's, already loaded (with
    # ``deadline`` set when it was asked for).
    request = request._replace(heuristic=entry.name)
    if database is None:
        deadline = deadline_from_now(request.limits.seconds)
    core = request.limits.core(stores_nodes=False)
    problem = request.problem
    machine_prune = pruning.in_effect(request.prune, exact=entry.tables == "exact")
    machine = pruning.machine(problem.board.shape, machine_prune, deadline=deadline)
    read = heuristic_tables.for_search(
        request, wide=kernel != "packed", deadline=deadline, loaded=database
    )
    return Prepared(
        request, entry, kernel, machine_prune, machine, deadline, core, read.tables,
        read.databases, read.switch_after,
    )  # fmt: skip


def _frontier(prepared: Prepared, runner: object, *, dual: bool, node_bytes: int) -> int:
    """The nodes A*+IDA*'s A* part stores (0: plain IDA*): the request's budget on one thread
    (no runner) with a consistent heuristic (no dual lookups). The store counts in the
    result's ``allocated_bytes``."""
    if runner is not None or dual:
        return 0
    return hybrid.budget(prepared.request, node_bytes)


def _path_memory(core: CoreResult, *, board_bytes: int, level_bytes: int) -> CoreResult:
    """``core`` with its memory figure counted as the other depth-first searches count theirs.

    The packed and pattern-database kernels report the size of their fixed state (plus the
    frontier of a parallel search), the same for every board; what IDA* stores is its path. So
    ``peak_memory_bytes`` becomes ``board_bytes`` (a board changed in place) plus
    ``level_bytes`` for each level of the deepest path (``max_frontier``: the solution's length
    plus one, else the last bound's), and the state's size becomes ``allocated_bytes``. A
    parallel search holds one such path per thread: the figure is one thread's, as the serial
    search's.
    """
    stored = board_bytes + core.max_frontier * level_bytes
    return CoreResult(
        core.status,
        core.moves,
        core.expanded,
        core.generated,
        core.max_frontier,
        stored,
        core.seconds,
        core.depth,
        core.iterations,
        max(core.peak_memory_bytes, core.allocated_bytes),
    )


def _run_packed(prepared: Prepared, problem: Problem) -> CoreResult:
    if prepared.switch_after is not None:
        return _run_then_pair(prepared, problem)
    core = prepared.limits_left()
    if core is None:
        return prepared.out_of_time()
    return _packed_kernel(
        prepared, problem, prepared.tables, core, prepared.request.progress,
        databases=prepared.databases,
    )  # fmt: skip


def _packed_kernel(
    prepared: Prepared,
    problem: Problem,
    found: object,
    core: CoreLimits,
    progress: CoreProgress | None,
    *,
    min_bound: int = 0,
    databases: tuple[Database | Compound, ...] = (),
) -> CoreResult:
    """``_idastar.idastar`` on ``problem`` with the tables ``found``; ``databases``: the tables
    behind them (a cluster's workers read the very same ones)."""
    rows, cols = problem.board.shape
    args = (problem.packed, problem.blank, rows, cols, problem.goal_blank, prepared.entry.code)
    runner = cluster.runner(
        prepared, problem, "packed", args, core.max_depth, core,
        databases=databases, dual=prepared.entry.dual, min_bound=min_bound,
    )  # fmt: skip
    return _idastar.idastar(
        *args,
        tables=found,
        node_limit=core.node_limit,
        time_limit=core.time_limit,
        max_depth=core.max_depth,
        progress=progress,
        workers=prepared.request.workers,
        min_bound=min_bound,
        runner=runner,
        machine=prepared.machine,
        frontier=_frontier(
            prepared, runner, dual=prepared.entry.dual, node_bytes=_idastar.HYBRID_NODE_BYTES
        ),
    )


def _run_then_pair(prepared: Prepared, problem: Problem) -> CoreResult:
    """7-8 alone for ``switch_after`` expansions; past them, the larger of 7-8's and 7-8b's
    sums, from the bound the first search had reached."""
    (database,) = prepared.databases
    assert isinstance(database, Database) and prepared.switch_after is not None

    def with_tables(found: object, databases: tuple[Database, ...]) -> two_phase.Part:
        return lambda core, report, bound: _packed_kernel(
            prepared, problem, found, core, report, min_bound=bound, databases=databases
        )

    first = prepared.tables

    def pair() -> two_phase.Part:
        second = partner_of(partition_of(database))
        if second is None:
            return with_tables(first, (database,))
        return with_tables(database.loaded_with(second), (database, second))

    return two_phase.in_two_parts(
        prepared, prepared.switch_after, with_tables(first, (database,)), pair
    )


def _depth_cap(prepared: Prepared) -> int:
    """The longest path the wide kernels follow for ``prepared``'s limits."""
    max_depth = prepared.core.max_depth
    return MAX_OPTIMAL_DEPTH if max_depth < 0 else min(MAX_OPTIMAL_DEPTH, max_depth)


def _beyond_cap(problem: Problem, cap: int) -> CoreResult | None:
    """The refusal of a board whose Manhattan distance is above ``cap`` (no path within it),
    else None."""
    cells = problem.wide_cells()
    code = BY_NAME["manhattan"].code
    lower = _wide.heuristic(code, cells, problem.rows, problem.cols, problem.goal_blank)
    return CoreResult(_DEPTH_LIMIT, "", 0, 0, 0, 0, 0.0, lower, 0) if lower > cap else None


def _run_wide(prepared: Prepared, problem: Problem) -> CoreResult:
    request = prepared.request
    cap = _depth_cap(prepared)
    refused = _beyond_cap(problem, cap)
    if refused is not None:
        return refused
    if prepared.kernel == "wide_pdb":
        found = _run_wide_pdb(prepared, problem, cap)
        # Its board: a byte a cell, changed in place; its path: a move byte a level.
        return _path_memory(found, board_bytes=problem.rows * problem.cols, level_bytes=1)
    entry, weight = prepared.entry, request.weight
    walking = None
    if entry.tables == "walking":
        walking = heuristic_tables.wide_walking(problem, deadline=prepared.deadline)
    core = prepared.limits_left()
    if core is None:
        return prepared.out_of_time()
    return _wide_idastar.idastar(
        problem.wide_cells(),
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        heuristic=entry.code,
        weight=1.0 if weight is None else float(weight),
        tables=walking,
        node_limit=core.node_limit,
        time_limit=core.time_limit,
        max_depth=cap,
        progress=request.progress,
        machine=prepared.machine,
    )


def _run_wide_pdb(prepared: Prepared, problem: Problem, cap: int) -> CoreResult:
    """``_wide_pdb`` with the heuristic's tables, switching to the dual lookups where the
    policy says (:func:`~fastpuzzle._solver.policy.table_switch`)."""
    request = prepared.request
    (database,) = prepared.databases
    args = (problem.wide_cells().astype(np.uint8), problem.blank, problem.rows, problem.cols,
            problem.goal_blank)  # fmt: skip
    max_depth = min(cap, _PDB_MAX_DEPTH)

    def part(found: object, dual: bool) -> two_phase.Part:
        def search(core: CoreLimits, report: CoreProgress | None, bound: int) -> CoreResult:
            runner = cluster.runner(
                prepared, problem, "wide_pdb", args, max_depth, core,
                databases=(database,), dual=dual, min_bound=bound,
            )  # fmt: skip
            return _wide_pdb.idastar(
                *args,
                tables=found,
                node_limit=core.node_limit,
                time_limit=core.time_limit,
                max_depth=max_depth,
                progress=report,
                workers=request.workers,
                runner=runner,
                min_bound=bound,
                machine=prepared.machine,
                frontier=_frontier(
                    prepared, runner, dual=dual, node_bytes=_wide_pdb.HYBRID_NODE_BYTES
                ),
            )

        return search

    if prepared.switch_after is not None:

        def dual_part() -> two_phase.Part:
            assert isinstance(database, Database)
            return part(dual_layout(database, deadline=prepared.deadline), True)

        first = part(prepared.tables, False)
        return two_phase.in_two_parts(prepared, prepared.switch_after, first, dual_part)
    core = prepared.limits_left()
    if core is None:
        return prepared.out_of_time()
    dual = prepared.entry.dual and isinstance(database, Database)
    return part(prepared.tables, dual)(core, request.progress, 0)
