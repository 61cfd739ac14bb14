"""A time limit holds while a search's tables are read from the cache (issue 43, item 5): the
first search of a process with a 0.05 s limit and 6-6-3 ended at up to 0.207 s, the rest of the
limit spent reading the table's 16 MiB. The read now goes on in the background past the limit,
for the next search, which finds the table read."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import fastpuzzle as fp
from fastpuzzle.pdb import store

BOARD = "8 6 7/2 5 4/3 _ 1"


@pytest.fixture
def slow_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """A cache of its own whose table reads wait for the event the test sets (set at the end
    too, so that no read is left waiting)."""
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    fp.search(BOARD, algorithm="idastar", heuristic="pdb")  # built once, without a limit
    monkeypatch.setattr(store, "_LOADED", {})
    release = threading.Event()
    reads: list[str] = []
    read = store.read_valid

    def waiting_read(*args: Any, **kwargs: Any) -> Any:
        reads.append(threading.current_thread().name)
        release.wait(5)
        reads.append("read")
        return read(*args, **kwargs)

    monkeypatch.setattr(store, "read_valid", waiting_read)
    release.reads = reads  # type: ignore[attr-defined]
    yield release
    release.set()


def test_a_time_limit_ends_the_wait_for_a_table_being_read(slow_reads: threading.Event) -> None:
    result = fp.search(BOARD, algorithm="idastar", heuristic="pdb", limits=fp.Limits(seconds=0.05))
    # Before: the search waited for the read, however long it took (here, for the event).
    assert result.status is fp.Status.TIME_LIMIT
    assert "read" not in slow_reads.reads  # type: ignore[attr-defined]
    # The read goes on: the next search finds the table, read once.
    slow_reads.set()
    solved = fp.search(BOARD, algorithm="idastar", heuristic="pdb", limits=fp.Limits(seconds=30))
    assert len(solved.unwrap()) == 31
    reads = slow_reads.reads  # type: ignore[attr-defined]
    assert len(reads) == 2 and reads[0] == "fastpuzzle.pdb.read"


def test_solve_says_the_table_was_not_read_in_time(slow_reads: threading.Event) -> None:
    with pytest.raises(fp.TimeLimitError, match="was not read within the time limit"):
        fp.solve(BOARD, heuristic="pdb", limits=fp.Limits(seconds=0.05))


def test_without_a_time_limit_the_table_is_read_in_the_calling_thread(
    slow_reads: threading.Event,
) -> None:
    slow_reads.set()
    assert len(fp.solve(BOARD, heuristic="pdb")) == 31
    assert slow_reads.reads == [threading.current_thread().name, "read"]  # type: ignore[attr-defined]
