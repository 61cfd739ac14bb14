"""Limits mean what they say: every value is checked when a Limits is made (issue 14)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main
from fastpuzzle.errors import FastPuzzleError, InvalidLimitsError
from fastpuzzle.limits import MAX_DEPTH, MAX_NODES, as_limits

ONE_MOVE_3X3 = (1, 2, 3, 4, 5, 6, 7, 0, 8)
HARD_3X3 = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves

REFUSED = [
    # Zero used to mean "no limit" in the core, the opposite of what it says.
    ("seconds", 0),
    ("seconds", 0.0),
    ("nodes", 0),
    ("memory_bytes", 0),
    # NaN compared false with every elapsed time: no limit either.
    ("seconds", math.nan),
    ("seconds", np.float64("nan")),
    ("seconds", -1),
    ("seconds", -math.inf),
    ("nodes", -1),
    ("max_depth", -1),
    # Past what the core takes: these raised OverflowError inside the search.
    ("nodes", 10**20),
    ("nodes", MAX_NODES + 1),
    ("memory_bytes", 2**64),
    ("max_depth", 2**31),
    ("nodes", 1e20),
    # Not numbers, or not whole where a count is asked for.
    ("seconds", True),
    ("nodes", False),
    ("max_depth", True),
    ("seconds", "5"),
    ("nodes", "5"),
    ("nodes", 1.5),
    ("nodes", math.inf),
    ("memory_bytes", math.nan),
    ("max_depth", [3]),
    ("seconds", Fraction(10**400)),
]


@pytest.mark.parametrize(("field", "value"), REFUSED)
def test_bad_values_are_refused_with_a_typed_error_naming_the_field(field, value):
    with pytest.raises(InvalidLimitsError, match=f"Limits.{field} expected") as caught:
        fp.Limits(**{field: value})
    # One class, usable the three ways a caller may already catch it.
    assert isinstance(caught.value, FastPuzzleError)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, TypeError)


@pytest.mark.parametrize(
    "limits",
    [
        {"seconds": math.inf},
        {"seconds": 1e-9},
        {"seconds": np.float32(0.5)},
        {"seconds": Fraction(1, 3)},
        {"nodes": 1},
        {"nodes": MAX_NODES},
        {"nodes": 1e19},
        {"nodes": np.int64(5)},
        {"nodes": np.uint64(MAX_NODES)},
        {"memory_bytes": 1},
        {"memory_bytes": MAX_NODES},
        {"max_depth": 0},
        {"max_depth": MAX_DEPTH},
        {"max_depth": np.int32(7)},
    ],
)
def test_values_the_core_takes_are_accepted(limits):
    made = fp.Limits(**limits)
    for field, value in limits.items():
        assert getattr(made, field) is value


def test_the_largest_limits_reach_every_search_without_overflow():
    for algorithm in fp.ALGORITHMS:
        # DFS preallocates one frame per level of its bound, so it gets a small one here (the
        # tree search one move: it tries every path within its bound).
        depth = {"dfs": 1, "dfs_visited": 40}.get(algorithm, MAX_DEPTH)
        limits = fp.Limits(seconds=math.inf, nodes=MAX_NODES, max_depth=depth)
        seed = 1 if algorithm == "random" else None
        result = fp.search(ONE_MOVE_3X3, algorithm=algorithm, limits=limits, seed=seed)
        assert result.solved, algorithm
    # Memory is not capped at 2 GiB any more, and the BFS of a 3x3 takes little of it.
    result = fp.search(HARD_3X3, algorithm="bfs", limits=fp.Limits(memory_bytes=MAX_NODES))
    assert result.solved and len(result.solution) == 31
    assert len(fp.solve(ONE_MOVE_3X3, limits=fp.Limits(nodes=MAX_NODES, seconds=math.inf))) == 1


@pytest.mark.parametrize("algorithm", ["dfs", "dfs_visited"])
def test_dfs_at_the_largest_depth_stops_at_its_memory_limit(algorithm):
    # Its frames for 2**31 - 1 levels pass the default 2 GiB cap: a memory limit, reported as
    # such, where bound + 1 overflowed an int before.
    result = fp.search(HARD_3X3, algorithm=algorithm, limits=fp.Limits(max_depth=MAX_DEPTH))
    assert result.status is fp.Status.MEMORY_LIMIT


def test_max_depth_zero_explores_the_start_board_only():
    assert fp.search(HARD_3X3, algorithm="bfs", limits=fp.Limits(max_depth=0)).status is (
        fp.Status.DEPTH_LIMIT
    )
    solved = fp.search((1, 2, 3, 4, 5, 6, 7, 8, 0), algorithm="bfs", limits=fp.Limits(max_depth=0))
    assert solved.solved and len(solved.solution) == 0


def test_as_limits_takes_limits_or_none_only():
    limits = fp.Limits(nodes=5)
    assert as_limits(limits) is limits
    assert as_limits(None) == fp.Limits()
    for wrong in (5, 0.5, "5", {"nodes": 5}, (5,)):
        with pytest.raises(InvalidLimitsError, match=r"expected limits=fastpuzzle\.Limits"):
            as_limits(wrong)


def test_batch_and_compare_refuse_a_limits_that_is_not_one():
    # Before: AttributeError from inside a worker thread.
    with pytest.raises(InvalidLimitsError):
        fp.solve_many([ONE_MOVE_3X3], limits=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidLimitsError):
        fp.compare([ONE_MOVE_3X3], ["bfs"], limits=5)  # type: ignore[arg-type]


def test_solve_refuses_a_limits_that_is_not_one():
    with pytest.raises(InvalidLimitsError):
        fp.solve(ONE_MOVE_3X3, limits=5)  # type: ignore[arg-type]


def test_search_refuses_a_limits_that_is_not_one():
    with pytest.raises(InvalidLimitsError):
        fp.search(ONE_MOVE_3X3, algorithm="bfs", limits=5)  # type: ignore[arg-type]


def test_command_line_refuses_a_zero_time_limit(capsys):
    # Refused by the option itself, in the command line's words (the CLI issue's item 3: it was
    # "Limits.seconds expected a positive number").
    with pytest.raises(SystemExit) as info:
        main(["solve", "--time-limit", "0", "1 2 3/4 5 6/7 _ 8"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --time-limit: expected" in err and "Limits" not in err


def test_a_time_limit_covers_building_the_tables(tmp_path, monkeypatch):
    # An empty cache: 6-6-3 would take seconds to build, longer than the limit.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    board = "13 7 6 11/12 9 15 8/5 4 10 0/14 2 3 1"
    limits = fp.Limits(seconds=0.3)
    with pytest.raises(fp.TimeLimitError, match="pdb build 6-6-3"):
        fp.solve(board, limits=limits)
    result = fp.search(board, algorithm="idastar", heuristic="pdb663", limits=limits)
    assert result.status is fp.Status.TIME_LIMIT and result.solution is None
    assert not list(tmp_path.glob("*.fpdb"))  # nothing half-built was kept
