"""Shared set-up of the benchmark suite: the instance sets it runs on.

Run with ``python -m pytest benchmarks --benchmark-json=results.json`` from the repository root
and print the table with ``python -m benchmarks.suite.report results.json``.
"""

from __future__ import annotations

import pytest

from benchmarks.harness import Instance, random50, seed_cases


@pytest.fixture(scope="session")
def seed_4x4() -> list[Instance]:
    """The solvable 4x4 boards of the source documents, with their verified lengths."""
    return [case for case in seed_cases() if case.size == 4 and case.optimal_length is not None]


@pytest.fixture(scope="session")
def random50_easy() -> list[Instance]:
    """Boards of random50.tsv that a pure-Python A* solves in seconds (few IDA* nodes)."""
    return [case for case in random50() if (case.manhattan_ida_nodes or 0) < 400_000]
