"""Atomic writes: a file appears under its name whole, or not at all.

Readers of a result or a pattern database may open the file at any moment, and several writers
may race for one name, so a file is written under a temporary name in the same directory (a
rename within one file system is atomic), synced to disk, then renamed over the target. On any
error, Ctrl-C included, the temporary file is removed and the target is left as it was.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

__all__ = ["atomic_writer", "write_text_atomically"]


@contextmanager
def atomic_writer(path: str | os.PathLike[str], *, suffix: str = "") -> Iterator[BinaryIO]:
    """A binary stream whose contents replace ``path`` when the block ends without an error.

    Parameters
    ----------
    path : path
        The file to write; its directory must exist.
    suffix : str
        Ending of the temporary file's name (``.{name}.XXXXXXXX{suffix}`` beside ``path``).

    Yields
    ------
    BinaryIO
        The open temporary file.
    """
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=suffix
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; what is written here is for reading
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
