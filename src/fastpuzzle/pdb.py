"""Pattern databases: partitions, building, the on-disk cache, loading by memory map.

An additive pattern database splits the tiles into disjoint groups; for each group a table holds,
for every placement of its tiles, the fewest moves *of those tiles* that bring them home (built
tracking the blank: moving the blank over other cells is free). The sum over groups is admissible,
and so is the same sum on the board reflected about the main diagonal when the goal's blank lies
on it; IDA* takes the larger.

Files live in a cache directory: the ``cache_dir`` argument, else ``$FASTPUZZLE_CACHE``, else
``$XDG_CACHE_HOME/fastpuzzle``, else ``~/.cache/fastpuzzle``. Each file is written to a temporary
name and renamed into place, so concurrent builders end with one good file. Its header records
the format version, shape, goal blank cell, partition and a checksum of the tables; every size
and offset is checked against the file's real length, and a file that fails any check is never
used (it is rebuilt, or reported missing). Tables are memory-mapped read-only, so threads and
processes share one copy.

4x4 partitions are named ``"5-5-5"``, ``"6-6-3"`` and ``"7-8"``; 7-8 is a one-time build of a
few minutes (``fastpuzzle pdb build 7-8`` or :func:`build_pdb`), never started by ``solve()``.
The 5x5 partition ``"6-6-6-6"`` (four groups of 127.5 M placements, about 8 minutes and 1.1 GiB
while building, 243 MiB on disk) is built the same way, once; boards of 17 to 25 cells use a
database only once it is on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from fastpuzzle import _pdb
from fastpuzzle.errors import FastPuzzleError
from fastpuzzle.heuristics import CATALOGUE
from fastpuzzle.problem import Problem

__all__ = [
    "FORMAT_VERSION",
    "PARTITIONS",
    "PARTITIONS_5X5",
    "Database",
    "PatternDatabaseError",
    "build_pdb",
    "clear_cache",
    "database_for",
    "default_partition",
    "exact_table",
    "load_pdb",
    "pdb_cache_dir",
    "pdb_info",
    "pdb_path",
    "walking_args",
    "walking_args_for_cells",
    "walking_tables",
]

#: Version of the file layout; files of another version are rebuilt.
FORMAT_VERSION = 1

_MAGIC = b"FPZLPDB\x00"
_ALIGN = 64

#: 4x4 partitions by name, as cells of the goal with the blank in the last cell. For another
#: goal blank cell, that cell's tile group takes cell 15 instead.
PARTITIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    "5-5-5": ((0, 4, 5, 8, 12), (1, 2, 3, 6, 7), (9, 10, 11, 13, 14)),
    "6-6-3": ((0, 4, 5, 8, 9, 12), (6, 7, 10, 11, 13, 14), (1, 2, 3)),
    "7-8": ((8, 9, 10, 11, 12, 13, 14), (0, 1, 2, 3, 4, 5, 6, 7)),
}

#: 5x5 partitions by name, as cells of the goal with the blank in the last cell (24). The four
#: blocks turn around the board like a pinwheel, so the partition mirrored about the main
#: diagonal is a different one: the search takes the larger of the two sums.
PARTITIONS_5X5: dict[str, tuple[tuple[int, ...], ...]] = {
    "6-6-6-6": (
        (0, 1, 2, 5, 6, 7),
        (3, 4, 8, 9, 13, 14),
        (10, 11, 15, 16, 20, 21),
        (12, 17, 18, 19, 22, 23),
    ),
}

#: Named partitions of each shape.
NAMED_PARTITIONS: dict[tuple[int, int], dict[str, tuple[tuple[int, ...], ...]]] = {
    (4, 4): PARTITIONS,
    (5, 5): PARTITIONS_5X5,
}

#: Heuristic names for one named partition (from the catalogue of :mod:`fastpuzzle.heuristics`).
NAMED = {h.name: h.partition for h in CATALOGUE if h.partition is not None}

#: Groups of at most this many tiles are indexed sparsely (16**k entries), larger ones compactly.
SPARSE_MAX = 6

#: Largest board a pattern database is built for (past 16 cells, compact tables only).
MAX_PDB_CELLS = 25


def _is_sparse(tiles: int, cells: int) -> bool:
    return tiles <= SPARSE_MAX and cells <= 16


def _shape_for(partition: str | Partition, shape: tuple[int, int] | None) -> tuple[int, int]:
    if shape is not None:
        return (int(shape[0]), int(shape[1]))
    if isinstance(partition, str) and partition != "auto":
        return shape_of_partition(partition)
    return (4, 4)


def shape_of_partition(name: str) -> tuple[int, int]:
    """The board shape a named partition belongs to (``"7-8"`` → 4x4, ``"6-6-6-6"`` → 5x5)."""
    for shape, named in NAMED_PARTITIONS.items():
        if name in named:
            return shape
    known = ", ".join(n for named in NAMED_PARTITIONS.values() for n in named)
    raise PatternDatabaseError(f"unknown partition {name!r}; named partitions are {known}")


Partition = Sequence[Sequence[int]]
Progress = Callable[[str], None]


class PatternDatabaseError(FastPuzzleError):
    """A pattern database is missing or cannot be built."""


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
        The file it was mapped from (None when held in memory only).
    """

    shape: tuple[int, int]
    goal_blank: int
    name: str
    cells: tuple[tuple[int, ...], ...]
    groups: list[tuple[tuple[int, ...], bool, bool, Any]]
    reflect: tuple[int, ...] | None
    path: Path | None

    @property
    def nbytes(self) -> int:
        """Bytes of all tables."""
        return sum(int(table.nbytes) for _, _, _, table in self.groups)


def pdb_cache_dir(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The cache directory: the argument, ``$FASTPUZZLE_CACHE``, or the user's cache dir."""
    if cache_dir is not None:
        return Path(cache_dir)
    configured = os.environ.get("FASTPUZZLE_CACHE")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "fastpuzzle"


def _tile_of(cell: int, goal_blank: int) -> int:
    return cell + 1 if cell < goal_blank else cell


def resolve_partition(
    partition: str | Partition, shape: tuple[int, int], goal_blank: int
) -> tuple[str, tuple[tuple[int, ...], ...]]:
    """``(name, goal cells per group)`` for a named or explicit partition, checked."""
    rows, cols = shape
    cells = rows * cols
    if cells > MAX_PDB_CELLS:
        raise PatternDatabaseError(
            f"pattern databases are built for boards of up to {MAX_PDB_CELLS} cells, "
            f"not {rows}x{cols}"
        )
    if partition == "auto":
        partition = default_partition(shape, goal_blank)
    if isinstance(partition, str):
        named = NAMED_PARTITIONS.get(shape, {})
        if partition not in named:
            listed = "; ".join(
                f"{', '.join(names)} for {r}x{c}" for (r, c), names in NAMED_PARTITIONS.items()
            )
            raise PatternDatabaseError(
                f"unknown partition {partition!r} for {rows}x{cols}; named partitions are "
                f"{listed}; or give groups of goal cells"
            )
        # Named partitions are written for the blank in the last cell; for another goal blank
        # cell, that cell's tile takes the last cell instead.
        groups = tuple(
            tuple(sorted(cells - 1 if c == goal_blank else c for c in group))
            for group in named[partition]
        )
        return partition, groups
    groups = tuple(tuple(int(c) for c in group) for group in partition)
    flat = [c for group in groups for c in group]
    if (
        not groups
        or any(not group for group in groups)
        or len(set(flat)) != len(flat)
        or any(not 0 <= c < cells or c == goal_blank for c in flat)
    ):
        raise PatternDatabaseError(
            f"expected disjoint non-empty groups of goal cells of a {rows}x{cols} board "
            f"(not the goal blank {goal_blank}), got {partition!r}"
        )
    digest = hashlib.sha1(repr(groups).encode()).hexdigest()[:12]
    return f"custom-{digest}", groups


def auto_partition(shape: tuple[int, int], goal_blank: int) -> tuple[tuple[int, ...], ...]:
    """Goal cells in reading order, cut into balanced groups of at most six tiles."""
    rows, cols = shape
    cells = [c for c in range(rows * cols) if c != goal_blank]
    count = -(-len(cells) // SPARSE_MAX)
    size, extra = divmod(len(cells), count)
    out, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        out.append(tuple(cells[start:end]))
        start = end
    return tuple(out)


def _reflection(shape: tuple[int, int], goal_blank: int) -> tuple[int, ...] | None:
    rows, cols = shape
    if rows != cols or goal_blank // cols != goal_blank % cols:
        return None
    return tuple((cell % cols) * cols + cell // cols for cell in range(rows * cols))


def pdb_path(
    partition: str | Partition = "6-6-3",
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Path:
    """Where the file of a partition lives in the cache directory (``shape`` as for
    :func:`build_pdb`)."""
    shape = _shape_for(partition, shape)
    blank = shape[0] * shape[1] - 1 if goal_blank is None else goal_blank
    return Path(_locate(partition, shape, blank, cache_dir)[0])


_Located = tuple[str, str, tuple[tuple[int, ...], ...]]


def _locate_now(
    partition: str | Partition,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None,
) -> _Located:
    # ``(file, partition name, goal cells per group)``; the name is checked before the directory.
    name, cells = resolve_partition(partition, shape, goal_blank)
    file = pdb_cache_dir(cache_dir) / (
        f"pdb-v{FORMAT_VERSION}-{shape[0]}x{shape[1]}-blank{goal_blank}-{name}.fpdb"
    )
    return str(file), name, cells


@lru_cache(maxsize=64, typed=True)
def _located(
    partition: str | Partition,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | PurePath | None,
    environment: tuple[str | None, ...] | None,
) -> _Located:
    # ``environment`` only keys the memo: it holds the values _locate_now is about to read.
    return _locate_now(partition, shape, goal_blank, cache_dir)


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _locate(
    partition: str | Partition,
    shape: tuple[int, int],
    goal_blank: int,
    cache_dir: str | os.PathLike[str] | None,
) -> _Located:
    """:func:`_locate_now`, memoised where its answer depends on nothing else.

    Every solve looks its database up, and resolving the partition and building the path with
    pathlib cost several times the search of an easy board. The environment is read on every
    call, so a changed ``$FASTPUZZLE_CACHE`` (tests point it at temporary directories) takes
    effect at once. Lists of groups cannot key a memo, another path-like may change what it
    names, and without ``$HOME`` the home directory comes from the password database: those
    are worked out each time.
    """
    if (
        (isinstance(partition, str) or _hashable(partition))
        and isinstance(goal_blank, int)
        and (cache_dir is None or isinstance(cache_dir, (str, PurePath)))
    ):
        if cache_dir is not None:
            return _located(partition, shape, goal_blank, cache_dir, None)
        # Only the variables pdb_cache_dir reads, in its order: each absent one costs a KeyError.
        environ = os.environ
        configured = environ.get("FASTPUZZLE_CACHE")
        if configured:
            return _located(partition, shape, goal_blank, None, (configured,))
        xdg = environ.get("XDG_CACHE_HOME")
        if xdg:
            return _located(partition, shape, goal_blank, None, (configured, xdg))
        home = environ.get("HOME")
        if home is not None:
            return _located(partition, shape, goal_blank, None, (configured, xdg, home))
    return _locate_now(partition, shape, goal_blank, cache_dir)


# ---------------------------------------------------------------------------------------------
# Building and writing.


_last_line = [0.0]
_BAR_WIDTH = 30


def _stderr_progress(message: str) -> None:
    # On a terminal each level overwrites the line; in a log, a level line at most every 15 s.
    final = message.endswith("\n")
    if sys.stderr.isatty():
        print(message.rstrip("\n"), end="\n" if final else "\r", file=sys.stderr, flush=True)
        return
    now = time.monotonic()
    if final or now - _last_line[0] >= 15.0:
        _last_line[0] = now
        print(message.rstrip("\n"), file=sys.stderr, flush=True)


def _build_tables(
    shape: tuple[int, int],
    goal_blank: int,
    cells: tuple[tuple[int, ...], ...],
    label: str,
    progress: Progress | None,
) -> list[tuple[tuple[int, ...], bool, bool, np.ndarray]]:
    rows, cols = shape
    out = []
    for number, group in enumerate(cells, 1):
        tiles = tuple(_tile_of(c, goal_blank) for c in group)
        sparse = _is_sparse(len(tiles), rows * cols)
        started = time.perf_counter()

        def relay(
            level: int, reached: int, total: int, number: int = number, started: float = started
        ) -> None:
            if progress is not None:
                share = min(1.0, reached / max(total, 1))
                filled = round(share * _BAR_WIDTH)
                bar = "#" * filled + "." * (_BAR_WIDTH - filled)
                progress(
                    f"fastpuzzle: pattern database {label} group {number}/{len(cells)} "
                    f"[{bar}] {100 * share:5.1f}% level {level}, "
                    f"{time.perf_counter() - started:.0f} s"
                )

        levels = _pdb.build_levels(rows, cols, goal_blank, list(tiles), sparse, relay)
        table, nibble = _pdb.pack_table(levels, rows, cols, goal_blank, list(tiles), sparse)
        del levels
        if progress is not None:
            progress(
                f"fastpuzzle: pattern database {label} group {number}/{len(cells)} "
                f"({len(tiles)} tiles) built in {time.perf_counter() - started:.1f} s\n"
            )
        out.append((tiles, sparse, nibble, table))
    return out


def _header(
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    groups: list[dict[str, Any]],
    payload_offset: int,
    file_length: int,
    checksum: str,
) -> dict[str, Any]:
    return {
        "format": "fastpuzzle-pdb",
        "version": FORMAT_VERSION,
        "rows": shape[0],
        "cols": shape[1],
        "goal_blank": goal_blank,
        "partition": name,
        "cells": [list(group) for group in cells],
        "groups": groups,
        "payload_offset": payload_offset,
        "file_length": file_length,
        "checksum": checksum,
    }


def _align(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def _write(
    path: Path,
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    tables: list[tuple[tuple[int, ...], bool, bool, np.ndarray]],
) -> None:
    # Lay out the tables, then fix the header's length by iterating once: offsets depend on it.
    digest = hashlib.blake2b(digest_size=16)
    for _, _, _, table in tables:
        digest.update(table.data)
    checksum = digest.hexdigest()
    payload_offset = 0
    while True:
        offset = payload_offset
        groups = []
        for tiles, sparse, nibble, table in tables:
            groups.append(
                {
                    "tiles": list(tiles),
                    "sparse": sparse,
                    "nibble": nibble,
                    "offset": offset,
                    "length": int(table.nbytes),
                }
            )
            offset += int(table.nbytes)
        header = _header(shape, goal_blank, name, cells, groups, payload_offset, offset, checksum)
        encoded = json.dumps(header, sort_keys=True).encode()
        needed = _align(len(_MAGIC) + 4 + len(encoded))
        if needed == payload_offset:
            break
        payload_offset = needed
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC)
            out.write(len(encoded).to_bytes(4, "little"))
            out.write(encoded)
            out.write(b"\0" * (payload_offset - len(_MAGIC) - 4 - len(encoded)))
            for _, _, _, table in tables:
                out.write(table.data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes it private; the tables are not secret
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------------------------------------
# Reading and checking.


class _Invalid(Exception):
    """A file failed a check (the message says which)."""


def _check(condition: bool, why: str) -> None:
    if not condition:
        raise _Invalid(why)


def _read_valid(
    path: Path,
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
) -> Database:
    """Map ``path`` if every check passes, else raise _Invalid."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            start = f.read(len(_MAGIC) + 4)
            _check(len(start) == len(_MAGIC) + 4 and start[: len(_MAGIC)] == _MAGIC, "bad magic")
            length = int.from_bytes(start[len(_MAGIC) :], "little")
            _check(len(_MAGIC) + 4 + length <= size, "header runs past the end")
            header = json.loads(f.read(length).decode())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise _Invalid(f"unreadable header: {error}") from None
    _check(isinstance(header, dict), "header is not an object")
    expected = {
        "format": "fastpuzzle-pdb",
        "version": FORMAT_VERSION,
        "rows": shape[0],
        "cols": shape[1],
        "goal_blank": goal_blank,
        "partition": name,
        "cells": [list(group) for group in cells],
    }
    for key, value in expected.items():
        _check(header.get(key) == value, f"{key} is {header.get(key)!r}, expected {value!r}")
    payload_offset = header.get("payload_offset")
    _check(
        type(payload_offset) is int and len(_MAGIC) + 4 + length <= payload_offset <= size,
        "payload offset out of range",
    )
    _check(header.get("file_length") == size, "file length differs from the header's")
    groups = header.get("groups")
    _check(isinstance(groups, list) and len(groups) == len(cells), "wrong number of groups")
    n = shape[0] * shape[1]
    layout = []
    offset = payload_offset
    for group, goal_cells in zip(groups, cells):
        _check(isinstance(group, dict), "group entry is not an object")
        tiles = tuple(_tile_of(c, goal_blank) for c in goal_cells)
        sparse = _is_sparse(len(tiles), n)
        _check(group.get("tiles") == list(tiles), "group tiles differ")
        _check(group.get("sparse") is sparse, "group indexing differs")
        nibble = group.get("nibble")
        _check(isinstance(nibble, bool), "group entry size missing")
        want = _pdb.table_length(n, len(tiles), sparse, nibble)
        _check(group.get("offset") == offset, "group offset differs")
        _check(group.get("length") == want, "group length differs from its shape")
        _check(offset + want <= size, "group runs past the end")
        layout.append((tiles, sparse, nibble, offset, want))
        offset += want
    _check(offset == size, "file length differs from its tables")
    mapped = np.memmap(path, dtype=np.uint8, mode="r")
    _check(mapped.shape[0] == size, "file changed while reading")
    digest = hashlib.blake2b(digest_size=16)
    step = 1 << 26
    for begin in range(payload_offset, size, step):
        digest.update(mapped[begin : min(size, begin + step)].data)
    _check(digest.hexdigest() == header.get("checksum"), "checksum mismatch")
    tables = [
        (tiles, sparse, nibble, mapped[offset : offset + want])
        for tiles, sparse, nibble, offset, want in layout
    ]
    return Database(shape, goal_blank, name, cells, tables, _reflection(shape, goal_blank), path)


_LOCK = threading.Lock()
_BUILD_LOCK = threading.Lock()
# Mapped databases by file, with the identity (inode, size, mtime) of the file they were mapped
# from: a file replaced, rewritten or deleted since is checked again (an old mapping of a file
# replaced by rename stays valid for searches still using it).
_LOADED: dict[str, tuple[Database, tuple[int, int, int]]] = {}


def load_pdb(
    partition: str | Partition = "6-6-3",
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Database | None:
    """The database from the cache if its file is present and passes every check, else None."""
    shape = _shape_for(partition, shape)
    blank = shape[0] * shape[1] - 1 if goal_blank is None else goal_blank
    file, name, cells = _locate(partition, shape, blank, cache_dir)
    with _LOCK:
        try:
            stat = os.stat(file)
        except OSError:
            _LOADED.pop(file, None)
            return None
        identity = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        loaded = _LOADED.get(file)
        if loaded is not None and loaded[1] == identity:
            return loaded[0]
        _LOADED.pop(file, None)
        try:
            database = _read_valid(Path(file), shape, blank, name, cells)
        except _Invalid:
            return None
        _LOADED[file] = (database, identity)
        return database


def build_pdb(
    partition: str | Partition = "6-6-3",
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    progress: bool | Progress = True,
    force: bool = False,
) -> Path:
    """Build a pattern database into the cache (unless a good file is already there).

    Parameters
    ----------
    partition : str or sequence of sequences of int
        ``"5-5-5"``, ``"6-6-3"`` or ``"7-8"`` (4x4), ``"6-6-6-6"`` (5x5), ``"auto"`` (the
        partition ``heuristic="pdb"`` uses on the shape, see :func:`default_partition`), or
        groups of goal cells.
    shape : (rows, cols)
        Board shape, at most 25 cells; default: the named partition's shape, else 4x4.
    goal_blank : int, optional
        The goal's blank cell (default: the last cell).
    cache_dir : path, optional
        Overrides ``$FASTPUZZLE_CACHE`` and the user's cache directory.
    progress : bool or callable
        True: messages on stderr; a callable receives each message; False: silent.
    force : bool
        Rebuild even when a good file exists.

    Returns
    -------
    Path
        The file.
    """
    shape = _shape_for(partition, shape)
    blank = shape[0] * shape[1] - 1 if goal_blank is None else goal_blank
    name, cells = resolve_partition(partition, shape, blank)
    path = pdb_path(partition, shape, blank, cache_dir)
    if not force and load_pdb(partition, shape, blank, cache_dir) is not None:
        return path
    report: Progress | None
    if progress is True:
        report = _stderr_progress
    elif callable(progress):
        report = progress
    else:
        report = None
    label = f"{name} for {shape[0]}x{shape[1]} (goal blank {blank})"
    if report is not None:
        report(f"fastpuzzle: building pattern database {label} into {path.parent}\n")
    started = time.perf_counter()
    tables = _build_tables(shape, blank, cells, name, report)
    _write(path, shape, blank, name, cells, tables)
    if report is not None:
        report(
            f"fastpuzzle: pattern database {label} ready in {time.perf_counter() - started:.1f} s\n"
        )
    return path


def _load_or_build(
    partition: str | Partition,
    shape: tuple[int, int],
    goal_blank: int,
    *,
    build: bool,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Database | None:
    database = load_pdb(partition, shape, goal_blank, cache_dir)
    if database is not None or not build:
        return database
    with _BUILD_LOCK:
        # Threads of one process (solve_many) wait for one build instead of each starting one.
        database = load_pdb(partition, shape, goal_blank, cache_dir)
        if database is not None:
            return database
        build_pdb(partition, shape, goal_blank, cache_dir, force=True)
    database = load_pdb(partition, shape, goal_blank, cache_dir)
    if database is None:
        raise PatternDatabaseError(
            f"pattern database {partition!r} failed its checks after a build"
        )
    return database


# ---------------------------------------------------------------------------------------------
# What the searches ask for.


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
    problem: Problem, heuristic: str, cache_dir: str | os.PathLike[str] | None = None
) -> Database:
    """The tables ``heuristic`` (``"pdb"``, ``"pdb555"``, ``"pdb663"``, ``"pdb78"``, ``"table"``)
    uses for ``problem``, loading or building them as the module docstring describes."""
    shape = (problem.rows, problem.cols)
    blank = problem.goal_blank
    if heuristic == "table":
        return exact_table(problem.rows, problem.cols, blank)
    if heuristic in NAMED:
        partition = NAMED[heuristic]
        wanted = shape_of_partition(partition)
        if shape != wanted:
            raise PatternDatabaseError(
                f"{heuristic} is for {wanted[0]}x{wanted[1]} boards, not {shape[0]}x{shape[1]}"
            )
        database = _load_or_build(
            partition, shape, blank, build=partition in _QUICK, cache_dir=cache_dir
        )
        if database is None:
            raise PatternDatabaseError(_missing(partition, shape))
        return database
    if heuristic != "pdb":
        raise PatternDatabaseError(f"unknown pattern database heuristic {heuristic!r}")
    if shape == (4, 4):
        best = load_pdb("7-8", shape, blank, cache_dir)
        if best is None:
            best = _load_or_build("6-6-3", shape, blank, build=True, cache_dir=cache_dir)
        assert best is not None
        return best
    default = default_partition(shape, blank)
    found = _load_or_build(
        default, shape, blank, build=problem.rows * problem.cols <= 16, cache_dir=cache_dir
    )
    if found is None:
        raise PatternDatabaseError(_missing(default, shape))
    return found


#: Named partitions quick enough to build on first use (seconds).
_QUICK = ("5-5-5", "6-6-3")


def default_partition(shape: tuple[int, int], goal_blank: int) -> str | Partition:
    """The partition ``heuristic="pdb"`` uses on a shape other than 4x4: ``"6-6-6-6"`` on 5x5,
    else the goal cells in reading order cut into groups of at most six tiles."""
    if shape == (5, 5):
        return "6-6-6-6"
    return auto_partition(shape, goal_blank)


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


def pdb_info(cache_dir: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """One entry per cache file: path, bytes, partition, and whether it passes every check."""
    directory = pdb_cache_dir(cache_dir)
    out = []
    for path in sorted(directory.glob("pdb-*.fpdb")) if directory.is_dir() else []:
        entry: dict[str, Any] = {"path": str(path), "bytes": path.stat().st_size, "valid": False}
        try:
            with path.open("rb") as f:
                start = f.read(len(_MAGIC) + 4)
                length = int.from_bytes(start[len(_MAGIC) :], "little")
                header = json.loads(f.read(min(length, 1 << 20)).decode())
            shape = (int(header["rows"]), int(header["cols"]))
            blank = int(header["goal_blank"])
            named = header["partition"]
            spec = named if named in NAMED_PARTITIONS.get(shape, {}) else header["cells"]
            name, cells = resolve_partition(spec, shape, blank)
            entry.update(partition=name, shape=shape, goal_blank=blank)
            _read_valid(path, shape, blank, name, cells)
            entry["valid"] = True
        except (_Invalid, OSError, ValueError, KeyError, TypeError, FastPuzzleError) as error:
            entry["problem"] = str(error)
        out.append(entry)
    return out


def clear_cache(cache_dir: str | os.PathLike[str] | None = None) -> int:
    """Delete every pattern-database file (and leftover temporary file); returns how many."""
    directory = pdb_cache_dir(cache_dir)
    count = 0
    if directory.is_dir():
        for path in list(directory.glob("pdb-*.fpdb")) + list(directory.glob(".pdb-*.tmp")):
            path.unlink(missing_ok=True)
            count += 1
    with _LOCK:
        _LOADED.clear()
    return count


# ---------------------------------------------------------------------------------------------
# Walking distance.


#: Walking-distance abstractions with more states than this are not built (2x8's columns have
#: hundreds of millions); that side then counts its Manhattan component.
WALKING_MAX_STATES = 500_000


@lru_cache(maxsize=32)
def _walking(
    lines: int, width: int, goal_line: int
) -> tuple[dict[tuple[int, ...], int], Any, Any] | None:
    # None (cached too, so the attempt is made once) when the abstraction is too big.
    try:
        states, nxt, dist = _pdb.walking_table(lines, width, goal_line, WALKING_MAX_STATES)
    except ValueError:
        return None
    nxt.setflags(write=False)
    dist.setflags(write=False)
    return states, nxt, dist


def walking_tables(problem: Problem) -> tuple[Any, ...]:
    """The ``walking`` argument of ``_idastar.idastar`` for ``problem``."""
    return walking_args(
        problem.rows, problem.cols, problem.goal_blank, problem.packed, problem.blank
    )


def walking_args(rows: int, cols: int, goal_blank: int, packed: int, blank: int) -> tuple[Any, ...]:
    """:func:`walking_tables` for a canonical packed board.

    A side whose abstraction has too many states (the columns of 2x8) gets no tables; the search
    then counts that side's Manhattan component instead, which is admissible too.
    """
    tiles = [(packed >> (4 * cell)) & 15 for cell in range(rows * cols)]
    return walking_args_for_cells(rows, cols, goal_blank, tiles, blank)


def walking_args_for_cells(
    rows: int, cols: int, goal_blank: int, tiles: Sequence[int], blank: int
) -> tuple[Any, ...]:
    """:func:`walking_args` for a canonical board given as one tile per cell (any size)."""
    blank_row, blank_col = divmod(goal_blank, cols)
    v = [0] * (rows * rows) + [blank // cols]
    h = [0] * (cols * cols) + [blank % cols]
    v_md = h_md = 0
    for cell in range(rows * cols):
        tile = int(tiles[cell])
        if tile == 0:
            continue
        home = tile - 1 if tile - 1 < goal_blank else tile
        row, col = divmod(cell, cols)
        v[row * rows + home // cols] += 1
        h[col * cols + home % cols] += 1
        v_md += abs(row - home // cols)
        h_md += abs(col - home % cols)
    out: list[Any] = []
    for lines, width, goal_line, state, md in (
        (rows, cols, blank_row, v, v_md),
        (cols, rows, blank_col, h, h_md),
    ):
        tables = _walking(lines, width, goal_line)
        if tables is None:
            out += [None, None, lines, md]
        else:
            states, nxt, dist = tables
            out += [nxt, dist, lines, states[tuple(state)]]
    return tuple(out)
