"""``pdb clear NAME`` removes that table (and its dual-lookup companions) only; a bare clear
needs ``--all``; ``--dry-run`` lists. The same through ``clear_cache()`` (issue 32, item 1)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from fastpuzzle import pdb
from fastpuzzle.cli import main
from fastpuzzle.pdb.partitions import resolve, walled_off


def _companions(name: str, shape: tuple[int, int], cache: Path) -> list[Path]:
    """The files of ``name``'s dual lookups (the groups that wall the goal blank in)."""
    blank = shape[0] * shape[1] - 1
    groups = resolve(name, shape, blank).groups
    return [
        pdb.pdb_path((tuple(cells),), shape, region, cache)
        for cells, region in zip(groups, walled_off(shape, blank, groups))
        if region is not None
    ]


def _cache(tmp_path: Path) -> dict[str, Path]:
    """A cache holding stand-ins for 6-6-6-6 and its dual table, 7-8 and 6-6-3 (the clear looks
    at names, not contents), and a real table for 3x3."""
    files = {
        "6-6-6-6": pdb.pdb_path("6-6-6-6", cache_dir=tmp_path),
        "7-8": pdb.pdb_path("7-8", cache_dir=tmp_path),
        "6-6-3": pdb.pdb_path("6-6-3", cache_dir=tmp_path),
    }
    tmp_path.mkdir(exist_ok=True)
    for path in files.values():
        path.write_bytes(b"x" * 100)
    (dual,) = _companions("6-6-6-6", (5, 5), tmp_path)
    dual.write_bytes(b"y" * 50)
    files["dual"] = dual
    files["3x3"] = pdb.build_pdb("auto", (3, 3), cache_dir=tmp_path, progress=False)
    files["machine"] = tmp_path / "fsm-v2-4x4-d20-s16384.npy"  # IDA*'s, kept beside the tables
    files["machine"].write_bytes(b"z" * 10)
    return files


def _left(tmp_path: Path) -> set[str]:
    return {path.name for path in tmp_path.iterdir()}


def test_clear_name_removes_that_table_and_its_companions_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _cache(tmp_path)
    assert main(["pdb", "clear", "6-6-6-6", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert _left(tmp_path) == {files[k].name for k in ("7-8", "6-6-3", "3x3", "machine")}
    assert str(files["6-6-6-6"]) in out and str(files["dual"]) in out
    assert "dual-lookup table of 6-6-6-6" in out
    assert "removed 2 file(s)" in out


def test_clearing_the_zero_aware_twin_keeps_the_plain_dual_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 6-6-6-6z has the groups of 6-6-6-6 but no dual lookups: the dual table of those groups
    # is 6-6-6-6's (solve() reads it) and stays.
    files = _cache(tmp_path)
    zero = pdb.pdb_path("6-6-6-6z", cache_dir=tmp_path)
    zero.write_bytes(b"z" * 100)
    assert main(["pdb", "clear", "6-6-6-6z", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert not zero.exists() and "removed 1 file(s)" in out
    assert files["dual"].exists() and files["6-6-6-6"].exists()


def test_clear_of_a_table_never_built_says_so_and_removes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _cache(tmp_path)
    before = _left(tmp_path)
    assert main(["pdb", "clear", "5-5-5", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "no 5-5-5 table" in out and "nothing removed" in out
    assert _left(tmp_path) == before
    assert pdb.load_pdb("auto", (3, 3), cache_dir=tmp_path) is not None
    assert files["7-8"].exists()


def test_a_bare_clear_needs_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _cache(tmp_path)
    before = _left(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: nobody to ask
    assert main(["pdb", "clear", "--cache-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--all" in err and "6 file(s)" in err
    assert _left(tmp_path) == before
    assert main(["pdb", "clear", "--all", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "removed 6 file(s)" in out and "duplicate-pruning machine" in out
    assert _left(tmp_path) == set()


def test_a_bare_clear_on_a_terminal_asks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _cache(tmp_path)
    before = _left(tmp_path)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    assert main(["pdb", "clear", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "6 file(s)" in out and "nothing removed" in out
    assert _left(tmp_path) == before
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    assert main(["pdb", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert _left(tmp_path) == set()


def test_dry_run_lists_and_removes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _cache(tmp_path)
    before = _left(tmp_path)
    assert main(["pdb", "clear", "6-6-6-6", "--dry-run", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "would remove" in out and str(files["dual"]) in out and str(files["7-8"]) not in out
    assert main(["pdb", "clear", "--all", "--dry-run", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert all(str(path) in out for path in files.values())
    assert _left(tmp_path) == before


def test_clear_cache_by_partition_in_the_api(tmp_path: Path) -> None:
    files = _cache(tmp_path)
    with pytest.raises(pdb.PatternDatabaseError, match="all=True"):
        pdb.clear_cache(tmp_path)
    with pytest.raises(pdb.PatternDatabaseError, match="not both"):
        pdb.clear_cache(tmp_path, partition="7-8", all=True)
    assert pdb.clear_cache(tmp_path, partition="5-5-5") == []
    planned = pdb.clear_cache(tmp_path, partition="6-6-6-6", dry_run=True)
    assert planned == [files["6-6-6-6"], files["dual"]]
    assert files["6-6-6-6"].exists()
    assert pdb.clear_cache(tmp_path, partition="6-6-6-6") == planned
    assert pdb.clear_cache(tmp_path, partition="auto", shape=(3, 3)) == [files["3x3"]]
    assert pdb.clear_cache(tmp_path, partition="7-8", goal_blank=0) == []  # another goal's
    assert _left(tmp_path) == {files[k].name for k in ("7-8", "6-6-3", "machine")}
    removed = sorted(pdb.clear_cache(tmp_path, all=True))
    assert removed == sorted(files[k] for k in ("7-8", "6-6-3", "machine"))
    assert _left(tmp_path) == set()


def test_clear_name_covers_every_goal_blank_and_leftover_temporaries(tmp_path: Path) -> None:
    other = pdb.pdb_path("7-8", goal_blank=0, cache_dir=tmp_path)
    mine = pdb.pdb_path("7-8", cache_dir=tmp_path)
    keep = pdb.pdb_path("7-8b", cache_dir=tmp_path)
    tmp_path.mkdir(exist_ok=True)
    stopped = tmp_path / f".{mine.name}.abcd1234.tmp"  # what a killed build of 7-8 leaves
    foreign = tmp_path / f".{keep.name}.abcd1234.tmp"
    for path in (other, mine, keep, stopped, foreign):
        path.write_bytes(b"z")
    removed = pdb.clear_cache(tmp_path, partition="7-8")
    assert set(removed) == {other, mine, stopped}
    assert _left(tmp_path) == {keep.name, foreign.name}
