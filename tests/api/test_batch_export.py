"""Batch rows written a block at a time: the same bytes as the csv and json modules row by row."""

import csv
import io
import json

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.batch import BatchResult
from fastpuzzle.batch.export import arrow_table, csv_bytes, jsonl_bytes


def _by_rows_csv(result):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = ["index", *(["board"] if result.boards is not None else []), "length", "status"]
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
