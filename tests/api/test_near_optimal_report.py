"""The near-optimal study's ``--fresh``: each board solved in a fresh process, as issue 55
measures it, with the same answers as in one process (a node limit keeps them deterministic)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.studies.near_optimal_report", *args],
        cwd=REPOSITORY,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_fresh_processes_give_the_answers_of_one() -> None:
    budget = ["--size", "5x5", "--boards", "2", "--nodes", "3000"]
    fresh = _report(*budget, "--fresh")
    assert fresh.returncode == 0, fresh.stderr[-3000:]
    alone = _report(*budget)
    assert alone.returncode == 0, alone.stderr[-3000:]
    # One line a board on stderr (lengths, bound, seconds), then the table: the same answers.
    lines = [line.rsplit(",", 1)[0] for line in fresh.stderr.splitlines() if "->" in line]
    assert len(lines) == 2
    assert lines == [line.rsplit(",", 1)[0] for line in alone.stderr.splitlines() if "->" in line]
    row = fresh.stdout.splitlines()[-1].split()
    assert row[:2] == ["5x5", "2"] and row[5:9] == alone.stdout.splitlines()[-1].split()[5:9]


def test_a_fresh_process_solves_one_board() -> None:
    # What --fresh runs for each board: its answer as JSON, the time its own.
    board = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 _ 24"
    done = _report("--nodes", "1000", "--solve-one", board)
    assert done.returncode == 0, done.stderr[-3000:]
    assert '"moves": "R"' in done.stdout and '"lower_bound": 1' in done.stdout
