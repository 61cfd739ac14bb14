"""The ``auto`` policy: which optimal search and which table for a shape and goal.

The one place that answers "what does ``solve()`` do by default?", for :func:`fastpuzzle.solve`
and for batches (:func:`fastpuzzle.solve_many`), so the two never disagree; the search's
tables (:mod:`fastpuzzle._solver.heuristic_tables`), ``solve()``'s first search and its limit
messages, and the hints of the command line and the puzzle page ask it too. A shape is one line of
:data:`FIRST_USE` or :data:`ON_DISK` (either way round: 8x2 is 2x8):

- up to 9 cells (3x3, 2x4, 2x3, ...): IDA* on the exact distance table, built in memory once
  (it walks straight down; reported as ``algorithm="idastar", heuristic="table"``, which is
  also how to ask for it);
- :data:`FIRST_USE` (2x7, 3x5, 2x8, 4x4, 3x6, 4x5): IDA* with the shape's pattern database
  (``heuristic="pdb"``), the best one on disk (4x4: 7-8 if built, else 6-6-3; the others their
  default partition, ``fastpuzzle pdb build auto --shape R C``). Where none is on disk for the
  goal's blank cell, IDA* first runs without it (:func:`probe`) for :data:`PROBE_NODES` nodes,
  and the table is built (0.2 to 12 s, with one warning) only if that search does not finish:
  an easy board with any goal is solved at once;
- the other shapes of 10 to 25 cells (:data:`ON_DISK`: 2x5, 2x6 and 3x4, solved in
  milliseconds without a table; 4x6 and 5x5, whose tables take minutes to build): IDA* with the
  shape's pattern database when it is on disk (5x5: 6-6-6-6), else :func:`probe`'s search;
- past 25 cells: IDA* with linear conflict.

:func:`probe`'s search is walking distance where both sides are at most 4 long, else linear
conflict. Past 16 cells the search stops after :data:`WIDE_DEFAULT_SECONDS` unless the caller
sets limits. A search stopped by a limit names what would help on its shape
(:func:`limit_hint`).

Why these lines: with its table IDA* solves the boards of :data:`FIRST_USE`'s shapes many times
faster than linear conflict, and those tables build in seconds; 2x5, 2x6 and 3x4 boards take
milliseconds without one, and 4x6's and 5x5's take minutes to build (``rect_report.py``; the
figures are in docs/heuristics.rst).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from fastpuzzle.board import MAX_CELLS, Shape
from fastpuzzle.limits import Limits
from fastpuzzle.pdb.compound import Compound
from fastpuzzle.pdb.database import Database
from fastpuzzle.pdb.dual import dual_files_built, dual_tables_built
from fastpuzzle.pdb.partitions import (
    Partition,
    default_partition,
    partition_of,
)
from fastpuzzle.pdb.plan import plan_tables
from fastpuzzle.pdb.search_tables import partner_built
from fastpuzzle.pdb.store import load_pdb, pdb_path

__all__ = [
    "BEST_4X4",
    "DUAL_FROM",
    "FIRST_USE",
    "FIRST_USE_PARTITIONS",
    "HINT_AFTER_SECONDS",
    "ON_DISK",
    "PROBE_NODES",
    "SECOND_FROM",
    "WIDE_DEFAULT_SECONDS",
    "Choice",
    "Switch",
    "Tables",
    "auto_choice",
    "auto_limits",
    "build_command",
    "builds_first",
    "faster_table_hint",
    "first_use_message",
    "limit_hint",
    "probe",
    "progress_hint",
    "table_switch",
    "tables_of",
]

#: Optimal searches (heuristic ``"pdb"``) read pattern databases on boards of up to this many
#: cells; larger ones (6x6's) serve the anytime solver only.
PDB_SEARCH_CELLS = 25

#: Time limit of an optimal solve() past 16 cells when the caller sets none: optimal search on
#: big boards can take hours, and solve() must say so rather than hang.
WIDE_DEFAULT_SECONDS = 60.0


@dataclass(frozen=True)
class Choice:
    """What ``auto`` runs: the algorithm as results report it, and the heuristic IDA* uses."""

    algorithm: str
    heuristic: str


#: Boards of up to this many cells walk down their exact distance table (at most 181,440 boards,
#: built in well under a second): faster than any search, for solve() and batches alike.
_TABLE_CELLS = 9

# Reported as IDA* with the "table" heuristic: names a user can pass to get the same search.
_TABLE = Choice("idastar", "table")
_PDB = Choice("idastar", "pdb")
_WALKING = Choice("idastar", "walking_distance")
_LINEAR_CONFLICT = Choice("idastar", "linear_conflict")

#: Shapes (fewer rows first; 8x2 is 2x8) whose ``auto`` builds the pattern database on first
#: use, with what building it took in ``benchmarks/studies/rect_report.py`` (seconds on one core
#: of a busy two-core machine, then MiB on disk; 4x4: 6-6-3, on the same machine), which the
#: first use's message quotes.
FIRST_USE: dict[Shape, tuple[float, float]] = {
    (2, 7): (0.19, 0.6),
    (3, 5): (0.41, 1.0),
    (2, 8): (0.90, 1.5),
    (4, 4): (5.8, 16.0),
    (4, 5): (2.60, 2.7),
    (3, 6): (11.97, 13.2),
}

#: Shapes whose pattern database ``auto`` reads once it is built (``fastpuzzle pdb build``) but
#: never builds, with the same figures (5x5: 6-6-6-6 and its dual lookups' table, from the
#: README): 2x5, 2x6 and 3x4 because their searches take milliseconds without it (``heuristic=
#: "pdb"`` builds theirs, as any of up to 16 cells), 4x6 and 5x5 because theirs take minutes.
ON_DISK: dict[Shape, tuple[float, float]] = {
    (2, 5): (0.05, 0.5),
    (2, 6): (0.53, 8.5),
    (3, 4): (0.48, 8.5),
    (4, 6): (103.4, 141.1),
    (5, 5): (90.0, 307.0),
}

#: Named partitions built on first use when a heuristic names them (``pdb555``, ``pdb663``):
#: they build in seconds; 7-8, 7-8b and 6-6-6-6 take minutes and are built only by
#: ``fastpuzzle pdb build`` (or :func:`fastpuzzle.build_pdb`).
FIRST_USE_PARTITIONS = ("5-5-5", "6-6-3")

#: What ``pdb`` reads on 4x4, best first: 7-8 once it is built (``fastpuzzle pdb build 7-8``,
#: never by a search), else 6-6-3, built on first use.
BEST_4X4 = ("7-8", "6-6-3")

#: A 4x4 ``pdb`` search with 7-8 takes the larger of 7-8's and 7-8b's sums (7-8b built) past
#: this many expansions: only searches this large repay the pair's dearer lookups and reading
#: 7-8b (measured on hard.tsv and random50.tsv: docs/performance.rst, "Where the constants come
#: from").
SECOND_FROM = 1 << 23

#: A ``pdb`` search past 16 cells reads its tables on the dual board too (their extra table
#: built) past this many expansions: four lookups a node repay only long searches
#: (``pdb5x5_default_report.py``; docs/performance.rst, "Where the constants come from").
DUAL_FROM = 1 << 27


@dataclass(frozen=True)
class Switch:
    """When and to what a search switches once it is large: after ``after`` expansions, to the
    larger of its partition's sums and its partner's (``"pair"``: 7-8b beside 7-8,
    :func:`fastpuzzle.pdb.second_database_for`), or to its tables read on the dual board too
    (``"dual"``, :mod:`fastpuzzle.pdb.dual`); :mod:`~fastpuzzle._solver.two_phase` switches."""

    after: int
    to: Literal["pair", "dual"]


def table_switch(heuristic: str, database: Database | Compound, *, wide: bool) -> Switch | None:
    """When an IDA* search with ``heuristic`` on ``database``'s tables switches to stronger
    ones, or None when it keeps them: only the shape's best (``pdb``) switches, on the packed
    kernel to its partner's sums where both files are on disk (4x4's 7-8 and 7-8b), on the wide
    kernel (``wide``) to the dual lookups where their extra table is on disk."""
    if heuristic != "pdb" or not isinstance(database, Database):
        return None
    if wide:
        if dual_files_built(partition_of(database)):
            return Switch(DUAL_FROM, "dual")
        return None
    if partner_built(partition_of(database)):
        return Switch(SECOND_FROM, "pair")
    return None


#: Nodes IDA* without a table spends on a board whose pattern database is not on disk, before
#: the table is built: a fraction of the build it may save, within which easy boards finish
#: (docs/performance.rst, "Where the constants come from").
PROBE_NODES = 1 << 21

#: An optimal 4x4 search that runs this long (seconds) shows :func:`faster_table_hint`, if any:
#: on the command line's progress, and on the puzzle page.
HINT_AFTER_SECONDS = 3.0


def _key(shape: Shape) -> Shape:
    rows, cols = shape
    return (rows, cols) if rows <= cols else (cols, rows)


@dataclass(frozen=True)
class Tables:
    """The pattern databases ``heuristic="pdb"`` reads on a shape: ``read``, best first, each
    taken when its file loads; ``build``, the one built on first use when none is on disk
    (None: read only once built beforehand)."""

    read: tuple[str | Partition, ...]
    build: str | Partition | None


def tables_of(shape: Shape, goal_blank: int) -> Tables:
    """The pattern databases of ``heuristic="pdb"`` on ``shape`` (at most 25 cells), and the
    ones the anytime solver reads past that (6x6's)."""
    if tuple(shape) == (4, 4):
        return Tables(BEST_4X4, BEST_4X4[-1])
    # A named default (5x5: 6-6-6-6) by its name, the others as "auto": what the command that
    # builds them takes, and what a build stopped by its deadline names.
    named = default_partition(shape, goal_blank)
    partition = named if isinstance(named, str) else "auto"
    first_use = shape[0] * shape[1] <= MAX_CELLS or _key(shape) in FIRST_USE
    return Tables((partition,), partition if first_use else None)


def builds_first(shape: Shape) -> bool:
    """Whether ``auto`` on ``shape`` takes a pattern database built on first use."""
    return _key(shape) in FIRST_USE


def auto_choice(shape: Shape, goal_blank: int) -> Choice:
    """The default optimal search for boards of ``shape`` whose goal has its blank on
    ``goal_blank``."""
    rows, cols = shape
    if rows * cols <= _TABLE_CELLS:
        return _TABLE
    if builds_first(shape):
        return _PDB
    if rows * cols <= PDB_SEARCH_CELLS and _pdb_on_disk(shape, goal_blank):
        return _PDB
    return probe(shape)


def probe(shape: Shape) -> Choice:
    """The search ``auto`` runs without a table: before building one (:data:`PROBE_NODES`
    nodes), and where none is on disk. Walking-distance tables of lines up to 4 long build in a
    blink and beat linear conflict there (fewer nodes, faster); longer lines make them
    slow to build or too big."""
    rows, cols = shape
    if rows * cols <= MAX_CELLS and rows <= 4 and cols <= 4:
        return _WALKING
    return _LINEAR_CONFLICT


def _pdb_on_disk(shape: Shape, goal_blank: int) -> bool:
    """Whether the pattern database of a shape read only once built is on disk and valid."""
    read = tables_of(shape, goal_blank).read
    return any(load_pdb(partition, shape, goal_blank) is not None for partition in read)


def auto_limits(shape: Shape, limits: Limits | None) -> Limits | None:
    """The limits ``auto`` runs under: the caller's, else a time cap past 16 cells."""
    if limits is None and shape[0] * shape[1] > MAX_CELLS:
        return Limits(seconds=WIDE_DEFAULT_SECONDS)
    return limits


# ---------------------------------------------------------------------------------------------
# What the messages say.


def build_command(shape: Shape, goal_blank: int) -> str:
    """The command that builds the table ``auto`` reads on ``shape`` (4x4: 6-6-3, 5x5:
    6-6-6-6, else ``auto --shape R C``), with ``--goal-blank`` for another goal blank cell."""
    rows, cols = shape
    tables = tables_of(shape, goal_blank)
    chosen = tables.build if tables.build is not None else tables.read[0]
    if isinstance(chosen, str) and chosen != "auto":
        command = f"fastpuzzle pdb build {chosen}"
    else:
        command = f"fastpuzzle pdb build auto --shape {rows} {cols}"
    if goal_blank != rows * cols - 1:
        command += f" --goal-blank {goal_blank}"
    return command


def _cost(shape: Shape, goal_blank: int) -> str:
    """What building the table ``auto`` reads on ``shape`` takes, as its plan says
    (``fastpuzzle pdb build ... --dry-run``: :meth:`~fastpuzzle.pdb.plan.Plan.cost`)."""
    tables = tables_of(shape, goal_blank)
    chosen = tables.build if tables.build is not None else tables.read[0]
    return plan_tables(chosen, shape, goal_blank).cost()


def _name(shape: Shape) -> str:
    # How a message names the table built on first use: 4x4's by its partition.
    rows, cols = shape
    tables = tables_of(shape, rows * cols - 1)
    if isinstance(tables.build, str) and tables.build != "auto":
        return f"the {tables.build} pattern database"
    return f"the {rows}x{cols} pattern database"


def first_use_message(shape: Shape, goal_blank: int, budget: int, searched: Choice) -> str:
    """The one line ``solve()`` warns with before it builds a table on first use: the search
    without it (``searched``, ``budget`` nodes) did not finish."""
    heuristic = searched.heuristic.replace("_", " ")
    return (
        f"no solution within {budget:,} nodes of {heuristic}; building {_name(shape)} for goals "
        f"with the blank on cell {goal_blank} ({_cost(shape, goal_blank)}, once: it is kept in "
        "the cache)"
    )


def limit_hint(shape: Shape, goal_blank: int, heuristic: str) -> str | None:
    """What would help a default search on ``shape`` that a limit stopped while running
    ``heuristic``, or None.

    Without its table, on a shape that has one: build it, or pass ``heuristic="pdb"``
    (``auto`` builds it itself on the shapes of :data:`FIRST_USE` once its first search
    fails, which the limit may have cut short); with the table, the stronger tables left to
    build (:func:`faster_table_hint`).
    """
    rows, cols = shape
    if heuristic == "pdb":
        return faster_table_hint(shape, goal_blank)
    if heuristic == "table" or not _TABLE_CELLS < rows * cols <= PDB_SEARCH_CELLS:
        return None
    command = build_command(shape, goal_blank)
    cost = f" ({_cost(shape, goal_blank)})"
    if builds_first(shape):
        return (
            f"the {rows}x{cols} pattern database makes this search far faster: build it once "
            f"with `{command}`{cost}, or pass heuristic='pdb' (solve() builds it itself once "
            f"a search without it passes {PROBE_NODES:,} nodes)"
        )
    return (
        f"build the {rows}x{cols} pattern database once with `{command}`{cost}: solve() reads "
        "it from then on, many times faster"
    )


#: What the hints of :func:`faster_table_hint` say (figures: docs/performance.rst).
FASTER_TABLE_HINT = (
    "`fastpuzzle pdb build 7-8` (once: about 80 s on two cores, 275 MiB on disk) makes hard "
    "4x4 searches many times faster"
)
SECOND_TABLE_HINT = (
    "`fastpuzzle pdb build 7-8b` (once: about 80 s on two cores, another 275 MiB) makes the 4x4 "
    "boards that 7-8 finds hard several times faster (a 70-move board: 17 s -> 4.8 s on two "
    "threads)"
)
DUAL_TABLE_HINT = (
    "`fastpuzzle pdb build 6-6-6-6` once more adds the table of its dual lookups (64 MiB, about "
    "30 s), which long 5x5 searches read: Korf and Felner's instance 1 takes 0.27x the nodes"
)


def faster_table_hint(
    shape: Shape, goal_blank: int, cache_dir: str | os.PathLike[str] | None = None
) -> str | None:
    """How to make optimal searches with ``heuristic="pdb"`` on ``shape`` faster, or None when
    the best tables are built.

    On 5x5, 6-6-6-6 built without its dual lookups' table (an older build) names the command
    that adds it. 4x4 has stronger tables than the one built on first use: 7-8, which
    ``solve()`` uses once it is on disk but never builds itself, then 7-8b beside it, which
    large searches add (see :func:`fastpuzzle.pdb.second_database_for`). A search that is
    still running after seconds with 7-8 is one of the boards 7-8b is for.
    """
    if tuple(shape) == (5, 5):
        return _dual_table_hint(goal_blank, cache_dir)
    if tuple(shape) != (4, 4):
        return None
    if not pdb_path("7-8", (4, 4), goal_blank, cache_dir).is_file():
        return FASTER_TABLE_HINT
    if not pdb_path("7-8b", (4, 4), goal_blank, cache_dir).is_file():
        return SECOND_TABLE_HINT
    return None


def progress_hint(
    shape: Shape, goal_blank: int, cache_dir: str | os.PathLike[str] | None = None
) -> str | None:
    """What a default optimal search on ``shape`` that has run for a while shows: the stronger
    table to build (:func:`faster_table_hint`), or, where ``auto`` reads a table it never builds
    and none is on disk (5x5's 6-6-6-6, 4x6's), the command that builds it (:func:`limit_hint`).
    """
    hint = faster_table_hint(shape, goal_blank, cache_dir)
    if hint is not None or _key(shape) not in ON_DISK or shape[0] * shape[1] <= MAX_CELLS:
        return hint
    read = tables_of(shape, goal_blank).read
    if any(pdb_path(name, shape, goal_blank, cache_dir).is_file() for name in read):
        return None
    return limit_hint(shape, goal_blank, probe(shape).heuristic)


def _dual_table_hint(goal_blank: int, cache_dir: str | os.PathLike[str] | None) -> str | None:
    # 6-6-6-6 built without the dual lookups' table (built since by `pdb build 6-6-6-6`).
    built = pdb_path("6-6-6-6", (5, 5), goal_blank, cache_dir).is_file()
    if not built or dual_tables_built("6-6-6-6", (5, 5), goal_blank, cache_dir):
        return None
    return DUAL_TABLE_HINT
