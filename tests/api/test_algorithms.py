"""Optimal searches give the lengths of outside oracles, and their moves replay to the goal.

Lengths come from the pure-Python BFS in tests/oracle.py (3x3) and from
tests/data/seed_cases.tsv (4x4), never from the code under test.
"""

from __future__ import annotations

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


def _idastar_available() -> bool:
    try:
        import fastpuzzle.optimal  # noqa: F401
    except ImportError:
        return False
    return True


IDASTAR = [
    pytest.param(
        "idastar",
        heuristic,
        marks=pytest.mark.skipif(
            not _idastar_available(), reason="fastpuzzle.optimal (IDA*) not available yet"
        ),
    )
    for heuristic in ("misplaced", "manhattan", "linear_conflict")
]
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
            pytest.param(*p.values, 1000, marks=p.marks, id=f"idastar-{p.values[1]}")
            for p in IDASTAR
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
@pytest.mark.skipif(not _idastar_available(), reason="fastpuzzle.optimal (IDA*) not available")
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
