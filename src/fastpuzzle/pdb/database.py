"""What a loaded pattern database is: the tables a search takes, and the error of this package."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle._core._pdb import DeadlinePassed
from fastpuzzle.errors import FastPuzzleError, TimeLimitError
from fastpuzzle.results import SearchStats

__all__ = [
    "BuildTimeLimitError",
    "Database",
    "NotEnoughSpaceError",
    "PatternDatabaseError",
    "slot_bits",
]


class PatternDatabaseError(FastPuzzleError):
    """A pattern database is missing or cannot be built (the message says why, and where)."""


class NotEnoughSpaceError(PatternDatabaseError):
    """The cache directory's file system has less free space than a database's file takes;
    found before the build starts. ``needed`` and ``free`` are bytes, ``directory`` the cache
    directory."""

    def __init__(self, directory: Path, needed: int, free: int) -> None:
        self.directory = directory
        self.needed = needed
        self.free = free
        super().__init__(
            f"not enough disk space for this pattern database: it needs {_mib(needed)} free in "
            f"{directory}, which has {_mib(free)}; free some space there, or set "
            "FASTPUZZLE_CACHE (or cache_dir) to a directory with room"
        )


def slot_bits(cells: int) -> int:
    """Bits a slot of a group's sparse index takes on a board of ``cells`` cells: a cell's
    number (4 up to 16 cells, 5 up to 32, 6 up to 64), as the kernels lay the tables out."""
    return 4 if cells <= 16 else 5 if cells <= 32 else 6


def _mib(count: int) -> str:
    return f"{count / (1 << 20):.1f} MiB"


class BuildTimeLimitError(PatternDatabaseError, TimeLimitError):
    """Tables a search needs (a pattern database, walking-distance tables) were not ready by
    the deadline they were asked for: a build was stopped and nothing was written, or the read
    of a file already built was not over (it goes on, for the next search).

    A :class:`~fastpuzzle.errors.TimeLimitError` whose ``stats`` count no search, only the
    seconds spent building.
    """

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message, SearchStats(seconds=seconds))


@contextlib.contextmanager
def stopped_at_deadline(subject: str, remedy: str = "") -> Iterator[None]:
    """A compiled build's ``DeadlinePassed`` as a :class:`BuildTimeLimitError`: "``subject``
    not ready within the time limit (stopped after N s of building``remedy``)"."""
    started = time.monotonic()
    try:
        yield
    except DeadlinePassed:
        spent = time.monotonic() - started
        raise BuildTimeLimitError(
            f"{subject} not ready within the time limit (stopped after {spent:.1f} s of "
            f"building{remedy})",
            spent,
        ) from None


@dataclass(frozen=True)
class Database:
    """A loaded pattern database, in the form ``_idastar.idastar`` takes.

    Attributes
    ----------
    shape : tuple of int
        Rows and columns.
    goal_blank : int
        The goal's blank cell.
    name : str
        Partition name (``"6-6-3"``, ``"custom-..."``).
    cells : tuple of tuple of int
        Goal cells of each group.
    groups : list
        ``(tiles, sparse, nibble, table)`` per group; ``table`` a read-only uint8 array.
    reflect : tuple of int or None
        Cell mirrored about the main diagonal, when the reflected lookup is valid.
    path : Path or None
        The file it was read from (None when built in memory only). The tables are a copy in
        this process's memory, so changes to the file since do not reach them.
    zero_aware : bool
        Whether the tables keep an entry per region of free cells the blank is in (see
        :data:`fastpuzzle.pdb.partitions.ZERO_AWARE`); read past 16 cells only.
    """

    shape: tuple[int, int]
    goal_blank: int
    name: str
    cells: tuple[tuple[int, ...], ...]
    groups: list[tuple[tuple[int, ...], bool, bool, Any]]
    reflect: tuple[int, ...] | None
    path: Path | None
    zero_aware: bool = False

    def loaded(self) -> LoadedPatterns:
        """These tables laid out for the IDA* kernels: made on first use, then kept.

        Every search would otherwise check the tables and map each tile to its group again,
        a third of a one-move search's time.
        """
        kept: LoadedPatterns | None = self.__dict__.get("_loaded")
        if kept is None:
            kept = self.loaded_with()
            object.__setattr__(self, "_loaded", kept)
        return kept

    def loaded_with(self, *others: Database) -> LoadedPatterns:
        """These tables and those of ``others`` (other partitions of the same board and goal)
        laid out as one compound heuristic: the kernels take the largest of their sums.

        Made anew on each call (:meth:`loaded` keeps the form of these tables alone).

        Raises
        ------
        ValueError
            If another database is for another board, goal blank or kind of table.
        """
        for other in others:
            if (other.shape, other.goal_blank, other.zero_aware) != (
                self.shape, self.goal_blank, self.zero_aware,
            ):  # fmt: skip
                raise ValueError(
                    f"a compound's partitions share one board and goal: {other.name!r} is for "
                    f"{other.shape} with goal blank {other.goal_blank}, {self.name!r} for "
                    f"{self.shape} with goal blank {self.goal_blank}"
                )
        rows, cols = self.shape
        cells = rows * cols
        return LoadedPatterns(
            self.groups, self.reflect, cells, slot_bits(cells), self.goal_blank,
            extra=[other.groups for other in others] or None,
            extra_reflect=[other.reflect for other in others] or None,
            zero=self.shape if self.zero_aware else None,
        )  # fmt: skip

    def __getstate__(self) -> dict[str, Any]:
        # The laid-out forms point into this process's memory; a copy makes its own.
        return {key: value for key, value in self.__dict__.items() if not key.startswith("_")}

    @property
    def nbytes(self) -> int:
        """Bytes of all tables."""
        return sum(int(table.nbytes) for _, _, _, table in self.groups)
