"""Heuristics: independent recomputation, admissibility and consistency on every 3x3 board."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle._core import _board, _heuristics
from fastpuzzle.heuristics import BY_NAME
from tests.oracle import distances_3x3, neighbours


def _homes(goal):
    return {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.tiles)}


def plain_misplaced(board, goal):
    return sum(1 for a, b in zip(board.tiles, goal.tiles) if a and a != b)


def plain_manhattan(board, goal):
    homes = _homes(goal)
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            r, c = divmod(cell, board.cols)
            hr, hc = homes[tile]
            total += abs(r - hr) + abs(c - hc)
    return total


def _must_leave(keys):
    # Fewest tiles to remove so the rest are increasing: brute force over subsets.
    n = len(keys)
    best = n
    for mask in range(1 << n):
        kept = [keys[i] for i in range(n) if mask >> i & 1]
        if all(a < b for a, b in itertools.pairwise(kept)):
            best = min(best, n - len(kept))
    return best


def plain_linear_conflict(board, goal):
    homes = _homes(goal)
    extra = 0
    for r in range(board.rows):
        line = [board[r, c] for c in range(board.cols)]
        extra += _must_leave([homes[t][1] for t in line if t and homes[t][0] == r])
    for c in range(board.cols):
        line = [board[r, c] for r in range(board.rows)]
        extra += _must_leave([homes[t][0] for t in line if t and homes[t][1] == c])
    return plain_manhattan(board, goal) + 2 * extra


PLAIN = {
    "misplaced": plain_misplaced,
    "manhattan": plain_manhattan,
    "linear_conflict": plain_linear_conflict,
}


@settings(max_examples=150, deadline=None)
@given(
    shape=st.sampled_from([(2, 2), (3, 3), (4, 4), (2, 5), (3, 4), (4, 3), (2, 8), (5, 5), (3, 7)]),
    seed=st.integers(0, 2**32 - 1),
)
def test_heuristics_equal_plain_recomputation_for_any_goal(shape, seed):
    rng = np.random.default_rng(seed)
    goal = fp.Board([int(t) for t in rng.permutation(shape[0] * shape[1])], shape=shape)
    board = fp.random_board(shape, rng=rng, goal=goal)
    assert fp.misplaced(board, goal) == plain_misplaced(board, goal)
    assert fp.manhattan(board, goal) == plain_manhattan(board, goal)
    assert fp.linear_conflict(board, goal) == plain_linear_conflict(board, goal)
    assert (
        fp.misplaced(goal, goal) == fp.manhattan(goal, goal) == fp.linear_conflict(goal, goal) == 0
    )


@pytest.fixture(scope="module")
def every_3x3():
    dist = distances_3x3()
    boards = list(dist)
    packed = np.array([_board.pack(b) for b in boards], dtype=np.uint64)
    truth = np.array([dist[b] for b in boards], dtype=np.int64)
    return boards, packed, truth


@pytest.mark.parametrize("name", fp.HEURISTICS)
def test_admissible_and_consistent_on_every_3x3_board(name, every_3x3):
    boards, packed, truth = every_3x3
    values = np.empty(len(boards), dtype=np.int64)
    # The canonical goal of a 3x3 with the blank last is the usual goal: labels need no change.
    _heuristics.evaluate_many(BY_NAME[name].code, packed, 3, 3, 8, values)
    assert (values <= truth).all(), "a heuristic overestimated"
    assert values[truth == 0].tolist() == [0]
    h = dict(zip(boards, values.tolist()))
    for board in boards[::7]:
        for nxt in neighbours(board, 3, 3):
            assert abs(h[board] - h[nxt]) <= 1, (name, board, nxt)
    # The array path equals the one-board path.
    for index in range(0, len(boards), 9973):
        assert getattr(fp, name)(fp.Board(boards[index])) == values[index]


def test_linear_conflict_dominates_manhattan_dominates_nothing_less(every_3x3):
    _, packed, _truth = every_3x3
    values = {}
    for name in fp.HEURISTICS:
        values[name] = np.empty(len(packed), dtype=np.int64)
        _heuristics.evaluate_many(BY_NAME[name].code, packed, 3, 3, 8, values[name])
    assert (values["linear_conflict"] >= values["manhattan"]).all()
    assert (values["linear_conflict"] > values["manhattan"]).any()
    # Linear conflict is the tighter bound on average, as it should be.
    assert (
        values["linear_conflict"].mean() > values["manhattan"].mean() > values["misplaced"].mean()
    )


def test_unknown_heuristic_lists_the_valid_ones():
    from fastpuzzle.heuristics import evaluate

    with pytest.raises(fp.UnknownNameError, match="misplaced, manhattan, linear_conflict"):
        evaluate("euclid", fp.Board.goal((3, 3)))


def test_seed_4x4_lengths_bound_the_heuristics():
    from tests.instances import hard, random50, seed_cases

    cases = [c for c in seed_cases() + random50() + hard() if c.size == 4 and c.optimal_length]
    for case in cases:
        board = fp.Board(case.tiles)
        assert fp.misplaced(board) <= fp.manhattan(board) <= fp.linear_conflict(board)
        assert fp.linear_conflict(board) <= case.optimal_length, case.name


def _squared_difference(tiles, goal_tiles):  # type: ignore[no-untyped-def]
    # Written from the source documents' definition: tiles numbered by their goal position
    # (reading order, blank = 0), then the sum over cells of (tile there - goal tile there)^2.
    order = [t for t in goal_tiles if t]
    number = {tile: index + 1 for index, tile in enumerate(order)} | {0: 0}
    return sum((number[a] - number[b]) ** 2 for a, b in zip(tiles, goal_tiles))


def test_squared_difference_is_the_source_documents_weight():
    import random

    assert fp.heuristics.evaluate("squared_difference", "1 2 3/4 5 6/7 _ 8") == 64 + 64
    rng = random.Random(5)
    for shape in [(3, 3), (2, 4), (4, 4), (3, 5)]:
        for _ in range(20):
            goal = fp.random_board(shape, rng=rng.randrange(10**6))
            board = fp.random_board(shape, rng=rng.randrange(10**6), goal=goal)
            expected = _squared_difference(board.tiles, goal.tiles)
            assert fp.heuristics.evaluate("sqdiff", board, goal) == expected


def test_squared_difference_guides_every_informed_search_without_promising_shortest():
    board = "8 6 7/2 5 4/3 _ 1"
    # IDA* on an easy board: from this one its first bound is 170 moves, a tree too large.
    for algorithm, start in [
        *((name, board) for name in ("greedy", "lookahead", "astar", "wastar")),
        ("idastar", "1 2 3/4 _ 6/7 5 8"),
    ]:
        result = fp.search(start, algorithm=algorithm, heuristic="squared_difference")
        assert result.solved and result.solution.verify()
        assert result.heuristic == "squared_difference"
        # Inadmissible: no search promises a shortest solution with it.
        assert not result.solution.optimal
    # A* with it is longer than shortest on this board (31 moves, the oracle's distance).
    astar = fp.search(board, algorithm="astar", heuristic="squared_difference")
    assert len(astar.solution) > distances_3x3()[fp.Board(board).tiles] == 31
    with pytest.raises(fp.UnknownNameError, match="past 16 cells"):
        fp.heuristics.evaluate("squared_difference", fp.Board.goal((5, 5)))


def plain_euclidean(board, goal):
    homes = _homes(goal)
    total = 0.0
    for cell, tile in enumerate(board.tiles):
        if tile:
            r, c = divmod(cell, board.cols)
            hr, hc = homes[tile]
            total += math.hypot(r - hr, c - hc)
    return math.ceil(round(total, 9))


@settings(max_examples=100, deadline=None)
@given(
    shape=st.sampled_from([(2, 2), (3, 3), (4, 4), (2, 5), (3, 4), (4, 3), (2, 8)]),
    seed=st.integers(0, 2**32 - 1),
)
def test_euclidean_equals_plain_recomputation_for_any_goal(shape, seed):
    rng = np.random.default_rng(seed)
    goal = fp.Board([int(t) for t in rng.permutation(shape[0] * shape[1])], shape=shape)
    board = fp.random_board(shape, rng=rng, goal=goal)
    assert fp.heuristics.evaluate("euclidean", board, goal) == plain_euclidean(board, goal)
    assert fp.heuristics.evaluate("euclidean", goal, goal) == 0


def test_euclidean_is_admissible_consistent_and_below_manhattan_on_every_3x3_board(every_3x3):
    boards, packed, truth = every_3x3
    euclid = np.empty(len(boards), dtype=np.int64)
    manhattan = np.empty(len(boards), dtype=np.int64)
    _heuristics.evaluate_many(BY_NAME["euclidean"].code, packed, 3, 3, 8, euclid)
    _heuristics.evaluate_many(BY_NAME["manhattan"].code, packed, 3, 3, 8, manhattan)
    assert (euclid <= truth).all() and (euclid <= manhattan).all()
    assert (euclid < manhattan).any()
    h = dict(zip(boards, euclid.tolist()))
    for board in boards[::7]:
        for nxt in neighbours(board, 3, 3):
            assert abs(h[board] - h[nxt]) <= 1, (board, nxt)
