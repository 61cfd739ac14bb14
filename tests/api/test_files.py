"""Atomic writes: the target is replaced whole, or left as it was with nothing else behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from fastpuzzle._util import files
from fastpuzzle._util.files import unwritable_file, writable_file
from fastpuzzle.errors import InvalidOptionError


def test_text_is_written_readable_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    assert files.write_text_atomically(str(target), "a,b\n1,é\n") == target
    assert target.read_bytes() == "a,b\n1,é\n".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert os.listdir(tmp_path) == ["out.csv"]


def test_the_stream_is_renamed_into_place_only_at_the_end(tmp_path: Path) -> None:
    target = tmp_path / "table.bin"
    target.write_bytes(b"old")
    with files.atomic_writer(target, suffix=".tmp") as stream:
        stream.write(b"new")
        (temporary,) = (name for name in os.listdir(tmp_path) if name != "table.bin")
        assert temporary.startswith(".table.bin.") and temporary.endswith(".tmp")
        assert target.read_bytes() == b"old"
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["table.bin"]


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError, UnicodeEncodeError])
def test_an_error_keeps_the_old_file_and_removes_the_temporary(
    tmp_path: Path, error: type[BaseException]
) -> None:
    target = tmp_path / "result.csv"
    target.write_text("old")
    with pytest.raises(error):
        if error is UnicodeEncodeError:
            files.write_text_atomically(target, "half\ud800")
        else:
            with files.atomic_writer(target) as stream:
                stream.write(b"half")
                raise error
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["result.csv"]


def test_writing_results_does_not_import_the_pictures() -> None:
    code = (
        "import sys, tempfile, pathlib, numpy as np; import fastpuzzle as fp; "
        "d = pathlib.Path(tempfile.mkdtemp()); "
        "r = fp.solve_many(np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8]]), out=d / 'run'); "
        "r.to_csv(d / 'a.csv'); fp.compare('1 2 3/4 5 6/7 0 8', ['bfs']).to_csv(d / 'b.csv'); "
        "assert 'fastpuzzle.render' not in sys.modules; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "ok"


def test_only_regular_files_are_read_and_nothing_blocks(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"bytes")
    os.mkfifo(tmp_path / "fifo")  # with no writer: a plain open() would wait for one forever
    (tmp_path / "folder").mkdir()
    assert files.read_regular(tmp_path / "file") == b"bytes"
    for name, kind in (("fifo", "a FIFO"), ("folder", "a directory")):
        with pytest.raises(files.NotRegularFileError, match=f"not a regular file: {kind}$") as e:
            files.read_regular(tmp_path / name)
        assert e.value.kind == kind and e.value.path == str(tmp_path / name)
        assert isinstance(e.value, OSError)
    with pytest.raises(FileNotFoundError):
        files.open_regular(tmp_path / "missing")


def test_a_lock_file_is_held_once_and_let_go_on_close(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "lock"
    fd = files.lock_file(path)
    assert fd is not None and path.is_file()
    try:
        assert files.lock_file(path) is None  # another open file, even in this process
    finally:
        os.close(fd)
    again = files.lock_file(path)
    assert again is not None
    os.close(again)


def test_a_lock_file_removed_before_it_is_locked_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As when the batch that held it removed its folder between this open and this lock: a
    # lock on the removed file would exclude nobody.
    path = tmp_path / "run" / "lock"
    real = files.try_lock
    calls: list[int] = []

    def removed_first(fd: int, *, wait: bool = False) -> bool:
        if not calls:
            path.unlink()
            path.parent.rmdir()
        calls.append(fd)
        return real(fd, wait=wait)

    monkeypatch.setattr(files, "try_lock", removed_first)
    fd = files.lock_file(path)
    assert fd is not None and len(calls) == 2
    try:
        assert os.fstat(fd).st_ino == path.stat().st_ino
    finally:
        os.close(fd)


def test_a_locked_writer_holds_its_temporary_file_until_the_rename(tmp_path: Path) -> None:
    target = tmp_path / "table.bin"
    with files.atomic_writer(target, suffix=".tmp", lock=True) as stream:
        stream.write(b"new")
        (temporary,) = tmp_path.iterdir()
        with files.open_regular(temporary) as other:
            assert not files.try_lock(other.fileno())
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["table.bin"]


def test_chunk_files_are_renamed_into_place_without_a_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A batch's chunk files are checked whole before they are trusted, so they skip the sync
    # (6 ms a file on the development machine); every other file is synced before its rename.
    import fastpuzzle as fp

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    with files.atomic_writer(tmp_path / "plain.txt", sync=False) as stream:
        stream.write(b"rows")
    assert (tmp_path / "plain.txt").read_bytes() == b"rows" and synced == []
    files.write_text_atomically(tmp_path / "synced.txt", "rows")
    assert len(synced) == 1
    fp.solve_many(
        fp.random_boards(30, (3, 3), rng=1), shape=(3, 3), out=tmp_path / "run", chunk_size=10
    )
    assert len(synced) == 2  # the manifest only: three chunk files and three check files not


def test_a_lock_is_taken_on_windows_too(tmp_path, monkeypatch):
    # Before (issue 47, item 9): on Windows (no flock) try_lock took nothing and said it held
    # the lock, so two batches could write one folder and a cleaner could not tell a running
    # writer's file. There it locks the file's first byte (msvcrt.locking); checked here
    # through a stand-in for msvcrt, as this machine has none.
    import sys
    import types

    from fastpuzzle._util import files

    calls = []
    held = {"by": None}

    def locking(fd, mode, count):
        calls.append((os.lseek(fd, 0, os.SEEK_CUR), mode, count))
        if held["by"] is not None and held["by"] != fd:
            raise OSError(36, "resource deadlock avoided")
        held["by"] = fd

    fake = types.SimpleNamespace(LK_NBLCK=2, LK_LOCK=1, locking=locking)
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.setattr(sys, "platform", "win32")
    path = tmp_path / "lock"
    path.write_bytes(b"0123456789")
    first, second = os.open(path, os.O_RDWR), os.open(path, os.O_RDWR)
    try:
        os.lseek(first, 5, os.SEEK_SET)
        assert files.try_lock(first) is True
        assert os.lseek(first, 0, os.SEEK_CUR) == 5  # its position is kept
        assert files.try_lock(second) is False  # held through another open file
        assert calls == [(0, 2, 1), (0, 2, 1)]  # the first byte, without waiting
    finally:
        os.close(first)
        os.close(second)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc (not Linux)")
def test_a_folder_that_takes_no_new_file_is_unwritable_and_nothing_is_left(tmp_path):
    assert "no file can be written at '/proc/x.gif'" in (unwritable_file("/proc/x.gif") or "")
    assert unwritable_file(tmp_path / "x.gif") is None
    assert not list(tmp_path.iterdir())  # the probe file is gone
    with pytest.raises(InvalidOptionError, match=r"out: no file can be written at '/proc/x\.gif'"):
        writable_file("out", "/proc/x.gif")
    assert writable_file("out", str(tmp_path / "x.gif")) == tmp_path / "x.gif"
