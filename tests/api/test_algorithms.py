"""Every algorithm of the registry: optimal searches give the lengths of outside oracles,
non-optimal ones respect their bounds, and every solution replays to the goal.

Lengths come from the pure-Python BFS in tests/oracle.py (3x3) and from
tests/data/seed_cases.tsv (4x4), never from the code under test.
"""

from __future__ import annotations

import itertools
import random

import pytest

import fastpuzzle as fp
from tests.instances import seed_cases
from tests.oracle import distances_3x3, distances_from

# (algorithm, heuristic) of every optimal classic method; IDA* is added when its module exists.
CLASSIC_OPTIMAL = [
    ("bfs", None),
    ("astar", "misplaced"),
    ("astar", "manhattan"),
    ("astar", "linear_conflict"),
    ("bidirectional", None),
    ("iddfs", None),
]


IDASTAR = [("idastar", heuristic) for heuristic in ("misplaced", "manhattan", "linear_conflict")]
OPTIMAL = [*CLASSIC_OPTIMAL, *IDASTAR]


def _check(board, goal, algorithm, heuristic, expected):
    result = fp.search(board, goal, algorithm=algorithm, heuristic=heuristic)
    assert result.status is fp.Status.SOLVED
    solution = result.solution
    assert len(solution) == expected, (board, algorithm, heuristic)
    assert solution.verify()
    assert solution.optimal
    assert result.stats.depth == expected
    return result


def _sample(count: int, seed: int) -> list[tuple[int, ...]]:
    return random.Random(seed).sample(sorted(distances_3x3()), count)


@pytest.mark.parametrize(("algorithm", "heuristic"), OPTIMAL)
def test_3x3_seed_cases_match_the_oracle(algorithm, heuristic):
    oracle = distances_3x3()
    cases = [c for c in seed_cases() if c.size == 3 and c.optimal_length is not None]
    assert cases
    for case in cases:
        assert oracle[case.tiles] == case.optimal_length
        _check(case.tiles, None, algorithm, heuristic, case.optimal_length)


@pytest.mark.heavy
@pytest.mark.parametrize(
    ("algorithm", "heuristic", "count"),
    [
        ("astar", "misplaced", 1000),
        ("astar", "manhattan", 1000),
        ("astar", "linear_conflict", 1000),
        ("bidirectional", None, 1000),
        # BFS and IDDFS take ~10 and ~30 ms a board: fewer by default, 1000 in the slow run.
        ("bfs", None, 150),
        ("iddfs", None, 60),
        pytest.param("bfs", None, 1000, marks=pytest.mark.slow),
        pytest.param("iddfs", None, 1000, marks=pytest.mark.slow),
        *[
            pytest.param(algorithm, heuristic, 1000, id=f"idastar-{heuristic}")
            for algorithm, heuristic in IDASTAR
        ],
    ],
)
def test_random_3x3_boards_match_the_oracle(algorithm, heuristic, count):
    oracle = distances_3x3()
    for board in _sample(count, seed=2024):
        _check(board, None, algorithm, heuristic, oracle[board])


@pytest.fixture(scope="module")
def other_goals():
    """Two goals with the blank elsewhere, each with its own oracle distances."""
    goals = [(1, 2, 3, 4, 0, 5, 6, 7, 8), (0, 8, 7, 6, 5, 4, 3, 2, 1)]
    return [(goal, distances_from(goal, 3, 3)) for goal in goals]


@pytest.mark.parametrize(("algorithm", "heuristic"), OPTIMAL)
def test_other_goals_match_their_oracle(algorithm, heuristic, other_goals):
    rng = random.Random(5)
    count = 15 if algorithm == "iddfs" else 40  # IDDFS is the slow one
    for goal, oracle in other_goals:
        for board in rng.sample(sorted(oracle), count):
            _check(board, goal, algorithm, heuristic, oracle[board])


@pytest.mark.parametrize(("algorithm", "heuristic"), OPTIMAL)
def test_relabelled_goals_match_the_oracle(algorithm, heuristic):
    # A goal with the blank last but the tiles permuted: relabel the start so the goal reads
    # 1..8, and the canonical oracle gives the distance.
    oracle = distances_3x3()
    rng = random.Random(11)
    canonical = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    boards = sorted(oracle)
    for _ in range(15 if algorithm == "iddfs" else 40):
        tiles = list(range(1, 9))
        rng.shuffle(tiles)
        goal = (*tiles, 0)
        label = {goal[cell]: canonical[cell] for cell in range(9)}
        board = rng.choice(boards)
        # The start whose relabelling is `board`: invert the label map.
        inverse = {v: k for k, v in label.items()}
        start = tuple(inverse[t] for t in board)
        if not fp.is_solvable(start, goal):  # pragma: no cover - relabelling keeps parity
            continue
        _check(start, goal, algorithm, heuristic, oracle[board])


def _cases_4x4(max_length: int):
    return [
        pytest.param(case, id=f"{case.name}-{case.optimal_length}")
        for case in seed_cases()
        if case.size == 4 and case.optimal_length is not None
        if case.optimal_length <= max_length
    ]


def _slow_cases_4x4(low: int, high: int):
    return [
        pytest.param(case, id=f"{case.name}-{case.optimal_length}", marks=pytest.mark.slow)
        for case in seed_cases()
        if case.size == 4 and case.optimal_length is not None
        if low < case.optimal_length <= high
    ]


@pytest.mark.parametrize("case", _cases_4x4(80))
@pytest.mark.parametrize("heuristic", ["manhattan", "linear_conflict"])
def test_4x4_seed_cases_astar(case, heuristic):
    _check(case.tiles, None, "astar", heuristic, case.optimal_length)


# Beyond 36 moves A* with misplaced tiles outgrows the default 2 GiB cap (it stops with
# MEMORY_LIMIT, as api/test_limits.py checks); the 40- and 45-move boards are left out.
@pytest.mark.parametrize("case", [*_cases_4x4(30), *_slow_cases_4x4(30, 36)])
def test_4x4_seed_cases_astar_misplaced(case):
    _check(case.tiles, None, "astar", "misplaced", case.optimal_length)


@pytest.mark.parametrize("case", [*_cases_4x4(32), *_slow_cases_4x4(32, 80)])
def test_4x4_seed_cases_bidirectional(case):
    # The 45-move board needs about 2.5 GB: above the default cap, so the slow run raises it.
    result = fp.search(
        case.tiles, algorithm="bidirectional", limits=fp.Limits(memory_bytes=4 << 30)
    )
    assert len(result.unwrap()) == case.optimal_length
    assert result.solution.verify()


@pytest.mark.parametrize("case", [*_cases_4x4(15), *_slow_cases_4x4(15, 19)])
@pytest.mark.parametrize("algorithm", ["bfs", "iddfs"])
def test_4x4_seed_cases_uninformed(case, algorithm):
    _check(case.tiles, None, algorithm, None, case.optimal_length)


@pytest.mark.parametrize("case", [*_cases_4x4(32), *_slow_cases_4x4(32, 80)])
def test_4x4_seed_cases_idastar(case):
    _check(case.tiles, None, "idastar", "manhattan", case.optimal_length)


def test_goal_itself_needs_no_moves():
    for algorithm, heuristic in CLASSIC_OPTIMAL:
        result = fp.search("1 2 3/4 5 6/7 8 _", algorithm=algorithm, heuristic=heuristic)
        assert result.solved
        assert result.solution.moves == ""
        assert result.stats.depth == 0


def test_other_shapes_match_their_oracle():
    for rows, cols in [(2, 2), (2, 3), (3, 2), (2, 4)]:
        n = rows * cols
        goal = (*range(1, n), 0)
        oracle = distances_from(goal, rows, cols)
        rng = random.Random(rows * 10 + cols)
        for board in rng.sample(sorted(oracle), 5):
            for algorithm, heuristic in [
                ("bfs", None),
                ("astar", "manhattan"),
                ("astar", "linear_conflict"),
                ("bidirectional", None),
            ]:
                result = fp.search(
                    fp.Board(board, shape=(rows, cols)), algorithm=algorithm, heuristic=heuristic
                )
                assert len(result.unwrap()) == oracle[board]
                assert result.solution.verify()


# -----------------------------------------------------------------------------------------------
# Non-optimal searches: their solutions replay to the goal and respect their bounds.

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
