"""A ``write_labelled`` killed mid-write leaves its hidden ``.NAME.XXXXXXXX.partial``; the next
write of that file removes it, and never the file of a writer still running (issue 37, item 6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fastpuzzle as fp

pq = pytest.importorskip("pyarrow.parquet")

_WRITER = """
import sys
import fastpuzzle as fp
fp.write_labelled(sys.argv[1], 10**7, (4, 4), rng=1, chunk_size=2000, workers=1)
"""


def _partials(folder: Path) -> list[Path]:
    return sorted(folder.glob(".boards.parquet.*.partial"))


def _writer(path: Path) -> subprocess.Popen[bytes]:
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(path)])
    deadline = time.monotonic() + 60
    while not _partials(path.parent):
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    return child


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 and flock")
def test_the_next_write_removes_a_killed_writers_partial_file(tmp_path: Path) -> None:
    path = tmp_path / "boards.parquet"
    child = _writer(path)
    child.send_signal(signal.SIGKILL)
    child.wait()
    (left,) = _partials(tmp_path)
    os.utime(left, (time.time() - 60, time.time() - 60))
    fp.write_labelled(path, 20, rng=2)
    assert _partials(tmp_path) == []
    assert pq.read_table(path).num_rows == 20


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_running_writers_partial_file_is_left_to_it(tmp_path: Path) -> None:
    path = tmp_path / "boards.parquet"
    child = _writer(path)
    try:
        (running,) = _partials(tmp_path)
        os.utime(running, (time.time() - 60, time.time() - 60))  # old, but held
        fp.write_labelled(path, 20, rng=2)
        assert _partials(tmp_path) == [running]
    finally:
        child.kill()
        child.wait()
