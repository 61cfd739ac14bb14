"""The test session's own pattern-database cache: tests never write into the user's.

Before any test runs, ``$FASTPUZZLE_CACHE`` is pointed at a temporary folder for the session (and
the processes tests start inherit it). The tables already built in the user's cache are copied
into it, so that a session does not rebuild them (copies, not links: a test that damages a table
file must not reach the user's); whatever the tests build or break stays in the temporary folder,
which goes at the end of the session.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

#: The cache the user had before the session (``$FASTPUZZLE_CACHE`` or the default), and the
#: session's own.
USER_CACHE: Path | None = None
SESSION_CACHE: Path | None = None


def pytest_configure(config: pytest.Config) -> None:
    global USER_CACHE, SESSION_CACHE
    from fastpuzzle.pdb import pdb_cache_dir

    USER_CACHE = pdb_cache_dir()
    SESSION_CACHE = Path(tempfile.mkdtemp(prefix="fastpuzzle-test-cache-"))
    if USER_CACHE.is_dir():
        for table in sorted(USER_CACHE.glob("pdb-*.fpdb")):
            if table.is_file() and not table.is_symlink():
                shutil.copy2(table, SESSION_CACHE / table.name)
    os.environ["FASTPUZZLE_CACHE"] = str(SESSION_CACHE)


def pytest_unconfigure(config: pytest.Config) -> None:
    if SESSION_CACHE is not None:
        shutil.rmtree(SESSION_CACHE, ignore_errors=True)
