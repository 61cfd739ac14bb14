"""Data sets streamed to Parquet: optimal labels, the boards of random_boards, one chunk in
memory, a file that is whole or absent, and the partial file of a killed writer removed by the
next write."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from tests.oracle import distances_3x3, distances_from

pq = pytest.importorskip("pyarrow.parquet")


def _check_rows(table, shape, goal):
    """Every row: its tiles are its board, its moves an optimal solution, its first move theirs."""
    rows, cols = shape
    truth = distances_from(goal.tiles, rows, cols)
    words = table["packed"].to_numpy()
    tiles = np.array(table["tiles"].to_pylist())
    cells = (words[:, None] >> (4 * np.arange(rows * cols, dtype=np.uint64))) & np.uint64(15)
    assert (tiles == cells).all()
    for word, length, moves, first in zip(
        words.tolist(),
        table["length"].to_pylist(),
        table["moves"].to_pylist(),
        table["first_move"].to_pylist(),
    ):
        board = fp.Board.from_packed(word, shape)
        assert length == truth[board.tiles] == len(moves)
        assert board.apply(moves) == goal and first == moves[:1]


def test_3x3_rows_are_random_boards_with_optimal_labels(tmp_path):
    path = tmp_path / "boards.parquet"
    assert fp.write_labelled(path, 2500, (3, 3), rng=7, chunk_size=700) == path
    table = pq.read_table(path)
    assert table.column_names == [
        "packed",
        "tiles",
        "length",
        "moves",
        "first_move",
        "optimal_mask",
    ]
    assert pq.ParquetFile(path).metadata.num_row_groups == 4  # a row group a chunk
    # The boards of random_boards with the same seed, whatever the chunk size: all different
    # (the default where the space allows).
    expected = fp.random_boards(2500, (3, 3), rng=7, unique=True)
    assert np.array_equal(table["packed"].to_numpy(), expected)
    distances = distances_3x3()
    words = table["packed"].to_numpy().tolist()
    lengths = [distances[fp.Board.from_packed(w, (3, 3)).tiles] for w in words]
    assert table["length"].to_pylist() == lengths
    _check_rows(table.slice(0, 300), (3, 3), fp.Board.goal((3, 3)))
    assert table.schema.metadata[b"fastpuzzle.shape"] == b"3x3"


def test_any_goal_and_rectangles(tmp_path):
    goal = fp.Board("_ 1 2 3/4 5 6 7")
    fp.write_labelled(tmp_path / "rect.parquet", 300, (2, 4), rng=1, goal=goal, chunk_size=128)
    table = pq.read_table(tmp_path / "rect.parquet")
    assert table.num_rows == 300
    _check_rows(table, (2, 4), goal)
    # The goal itself has length 0 and no first move.
    fp.write_labelled(tmp_path / "tiny.parquet", 200, (2, 2), rng=3, unique=False)
    tiny = pq.read_table(tmp_path / "tiny.parquet")
    at_goal = [row for row in tiny.to_pylist() if row["length"] == 0]
    assert at_goal and all(row["moves"] == row["first_move"] == "" for row in at_goal)


def test_progress_is_told_each_chunk(tmp_path):
    seen = []
    fp.write_labelled(
        tmp_path / "p.parquet",
        1000,
        (3, 3),
        rng=1,
        chunk_size=300,
        progress=lambda *a: seen.append(a),
    )
    assert seen == [(300, 1000), (600, 1000), (900, 1000), (1000, 1000)]


def test_a_stopped_data_set_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    from fastpuzzle import datasets

    path = tmp_path / "boards.parquet"
    path.write_bytes(b"the old data set")
    real = datasets.solve_many
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(datasets, "solve_many", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fp.write_labelled(path, 1000, (3, 3), rng=1, chunk_size=200)
    assert path.read_bytes() == b"the old data set"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boards.parquet"]
    monkeypatch.setattr(datasets, "solve_many", real)
    # A board not solved within the limits stops the data set the same way, with its error.
    with pytest.raises(fp.NodeLimitError, match="board 0 was not solved"):
        fp.write_labelled(path, 5, (4, 4), rng=1, limits=fp.Limits(nodes=1))
    assert path.read_bytes() == b"the old data set"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boards.parquet"]


def test_a_folder_is_no_path(tmp_path):
    with pytest.raises(fp.InvalidOptionError, match="expected path as the path of a file"):
        fp.write_labelled(tmp_path, 10, (3, 3))


def test_unique_rows_and_every_optimal_first_move(tmp_path):
    # Before: 100,000 rows of 3x3 held 76,854 distinct boards (23 % repeats) and no column of
    # every optimal move.
    path = tmp_path / "unique.parquet"
    fp.write_labelled(path, 100_000, (3, 3), rng=1, unique=True, chunk_size=30_000)
    table = pq.read_table(path)
    words = table["packed"].to_numpy()
    assert len(np.unique(words)) == 100_000
    assert np.array_equal(words, fp.random_boards(100_000, (3, 3), rng=1, unique=True))
    truth = distances_3x3()
    mask = np.array(table["optimal_mask"].slice(0, 3000).to_pylist())
    for word, row in zip(words[:3000].tolist(), mask.tolist()):
        board = fp.Board.from_packed(word, (3, 3))
        nearer = [
            m in board.moves() and truth[board.move(m).tiles] == truth[board.tiles] - 1
            for m in "UDLR"
        ]
        assert row == [int(n) for n in nearer]
    assert (mask[np.array(table["length"].to_pylist()[:3000]) == 0] == 0).all()


@pytest.mark.parametrize("name", ["boards.csv", "boards.CSV", "boards.json", "boards.txt"])
def test_a_name_of_another_format_is_refused(tmp_path, name):
    # Before: Parquet bytes under a .csv name.
    with pytest.raises(fp.InvalidOptionError, match="write_labelled writes Parquet"):
        fp.write_labelled(tmp_path / name, 10, (3, 3))
    assert list(tmp_path.iterdir()) == []
    for fine in ("boards.parquet", "boards.pq", "boards"):
        fp.write_labelled(tmp_path / fine, 10, (3, 3))
        assert pq.read_table(tmp_path / fine).num_rows == 10


def test_the_optimal_mask_can_be_left_out(tmp_path):
    fp.write_labelled(tmp_path / "lean.parquet", 50, (3, 3), rng=1, optimal_mask=False)
    assert "optimal_mask" not in pq.read_table(tmp_path / "lean.parquet").column_names
    assert fp.labelled(5, (3, 3), rng=1, optimal_mask=False).optimal_mask is None


def test_rows_are_unique_by_default_where_the_space_allows(tmp_path):
    # Before (issue 47, item 5): 39 % of 200,000 3x3 rows repeated a board, without a word.
    # Now no board twice where n is at most the space; past it, a warning gives the share of
    # rows that repeat one (its expected value), and unique=False draws with repeats silently.
    path = tmp_path / "rows.parquet"
    fp.write_labelled(path, 300, (2, 3), rng=1)  # 360 boards of 2x3 can reach the goal
    words = pq.read_table(path)["packed"].to_numpy()
    assert len(set(words.tolist())) == 300
    assert len(set(fp.labelled(300, (2, 3), rng=1).boards.tolist())) == 300
    with pytest.warns(fp.errors.FastPuzzleWarning) as caught:
        fp.write_labelled(path, 720, (2, 3), rng=1)
    (warning,) = caught
    # 720 draws from 360 boards hold 360 (1 - (1 - 1/360)^720) = 311.5 distinct: 57 % repeat.
    assert "only 360 can reach the goal" in str(warning.message)
    assert "about 57 % of the rows will repeat a board" in str(warning.message)
    assert pq.read_table(path).num_rows == 720
    with pytest.warns(fp.errors.FastPuzzleWarning, match="57 %"):
        fp.labelled(720, (2, 3), rng=1)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fp.write_labelled(path, 720, (2, 3), rng=1, unique=False)
    repeated = pq.read_table(path)["packed"].to_numpy()
    assert len(set(repeated.tolist())) < 360


# -----------------------------------------------------------------------------------------------
# A ``write_labelled`` killed mid-write leaves its hidden ``.NAME.XXXXXXXX.partial``; the next
# write of that file removes it, and never the file of a writer still running (issue 37, item 6).


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
    fp.write_labelled(path, 20, (3, 3), rng=2)
    assert _partials(tmp_path) == []
    assert pq.read_table(path).num_rows == 20


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_running_writers_partial_file_is_left_to_it(tmp_path: Path) -> None:
    path = tmp_path / "boards.parquet"
    child = _writer(path)
    try:
        (running,) = _partials(tmp_path)
        os.utime(running, (time.time() - 60, time.time() - 60))  # old, but held
        fp.write_labelled(path, 20, (3, 3), rng=2)
        assert _partials(tmp_path) == [running]
    finally:
        child.kill()
        child.wait()


def test_the_file_and_the_frame_share_names_and_types(tmp_path):
    # Issue 58, item 3: the file's `board` was the packed uint64 where the frame's was the text
    # (its packed board being `packed`), and `length` was uint8 in one, int32 in the other.
    pd = pytest.importorskip("pandas")
    path = fp.write_labelled(tmp_path / "boards.parquet", 50, (3, 3), rng=3)
    from_file = pd.read_parquet(path)
    frame = fp.labelled(50, (3, 3), rng=3).to_pandas()
    shared = [name for name in frame.columns if name in from_file.columns]
    assert shared == ["packed", "length", "first_move"]
    for name in shared:
        assert from_file[name].dtype == frame[name].dtype or name == "first_move", name
        assert from_file[name].tolist() == frame[name].tolist(), name
    assert "board" not in from_file.columns  # a name means one thing: the frame's text


@pytest.mark.skipif(sys.platform == "win32", reason="flock, and no rename of an open file")
def test_a_partial_file_is_locked_whenever_another_writer_can_find_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before (issue 53, item 4): the file had its findable name an instant before its writer
    # locked it; another writer that found it then, older than the grace period (on a loaded
    # machine, or aged here), removed it from under its writer. Here another writer looks just
    # before this one takes its lock.
    from fastpuzzle import datasets
    from fastpuzzle._util import files

    path = tmp_path / "boards.parquet"
    real_lock = files.try_lock
    found: list[Path] = []

    def another_writer_first(fd: int, *, wait: bool = False) -> bool:
        for partial in _partials(tmp_path):
            found.append(partial)
            os.utime(partial, (time.time() - 60, time.time() - 60))
        datasets._remove_dead_partials(path)
        return real_lock(fd, wait=wait)

    monkeypatch.setattr(files, "try_lock", another_writer_first)
    fp.write_labelled(path, 20, (3, 3), rng=2)
    assert found == []
    assert pq.read_table(path).num_rows == 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boards.parquet"]


# -- what write_labelled refuses before it solves a board, and what its Ctrl-C says (issue 53) --


def _no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastpuzzle import datasets

    def solve_many(*args, **kwargs):
        raise AssertionError("a board was solved")

    monkeypatch.setattr(datasets, "solve_many", solve_many)


@pytest.mark.parametrize("n", [fp.datasets.MAX_BOARDS + 1, 2**62])
def test_n_has_the_bound_of_random_boards(tmp_path, monkeypatch, n):
    # Before (item 5): 2**62 boards of 3x3 grew the temporary file at 5 MB/s until the disk
    # was full.
    _no_solving(monkeypatch)
    with pytest.raises(fp.InvalidOptionError, match=f"from 0 to 1,073,741,824 .*got {n}"):
        fp.write_labelled(tmp_path / "boards.parquet", n, (3, 3), unique=False)
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_says_what_write_labelled_wrote(tmp_path, monkeypatch):
    # Before (item 5): "solve_many() interrupted: 0 of 300 boards finished", of the chunk being
    # solved, where the user had asked write_labelled for 1,000 boards.
    from fastpuzzle import datasets

    path = tmp_path / "boards.parquet"
    real = datasets.solve_many
    calls = []

    def interrupted_in_the_third(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:

            def ctrl_c(done, total):
                raise KeyboardInterrupt

            kwargs["progress"] = ctrl_c
        return real(*args, **kwargs)

    monkeypatch.setattr(datasets, "solve_many", interrupted_in_the_third)
    with pytest.raises(KeyboardInterrupt) as caught:
        fp.write_labelled(path, 1000, (3, 3), rng=1, chunk_size=300, optimal_mask=False)
    assert str(caught.value) == (
        f"write_labelled() interrupted: 600 of 1,000 boards written, and none kept: "
        f"{str(path)!r} was left as it was"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("length", [300, 250])
def test_a_name_too_long_for_the_file_system_is_refused_before_solving(
    tmp_path, monkeypatch, length
):
    # Before (item 6): a bare OSError (ENAMETOOLONG), from the path's check or from the
    # temporary file's creation (its name is 26 bytes longer).
    _no_solving(monkeypatch)
    path = tmp_path / ("a" * (length - len(".parquet")) + ".parquet")
    with pytest.raises(fp.InvalidOptionError, match=f"file name is {length} bytes long"):
        fp.write_labelled(path, 10, (3, 3))
    assert list(tmp_path.iterdir()) == []


def test_the_longest_name_the_file_system_takes_is_written(tmp_path):
    longest = os.pathconf(tmp_path, "PC_NAME_MAX") if hasattr(os, "pathconf") else 255
    path = tmp_path / ("b" * (longest - 26 - len(".parquet")) + ".parquet")
    fp.write_labelled(path, 10, (3, 3), rng=1)
    assert pq.read_table(path).num_rows == 10


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's /proc and /sys")
@pytest.mark.parametrize("folder", ["/proc", "/sys", "/sys/kernel"])
def test_a_folder_where_no_file_can_be_created_is_refused_before_solving(monkeypatch, folder):
    # Before (item 6): FileNotFoundError (/proc) or PermissionError (/sys), which the docstring
    # did not name.
    _no_solving(monkeypatch)
    path = os.path.join(folder, "boards.parquet")
    with pytest.raises(fp.InvalidOptionError, match=f"no file can be written at '{path}' "):
        fp.write_labelled(path, 10, (3, 3))
