"""What a search asks for: the tables of a partition for a shape and goal, loaded, built or
computed. Which tables a search takes, and which are worth building, is the solver's policy
(:mod:`fastpuzzle._solver.policy`), not this module's."""

from __future__ import annotations

import os
from functools import lru_cache

from fastpuzzle._core import _pdb
from fastpuzzle.pdb.database import Database, PatternDatabaseError
from fastpuzzle.pdb.partitions import (
    Partition,
    ResolvedPartition,
    resolve,
    shape_of_partition,
)
from fastpuzzle.pdb.store import load, load_or_build, locate

__all__ = [
    "SECOND_PARTITION",
    "database_for",
    "exact_table",
    "partner_built",
    "partner_of",
    "second_database_built",
    "second_database_for",
]

#: A partition whose sums a search may take the larger of beside another's, once both are built:
#: 7-8b beside 7-8 (``fastpuzzle pdb build 7-8b``, the same size), made for the boards 7-8 alone
#: finds hard. When a search takes the pair is the policy's
#: (:func:`fastpuzzle._solver.policy.table_switch`).
SECOND_PARTITION = {"7-8": "7-8b"}


def second_database_for(
    partition: str,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Database | None:
    """The database of :data:`SECOND_PARTITION`'s partner of ``partition``, or None when either
    file is not on disk (or the partner fails its checks)."""
    if partition not in SECOND_PARTITION:
        return None
    return partner_of(resolve(partition, shape, goal_blank), cache_dir)


def second_database_built(
    partition: str,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> bool:
    """Whether :func:`second_database_for` has a file to read (its checks come with reading)."""
    if partition not in SECOND_PARTITION:
        return False
    return partner_built(resolve(partition, shape, goal_blank), cache_dir)


def partner_of(
    partition: ResolvedPartition, cache_dir: str | os.PathLike[str] | None = None
) -> Database | None:
    """:func:`second_database_for` of a resolved partition."""
    partner = _partner(partition)
    if partner is None or not partner_built(partition, cache_dir):
        return None
    return load(partner, cache_dir)


def partner_built(
    partition: ResolvedPartition, cache_dir: str | os.PathLike[str] | None = None
) -> bool:
    """:func:`second_database_built` of a resolved partition."""
    partner = _partner(partition)
    if partner is None:
        return False
    return all(os.path.isfile(locate(p, cache_dir)) for p in (partition, partner))


def _partner(partition: ResolvedPartition) -> ResolvedPartition | None:
    second = SECOND_PARTITION.get(partition.name)
    if second is None:
        return None
    return resolve(second, partition.shape, partition.goal_blank)


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
    build: bool = True,
    deadline: float | None = None,
) -> Database:
    """The tables of ``partition`` for boards of ``shape`` whose goal has its blank on
    ``goal_blank``, loaded, or built into the cache when not there.

    ``partition`` is ``"exact"`` (every tile in one group: the exact distance, for boards of up
    to 9 cells, built in memory), ``"auto"`` (the shape's default), a named partition of the
    shape, or groups of goal cells. ``build=False`` only loads:
    :class:`~fastpuzzle.pdb.PatternDatabaseError` then says how to build a table that is not
    on disk. Which tables a search builds on first use is the solver's policy
    (:mod:`fastpuzzle._solver.policy`), which passes ``build``.

    A build stops at ``deadline`` (a :func:`time.monotonic` time; None: none) with
    :class:`~fastpuzzle.pdb.BuildTimeLimitError`, and so does the wait for reading a file
    already built, whose read goes on in the background for the next call
    (:func:`~fastpuzzle.pdb.load_pdb`).
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
    resolved = resolve(partition, shape, goal_blank)
    database = load_or_build(resolved, build=build, cache_dir=cache_dir, deadline=deadline)
    if database is None:
        raise PatternDatabaseError(_missing(resolved))
    return database


def _missing(partition: ResolvedPartition) -> str:
    (rows, cols), goal_blank = partition.shape, partition.goal_blank
    other_blank = goal_blank != rows * cols - 1
    if partition.asked is not None and partition.asked != "auto":
        command = f"fastpuzzle pdb build {partition.asked}"
        call = f"fastpuzzle.build_pdb({partition.asked!r}"
    else:
        command = f"fastpuzzle pdb build auto --shape {rows} {cols}"
        call = f"fastpuzzle.build_pdb('auto', ({rows}, {cols})"
    if other_blank:
        command += f" --goal-blank {goal_blank}"
        call += f", goal_blank={goal_blank}"
    return (
        f"the pattern database for {rows}x{cols} is not built; build it once with `{command}` "
        f"or {call}) (seconds to minutes: past 16 cells each six-tile group has up to 127.5 M "
        "placements)"
    )
