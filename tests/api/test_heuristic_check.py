"""check_heuristic: its verdicts against tests/oracle.py's exact 3x3 distances (a pure-Python
BFS, independent of the exact table the check walks)."""

from __future__ import annotations

import pytest

import fastpuzzle as fp
from tests.oracle import distances_3x3, distances_from, neighbours


def plain_manhattan(tiles):
    total = 0
    for cell, tile in enumerate(tiles):
        if tile:
            total += abs(cell // 3 - (tile - 1) // 3) + abs(cell % 3 - (tile - 1) % 3)
    return total


def double_manhattan(tiles):
    return 2 * plain_manhattan(tiles)


# Two easy boards: A* with a weak heuristic runs in the textbook loop on each.
EASY = ["1 2 3/4 5 6/_ 7 8", "1 2 3/_ 5 6/4 7 8"]


@pytest.mark.heavy
def test_manhattan_is_admissible_and_consistent():
    check = fp.check_heuristic(plain_manhattan, sample=EASY)
    assert check.boards == len(distances_3x3()) == 181_440
    assert check.admissible and check.consistent
    assert check.overestimated == 0 and check.overestimate_share == 0
    assert check.largest_overestimate == 0 and check.inconsistent_moves == 0
    # The same values as the built-in: the same A* nodes.
    assert check.expanded["function"] == check.expanded["manhattan"]
    assert "admissible; consistent" in repr(check)


@pytest.mark.heavy
def test_double_manhattan_is_flagged_with_its_overestimate_share():
    check = fp.check_heuristic(double_manhattan, sample=EASY)
    dist = distances_3x3()
    over = [double_manhattan(t) - d for t, d in dist.items() if double_manhattan(t) > d]
    assert not check.admissible and not check.consistent
    assert check.overestimated == len(over) > 0
    assert check.overestimate_share == pytest.approx(len(over) / len(dist))
    assert check.largest_overestimate == max(over)
    # Every move changes Manhattan by exactly 1, so double Manhattan by 2: every move counts.
    edges = sum(len(neighbours(t, 3, 3)) for t in dist) // 2
    assert check.inconsistent_moves == edges
    assert "NOT admissible" in repr(check) and f"{100 * check.overestimate_share:.1f} %" in repr(
        check
    )


@pytest.mark.heavy
def test_a_constant_zero_is_admissible_and_consistent():
    check = fp.check_heuristic(lambda tiles: 0, sample=EASY)
    assert check.admissible and check.consistent and check.goal_value == 0
    assert check.sample == 2
    assert check.expanded["function"] >= check.expanded["misplaced"]


def test_a_constant_one_is_consistent_on_moves_but_not_at_the_goal():
    check = fp.check_heuristic(lambda tiles: 1, shape=(2, 3), sample=1)
    assert check.goal_value == 1 and not check.consistent
    assert not check.admissible and check.overestimated == 1


def test_another_goal_and_shape_use_the_callers_labels():
    goal = fp.Board("_ 1 2/3 4 5", shape=(2, 3))
    dist = distances_from(goal.tiles, 2, 3)

    def exact(tiles):
        return dist[tiles]

    check = fp.check_heuristic(exact, shape=(2, 3), goal=goal, sample=2)
    assert check.boards == len(dist) == 360
    assert check.admissible and check.consistent
    assert check.expanded["function"] <= check.expanded["linear_conflict"]


def test_refusals():
    with pytest.raises(fp.BoardTooLargeError, match="at most 9 cells"):
        fp.check_heuristic(plain_manhattan, shape=(4, 4))
    with pytest.raises(fp.InvalidOptionError, match="heuristic function"):
        fp.check_heuristic("manhattan")  # type: ignore[arg-type]
    with pytest.raises(fp.InvalidOptionError, match="must return a number"):
        fp.check_heuristic(lambda tiles: None, shape=(2, 2))
