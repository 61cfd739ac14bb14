"""What the studies share: timing in one run, ratios, tables, the instance sets, child processes.

A study runs from the repository root as a module, with fastpuzzle importable (installed, or
``PYTHONPATH=src``): ``python -m benchmarks.studies.cores_report``. The pytest-benchmark suite
runs with ``python -m pytest benchmarks/suite``. Neither edits ``sys.path``: the root is on it
as Python puts the current folder there, so ``benchmarks`` and ``tests`` (whose instance sets
every measurement reads) import as packages.

Every figure a study prints is measured in the one run that prints it, beside its baseline:
:func:`rounds` alternates the things compared round by round, so that load on the machine falls
on all of them alike, and :func:`ratio` says how they compare. Tables go through the project's
own text tables (:class:`fastpuzzle._util.text_tables.Table`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from fastpuzzle._util.text_tables import Table
from tests.instances import Instance, hard, korf24, random50, seed_cases

__all__ = [
    "ROOT",
    "Instance",
    "best_of",
    "child",
    "hard",
    "korf24",
    "random50",
    "ratio",
    "rounds",
    "seed_cases",
    "table",
    "tree_environment",
]

#: The repository's root: the folder a study runs from.
ROOT = Path(__file__).resolve().parent.parent

T = TypeVar("T")


def best_of(count: int, run: Callable[[], T]) -> tuple[float, T]:
    """The least wall seconds of ``count`` calls of ``run``, and what the last call returned."""
    best, result = float("inf"), None
    for _ in range(max(1, count)):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result  # type: ignore[return-value]


def rounds(count: int, runs: Mapping[str, Callable[[], Any]]) -> dict[str, list[float]]:
    """Wall seconds of each of ``runs`` in each of ``count`` rounds, run in turn within a round
    (``{"C": ..., "fastpuzzle": ...}``): what one study compares is timed in the same run, and
    the load of the machine reaches every side alike."""
    seconds: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(max(1, count)):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            seconds[name].append(time.perf_counter() - started)
    return seconds


def ratio(value: float, baseline: float, digits: int = 2) -> str:
    """``value`` against ``baseline``, as a study prints it (``"1.25x"``; ``"-"`` without a
    baseline)."""
    if not baseline:
        return "-"
    return f"{value / baseline:.{digits}f}x"


#: A cell that reads as a number (``12,345``, ``0.25``, ``1.5e-3``, ``2.10x``, ``-``).
_NUMBER = re.compile(r"-|-?[0-9][0-9,]*(\.[0-9]+)?(e[-+]?[0-9]+)?x?")


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """``rows`` under ``header`` as fixed-width text: columns of numbers (ints with thousands
    separators; floats to three figures; or text that reads as a number) aligned right, the
    rest left."""

    def cell(value: object) -> str:
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int):
            return f"{value:,}"
        if isinstance(value, float):
            return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
        return str(value)

    cells = [tuple(cell(value) for value in row) for row in rows]
    numeric = frozenset(
        i for i in range(len(header)) if cells and all(_NUMBER.fullmatch(c[i]) for c in cells)
    )
    return Table(tuple(header), len(cells), cells.__getitem__, numeric).text()


def tree_environment(source: str | os.PathLike[str] | None, **more: str) -> dict[str, str]:
    """The environment of a child process that imports fastpuzzle from ``source`` (another
    tree's ``src``, built in place), or, with None, the fastpuzzle this Python imports
    (installed, or ``PYTHONPATH=src``), with ``more`` variables set.

    The default is never ``ROOT / "src"`` itself: after ``pip install .`` that folder holds no
    compiled modules, and a study that put it first crashed on import.
    """
    environment = {**os.environ, **more}
    if source is not None:
        inherited = os.environ.get("PYTHONPATH")
        environment["PYTHONPATH"] = os.pathsep.join([str(source), *filter(None, [inherited])])
    return environment


def child(
    module: str, args: Sequence[str], *, source: str | os.PathLike[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` from the repository's root, with ``source`` (another tree's
    ``src``, say) first on the child's path where given; its output is captured, and a failure
    raises."""
    environment = tree_environment(source)
    inherited = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [inherited])])
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
