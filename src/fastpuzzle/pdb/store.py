"""The cache of pattern-database files: where each one lives, building into it, loading,
listing and clearing it. A file is read once per process, so threads share one copy."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeoutError
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any, NoReturn

import numpy as np
import platformdirs

from fastpuzzle._core import _pdb
from fastpuzzle._util.checks import flag, optional_path, real
from fastpuzzle._util.files import open_regular, try_lock
from fastpuzzle._util.progress import LOG_INTERVAL, Meter, Throttle, lasting, on_terminal
from fastpuzzle.errors import FastPuzzleError
from fastpuzzle.pdb.database import (
    BuildTimeLimitError,
    Database,
    NotEnoughSpaceError,
    PatternDatabaseError,
)
from fastpuzzle.pdb.fileformat import (
    ALIGN,
    MAGIC,
    NAME_VERSION,
    FileCheckError,
    Identity,
    file_identity,
    open_table_file,
    read_valid,
    table_bytes,
    write_file,
)
from fastpuzzle.pdb.partitions import (
    COMPOUNDS,
    CUSTOM_NAME,
    NAMED_PARTITIONS,
    Partition,
    ResolvedPartition,
    ZeroAwareGroups,
    compound_sources,
    is_sparse,
    resolve,
    shape_and_blank,
    tile_of,
    walled_off,
)

__all__ = [
    "Progress",
    "build_pdb",
    "clear_cache",
    "load_pdb",
    "pdb_cache_dir",
    "pdb_info",
    "pdb_path",
]

Progress = Callable[[str], None]


def pdb_cache_dir(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The cache directory: the argument, ``$FASTPUZZLE_CACHE``, or the user's cache directory
    as the platform has it (``~/.cache/fastpuzzle`` on Linux, or under ``$XDG_CACHE_HOME``;
    ``~/Library/Caches/fastpuzzle`` on macOS; ``%LOCALAPPDATA%\\fastpuzzle\\Cache`` on
    Windows).

    Raises
    ------
    PatternDatabaseError
        If ``cache_dir`` is not a path (a str or os.PathLike) or None.
    """
    given = optional_path("cache_dir", cache_dir, error=PatternDatabaseError)
    if given is not None:
        return given
    configured = os.environ.get("FASTPUZZLE_CACHE")
    if configured:
        return Path(configured)
    # The platform's convention (platformdirs): $XDG_CACHE_HOME/fastpuzzle, else
    # ~/.cache/fastpuzzle on Linux; ~/Library/Caches/fastpuzzle on macOS;
    # %LOCALAPPDATA%\fastpuzzle\Cache on Windows.
    return Path(platformdirs.user_cache_dir("fastpuzzle", appauthor=False))


def pdb_path(
    partition: str | Partition = "6-6-3",
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Path:
    """Where the file of a partition lives in the cache directory (``shape`` as for
    :func:`build_pdb`)."""
    return Path(locate(resolve(partition, shape, goal_blank), cache_dir))


def _locate_now(partition: ResolvedPartition, cache_dir: str | os.PathLike[str] | None) -> str:
    rows, cols = partition.shape
    file = pdb_cache_dir(cache_dir) / (
        f"pdb-v{NAME_VERSION}-{rows}x{cols}-blank{partition.goal_blank}-{partition.name}.fpdb"
    )
    return str(file)


@lru_cache(maxsize=64, typed=True)
def _located(
    partition: ResolvedPartition,
    cache_dir: str | PurePath | None,
    environment: tuple[str | None, ...] | None,
) -> str:
    # ``environment`` only keys the memo: it holds the values _locate_now is about to read.
    return _locate_now(partition, cache_dir)


def locate(partition: ResolvedPartition, cache_dir: str | os.PathLike[str] | None) -> str:
    """The file of ``partition`` in the cache directory, memoised where the answer depends on
    nothing else.

    Every solve looks its database up, and building the path with pathlib cost several times
    the search of an easy board. The environment is read on every call, so a changed
    ``$FASTPUZZLE_CACHE`` (tests point it at temporary directories) takes effect at once.
    Another path-like may change what it names, and without ``$HOME`` the home directory comes
    from the password database: those are worked out each time.
    """
    if cache_dir is None or isinstance(cache_dir, (str, PurePath)):
        if cache_dir is not None:
            return _located(partition, cache_dir, None)
        environment = _environment()
        if environment is not None:
            return _located(partition, None, environment)
    return _locate_now(partition, cache_dir)


def cache_root() -> str:
    """:func:`pdb_cache_dir` (no argument) as a string, from the environment as it is now.

    A search that looks up several files (its tables, its pruning machine) reads the
    environment once and passes this on as their ``cache_dir``: each read of an unset
    variable costs about as much as an easy board's search.
    """
    environment = _environment()
    if environment is None:
        return os.fspath(pdb_cache_dir())
    return _root_under(environment)


def _environment() -> tuple[str | None, ...] | None:
    # Only the variables pdb_cache_dir reads, in its order (each absent one costs a KeyError),
    # as the key of the memos that depend on them; None: no home either, nothing to key on.
    environ = os.environ
    configured = environ.get("FASTPUZZLE_CACHE")
    if configured:
        return (configured,)
    xdg = environ.get("XDG_CACHE_HOME")
    if xdg:
        return (configured, xdg)
    home = environ.get("HOME")
    if home is not None:
        return (configured, xdg, home)
    return None


@lru_cache(maxsize=16)
def _root_under(environment: tuple[str | None, ...]) -> str:
    # ``environment`` only keys the memo: it holds the values pdb_cache_dir is about to read.
    return os.fspath(pdb_cache_dir())


# ---------------------------------------------------------------------------------------------
# Building.


_BAR_WIDTH = 30

#: Where builds nobody asked to watch (a table built on first use by ``solve()``) report: the
#: ``fastpuzzle`` logger's child, so that notebooks and services silence or route them as they
#: route any library's records. Each file's start, groups and end are INFO, its levels DEBUG.
_log = logging.getLogger(__name__)


def _logged_progress(message: str) -> None:
    """A build's ``progress`` that goes to :data:`_log` instead of stderr."""
    final = message.endswith("\n")
    _log.log(
        logging.INFO if final else logging.DEBUG,
        "%s",
        message.rstrip("\n").removeprefix("fastpuzzle: "),
    )


def _stderr_progress(message: str) -> None:
    # A file's and each group's lines are printed whole (above a group's bar); level lines come
    # here only off a terminal (a bar shows them on one), one per LOG_INTERVAL, so that a log
    # of a long build gets a line every 15 s rather than thousands.
    if message.endswith("\n"):
        lasting(message.rstrip("\n"))
    elif _LEVEL_LINES.due(time.monotonic()):
        print(message, file=sys.stderr, flush=True)


_LEVEL_LINES = Throttle(LOG_INTERVAL)


def _past(deadline: float | None, started: float, what: str, hint: str) -> None:
    # One wording for every build stopped by a deadline; ``started`` is time.monotonic().
    if deadline is not None and time.monotonic() >= deadline:
        _stopped(started, what, hint)


def _stopped(started: float, what: str, hint: str) -> NoReturn:
    spent = time.monotonic() - started
    raise BuildTimeLimitError(
        f"{what} was not ready within the time limit (stopped after {spent:.1f} s of building, "
        f"nothing written); build it once without a limit: {hint}",
        spent,
    )


def _how_to_build(partition: ResolvedPartition) -> str:
    if partition.asked is None:
        return "fastpuzzle.build_pdb() with these groups"
    (rows, cols), goal_blank = partition.shape, partition.goal_blank
    command = f"fastpuzzle pdb build {partition.asked} --shape {rows} {cols}"
    if goal_blank != rows * cols - 1:
        command += f" --goal-blank {goal_blank}"
    return f"`{command}`"


def _group_meter(progress: Progress | None, description: str, total: int) -> Meter | None:
    # On a terminal a bar per group (tqdm's, with the time left, when the ``progress`` extra is
    # installed); a log keeps its line every 15 s, and a callable still receives the text.
    if progress is not _stderr_progress or not on_terminal():
        return None
    return Meter(total, description, "placement", unit_scale=True, rate=False)


def _build_tables(
    shape: tuple[int, int],
    goal_blank: int,
    cells: tuple[tuple[int, ...], ...],
    label: str,
    progress: Progress | None,
    deadline: float | None = None,
    hint: str = "",
    zero: bool = False,
) -> list[tuple[tuple[int, ...], bool, bool, np.ndarray]]:
    rows, cols = shape
    out = []
    begun = time.monotonic()
    what = f"pattern database {label}"
    for number, group in enumerate(cells, 1):
        _past(deadline, begun, what, hint)
        tiles = tuple(tile_of(c, goal_blank) for c in group)
        sparse = is_sparse(len(tiles), rows * cols)
        started = time.perf_counter()
        placements = _pdb.level_length(rows * cols, len(tiles), False)
        # The bar's label is short (the lasting line above names the file), a custom
        # partition's digest left out: at 80 columns a long one left the bar one cell wide.
        name = label.split(" ", 1)[0]
        short = "" if name.startswith("custom-") else f"{name} "
        meter = _group_meter(progress, f"{short}group {number}/{len(cells)}", placements)

        def relay(
            level: int,
            reached: int,
            total: int,
            number: int = number,
            started: float = started,
            meter: Any = meter,
        ) -> None:
            if meter is not None:
                meter.update(reached - meter.n, f"level {level}")
            elif progress is not None:
                share = min(1.0, reached / max(total, 1))
                filled = round(share * _BAR_WIDTH)
                bar = "#" * filled + "." * (_BAR_WIDTH - filled)
                progress(
                    f"fastpuzzle: pattern database {label} group {number}/{len(cells)} "
                    f"[{bar}] {100 * share:5.1f}% level {level}, "
                    f"{time.perf_counter() - started:.0f} s"
                )

        try:
            try:
                levels = _pdb.build_levels(
                    rows, cols, goal_blank, list(tiles), sparse, relay, deadline=deadline, zero=zero
                )
            except _pdb.DeadlinePassed:
                _stopped(begun, what, hint)
            _past(deadline, begun, what, hint)
            table, nibble = _pdb.pack_table(
                levels, rows, cols, goal_blank, list(tiles), sparse, zero=zero
            )
            del levels
            if meter is not None:
                meter.update(placements - meter.n)  # a group of every tile reaches half of them
        finally:
            if meter is not None:
                meter.close()
        if progress is not None:
            progress(
                f"fastpuzzle: pattern database {label} group {number}/{len(cells)} "
                f"({len(tiles)} tiles) built in {time.perf_counter() - started:.1f} s\n"
            )
        out.append((tiles, sparse, nibble, table))
    return out


# ---------------------------------------------------------------------------------------------
# Loading, building on demand, listing and clearing.


_LOCK = threading.Lock()
_BUILD_LOCK = threading.Lock()
# Loaded databases by file, with the identity (inode, size, mtime) of the file they were read
# from: a file replaced, rewritten or deleted since is checked again. The tables are a copy in
# memory, so searches still using an older one are unaffected by any change to the file.
_LOADED: dict[str, tuple[Database, Identity]] = {}
# Files that failed a check, by the identity they had, with the check they failed: not read
# again until they change (a damaged 7-8b would otherwise be read, 275 MiB, by every large
# search), and named when a build cannot replace them.
_REJECTED: dict[str, tuple[Identity, str]] = {}


# Reads a deadline stopped waiting for go on in the background, so that the next search finds
# the tables read instead of starting over; by file, while they run.
_READS: dict[str, Future[Database | None]] = {}
_READS_LOCK = threading.Lock()


def _forget_reads() -> None:
    # A forked child has none of its parent's threads: their reads never end there.
    _READS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_reads)


def load_pdb(
    partition: str | Partition = "6-6-3",
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    deadline: float | None = None,
) -> Database | None:
    """The database from the cache if its file is present and passes every check, else None.

    Only a regular file is opened (a FIFO or a directory at its path is no database); its tables
    are read into memory and checked there, so the file may change or vanish afterwards.

    With ``deadline`` (a :func:`time.monotonic` time), a file not read yet is read on a
    background thread, waited for until then: past it, :class:`BuildTimeLimitError` is raised
    and the read goes on, for the next call (the first search of a process with a 0.05 s limit
    waited 0.2 s for 6-6-3's 16 MiB, 575 MiB for 7-8 take seconds).
    """
    return load(resolve(partition, shape, goal_blank), cache_dir, deadline=deadline)


def load(
    partition: ResolvedPartition,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    deadline: float | None = None,
) -> Database | None:
    """:func:`load_pdb` of a resolved partition."""
    file = locate(partition, cache_dir)
    if deadline is None:
        return _load(file, partition)
    kept = _kept(file)
    if kept is not None:
        return kept
    waiting = time.monotonic()
    started = False
    with _READS_LOCK:
        reading = _READS.get(file)
        if reading is None:
            reading = _READS[file] = Future()
            started = True
    if started:
        # Outside the lock: a read already over calls back at once, in this thread.
        reading.add_done_callback(lambda done: _read_ended(file, done))
        # A thread of its own, gone once the read is: a daemon, so that leaving Python does
        # not wait for a read nobody waits for.
        threading.Thread(
            target=_read_into_future,
            args=(reading, file, partition),
            name="fastpuzzle.pdb.read",
            daemon=True,
        ).start()
    try:
        return reading.result(timeout=max(0.0, deadline - waiting))
    except FutureTimeoutError:
        spent = time.monotonic() - waiting
        rows, cols = partition.shape
        raise BuildTimeLimitError(
            f"pattern database {partition.name} for {rows}x{cols} was not read within the time "
            f"limit (waited {spent:.2f} s for {file}); its read goes on, for the next search",
            spent,
        ) from None


def _kept(file: str) -> Database | None:
    """The database read from ``file`` and kept, if it is still the file's, without waiting for
    a read in progress (None then)."""
    if not _LOCK.acquire(blocking=False):
        return None
    try:
        loaded = _LOADED.get(file)
        if loaded is None:
            return None
        try:
            status = os.stat(file)
        except OSError:
            return None
        return loaded[0] if loaded[1] == file_identity(status) else None
    finally:
        _LOCK.release()


def _read_into_future(
    future: Future[Database | None], file: str, partition: ResolvedPartition
) -> None:
    future.set_running_or_notify_cancel()
    try:
        future.set_result(_load(file, partition))
    except BaseException as error:  # the waiting search raises it
        future.set_exception(error)


def _read_ended(file: str, done: Future[Database | None]) -> None:
    with _READS_LOCK:
        if _READS.get(file) is done:
            del _READS[file]


def _load(file: str, partition: ResolvedPartition) -> Database | None:
    """:func:`load_pdb` of a located file: kept, read and checked, or None."""
    with _LOCK:
        try:
            status = os.stat(file)
        except OSError:
            _LOADED.pop(file, None)
            return None
        loaded = _LOADED.get(file)
        if loaded is not None and loaded[1] == file_identity(status):
            return loaded[0]
        _LOADED.pop(file, None)
        rejected = _REJECTED.get(file)
        if rejected is not None and rejected[0] == file_identity(status):
            return None
        try:
            database, identity = read_valid(
                Path(file), partition.shape, partition.goal_blank, partition.name, partition.groups
            )
        except FileCheckError as error:
            _REJECTED[file] = (file_identity(status), str(error))
            return None
        _REJECTED.pop(file, None)
        assert database is not None
        _LOADED[file] = (database, identity)
        return database


def _cache_problem(directory: Path, path: Path) -> str | None:
    """What keeps a file from being written at ``path`` in ``directory``, or None.

    Checked before a build, which may take minutes, rather than found when its result is
    renamed into place. Writing a probe file is the only test that also catches read-only
    mounts and immutable directories, which permission bits do not show (nor do they bind root).
    """
    where = f"pattern-database cache directory {directory}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"{where} is not a directory; set FASTPUZZLE_CACHE or cache_dir to a directory"
    except OSError as error:
        return f"cannot create the {where}: {error.strerror or error}"
    try:
        handle, probe = tempfile.mkstemp(dir=directory, prefix=".pdb-probe.", suffix=".tmp")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        return f"cannot write into the {where}: {error.strerror or error}"
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot look at {path}: {error.strerror or error}"
    if stat.S_ISDIR(mode):
        # A rename cannot replace a directory; anything else there is replaced by the build.
        return f"{path} is a directory, not a pattern-database file; remove it to build there"
    return None


def _failed_checks(path: Path) -> str:
    """``"PATH failed its checks (why), and "`` when the file at ``path`` is one load_pdb
    refused as it is now, else ``""``: what a build that cannot write must not leave unsaid."""
    try:
        status = os.stat(path)
    except OSError:
        return ""
    rejected = _REJECTED.get(str(path))
    if rejected is None or rejected[0] != file_identity(status):
        return ""
    return f"{path} failed its checks ({rejected[1]}) and cannot be rebuilt: "


def file_bytes(shape: tuple[int, int], name: str, cells: tuple[tuple[int, ...], ...]) -> int:
    """Bytes the file of these groups takes, known before building: its tables at two entries
    a byte (every named partition packs so; a table whose values do not fit in four bits takes
    a byte an entry, which only the write can find out) and 4 KiB for its header."""
    tables = sum(table_bytes(shape, name, len(g), True) for g in cells)
    return tables + 64 * ALIGN


def _check_space(directory: Path, needed: int) -> None:
    """Refuse a build whose file would not fit, before it starts (7-8 builds for 80-130 s)."""
    try:
        free = shutil.disk_usage(directory).free
    except OSError:
        return  # cannot tell: writing the file will say
    if free < needed:
        raise NotEnoughSpaceError(directory, needed, free)


#: Seconds after which a build removes a temporary file of the cache that no build holds.
#:
#: A build writes its file under a temporary name (``.pdb-*.tmp``) and holds that file's lock
#: (``flock``) from creating it to renaming it into place; the system drops the lock when the
#: process dies, ``kill -9`` included, so an unlocked temporary file is a stopped build's. The
#: lock is chosen over the writer's process id in the name: ids are reused, and a cache shared
#: between containers or machines sees others' ids. The age covers the instant between
#: creating the file and locking it, and builds of older versions, which write without the
#: lock (their file's time changes with every write until its rename).
STALE_AFTER = 300.0


@dataclass(frozen=True)
class _Temporary:
    """A temporary file of the cache: whether a running build holds it, seconds since it was
    last written, and its bytes."""

    held: bool
    age: float
    size: int

    def describe(self) -> str:
        if self.held:
            return "being written by a running build"
        return (
            "left by a build that stopped; `fastpuzzle pdb clear` of its partition (or --all) "
            "removes it, and so does the "
            f"next build once it is {STALE_AFTER / 60:.0f} minutes old"
        )


def _temporary(path: Path) -> _Temporary | None:
    """What the temporary file ``path`` is, or None when it is gone or not a regular file."""
    try:
        with open_regular(path) as stream:
            held = not try_lock(stream.fileno())  # let go at once, by the close
            status = os.fstat(stream.fileno())
    except OSError:
        return None
    return _Temporary(held, time.time() - status.st_mtime, status.st_size)


def _temporaries(directory: Path) -> list[Path]:
    return sorted(directory.glob(".pdb-*.tmp")) if directory.is_dir() else []


def remove_stale_temporaries(directory: Path) -> None:
    """Remove the temporary files of stopped builds (see :data:`STALE_AFTER`): up to 275 MiB
    each, which nothing else would remove."""
    for path in _temporaries(directory):
        found = _temporary(path)
        if found is not None and not found.held and found.age >= STALE_AFTER:
            try:
                path.unlink(missing_ok=True)
            except OSError:
                continue  # the build itself says what keeps it from writing here


def build_pdb(
    partition: str | Partition = "6-6-3",
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    progress: bool | Progress = True,
    force: bool = False,
    deadline: float | None = None,
) -> Path:
    """Build a pattern database into the cache (unless a good file is already there).

    Parameters
    ----------
    partition : str or sequence of sequences of int
        ``"5-5-5"``, ``"6-6-3"`` or ``"7-8"`` (4x4), ``"6-6-6-6"`` (5x5),
        ``"5-5-5-5-5-5-5"`` (6x6), ``"auto"`` (the
        partition ``heuristic="pdb"`` uses on the shape, see :func:`default_partition`), or
        groups of goal cells.
    shape : (rows, cols)
        Board shape: two ints, at least 2 each, at most 64 cells; default: the named
        partition's shape, else 4x4.
    goal_blank : int, optional
        The goal's blank cell (default: the last cell).
    cache_dir : path, optional
        Overrides ``$FASTPUZZLE_CACHE`` and the user's cache directory.
    progress : bool or callable
        True: progress on stderr (on a terminal with tqdm installed, the ``progress`` extra, a
        bar per group with the time left; else a line per level); a callable receives each
        message; False: silent.
    force : bool
        Rebuild even when a good file exists.
    deadline : float, optional
        A :func:`time.monotonic` time by which the build must end; it is checked every
        2**18 states and between groups, and the build stops once it has passed.

    Returns
    -------
    Path
        The file.

    Raises
    ------
    PatternDatabaseError
        If the arguments are not valid, or the cache directory cannot take the file (checked
        before building; a file there that failed its checks is named).
    NotEnoughSpaceError
        If the cache's file system has less free space than the file takes (checked before
        building, once the temporary files of stopped builds are removed).
    BuildTimeLimitError
        If ``deadline`` passed first (nothing is written).
    """
    flag("force", force, error=PatternDatabaseError)
    if deadline is not None:
        real("deadline", deadline, error=PatternDatabaseError)
    resolved = resolve(partition, shape, goal_blank)
    return build_file(resolved, cache_dir, progress=progress, force=force, deadline=deadline)


def build_file(
    partition: ResolvedPartition,
    cache_dir: str | os.PathLike[str] | None,
    *,
    progress: bool | Progress = True,
    force: bool = False,
    deadline: float | None = None,
    part: str = "",
) -> Path:
    """:func:`build_pdb` of a resolved partition, its progress naming the file as ``part`` of a
    set (``"file 3 of 11 of pdb24"``) when given."""
    shape, blank, name, cells = (
        partition.shape, partition.goal_blank, partition.name, partition.groups,
    )  # fmt: skip
    path = Path(locate(partition, cache_dir))
    if not force and load(partition, cache_dir) is not None:
        return path
    label = f"{name} for {shape[0]}x{shape[1]} (goal blank {blank})" + (f", {part}" if part else "")
    started = time.monotonic()
    hint = _how_to_build(partition)
    _past(deadline, started, f"pattern database {label}", hint)
    problem = _cache_problem(path.parent, path)
    if problem is not None:
        raise PatternDatabaseError(_failed_checks(path) + problem)
    remove_stale_temporaries(path.parent)
    _check_space(path.parent, file_bytes(shape, name, cells))
    report: Progress | None
    if progress is True:
        report = _stderr_progress
    elif callable(progress):
        report = progress
    else:
        report = None
    if report is not None:
        report(f"fastpuzzle: building pattern database {label} into {path.parent}\n")
    tables = _build_tables(shape, blank, cells, label, report, deadline, hint, partition.zero_aware)
    try:
        write_file(path, shape, blank, name, cells, tables)
    except OSError as error:
        # What the check before the build cannot foresee: a full disk, a directory removed.
        raise PatternDatabaseError(f"cannot write {path}: {error.strerror or error}") from None
    if report is not None:
        report(
            f"fastpuzzle: pattern database {label} ready in {time.monotonic() - started:.1f} s\n"
        )
    return path


def load_or_build(
    partition: ResolvedPartition,
    *,
    build: bool,
    cache_dir: str | os.PathLike[str] | None = None,
    deadline: float | None = None,
) -> Database | None:
    """The tables of ``partition``, loaded, or (``build``) built into the cache first."""
    database = load(partition, cache_dir, deadline=deadline)
    if database is not None or not build:
        return database
    # Threads of one process (solve_many) wait for one build instead of each starting one, but
    # no longer than their deadline.
    waiting = time.monotonic()
    if not _BUILD_LOCK.acquire(timeout=-1 if deadline is None else max(0.0, deadline - waiting)):
        _stopped(
            waiting,
            f"pattern database {partition.asked or partition.name!r} (being built by another "
            "thread)",
            _how_to_build(partition),
        )
    try:
        database = load(partition, cache_dir)
        if database is not None:
            return database
        # Nobody asked to watch this build (solve() needs the table): its lines are records of
        # the library's logger, not text on stderr.
        build_file(partition, cache_dir, force=True, deadline=deadline, progress=_logged_progress)
    finally:
        _BUILD_LOCK.release()
    database = load(partition, cache_dir)
    if database is None:
        raise PatternDatabaseError(
            f"pattern database {partition.asked or partition.name!r} failed its checks after a "
            f"build ({locate(partition, cache_dir)})"
        )
    return database


def pdb_info(cache_dir: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """One entry per cache file: path, bytes, partition (its name, shape, goal blank and
    groups of goal cells), its header's ``format`` version, and whether it passes every check.

    Never blocks: anything but a regular file under a database's name (a FIFO, a directory) is
    listed as not valid, with what it is. Temporary files of builds (``.pdb-*.tmp``) come last,
    with ``temporary`` True and, as ``problem``, whether a running build is writing it or a
    stopped one left it (see :data:`STALE_AFTER`).
    """
    directory = pdb_cache_dir(cache_dir)
    out = []
    for path in sorted(directory.glob("pdb-*.fpdb")) if directory.is_dir() else []:
        entry: dict[str, Any] = {"path": str(path), "bytes": 0, "valid": False}
        try:
            entry["bytes"] = path.stat().st_size
            with open_table_file(path) as f:
                start = f.read(len(MAGIC) + 4) or b""
                length = int.from_bytes(start[len(MAGIC) :], "little")
                header = json.loads((f.read(min(length, 1 << 20)) or b"").decode())
            shape = (int(header["rows"]), int(header["cols"]))
            blank = int(header["goal_blank"])
            named = header["partition"]
            spec = named if named in NAMED_PARTITIONS.get(shape, {}) else header["cells"]
            if header.get("zero_aware") is True and not isinstance(spec, str):
                spec = ZeroAwareGroups(spec)
            resolved = resolve(spec, shape, blank)
            name, cells = resolved.name, resolved.groups
            entry.update(partition=name, shape=shape, goal_blank=blank, groups=cells)
            entry["format"] = header.get("version")
            read_valid(path, shape, blank, name, cells, keep=False)
            entry["valid"] = True
        except (FileCheckError, OSError, ValueError, KeyError, TypeError, FastPuzzleError) as error:
            entry["problem"] = str(error)
        out.append(entry)
    for path in _temporaries(directory):
        found = _temporary(path)
        if found is None and not path.exists():
            continue  # renamed into place, or removed, since the listing
        entry = {"path": str(path), "bytes": 0, "valid": False, "temporary": True}
        if found is None:
            entry["problem"] = "not a regular file"
        else:
            entry.update(bytes=found.size, problem=found.describe())
        out.append(entry)
    return out


def _held(path: Path) -> bool:
    # Whether path is a temporary file that a running build holds.
    found = _temporary(path) if path.name.endswith(".tmp") else None
    return found is not None and found.held


def clear_cache(
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    partition: str | Partition | None = None,
    shape: tuple[int, int] | None = None,
    goal_blank: int | None = None,
    all: bool = False,
    dry_run: bool = False,
) -> list[Path]:
    """Delete one partition's files from the cache, or with ``all=True`` every file; returns
    the paths deleted (with ``dry_run``: that would be).

    Parameters
    ----------
    cache_dir : path, optional
        Overrides ``$FASTPUZZLE_CACHE`` and the user's cache directory.
    partition : str or sequence of sequences of int, optional
        The tables to delete, named as for :func:`build_pdb` (or a file's partition name as
        :func:`pdb_info` gives it, ``custom-<digest>``: every file of that name; or a
        compound's name, as for
        :func:`~fastpuzzle.pdb.build_compound`: its one-group files, never its base
        partition's, which other heuristics read): that partition's file for
        ``shape`` (default: the named partition's shape, else 4x4) and ``goal_blank`` (default:
        every goal blank cell of a named partition; the last cell for groups of cells), with its
        companions: the tables of its dual lookups (:func:`fastpuzzle.pdb.dual.dual_tables`)
        and the temporary files of its stopped builds. Nothing else is touched; an empty list
        means none of it was there.
    all : bool
        Delete every pattern-database file of the cache, every temporary file a stopped build
        left, and the duplicate-pruning machines IDA* keeps beside them (``fsm-v*.npy``, rebuilt
        in a second when next needed). One of ``partition`` and ``all`` must be given.
    dry_run : bool
        Delete nothing; return what would be deleted.

    A directory under a database's name is left alone (:func:`pdb_info` lists it, and a build
    there says to remove it), and so is the temporary file of a build still writing it.

    Raises
    ------
    PatternDatabaseError
        If neither or both of ``partition`` and ``all`` are given, the partition is not one
        :func:`build_pdb` takes, or a file cannot be deleted.
    """
    flag("all", all, error=PatternDatabaseError)
    flag("dry_run", dry_run, error=PatternDatabaseError)
    directory = pdb_cache_dir(cache_dir)
    if (partition is None) == (not all):
        given = "not both" if all else "none was given"
        raise PatternDatabaseError(
            f"clear_cache() deletes one partition's tables (partition=...) or, with all=True, "
            f"every table in {directory}: {given}"
        )
    wanted = None
    if isinstance(partition, str) and CUSTOM_NAME.fullmatch(partition):
        wanted = _keys_named(directory, partition, shape, goal_blank)
    elif partition is not None:
        wanted = _keys_of(partition, shape, goal_blank)
    chosen: list[tuple[int, Path]] = []
    try:
        listed = sorted(directory.glob("pdb-*.fpdb")) if directory.is_dir() else []
        if wanted is None and directory.is_dir():
            listed += sorted(directory.glob("fsm-v*.npy"))
        for path in listed + _temporaries(directory):
            rank = 0 if wanted is None else _rank(path.name, wanted)
            if rank is not None and not (stat.S_ISDIR(os.lstat(path).st_mode) or _held(path)):
                chosen.append((rank, path))
        chosen.sort(key=lambda item: item[0])  # stable: a partition's own file first
        if not dry_run:
            for _, path in chosen:
                path.unlink(missing_ok=True)
    except OSError as error:
        raise PatternDatabaseError(
            f"cannot clear the pattern-database cache: {error.filename}: {error.strerror}"
        ) from None
    finally:
        if not dry_run:
            with _LOCK:
                _LOADED.clear()
                _REJECTED.clear()
    return [path for _, path in chosen]


#: A table's file name (any format version), and a temporary file's, which a build names
#: ``.{file name}.XXXXXXXX.tmp``.
_FILE_NAME = re.compile(r"\.?pdb-v[0-9]+-([0-9]+)x([0-9]+)-blank([0-9]+)-(.+?)\.fpdb(\..+\.tmp)?")

_Key = tuple[int, int, int, str]


def _rank(file: str, wanted: list[_Key]) -> int | None:
    """Where the table named ``file`` comes in ``wanted``; None when it is not there."""
    match = _FILE_NAME.fullmatch(file)
    if match is None or file.startswith(".") != (match.group(5) is not None):
        return None
    rows, cols, blank, name, _ = match.groups()
    key = (int(rows), int(cols), int(blank), name)
    return wanted.index(key) if key in wanted else None


def _keys_named(
    directory: Path, name: str, shape: tuple[int, int] | None, goal_blank: int | None
) -> list[_Key]:
    """The keys of the files in ``directory`` whose partition is called ``name`` (a file's
    name as :func:`pdb_info` lists it, ``custom-<digest>``), of ``shape`` and ``goal_blank``
    where given: the files of that name, whatever shape or goal blank they were built for."""
    keys: list[_Key] = []
    for path in sorted(directory.glob("*pdb-v*.fpdb*")) if directory.is_dir() else []:
        match = _FILE_NAME.fullmatch(path.name)
        if match is None or match.group(4) != name:
            continue
        key = (int(match.group(1)), int(match.group(2)), int(match.group(3)), name)
        if shape is not None and tuple(shape) != key[:2]:
            continue
        if goal_blank is not None and goal_blank != key[2]:
            continue
        if key not in keys:
            keys.append(key)
    return keys


def _keys_of(
    partition: str | Partition, shape: tuple[int, int] | None, goal_blank: int | None
) -> list[_Key]:
    """``(rows, cols, goal blank, name)`` of ``partition``'s tables, then of its dual lookups'
    tables: what :func:`clear_cache` deletes for it."""
    checked, blank = shape_and_blank(partition, shape, goal_blank)
    rows, cols = checked
    blanks = [blank]
    if goal_blank is None and isinstance(partition, str):
        blanks = list(range(rows * cols))  # a name stands for its tables for every goal blank
    mains: list[_Key] = []
    companions: list[_Key] = []
    if isinstance(partition, str) and partition in COMPOUNDS.get(checked, {}):
        # A compound's own tables: its one-group files. The base partition's file is kept
        # (6-6-6-6 serves pdb6666 and solve()).
        for cell in blanks:
            for source in compound_sources(partition, checked, cell):
                if not isinstance(source, str):
                    mains.append((rows, cols, cell, resolve(source, checked, cell).name))
        return mains
    for cell in blanks:
        resolved = resolve(partition, checked, cell)
        name, groups = resolved.name, resolved.groups
        mains.append((rows, cols, cell, name))
        if resolved.zero_aware:
            # Dual lookups read plain tables only: the companions of the same groups are the
            # plain partition's (6-6-6-6's for 6-6-6-6z), not this one's.
            continue
        for cells, region in zip(groups, walled_off(checked, cell, groups)):
            if region is not None:
                alone = resolve((cells,), checked, region).name
                companions.append((rows, cols, region, alone))
    return mains + companions
