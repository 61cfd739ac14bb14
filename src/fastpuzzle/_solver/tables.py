"""The tables an IDA* heuristic reads, fetched from :mod:`fastpuzzle.pdb`.

The one place that maps a heuristic of the catalogue to its tables: the catalogue entry names a
partition (``pdb663``: 6-6-3), the exact table (``table``), walking-distance tables, or the best
pattern database of the shape (``pdb``: on 4x4 7-8 once it is built, else 6-6-3; elsewhere the
shape's default partition). :mod:`fastpuzzle.pdb` knows partitions, never heuristic names.
"""

from __future__ import annotations

from fastpuzzle._solver.request import Request
from fastpuzzle.errors import UnknownNameError
from fastpuzzle.pdb.database import Database
from fastpuzzle.pdb.dual import dual_layout
from fastpuzzle.pdb.partitions import Partition, default_partition
from fastpuzzle.pdb.store import load_pdb
from fastpuzzle.pdb.tables import database_for
from fastpuzzle.pdb.walking import (
    WALKING_MAX_STATES,
    WalkingTables,
    walking_args_for_cells,
    walking_tables,
)

__all__ = [
    "BEST_4X4",
    "WALKING_MAX_LINES",
    "database",
    "laid_out",
    "walking",
    "wide_walking",
]

#: What ``pdb`` reads on 4x4, best first: 7-8 once it is built (``fastpuzzle pdb build 7-8``,
#: never by a search), else 6-6-3, built on first use.
BEST_4X4 = ("7-8", "6-6-3")

#: Sides of more lines than this never get walking-distance tables past 16 cells (5 lines of 5
#: already have 65,650,495 states), so such boards are refused without trying.
WALKING_MAX_LINES = 4


def database(request: Request) -> Database:
    """The pattern database (or exact table) of ``request``'s heuristic for its problem, loaded,
    or built before the request's deadline where that takes seconds."""
    problem = request.problem
    shape, blank = problem.board.shape, problem.goal_blank
    entry = request.entry
    chosen: str | Partition
    if entry.tables == "exact":
        chosen = "exact"
    elif entry.partition is not None:
        chosen = entry.partition
    elif shape == (4, 4):
        # 7-8 only where its file loads (a damaged one is passed over, never rebuilt): 6-6-3 else.
        best, chosen = BEST_4X4
        found = load_pdb(best, shape, blank)
        if found is not None:
            return found
    else:
        chosen = default_partition(shape, blank)
    return database_for(chosen, shape, blank, deadline=request.deadline)


def laid_out(request: Request, database: Database) -> object:
    """``database`` as the kernels read it: with its dual lookups when the heuristic asks."""
    if request.entry.dual:
        return dual_layout(database, deadline=request.deadline)
    return database.loaded()


def walking(request: Request) -> WalkingTables:
    """The walking-distance tables of a board of up to 16 cells."""
    return walking_tables(request.problem, deadline=request.deadline)


def wide_walking(request: Request) -> WalkingTables:
    """The walking-distance tables of a board past 16 cells, where one side's are small enough.

    Raises
    ------
    UnknownNameError
        When neither side has tables (walking distance would be plain Manhattan there).
    """
    problem = request.problem
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
        deadline=request.deadline,
    )
    if tables.vertical.next is None and tables.horizontal.next is None:
        raise refusal
    return tables
