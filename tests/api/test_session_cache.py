"""The tests' own pattern-database cache (tests/conftest.py): never the user's."""

import os
import subprocess
import sys
from pathlib import Path

import fastpuzzle as fp
from tests import conftest


def test_the_session_has_its_own_cache_and_subprocesses_inherit_it():
    # Before: tests built and damaged tables in the user's $FASTPUZZLE_CACHE (or
    # ~/.cache/fastpuzzle): a 6-6-3 build, corrupt files of the fault tests.
    assert conftest.SESSION_CACHE is not None and conftest.USER_CACHE is not None
    assert fp.pdb_cache_dir() == conftest.SESSION_CACHE != conftest.USER_CACHE
    assert Path(os.environ["FASTPUZZLE_CACHE"]) == conftest.SESSION_CACHE
    child = subprocess.run(
        [sys.executable, "-c", "import fastpuzzle as fp; print(fp.pdb_cache_dir())"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert Path(child.stdout.strip()) == conftest.SESSION_CACHE


def test_a_table_built_by_a_test_lands_in_the_session_cache():
    before = set(conftest.USER_CACHE.glob("*")) if conftest.USER_CACHE.is_dir() else set()
    path = fp.build_pdb([(0, 1), (2,)], (2, 2), progress=False)
    assert Path(path).parent == conftest.SESSION_CACHE
    after = set(conftest.USER_CACHE.glob("*")) if conftest.USER_CACHE.is_dir() else set()
    assert after == before
