"""Progress on stderr: one line rewritten in place that fits the terminal, or tqdm's bar."""

from __future__ import annotations

import os
import shutil
import sys
import types
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
