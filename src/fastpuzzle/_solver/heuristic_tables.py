"""The tables an IDA* heuristic reads, fetched from :mod:`fastpuzzle.pdb`.

The one place that maps a heuristic of the catalogue to its tables: the catalogue entry names a
partition (``pdb663``: 6-6-3), the exact table (``table``), walking-distance tables, or the best
pattern database of the shape (``pdb``: what :func:`fastpuzzle._solver.policy.tables_of` lists,
on 4x4 7-8 once it is built, else 6-6-3; elsewhere the shape's default partition). Which tables
are built on first use is the policy's. :mod:`fastpuzzle.pdb` knows partitions, never heuristic
names.
"""

from __future__ import annotations

from typing import NamedTuple

from fastpuzzle._problem import Problem
from fastpuzzle._solver import policy
from fastpuzzle._solver.request import Request
from fastpuzzle.errors import UnknownNameError
from fastpuzzle.heuristics import Heuristic
from fastpuzzle.pdb.compound import Compound, compound_built, compound_for
from fastpuzzle.pdb.database import Database
from fastpuzzle.pdb.dual import dual_layout
from fastpuzzle.pdb.search_tables import database_for
from fastpuzzle.pdb.store import cache_root, load_pdb, pdb_path
from fastpuzzle.pdb.walking import (
    WALKING_MAX_STATES,
    WalkingTables,
    walking_args_for_cells,
    walking_tables,
)

__all__ = [
    "WALKING_MAX_LINES",
    "SearchTables",
    "built_database",
    "compound",
    "database",
    "for_search",
    "not_ready",
    "wide_walking",
]

#: Sides of more lines than this never get walking-distance tables past 16 cells (5 lines of 5
#: already have 65,650,495 states), so such boards are refused without trying.
WALKING_MAX_LINES = 4


class SearchTables(NamedTuple):
    """What an IDA* search reads for its heuristic, as :func:`for_search` fetched it."""

    #: What the kernel reads: laid-out pattern-database tables, walking-distance tables, or
    #: None (Manhattan, linear conflict; walking distance past 16 cells, made per board).
    tables: object = None
    #: The databases behind :attr:`tables` (a cluster's workers read the very same ones).
    databases: tuple[Database | Compound, ...] = ()
    #: Expansions after which the search changes tables (:func:`~fastpuzzle._solver.policy.
    #: table_switch`), or None: it never does.
    switch_after: int | None = None


def for_search(
    request: Request,
    *,
    wide: bool,
    deadline: float | None = None,
    loaded: Database | None = None,
) -> SearchTables:
    """The tables an IDA* search of ``request`` reads, on the packed kernel or (``wide``) on
    the wide ones, fetched (or built) before ``deadline``; ``loaded``: the heuristic's
    pattern database, already loaded."""
    entry = request.entry
    if entry.tables == "pdb" or (entry.tables == "exact" and not wide):
        found: Database | Compound
        if loaded is not None:
            found = loaded
        elif entry.compound:
            found = compound(request)
        else:
            found = database(request, deadline=deadline)
        switch = policy.table_switch(entry.name, found, wide=wide)
        # A search that switches reads its dual lookups (past 16 cells) only once it does.
        tables: object
        if entry.dual and switch is None and isinstance(found, Database):
            tables = dual_layout(found, deadline=deadline)
        else:
            tables = found.loaded()
        return SearchTables(tables, (found,), None if switch is None else switch.after)
    if entry.tables == "walking" and not wide:
        return SearchTables(walking_tables(request.problem, deadline=deadline))
    # Manhattan and linear conflict; walking distance past 16 cells, made per board.
    return SearchTables()


def database(request: Request, *, deadline: float | None = None) -> Database:
    """The pattern database (or exact table) of ``request``'s heuristic for its problem, loaded,
    or built before ``deadline`` (a :func:`time.monotonic` time) where the policy builds it on
    first use."""
    problem = request.problem
    shape, blank = problem.board.shape, problem.goal_blank
    entry = request.entry
    partition = "exact" if entry.tables == "exact" else entry.partition
    if partition is None:
        found = _policy_database(shape, blank, deadline=deadline, build=True)
        assert found is not None
        return found
    # The exact table is made in memory, whatever ``build`` says.
    build = partition in policy.FIRST_USE_PARTITIONS
    return database_for(partition, shape, blank, build=build, deadline=deadline)


def built_database(request: Request, *, deadline: float | None = None) -> Database | None:
    """The policy's pattern database (``pdb``) for ``request``'s problem where one loads from
    the cache, or None where it would have to be built first; never builds."""
    problem = request.problem
    return _policy_database(problem.board.shape, problem.goal_blank, deadline=deadline, build=False)


def _policy_database(
    shape: tuple[int, int], blank: int, *, deadline: float | None, build: bool
) -> Database | None:
    # The policy's tables, best first: those it never builds only where their file loads (a
    # damaged one is passed over, never rebuilt), then the one it builds on first use. The
    # cache folder is read from the environment once for all of them.
    found, root = policy.tables_of(shape, blank), cache_root()
    for partition in found.read:
        if partition == found.build and build:
            return database_for(partition, shape, blank, root, build=True, deadline=deadline)
        loaded = load_pdb(partition, shape, blank, root, deadline=deadline)
        if loaded is not None:
            return loaded
    if not build:
        return None
    # Nothing to build on first use: the error names the command that builds the best one.
    return database_for(found.read[0], shape, blank, build=False)


def compound(request: Request) -> Compound:
    """The tables of ``request``'s compound heuristic (``pdb24``), loaded; never built here
    (the error names the command that builds them)."""
    problem = request.problem
    name = request.entry.compound
    if name is None:
        raise UnknownNameError(f"{request.entry.name} is not a compound heuristic")
    return compound_for(name, problem.board.shape, problem.goal_blank, build=False)


def wide_walking(problem: Problem, *, deadline: float | None = None) -> WalkingTables:
    """The walking-distance tables of a board past 16 cells, where one side's are small enough.

    Raises
    ------
    UnknownNameError
        When neither side has tables (walking distance would be plain Manhattan there).
    """
    rows, cols = problem.rows, problem.cols
    refusal = UnknownNameError(
        f"walking distance on {rows}x{cols}: the abstraction of each side has over "
        f"{WALKING_MAX_STATES:,} states (5x5: 65,650,495), so it would be plain Manhattan; "
        "use linear_conflict, or pdb for up to 25 cells"
    )
    if rows > WALKING_MAX_LINES and cols > WALKING_MAX_LINES:
        raise refusal
    tables = walking_args_for_cells(
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


def not_ready(entry: Heuristic, shape: tuple[int, int], goal_blank: int) -> str | None:
    """Why a search with ``entry`` on ``shape`` (its goal's blank on ``goal_blank``) would fail
    at once, before any node: tables that are not built and that no search builds, or
    walking-distance tables too large to make; None where it can run (its tables are there,
    or are built on first use). Only the files' presence is looked at, not their checks.
    """
    rows, cols = shape
    if entry.tables == "walking":
        if rows * cols > 16 and rows > WALKING_MAX_LINES and cols > WALKING_MAX_LINES:
            return "walking-distance tables are too large for boards of more than 4x4 lines"
        return None
    if entry.tables != "pdb":
        return None
    if entry.compound is not None:
        if not compound_built(entry.compound, shape, goal_blank):
            return f"not built: fastpuzzle pdb build {entry.compound}"
        return None
    if entry.partition is not None:
        if entry.partition in policy.FIRST_USE_PARTITIONS:
            return None
        if not pdb_path(entry.partition, shape, goal_blank).is_file():
            return f"not built: fastpuzzle pdb build {entry.partition}"
        return None
    found = policy.tables_of(shape, goal_blank)
    if found.build is None and not any(
        pdb_path(partition, shape, goal_blank).is_file() for partition in found.read
    ):
        return f"not built: {policy.build_command(shape, goal_blank)}"
    return None
