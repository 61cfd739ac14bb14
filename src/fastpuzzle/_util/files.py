"""Files written whole and read without blocking.

Atomic writes: a file appears under its name whole, or not at all. Readers of a result or a
pattern database may open the file at any moment, and several writers may race for one name, so
a file is written under a temporary name in the same directory (a rename within one file system
is atomic), synced to disk, then renamed over the target. On any error, Ctrl-C included, the
temporary file is removed and the target is left as it was.

Reads of files that anyone may have put in a directory (a cache, a batch's output folder) open
only regular files: a FIFO under a file's name would block the reader until some writer came,
and a device could be endless.

Locks are taken on an open file without waiting: ``flock`` on POSIX systems, a lock of the file's
first byte (``msvcrt.locking``) on Windows. They belong to the open file, and the system drops
them when the process ends, however it ends (``kill -9`` included), so a lock is never left
behind by a dead process. (filelock, which locks a path it opens itself, truncating it on
Windows, cannot lock the very file being written, which is what tells a running writer's
temporary file from a dead one's here.)
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from fastpuzzle._util.checks import optional_path, shown
from fastpuzzle.errors import InvalidOptionError

__all__ = [
    "UNWRITABLE_ERRNOS",
    "NotRegularFileError",
    "atomic_writer",
    "file_kind",
    "lock_file",
    "open_regular",
    "read_regular",
    "try_lock",
    "unwritable_file",
    "writable_file",
    "write_text_atomically",
]


@contextlib.contextmanager
def atomic_writer(
    path: str | os.PathLike[str], *, suffix: str = "", lock: bool = False, sync: bool = True
) -> Iterator[BinaryIO]:
    """A binary stream whose contents replace ``path`` when the block ends without an error.

    Parameters
    ----------
    path : path
        The file to write; its directory must exist.
    suffix : str
        Ending of the temporary file's name (``.{name}.XXXXXXXX{suffix}`` beside ``path``).
    lock : bool
        Hold the temporary file's lock (:func:`try_lock`) until it is renamed into place, so
        that a cleaner can tell it from one a killed writer left (the system drops the lock
        with its process): the file is locked before it has its name (it is created as
        ``...{suffix}.locking``, which no cleaner looks for), so a file found under the name
        is either locked or dead. It is renamed while still open, which Windows does not allow:
        there, and by default, it is closed first, and there it is locked an instant after it
        is created under its name (cleaners also wait for a file to be seconds old).
    sync : bool
        Sync the file to disk before the rename (the default). ``False`` only for files that
        are never trusted unread: after a system crash such a file may be there empty or
        partly written (the rename can reach the disk before the data), so its reader must
        check it whole (a batch's chunk files carry a SHA-256 that is). Either way no reader
        ever sees a partly written file while the system runs.

    Yields
    ------
    BinaryIO
        The open temporary file.
    """
    target = Path(path)
    # Windows renames no open file: there the lock ends with the close, just before the rename
    # (a cleaner also waits for the file to be minutes old).
    renamed_open = lock and sys.platform != "win32"
    if target.is_dir():  # before anything is written (the rename would refuse it at the end)
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", os.fspath(path))
    try:
        handle, temporary = _temporary_file(target, suffix, locked=renamed_open)
    except OSError as error:
        raise _about(error, path) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            if lock and not renamed_open:
                # A cleaner may hold it for an instant to see whether it is held: wait for it.
                # A file system without locks (some network ones) still takes the file.
                with contextlib.suppress(OSError):
                    try_lock(handle, wait=True)
            yield stream
            stream.flush()
            if sync:
                os.fsync(stream.fileno())
            if renamed_open:
                _publish(temporary, target)
        if not renamed_open:
            _publish(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError) and temporary in (error.filename, error.filename2):
            raise _about(error, path) from None
        raise


#: The ending of a locked temporary file's name until it holds its lock (:func:`atomic_writer`).
_LOCKING = ".locking"


def _temporary_file(target: Path, suffix: str, *, locked: bool) -> tuple[int, str]:
    """A new file beside ``target``, open for writing: ``.{name}.XXXXXXXX{suffix}``, and with
    ``locked`` holding its lock (where the file system has locks) before it has that name."""
    prefix = f".{target.name}."
    if not locked:
        return tempfile.mkstemp(dir=target.parent, prefix=prefix, suffix=suffix)
    while True:
        handle, locking = tempfile.mkstemp(
            dir=target.parent, prefix=prefix, suffix=suffix + _LOCKING
        )
        named = locking[: -len(_LOCKING)]
        try:
            with contextlib.suppress(OSError):  # a file system without locks still takes it
                try_lock(handle)
            # Only a writer that held this ``.locking`` name before can have taken ``named``:
            # none can while this one holds it, so the name stays free until the rename.
            if not os.path.lexists(named):
                os.rename(locking, named)
                return handle, named
        except BaseException:
            os.close(handle)
            Path(locking).unlink(missing_ok=True)
            raise
        os.close(handle)
        Path(locking).unlink(missing_ok=True)


#: Why no file can be created in a folder that exists (permissions, a read-only mount, a virtual
#: file system such as /proc or /sys, a folder gone meanwhile): the path's fault, told before
#: any work. Other errors (a full disk) stay OSErrors.
UNWRITABLE_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT,
                               errno.ENOTDIR, errno.ENAMETOOLONG, errno.EINVAL})  # fmt: skip

#: The bytes :func:`atomic_writer`'s temporary file adds to the name, besides its suffix: a dot
#: before, eight characters between two dots, and :data:`_LOCKING`.
_TEMPORARY_EXTRA = 10 + len(_LOCKING)


def unwritable_file(path: str | os.PathLike[str], *, suffix: str | None = None) -> str | None:
    """Why no file can be written at ``path`` whatever it holds (a directory is there, its
    folder does not exist, its name is longer than the folder's file system takes), or None:
    checked before the work whose result goes there, so that a wrong path costs nothing but the
    message. With ``suffix``, the name of :func:`atomic_writer`'s temporary file with that
    suffix must fit too."""
    text = os.fspath(path)
    if os.path.isdir(text):
        return f"{text} is a directory; name the file to write in it"
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        return f"{folder} is not a directory, so {text} cannot be written"
    size = len(os.fsencode(os.path.basename(text)))
    longest = _longest_name(folder)
    extra = 0 if suffix is None else _TEMPORARY_EXTRA + len(os.fsencode(suffix))
    if size + extra > longest:
        room = f"{longest} bytes"
        if extra:
            room = f"{longest - extra} bytes (its temporary file's name is {extra} longer)"
        return f"the file name is {size:,} bytes long, and {folder} takes names of at most {room}"
    # Only a file made there tells: permissions, a read-only mount, and virtual file systems
    # such as /proc (whose folders exist but take no new file) all pass the checks above.
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".fastpuzzle-", suffix=".probe")
    except OSError as error:
        if error.errno not in UNWRITABLE_ERRNOS:
            raise
        return f"no file can be written at {shown(text)} ({os.strerror(error.errno).lower()})"
    os.close(handle)
    Path(probe).unlink(missing_ok=True)
    return None


def writable_file(name: str, path: object) -> Path:
    """``path`` (a str or ``os.PathLike``) as a Path where a file can be written, checked before
    the work whose result goes there (:func:`unwritable_file`).

    Raises
    ------
    InvalidOptionError
        Naming ``name`` and quoting ``path``, if it is not a path or no file can be written
        there.
    """
    try:
        target = optional_path(name, path)
    except InvalidOptionError:
        target = None
    if target is None:
        raise InvalidOptionError(
            f"expected {name} as a path (a non-empty str or os.PathLike), got {shown(path)}"
        )
    problem = unwritable_file(target)
    if problem is not None:
        raise InvalidOptionError(f"{name}: {problem}")
    return target


def _longest_name(folder: str) -> int:
    """The longest file name, in bytes, that ``folder``'s file system takes (255 where the
    system does not say: Windows, and the usual Linux and macOS ones)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, ValueError, OSError):
        return 255


def _about(error: OSError, path: str | os.PathLike[str]) -> OSError:
    """``error`` (of the temporary file beside ``path``) told of ``path``, the file the caller
    named: a message about ``.rows.csv.x1y2z3`` would name a file the user never saw."""
    if error.errno is None:
        return error
    return OSError(error.errno, error.strerror, os.fspath(path))


def _publish(temporary: str, target: Path) -> None:
    os.chmod(temporary, 0o644)  # mkstemp makes it private; what is written here is for reading
    os.replace(temporary, target)


def write_text_atomically(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file renamed into place.

    Parameters
    ----------
    path : path
        The file to write; its directory must exist.
    text : str
        The contents; newlines are written as the platform writes text files.

    Returns
    -------
    Path
        ``path``.
    """
    target = Path(path)
    with atomic_writer(target) as stream:
        wrapper = io.TextIOWrapper(stream, encoding="utf-8")
        wrapper.write(text)
        wrapper.detach()  # flushes, and leaves the stream open for atomic_writer to sync
    return target


class NotRegularFileError(OSError):
    """Something other than a regular file (a FIFO, a directory, a device) is where a file was
    to be read; ``kind`` says what, in words, and ``path`` where."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        # Not OSError's filename: with it set, str() would print "[Errno None] None: path".
        super().__init__(f"not a regular file: {kind}")
        self.path = os.fspath(path)
        self.kind = kind


def file_kind(mode: int) -> str:
    """What a ``st_mode`` that is not a regular file's is, in words (``"a FIFO"``)."""
    for test, kind in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return kind
    return "not a regular file"


def open_regular(path: str | os.PathLike[str]) -> io.FileIO:
    """``path`` open for reading if it is a regular file; never blocks.

    O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer; fstat on the
    open descriptor then tells what was opened (no race with a rename in between).

    Parameters
    ----------
    path : path
        The file to open.

    Returns
    -------
    io.FileIO
        The file, open for reading in binary.

    Raises
    ------
    NotRegularFileError
        Something else is at ``path``.
    OSError
        It cannot be opened (missing, no permission).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(path, file_kind(mode))
        return io.FileIO(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of ``path`` if it is a regular file (see :func:`open_regular`); never blocks.

    Parameters
    ----------
    path : path
        The file to read.

    Returns
    -------
    bytes
        Its contents.

    Raises
    ------
    NotRegularFileError
        Something else is at ``path``.
    OSError
        It cannot be opened or read.
    """
    with open_regular(path) as stream:
        return stream.readall()


def try_lock(fd: int, *, wait: bool = False) -> bool:
    """Take the exclusive lock of the open file ``fd`` if no other open file holds it.

    Parameters
    ----------
    fd : int
        An open descriptor (read-only will do).
    wait : bool
        Wait for the lock rather than give up at once.

    Returns
    -------
    bool
        Whether this descriptor holds the lock now (until it is closed).
    """
    if sys.platform == "win32":
        return _lock_first_byte(fd, wait=wait)
    import fcntl  # POSIX only: Windows has no flock

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


#: Seconds between two tries of a lock waited for on Windows (``msvcrt`` waits in steps too).
_LOCK_RETRY = 0.05


def _lock_first_byte(fd: int, *, wait: bool) -> bool:
    """Windows' lock of an open file (it has no ``flock``): its first byte, locked through
    ``fd`` (``msvcrt.locking``, the call filelock makes); the file position is kept."""
    import msvcrt  # Windows only

    position = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            except OSError:
                if not wait:
                    return False
                time.sleep(_LOCK_RETRY)
                continue
            return True
    finally:
        os.lseek(fd, position, os.SEEK_SET)


def _names(fd: int, path: str | os.PathLike[str]) -> bool:
    # Whether ``path`` still names the file open as ``fd``.
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def _open_lock(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        if error.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        # Read-only here (a read-only mount, an immutable file): a lock taken through a
        # read-only descriptor still excludes the writers that can write here.
        try:
            return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise error from None


def lock_file(path: str | os.PathLike[str]) -> int | None:
    """Open the lock file ``path`` (created, with its directory, if missing) and take its
    exclusive lock without waiting.

    Parameters
    ----------
    path : path
        The lock file.

    Returns
    -------
    int or None
        The descriptor holding the lock (close it to release the lock; it is open read-only
        where the file cannot be written), or None when another open file holds it: another
        process, or another open of this process.

    Raises
    ------
    OSError
        The file cannot be opened, nor created (``PermissionError`` in a directory this process
        cannot write).
    """
    target = Path(path)
    while True:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = _open_lock(target)
        try:
            if not try_lock(fd):
                os.close(fd)
                return None
            # Its last holder may have removed the file (a finished batch removes its folder)
            # between the open and the lock: the lock would guard a file nobody else can open
            # any more, so the name is opened again.
            if _names(fd, target):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
