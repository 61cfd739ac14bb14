"""A batch on a cache without the table its boards read (issue 53, item 9): the table is built
once, before the boards, outside their time limits, and every board gets its row.

Before: each board started the build within its own time limit and threw it away there; a
batch of packed boards ended with the build's error and no row at all (exit status 2)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.batch import run as batch_run
from fastpuzzle.errors import FastPuzzleWarning
from tests.instances import hard


def _cache_files(cache: Path) -> list[str]:
    return sorted(path.name for path in cache.glob("pdb-*.fpdb"))


def test_a_batch_with_a_time_limit_on_a_fresh_cache_gives_a_row_per_board(
    tmp_path: Path,
) -> None:
    cases = hard()[:5]
    source = tmp_path / "hard.txt"
    source.write_text("".join(" ".join(map(str, case.tiles)) + "\n" for case in cases))
    cache = tmp_path / "cache"
    cache.mkdir()
    env = {**os.environ, "FASTPUZZLE_CACHE": str(cache)}
    command = [sys.executable, "-m", "fastpuzzle", "batch", str(source), "--no-progress"]
    done = subprocess.run(
        [*command, "--time-limit", "0.5", "--workers", "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 1, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("index,board,length,lower_bound,status,")
    rows = [line.split(",") for line in lines[1:]]
    assert [int(row[0]) for row in rows] == list(range(len(cases)))
    for row, case in zip(rows, cases):
        # A row stopped by its limit, or the published optimal length on a machine fast enough.
        assert row[4] in ("time_limit", "solved"), row
        assert row[4] == "time_limit" or int(row[2]) == int(row[3]) == case.optimal_length
    # The table was built once, before the boards, and is kept.
    assert done.stderr.count("building pattern database 6-6-3") == 1, done.stderr
    assert "once, before the batch's 5 boards" in done.stderr
    assert "pattern database 6-6-3 for 4x4 (goal blank 15) ready in" in done.stderr
    assert _cache_files(cache) == ["pdb-v1-4x4-blank15-6-6-3.fpdb"]


@pytest.mark.parametrize("packed", [True, False], ids=["packed", "boards"])
def test_solve_many_builds_the_shared_table_once_before_its_boards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, packed: bool
) -> None:
    # 2x7's table builds in a fraction of a second, far past a limit of a millisecond a board.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    boards = [fp.random_board((2, 7), rng=seed) for seed in range(6)]
    rows = np.array([b.packed for b in boards], dtype=np.uint64) if packed else boards
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fp.solve_many(rows, shape=(2, 7), limits=fp.Limits(seconds=1e-3), workers=2)
    told = [w for w in caught if issubclass(w.category, FastPuzzleWarning)]
    assert len(told) == 1 and "once, before the batch's 6 boards" in str(told[0].message)
    assert told[0].filename == __file__  # said where solve_many was called
    assert len(_cache_files(tmp_path)) == 1
    assert len(result) == len(boards)
    for board, status, moves in zip(boards, result.status, result.moves):
        assert status in ("time_limit", "solved")
        if status == "solved":
            assert board.apply(moves) == fp.Board.goal((2, 7))
    # With the table there, a second batch says nothing and builds nothing.
    with warnings.catch_warnings():
        warnings.simplefilter("error", FastPuzzleWarning)
        again = fp.solve_many(rows, shape=(2, 7), workers=1)
    assert again.solved.all()


def test_a_batch_of_boards_that_read_no_table_builds_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    boards = [fp.scramble(fp.Board.goal((2, 7)), 12, rng=seed) for seed in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", FastPuzzleWarning)
        fast = fp.solve_many(boards, optimal=False, workers=1)
        named = fp.solve_many(boards, heuristic="walking_distance", workers=1)
        nothing = fp.solve_many([], shape=(2, 7))
    assert fast.solved.all() and named.solved.all() and len(nothing) == 0
    assert _cache_files(tmp_path) == []


def test_a_table_not_ready_within_a_boards_limit_is_that_rows_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where a board still meets the build (a cache emptied during the batch, a Dask worker with
    # its own cache), its row says time_limit: the build's error ended the batch of packed
    # boards with no row.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    monkeypatch.setattr(batch_run, "fetch_shared_tables", lambda rows, spec: None)
    boards = np.array([fp.random_board((2, 7), rng=seed).packed for seed in range(3)], np.uint64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FastPuzzleWarning)
        result = fp.solve_many(boards, shape=(2, 7), limits=fp.Limits(seconds=1e-3), workers=1)
    assert list(result.status) == ["time_limit"] * 3
    assert all("not ready within the time limit" in message for message in result.messages)
