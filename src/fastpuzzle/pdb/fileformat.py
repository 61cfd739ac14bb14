"""The file format of a pattern database: writing one, and reading one only if every check passes.

A file is the magic bytes, the header's length (4 bytes, little-endian), the header as JSON, zero
padding to a 64-byte boundary, then the tables back to back. The header records the format
version, shape, goal blank cell, partition, each table's offset and length, the file's length and
a checksum of the tables: XXH64 (:mod:`fastpuzzle._core._checksum`) from version 2 on, BLAKE2b
in version 1's files, which are still read.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from fastpuzzle._core import _pdb
from fastpuzzle._core._checksum import Xxh64
from fastpuzzle._util.files import NotRegularFileError, atomic_writer, open_regular
from fastpuzzle.pdb.database import Database
from fastpuzzle.pdb.partitions import is_sparse, is_zero_aware, reflection, tile_of

__all__ = ["FORMAT_VERSION", "NAME_VERSION", "READ_VERSIONS"]

#: Version of the files written. Version 2 takes the tables' checksum with XXH64 rather than
#: version 1's BLAKE2b: 5x5's 255 MB hash in 0.02 s of CPU instead of 0.28 s, paid again by
#: every process that reads the tables (a fresh process a board searches on them sooner).
FORMAT_VERSION = 2

#: The versions read; files of any other are rebuilt. Version 1's files are read as they are
#: (their layout is version 2's): a user's 6-6-6-6, minutes to build, is not built again.
READ_VERSIONS = (1, 2)

#: The version in the files' names (``pdb-v1-...``): the same for every version read, so that a
#: file written before version 2 is found where a build of version 2 would write it.
NAME_VERSION = 1

#: The first bytes of every file, and the alignment of its tables (for memory-mapping).
MAGIC = b"FPZLPDB\x00"
ALIGN = 64


def _which_database(
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    version: int = FORMAT_VERSION,
) -> dict[str, Any]:
    # The header fields that say which database a file holds: written, then checked on reading.
    fields = {
        "format": "fastpuzzle-pdb",
        "version": version,
        "rows": shape[0],
        "cols": shape[1],
        "goal_blank": goal_blank,
        "partition": name,
        "cells": [list(group) for group in cells],
    }
    if is_zero_aware(name):
        # Only there: the files of every other partition read as they were written.
        fields["zero_aware"] = True
    return fields


def table_bytes(shape: tuple[int, int], name: str, tiles: int, nibble: bool) -> int:
    """Bytes of one table of a ``tiles``-tile group of partition ``name`` on ``shape``."""
    rows, cols = shape
    if is_zero_aware(name):
        return int(_pdb.zero_table_length(rows, cols, tiles, nibble))
    cells = rows * cols
    return int(_pdb.table_length(cells, tiles, is_sparse(tiles, cells), nibble))


def _header(
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    groups: list[dict[str, Any]],
    payload_offset: int,
    file_length: int,
    checksum: str,
    version: int,
) -> dict[str, Any]:
    return {
        **_which_database(shape, goal_blank, name, cells, version),
        "groups": groups,
        "payload_offset": payload_offset,
        "file_length": file_length,
        "checksum": checksum,
    }


def _align(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def _digest(version: int) -> Any:
    """A running checksum of the tables of a file of ``version`` (``update``, ``hexdigest``)."""
    return hashlib.blake2b(digest_size=16) if version == 1 else Xxh64()


def write_file(
    path: Path,
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    tables: list[tuple[tuple[int, ...], bool, bool, np.ndarray]],
    *,
    version: int = FORMAT_VERSION,
) -> None:
    """Write a database to ``path`` atomically: its header (what it holds, its checksum, each
    table's offset), then its tables aligned to :data:`ALIGN` bytes; ``version``: a file of
    that format (one of :data:`READ_VERSIONS`; the tests write version 1's)."""
    # Lay out the tables, then fix the header's length by iterating once: offsets depend on it.
    digest = _digest(version)
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
        header = _header(
            shape, goal_blank, name, cells, groups, payload_offset, offset, checksum, version
        )
        encoded = json.dumps(header, sort_keys=True).encode()
        needed = _align(len(MAGIC) + 4 + len(encoded))
        if needed == payload_offset:
            break
        payload_offset = needed
    path.parent.mkdir(parents=True, exist_ok=True)
    # The ".tmp" ending lets the cache find temporary files that a killed build left behind, and
    # the lock, held until the rename, tells them from those of a build still writing.
    with atomic_writer(path, suffix=".tmp", lock=True) as out:
        out.write(MAGIC)
        out.write(len(encoded).to_bytes(4, "little"))
        out.write(encoded)
        out.write(b"\0" * (payload_offset - len(MAGIC) - 4 - len(encoded)))
        for _, _, _, table in tables:
            out.write(table.data)


#: Placements a table is checked at when it is read (:func:`_check_distances`): all of a table
#: of at most this many, else this many drawn at random (6-6-3's six-tile tables: about 0.02 s
#: each; a raised entry among a few thousand is found).
CHECKED_PLACEMENTS = 16_384

_WHY = {
    1: "its goal entry is not 0",
    2: "one tile's move changes it by more than one",
    3: "an entry has no neighbour one move closer",
}


def _check_distances(
    table: np.ndarray,
    shape: tuple[int, int],
    goal_blank: int,
    tiles: tuple[int, ...],
    sparse: bool,
    nibble: bool,
    zero: bool,
) -> None:
    """Raise FileCheckError unless ``table`` can be the breadth-first distance of its group
    (:func:`fastpuzzle._core._pdb.check_table`): a checksum proves only that a file is whole,
    and anyone who changes the tables can recompute it."""
    seed = int.from_bytes(os.urandom(8), "little")  # a file cannot aim at the placements drawn
    why, rank = _pdb.check_table(
        table, *shape, goal_blank, list(tiles), sparse, nibble, zero, CHECKED_PLACEMENTS, seed
    )
    _check(
        why == 0,
        f"the table of tiles {list(tiles)} is no breadth-first distance "
        f"({_WHY.get(why, why)}, at placement {rank})",
    )


class FileCheckError(Exception):
    """A file failed a check (the message says which)."""


def _check(condition: bool, why: str) -> None:
    if not condition:
        raise FileCheckError(why)


#: ``(inode, size, modification time)``: what tells a file replaced or rewritten since.
Identity = tuple[int, int, int]


def file_identity(status: os.stat_result) -> Identity:
    """What says a file is still the one read: its inode, size and modification time."""
    return (status.st_ino, status.st_size, status.st_mtime_ns)


def open_table_file(path: Path) -> io.FileIO:
    """``path`` open for reading if it is a regular file, else FileCheckError; never blocks."""
    try:
        return open_regular(path)
    except NotRegularFileError as error:
        raise FileCheckError(str(error)) from None
    except OSError as error:
        raise FileCheckError(f"cannot open it: {error.strerror}") from None


def _read_into(f: io.FileIO, buffer: memoryview) -> None:
    # FileIO.readinto may return short counts; 0 before the end means the file shrank.
    filled = 0
    while filled < len(buffer):
        count = f.readinto(buffer[filled:])
        _check(bool(count), "file changed while reading (it is shorter now)")
        filled += count or 0


def _aligned_empty(length: int) -> np.ndarray:
    # Tables start on 64-byte boundaries in the file; keep them so in memory.
    raw = np.empty(length + ALIGN, dtype=np.uint8)
    begin = -raw.ctypes.data % ALIGN
    return raw[begin : begin + length]


_STEP = 1 << 24

#: Version 2 hashes each step as soon as it is read, while its bytes are still in the cache
#: (the processor's second level holds 1 MiB or more).
_HOT_STEP = 1 << 20


def _read_payload(
    f: io.FileIO, length: int, payload: np.ndarray | None, version: int = FORMAT_VERSION
) -> str:
    """Read ``length`` bytes into ``payload`` (None: check only) and return their checksum, as
    a file of ``version`` takes it.

    Version 2's XXH64 runs at memory speed, on the bytes just read. Version 1's BLAKE2b is
    slower than reading (7-8, warm page cache: 0.05 s of reading beside 0.21 s of hashing):
    with ``payload`` a thread hashes each step while the next is read, both releasing the GIL.
    Checking only reuses one buffer, so that a check never holds a whole file in memory.
    """
    digest = _digest(version)
    step = _STEP if version == 1 else _HOT_STEP
    steps = [(begin, min(step, length - begin)) for begin in range(0, length, step)]
    if payload is None or version != 1:
        into = memoryview(bytearray(min(step, length))) if payload is None else payload.data
        for begin, count in steps:
            part = into[:count] if payload is None else into[begin : begin + count]
            _read_into(f, part)
            digest.update(part)
        return str(digest.hexdigest())
    # Leaving the pool waits for the step being hashed, also when a read fails.
    with ThreadPoolExecutor(1, thread_name_prefix="fastpuzzle-checksum") as hasher:
        hashed: Future[None] | None = None
        for begin, count in steps:
            part = payload.data[begin : begin + count]
            _read_into(f, part)
            if hashed is not None:
                hashed.result()
            hashed = hasher.submit(digest.update, part)
        if hashed is not None:
            hashed.result()
    return str(digest.hexdigest())


def read_valid(
    path: Path,
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    *,
    keep: bool = True,
) -> tuple[Database | None, Identity]:
    """Read ``path`` if every check passes, else raise FileCheckError.

    Returns the database (None unless ``keep``: checking only) and the identity of the file it
    was read from. The tables are read into this process's memory, and the checksum is taken of
    exactly those bytes: a file truncated or rewritten afterwards, or while it is read, cannot
    change what a search sees (a memory map of it could: reads past a truncation raise SIGBUS,
    and even a private mapping shows pages rewritten in place until the process writes them).
    """
    try:
        with open_table_file(path) as f:
            before = os.fstat(f.fileno())
            database = _read_open(f, before.st_size, shape, goal_blank, name, cells, keep, path)
            _check(f.read(1) == b"", "file changed while reading (it is longer now)")
            after = os.fstat(f.fileno())
    except OSError as error:
        raise FileCheckError(f"unreadable: {error.strerror or error}") from None
    _check(file_identity(before) == file_identity(after), "file changed while reading")
    return database, file_identity(before)


def _read_open(
    f: io.FileIO,
    size: int,
    shape: tuple[int, int],
    goal_blank: int,
    name: str,
    cells: tuple[tuple[int, ...], ...],
    keep: bool,
    path: Path,
) -> Database | None:
    start = f.read(len(MAGIC) + 4) or b""
    _check(len(start) == len(MAGIC) + 4 and start[: len(MAGIC)] == MAGIC, "bad magic")
    length = int.from_bytes(start[len(MAGIC) :], "little")
    _check(len(MAGIC) + 4 + length <= size, "header runs past the end")
    try:
        header = json.loads((f.read(length) or b"").decode())
    except (UnicodeDecodeError, ValueError) as error:
        raise FileCheckError(f"unreadable header: {error}") from None
    _check(isinstance(header, dict), "header is not an object")
    version = header.get("version")
    _check(
        type(version) is int and version in READ_VERSIONS,
        f"version is {version!r}, expected one of {list(READ_VERSIONS)}",
    )
    for key, value in _which_database(shape, goal_blank, name, cells, version).items():
        _check(header.get(key) == value, f"{key} is {header.get(key)!r}, expected {value!r}")
    payload_offset = header.get("payload_offset")
    _check(
        type(payload_offset) is int and len(MAGIC) + 4 + length <= payload_offset <= size,
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
        tiles = tuple(tile_of(c, goal_blank) for c in goal_cells)
        sparse = is_sparse(len(tiles), n)
        _check(group.get("tiles") == list(tiles), "group tiles differ")
        _check(group.get("sparse") is sparse, "group indexing differs")
        nibble = group.get("nibble")
        _check(isinstance(nibble, bool), "group entry size missing")
        want = table_bytes(shape, name, len(tiles), nibble)
        _check(group.get("offset") == offset, "group offset differs")
        _check(group.get("length") == want, "group length differs from its shape")
        _check(offset + want <= size, "group runs past the end")
        layout.append((tiles, sparse, nibble, offset, want))
        offset += want
    _check(offset == size, "file length differs from its tables")
    # Only now, with every size checked against the file's, is memory for the tables taken.
    f.seek(payload_offset)
    payload = _aligned_empty(size - payload_offset) if keep else None
    digest = _read_payload(f, size - payload_offset, payload, version)
    _check(digest == header.get("checksum"), "checksum mismatch")
    if payload is None:
        return None
    payload.setflags(write=False)
    tables = [
        (tiles, sparse, nibble, payload[offset - payload_offset : offset - payload_offset + want])
        for tiles, sparse, nibble, offset, want in layout
    ]
    # The checks release the GIL: a file's tables are checked side by side (6-6-6-6z's four
    # take 0.15 s each on one core).
    workers = min(len(tables), os.cpu_count() or 1)
    zero = is_zero_aware(name)
    with ThreadPoolExecutor(workers, thread_name_prefix="fastpuzzle-table-check") as pool:
        checks = [
            pool.submit(_check_distances, table, shape, goal_blank, tiles, sparse, nibble, zero)
            for tiles, sparse, nibble, table in tables
        ]
        for check in checks:
            check.result()
    return Database(
        shape,
        goal_blank,
        name,
        cells,
        tables,
        reflection(shape, goal_blank),
        path,
        zero_aware=is_zero_aware(name),
    )
