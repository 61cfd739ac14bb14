"""solve(), search() and solve_many() past 16 cells: same API, wide core underneath."""

import importlib

import pytest

import fastpuzzle as fp
from fastpuzzle import large

# fastpuzzle.solve is the function; the module behind it:
solve_module = importlib.import_module("fastpuzzle.solve")


@pytest.fixture(scope="module")
def scrambled_5x5():
    return [fp.scramble(fp.Board.goal((5, 5)), 36, rng=seed) for seed in range(4)]


def test_solve_is_optimal_past_16_cells(scrambled_5x5, tmp_path, monkeypatch):
    # An empty cache: without the 5x5 pattern database solve() uses linear conflict.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    for board in scrambled_5x5:
        solution = fp.solve(board)
        assert solution.verify() and solution.optimal
        assert solution.algorithm == "idastar" and solution.heuristic == "linear_conflict"
        # Cross-check against the Manhattan search: both are optimal, so the lengths agree.
        manhattan = fp.search(board, algorithm="idastar", heuristic="manhattan")
        assert len(manhattan.solution) == len(solution)
        assert len(solution) <= 36 and len(solution) % 2 == 0


def test_solve_with_another_goal_on_a_rectangle():
    goal = fp.random_board((3, 7), rng=5)
    board = fp.scramble(goal, 30, rng=2)
    solution = fp.solve(board, goal)
    assert solution.board.apply(solution.moves) == goal
    assert len(solution) <= 30


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (5, 5), (7, 3), (10, 10), (30, 30)])
def test_fast_mode_replays_for_every_size(shape):
    board = fp.random_board(shape, rng=7)
    solution = fp.solve(board, optimal=False)
    assert solution.verify() and not solution.optimal
    assert len(solution) >= large.manhattan_sum(board)


def test_fast_mode_refuses_method_options():
    with pytest.raises(fp.InvalidOptionError, match="optimal=False"):
        fp.solve(fp.Board.goal((3, 3)), optimal=False, algorithm="astar")


def test_classic_algorithms_name_themselves_when_the_board_is_too_big(scrambled_5x5):
    with pytest.raises(fp.BoardTooLargeError, match=r"bfs works on boards of at most 16 cells"):
        fp.search(scrambled_5x5[0], algorithm="bfs")
    with pytest.raises(fp.BoardTooLargeError, match="astar"):
        fp.solve(scrambled_5x5[0], algorithm="astar")


def test_optimal_solve_of_a_hard_big_board_stops_with_a_hint(monkeypatch):
    monkeypatch.setattr(solve_module, "WIDE_DEFAULT_SECONDS", 0.3)
    board = fp.random_board((6, 6), rng=1)
    with pytest.raises(fp.TimeLimitError, match="optimal=False") as info:
        fp.solve(board)
    assert info.value.stats.expanded > 0
    with pytest.raises(fp.NodeLimitError):
        fp.solve(board, limits=fp.Limits(nodes=1000))


def test_solve_many_on_big_boards(scrambled_5x5):
    result = fp.solve_many(scrambled_5x5)
    assert result.solved.all()
    assert result.lengths.tolist() == [len(fp.solve(b)) for b in scrambled_5x5]
    fast = fp.solve_many([fp.random_board((8, 8), rng=s) for s in range(3)], optimal=False)
    assert fast.solved.all() and (fast.lengths > 0).all()
