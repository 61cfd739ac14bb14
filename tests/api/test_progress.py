"""Progress on stderr: one line rewritten in place that fits the terminal, or tqdm's bar."""

from __future__ import annotations

import os
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._util.progress import Meter, fit_line


@pytest.fixture
def no_tqdm(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("tqdm", "tqdm.auto"):
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_plain_bar_rewrites_one_line_that_fits(
    no_tqdm: None, columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=None: os.terminal_size((columns, 24))
    )
    meter = Meter(1_000_000, "fastpuzzle: a long description of the work being done", "board")
    for step in range(10):
        meter.update(100_000, status=f"level {step}" * (step + 1))
    meter.close()
    err = capsys.readouterr().err
    # One newline in all (no line wrapped or scrolled), and every rewrite exactly as wide as
    # the terminal less one: nothing of a longer earlier line stays behind.
    assert err.count("\n") == 1
    writes = err.rstrip("\n").split("\r")[1:]
    assert len(writes) == 10 and {len(w) for w in writes} == {columns - 1}
    assert "100.0%" in writes[-1]


def test_fit_line_pads_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=None: os.terminal_size((30, 5))
    )
    assert fit_line("short") == "\r" + "short".ljust(29)
    assert fit_line("x" * 100) == "\r" + "x" * 29


def test_batch_progress_is_one_tqdm_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    bars: list[dict[str, Any]] = []

    class Bar:
        def __init__(self, **options: Any) -> None:
            self.n, self.closed, self.options = 0, False, options
            bars.append(vars(self))

        def update(self, count: int) -> None:
            self.n += count

        def set_postfix_str(self, text: str, refresh: bool = True) -> None:
            pass

        def close(self) -> None:
            self.closed = True

    auto = types.SimpleNamespace(tqdm=Bar)
    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(auto=auto))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    boards = np.array([fp.random_board((3, 3), rng=s).packed for s in range(5000)], dtype=np.uint64)
    fp.solve_many(boards, shape=(3, 3), progress=True)
    assert len(bars) == 1
    assert bars[0]["n"] == bars[0]["options"]["total"] == 5000 and bars[0]["closed"]


def _columns(monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    monkeypatch.setattr(
        shutil, "get_terminal_size", lambda fallback=None: os.terminal_size((columns, 24))
    )


def _terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastpuzzle._util import progress
    from fastpuzzle.pdb import store

    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    monkeypatch.setattr(store, "on_terminal", lambda: True)


def _solve_line(monkeypatch: pytest.MonkeyPatch, board: str, *, terminal: bool) -> Any:
    """``fastpuzzle solve``'s progress display of ``board``."""
    from fastpuzzle import cli
    from fastpuzzle._util import progress
    from fastpuzzle.cli import solve as solve_command
    from fastpuzzle.formats import Job

    monkeypatch.setattr(progress, "on_terminal", lambda: terminal)
    monkeypatch.setattr(solve_command, "on_terminal", lambda: terminal)
    args = cli.build_parser().parse_args(["solve", "--progress", board])
    return solve_command._SolveLine(Job(fp.Board(board)), args)


@pytest.mark.parametrize("tqdm_installed", [False, True])
def test_a_hint_is_printed_whole_above_the_live_line(
    tqdm_installed: bool,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # Issue 58, item 1: at 80 columns the 7-8 hint lost its end ("...many times faster"): the
    # lasting line was cut at the width as the live one is.
    from fastpuzzle._solver.policy import FASTER_TABLE_HINT, HINT_AFTER_SECONDS

    if not tqdm_installed:
        for name in ("tqdm", "tqdm.auto"):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    _columns(monkeypatch, 80)
    line = _solve_line(monkeypatch, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15", terminal=True)
    for seconds in (0.5, HINT_AFTER_SECONDS, HINT_AFTER_SECONDS + 1):
        line.show(fp.SearchStats(depth=50, expanded=10**6, seconds=seconds))
    line.close()
    err = capsys.readouterr().err
    hint = FASTER_TABLE_HINT
    assert len(hint) > 80 and hint.endswith("many times faster")
    assert f"  hint: {hint}\n" in err
    # The live line is cut to the terminal's width (tqdm's fitting where installed).
    lives = [part for part in err.replace("\n", "\r").split("\r") if "bound 50" in part]
    assert lives and all(len(part.rstrip()) < 80 for part in lives)


def test_a_5x5_search_without_its_table_names_the_build(
    no_tqdm: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # Issue 58, item 1: 4x4's line named a table to build after 3 s; 5x5's never did.
    from fastpuzzle._solver.policy import HINT_AFTER_SECONDS

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    line = _solve_line(monkeypatch, str(fp.Board.goal((5, 5)).apply("UL")), terminal=False)
    line.show(fp.SearchStats(depth=60, seconds=HINT_AFTER_SECONDS + 1))
    line.close()
    assert "hint: build the 5x5 pattern database once with `fastpuzzle pdb build 6-6-6-6`" in (
        capsys.readouterr().err
    )


def test_build_lines_are_whole_and_the_bar_label_short(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Issue 58, item 1: at 80 columns the build's lines lost the path and "built in 0.4 s", and
    # the long label ("fastpuzzle: 6-6-3 for 4x4 (goal blank 15) group 1/3") left tqdm's bar
    # one cell wide.
    labels: list[str] = []
    formats: list[str] = []

    class Bar:
        def __init__(self, **options: Any) -> None:
            labels.append(options["desc"])
            formats.append(options["bar_format"])

        def update(self, count: int) -> None:
            pass

        def set_postfix_str(self, text: str, refresh: bool = True) -> None:
            pass

        def close(self) -> None:
            pass

        @staticmethod
        def write(text: str, file: Any = None) -> None:
            print(text, file=file)

    auto = types.SimpleNamespace(tqdm=Bar)
    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(auto=auto))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    _terminal(monkeypatch)
    _columns(monkeypatch, 40)
    path = fp.pdb.build_pdb("auto", shape=(2, 4), cache_dir=tmp_path)
    err = capsys.readouterr().err
    # The group alone (a named partition's name first: "6-6-3 group 1/3"), and no rate: at 80
    # columns the bar of a 3x5 group is 28 cells wide (it was one).
    assert labels == ["group 1/2", "group 2/2"]
    assert all("rate" not in format for format in formats)
    lines = err.splitlines()
    assert f"into {path.parent}" in lines[0]
    assert sum("built in" in line and line.endswith(" s") for line in lines) == 2
    assert "ready in" in lines[-1] and lines[-1].endswith(" s")


def test_solve_progress_true_shows_the_line(
    no_tqdm: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 58, item 5: solve(progress=True) was refused while solve_many took it.
    board = "12 1 10 2/7 11 4 14/5 _ 9 15/8 13 6 3"
    solution = fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1, progress=True)
    assert fp.Board(board).apply(solution.moves) == fp.Board.goal((4, 4))
    assert "  bound " in capsys.readouterr().err


def test_solve_progress_true_is_a_widget_in_a_notebook(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In a notebook stderr is no terminal, yet tqdm.auto's widget is what the user watches.
    shown: list[str] = []

    class Widget:
        def __init__(self, **options: Any) -> None:
            self.closed = False

        def set_description_str(self, text: str, refresh: bool = True) -> None:
            shown.append(text)

        def close(self) -> None:
            shown.append("closed")

    Widget.__module__ = "tqdm.notebook"
    auto = types.SimpleNamespace(tqdm=Widget)
    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(auto=auto))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    board = "12 1 10 2/7 11 4 14/5 _ 9 15/8 13 6 3"
    fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1, progress=True)
    assert shown and shown[0].startswith("  bound ") and shown[-1] == "closed"
    assert capsys.readouterr().err == ""


def test_search_progress_true_shows_the_line_too(
    no_tqdm: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # As solve(progress=True): search() took only a callable.
    board = "12 1 10 2/7 11 4 14/5 _ 9 15/8 13 6 3"
    result = fp.search(board, algorithm="idastar", heuristic="manhattan", workers=1, progress=True)
    assert result.solved and "  bound " in capsys.readouterr().err
