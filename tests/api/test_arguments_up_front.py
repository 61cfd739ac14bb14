"""Arguments checked up front, and inputs read within bounds (issue 37, items 5 and 6):
``--shape`` before any line is read, ``solve_many(out=...)`` before any board is solved,
``scramble`` in bounded memory, and a batch file without line ends refused."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main
from fastpuzzle.cli.boards import MAX_LINE


def _boards(tmp_path: Path) -> Path:
    source = tmp_path / "boards.txt"
    source.write_text("1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/_ 7 8\n")
    return source


@pytest.mark.parametrize(
    ("shape", "says"),
    [
        (["99999999999999999999", "2"], "at most 100 rows"),
        (["3", "99999999999999999999"], "at most 100 rows"),
        (["0", "3"], "at least 2 rows"),
        (["-3", "3"], "at least 2 rows"),
    ],
)
@pytest.mark.parametrize("command", ["batch", "solve", "compare", "random", "scramble"])
def test_a_shape_out_of_range_is_one_error_before_any_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: list[str], says: str, command: str
) -> None:
    source = str(_boards(tmp_path))
    args = {"batch": [source], "solve": ["1 2 3/4 5 6/7 _ 8"], "compare": ["1 2 3/4 5 6/7 _ 8"]}
    assert main([command, *args.get(command, []), "--shape", *shape]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines == [f"fastpuzzle: error: --shape: {lines[0].split('--shape: ', 1)[1]}"]
    assert says in lines[0] and captured.out == ""


def _run_batch(source: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fastpuzzle", "batch", source],
        input=stdin,
        capture_output=True,
        timeout=60,
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="/dev/zero")
def test_a_batch_file_without_line_ends_is_refused_not_read_forever() -> None:
    started = time.monotonic()
    done = _run_batch("/dev/zero")
    assert done.returncode == 2
    assert b"line 1 is longer than 1,048,576 characters" in done.stderr
    assert b"Traceback" not in done.stderr
    assert time.monotonic() - started < 30
    piped = _run_batch("-", stdin=b"1 2 3/4 5 6/7 _ 8\n" + b"7" * (MAX_LINE + 5))
    assert piped.returncode == 2 and b"line 2 is longer" in piped.stderr


def test_long_lines_up_to_the_bound_are_read(tmp_path: Path) -> None:
    # A 100x100 board on one line is far below the bound.
    board = fp.random_board((100, 100), rng=3)
    assert len(board.to_string()) < MAX_LINE // 10
    source = tmp_path / "wide.txt"
    source.write_text(" " * (MAX_LINE - 20) + "1 2 3/4 5 6/7 _ 8\n")
    assert main(["batch", str(source), "--no-progress"]) == 0


@pytest.mark.parametrize(
    ("out", "error", "says"),
    [
        ("", fp.InvalidOptionError, "non-empty"),
        ("bad\0name", fp.InvalidOptionError, "non-empty"),
        ("afile", fp.BatchFileError, "is a file, not a directory"),
        ("afile/sub", fp.BatchFileError, "cannot create the out= directory"),
        ("fifo", fp.BatchFileError, "is a FIFO, not a directory"),
    ],
)
def test_an_out_that_is_no_directory_is_refused_typed_before_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: str, error: type, says: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    boards = np.array([fp.random_board((3, 3), rng=1).packed], dtype=np.uint64)
    with pytest.raises(error, match=says):
        fp.solve_many(boards, shape=(3, 3), out=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "fifo"]


def test_a_cache_dir_of_no_name_is_refused() -> None:
    with pytest.raises(fp.pdb.PatternDatabaseError, match="non-empty"):
        fp.pdb_cache_dir("")


def test_a_long_scramble_takes_bounded_memory() -> None:
    # It held about 4.4 bytes a move: 10**9 moves ran out of memory (an untyped MemoryError).
    moves = 20_000_000
    tracemalloc.start()
    try:
        walked = fp.scramble(fp.Board.goal((4, 4)), moves, rng=5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, peak
    assert walked.is_solvable()


def test_a_scramble_in_chunks_is_the_walk_drawn_in_one_piece() -> None:
    from fastpuzzle import generate
    from fastpuzzle._core import _board

    start, count, chunk = fp.Board.goal((4, 4)), 3 * 2**20 + 7, 1 << 20
    generator = np.random.default_rng(5)
    codes = np.empty(count, dtype=np.uint8)
    blank, last = start.blank, -1
    for first in range(0, count, chunk):
        part = codes[first : first + chunk]
        draws = generator.integers(0, 2**64, size=len(part), dtype=np.uint64, endpoint=False)
        blank, last = _board.random_walk_codes(4, 4, blank, draws, part, last)
    whole = start.apply(codes.tobytes().translate(generate._LETTERS).decode("ascii"))
    assert fp.scramble(start, count, rng=5) == whole
