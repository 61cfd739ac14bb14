"""Pattern-database files and builds that misbehave (issue 14): files changed under a search,
things other than files at the cache path, builds past their deadline, bad arguments."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _pdb
from fastpuzzle._core._checksum import Xxh64
from fastpuzzle._problem import make_problem
from fastpuzzle._util.units import size
from fastpuzzle.cli import main
from fastpuzzle.pdb import store, walking

# 52 moves (tests/data/random50.tsv, id 1): IDA* with 5-5-5 expands a few hundred thousand nodes,
# so the progress callback (every 65,536 expansions) runs mid-search.
BOARD_4X4 = (11, 5, 8, 7, 9, 15, 2, 0, 3, 13, 12, 1, 14, 10, 6, 4)
LENGTH_4X4 = 52

# A tiny database for tests that only need a file.
SHAPE = (2, 4)
PARTITION = ((0, 1, 4), (2, 3, 5, 6))


def _run(code: str, cache: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    # In a child: a SIGBUS or a hang there fails this test instead of killing or stalling pytest.
    env = dict(os.environ, FASTPUZZLE_CACHE=str(cache))
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the child hung for {timeout} s")


# ---------------------------------------------------------------------------------------------
# 1. A file changed while its tables are in use.


@pytest.mark.parametrize("change", ["truncate", "delete", "rewrite"])
def test_a_file_changed_during_a_search_changes_nothing(tmp_path: Path, change: str) -> None:
    # Truncation used to kill the process with SIGBUS (the tables were a shared memory map);
    # a rewrite in place fed the search garbage, which then ran to its time limit.
    done = _run(
        f"""
        import os
        import fastpuzzle as fp
        from fastpuzzle import pdb
        path = pdb.build_pdb("5-5-5", progress=False)
        calls = []

        def change(*_):
            if not calls:
                if {change!r} == "truncate":
                    os.truncate(path, 4096)
                elif {change!r} == "delete":
                    os.unlink(path)
                else:
                    with open(path, "r+b") as f:
                        f.seek(4096)
                        f.write(b"\\xff" * (os.path.getsize(path) - 4096))
            calls.append(1)

        # One thread: its progress comes every 65,536 expansions, so mid-search for sure.
        solution = fp.solve({BOARD_4X4}, heuristic="pdb555", progress=change,
                            limits=fp.Limits(seconds=30), workers=1)
        print(len(solution), len(calls))
        """,
        tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    length, calls = map(int, done.stdout.split())
    assert length == LENGTH_4X4
    assert calls >= 1


def test_loaded_tables_are_the_checked_bytes_not_the_file(tmp_path: Path) -> None:
    path = pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    database = pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path)
    assert database is not None
    before = [bytes(table) for _, _, _, table in database.groups]
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(size // 2)
        f.write(b"\xff" * (size - size // 2))
    os.truncate(path, 100)
    assert [bytes(table) for _, _, _, table in database.groups] == before
    # The file itself is checked again, and refused.
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is None


# ---------------------------------------------------------------------------------------------
# 2. Something other than a regular file at a database's path, or an unusable cache directory.


def test_a_fifo_at_the_cache_path_is_replaced_by_solve_without_hanging(tmp_path: Path) -> None:
    fifo = pdb.pdb_path("5-5-5", cache_dir=tmp_path)
    os.mkfifo(fifo)
    done = _run(
        f"""
        import fastpuzzle as fp
        print(len(fp.solve({BOARD_4X4}, heuristic="pdb555", limits=fp.Limits(seconds=30))))
        """,
        tmp_path,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout) == LENGTH_4X4
    assert stat.S_ISREG(fifo.stat().st_mode)


def test_pdb_info_names_a_fifo_without_hanging(tmp_path: Path) -> None:
    pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    fifo = tmp_path / "pdb-v1-4x4-blank15-5-5-5.fpdb"
    os.mkfifo(fifo)
    (tmp_path / "pdb-v1-4x4-blank15-6-6-3.fpdb").mkdir()
    done = _run("from fastpuzzle.cli import main; main(['pdb', 'info'])", tmp_path, timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "INVALID (not a regular file: a FIFO)" in done.stdout
    assert "INVALID (not a regular file: a directory)" in done.stdout
    assert done.stdout.count(" ok") == 1
    # Clearing removes the FIFO and leaves the directory, which is not ours to delete.
    assert len(pdb.clear_cache(tmp_path, all=True)) == 2
    assert not fifo.exists() and (tmp_path / "pdb-v1-4x4-blank15-6-6-3.fpdb").is_dir()


def _refused_before_building(match: str, **where: object) -> None:
    said: list[str] = []
    started = time.monotonic()
    with pytest.raises(pdb.PatternDatabaseError, match=match) as caught:
        pdb.build_pdb("6-6-3", progress=said.append, **where)  # type: ignore[arg-type]
    # 6-6-3 takes seconds to build: refused before, in one line, without a build message.
    assert time.monotonic() - started < 1.0
    assert said == []
    assert "\n" not in str(caught.value)


def test_a_directory_at_the_path_is_refused_before_building(tmp_path: Path) -> None:
    path = pdb.pdb_path("6-6-3", cache_dir=tmp_path)
    path.mkdir()
    _refused_before_building(re.escape(f"{path} is a directory"), cache_dir=tmp_path)


def test_a_cache_that_is_a_file_is_refused_before_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    cache.write_text("not a directory")
    _refused_before_building(re.escape(f"directory {cache} is not a directory"), cache_dir=cache)
    _refused_before_building("cannot create the pattern-database cache", cache_dir=cache / "sub")
    # Through solve(), with FASTPUZZLE_CACHE: the same error, not FileExistsError after a build.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(cache))
    with pytest.raises(pdb.PatternDatabaseError, match="FASTPUZZLE_CACHE"):
        fp.solve(BOARD_4X4, heuristic="pdb663")


def test_a_cache_that_cannot_be_written_is_refused_before_building(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    # An immutable directory binds root too; plain permissions only bind other users.
    immutable = subprocess.run(["chattr", "+i", str(cache)], capture_output=True).returncode == 0
    if not immutable:
        if os.geteuid() == 0:
            pytest.skip("chattr +i is not available, and root ignores permission bits")
        cache.chmod(0o555)
    try:
        _refused_before_building(
            f"cannot write into the pattern-database cache directory {cache}", cache_dir=cache
        )
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(cache)], check=True)
        cache.chmod(0o755)


# ---------------------------------------------------------------------------------------------
# 4. Builds honour a deadline.


def test_a_build_stops_at_its_deadline_and_writes_nothing(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(pdb.BuildTimeLimitError, match=r"6-6-3 .* not ready within") as caught:
        pdb.build_pdb("6-6-3", cache_dir=tmp_path, progress=False, deadline=started + 0.3)
    elapsed = time.monotonic() - started
    assert elapsed < 2.0  # the whole build takes several seconds
    assert isinstance(caught.value, fp.TimeLimitError)
    assert caught.value.stats.expanded == 0
    assert 0.2 < caught.value.stats.seconds <= elapsed
    assert list(tmp_path.iterdir()) == []


def test_a_build_whose_deadline_has_passed_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(pdb.BuildTimeLimitError):
        pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, deadline=time.monotonic() - 1)
    assert list(tmp_path.iterdir()) == []
    # A file already there is loaded whatever the deadline: only building is limited.
    pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    assert pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, deadline=time.monotonic() - 1)


def test_database_for_passes_its_deadline_to_the_build(tmp_path: Path) -> None:
    with pytest.raises(fp.TimeLimitError):
        pdb.database_for("6-6-3", (4, 4), 15, tmp_path, deadline=time.monotonic() + 0.2)
    assert list(tmp_path.iterdir()) == []
    database = pdb.database_for("5-5-5", (4, 4), 15, tmp_path, deadline=time.monotonic() + 60)
    assert database.name == "5-5-5"


def test_waiting_for_another_threads_build_stops_at_the_deadline(tmp_path: Path) -> None:
    with store._BUILD_LOCK:  # as while another thread of solve_many builds
        started = time.monotonic()
        with pytest.raises(pdb.BuildTimeLimitError, match="being built by another thread"):
            pdb.database_for("6-6-3", (4, 4), 15, tmp_path, deadline=started + 0.2)
        assert time.monotonic() - started < 1.0


def test_walking_tables_stop_at_their_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walking, "_BUILT", {})
    # 2x6: the columns' abstraction has 367,560 states, a build of a second or more.
    problem = make_problem(fp.Board([*range(1, 12), 0], shape=(2, 6)))
    started = time.monotonic()
    with pytest.raises(pdb.BuildTimeLimitError, match="walking-distance tables of 6 lines"):
        pdb.walking_tables(problem, deadline=started + 0.1)
    assert time.monotonic() - started < 1.0
    # Not remembered: a later search with more time builds them (the rows' 2 lines were built).
    assert [key for key in walking._BUILT if key[0] == 6] == []


def test_walking_distance_too_big_is_known_without_searching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The columns of 2x8 have 16.9 M states: the search gave up after 500,000 of them, seconds
    # into a time limit; counting says so at once.
    monkeypatch.setattr(walking, "_BUILT", {})
    problem = make_problem(fp.Board([*range(1, 16), 0], shape=(2, 8)))
    started = time.monotonic()
    tables = pdb.walking_tables(problem, deadline=started + 0.5)
    assert time.monotonic() - started < 0.5
    assert tables.vertical.next is not None and tables.horizontal.next is None


@pytest.mark.heavy
def test_walking_state_counts_match_the_search() -> None:
    for lines in range(2, 9):
        for width in range(2, 9):
            count = walking._walking_states(lines, width, 30_000)
            if lines * width > 16 or count > 30_000:
                continue
            for goal_line in range(lines):
                states, _, _ = _pdb.walking_table(lines, width, goal_line, 40_000)
                assert len(states) == count, (lines, width, goal_line)
    # Larger ones, as counted by the search once (seconds each): 2x6's columns are built, 2x7's
    # are not.
    assert walking._walking_states(6, 2, 500_000) == 367_560
    assert walking._walking_states(7, 2, 500_000) > 500_000


# ---------------------------------------------------------------------------------------------
# 5. Arguments checked before anything is built.


@pytest.mark.parametrize(
    "shape",
    [(1, 3), (1, 4), (3, 1), ("3", "3"), (0, 0), (3,), (3, 3, 3), (2.0, 3), (True, 3), (9, 8), 9],
)
def test_bad_shapes_are_refused(tmp_path: Path, shape: object) -> None:
    with pytest.raises(pdb.PatternDatabaseError, match=r"shape|rows|cells"):
        pdb.build_pdb("auto", shape, cache_dir=tmp_path, progress=False)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("goal_blank", [1.5, 2.0, True, -1, 8, "3", np.float64(1)])
def test_bad_goal_blanks_are_refused(tmp_path: Path, goal_blank: object) -> None:
    with pytest.raises(pdb.PatternDatabaseError, match="goal_blank"):
        pdb.build_pdb("auto", SHAPE, goal_blank, cache_dir=tmp_path, progress=False)  # type: ignore[arg-type]
    with pytest.raises(pdb.PatternDatabaseError, match="goal_blank"):
        pdb.load_pdb("auto", SHAPE, goal_blank, cache_dir=tmp_path)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_numpy_ints_are_plain_ints_to_the_cache(tmp_path: Path) -> None:
    path = pdb.build_pdb("auto", (np.int64(2), np.int64(4)), np.int64(3), tmp_path, progress=False)
    assert path == pdb.pdb_path("auto", (2, 4), 3, tmp_path)
    assert [entry["valid"] for entry in pdb.pdb_info(tmp_path)] == [True]


def test_command_line_refuses_a_zero_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pdb", "build", "auto", "--shape", "0", "0", "--cache-dir", str(tmp_path)]) == 2
    assert "at least 2 rows and 2 columns" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# 6. Temporary files of builds that were killed; a full disk; a damaged file in a read-only cache.


_STUCK_WRITER = """
import os, sys, time
from fastpuzzle import pdb
def stuck(fd):  # the tables are written: wait here, as a slow disk would, until killed
    print("writing", flush=True)
    time.sleep(120)
os.fsync = stuck
pdb.build_pdb({partition!r}, {shape!r}, cache_dir=sys.argv[1], progress=False)
"""


def _stuck_writer(cache: Path) -> subprocess.Popen[str]:
    """A child process whose build has written its temporary file and waits before renaming it."""
    code = _STUCK_WRITER.format(partition=PARTITION, shape=SHAPE)
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(cache)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "writing\n"
    return child


def _temporaries(cache: Path) -> list[Path]:
    return sorted(cache.glob(".pdb-*.tmp"))


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_a_killed_builds_temporary_file_is_listed_then_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: kill -9 during a write left the temporary file (275 MiB for 7-8) for good, and
    # pdb info did not show it.
    child = _stuck_writer(tmp_path)
    child.kill()
    child.wait()
    (left,) = _temporaries(tmp_path)
    assert main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    shown = size(left.stat().st_size)  # MiB, KiB: the unit every size of the command takes
    assert f"{left}  {shown}  TEMPORARY (left by a build that stopped" in out
    (entry,) = pdb.pdb_info(tmp_path)
    assert entry["temporary"] is True and entry["valid"] is False
    # A build removes it once it is older than any build could leave it unlocked.
    _age(left, store.STALE_AFTER + 60)
    pdb.build_pdb("auto", SHAPE, cache_dir=tmp_path, progress=False)
    assert _temporaries(tmp_path) == []


def test_a_running_builds_temporary_file_is_left_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    child = _stuck_writer(tmp_path)
    try:
        (writing,) = _temporaries(tmp_path)
        _age(writing, store.STALE_AFTER + 60)  # old, but its writer holds it
        assert main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
        assert "TEMPORARY (being written by a running build)" in capsys.readouterr().out
        pdb.build_pdb("auto", SHAPE, cache_dir=tmp_path, progress=False)
        # The table just built, not the one being written.
        assert len(pdb.clear_cache(tmp_path, all=True)) == 1
        assert _temporaries(tmp_path) == [writing]
    finally:
        child.kill()
        child.wait()
    # A stopped build's file that is not old yet: kept by builds, removed by clear.
    _age(writing, 0)
    pdb.build_pdb("auto", SHAPE, cache_dir=tmp_path, progress=False)
    assert _temporaries(tmp_path) == [writing]
    assert len(pdb.clear_cache(tmp_path, all=True)) == 2
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_is_refused_before_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: found when the file was written, after the whole build (80-130 s for 7-8).
    import shutil

    real = shutil.disk_usage

    def nearly_full(path: str) -> Any:
        return real(path)._replace(free=5 << 20)  # 6-6-3 takes 16 MiB

    monkeypatch.setattr(shutil, "disk_usage", nearly_full)
    _refused_before_building(
        re.escape(f"needs 16.0 MiB free in {tmp_path}, which has 5.0 MiB"), cache_dir=tmp_path
    )
    with pytest.raises(pdb.NotEnoughSpaceError) as caught:
        pdb.build_pdb("6-6-3", cache_dir=tmp_path, progress=False)
    assert caught.value.free == 5 << 20 and caught.value.needed > 16 << 20
    assert caught.value.directory == tmp_path
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_file_in_a_read_only_cache_is_named_as_damaged(tmp_path: Path) -> None:
    # Before: only "cannot write into the pattern-database cache directory", as if nothing were
    # there; the file that failed its checks was not mentioned.
    cache = tmp_path / "cache"
    path = pdb.build_pdb("auto", SHAPE, cache_dir=cache, progress=False)  # what "pdb" takes
    os.truncate(path, path.stat().st_size - 1)
    immutable = subprocess.run(["chattr", "+i", str(cache)], capture_output=True).returncode == 0
    if not immutable:
        if os.geteuid() == 0:
            pytest.skip("chattr +i is not available, and root ignores permission bits")
        cache.chmod(0o555)
    try:
        for build in (
            lambda: pdb.build_pdb("auto", SHAPE, cache_dir=cache, progress=False),
            lambda: pdb.database_for("auto", SHAPE, SHAPE[0] * SHAPE[1] - 1, cache),
        ):
            with pytest.raises(pdb.PatternDatabaseError) as caught:
                build()
            message = str(caught.value)
            assert f"{path} failed its checks (file length differs" in message
            assert f"cannot write into the pattern-database cache directory {cache}" in message
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(cache)], check=True)
        cache.chmod(0o755)


# ---------------------------------------------------------------------------------------------
# Issue 53, item 2: tables that lie with a valid checksum.


def _raised(path: Path, share: float, seed: int = 53) -> None:
    # Entries of the tables raised (one move or more past what they were), and the checksum of
    # the new tables written into the header, as a crafted file would.
    data = bytearray(path.read_bytes())
    header_length = int.from_bytes(data[8:12], "little")
    header = json.loads(data[12 : 12 + header_length])
    begin = header["payload_offset"]
    payload = np.frombuffer(bytes(data[begin:]), dtype=np.uint8).copy()
    chosen = np.random.default_rng(seed).random(len(payload)) < share
    payload[chosen] = np.minimum(payload[chosen], 0xEE) + 0x11  # both entries of a byte
    # The checksum of the file's format (format 2: XXH64; tests/core/test_checksum.py checks
    # the compiled one against a reference).
    assert header["version"] == 2
    checksum = Xxh64()
    checksum.update(payload)
    digest = checksum.hexdigest()
    encoded = bytes(data[12 : 12 + header_length]).replace(
        header["checksum"].encode(), digest.encode()
    )
    path.write_bytes(
        bytes(data[:12]) + encoded + bytes(data[12 + header_length : begin]) + payload.tobytes()
    )


@pytest.mark.heavy
@pytest.mark.parametrize("share", [1.0, 0.02])
def test_a_table_raised_under_a_recomputed_checksum_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    # Before: 6-6-3 with 0x11 added to its bytes and the digest rewritten answered 8 of 8
    # random boards too long with optimal=True (50 -> 56); 2 % of bytes raised, 8 of 30.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    path = pdb.build_pdb("5-5-5", progress=False)
    _raised(path, share)
    assert pdb.load_pdb("5-5-5") is None
    # Refused by the distance checks, not by its checksum (which _raised recomputed).
    from fastpuzzle.pdb import store

    reason = store._REJECTED[str(path)][1]
    assert "checksum" not in reason, reason
    solution = fp.solve(fp.Board(BOARD_4X4), algorithm="idastar", heuristic="pdb555")
    assert solution.optimal and len(solution.moves) == LENGTH_4X4  # random50.tsv's length
    assert pdb.load_pdb("5-5-5") is not None  # rebuilt, and checked again
