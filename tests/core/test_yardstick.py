"""The benchmarks' C baseline (``benchmarks/baselines/ida_manhattan.c``) reproduces random50's
node counts.

The ratio reports divide fastpuzzle's node rate by this program's, so the program must do exactly
the search that random50.tsv counts: same lengths, same generated nodes.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.instances import random50

SOURCE = Path(__file__).resolve().parents[2] / "benchmarks" / "baselines" / "ida_manhattan.c"

#: The boards the baseline solves in well under a second together.
QUICK_NODES = 5_000_000


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    assert compiler is not None, "a C compiler builds the extension, so one must be here"
    binary = tmp_path_factory.mktemp("yardstick") / "ida_manhattan"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def test_baseline_reproduces_random50_lengths_and_nodes(baseline: Path) -> None:
    cases = [c for c in random50() if (c.manhattan_ida_nodes or 0) <= QUICK_NODES]
    assert len(cases) >= 10, "the quick set should cover a fair share of random50"
    text = "".join(" ".join(map(str, c.tiles)) + "\n" for c in cases)
    done = subprocess.run([str(baseline)], input=text, capture_output=True, text=True, check=True)
    rows = [line.split() for line in done.stdout.splitlines()]
    assert [(int(r[0]), int(r[1])) for r in rows] == [
        (c.optimal_length, c.manhattan_ida_nodes) for c in cases
    ]


def test_baseline_solves_the_goal_in_zero_moves_and_rejects_bad_tiles(baseline: Path) -> None:
    goal = " ".join(map(str, [*range(1, 16), 0])) + "\n"
    done = subprocess.run([str(baseline)], input=goal, capture_output=True, text=True, check=True)
    assert done.stdout.split()[:2] == ["0", "0"]
    bad = subprocess.run([str(baseline)], input="1 2 3 99\n", capture_output=True, text=True)
    assert bad.returncode == 1 and "out of range" in bad.stderr
