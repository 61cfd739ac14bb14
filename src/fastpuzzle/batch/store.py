"""Chunk files under ``out=``: one file per finished chunk, written atomically, a check file per
chunk and a manifest, so that ``resume=True`` reuses only what it can prove belongs to the batch.

The layout of ``out=DIR``:

``manifest.json``
    The batch's fingerprint (a SHA-256 of its boards and of every option that changes a row:
    shape, goal, algorithm, heuristic, limits, ``optimal``, the file format) and its chunk size.
``part-NNNNNN.{csv,jsonl,parquet}``
    The rows of chunk ``NNNNNN`` (``chunk_size`` rows from row ``NNNNNN * chunk_size``), as
    ``BatchResult.to_csv`` writes them (each row's board after its index): the chunk files one
    after another (CSV: one header) are the batch's file (:func:`join_chunks`).
``lock``
    Locked (``flock``) while a batch writes here, and holding its process id: a second batch on
    the same directory is refused with :class:`~fastpuzzle.errors.BatchInUseError` instead of
    overwriting the first's chunks. The system drops the lock when the process ends, however it
    ends.
``checks/part-NNNNNN.json``
    What that file holds: the batch's fingerprint, the chunk's number, first row and row count, a
    SHA-256 of the chunk's boards and a SHA-256 of the chunk file's bytes. It is written after
    the chunk file, so a crash between the two leaves a chunk that is solved again.

A chunk is reused only when its check file names this batch and this chunk, the boards it covers
hash the same now, and the chunk file's bytes hash to what the check file says; any other chunk
is solved again and rewritten. A directory that holds another batch (its manifest's fingerprint,
or a check file's, differs) or a damaged manifest is refused with
:class:`~fastpuzzle.errors.BatchFileError`, never overwritten.

Only regular files are read (:func:`~fastpuzzle._util.files.read_regular`): a FIFO under
a file's name would block the resume for ever. A manifest that is no regular file is refused
like a damaged one; a chunk or check file that is none is solved again and replaced. A
directory where a chunk or check file is to be written cannot be replaced by a rename: it is
refused when the store opens, before anything is solved.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import errno
import hashlib
import io
import json
import os
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, Literal

import numpy as np

from fastpuzzle._util.checks import shown
from fastpuzzle._util.files import atomic_writer, lock_file, read_regular, write_text_atomically
from fastpuzzle.batch.chunk import BatchSpec, BoardTexts
from fastpuzzle.batch.export import arrow_table, csv_text, jsonl_text
from fastpuzzle.batch.result import (
    COLUMNS,
    BatchResult,
    ChunkResult,
    MemoryRows,
    Numbers,
    PackedChunk,
)
from fastpuzzle.board import Board, Shape
from fastpuzzle.errors import BatchFileError, BatchInUseError

__all__ = [
    "OUT_FORMATS",
    "ChunkStore",
    "OutFormat",
    "batch_lock",
    "boards_digest",
    "foreign_entries",
    "join_chunks",
    "remove_batch_files",
]

OutFormat = Literal["csv", "jsonl", "parquet"]

#: The formats of chunk files (``solve_many(out_format=...)``).
OUT_FORMATS: tuple[OutFormat, ...] = ("csv", "jsonl", "parquet")

#: Version of the directory layout; a manifest or check file of another layout is not reused.
#: Layout 3: chunk files hold each row's board after its index, as ``BatchResult.to_csv``.
#: Layout 4: and each row's lower bound after its length.
LAYOUT = 4

#: The columns of a chunk file.
CHUNK_COLUMNS = (COLUMNS[0], "board", *COLUMNS[1:])
MANIFEST = "manifest.json"
CHECKS = "checks"
LOCK = "lock"

#: The names a batch writes in its directory: its manifest and lock, its chunk files, the check
#: files' directory, and the temporary files of its atomic writes (``.NAME.XXXXXXXX``).
_OURS = re.compile(
    r"(manifest\.json|lock|checks|part-[0-9]{6}\.(csv|jsonl|parquet))"
    r"|\.(manifest\.json|part-[0-9]{6}\.(csv|jsonl|parquet))\.[^/]+"
)
#: The names a batch writes in ``checks/``.
_OUR_CHECKS = re.compile(r"part-[0-9]{6}\.json|\.part-[0-9]{6}\.json\.[^/]+")

# Rows hashed per numpy block: arrays are hashed without copying more than this many rows.
_BLOCK = 1 << 16


def _row_bytes(row: Any, shape: Shape | None) -> bytes:
    # The same board gives the same bytes whatever it was written as (text, tiles, a Board);
    # a row that is no board (it gets status "invalid") is hashed as written.
    try:
        board = Board(row, shape=shape)
    except (ValueError, TypeError):
        # Its repr, whole; shown() stands in where there is none (an int past 4,300 digits).
        text = f"?{shown(row, limit=sys.maxsize)}"
    else:
        text = f"{board.shape}{board.tiles}"
    data = text.encode("utf-8", errors="surrogatepass")
    return len(data).to_bytes(8, "little") + data


def boards_digest(rows: Sequence[Any], shape: Shape | None) -> str:
    """SHA-256 (hex) of rows of boards, the same for the same boards in the same input form.

    Packed words are hashed as little-endian ``uint64``, rows of tiles as little-endian
    ``int64`` whatever their dtype, and other rows board by board.
    """
    hasher = hashlib.sha256()
    if isinstance(rows, np.ndarray):
        kind = "<u8" if rows.ndim == 1 else "<i8"
        hasher.update(f"{rows.ndim}:{rows.shape[1:]}".encode())
        for start in range(0, len(rows), _BLOCK):
            hasher.update(np.ascontiguousarray(rows[start : start + _BLOCK], dtype=kind).data)
    else:
        for row in rows:
            hasher.update(_row_bytes(row, shape))
    return hasher.hexdigest()


def _rows_of(chunk: PackedChunk) -> BatchResult:
    """One chunk's rows as a result of its own (numbered from 0), without boards: what a chunk
    file holds."""
    rows = MemoryRows(len(chunk), max(len(chunk), 1))
    rows.put(0, dataclasses.replace(chunk, first=0))
    return BatchResult.over(rows)


def join_chunks(directory: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Write the rows of the finished batch in ``directory`` to ``path`` (atomically, one chunk
    in memory at a time): its CSV or JSON-lines chunk files one after another, one header.

    Each chunk must be this batch's, whole: its check file names the manifest's batch and that
    chunk, and its bytes hash to the check file's sum.

    Raises
    ------
    BatchFileError
        The manifest is not a finished CSV or JSON-lines batch's, or a chunk is missing, of
        another batch or changed.
    """
    folder = Path(directory)
    manifest = _read_json(folder / MANIFEST)
    options = manifest.get("options") if isinstance(manifest, dict) else None
    if not (
        isinstance(manifest, dict)
        and isinstance(options, dict)
        and manifest.get("layout") == LAYOUT
        and options.get("format") in ("csv", "jsonl")
    ):
        raise BatchFileError(folder / MANIFEST, "not the manifest of a CSV or JSON-lines batch")
    fmt, size, total = options["format"], manifest.get("chunk_size"), options.get("rows")
    if not (isinstance(size, int) and size > 0 and isinstance(total, int) and total >= 0):
        raise BatchFileError(folder / MANIFEST, "the manifest names no chunk size or row count")
    with atomic_writer(path) as stream:
        if fmt == "csv":
            stream.write((",".join(CHUNK_COLUMNS) + "\n").encode("ascii"))
        for chunk in range(-(-total // size)):
            name = f"part-{chunk:06d}.{fmt}"
            meta = _read_json(folder / CHECKS / name.replace(f".{fmt}", ".json"))
            try:
                body = read_regular(folder / name)
            except OSError as error:
                raise BatchFileError(folder / name, f"cannot read it: {error}") from None
            whole = (
                isinstance(meta, dict)
                and meta.get("batch") == manifest.get("fingerprint")
                and meta.get("chunk") == chunk
                and meta.get("sha256") == hashlib.sha256(body).hexdigest()
            )
            if not whole:
                raise BatchFileError(folder / name, "not this batch's chunk, or changed since")
            stream.write(body[body.index(b"\n") + 1 :] if fmt == "csv" else body)


# The lock files this process holds, by path: [descriptor, owning thread, depth]. The thread
# that holds one may take it again (the command line holds it around solve_many, which takes it
# too); any other thread is refused like another process.
_HELD: dict[str, list[int]] = {}
_HELD_GUARD = threading.Lock()


@contextlib.contextmanager
def batch_lock(directory: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the lock of the batch directory ``directory`` (created if missing) while the block
    runs: no other batch writes there meanwhile.

    Parameters
    ----------
    directory : path
        A :func:`~fastpuzzle.solve_many` ``out=`` directory.

    Raises
    ------
    BatchInUseError
        Another process, or another thread of this one, holds it.
    """
    key = os.path.realpath(Path(directory) / LOCK)
    me = threading.get_ident()
    with _HELD_GUARD:
        held = _HELD.get(key)
        if held is not None and held[1] == me:
            held[2] += 1
        else:
            _HELD[key] = [_take_lock(Path(directory), key), me, 1]
    try:
        yield
    finally:
        with _HELD_GUARD:
            held = _HELD[key]
            held[2] -= 1
            if held[2] == 0:
                del _HELD[key]
                if held[0] >= 0:
                    os.close(held[0])


def _take_lock(directory: Path, path: str) -> int:
    """The descriptor holding the lock file ``path``, which then names this process; -1 where
    this process can neither write nor create it."""
    try:
        fd = lock_file(path)
    except OSError as error:
        if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        # A directory this process cannot write to: it can only read back the chunks there (a
        # chunk it would solve fails to be written, as it did before there was a lock).
        return -1
    if fd is None:
        raise BatchInUseError(
            directory,
            f"another batch is writing here{_holder(path)}; wait for it to end, or choose "
            "another out=",
        )
    with contextlib.suppress(OSError):  # open read-only: the holder is only a hint
        os.ftruncate(fd, 0)
        # Not os.pwrite, which Windows lacks; the file is this descriptor's alone.
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def _holder(path: str) -> str:
    # Who holds the lock, as its holder wrote it (only a hint: it is read without the lock).
    try:
        pid = int(read_regular(path).decode("ascii").strip())
    except (OSError, ValueError):
        return ""
    return f" (process {pid})"


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return []


def foreign_entries(directory: str | os.PathLike[str]) -> list[str]:
    """The names in the batch directory ``directory`` (and its ``checks/``) that no batch
    writes, or that are not of the kind a batch writes there (a directory at a chunk's name)."""
    folder = Path(directory)
    found = []
    for entry in _entries(folder):
        if not _OURS.fullmatch(entry.name) or (
            entry.is_dir(follow_symlinks=False) != (entry.name == CHECKS)
        ):
            found.append(entry.name)
        elif entry.name == CHECKS:
            found += [
                f"{CHECKS}/{inner.name}"
                for inner in _entries(folder / CHECKS)
                if not _OUR_CHECKS.fullmatch(inner.name) or inner.is_dir(follow_symlinks=False)
            ]
    return found


def remove_batch_files(directory: str | os.PathLike[str]) -> None:
    """Remove what a batch wrote in ``directory`` (by :func:`foreign_entries`' names), then the
    directory and its ``checks/`` where nothing else is left in them: anything else put there is
    kept, and a link is removed, never followed."""
    folder = Path(directory)
    for inner in _entries(folder / CHECKS):
        if _OUR_CHECKS.fullmatch(inner.name) and not inner.is_dir(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(inner.path)
    for entry in _entries(folder):
        if _OURS.fullmatch(entry.name) and not entry.is_dir(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
    for empty in (folder / CHECKS, folder):
        with contextlib.suppress(OSError):  # not empty, or gone
            if not empty.is_symlink():
                empty.rmdir()


def _read_json(path: Path) -> Any:
    """The JSON in ``path``, or None when it is missing, not a regular file or not JSON."""
    try:
        return json.loads(read_regular(path))
    except (OSError, ValueError):
        return None


def _directories_in(folder: Path) -> list[str]:
    """Names of the directories (not links to them) in ``folder``; none if it is missing."""
    try:
        with os.scandir(folder) as entries:
            return [entry.name for entry in entries if entry.is_dir(follow_symlinks=False)]
    except (FileNotFoundError, NotADirectoryError):
        return []


class ChunkStore:
    """The chunk files of one batch under a directory; also the batch's rows
    (a :class:`~fastpuzzle.batch.result.RowSource`) once every chunk is written.

    Use: :meth:`open`, then :meth:`reusable` for each chunk when resuming, :meth:`start`, then
    :meth:`put` for each chunk solved.
    """

    def __init__(self, directory: Path, fmt: OutFormat, spec: BatchSpec) -> None:
        # ``fmt`` is one of OUT_FORMATS: solve_many checks it before the batch starts.
        self.directory = directory
        self.fmt = fmt
        self.spec = spec
        self.total = 0
        self.chunk_size = 1
        self.options: dict[str, Any] = {}
        self.boards = ""
        self.fingerprint = ""
        self._manifest_written = False
        # SHA-256 of each chunk file as written or verified, and of its boards: a chunk read
        # back must match the first, or be this batch's chunk again (solved again by a resume
        # since) by its check file.
        self._sums = np.zeros((0, 32), dtype=np.uint8)
        self._boards = np.zeros((0, 32), dtype=np.uint8)
        self._known = np.zeros(0, dtype=bool)

    # -- opening --------------------------------------------------------------------------

    def open(
        self, rows: Sequence[Any], resume: bool, chunk_size: int | None, default_chunk_size: int
    ) -> None:
        """Fingerprint the batch and check the directory; decide the chunk size.

        Resuming takes the chunk size from the manifest when ``chunk_size`` is None.

        Raises
        ------
        FileExistsError
            The directory holds results and ``resume`` is False.
        BatchFileError
            Resuming, and the manifest is damaged, not a regular file or written for another
            batch (or another chunk size than ``chunk_size``), or a check file names another
            batch; or a directory is where a chunk or check file goes (or a file where the
            check files' directory goes).
        """
        self.total = len(rows)
        options = {**asdict(self.spec), "rows": self.total, "format": self.fmt}
        self.options = json.loads(json.dumps(options))  # tuples become lists, as when read back
        self.boards = boards_digest(rows, self.spec.shape)
        identity = {"layout": LAYOUT, "options": self.options, "boards": self.boards}
        self.fingerprint = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()

        self.directory.mkdir(parents=True, exist_ok=True)
        manifest = self.directory / MANIFEST
        if manifest.exists():
            if not resume:
                raise FileExistsError(
                    f"{self.directory} already holds results; pass resume=True to continue them "
                    "or choose another out="
                )
            found = self._read_manifest(manifest)
            if chunk_size is not None and chunk_size != found:
                raise BatchFileError(
                    manifest,
                    f"cannot resume: the batch was written in chunks of {found} rows, not "
                    f"{chunk_size}; pass chunk_size={found} or leave chunk_size out",
                )
            chunk_size = found
            self._manifest_written = True
        else:
            if not resume and self._holds_chunks():
                raise FileExistsError(
                    f"{self.directory} already holds chunk files; pass resume=True to continue "
                    "them or choose another out="
                )
            if resume:
                for check in sorted((self.directory / CHECKS).glob("part-*.json")):
                    self._refuse_foreign(check, _read_json(check))
            chunk_size = chunk_size or default_chunk_size
        self.chunk_size = chunk_size
        count = -(-self.total // chunk_size)
        self._refuse_directories(count)
        self._sums = np.zeros((count, 32), dtype=np.uint8)
        self._boards = np.zeros((count, 32), dtype=np.uint8)
        self._known = np.zeros(count, dtype=bool)

    def _read_manifest(self, path: Path) -> int:
        """The chunk size of the manifest at ``path``, which must be this batch's."""
        try:
            found = json.loads(read_regular(path))
        except (OSError, ValueError) as error:
            raise BatchFileError(
                path,
                f"cannot resume: not a readable manifest ({error}); remove it to resume anyway "
                "(each chunk file is checked on its own)",
            ) from None
        if not isinstance(found, dict) or found.get("layout") != LAYOUT:
            raise BatchFileError(
                path,
                f"cannot resume: the manifest was written for another batch or version (layout "
                f"{shown(found.get('layout') if isinstance(found, dict) else None)}, this version "
                f"writes {LAYOUT}); finish it with the version that started it, or remove the "
                "folder to start again",
            )
        if found.get("fingerprint") != self.fingerprint:
            raise BatchFileError(path, f"cannot resume: {self._difference(found)}")
        chunk_size = found.get("chunk_size")
        if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
            raise BatchFileError(path, f"cannot resume: bad chunk_size {chunk_size!r}")
        return chunk_size

    def _difference(self, found: dict[str, Any]) -> str:
        theirs = found.get("options")
        if not isinstance(theirs, dict):
            theirs = {}
        keys = self.options.keys() | theirs.keys()
        names = sorted(k for k in keys if theirs.get(k) != self.options.get(k))
        if found.get("boards") != self.boards:
            names.append("boards")
        return f"written for another batch (it differs in: {', '.join(names) or 'its fingerprint'})"

    def _holds_chunks(self) -> bool:
        return any(self.directory.glob("part-*")) or any((self.directory / CHECKS).glob("*"))

    def _refuse_directories(self, count: int) -> None:
        """Refuse a directory at a name this batch writes a file to (of its ``count`` chunks),
        or anything but a directory at ``checks``: found before solving, not by the rename that
        puts the first chunk there."""
        checks = self.directory / CHECKS
        if checks.exists() and not checks.is_dir():
            raise BatchFileError(
                checks,
                "not a directory, and the check files go there; remove it or choose another out=",
            )
        for folder, ending in ((self.directory, self.fmt), (checks, "json")):
            for name in _directories_in(folder):
                number = re.fullmatch(rf"part-(\d{{6}})\.{ending}", name)
                if number and int(number.group(1)) < count:
                    raise BatchFileError(
                        folder / name,
                        "is a directory where this batch writes a file; remove it or choose "
                        "another out=",
                    )

    def _refuse_foreign(self, check: Path, meta: Any) -> None:
        batch = meta.get("batch") if isinstance(meta, dict) else None
        if isinstance(batch, str) and batch != self.fingerprint:
            data = self.directory / check.name.replace(".json", f".{meta.get('format', '?')}")
            raise BatchFileError(
                data if data.exists() else check,
                f"cannot resume: written by another batch (its check file {check} names batch "
                f"{batch[:12]}..., this batch is {self.fingerprint[:12]}...); choose another out=",
            )

    # -- chunks ---------------------------------------------------------------------------

    def path(self, chunk: int) -> Path:
        return self.directory / f"part-{chunk:06d}.{self.fmt}"

    def check_path(self, chunk: int) -> Path:
        return self.directory / CHECKS / f"part-{chunk:06d}.json"

    def _bounds(self, chunk: int) -> tuple[int, int]:
        first = chunk * self.chunk_size
        return first, min(self.chunk_size, self.total - first)

    def _chunk_fields(self, chunk: int) -> dict[str, Any]:
        # What a check file says of its chunk besides the boards and the sum: which batch,
        # layout and format, and which rows.
        first, size = self._bounds(chunk)
        return {
            "layout": LAYOUT,
            "batch": self.fingerprint,
            "format": self.fmt,
            "chunk": chunk,
            "first": first,
            "rows": size,
        }

    def _meta(self, chunk: int, rows: Sequence[Any]) -> dict[str, Any]:
        return {**self._chunk_fields(chunk), "boards": boards_digest(rows, self.spec.shape)}

    def reusable(self, chunk: int, rows: Sequence[Any]) -> bool:
        """Whether chunk ``chunk`` (of boards ``rows``) is on disk, whole and this batch's.

        Raises
        ------
        BatchFileError
            Its check file names another batch.
        """
        meta = _read_json(self.check_path(chunk))
        path = self.path(chunk)
        if not isinstance(meta, dict) or not path.exists():
            return False
        self._refuse_foreign(self.check_path(chunk), meta)
        expected = self._meta(chunk, rows)
        if any(meta.get(key) != value for key, value in expected.items()):
            return False
        try:
            digest = hashlib.sha256(read_regular(path))
        except OSError:  # a FIFO or a directory too: solved again, and replaced
            return False
        if digest.hexdigest() != meta.get("sha256"):
            return False
        self._remember(chunk, digest.digest(), expected["boards"])
        return True

    def start(self) -> None:
        """Write the manifest, if it is not there (after every check, so that a refused
        directory is left as it was)."""
        (self.directory / CHECKS).mkdir(exist_ok=True)
        if not self._manifest_written:
            manifest = {
                "layout": LAYOUT,
                "fingerprint": self.fingerprint,
                "chunk_size": self.chunk_size,
                "options": self.options,
                "boards": self.boards,
            }
            text = json.dumps(manifest, indent=1, sort_keys=True)
            write_text_atomically(self.directory / MANIFEST, text)
            self._manifest_written = True

    def put(self, chunk: int, result: ChunkResult, rows: Sequence[Any]) -> PackedChunk:
        """Check chunk ``chunk``'s rows, then write its file and its check file; return the
        rows packed."""
        first, size = self._bounds(chunk)
        packed = PackedChunk.from_columns(first, size, result)  # raises on rows that do not fit
        body = self._encode(packed, rows)
        digest = hashlib.sha256(body)
        # Not synced (a sync costs a third of a 3x3 chunk's time): a chunk is
        # reused only when its check file is whole JSON that names it and its bytes hash to the
        # check file's sum, so files a system crash left empty or part-written are solved again.
        with atomic_writer(self.path(chunk), sync=False) as stream:
            stream.write(body)
        meta = {**self._meta(chunk, rows), "sha256": digest.hexdigest()}
        with atomic_writer(self.check_path(chunk), sync=False) as stream:
            stream.write(json.dumps(meta, sort_keys=True).encode("utf-8"))
        self._remember(chunk, digest.digest(), meta["boards"])
        return packed

    def _remember(self, chunk: int, digest: bytes, boards: str) -> None:
        self._sums[chunk] = np.frombuffer(digest, dtype=np.uint8)
        self._boards[chunk] = np.frombuffer(bytes.fromhex(boards), dtype=np.uint8)
        self._known[chunk] = True

    def _still_ours(self, chunk: int, digest: Any) -> bool:
        # A chunk file whose bytes changed since is still read when its check file shows it is
        # this batch's same chunk, solved again (by a resume into the same directory).
        meta = _read_json(self.check_path(chunk))
        expected = {
            **self._chunk_fields(chunk),
            "boards": self._boards[chunk].tobytes().hex(),
            "sha256": digest.hexdigest(),
        }
        if not isinstance(meta, dict) or any(meta.get(k) != v for k, v in expected.items()):
            return False
        self._sums[chunk] = np.frombuffer(digest.digest(), dtype=np.uint8)
        return True

    # -- reading back ---------------------------------------------------------------------

    def load(self, chunk: int) -> PackedChunk:
        """Chunk ``chunk``'s rows read back from its file.

        Raises
        ------
        BatchFileError
            The file is gone, changed since it was written or verified, or unreadable.
        """
        path = self.path(chunk)
        if not self._known[chunk]:
            raise BatchFileError(path, "this chunk was never written")
        try:
            body = read_regular(path)
        except OSError as error:
            raise BatchFileError(path, f"cannot read the chunk file: {error}") from None
        digest = hashlib.sha256(body)
        if digest.digest() != self._sums[chunk].tobytes() and not self._still_ours(chunk, digest):
            raise BatchFileError(
                path,
                "the chunk file changed after it was written; solve_many(..., resume=True) "
                "solves it again",
            )
        first, size = self._bounds(chunk)
        try:
            return PackedChunk.from_columns(first, size, self._decode(body))
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise BatchFileError(path, f"rows that cannot be read back: {error}") from None

    def chunk_moves(self, number: int) -> tuple[bytes, np.ndarray]:
        chunk = self.load(number)
        return chunk.moves, chunk.offsets

    def numbers(self) -> Numbers:
        total = self.total
        out = Numbers.empty(total)
        for number in range(len(self._known)):
            out.take(self.load(number))
        return out

    # -- formats --------------------------------------------------------------------------

    def _encode(self, packed: PackedChunk, rows: Sequence[Any]) -> bytes:
        """A chunk file: the chunk's rows as the batch's result writes them (``to_csv``), its
        boards included, so that the chunk files side by side are the batch's rows."""

        chunk = _rows_of(packed).with_boards(BoardTexts(rows, self.spec))
        if self.fmt == "csv":
            return csv_text(chunk, first_index=packed.first)
        if self.fmt == "jsonl":
            return jsonl_text(chunk, first_index=packed.first)
        import pyarrow as pa  # the parquet extra: only Parquet chunks need it
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.write_table(arrow_table(chunk, pa, first_index=packed.first), sink)
        data: bytes = sink.getvalue().to_pybytes()
        return data

    def _decode(self, body: bytes) -> ChunkResult:
        if self.fmt == "parquet":
            import pyarrow as pa  # the parquet extra: only Parquet chunks need it
            import pyarrow.parquet as pq

            columns: dict[str, list[Any]] = pq.read_table(pa.BufferReader(body)).to_pydict()
        elif self.fmt == "csv":
            reader = csv.reader(io.StringIO(body.decode("utf-8"), newline=""))
            if next(reader, None) != list(CHUNK_COLUMNS):
                raise ValueError("the header is not " + ",".join(CHUNK_COLUMNS))
            table = list(reader)
            if any(len(row) != len(CHUNK_COLUMNS) for row in table):
                raise ValueError(f"a row has not {len(CHUNK_COLUMNS)} fields")
            columns = {name: [row[k] for row in table] for k, name in enumerate(CHUNK_COLUMNS)}
        else:
            records = [json.loads(line) for line in body.decode("utf-8").splitlines() if line]
            columns = {name: [record[name] for record in records] for name in COLUMNS}
        return ChunkResult(
            index=[int(v) for v in columns["index"]],
            # Missing (not solved) is empty in CSV and null in JSON lines and Parquet; -1 in
            # the chunk files of earlier versions.
            length=[-1 if v is None or v == "" else int(v) for v in columns["length"]],
            lower_bound=[-1 if v is None or v == "" else int(v) for v in columns["lower_bound"]],
            status=[str(v) for v in columns["status"]],
            expanded=[int(v) for v in columns["expanded"]],
            generated=[int(v) for v in columns["generated"]],
            seconds=[float(v) for v in columns["seconds"]],
            moves=["" if v is None else str(v) for v in columns["moves"]],
            message=["" if v is None else str(v) for v in columns["message"]],
        )
