"""Non-optimal searches: their solutions replay to the goal and respect their bounds."""

from __future__ import annotations

import itertools
import random

import pytest

import fastpuzzle as fp
from tests.instances import seed_cases
from tests.oracle import distances_3x3

HEURISTICS = ["misplaced", "manhattan", "linear_conflict"]


def _boards(count: int, seed: int) -> list[tuple[int, ...]]:
    return random.Random(seed).sample(sorted(distances_3x3()), count)


@pytest.mark.parametrize("algorithm", ["greedy", "lookahead"])
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_greedy_kinds_verify_and_are_never_shorter_than_optimal(algorithm, heuristic):
    oracle = distances_3x3()
    for board in _boards(200, seed=1):
        result = fp.search(board, algorithm=algorithm, heuristic=heuristic)
        solution = result.unwrap()
        assert solution.verify()
        assert len(solution) >= oracle[board]
        assert not solution.optimal
        assert solution.heuristic == heuristic


@pytest.mark.parametrize("weight", [1.0, 1.25, 1.5, 2.0, 3.0, 5.0])
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_weighted_astar_is_within_its_weight_of_optimal(weight, heuristic):
    oracle = distances_3x3()
    for board in _boards(150, seed=2):
        solution = fp.search(board, algorithm="wastar", heuristic=heuristic, weight=weight).unwrap()
        assert solution.verify()
        assert oracle[board] <= len(solution) <= weight * oracle[board]
        assert solution.optimal == (weight == 1)


def test_weighted_astar_default_weight_and_bound_on_4x4():
    for case in seed_cases():
        if case.size == 4 and case.optimal_length:
            solution = fp.search(case.tiles, algorithm="wastar", heuristic="manhattan").unwrap()
            assert solution.verify()
            assert case.optimal_length <= len(solution) <= 2 * case.optimal_length


@pytest.mark.parametrize("algorithm", ["greedy", "lookahead"])
def test_greedy_kinds_solve_the_4x4_seed_cases(algorithm):
    for case in seed_cases():
        if case.size == 4 and case.optimal_length:
            solution = fp.search(case.tiles, algorithm=algorithm, heuristic="manhattan").unwrap()
            assert solution.verify()
            assert len(solution) >= case.optimal_length


@pytest.mark.parametrize("algorithm", ["dfs", "dfs_visited"])
def test_dfs_finds_a_solution_within_its_bound(algorithm):
    oracle = distances_3x3()
    for board in _boards(30, seed=3):
        # A tree search tries every path within a loose bound: 40 moves is for the table.
        loose = 40 if algorithm == "dfs_visited" else oracle[board] + 6
        for bound in (oracle[board], oracle[board] + 2, loose):
            result = fp.search(board, algorithm=algorithm, limits=fp.Limits(max_depth=bound))
            solution = result.unwrap()
            assert solution.verify()
            assert oracle[board] <= len(solution) <= bound
            assert (len(solution) - oracle[board]) % 2 == 0


def test_dfs_visited_default_bound_is_documented_and_used():
    board = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    solution = fp.search(board, algorithm="dfs_visited").unwrap()
    assert solution.verify()
    assert 31 <= len(solution) <= fp.algorithms.DEFAULT_DFS_DEPTH


def _tree_dfs(board, bound):
    """The source documents' brute force in plain Python: depth-first, never undoing the last
    move, no table, the goal tested as each child is made, moves tried in U, D, L, R order.
    Returns (moves, expanded)."""
    goal = fp.Board.goal(board.shape)
    if board == goal:
        return "", 0
    expanded = 0

    def visit(node, last, path):
        nonlocal expanded
        expanded += 1
        for move in "UDLR":
            if move not in node.moves() or (last and move == fp.inverse(last)):
                continue
            child = node.apply(move)
            if child == goal:
                return path + move
            if len(path) + 1 < bound:
                found = visit(child, move, path + move)
                if found is not None:
                    return found
        return None

    return visit(board, "", ""), expanded


def test_dfs_is_the_brute_force_tree_search():
    # The same first solution and the same expansions as the plain tree search, and memory of
    # its path only (dfs_visited's table grows with the boards it has seen).
    oracle = distances_3x3()
    # Boards 8 to 12 moves away: the plain tree search in Python stays quick.
    near = sorted(tiles for tiles, distance in oracle.items() if 8 <= distance <= 12)
    for tiles in near[:: len(near) // 10][:10]:
        board = fp.Board(tiles)
        for bound in (oracle[tiles], oracle[tiles] + 2):
            moves, expanded = _tree_dfs(board, bound)
            result = fp.search(board, algorithm="dfs", limits=fp.Limits(max_depth=bound))
            assert result.solution.moves == moves
            assert result.stats.expanded == expanded
            assert result.stats.peak_memory_bytes < 64 * (bound + 1)
    visited = fp.search(tiles, algorithm="dfs_visited", limits=fp.Limits(max_depth=bound))
    assert visited.stats.peak_memory_bytes > 64 * (bound + 1)


def test_dfs_default_bound_is_misplaced_plus_manhattan_and_its_stop_says_so():
    # 31 moves, and misplaced + Manhattan is 7 + 21 = 28: dfs stops at once, naming its bound.
    board = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    bound = fp.misplaced(board) + fp.manhattan(board)
    result = fp.search(board, algorithm="dfs")
    assert result.status is fp.Status.DEPTH_LIMIT and result.stats.depth == bound == 28
    with pytest.raises(fp.DepthLimitError, match=r"Limits\.max_depth=28 moves \(misplaced"):
        fp.solve(board, algorithm="dfs")
    with pytest.raises(fp.DepthLimitError, match=r"Limits\.max_depth=29 moves \(as set\)"):
        fp.solve(board, algorithm="dfs", limits=fp.Limits(max_depth=29))
    # Where the rule is above the optimal length, a solution within it.
    oracle = distances_3x3()
    for tiles in _boards(30, seed=6):
        rule = fp.misplaced(tiles) + fp.manhattan(tiles)
        result = fp.search(tiles, algorithm="dfs")
        if rule >= oracle[tiles]:
            assert result.solution.verify() and oracle[tiles] <= len(result.solution) <= rule
        else:
            assert result.status is fp.Status.DEPTH_LIMIT


@pytest.mark.parametrize("algorithm", ["dfs", "dfs_visited"])
def test_dfs_below_the_optimal_length_reports_the_depth_limit(algorithm):
    board = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves
    result = fp.search(board, algorithm=algorithm, limits=fp.Limits(max_depth=29))
    assert result.status is fp.Status.DEPTH_LIMIT
    assert result.solution is None
    with pytest.raises(fp.DepthLimitError):
        result.unwrap()


def test_random_walk_is_seeded_and_verifies():
    board = "1 2 3/4 5 6/_ 7 8"
    first = fp.search(board, algorithm="random", seed=42)
    again = fp.search(board, algorithm="random", seed=42)
    other = fp.search(board, algorithm="random", seed=43)
    assert first.solution.moves == again.solution.moves
    assert first.solution.verify()
    assert other.solution.verify()
    assert first.stats.expanded == len(first.solution)
    moves = first.solution.moves
    # It never undoes its previous move.
    assert all(fp.inverse(a) != b for a, b in itertools.pairwise(moves))


def test_random_walk_stops_at_limits():
    board = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    result = fp.search(board, algorithm="random", seed=1, limits=fp.Limits(nodes=1000))
    assert result.status is fp.Status.NODE_LIMIT
    assert result.stats.expanded == 1000
    result = fp.search(board, algorithm="random", seed=1, limits=fp.Limits(max_depth=20))
    assert result.status is fp.Status.DEPTH_LIMIT
    assert result.stats.expanded == 20


def test_lookahead_differs_from_greedy_somewhere():
    # The two-level score changes the order of expansion; on some boards the paths differ.
    differ = 0
    for board in _boards(50, seed=4):
        a = fp.search(board, algorithm="greedy", heuristic="manhattan").solution
        b = fp.search(board, algorithm="lookahead", heuristic="manhattan").solution
        differ += a.moves != b.moves
    assert differ > 0
