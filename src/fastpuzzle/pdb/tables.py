"""What a search asks for: the tables of a heuristic for a problem, loaded, built or computed."""

from __future__ import annotations

import os
from functools import lru_cache

from fastpuzzle._core import _pdb
from fastpuzzle._problem import Problem
from fastpuzzle._util.checks import shown
from fastpuzzle.pdb.database import Database, PatternDatabaseError
from fastpuzzle.pdb.partitions import NAMED, Partition, default_partition, shape_of_partition
from fastpuzzle.pdb.store import load_or_build, load_pdb, pdb_path

__all__ = [
    "HINT_AFTER_SECONDS",
    "database_for",
    "exact_table",
    "faster_table_hint",
    "second_database_built",
    "second_database_for",
]

#: An optimal 4x4 search that runs this long (seconds) shows :func:`faster_table_hint`, if any:
#: on the command line's progress, and on the puzzle page.
HINT_AFTER_SECONDS = 3.0

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


def second_database_for(
    problem: Problem, heuristic: str, cache_dir: str | os.PathLike[str] | None = None
) -> Database | None:
    """A second database whose sums ``heuristic`` also takes the larger of, or None.

    Only the default on 4x4 has one, and only once the user built it: with 7-8 on disk, 7-8b
    (``fastpuzzle pdb build 7-8b``, the same size). With both, searches expand about 30% fewer
    nodes but spend 1.5x as long on each, while boards 7-8 alone finds hard take far less
    (hard.tsv's 70-move board: 8.1x fewer nodes). So IDA* takes the pair only for its large
    searches (see :data:`fastpuzzle._solver.idastar.SECOND_FROM`).
    """
    if not second_database_built(problem, heuristic, cache_dir):
        return None
    return load_pdb("7-8b", (4, 4), problem.goal_blank, cache_dir)


def second_database_built(
    problem: Problem, heuristic: str, cache_dir: str | os.PathLike[str] | None = None
) -> bool:
    """Whether :func:`second_database_for` has a file to read (its checks come with reading)."""
    if heuristic != "pdb" or (problem.rows, problem.cols) != (4, 4):
        return False
    blank = problem.goal_blank
    return all(pdb_path(name, (4, 4), blank, cache_dir).is_file() for name in ("7-8", "7-8b"))


def faster_table_hint(
    shape: tuple[int, int], goal_blank: int, cache_dir: str | os.PathLike[str] | None = None
) -> str | None:
    """How to make optimal searches of ``shape`` faster, or None when the best tables are built.

    On 5x5, 6-6-6-6 built without its dual lookups' table (an older build) names the command
    that adds it. 4x4 has stronger tables than the one built on first use: 7-8, which
    ``solve()`` uses once it is on disk but never builds itself, then 7-8b beside it, which
    large searches add
    (see :func:`second_database_for`). A search that is still running after seconds with 7-8
    is one of the boards 7-8b is for.
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


def _dual_table_hint(goal_blank: int, cache_dir: str | os.PathLike[str] | None) -> str | None:
    # 6-6-6-6 built without the dual lookups' table (built since by `pdb build 6-6-6-6`).
    from fastpuzzle.pdb.dual import dual_tables_built

    built = pdb_path("6-6-6-6", (5, 5), goal_blank, cache_dir).is_file()
    if not built or dual_tables_built("6-6-6-6", (5, 5), goal_blank, cache_dir):
        return None
    return DUAL_TABLE_HINT


@lru_cache(maxsize=16)
def exact_table(rows: int, cols: int, goal_blank: int) -> Database:
    """Exact distance of every board of a small shape (one group of all tiles), in memory."""
    if rows * cols > 9:
        raise PatternDatabaseError(f"an exact table of {rows}x{cols} boards would be too large")
    tiles = tuple(t for t in range(1, rows * cols))
    levels = _pdb.build_levels(rows, cols, goal_blank, list(tiles), False)
    table, nibble = _pdb.pack_table(levels, rows, cols, goal_blank, list(tiles), False)
    table.setflags(write=False)
    cells = (tuple(c for c in range(rows * cols) if c != goal_blank),)
    return Database(
        (rows, cols), goal_blank, "exact", cells, [(tiles, False, nibble, table)], None, None
    )


def database_for(
    problem: Problem,
    heuristic: str,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    deadline: float | None = None,
) -> Database:
    """The tables ``heuristic`` (``"pdb"``, ``"pdb555"``, ``"pdb663"``, ``"pdb78"``, ``"table"``)
    uses for ``problem``, loading or building them as :mod:`fastpuzzle.pdb` describes.

    A build stops at ``deadline`` (a :func:`time.monotonic` time; None: none) with
    :class:`~fastpuzzle.pdb.BuildTimeLimitError`; loading a file already built is not limited.
    """
    shape = problem.board.shape
    blank = problem.goal_blank
    if heuristic == "table":
        return exact_table(shape[0], shape[1], blank)
    if heuristic in NAMED:
        partition = NAMED[heuristic]
        wanted = shape_of_partition(partition)
        if shape != wanted:
            raise PatternDatabaseError(
                f"{heuristic} is for {wanted[0]}x{wanted[1]} boards, not {shape[0]}x{shape[1]}"
            )
        database = load_or_build(
            partition,
            shape,
            blank,
            build=partition in _QUICK,
            cache_dir=cache_dir,
            deadline=deadline,
        )
        if database is None:
            raise PatternDatabaseError(_missing(partition, shape))
        return database
    if heuristic != "pdb":
        raise PatternDatabaseError(f"unknown pattern database heuristic {shown(heuristic)}")
    if shape == (4, 4):
        best = load_pdb("7-8", shape, blank, cache_dir)
        if best is None:
            best = load_or_build(
                "6-6-3", shape, blank, build=True, cache_dir=cache_dir, deadline=deadline
            )
        assert best is not None
        return best
    default = default_partition(shape, blank)
    found = load_or_build(
        default,
        shape,
        blank,
        build=problem.rows * problem.cols <= 16,
        cache_dir=cache_dir,
        deadline=deadline,
    )
    if found is None:
        raise PatternDatabaseError(_missing(default, shape))
    return found


#: Named partitions quick enough to build on first use (seconds).
_QUICK = ("5-5-5", "6-6-3")


def _missing(partition: str | Partition, shape: tuple[int, int]) -> str:
    rows, cols = shape
    if isinstance(partition, str):
        command = f"`fastpuzzle pdb build {partition}`"
        call = f"fastpuzzle.build_pdb({partition!r})"
    else:
        command = f"`fastpuzzle pdb build auto --shape {rows} {cols}`"
        call = f"fastpuzzle.build_pdb('auto', ({rows}, {cols}))"
    return (
        f"the pattern database for {rows}x{cols} is not built; build it once with {command} "
        f"or {call} (minutes: past 16 cells each six-tile group has up to 127.5 M placements)"
    )
