"""Compound pattern databases: several partitions of one board, the search takes the largest sum.

Each partition is additive (its groups' values add up to a lower bound), so the largest of their
sums is one too, and so is each partition's sum on the board mirrored about the main diagonal
(its transposition). A group that several partitions share is one table. The 5x5 catalogue holds
6-6-6-6 partitions; its first is :data:`~fastpuzzle.pdb.partitions.PARTITIONS_5X5`'s
``"6-6-6-6"``, whose four tables come from that partition's file, the others' groups each from a
one-group file of their own (named by its cells, as any explicit partition is).

Only the tables' sums are compounded: a group's table is the one its own partition would read, so
every value is a lower bound by construction (tests check the kernel's value against
plain-Python lookups of the same tables, its node counts against a plain-Python IDA*, its
lengths against another search's).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle.pdb.database import Database, PatternDatabaseError, slot_bits
from fastpuzzle.pdb.partitions import (
    compound_groups,
    compound_sources,
    is_zero_compound,
    reflection,
    resolve,
    shape_and_blank,
)
from fastpuzzle.pdb.plan import build_plan, plan_tables
from fastpuzzle.pdb.store import load_or_build, pdb_path

__all__ = ["Compound", "build_compound", "compound_built", "compound_for"]

Cells = tuple[int, ...]
Group = tuple[tuple[int, ...], bool, bool, Any]


@dataclass(frozen=True)
class Compound:
    """A compound's tables, loaded.

    Attributes
    ----------
    shape : tuple of int
        Rows and columns.
    goal_blank : int
        The goal's blank cell.
    name : str
        The compound's name (``"6-6-6-6x7"``).
    partitions : tuple
        Per partition, its groups as :class:`~fastpuzzle.pdb.Database` holds them:
        ``(tiles, sparse, nibble, table)``; a group in several partitions is one table.
    reflect : tuple of int or None
        Cell mirrored about the main diagonal, when the reflected lookups are valid.
    zero_aware : bool
        Whether every table is zero-aware (``6-6-6-6x7z``).
    """

    shape: tuple[int, int]
    goal_blank: int
    name: str
    partitions: tuple[tuple[Group, ...], ...]
    reflect: tuple[int, ...] | None
    zero_aware: bool = False

    def loaded(self) -> LoadedPatterns:
        """The tables laid out for the IDA* kernel past 16 cells: made on first use, then kept."""
        kept: LoadedPatterns | None = self.__dict__.get("_loaded")
        if kept is None:
            rows, cols = self.shape
            first, *others = self.partitions
            kept = LoadedPatterns(
                list(first), self.reflect, rows * cols, slot_bits(rows * cols), self.goal_blank,
                extra=[list(groups) for groups in others],
                zero=self.shape if self.zero_aware else None,
            )  # fmt: skip
            object.__setattr__(self, "_loaded", kept)
        return kept

    # The laid-out form points into this process's memory; a copy makes its own.
    __getstate__ = Database.__getstate__

    @property
    def nbytes(self) -> int:
        """Bytes of all tables, each shared table once."""
        tables = {id(table): table for groups in self.partitions for *_, table in groups}
        return sum(int(table.nbytes) for table in tables.values())


def compound_for(
    name: str,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    build: bool = True,
    deadline: float | None = None,
) -> Compound:
    """The tables of compound ``name``, loaded, or built into the cache where missing (unless
    ``build=False``: a missing one is then a :class:`PatternDatabaseError` naming the command
    that builds them all). A build stops at ``deadline`` as :func:`database_for`'s does."""
    shape, goal_blank = shape_and_blank(name, shape, goal_blank)
    partitions = compound_groups(name, shape, goal_blank)
    sources = compound_sources(name, shape, goal_blank)
    table_of: dict[Cells, Group] = {}
    databases = []
    for wanted in sources:
        source = resolve(wanted, shape, goal_blank)
        database = load_or_build(source, build=build, cache_dir=cache_dir, deadline=deadline)
        if database is None:
            where = "" if goal_blank == shape[0] * shape[1] - 1 else f" --goal-blank {goal_blank}"
            plan = plan_tables(name, shape, goal_blank, cache_dir)
            raise PatternDatabaseError(
                f"the {name} compound's tables for {shape[0]}x{shape[1]} are not all built; "
                f"build them once with `fastpuzzle pdb build {name}{where}` ({len(sources)} "
                f"files, {plan.cost()}; `--dry-run` prints the plan)"
            )
        table_of.update(_by_cells(database))
        databases.append(database)
    # The same loaded files make the same compound: kept, so that a batch lays it out once.
    key = (name, shape, goal_blank, tuple(id(database) for database in databases))
    kept = _KEPT.get(key)
    if kept is not None:
        return kept[1]
    made = Compound(
        shape,
        goal_blank,
        name,
        tuple(tuple(table_of[group] for group in groups) for groups in partitions),
        reflection(shape, goal_blank),
        is_zero_compound(name),
    )
    # The databases are held with it, so that their ids in the key stay theirs.
    _KEPT[key] = (databases, made)
    return made


_KEPT: dict[tuple[Any, ...], tuple[list[Database], Compound]] = {}


def _by_cells(database: Database) -> dict[Cells, Group]:
    return {tuple(sorted(cells)): group for cells, group in zip(database.cells, database.groups)}


def compound_built(
    name: str,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None = None,
) -> bool:
    """Whether every file of compound ``name`` is in the cache (their checks come with
    reading them)."""
    sources = compound_sources(name, shape, goal_blank)
    return all(pdb_path(wanted, shape, goal_blank, cache_dir).is_file() for wanted in sources)


def build_compound(
    name: str,
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    progress: bool | Callable[[str], None] = True,
    force: bool = False,
) -> list[Path]:
    """Build every table of compound ``name`` that is not in the cache yet, one file at a time
    (each as :func:`build_pdb` builds a partition: progress, Ctrl-C), once the free space is
    checked for all of them (:func:`fastpuzzle.pdb.plan.build_plan`); each file's progress
    says ``file k of N``.

    Returns
    -------
    list of Path
        Its files: the base partition's (where it shares groups), then one per other group.

    Raises
    ------
    NotEnoughSpaceError
        Before any file is built, if the cache's file system has less free space than the
        files to build take together.
    """
    shape, blank = shape_and_blank(name, shape, goal_blank)
    return build_plan(
        plan_tables(name, shape, blank, cache_dir, force=force), cache_dir, progress=progress
    )
