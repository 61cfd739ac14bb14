"""Dual lookups: which table each group reads on the dual board, and the few extra tables.

The dual of a board whose blank is on cell ``b`` is the inverse permutation: it puts the tile
that belongs on ``p`` where the tile standing on ``p`` belongs. Its distance to a goal whose
blank is on ``b`` equals the board's distance to ours (a shortest solution's blank swaps, played
backwards, solve it), so a table read on it is a lower bound -- for that goal. Our tables are
built tracking the blank: a group's table holds the fewest moves of its tiles home *with the
blank ending in the region of free cells that holds the goal blank*. Two consequences:

- the group whose goal cells hold ``b`` is no group of the dual's goal (its label ``b`` is the
  dual's blank): it counts only its Manhattan distance;
- a group whose goal placement walls the goal blank in (4x4 and 5x5 partitions have one: the
  group holding both cells beside the blank's corner) needs its table built for the other region
  of its free cells, where ``b`` lies. That table (:func:`dual_tables`) is as large as the group's
  own and is built once, like the partition's.

Exhaustively on 3x3 and 2x4 partitions, the plain lookup on the dual without these two rules
overestimates hundreds of boards; with them, none (``tests/core/test_dual.py``). The kernels
(``_pdbgroups.pxd``) follow each dual board incrementally, one table read a move per board.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle.pdb.database import Database, PatternDatabaseError, slot_bits
from fastpuzzle.pdb.partitions import ResolvedPartition, free_regions, resolve, walled_off
from fastpuzzle.pdb.store import load_or_build, locate

__all__ = [
    "DualPlan",
    "dual_files_built",
    "dual_layout",
    "dual_plan",
    "dual_tables",
    "dual_tables_built",
    "walled_regions",
]

#: ``(choices, alts)`` as :class:`fastpuzzle._core._patterns.LoadedPatterns` takes it.
DualPlan = tuple[list[list[int]], list[Any]]

_NONE, _MAIN, _ALT = -1, 0, 1


def walled_regions(database: Database) -> list[int | None]:
    """Per group: the region (its smallest cell) of free cells the goal blank is walled off
    from, where the dual needs a table of its own; None where the free cells are one region.
    A group whose free cells fall into three or more regions gets one such table, for the
    largest region."""
    return walled_off(database.shape, database.goal_blank, database.cells)


def dual_tables(
    database: Database,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    build: bool = False,
    deadline: float | None = None,
) -> list[Database | None] | None:
    """Per group: its table for the walled-off region (see :func:`walled_regions`), loaded or
    built, or None where none is needed; None when one is needed but not built (and
    ``build`` is False)."""
    out: list[Database | None] = []
    for cells, region in zip(database.cells, walled_regions(database)):
        if region is None:
            out.append(None)
            continue
        alone = resolve((tuple(cells),), database.shape, region)
        alt = load_or_build(alone, build=build, cache_dir=cache_dir, deadline=deadline)
        if alt is None:
            return None
        out.append(alt)
    return out


def dual_tables_built(
    partition: str | Sequence[Sequence[int]],
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> bool:
    """Whether every table :func:`dual_tables` needs for a partition has a file in the cache
    (its checks come with reading it); the partition's own tables are not read."""
    return dual_files_built(resolve(partition, shape, goal_blank), cache_dir)


def dual_files_built(
    partition: ResolvedPartition, cache_dir: str | os.PathLike[str] | None = None
) -> bool:
    """:func:`dual_tables_built` of a resolved partition."""
    shape, groups = partition.shape, partition.groups
    return all(
        region is None or os.path.isfile(locate(resolve((cells,), shape, region), cache_dir))
        for cells, region in zip(groups, walled_off(shape, partition.goal_blank, groups))
    )


def _slot_cells(tiles: Sequence[int], goal_blank: int) -> tuple[int, ...]:
    return tuple(t - 1 if t - 1 < goal_blank else t for t in tiles)


def dual_plan(database: Database, alts: Sequence[Database | None]) -> DualPlan:
    """``(choices, alts)`` for the kernels: per group and per goal blank of a dual board, which
    table the group reads (-1 none, 0 its own, 1 ``alts``), and the alternative tables."""
    n = database.shape[0] * database.shape[1]
    choices: list[list[int]] = []
    tables: list[Any] = []
    walls = walled_regions(database)
    for index, (cells, group) in enumerate(zip(database.cells, database.groups)):
        alt = alts[index]
        region = free_regions(database.shape, cells)
        walled = walls[index]
        if alt is not None:
            own = _slot_cells(group[0], database.goal_blank)
            theirs = _slot_cells(alt.groups[0][0], alt.goal_blank)
            if own != theirs or alt.shape != database.shape:
                raise PatternDatabaseError(
                    f"the dual table of group {index} does not cover its goal cells in order"
                )
            tables.append(alt.groups[0])
        else:
            tables.append(None)
        row = []
        for beta in range(n):
            if beta in cells:
                row.append(_NONE)
            elif region[beta] == region[database.goal_blank]:
                row.append(_MAIN)
            elif alt is not None and region[beta] == walled:
                row.append(_ALT)
            else:
                row.append(_NONE)
        choices.append(row)
    return choices, tables


def dual_layout(
    database: Database,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    build: bool = True,
    deadline: float | None = None,
) -> LoadedPatterns:
    """``database`` laid out for the kernels with its dual lookups, made on first use (its
    tables for the walled-off regions loaded, or built when ``build``), then kept.

    Raises
    ------
    PatternDatabaseError
        If a table for a walled-off region is not built and ``build`` is False.
    BuildTimeLimitError
        If building one did not end by ``deadline``.
    """
    kept: LoadedPatterns | None = database.__dict__.get("_dual_loaded")
    if kept is None:
        alts = dual_tables(database, cache_dir, build=build, deadline=deadline)
        if alts is None:
            rows, cols = database.shape
            raise PatternDatabaseError(
                f"the dual lookups of {database.name} for {rows}x{cols} need one more table "
                "(the group that walls the goal blank in, built for the other region of its "
                "free cells), which is not built here; a search with a dual heuristic builds it"
            )
        rows, cols = database.shape
        cells = rows * cols
        kept = LoadedPatterns(
            database.groups,
            database.reflect,
            cells,
            slot_bits(cells),
            database.goal_blank,
            dual=dual_plan(database, alts),
        )
        object.__setattr__(database, "_dual_loaded", kept)
    return kept
