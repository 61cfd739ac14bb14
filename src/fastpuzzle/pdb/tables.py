"""What a search asks for: the tables of a partition for a shape and goal, loaded, built or
computed, and the hints that name the tables worth building."""

from __future__ import annotations

import os
from functools import lru_cache

from fastpuzzle._core import _pdb
from fastpuzzle.pdb.database import Database, PatternDatabaseError
from fastpuzzle.pdb.dual import dual_tables_built
from fastpuzzle.pdb.partitions import Partition, shape_of_partition
from fastpuzzle.pdb.store import load_or_build, load_pdb, pdb_path

__all__ = [
    "HINT_AFTER_SECONDS",
    "SECOND_PARTITION",
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


#: A partition whose sums a search may take the larger of beside another's, once both are built:
#: 7-8b beside 7-8 (``fastpuzzle pdb build 7-8b``, the same size). With both, searches expand
#: about 30% fewer nodes but spend 1.5x as long on each, while boards 7-8 alone finds hard take
#: far less (hard.tsv's 70-move board: 8.1x fewer nodes), so a search takes the pair only once
#: it has grown large.
SECOND_PARTITION = {"7-8": "7-8b"}


def second_database_for(
    partition: str,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Database | None:
    """The database of :data:`SECOND_PARTITION`'s partner of ``partition``, or None when either
    file is not on disk (or the partner fails its checks)."""
    if not second_database_built(partition, shape, goal_blank, cache_dir):
        return None
    return load_pdb(SECOND_PARTITION[partition], shape, goal_blank, cache_dir)


def second_database_built(
    partition: str,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> bool:
    """Whether :func:`second_database_for` has a file to read (its checks come with reading)."""
    second = SECOND_PARTITION.get(partition)
    if second is None:
        return False
    return all(
        pdb_path(name, shape, goal_blank, cache_dir).is_file() for name in (partition, second)
    )


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
    partition: str | Partition,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    deadline: float | None = None,
) -> Database:
    """The tables of ``partition`` for boards of ``shape`` whose goal has its blank on
    ``goal_blank``, loaded or built as :mod:`fastpuzzle.pdb` describes.

    ``partition`` is ``"exact"`` (every tile in one group: the exact distance, for boards of up
    to 9 cells, built in memory), a named partition of the shape, or groups of goal cells. A
    table is built on first use where that takes seconds (5-5-5, 6-6-3, and any partition of a
    board of up to 16 cells but 7-8 and 7-8b); the others must be built beforehand, or
    :class:`~fastpuzzle.pdb.PatternDatabaseError` says how.

    A build stops at ``deadline`` (a :func:`time.monotonic` time; None: none) with
    :class:`~fastpuzzle.pdb.BuildTimeLimitError`; loading a file already built is not limited.
    """
    rows, cols = shape
    if isinstance(partition, str) and partition == "exact":
        return exact_table(rows, cols, goal_blank)
    if isinstance(partition, str) and partition != "auto":
        wanted = shape_of_partition(partition)
        if shape != wanted:
            raise PatternDatabaseError(
                f"partition {partition} is for {wanted[0]}x{wanted[1]} boards, not {rows}x{cols}"
            )
        build = partition in _QUICK
    else:
        build = rows * cols <= 16
    database = load_or_build(
        partition, shape, goal_blank, build=build, cache_dir=cache_dir, deadline=deadline
    )
    if database is None:
        raise PatternDatabaseError(_missing(partition, shape))
    return database


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
