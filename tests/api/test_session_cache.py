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


def test_a_default_run_copies_only_the_small_tables(tmp_path):
    # Before (issue 47, item 9): every session copied the user's whole cache into /tmp, about
    # 3 GB with the 5x5 tables, which only slow tests read.
    user, session = tmp_path / "user", tmp_path / "session"
    user.mkdir()
    session.mkdir()
    (user / "pdb-v1-4x4-blank15-6-6-3.fpdb").write_bytes(b"small")
    with open(user / "pdb-v1-4x4-blank15-7-8.fpdb", "wb") as big:
        big.truncate(conftest.SMALL_TABLE + 1)  # sparse: no disk
    conftest.copy_tables(user, session, large=False)
    assert {p.name for p in session.iterdir()} == {"pdb-v1-4x4-blank15-6-6-3.fpdb"}
    conftest.copy_tables(user, session, large=True)
    assert len(list(session.iterdir())) == 2


def test_the_slow_rule_reads_the_marker_expression():
    class Config:
        def __init__(self, expression: str) -> None:
            self.expression = expression

        def getoption(self, name, default=None):  # type: ignore[no-untyped-def]
            return self.expression

    assert not conftest._slow_tests_run(Config("not slow"))  # type: ignore[arg-type]
    assert conftest._slow_tests_run(Config("slow"))  # type: ignore[arg-type]
    assert conftest._slow_tests_run(Config(""))  # type: ignore[arg-type]


def test_the_default_cache_follows_the_platform(monkeypatch, tmp_path):
    # Issue 47, item 9: the platform's convention (platformdirs), Linux's ~/.cache/fastpuzzle
    # unchanged, $XDG_CACHE_HOME honoured.
    import platformdirs

    from fastpuzzle.pdb import store

    monkeypatch.delenv("FASTPUZZLE_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert fp.pdb_cache_dir() == tmp_path / ".cache" / "fastpuzzle"
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert fp.pdb_cache_dir() == tmp_path / "xdg" / "fastpuzzle"
    asked = []

    def elsewhere(name, appauthor=None):  # type: ignore[no-untyped-def]
        asked.append((name, appauthor))
        return str(tmp_path / "Caches" / name)

    monkeypatch.setattr(platformdirs, "user_cache_dir", elsewhere)
    assert store.pdb_cache_dir() == tmp_path / "Caches" / "fastpuzzle"
    assert asked == [("fastpuzzle", False)]
