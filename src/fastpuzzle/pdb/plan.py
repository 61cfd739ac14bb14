"""Table sets and their build plans: which files a name stands for, what they take, building
them as one job.

A *table set* is what one name builds: a named partition's file (past 16 cells with the tables
of its dual lookups, :mod:`~fastpuzzle.pdb.dual`), a compound's files
(:mod:`~fastpuzzle.pdb.compound`: its base partition's, then one per other group), or the
default partition of a shape (``"auto"``). Its :class:`Plan` says, before anything is built,
how many files it has, which are built, and what the others take: disk (the files' computed
sizes), memory (what the builder allocates for the largest group, computed the same way) and
time (estimated from builds measured on two cores, see :data:`MEASURED_RATES`, scaled to the
cores of this machine). :func:`build_plan` checks the free space for the whole set once, then
builds its files one after another, each file's progress saying ``file k of N``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fastpuzzle._core import _pdb
from fastpuzzle._util.units import size
from fastpuzzle.pdb.database import NotEnoughSpaceError
from fastpuzzle.pdb.fileformat import table_bytes
from fastpuzzle.pdb.partitions import (
    COMPOUNDS,
    Partition,
    ResolvedPartition,
    compound_sources,
    resolve,
    shape_and_blank,
    walled_off,
)
from fastpuzzle.pdb.store import (
    build_file,
    file_bytes,
    load,
    locate,
    remove_stale_temporaries,
)

__all__ = ["MEASURED_RATES", "FilePlan", "Plan", "build_plan", "plan_tables"]

#: Placements a second that builds reached on two cores, by kind of table, with the build each
#: comes from (docs/performance.rst and docs/heuristics.rst): a plan's time is its placements at
#: these rates, scaled from two cores to the cores of this machine (the builder shares each
#: level's blocks out to every core).
MEASURED_RATES: dict[str, tuple[float, str]] = {
    # 7-8: 518,918,400 + 57,657,600 placements in 79.1 s.
    "up to 16 cells": (576_576_000 / 79.1, "7-8 (4x4) in 79.1 s"),
    # One six-tile group of the 5x5 compound, alone on a quiet machine: 127,512,000 in 31.6 s.
    "past 16 cells": (127_512_000 / 31.6, "a six-tile 5x5 table in 31.6 s"),
    # 6-6-6-6z: four groups of 127,512,000 placements in 2 min 53 s.
    "zero-aware": (4 * 127_512_000 / 173.0, "6-6-6-6z (5x5) in 173 s"),
    # 5-5-5-5-5-5-5: seven groups of 45,239,040 placements in 128.1 s (words of 64 bits; on a
    # machine shared with other work, at a load of 5).
    "past 32 cells": (7 * 45_239_040 / 128.1, "5-5-5-5-5-5-5 (6x6) in 128.1 s"),
}


def _kind(cells: int, zero: bool) -> str:
    if zero:
        return "zero-aware"
    if cells > 32:
        return "past 32 cells"
    return "up to 16 cells" if cells <= 16 else "past 16 cells"


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class FilePlan:
    """One file of a table set.

    Attributes
    ----------
    partition : ResolvedPartition
        Its partition, resolved for its shape and goal blank.
    goal_blank : int
        The goal blank cell its tables are built for (a dual lookup's table: the walled-off
        region's cell).
    name : str
        Its partition's name, as :func:`~fastpuzzle.pdb.pdb_info` lists it.
    path : Path
        Where it lives in the cache.
    groups : tuple of tuple of int
        Its groups of goal cells.
    bytes : int
        Its size on disk (computed: its tables at two entries a byte and its header).
    build_bytes : int
        Memory its build takes at the peak (computed from what the builder allocates).
    placements : int
        Placements its build visits (the work a time is estimated from).
    seconds_on_two : float
        Its build's time on two cores at :data:`MEASURED_RATES`.
    built : bool
        Whether a file that passes its checks is there.
    role : str
        What it is to the set: ``"tables"``, ``"dual lookups"`` or ``"one group"``.
    """

    partition: ResolvedPartition
    goal_blank: int
    name: str
    path: Path
    groups: tuple[tuple[int, ...], ...]
    bytes: int
    build_bytes: int
    placements: int
    seconds_on_two: float
    built: bool
    role: str


@dataclass(frozen=True)
class Plan:
    """What building a table set takes (:func:`plan_tables`).

    Attributes
    ----------
    name : str
        The set's name as given (``"pdb24"``, ``"6-6-6-6x7"``, ``"7-8"``).
    what : str
        What it is, in words (``"compound 6-6-6-6x7 for 5x5 boards (goal blank 24)"``).
    shape : tuple of int
    goal_blank : int
    files : tuple of FilePlan
        Its files, in the order they are built.
    force : bool
        Whether the files built are to be built again.
    """

    name: str
    what: str
    shape: tuple[int, int]
    goal_blank: int
    files: tuple[FilePlan, ...]
    force: bool = False

    @property
    def to_build(self) -> tuple[FilePlan, ...]:
        """The files a build makes: those not built (every one with ``force``)."""
        return tuple(f for f in self.files if self.force or not f.built)

    @property
    def disk_bytes(self) -> int:
        """Disk the set takes in all."""
        return sum(f.bytes for f in self.files)

    @property
    def build_disk_bytes(self) -> int:
        """Free disk the build needs: the files it makes (a file rebuilt replaces itself only
        once the new one is whole, so it counts too)."""
        return sum(f.bytes for f in self.to_build)

    @property
    def build_memory_bytes(self) -> int:
        """Memory at the build's peak: its largest file's."""
        return max((f.build_bytes for f in self.to_build), default=0)

    def seconds(self, cores: int | None = None) -> float:
        """Estimated seconds to build on ``cores`` cores (default: this machine's)."""
        cores = usable_cores() if cores is None else cores
        return sum(f.seconds_on_two for f in self.to_build) * 2 / max(1, cores)

    def cost(self, cores: int | None = None) -> str:
        """What building every file of the set takes, as messages quote it: the figures of
        ``fastpuzzle pdb build NAME --dry-run`` (``"about 2.6 minutes on this machine's 2
        cores, 304 MiB on disk"``), so that a hint and the plan never disagree."""
        cores = usable_cores() if cores is None else cores
        seconds = sum(f.seconds_on_two for f in self.files) * 2 / max(1, cores)
        return (
            f"{_minutes(seconds)} on this machine's {cores} core{'s' * (cores != 1)}, "
            f"{size(self.disk_bytes)} on disk"
        )

    def lines(self, directory: Path | None = None, *, building: bool = True) -> list[str]:
        """The plan in words: one line for the set, one per file, one for what a build takes
        (with the free space of ``directory``, when given); ``building=False`` for a listing
        (``pdb info``), which has nothing to do either way."""
        count = len(self.files)
        out = [
            f"{self.name}: {self.what}: {count} file{'s' * (count != 1)}, "
            f"{size(self.disk_bytes)} on disk"
        ]
        for number, file in enumerate(self.files, 1):
            state = "built" if file.built else "not built"
            if file.built and self.force:
                state = "built, to be rebuilt (--force)"
            out.append(
                f"  file {number} of {count}: {file.name} ({_described(file)}), "
                f"{size(file.bytes)}, {state}"
            )
        missing = self.to_build
        if not missing:
            out.append("every file is built" + (": nothing to do" if building else ""))
            return out
        cores = usable_cores()
        free = ""
        if directory is not None:
            available = _free_bytes(directory)
            if available is not None:
                free = f" (free in {directory}: {size(available)})"
        out.append(
            f"to build: {len(missing)} file{'s' * (len(missing) != 1)}, "
            f"{size(self.build_disk_bytes)} of disk{free}, about "
            f"{size(self.build_memory_bytes)} of memory at the peak, "
            f"{_minutes(self.seconds(cores))} on this machine's {cores} "
            f"core{'s' * (cores != 1)} (estimated from builds measured on two cores)"
        )
        return out


def _described(file: FilePlan) -> str:
    groups = len(file.groups)
    if file.role == "dual lookups":
        return f"dual lookups' table, goal blank {file.goal_blank}"
    if groups == 1:
        return f"one group: goal cells {' '.join(map(str, file.groups[0]))}"
    return f"{groups} groups"


def _minutes(seconds: float) -> str:
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"about {seconds:.0f} s"
    minutes = seconds / 60
    return f"about {minutes:.0f} minutes" if minutes >= 10 else f"about {minutes:.1f} minutes"


def _free_bytes(directory: Path) -> int | None:
    """Free bytes of the file system ``directory`` (or its nearest existing parent) is on."""
    for place in (directory, *directory.parents):
        if place.exists():
            try:
                return shutil.disk_usage(place).free
            except OSError:
                return None
    return None


def _file_plan(
    partition: str | Partition | ResolvedPartition,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None,
    role: str,
) -> FilePlan:
    resolved = resolve(partition, shape, goal_blank)
    name, groups = resolved.name, resolved.groups
    cells = shape[0] * shape[1]
    zero = resolved.zero_aware
    sizes = [len(group) for group in groups]
    placements = [int(_pdb.level_length(cells, k, False)) for k in sizes]
    tables = [table_bytes(shape, name, k, True) for k in sizes]
    peak = 0
    for index, (k, count) in enumerate(zip(sizes, placements)):
        # What build_levels allocates for a group: a byte a placement for its levels and a
        # word of 16 to 128 bits a placement for its frontier (by the cells left free),
        # zero-aware levels too; the tables of the groups before it are held until the write.
        free = cells - k
        word = 2 if free <= 8 else 4 if free <= 16 else 8 if free <= 32 else 16
        zero_levels = int(_pdb.zero_table_length(*shape, k, False)) if zero else 0
        peak = max(peak, count * (1 + word) + zero_levels + sum(tables[:index]))
    rate = MEASURED_RATES[_kind(cells, zero)][0]
    return FilePlan(
        partition=resolved,
        goal_blank=goal_blank,
        name=name,
        path=Path(locate(resolved, cache_dir)),
        groups=groups,
        bytes=file_bytes(shape, name, groups),
        build_bytes=peak,
        placements=sum(placements),
        seconds_on_two=sum(placements) / rate,
        built=load(resolved, cache_dir) is not None,
        role=role,
    )


def plan_tables(
    partition: str | Partition,
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    name: str | None = None,
    force: bool = False,
) -> Plan:
    """The plan of the table set ``partition`` names: a named partition (past 16 cells with
    its dual lookups' tables), ``"auto"``, groups of goal cells, or a compound.

    Parameters
    ----------
    partition : str or groups of goal cells
        As :func:`~fastpuzzle.pdb.build_pdb` or :func:`~fastpuzzle.pdb.build_compound` take it.
    shape, goal_blank, cache_dir
        As for :func:`~fastpuzzle.pdb.build_pdb`.
    name : str, optional
        The name the set was asked for by (a heuristic's), shown first; default: the
        partition's.
    force : bool
        The files built are built again too.

    Raises
    ------
    PatternDatabaseError
        If the partition, shape or goal blank is not valid.
    """
    checked, blank = shape_and_blank(partition, shape, goal_blank)
    board = f"{checked[0]}x{checked[1]} boards (goal blank {blank})"
    files: list[FilePlan] = []
    if isinstance(partition, str) and partition in COMPOUNDS.get(checked, {}):
        what = f"compound {partition} for {board}"
        for number, source in enumerate(compound_sources(partition, checked, blank)):
            role = "tables" if number == 0 and isinstance(source, str) else "one group"
            files.append(_file_plan(source, checked, blank, cache_dir, role))
    else:
        resolved = resolve(partition, checked, blank)
        label, groups = resolved.name, resolved.groups
        what = f"partition {label} for {board}"
        if isinstance(partition, str) and partition == "auto":
            what = f"the default partition ({label}) for {board}"
        files.append(_file_plan(resolved, checked, blank, cache_dir, "tables"))
        if checked[0] * checked[1] > 16 and not resolved.zero_aware:
            # Past 16 cells long searches read the tables on the dual board too, with the table
            # of each group that walls the goal blank in (fastpuzzle.pdb.dual).
            for cells, region in zip(groups, walled_off(checked, blank, groups)):
                if region is not None:
                    files.append(_file_plan((cells,), checked, region, cache_dir, "dual lookups"))
    shown = name if name is not None else partition if isinstance(partition, str) else what
    return Plan(str(shown), what, checked, blank, tuple(files), force)


def build_plan(
    plan: Plan,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    progress: bool | Callable[[str], None] = True,
) -> list[Path]:
    """Build the files of ``plan`` that it lists to build, after one check that the cache's
    file system has room for all of them; returns every file of the set.

    Raises
    ------
    NotEnoughSpaceError
        Before any build, if the free space is less than the files to build take.
    PatternDatabaseError, BuildTimeLimitError
        As :func:`~fastpuzzle.pdb.build_pdb` raises them.
    """
    missing = plan.to_build
    if missing:
        directory = missing[0].path.parent
        remove_stale_temporaries(directory)
        free = _free_bytes(directory)
        if free is not None and free < plan.build_disk_bytes:
            raise NotEnoughSpaceError(directory, plan.build_disk_bytes, free)
    count = len(plan.files)
    for number, file in enumerate(plan.files, 1):
        if file in missing:
            build_file(
                file.partition,
                cache_dir,
                progress=progress,
                force=plan.force,
                part=f"file {number} of {count} of {plan.name}" if count > 1 else "",
            )
    return [file.path for file in plan.files]
