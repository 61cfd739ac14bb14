"""Batch rows written a block at a time: the same bytes as the csv and json modules row by row."""

import csv
import io
import json

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import fastpuzzle as fp
from fastpuzzle.batch import BatchResult
from fastpuzzle.batch.export import arrow_table, csv_bytes, jsonl_bytes


def _by_rows_csv(result):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = ["index", *(["board"] if result.boards is not None else []), "length", "lower_bound"]
    names += ["status"]
    names += ["expanded", "generated", "seconds", "moves", "message"]
    writer.writerow(names)
    for record in result.to_records():
        writer.writerow([record[name] for name in names])
    return buffer.getvalue()


def _by_rows_jsonl(result):
    return "".join(json.dumps(record) + "\n" for record in result.to_records())


def _results():
    words = fp.random_boards(300, (3, 3), rng=1)
    words[5] = 12345  # not a board: its row gives the word as written
    words[7] = fp.Board("1 2 3/4 5 6/8 7 _").packed
    packed = fp.solve_many(words, shape=(3, 3))
    texts = fp.solve_many(
        ["1 2 3/4 5 6/7 _ 8", "1 2 3 4", [1, 2, 3, 4, 5, 6, 7, 8, 0]], shape=(3, 3)
    )
    odd = BatchResult(
        np.array([1, -1, 3]),
        np.array(["solved", "error", "x,y"], dtype=object),
        np.array([1, 2, 3]),
        np.array([4, 5, 6]),
        np.array([0.5, 1e-7, 1e20]),
        np.array(["U", "", "LR"], dtype=object),
        np.array(["", 'a "quoted", message\non two lines', "é ü"], dtype=object),
    )
    wide = fp.solve_many(fp.random_boards(30, (4, 4), rng=2), shape=(4, 4))
    return {"packed": packed, "texts": texts, "odd": odd, "4x4": wide}


@pytest.mark.parametrize("name", ["packed", "texts", "odd", "4x4"])
def test_csv_and_jsonl_are_those_of_the_row_writers(name):
    result = _results()[name]
    assert csv_bytes(result).decode("utf-8") == _by_rows_csv(result)
    assert result.to_csv() == _by_rows_csv(result)
    assert jsonl_bytes(result).decode("utf-8") == _by_rows_jsonl(result)


@pytest.mark.parametrize("name", ["packed", "texts", "odd"])
def test_arrow_table_is_that_of_the_records(name):
    pa = pytest.importorskip("pyarrow")
    result = _results()[name]
    assert arrow_table(result, pa).equals(pa.Table.from_pylist(result.to_records()))


def test_seconds_that_are_not_finite_go_to_the_row_writers():
    result = BatchResult(
        np.array([1]),
        np.array(["solved"], dtype=object),
        np.array([1]),
        np.array([1]),
        np.array([float("nan")]),
        np.array(["U"], dtype=object),
        np.array([""], dtype=object),
    )
    assert csv_bytes(result) is None and jsonl_bytes(result) is None
    assert result.to_csv() == _by_rows_csv(result)


def test_rows_in_several_blocks(monkeypatch):
    from fastpuzzle.batch import export

    result = _results()["packed"]
    monkeypatch.setattr(export, "_BLOCK", 7)
    assert csv_bytes(result).decode("utf-8") == _by_rows_csv(result)
    assert jsonl_bytes(result).decode("utf-8") == _by_rows_jsonl(result)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=50))
def test_compiled_float_text_is_repr(values):
    from fastpuzzle._core._text import float_reprs

    out = np.empty((len(values), 24), dtype=np.uint8)
    float_reprs(np.array(values, dtype=np.float64), out)
    assert [row.tobytes().rstrip(b"\0").decode() for row in out] == [repr(v) for v in values]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=50))
def test_compiled_integer_text_is_str(values):
    from fastpuzzle.batch.export import _integers

    matrix = _integers(np.array(values, dtype=np.int64))
    assert [row.tobytes().rstrip(b"\0").decode() for row in matrix] == [str(v) for v in values]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_chunk_files_joined_are_the_batch_file(tmp_path, fmt):
    # A row that is no board, one unsolvable and odd chunk sizes: the chunk files side by side
    # are what to_csv (or the JSON lines of to_records) writes for the same rows.
    from fastpuzzle.batch.export import jsonl_text
    from fastpuzzle.batch.store import join_chunks

    words = fp.random_boards(1000, (3, 3), rng=4)
    words[5] = 12345
    words[7] = fp.Board("1 2 3/4 5 6/8 7 _").packed
    result = fp.solve_many(
        words, shape=(3, 3), out=tmp_path / "run", out_format=fmt, chunk_size=300, keep_rows=True
    )
    join_chunks(tmp_path / "run", tmp_path / f"rows.{fmt}")
    written = (tmp_path / f"rows.{fmt}").read_bytes()
    expected = result.to_csv().encode() if fmt == "csv" else jsonl_text(result)
    assert written == expected
    # A chunk changed since it was written is refused, and nothing is written.
    part = tmp_path / "run" / f"part-000001.{fmt}"
    part.write_bytes(part.read_bytes().replace(b"solved", b"SOLVED", 1))
    with pytest.raises(fp.BatchFileError, match="changed since") as caught:
        join_chunks(tmp_path / "run", tmp_path / "again.csv")
    assert caught.value.path == part and not (tmp_path / "again.csv").exists()


def test_kept_rows_are_not_read_back_from_the_chunk_files(tmp_path, monkeypatch):
    from fastpuzzle.batch.store import ChunkStore

    words = fp.random_boards(500, (3, 3), rng=5)
    first = fp.solve_many(words[:300], shape=(3, 3), out=tmp_path / "run", chunk_size=100)
    lengths, moves = first.lengths.tolist(), first.moves.tolist()
    (tmp_path / "run" / "part-000002.csv").unlink()  # solved again by the resume below
    loaded = []
    real = ChunkStore.load
    monkeypatch.setattr(ChunkStore, "load", lambda self, n: loaded.append(n) or real(self, n))
    again = fp.solve_many(
        words[:300],
        shape=(3, 3),
        out=tmp_path / "run",
        chunk_size=100,
        resume=True,
        keep_rows=True,
    )
    # The two chunks reused are read once, as they are checked; the one solved is not read.
    assert sorted(loaded) == [0, 1]
    assert again.lengths.tolist() == lengths and again.moves.tolist() == moves
    assert sorted(loaded) == [0, 1]


def test_a_missing_length_is_one_missing_value_everywhere(tmp_path):
    # Before (issue 47, item 5): -1 in a batch's CSV, JSON lines and Parquet, empty in a
    # comparison's CSV, <NA> in to_pandas(). Now every table says "missing" the same way:
    # empty in CSV, null in JSON and Parquet (a nullable column), None in records, <NA> in
    # pandas; only the numpy column keeps -1 (numpy has no missing integer).
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    result = fp.solve_many(["1 2 3/4 5 6/7 _ 8", "1 2 3/4 5 6/8 7 _"], workers=1)
    assert result.lengths.tolist() == [1, -1]
    assert [r["length"] for r in result.to_records()] == [1, None]
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [r["length"] for r in rows] == ["1", ""]
    lines = jsonl_bytes(result).decode().splitlines()
    assert [json.loads(line)["length"] for line in lines] == [1, None]
    assert '"length": null' in lines[1]
    table = arrow_table(result, pa)
    assert table.column("length").to_pylist() == [1, None]
    assert table.schema.field("length").nullable
    path = tmp_path / "rows.parquet"
    pq.write_table(table, path)
    assert pq.read_table(path).column("length").null_count == 1
    comparison = fp.compare(["1 2 3/4 5 6/8 7 _"], ["bfs"])
    assert next(csv.DictReader(io.StringIO(comparison.to_csv())))["length"] == ""
    pd = pytest.importorskip("pandas")
    assert result.to_pandas()["length"].isna().tolist() == [False, True]
    assert pd.isna(comparison.to_pandas()["length"].iloc[0])


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_a_batch_with_unsolved_rows_goes_on_from_its_chunks(tmp_path, fmt):
    # The chunk files read back (--resume) take the missing value, and -1 of older files.
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    boards = ["1 2 3/4 5 6/7 _ 8", "1 2 3/4 5 6/8 7 _"] * 3
    out = tmp_path / "chunks"
    first = fp.solve_many(boards, workers=1, out=out, out_format=fmt, chunk_size=2)
    again = fp.solve_many(boards, workers=1, out=out, out_format=fmt, chunk_size=2, resume=True)
    assert again.lengths.tolist() == first.lengths.tolist() == [1, -1] * 3
