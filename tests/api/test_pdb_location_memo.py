"""Every solve looks its pattern database up; the memos that make that cheap never go stale.

Where a database's file lives is memoised on the environment variables that choose the cache
directory, and a loaded database on its file's identity, so a changed ``$FASTPUZZLE_CACHE`` or a
file rebuilt, rewritten or deleted on disk is seen by the very next call. Everything builds into
temporary directories, on 2x4 boards whose tables take milliseconds.
"""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from tests.oracle import distances_from

SHAPE = (2, 4)
PARTITION = ((0, 1, 4), (2, 3, 5, 6))
GOAL = (1, 2, 3, 4, 5, 6, 7, 0)


def _boards(count: int) -> list[tuple[int, ...]]:
    distances = distances_from(GOAL, *SHAPE)
    return random.Random(5).sample(sorted(distances), count)


def _summary(board: tuple[int, ...]) -> tuple[str, int, int, int]:
    solution = fp.solve(fp.Board(list(board), shape=SHAPE), heuristic="pdb")
    stats = solution.stats
    return solution.moves, stats.expanded, stats.generated, stats.depth


def _empty_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FASTPUZZLE_CACHE", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)


def test_load_follows_fastpuzzle_cache_between_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(first))
    built = pdb.build_pdb(PARTITION, SHAPE, progress=False)
    database = pdb.load_pdb(PARTITION, SHAPE)
    assert database is not None
    assert built.parent == first and database.path == built
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(second))
    assert pdb.pdb_path(PARTITION, SHAPE).parent == second
    assert pdb.load_pdb(PARTITION, SHAPE) is None
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(first))
    assert pdb.load_pdb(PARTITION, SHAPE) is database


def test_path_follows_every_variable_of_the_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = pdb.pdb_path("6-6-3", cache_dir=tmp_path).name
    _empty_cache(monkeypatch)
    for home in ("one", "two"):
        monkeypatch.setenv("HOME", str(tmp_path / home))
        assert pdb.pdb_path("6-6-3") == tmp_path / home / ".cache" / "fastpuzzle" / name
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pdb.pdb_path("6-6-3") == tmp_path / "xdg" / "fastpuzzle" / name
    monkeypatch.setenv("FASTPUZZLE_CACHE", "")
    assert pdb.pdb_path("6-6-3") == tmp_path / "xdg" / "fastpuzzle" / name
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path / "env"))
    assert pdb.pdb_path("6-6-3") == tmp_path / "env" / name
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    assert pdb.pdb_path("6-6-3") == tmp_path / "env" / name
    # Without $HOME the home directory comes from the password database.
    _empty_cache(monkeypatch)
    monkeypatch.delenv("HOME")
    assert pdb.pdb_path("6-6-3") == pdb.pdb_cache_dir() / name


def test_solve_follows_fastpuzzle_cache_between_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = _boards(1)[0]
    found = []
    for directory in (tmp_path / "first", tmp_path / "second", tmp_path / "first"):
        monkeypatch.setenv("FASTPUZZLE_CACHE", str(directory))
        found.append(_summary(board))
        assert [path.parent for path in directory.glob("pdb-*.fpdb")] == [directory]
    assert found[0] == found[1] == found[2]


def test_rebuilt_file_is_mapped_again(tmp_path: Path) -> None:
    path = pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    database = pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path)
    assert database is not None
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is database
    assert pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False, force=True) == path
    again = pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path)
    assert again is not None and again is not database
    for (_, _, _, old), (_, _, _, new) in zip(database.groups, again.groups):
        assert bytes(old) == bytes(new)


def test_file_changed_in_place_is_checked_again(tmp_path: Path) -> None:
    path = pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is not None
    before = path.stat()
    with path.open("r+b") as f:  # same inode, same size: only the time tells
        f.seek(-1, os.SEEK_END)
        last = f.read(1)
        f.seek(-1, os.SEEK_END)
        f.write(bytes([last[0] ^ 1]))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is None


def test_deleted_file_is_noticed_and_rebuilt_by_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    caplog.set_level(logging.INFO, logger="fastpuzzle")
    board = _boards(1)[0]
    first = _summary(board)
    assert "building pattern database" in caplog.text
    caplog.clear()
    assert _summary(board) == first
    assert caplog.text == ""
    (path,) = tmp_path.glob("pdb-*.fpdb")
    path.unlink()
    assert _summary(board) == first
    assert "building pattern database" in caplog.text
    assert path.exists()


def test_repeated_solves_give_the_same_optimal_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    distances = distances_from(GOAL, *SHAPE)
    boards = _boards(40)
    first = [_summary(board) for board in boards]
    assert [len(moves) for moves, *_ in first] == [distances[board] for board in boards]
    assert [_summary(board) for board in boards] == first


def test_partitions_of_any_form_name_the_same_file(tmp_path: Path) -> None:
    as_tuples = pdb.pdb_path(PARTITION, SHAPE, cache_dir=tmp_path)
    as_lists = pdb.pdb_path([list(group) for group in PARTITION], SHAPE, cache_dir=str(tmp_path))
    assert as_lists == as_tuples
    assert pdb.pdb_path(PARTITION, SHAPE, 7, tmp_path) == as_tuples


def test_errors_are_raised_on_every_call() -> None:
    for _ in range(2):
        with pytest.raises(pdb.PatternDatabaseError, match="unknown partition '6-6-3' for 3x3"):
            pdb.load_pdb("6-6-3", (3, 3))
        with pytest.raises(pdb.PatternDatabaseError, match="expected disjoint non-empty groups"):
            pdb.load_pdb(((0, 1), (1, 2)), SHAPE)


@pytest.mark.parametrize(
    "valid, refused",
    [
        ((PARTITION, SHAPE), (PARTITION, (2.0, 4.0))),
        ((PARTITION, SHAPE), (((False, 1, 4), (2, 3, 5, 6)), SHAPE)),
        (("auto", (3, 3)), ("auto", (3.0, 3.0))),
    ],
    ids=["float-sides", "bool-cell", "auto-float-sides"],
)
def test_a_value_equal_to_a_remembered_one_is_still_checked(
    tmp_path: Path, valid: tuple[object, object], refused: tuple[object, object]
) -> None:
    # 2.0 == 2 and False == 0 as keys: the memo must not answer for an argument the checks
    # refuse, however recently an equal valid one was resolved.
    pdb.pdb_path(*valid, cache_dir=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(pdb.PatternDatabaseError, match="expected"):
        pdb.pdb_path(*refused, cache_dir=tmp_path)  # type: ignore[arg-type]
