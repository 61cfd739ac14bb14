"""``fastpuzzle study`` (issue 57, item 1): the depth study's table on stdout, its progress on a
terminal, its CSV and plot files, and its usage errors."""

import csv
import io
import os

import pytest

from fastpuzzle.cli import main


def test_study_prints_the_table_by_depth(capsys):
    args = ["study", "--shape", "3x3", "--depths", "2:6:2", "--per-depth", "4"]
    assert main([*args, "--methods", "bfs,astar+misplaced", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "d", "boards", "bfs", "nodes", "bfs", "ebf", "astar+misplaced", "nodes",
        "astar+misplaced", "ebf",
    ]  # fmt: skip
    assert [line.split()[:2] for line in lines[2:]] == [["2", "4"], ["4", "4"], ["6", "4"]]


def test_study_shows_progress_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr("fastpuzzle.cli.study.on_terminal", lambda: True)
    assert main(["study", "--depths", "2,4", "--per-depth", "2", "--methods", "bfs"]) == 0
    err = capsys.readouterr().err
    assert "study: search " in err and "/4 (" in err


def test_study_writes_csv_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    table, picture = tmp_path / "study.csv", tmp_path / "study.png"
    args = ["study", "--shape", "2x3", "--depths", "3", "--per-depth", "3", "--methods", "bfs"]
    assert main([*args, "--csv", str(table), "--plot", str(picture), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    (row,) = csv.DictReader(io.StringIO(out))
    assert (row["depth"], row["method"], row["boards"], row["solved"]) == ("3", "bfs", "3", "3")
    assert table.read_text() == out
    assert picture.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--depths", "2:x"], "expected FIRST:LAST[:STEP]"),
        (["--depths", "4:2:0"], "expected FIRST:LAST[:STEP]"),
        (["--shape", "3by3"], "expected ROWSxCOLS such as 3x3, got '3by3'"),
        (["--depths", "40", "--per-depth", "1"], "no 3x3 board is 40 moves from the goal"),
        (["--methods", "bsf", "--depths", "2", "--per-depth", "1"], "unknown algorithm 'bsf'"),
    ],
)
def test_study_usage_errors(args, message, capsys):
    try:
        status = main(["study", *args])
    except SystemExit as stop:  # argparse's own refusals exit
        status = stop.code
    assert status == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc (not Linux)")
@pytest.mark.parametrize(("option", "name"), [("--csv", "study.csv"), ("--plot", "study.png")])
def test_study_refuses_an_unwritable_file_before_the_study(option, name, capsys, monkeypatch):
    if option == "--plot":
        pytest.importorskip("matplotlib")

    def no_study(*args, **kwargs):
        raise AssertionError("the study ran before the path was checked")

    monkeypatch.setattr("fastpuzzle.cli.study.depth_study", no_study)
    path = f"/proc/{name}"
    assert main(["study", "--depths", "2", "--per-depth", "1", option, path]) == 2
    assert f"{option}: no file can be written at '{path}'" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc (not Linux)")
def test_compare_refuses_an_unwritable_csv_before_searching(capsys):
    # Before: every search ran, the table was printed, then the write failed.
    assert main(["compare", "--csv", "/proc/c.csv", "8 6 7/2 5 4/3 _ 1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--csv: no file can be written at '/proc/c.csv'" in captured.err
