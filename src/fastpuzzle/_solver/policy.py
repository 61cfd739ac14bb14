"""The ``auto`` policy: which optimal search and which table for a shape and goal.

One place answers "what does ``solve()`` do by default?", for :func:`fastpuzzle.solve` and for
batches (:func:`fastpuzzle.solve_many`), so the two never disagree:

- up to 9 cells (3x3, 2x4, 2x3, ...): IDA* on the exact distance table, built in memory once
  (it walks straight down; reported as ``algorithm="idastar", heuristic="table"``, which is
  also how to ask for it);
- 4x4: IDA* with the best pattern database on disk (7-8 if built, else 6-6-3); where none is
  on disk for the goal's blank cell, IDA* with walking distance first, for
  :data:`PROBE_NODES` nodes, and 6-6-3 is built only if that search does not finish (an easy
  board with any goal is solved at once, with no 16 MB table to build first);
- other shapes of up to 16 cells: IDA* with walking distance when both sides are at most 4 long,
  else linear conflict;
- past 16 cells: IDA* with the shape's pattern database when it is on disk (5x5: 6-6-6-6), else
  linear conflict, stopped after :data:`WIDE_DEFAULT_SECONDS` unless the caller sets limits.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastpuzzle._solver.tables import BEST_4X4
from fastpuzzle.board import MAX_CELLS, Shape
from fastpuzzle.limits import Limits
from fastpuzzle.pdb.partitions import MAX_PDB_CELLS, default_partition
from fastpuzzle.pdb.store import load_pdb, pdb_path

__all__ = [
    "PROBE",
    "PROBE_NODES",
    "WIDE_DEFAULT_SECONDS",
    "Choice",
    "auto_choice",
    "auto_limits",
    "table_on_disk",
]

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


def auto_choice(shape: Shape, goal_blank: int) -> Choice:
    """The default optimal search for boards of ``shape`` whose goal has its blank on
    ``goal_blank``."""
    rows, cols = shape
    if rows * cols <= _TABLE_CELLS:
        return _TABLE
    if shape == (4, 4):
        return _PDB
    if rows * cols <= MAX_CELLS:
        # Walking-distance tables of lines up to 4 long build in a blink and beat linear conflict
        # there (3x4: fewer nodes, ~2x faster); longer lines make them slow to build or too big.
        return _WALKING if rows <= 4 and cols <= 4 else _LINEAR_CONFLICT
    return _PDB if _pdb_on_disk(shape, goal_blank) else _LINEAR_CONFLICT


#: Nodes IDA* with walking distance spends on a 4x4 board whose goal has no pattern database on
#: disk, before the table is built: about a tenth of a second; boards up to about 40 moves from
#: their goal mostly finish within it, and the 6-6-3 build it saves takes seconds.
PROBE_NODES = 1 << 21

#: The heuristic of that first search.
PROBE = _WALKING


def table_on_disk(shape: Shape, goal_blank: int) -> bool:
    """Whether ``auto``'s pattern database for 4x4 boards towards a goal with its blank on
    ``goal_blank`` (one of :data:`~fastpuzzle._solver.tables.BEST_4X4`) is in the cache, so that
    solving builds nothing."""
    return any(pdb_path(partition, shape, goal_blank).is_file() for partition in BEST_4X4)


def _pdb_on_disk(shape: Shape, goal_blank: int) -> bool:
    """Whether the pattern database of a shape past 16 cells is on disk and valid."""
    if shape[0] * shape[1] > MAX_PDB_CELLS:
        return False
    partition = default_partition(shape, goal_blank)
    return load_pdb(partition, shape, goal_blank) is not None


def auto_limits(shape: Shape, limits: Limits | None) -> Limits | None:
    """The limits ``auto`` runs under: the caller's, else a time cap past 16 cells."""
    if limits is None and shape[0] * shape[1] > MAX_CELLS:
        return Limits(seconds=WIDE_DEFAULT_SECONDS)
    return limits
