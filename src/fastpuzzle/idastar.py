"""IDA* for every board size: the one place that picks the compiled kernel.

:func:`run` takes a validated problem and a heuristic of the catalogue
(:mod:`fastpuzzle.heuristics`) and dispatches, the way scikit-learn's ``_dispatcher`` picks a
specialised kernel:

- boards of up to 16 cells (packed in one word): ``_idastar``, one recursive driver per
  heuristic, with walking-distance or pattern-database tables when the heuristic needs them;
- boards past 16 cells (one ``uint16`` per cell): ``_wide.idastar`` for Manhattan, linear
  conflict and walking distance (weighted IDA* too), ``_wide_pdb.idastar`` for additive pattern
  databases of up to 25 cells.

``workers > 1`` shares the large iterations of ``_idastar`` and ``_wide_pdb`` among threads
(:mod:`fastpuzzle._parallel`); ``_wide.idastar`` has no parallel version and runs serially.
With a Dask ``client``, their largest iterations go to the cluster
(:mod:`fastpuzzle.distributed`).

Every kernel returns the same :data:`~fastpuzzle.results.CoreResult`, whose memory figure is the
path (:func:`_path_memory`), as for the other depth-first searches. Moves are U, D, L, R: the
direction the **blank** moves.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from fastpuzzle import distributed, pdb
from fastpuzzle._checks import shown
from fastpuzzle._core import _idastar, _search, _wide, _wide_pdb
from fastpuzzle._core._result import CoreResult
from fastpuzzle._parallel import run_team
from fastpuzzle.board import BoardLike
from fastpuzzle.errors import InvalidOptionError, UnknownNameError
from fastpuzzle.heuristics import BY_NAME, CATALOGUE, Heuristic, lookup_heuristic
from fastpuzzle.limits import CoreLimits, Limits
from fastpuzzle.pdb.dual import dual_layout, dual_tables_built
from fastpuzzle.problem import Problem, make_problem
from fastpuzzle.results import (
    ProgressCallback,
    SearchResult,
    Status,
    core_progress,
    result_from_core,
)

__all__ = [
    "MAX_OPTIMAL_DEPTH",
    "PACKED_HEURISTICS",
    "WIDE_HEURISTICS",
    "run",
    "solve_wide_optimal",
]

CoreProgress = Callable[[int, int, float, int], None]

#: The longest path the wide IDA* follows (its recursion depth). A board whose Manhattan lower
#: bound is above it is refused at once with :attr:`Status.DEPTH_LIMIT`: no optimal search of
#: such a board could finish.
MAX_OPTIMAL_DEPTH = 1000

#: The longest path the pattern-database driver follows (optimal 5x5 solutions are far shorter).
_PDB_MAX_DEPTH = 400

#: Sides of more lines than this never get walking-distance tables past 16 cells (5 lines of 5
#: already have 65,650,495 states), so such boards are refused without trying.
WALKING_MAX_LINES = 4

#: Heuristics IDA* computes on boards of up to 16 cells.
PACKED_HEURISTICS = tuple(h.name for h in CATALOGUE if "packed" in h.idastar)

#: Heuristics IDA* computes past 16 cells. ``pdb`` (boards of up to 25 cells) and ``pdb6666``
#: (5x5) need their database built beforehand.
WIDE_HEURISTICS = tuple(h.name for h in CATALOGUE if "wide" in h.idastar)

_DEPTH_LIMIT = list(Status).index(Status.DEPTH_LIMIT)
_TIME_LIMIT = list(Status).index(Status.TIME_LIMIT)
_NODE_LIMIT = list(Status).index(Status.NODE_LIMIT)

#: With 7-8b built beside 7-8, a 4x4 search takes the larger of both partitions' sums once 7-8
#: alone has expanded this many nodes. On boards 7-8 handles well the pair expands about 0.7x
#: the nodes at 1.5x the cost a node; on boards it does not, 8x fewer (hard.tsv's 70-move board:
#: 60 M nodes against 492 M). 7-8 alone expands at most 58 K nodes on a random50 board and
#: 5.1-6.1 M on the 80-move boards, so those never pay for the pair, nor for reading 7-8b.
SECOND_FROM = 1 << 23

#: With the dual lookups' extra table on disk, a ``pdb`` search past 16 cells (5x5: 6-6-6-6)
#: reads the tables on the dual board too (:mod:`fastpuzzle.pdb.dual`) once it has expanded this
#: many nodes with the two lookups, from the bound it had reached. Four lookups cost about 1.4x
#: as much a node; on Korf and Felner's instances they save 0.73-0.82x of the nodes on searches
#: of 2e7 to 2e8 expansions, and 0.27x on one of 9e8 (instance 1: 2.5x faster on two threads),
#: so searches of seconds keep the two lookups and long ones switch.
DUAL_FROM = 1 << 27


def run(
    problem: Problem,
    heuristic: str,
    limits: Limits,
    progress: CoreProgress | None = None,
    *,
    weight: float | None = None,
    wide: bool | None = None,
    workers: int = 1,
    client: Any = None,
) -> CoreResult:
    """Run IDA* with ``heuristic`` on a validated problem, on the kernel that fits it.

    Parameters
    ----------
    problem : Problem
        From :func:`fastpuzzle.problem.make_problem`.
    heuristic : str
        A canonical heuristic name that IDA* computes on this board's size.
    limits : Limits
        ``nodes`` (expansions), ``seconds`` and ``max_depth`` are honoured; IDA* stores no nodes,
        so ``memory_bytes`` never binds.
    progress : callable, optional
        Core-level ``progress(expanded, generated, seconds, bound)``.
    weight : float, optional
        ``w > 1``: weighted IDA* (f = g + w*h) on the wide kernel, solutions at most ``w`` times
        optimal.
    wide : bool, optional
        Force the wide kernel (True) on a board of up to 16 cells; default: by size.
    workers : int
        Threads for the large iterations of the packed kernel (boards of up to 16 cells, every
        heuristic) and of the wide pattern-database kernel; the wide Manhattan, linear-conflict
        and walking-distance kernel (and weighted IDA*) runs serially. 1 (the default): the
        serial search, whose node counts are exact and reproducible.
    client : distributed.Client, optional
        A Dask client: the iterations of the packed and pattern-database kernels expected to
        expand at least :data:`fastpuzzle.distributed.REMOTE_FROM` nodes are searched on its
        cluster (the others on ``workers`` local threads).

    Returns
    -------
    CoreResult
        The kernel's result tuple.
    """
    entry = BY_NAME.get(heuristic)
    use_wide = problem.word is None
    if wide:
        use_wide = True
    if weight is not None and weight != 1:
        use_wide = True
    encoding = "wide" if use_wide else "packed"
    if entry is None or encoding not in entry.idastar:
        valid = WIDE_HEURISTICS if use_wide else PACKED_HEURISTICS
        where = " past 16 cells" if use_wide else ""
        raise UnknownNameError(
            f"unknown heuristic {shown(heuristic)} for idastar{where}; expected one of "
            f"{', '.join(valid)}"
        )
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"expected workers >= 1, got {workers!r}")
    # A time limit covers building the tables the heuristic needs, then the search.
    seconds = limits.seconds
    deadline = (
        time.monotonic() + seconds if seconds is not None and math.isfinite(seconds) else None
    )
    if client is not None and use_wide and entry.tables != "pdb":
        raise InvalidOptionError(
            f"a search on a Dask cluster past 16 cells takes a pattern database, got {entry.name}"
        )
    if use_wide:
        return _run_wide(problem, entry, limits, progress, weight, deadline, workers, client)
    core = _run_packed(problem, entry, limits, progress, deadline, workers, client)
    return _path_memory(core, board_bytes=0, level_bytes=_search.FRAME_BYTES)


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


def _table_name(entry: Heuristic) -> str:
    """The name :func:`fastpuzzle.pdb.database_for` knows ``entry``'s tables by."""
    return "pdb" if entry.dual and entry.partition is None else entry.name


def _laid_out(database: pdb.Database, entry: Heuristic, deadline: float | None) -> object:
    """``database`` as the kernels read it: with its dual lookups when ``entry`` asks."""
    if entry.dual:
        return dual_layout(database, deadline=deadline)
    return database.loaded()


def _search_limits(limits: Limits, deadline: float | None) -> CoreLimits | None:
    """The core's limits with the time left after building tables; None when none is left."""
    core = limits.core(stores_nodes=False)
    if deadline is None:
        return core
    left = deadline - time.monotonic()
    # The core reads a time limit of 0 as none, so an exhausted budget ends here instead.
    return core._replace(time_limit=left) if left > 0 else None


def _out_of_time(limits: Limits) -> CoreResult:
    return CoreResult(_TIME_LIMIT, "", 0, 0, 0, 0, float(limits.seconds or 0.0), -1, 0)


def _run_packed(
    problem: Problem,
    entry: Heuristic,
    limits: Limits,
    progress: CoreProgress | None,
    deadline: float | None,
    workers: int,
    client: Any = None,
) -> CoreResult:
    tables: object = None
    databases: tuple[pdb.Database, ...] = ()
    if entry.tables == "walking":
        tables = pdb.walking_tables(problem, deadline=deadline)
    elif entry.tables is not None:
        database = pdb.database_for(problem, _table_name(entry), deadline=deadline)
        tables = _laid_out(database, entry, deadline)
        databases = (database,)
        # Only 7-8 has a partner (7-8b): other tables skip looking for one on disk.
        if database.name == "7-8" and pdb.second_database_built(problem, entry.name):
            return _run_then_pair(
                problem, entry, database, limits, progress, deadline, workers, client
            )
    core = _search_limits(limits, deadline)
    if core is None:
        return _out_of_time(limits)
    return _packed_kernel(
        problem, entry, tables, core, progress, workers, client=client, databases=databases
    )


def _packed_kernel(
    problem: Problem,
    entry: Heuristic,
    tables: object,
    core: CoreLimits,
    progress: CoreProgress | None,
    workers: int,
    min_bound: int = 0,
    client: Any = None,
    databases: tuple[pdb.Database, ...] = (),
) -> CoreResult:
    """``_idastar.idastar`` on ``problem``; ``databases``: the tables behind ``tables`` (a
    cluster's workers read the very same ones)."""
    rows, cols = problem.board.shape
    args = (problem.packed, problem.blank, rows, cols, problem.goal_blank, entry.code)
    runner = _local_runner(core, workers)
    if client is not None:
        loader, key = _worker_tables(problem, entry, databases, dual=entry.dual)
        call = distributed.KernelCall("packed", args, core.max_depth, loader, key)
        runner = _cluster_runner(client, call, core, large=min_bound > 0)
    return _idastar.idastar(
        *args,
        tables=tables,
        node_limit=core.node_limit,
        time_limit=core.time_limit,
        max_depth=core.max_depth,
        progress=progress,
        workers=workers,
        min_bound=min_bound,
        runner=runner,
    )


def _cluster_runner(
    client: Any, call: distributed.KernelCall, core: CoreLimits, *, large: bool = False
) -> Any:
    """The kernel's ``runner``: shared iterations on local threads, large ones on the cluster
    (``large``: from the first, for a search that starts at a known bound)."""
    share = distributed.share_with(
        client, call, node_limit=core.node_limit, time_limit=core.time_limit,
        remote_from=distributed.REMOTE_FROM, large=large,
    )  # fmt: skip
    return functools.partial(run_team, share=share, time_limit=core.time_limit)


def _local_runner(core: CoreLimits, workers: int) -> Any:
    """The kernel's ``runner`` for its shared iterations on ``workers`` local threads, whose
    calling thread watches the time limit too (see :func:`fastpuzzle._parallel.run_team`);
    None for one thread (a runner would share the iterations even then)."""
    return functools.partial(run_team, time_limit=core.time_limit) if workers > 1 else None


def _worker_tables(
    problem: Problem, entry: Heuristic, databases: tuple[pdb.Database, ...], *, dual: bool = False
) -> tuple[Callable[[], Any], str]:
    """How a worker process reads the very tables this search uses, and their cache key."""
    rows, cols = problem.board.shape
    where = f"{rows}x{cols}:{problem.goal_blank}"
    if entry.tables == "walking":
        return functools.partial(pdb.walking_tables, problem), f"walking:{where}"
    if not databases:
        return _no_tables, "none"
    names = tuple(_partition_of(database) for database in databases)
    loader = functools.partial(_load_exactly, names, (rows, cols), problem.goal_blank, dual=dual)
    return loader, f"pdb:{where}:{names}:{'dual' if dual else 'plain'}"


def _no_tables() -> None:
    return None


def _partition_of(database: pdb.Database) -> str | tuple[tuple[int, ...], ...]:
    # A named partition by its name (as its file is named); another by its groups' tiles.
    if not database.name.startswith("custom"):
        return database.name
    return tuple(tuple(tiles) for tiles, *_ in database.groups)


def _load_exactly(
    names: tuple[str | tuple[tuple[int, ...], ...], ...],
    shape: tuple[int, int],
    blank: int,
    *,
    dual: bool = False,
) -> object:
    """A worker process's tables: the named ones from its cache, never another one and never a
    build (the units it searches carry those tables' group indices and values); with ``dual``,
    laid out with their dual lookups (whose extra tables must be in its cache too)."""
    loaded = []
    for name in names:
        database: pdb.Database | None
        if name == "exact":
            database = pdb.exact_table(shape[0], shape[1], blank)
        else:
            database = pdb.load_pdb(name, shape, blank)
        if database is None:
            raise pdb.PatternDatabaseError(
                f"a Dask worker has no {name} table for {shape[0]}x{shape[1]} in its cache: "
                f"build it there first (`fastpuzzle pdb build {name}`)"
            )
        loaded.append(dual_layout(database, build=False) if dual else database.loaded())
    return loaded[0] if len(loaded) == 1 else tuple(loaded)


#: One search in two parts: ``part(core_limits, progress, min_bound)``.
Part = Callable[[CoreLimits, "CoreProgress | None", int], CoreResult]


def _in_two_parts(
    limits: Limits,
    deadline: float | None,
    progress: CoreProgress | None,
    switch_at: int,
    first: Part,
    then: Callable[[], Part],
) -> CoreResult:
    """``first`` for ``switch_at`` expansions; past them, the part ``then()`` gives (reading its
    tables only then), from the bound the first had reached (no shorter solution exists)."""
    core = _search_limits(limits, deadline)
    if core is None:
        return _out_of_time(limits)
    wanted = core.node_limit
    alone = first(core._replace(node_limit=_least_limit(wanted, switch_at)), progress, 0)
    # A user's limit at or below the switch is what stopped it (threads that hand back unspent
    # grants can stop short of the limit itself).
    if alone.status != _NODE_LIMIT or (wanted and wanted <= switch_at):
        return alone
    second = then()
    core = _search_limits(limits, deadline)
    if core is None:
        # Out of time while reading the second part's tables: stopped at the bound reached.
        return _replace_status(alone, _TIME_LIMIT)
    rest = second(
        core._replace(node_limit=wanted - alone.expanded if wanted else 0),
        _shifted(progress, alone),
        alone.depth,
    )
    return _joined(alone, rest)


def _run_then_pair(
    problem: Problem,
    entry: Heuristic,
    database: pdb.Database,
    limits: Limits,
    progress: CoreProgress | None,
    deadline: float | None,
    workers: int,
    client: Any = None,
) -> CoreResult:
    """7-8 alone for :data:`SECOND_FROM` expansions; past them, the larger of 7-8's and 7-8b's
    sums, from the bound the first search had reached (no shorter solution exists)."""

    def with_tables(tables: object, databases: tuple[pdb.Database, ...]) -> Part:
        return lambda core, report, bound: _packed_kernel(
            problem, entry, tables, core, report, workers, min_bound=bound, client=client,
            databases=databases,
        )  # fmt: skip

    first = database.loaded()

    def pair() -> Part:
        second = pdb.second_database_for(problem, entry.name)
        if second is None:
            return with_tables(first, (database,))
        return with_tables((first, second.loaded()), (database, second))

    return _in_two_parts(
        limits, deadline, progress, SECOND_FROM, with_tables(first, (database,)), pair
    )


def _replace_status(result: CoreResult, status: int) -> CoreResult:
    # The same counts and bound, ended another way (and without moves).
    return CoreResult(
        status,
        "",
        result.expanded,
        result.generated,
        result.max_frontier,
        result.peak_memory_bytes,
        result.seconds,
        result.depth,
        result.iterations,
        result.allocated_bytes,
    )


def _least_limit(limit: int, cap: int) -> int:
    # Node limits where 0 means none.
    return cap if not limit else min(limit, cap)


def _shifted(progress: CoreProgress | None, before: CoreResult) -> CoreProgress | None:
    """``progress`` for a search that goes on from ``before``: counts and time run on."""
    if progress is None:
        return None

    def relay(expanded: int, generated: int, seconds: float, depth: int) -> None:
        progress(
            before.expanded + expanded, before.generated + generated,
            before.seconds + seconds, depth,
        )  # fmt: skip

    return relay


def _joined(before: CoreResult, after: CoreResult) -> CoreResult:
    """One search's result from its two parts: how it ended, and what both did."""
    return CoreResult(
        after.status,
        after.moves,
        before.expanded + after.expanded,
        before.generated + after.generated,
        max(before.max_frontier, after.max_frontier),
        max(before.peak_memory_bytes, after.peak_memory_bytes),
        before.seconds + after.seconds,
        after.depth,
        before.iterations + after.iterations,
        max(before.allocated_bytes, after.allocated_bytes),
    )


def _run_wide(
    problem: Problem,
    entry: Heuristic,
    limits: Limits,
    progress: CoreProgress | None,
    weight: float | None,
    deadline: float | None,
    workers: int,
    client: Any = None,
) -> CoreResult:
    weighted = weight is not None and weight != 1
    if weighted and entry.tables == "pdb":
        raise InvalidOptionError(
            f"weighted IDA* takes manhattan or linear_conflict, not a pattern database, got "
            f"heuristic={entry.name!r} with weight={shown(weight)}"
        )
    max_depth = limits.core(stores_nodes=False).max_depth
    cap = MAX_OPTIMAL_DEPTH if max_depth < 0 else min(MAX_OPTIMAL_DEPTH, max_depth)
    rows, cols = problem.rows, problem.cols
    cells = problem.wide_cells()
    lower = _wide.heuristic(BY_NAME["manhattan"].code, cells, rows, cols, problem.goal_blank)
    if lower > cap:
        # No path within the cap: refused before any search.
        return CoreResult(_DEPTH_LIMIT, "", 0, 0, 0, 0, 0.0, lower, 0)
    if entry.tables == "pdb":
        found = _run_wide_pdb(problem, entry, limits, progress, deadline, workers, client, cap)
        # Its board: a byte a cell, changed in place; its path: a move byte a level.
        return _path_memory(found, board_bytes=len(cells), level_bytes=1)
    walking = _walking_tables(problem, deadline) if entry.tables == "walking" else None
    core = _search_limits(limits, deadline)
    if core is None:
        return _out_of_time(limits)
    return _wide.idastar(
        cells,
        problem.blank,
        rows,
        cols,
        problem.goal_blank,
        heuristic=entry.code,
        weight=1.0 if weight is None else float(weight),
        tables=walking,
        node_limit=core.node_limit,
        time_limit=core.time_limit,
        max_depth=cap,
        progress=progress,
    )


def _run_wide_pdb(
    problem: Problem,
    entry: Heuristic,
    limits: Limits,
    progress: CoreProgress | None,
    deadline: float | None,
    workers: int,
    client: Any,
    cap: int,
) -> CoreResult:
    """``_wide_pdb`` with ``entry``'s tables; ``pdb`` with dual lookups past
    :data:`DUAL_FROM` expansions, where their extra table is on disk."""
    database = pdb.database_for(problem, _table_name(entry), deadline=deadline)
    args = (problem.wide_cells().astype(np.uint8), problem.blank, problem.rows, problem.cols,
            problem.goal_blank)  # fmt: skip
    max_depth = min(cap, _PDB_MAX_DEPTH)

    def part(dual: bool) -> Part:
        tables = dual_layout(database, deadline=deadline) if dual else database.loaded()

        def search(core: CoreLimits, report: CoreProgress | None, bound: int) -> CoreResult:
            runner = _local_runner(core, workers)
            if client is not None:
                loader, key = _worker_tables(problem, entry, (database,), dual=dual)
                call = distributed.KernelCall("wide_pdb", args, max_depth, loader, key)
                runner = _cluster_runner(client, call, core, large=bound > 0)
            return _wide_pdb.idastar(
                *args,
                tables=tables,
                node_limit=core.node_limit,
                time_limit=core.time_limit,
                max_depth=max_depth,
                progress=report,
                workers=workers,
                runner=runner,
                min_bound=bound,
            )

        return search

    if entry.name == "pdb" and dual_tables_built(
        database.cells, database.shape, database.goal_blank
    ):
        return _in_two_parts(
            limits, deadline, progress, DUAL_FROM, part(False), functools.partial(part, True)
        )
    search = part(entry.dual)
    core = _search_limits(limits, deadline)
    if core is None:
        return _out_of_time(limits)
    return search(core, progress, 0)


def _walking_tables(problem: Problem, deadline: float | None) -> pdb.WalkingTables:
    rows, cols = problem.rows, problem.cols
    refusal = UnknownNameError(
        f"walking distance on {rows}x{cols}: the abstraction of each side has over "
        f"{pdb.WALKING_MAX_STATES:,} states (5x5: 65,650,495), so it would be plain Manhattan; "
        "use linear_conflict, or pdb for up to 25 cells"
    )
    if rows > WALKING_MAX_LINES and cols > WALKING_MAX_LINES:
        raise refusal
    tables = pdb.walking_args_for_cells(
        rows,
        cols,
        problem.goal_blank,
        problem.wide_cells().tolist(),
        problem.blank,
        deadline=deadline,
    )
    if tables.vertical.next is None and tables.horizontal.next is None:
        raise refusal
    return tables


def _wide_heuristic(name: str) -> Heuristic:
    entry = lookup_heuristic(name)
    if entry is None or "wide" not in entry.idastar:
        valid = ", ".join(WIDE_HEURISTICS)
        raise UnknownNameError(
            f"unknown heuristic {shown(name)} for wide IDA*; expected one of {valid}"
        )
    return entry


def solve_wide_optimal(
    problem_or_board: Problem | BoardLike,
    goal: BoardLike | None = None,
    *,
    heuristic: str = "linear_conflict",
    weight: float | None = None,
    limits: Limits | None = None,
    progress: ProgressCallback | None = None,
) -> SearchResult:
    """IDA* (or weighted IDA*) on the wide cell-array core, for boards of any size.

    Meant for boards past 16 cells (5x5, 6x6, 7x3, ...); smaller ones work too, through the same
    wide path. Never raises on limits: the result's ``status`` says how the search ended. Moves
    are U/D/L/R, the direction the **blank** moves.

    Parameters
    ----------
    problem_or_board : Problem or BoardLike
        A :class:`~fastpuzzle.problem.Problem` (then ``goal`` must be None) or a start board.
    goal : BoardLike, optional
        Default: tiles in order, blank last.
    heuristic : str
        ``"linear_conflict"`` (Manhattan + Hansson's linear conflicts), ``"manhattan"``,
        ``"walking_distance"`` (where one side's abstraction has at most 500,000 states, as the
        rows of 3xN or of 4x5 and 4x6 do; a side without tables counts its Manhattan
        component), or
        ``"pdb"`` / ``"pdb6666"``: additive pattern databases (boards of up to 25 cells; 5x5
        uses 6-6-6-6 and its reflection), which must be built first (``fastpuzzle pdb build
        6-6-6-6``), else :class:`~fastpuzzle.pdb.PatternDatabaseError` is raised.
    weight : float, optional
        ``w >= 1``: weighted IDA* with f = g + w*h, whose solutions are at most ``w`` times the
        optimal length (``w`` is rounded down to a multiple of 1/1000). None or 1: optimal.
        Not with the pattern databases.
    limits : Limits, optional
        ``seconds``, ``nodes`` (expansions) and ``max_depth`` apply (``memory_bytes`` does not:
        IDA* keeps only its path). Checked every 2**16 expansions, as is Ctrl-C.
    progress : callable, optional
        Called with a :class:`~fastpuzzle.SearchStats` every 2**16 expansions; its ``depth`` is
        the current iteration's bound.

    Returns
    -------
    SearchResult
        ``algorithm="idastar"`` (``"widastar"`` when weighted), status SOLVED, TIME_LIMIT,
        NODE_LIMIT or DEPTH_LIMIT. Boards whose Manhattan bound exceeds
        :data:`MAX_OPTIMAL_DEPTH` (or ``limits.max_depth``) end at once with DEPTH_LIMIT.

    Raises
    ------
    UnsolvableError
        If the goal cannot be reached.
    UnknownNameError
        If the heuristic is not one the wide core computes.
    InvalidOptionError
        If ``weight`` is not a number >= 1 (or is given with a pattern database), or a goal is
        given beside a Problem.

    Examples
    --------
    >>> from fastpuzzle import Board, scramble
    >>> board = scramble(Board.goal((5, 5)), 30, rng=4)
    >>> result = solve_wide_optimal(board)
    >>> result.status, result.solution.optimal, result.solution.verify()
    (<Status.SOLVED: 'solved'>, True, True)
    """
    entry = _wide_heuristic(heuristic)
    if weight is not None and (
        isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight >= 1
    ):
        raise InvalidOptionError(f"expected a weight >= 1 or None, got {shown(weight)}")
    if isinstance(problem_or_board, Problem):
        if goal is not None:
            raise InvalidOptionError(
                f"expected no goal beside a Problem (its goal is inside it), got {shown(goal)}"
            )
        problem = problem_or_board
    else:
        problem = make_problem(problem_or_board, goal)
    weighted = weight is not None and weight != 1
    algorithm = "widastar" if weighted else "idastar"
    core = run(
        problem,
        entry.name,
        Limits() if limits is None else limits,
        core_progress(progress),
        weight=weight,
        wide=True,
    )
    return result_from_core(problem.board, problem.goal, core, algorithm, entry.name, not weighted)
