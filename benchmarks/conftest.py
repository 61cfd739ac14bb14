"""Shared set-up of the benchmarks: import paths and the instance sets they run on.

Run with ``python -m pytest benchmarks --benchmark-json=results.json`` and print the table with
``python benchmarks/report.py results.json``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# tests/ holds the instance loaders; benchmarks/ the plain-Python baselines.
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from tests.instances import Instance, random50, seed_cases  # noqa: E402


@pytest.fixture(scope="session")
def seed_4x4() -> list[Instance]:
    """The solvable 4x4 boards of the source documents, with their verified lengths."""
    return [case for case in seed_cases() if case.size == 4 and case.optimal_length is not None]


@pytest.fixture(scope="session")
def random50_easy() -> list[Instance]:
    """Boards of random50.tsv that a pure-Python A* solves in seconds (few IDA* nodes)."""
    return [case for case in random50() if (case.manhattan_ida_nodes or 0) < 400_000]
