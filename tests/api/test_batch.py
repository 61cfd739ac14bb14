"""solve_many: equal to one-by-one solving, robust rows, incremental output and resume, Dask."""

import json

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.batch import chunk, run
from fastpuzzle.batch.result import COLUMNS
from tests.oracle import distances_3x3


@pytest.fixture(scope="module")
def boards_3x3():
    return [fp.random_board((3, 3), rng=seed) for seed in range(300)]


def _truth(boards):
    dist = distances_3x3()
    return np.array([dist[b.tiles] for b in boards])


def test_every_input_form_gives_optimal_lengths_in_order(boards_3x3):
    truth = _truth(boards_3x3)
    packed = np.array([b.packed for b in boards_3x3], dtype=np.uint64)
    rows = np.array([b.tiles for b in boards_3x3], dtype=np.int64)
    for data, kwargs in (
        (packed, {"shape": (3, 3)}),
        (rows, {}),
        ([b.to_string() for b in boards_3x3], {}),
        (boards_3x3, {"workers": 1, "chunk_size": 7}),
    ):
        result = fp.solve_many(data, **kwargs)
        assert len(result) == len(boards_3x3)
        assert result.solved.all()
        assert (result.lengths == truth).all()
        for board, moves, length in zip(boards_3x3, result.moves, result.lengths):
            assert len(moves) == length
            assert board.apply(moves) == fp.Board.goal((3, 3))


def test_matches_solve_one_by_one_on_easier_random50_boards():
    from tests.instances import random50

    cases = sorted(random50(), key=lambda c: c.manhattan_ida_nodes)[:4]
    boards = [fp.Board(c.tiles) for c in cases]
    result = fp.solve_many(boards, workers=2)
    assert result.lengths.tolist() == [c.optimal_length for c in cases]
    assert result.lengths.tolist() == [len(fp.solve(b)) for b in boards]


def test_bad_rows_get_their_status_and_the_batch_goes_on():
    far = "8 6 7/2 5 4/3 _ 1"
    rows = ["1 2 3/4 5 6/7 _ 8", "1 2 3/4 5 6/8 7 _", "1 2 3 4 5", far, "1 2 3/4 5 6/_ 7 8"]
    result = fp.solve_many(rows, algorithm="bfs", limits=fp.Limits(nodes=50))
    assert result.status.tolist() == ["solved", "unsolvable", "invalid", "node_limit", "solved"]
    assert result.lengths.tolist() == [1, -1, -1, -1, 2]
    assert "not solvable" in result.messages[1]
    assert "expected" in result.messages[2]
    assert result.expanded[3] >= 50
    assert result.moves[1] == "" and result.messages[0] == ""


def test_packed_input_needs_a_shape():
    with pytest.raises(fp.InvalidBoardError, match="shape"):
        fp.solve_many(np.array([1], dtype=np.uint64))
    with pytest.raises(fp.InvalidBoardError, match="collection of boards"):
        fp.solve_many("1 2 3/4 5 6/7 _ 8")


def test_records_csv_and_goal(boards_3x3, tmp_path):
    goal = fp.Board("_ 1 2/3 4 5/6 7 8")
    boards = [fp.random_board((3, 3), rng=s, goal=goal) for s in range(20)]
    result = fp.solve_many(boards, goal)
    assert all(b.apply(m) == goal for b, m in zip(boards, result.moves))
    records = result.to_records()
    assert records[0]["index"] == 0 and records[0]["status"] == "solved"
    text = result.to_csv(tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_text() == text
    assert text.splitlines()[0] == ",".join(["index", "board", *COLUMNS[1:]])
    assert len(text.splitlines()) == 21
    assert text.splitlines()[1].split(",")[1] == boards[0].to_string()


class Crash(Exception):
    pass


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_resume_after_a_crash_skips_nothing_and_repeats_nothing(
    boards_3x3, tmp_path, fmt, monkeypatch
):
    out = tmp_path / "run"
    boards = boards_3x3[:100]

    def crash_after_three(done, total):
        if done >= 30:
            raise Crash

    with pytest.raises(Crash):
        fp.solve_many(
            boards, workers=1, chunk_size=10, out=out, out_format=fmt, progress=crash_after_three
        )
    written = sorted(p.name for p in out.glob("part-*"))
    assert 3 <= len(written) < 10

    solved_chunks = []
    real = chunk.solve_chunk

    def counting(first, rows, spec):
        solved_chunks.append(first)
        return real(first, rows, spec)

    # solve_many submits the solve_chunk of the module that runs the chunks.
    monkeypatch.setattr(run, "solve_chunk", counting)
    with pytest.raises(FileExistsError):
        fp.solve_many(boards, workers=1, chunk_size=10, out=out, out_format=fmt)
    result = fp.solve_many(boards, workers=1, chunk_size=10, out=out, out_format=fmt, resume=True)
    assert len(solved_chunks) == 10 - len(written)
    assert (result.lengths == _truth(boards)).all()
    # Every row appears exactly once across the chunk files.
    indexes = []
    for path in sorted(out.glob("part-*")):
        if fmt == "csv":
            lines = path.read_text().splitlines()[1:]
            indexes += [int(line.split(",")[0]) for line in lines]
        else:
            indexes += [json.loads(line)["index"] for line in path.read_text().splitlines()]
    assert sorted(indexes) == list(range(100))
    # A different batch may not resume into the same directory.
    with pytest.raises(ValueError, match="another batch"):
        fp.solve_many(boards[:50], workers=1, chunk_size=10, out=out, out_format=fmt, resume=True)


def test_truncated_chunk_file_is_solved_again(boards_3x3, tmp_path):
    out = tmp_path / "run"
    boards = boards_3x3[:40]
    first = fp.solve_many(boards, chunk_size=10, out=out)
    part = out / "part-000002.csv"
    part.write_text(part.read_text()[:40])
    again = fp.solve_many(boards, chunk_size=10, out=out, resume=True)
    assert (again.lengths == first.lengths).all()
    assert len(part.read_text().splitlines()) == 11


def test_progress_callback_sees_every_board(boards_3x3):
    seen = []
    fp.solve_many(boards_3x3[:50], chunk_size=10, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (50, 50) and len(seen) == 5


@pytest.mark.heavy
def test_dask_local_cluster_equals_threads(boards_3x3):
    distributed = pytest.importorskip("distributed")
    boards = boards_3x3[:200]
    packed = np.array([b.packed for b in boards], dtype=np.uint64)
    expected = fp.solve_many(packed, shape=(3, 3))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = fp.solve_many(packed, shape=(3, 3), client=client, chunk_size=50)
    assert (result.lengths == expected.lengths).all()
    assert result.status.tolist() == expected.status.tolist()
    assert all(b.apply(m) == fp.Board.goal((3, 3)) for b, m in zip(boards, result.moves))


def test_packed_fast_path_on_every_3x3_board_and_small_shapes():
    dist = distances_3x3()
    boards = list(dist)
    packed = np.array([sum(t << (4 * i) for i, t in enumerate(b)) for b in boards], dtype=np.uint64)
    result = fp.solve_many(packed, shape=(3, 3), chunk_size=50_000)
    assert result.lengths.tolist() == [dist[b] for b in boards]
    assert all(
        fp.Board(b).apply(m) == fp.Board.goal((3, 3)) for b, m in zip(boards[:2000], result.moves)
    )
    from tests.oracle import distances_from

    for shape in ((2, 3), (2, 4), (4, 2)):
        goal = fp.random_board(shape, rng=1)
        truth = distances_from(goal.tiles, *shape)
        sample = [fp.random_board(shape, rng=s, goal=goal) for s in range(300)]
        words = np.array([b.packed for b in sample], dtype=np.uint64)
        out = fp.solve_many(words, goal, shape=shape)
        assert out.lengths.tolist() == [truth[b.tiles] for b in sample]
        assert all(b.apply(m) == goal for b, m in zip(sample, out.moves))


def test_packed_fast_path_keeps_bad_rows_and_limits():
    good = fp.Board("8 6 7/2 5 4/3 _ 1")
    swapped = fp.Board("1 2 3/4 5 6/8 7 _")
    words = np.array(
        [good.packed, 0, swapped.packed, fp.Board("1 2 3/4 5 6/_ 7 8").packed], dtype=np.uint64
    )
    result = fp.solve_many(words, shape=(3, 3))
    assert result.status.tolist() == ["solved", "invalid", "unsolvable", "solved"]
    assert result.lengths.tolist() == [31, -1, -1, 2]
    assert "appears twice" in result.messages[1] and "not solvable" in result.messages[2]
    capped = fp.solve_many(words, shape=(3, 3), limits=fp.Limits(max_depth=10))
    assert capped.status.tolist() == ["depth_limit", "invalid", "unsolvable", "solved"]


def _mixed_rows():
    return ["1 2 3/4 5 6/7 _ 8", "8 6 7/2 5 4/3 _ 1", "1 2 3/4 5 6/8 7 _", "1 2 x"]


def test_rows_carry_their_board_into_csv_and_pandas(tmp_path):
    import csv
    import io

    pytest.importorskip("pandas")
    rows = _mixed_rows()
    for result in (fp.solve_many(rows), fp.solve_many(rows, out=tmp_path / "out")):
        assert list(result.boards) == [fp.Board(r).to_string() for r in rows[:3]] + ["1 2 x"]
        table = list(csv.DictReader(io.StringIO(result.to_csv())))
        assert list(table[0]) == ["index", "board", *COLUMNS[1:]]
        distances = distances_3x3()
        for line, row in zip(table[:2], rows[:2]):
            board = fp.Board(line["board"])
            assert board == fp.Board(row)
            assert int(line["length"]) == distances[board.tiles]
            assert board.apply(line["moves"]) == fp.Board.goal((3, 3))
        frame = result.to_pandas()
        assert list(frame.columns) == ["board", *COLUMNS[1:]]
        assert frame["status"].tolist() == ["solved", "solved", "unsolvable", "invalid"]
        assert frame.loc[1, "board"] == "8 6 7/2 5 4/3 _ 1"
        # No length is pandas' <NA> in a nullable Int64 column, as in Comparison.to_pandas
        # (before: -1 here, NaN there).
        assert str(frame["length"].dtype) == "Int64"
        assert frame["length"].isna().tolist() == [False, False, True, True]
        assert frame["length"].sum() == int(result.lengths[:2].sum())
    packed = np.array([fp.Board(r).packed for r in rows[:2]], dtype=np.uint64)
    assert list(fp.solve_many(packed, shape=(3, 3)).boards) == [
        fp.Board(r).to_string() for r in rows[:2]
    ]


def test_to_pandas_without_pandas_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'fastpuzzle\[pandas\]'"):
        fp.solve_many(_mixed_rows()[:1]).to_pandas()
    with pytest.raises(ImportError, match=r"pip install 'fastpuzzle\[pandas\]'"):
        fp.compare("1 2 3/4 5 6/7 _ 8", algorithms=["bfs"]).to_pandas()


def test_notebook_shows_a_summary_and_the_first_and_last_rows():
    boards = [fp.random_board((3, 3), rng=seed) for seed in range(500)] + ["1 2 3/4 5 6/8 7 _"]
    result = fp.solve_many(boards)
    html = result._repr_html_()
    distances = distances_3x3()
    lengths = [distances[fp.Board(b).tiles] for b in boards[:500]]
    assert "<td>500</td>" in html and "1 unsolvable" in html
    assert f"{min(lengths)} / {sum(lengths) / 500:.2f} / {max(lengths)}" in html
    # Ten rows, as a DataFrame shows itself: all 501 would be tens of kilobytes.
    assert html.count("<tr><td style") == 10
    assert result.moves[0] in html and "unsolvable</td>" in html
    assert len(html) < 12_000
    summary = result.summary()
    assert (summary["rows"], summary["solved"], summary["statuses"]) == (
        501,
        500,
        {"unsolvable": 1},
    )


# -- Ctrl-C keeps what was done --------------------------------------------------------------


def _interrupt_after(monkeypatch, chunks: int) -> list[int]:
    """Make the batch's chunk solver raise KeyboardInterrupt (as Ctrl-C does) once ``chunks``
    chunks have been solved; returns the first rows of the solved chunks."""
    from fastpuzzle.batch import run

    real = run.solve_chunk
    solved: list[int] = []

    def interrupted(first, rows, spec):
        if len(solved) == chunks:
            raise KeyboardInterrupt
        solved.append(first)
        return real(first, rows, spec)

    monkeypatch.setattr(run, "solve_chunk", interrupted)
    return solved


@pytest.mark.parametrize("out", [False, True])
def test_ctrl_c_raises_with_the_finished_rows(tmp_path, monkeypatch, out):
    # Before: a bare KeyboardInterrupt; every row solved so far was lost (without out=) or
    # only in the chunk files (with it). Now, as compare() does, the rows come with it.
    boards = fp.random_boards(1000, (3, 3), rng=3)
    solved = _interrupt_after(monkeypatch, 3)
    options = {"out": tmp_path / "chunks"} if out else {}
    with pytest.raises(fp.BatchInterrupted) as caught:
        fp.solve_many(boards, shape=(3, 3), chunk_size=100, workers=1, **options)
    assert isinstance(caught.value, KeyboardInterrupt)
    result = caught.value.result
    assert caught.value.finished == 300 and len(result) == 1000
    done = np.zeros(1000, dtype=bool)
    for first in solved:
        done[first : first + 100] = True
    assert result.solved.tolist() == done.tolist()
    assert set(result.status[~done].tolist()) == {"interrupted"}
    assert (result.lengths[~done] == -1).all() and result.moves[int(np.flatnonzero(~done)[0])] == ""
    truth = distances_3x3()
    for i in np.flatnonzero(done).tolist():
        board = fp.Board.from_packed(int(boards[i]), (3, 3))
        assert result.lengths[i] == truth[board.tiles] == len(result.moves[i])
        assert board.apply(result.moves[i]) == fp.Board.goal((3, 3))
    assert result.to_csv().count(",interrupted,") == 700
    if out:  # and the finished chunks are there for resume=True
        monkeypatch.undo()
        again = fp.solve_many(boards, shape=(3, 3), out=tmp_path / "chunks", resume=True)
        assert again.solved.all() and (again.lengths[done] == result.lengths[done]).all()


def test_the_command_line_says_what_was_kept(tmp_path, capsys, monkeypatch):
    from fastpuzzle.cli import main
    from tests.api.test_cli import _batch_file

    # 5,000 boards: chunks of 2,048, 2,048 and 904; Ctrl-C as the third starts.
    boards = [fp.random_board((3, 3), rng=seed) for seed in range(5000)]
    source = _batch_file(tmp_path, boards)
    _interrupt_after(monkeypatch, 2)
    argv = ["batch", str(source), "--out", str(tmp_path / "rows.csv"), "--workers", "1"]
    assert main(argv) == 130
    err = capsys.readouterr().err
    # Before: "fastpuzzle: interrupted" alone.
    assert err.startswith("fastpuzzle: interrupted: 4,096 of 5,000 boards were solved and kept")
    assert f"kept in {tmp_path / 'rows.csv.chunks'}/; run the same command with --resume" in err
    # Without --out the finished rows are printed, the others marked interrupted.
    monkeypatch.undo()
    _interrupt_after(monkeypatch, 2)
    assert main(["batch", str(source), "--workers", "1"]) == 130
    captured = capsys.readouterr()
    rows = captured.out.splitlines()
    assert rows[0].startswith("index,board,length") and len(rows) == 5001
    solved = [line for line in rows[1:] if ",solved," in line]
    assert len(solved) == 4096 and captured.out.count(",interrupted,") == 904
    assert "4,096 of 5,000 boards were solved (the rows above" in captured.err
