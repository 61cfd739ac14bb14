"""Pattern databases for tests and benchmarks: a cache built once and set as the cache, and the
small 5x5 tables the wide kernel is tested on."""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from fastpuzzle import pdb
from fastpuzzle._core import _wide_pdb
from fastpuzzle._core._result import CoreResult
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import parallel
from fastpuzzle.board import Board
from fastpuzzle.generate import scramble
from fastpuzzle.pdb import compound, partitions

__all__ = [
    "SMALL_COMPOUND",
    "cache_holding",
    "entry_value",
    "scrambles_5x5",
    "search_5x5",
    "small_5x5_compound",
    "small_5x5_database",
    "small_6x6_database",
    "stand_in_6x6_tables",
    "threaded",
    "wide_pdb_search",
]


def threaded(options: dict[str, Any]) -> dict[str, Any]:
    """A kernel's keyword ``options``, with the threads' runner when they ask for several
    threads (the compiled core never imports the layer that runs them: its caller hands it in)."""
    if options.get("workers", 1) > 1 and "runner" not in options:
        return {**options, "runner": parallel.run_team}
    return options


@contextmanager
def cache_holding(partition: str, directory: Path) -> Iterator[Path]:
    """``directory`` holding ``partition``'s database, set as ``$FASTPUZZLE_CACHE`` meanwhile."""
    before = os.environ.get("FASTPUZZLE_CACHE")
    os.environ["FASTPUZZLE_CACHE"] = str(directory)
    try:
        pdb.build_pdb(partition, progress=False)
        yield directory
    finally:
        if before is None:
            os.environ.pop("FASTPUZZLE_CACHE", None)
        else:
            os.environ["FASTPUZZLE_CACHE"] = before


def small_5x5_database(directory: Path, *, zero: bool = False) -> pdb.Database:
    """Eight 3-tile groups for 5x5 (built in milliseconds into ``directory``, zero-aware with
    ``zero``), with reflection: the wide pattern-database kernel's test tables."""
    cells = list(range(24))
    partition: tuple[tuple[int, ...], ...] = tuple(tuple(cells[i : i + 3]) for i in range(0, 24, 3))
    if zero:
        partition = partitions.ZeroAwareGroups(partition)
    pdb.build_pdb(partition, (5, 5), cache_dir=directory, progress=False)
    database = pdb.load_pdb(partition, (5, 5), cache_dir=directory)
    assert database is not None and database.reflect is not None
    return database


#: Two 4-tile groups by 6x6's goal blank, the other tiles counting their Manhattan distance:
#: 1.4 million entries a table, built in about a second (groups that leave 32 cells free or
#: fewer: the builder's 64-bit words).
SMALL_6X6 = ((28, 29, 33, 34), (16, 17, 22, 23))


def small_6x6_database(directory: Path) -> pdb.Database:
    """:data:`SMALL_6X6` built into ``directory``, with reflection: the test tables past 32
    cells."""
    pdb.build_pdb(SMALL_6X6, (6, 6), cache_dir=directory, progress=False)
    database = pdb.load_pdb(SMALL_6X6, (6, 6), cache_dir=directory)
    assert database is not None and database.reflect is not None
    return database


def wide_pdb_search(
    database: pdb.Database, board: Board, *, mirror: bool = True, **options: Any
) -> CoreResult:
    """``_wide_pdb.idastar`` on ``board`` with ``database`` (without its reflection unless
    ``mirror``) and the kernel's keyword ``options``."""
    problem = make_problem(board, None)
    return _wide_pdb.idastar(
        problem.wide_cells().astype(np.uint8),
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        tables=database if mirror else dataclasses.replace(database, reflect=None),
        **threaded(options),
    )


def _blocks(cells: list[int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(cells[i : i + 4])) for i in range(0, len(cells), 4))


def _small_compound() -> tuple[tuple[tuple[int, ...], ...], ...]:
    # Three partitions of the 5x5 goal cells into six groups of four; the second shares two
    # groups with the first.
    first = _blocks(list(range(24)))
    rest = list(range(8, 24))
    random.Random(2).shuffle(rest)
    third = list(range(24))
    random.Random(3).shuffle(third)
    return (first, first[:2] + _blocks(rest), _blocks(third))


#: The small stand-in for the 5x5 compound (``pdb24``): tables built in a blink.
SMALL_COMPOUND = _small_compound()


def small_5x5_compound(
    directory: Path, name: str = "test-x3", *, zero: bool = False
) -> pdb.Compound:
    """:data:`SMALL_COMPOUND` registered as compound ``name`` of 5x5 (zero-aware with ``zero``)
    while its tables are built into ``directory`` through the catalogue's own path, then
    loaded. A zero-aware one is loaded as zero-aware only while ``name`` is registered so."""
    catalogue = partitions.COMPOUNDS[(5, 5)]
    before = catalogue.get(name), partitions.ZERO_COMPOUNDS
    catalogue[name] = SMALL_COMPOUND
    if zero:
        partitions.ZERO_COMPOUNDS = before[1] | {name}
    try:
        compound.build_compound(name, (5, 5), cache_dir=directory, progress=False)
        return compound.compound_for(name, (5, 5), 24, directory, build=False)
    finally:
        partitions.ZERO_COMPOUNDS = before[1]
        if before[0] is None:
            del catalogue[name]
        else:
            catalogue[name] = before[0]


def scrambles_5x5(count: int, moves: tuple[int, int], seed: int) -> list[tuple[int, ...]]:
    """``count`` 5x5 boards, each scrambled by a number of moves drawn from ``moves``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = scramble(Board.goal((5, 5)), rng.randrange(*moves), rng=rng.randrange(1 << 30))
        out.append(tuple(int(t) for t in np.asarray(board).ravel()))
    return out


def search_5x5(tiles: tuple[int, ...], layout: object, **options: object) -> CoreResult:
    """``_wide_pdb.idastar`` on a 5x5 board (goal blank 24) with the laid-out ``layout``."""
    cells = np.array(tiles, dtype=np.uint8)
    return _wide_pdb.idastar(cells, tiles.index(0), 5, 5, 24, tables=layout, **threaded(options))


def entry_value(table: np.ndarray, nibble: bool, entry: int) -> int:
    """Entry ``entry`` of a packed table (two entries a byte where ``nibble``)."""
    if nibble:
        return (int(table[entry >> 1]) >> (4 * (entry & 1))) & 15
    return int(table[entry])


def stand_in_6x6_tables(directory: Path, monkeypatch: Any) -> Any:
    """The small 6x6 tables of ``directory`` (:func:`small_6x6_database`) as what the anytime
    solver finds on disk (``monkeypatch``: a pytest MonkeyPatch), with the caller's memory limit
    as ``on_disk`` passes it on; returns the :class:`~fastpuzzle._solver.anytime.Tables`."""
    from fastpuzzle._solver import anytime

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(directory))
    tables = anytime.Tables(SMALL_6X6, (6, 6), 35, wait=True)

    def on_disk(cls: Any, problem: Any, wait: bool, memory_bytes: int | None = None) -> Any:
        tables.memory_bytes = memory_bytes
        return tables

    monkeypatch.setattr(anytime.Tables, "on_disk", classmethod(on_disk))
    return tables
