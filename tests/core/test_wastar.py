"""The batch weighted A* kernel (``_core/_wastar.pyx``): shortest paths at weight 1 and a batch
of 1, the weight's bound, the batch, the cap on f, the memory and node limits, the pattern
databases as its heuristic. Optimal lengths come from IDA* with linear conflict (another
kernel)."""

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _wastar
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._problem import make_problem
from tests.pdbcache import small_6x6_database


def _run(board, goal=None, **options):
    problem = make_problem(board, goal)
    return _wastar.wastar(
        problem.wide_cells(),
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        **options,
    )


def _optimum(board):
    return len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))


@pytest.fixture(scope="module")
def tables_6x6(tmp_path_factory):
    return small_6x6_database(tmp_path_factory.mktemp("wastar6x6"))


def _scrambles(shape, count, moves=40):
    return [fp.scramble(fp.Board.goal(shape), moves, rng=seed) for seed in range(count)]


@pytest.mark.parametrize("shape", [(5, 5), (4, 6)])
def test_weight_one_and_a_batch_of_one_is_a_star(shape):
    # Linear conflict is admissible, so A* that re-opens a board reached by a shorter path
    # answers a shortest one.
    for board in _scrambles(shape, 3):
        found = _run(board, weight=1.0)
        assert found.status == SearchStatus.STATUS_SOLVED
        assert board.apply(found.moves) == fp.Board.goal(shape)
        assert len(found.moves) == _optimum(board) == found.depth


def test_the_pattern_databases_as_heuristic(tables_6x6):
    for board in _scrambles((6, 6), 3):
        found = _run(board, weight=1.0, tables=tables_6x6)
        assert board.apply(found.moves) == fp.Board.goal((6, 6))
        assert len(found.moves) == _optimum(board)


def test_a_weight_bounds_the_length_and_a_batch_reaches_the_goal():
    board = fp.scramble(fp.Board.goal((5, 5)), 60, rng=4)
    optimum = _optimum(board)
    for weight in (1.5, 3.0):
        found = _run(board, weight=weight)
        assert board.apply(found.moves) == fp.Board.goal((5, 5))
        assert optimum <= len(found.moves) <= weight * optimum
    board = fp.random_board((5, 5), rng=16)
    for batch in (16, 1000):
        found = _run(board, weight=3.0, batch=batch)
        assert found.status == SearchStatus.STATUS_SOLVED
        assert board.apply(found.moves) == fp.Board.goal((5, 5))
        # Each step expands the whole batch (the last one up to the goal's parent).
        assert found.expanded > batch


def test_any_goal_blank():
    goal = fp.Board.goal((5, 5)).apply("UULL")
    board = fp.scramble(goal, 30, rng=1)
    found = _run(board, goal, weight=1.0)
    assert board.apply(found.moves) == goal
    assert len(found.moves) == len(fp.solve(board, goal, algorithm="idastar", workers=1))


def test_a_cap_on_f_below_the_optimum_leaves_nothing_open():
    board = fp.scramble(fp.Board.goal((5, 5)), 40, rng=2)
    optimum = _optimum(board)
    assert _run(board, weight=1.0, max_f=optimum - 2).status == SearchStatus.STATUS_EXHAUSTED
    found = _run(board, weight=2.0, max_f=optimum)
    assert len(found.moves) == optimum


def test_limits():
    board = fp.random_board((7, 7), rng=1)
    found = _run(board, weight=1.0, node_limit=5_000)
    assert found.status == SearchStatus.STATUS_NODE_LIMIT and found.expanded == 5_000
    for memory in (1_000, 2_000_000):
        found = _run(board, weight=1.0, memory_bytes=memory)
        assert found.status == SearchStatus.STATUS_MEMORY_LIMIT
        assert found.allocated_bytes <= memory
    assert _run(board, weight=1.0, time_limit=0.05).status == SearchStatus.STATUS_TIME_LIMIT


def test_a_path_through_a_reopened_board_replays():
    # A board reopened by a shorter path keeps the boards below it at their old g until it is
    # expanded again; here the goal's parent is one of them, so a length read from its g would
    # be 2 moves too long (and walk past the start).
    board = fp.random_board((5, 5), rng=12)
    found = _run(board, weight=2.0, batch=1000, node_limit=300_000)
    assert found.status == SearchStatus.STATUS_SOLVED
    assert set(found.moves) <= set("UDLR") and found.depth == len(found.moves)
    assert board.apply(found.moves) == fp.Board.goal((5, 5))


@pytest.mark.parametrize("batch", [2, 8, 1000])
def test_weighted_paths_replay_over_many_boards(batch):
    for seed in range(20, 30):
        board = fp.random_board((5, 5), rng=seed)
        found = _run(board, weight=4.0, batch=batch, node_limit=200_000)
        if found.status == SearchStatus.STATUS_SOLVED:
            assert board.apply(found.moves) == fp.Board.goal((5, 5)), seed


def test_a_side_too_long_for_a_board_is_refused():
    cells = np.zeros(20, dtype=np.uint16)
    cells[1:] = np.arange(1, 20)
    # 4 x (2**30 + 5) wraps to 20 in a C int.
    with pytest.raises(ValueError, match="17 to 256 cells"):
        _wastar.wastar(cells, 0, 4, 2**30 + 5, 19, weight=1.0, node_limit=1000)


def test_the_goal_is_an_empty_path():
    found = _run(fp.Board.goal((6, 6)), weight=2.0)
    assert found.status == SearchStatus.STATUS_SOLVED and found.moves == ""


def test_bad_input():
    problem = make_problem(fp.random_board((6, 6), rng=1))
    cells, blank, goal_blank = problem.wide_cells(), problem.blank, problem.goal_blank
    with pytest.raises(ValueError, match=r"weight from 1 to 100, got 0\.5"):
        _wastar.wastar(cells, blank, 6, 6, goal_blank, weight=0.5)
    with pytest.raises(ValueError, match="batch of at least 1, got 0"):
        _wastar.wastar(cells, blank, 6, 6, goal_blank, weight=1.0, batch=0)
    with pytest.raises(ValueError, match="17 to 256 cells, got 4x4"):
        _wastar.wastar(np.zeros(16, dtype=np.uint16), 0, 4, 4, 15, weight=1.0)
    twice = cells.copy()
    twice[(blank + 1) % 36] = twice[(blank + 2) % 36]
    with pytest.raises(ValueError, match="every tile"):
        _wastar.wastar(twice, blank, 6, 6, goal_blank, weight=1.0)
    with pytest.raises(ValueError, match="up to 64 cells"):
        big = make_problem(fp.random_board((9, 9), rng=1))
        _wastar.wastar(
            big.wide_cells(), big.blank, 9, 9, big.goal_blank, weight=1.0, tables=object()
        )
