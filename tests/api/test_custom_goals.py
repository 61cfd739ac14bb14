"""Custom goals on 4x4 without waiting: an easy board with any goal is solved with walking
distance, no pattern database built; a hard one gets the table, and an optimal answer."""

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._solver import policy
from fastpuzzle.pdb import store
from tests.instances import random50


@pytest.fixture
def no_table_built(tmp_path, monkeypatch):
    """An empty table cache, and any pattern-database build an error."""
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))

    def refused(*args, **kwargs):
        raise AssertionError("a pattern database was built")

    monkeypatch.setattr(store, "build_pdb", refused)
    return tmp_path


def test_a_one_move_board_with_any_goal_builds_no_table(no_table_built):
    # Before: 7 s, most of it building the 16 MB 6-6-3 table of the goal's blank cell.
    goal = fp.Board("_ 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15")
    solution = fp.solve(goal.apply("R"), goal)
    assert solution.moves == "L" and solution.optimal
    assert list(no_table_built.iterdir()) == []


def test_easy_boards_with_random_goals_are_solved_optimally_without_a_table(no_table_built):
    rng = np.random.default_rng(7)
    for _ in range(8):
        goal = fp.random_board((4, 4), rng=rng)
        board = fp.scramble(goal, 24, rng=rng)
        solution = fp.solve(board, goal)
        # An optimal length from another heuristic: IDA* with linear conflict.
        other = fp.solve(board, goal, algorithm="idastar", heuristic="linear_conflict")
        assert solution.verify() and len(solution) == len(other)
        assert solution.heuristic == "walking_distance"
    assert list(no_table_built.iterdir()) == []


def test_a_hard_board_gets_the_table_and_an_optimal_answer(monkeypatch, capsys):
    # A custom goal (tiles 1 and 2 swapped; the blank last, whose tables the test cache has or
    # builds) treated as if it had no table on disk, and a search budget too small for it: the
    # walk is abandoned, the table is said on stderr and used, and the length is random50's.
    case = random50()[1]  # 45 moves
    swap = {1: 2, 2: 1}
    board = fp.Board([swap.get(t, t) for t in case.tiles])
    goal = fp.Board([swap.get(t, t) for t in fp.Board.goal((4, 4)).tiles])
    monkeypatch.setattr(policy, "table_on_disk", lambda shape, blank: False)
    monkeypatch.setattr(policy, "PROBE_NODES", 1000)
    solution = fp.solve(board, goal)
    assert solution.verify() and len(solution) == case.optimal_length == 45
    assert solution.heuristic == "pdb"
    assert "no solution within 1,000 nodes of walking distance; building the 6-6-3" in (
        capsys.readouterr().err
    )


def test_the_callers_limits_hold_for_the_first_search(no_table_built):
    goal = fp.Board("1 2 3 4/5 _ 6 7/8 9 10 11/12 13 14 15")
    board = fp.scramble(goal, 30, rng=3)
    with pytest.raises(fp.NodeLimitError):
        fp.solve(board, goal, limits=fp.Limits(nodes=10))
    with pytest.raises(fp.DepthLimitError):
        fp.solve(board, goal, limits=fp.Limits(max_depth=2))
    assert list(no_table_built.iterdir()) == []
