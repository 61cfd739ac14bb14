"""The beam kernel (``_core/_beam.pyx``): paths that replay to the goal, breadth-first lengths
when the beam holds every board of a level, limits, a stall's partial path."""

import random

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _beam
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._problem import make_problem
from tests.oracle import distances_3x3


def _run(board, goal=None, **options):
    problem = make_problem(board, goal)
    found = _beam.beam(
        problem.wide_cells(),
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        **options,
    )
    return problem, found


def _replayed(board, moves):
    return board.apply(moves) if moves else board


def test_a_beam_holding_every_board_is_breadth_first_on_3x3():
    # 3x3 has 181,440 boards: a beam that wide keeps each level whole, so its first path to
    # the goal is a shortest one (the oracle's breadth-first distance).
    distances = distances_3x3()
    rng = random.Random(55)
    boards = rng.sample(sorted(distances), 12)
    for tiles in boards:
        board = fp.Board(tiles, shape=(3, 3))
        _, found = _run(board, width=200_000)
        assert found.status == SearchStatus.STATUS_SOLVED
        assert _replayed(board, found.moves) == fp.Board.goal((3, 3))
        assert len(found.moves) == distances[tiles]


@pytest.mark.parametrize("shape", [(4, 4), (7, 7), (10, 10), (6, 9)])
def test_narrow_beams_reach_the_goal_or_stop_with_a_path_that_replays(shape):
    board = fp.random_board(shape, rng=7)
    for width in (16, 256):
        _, found = _run(board, width=width, patience=200)
        end = _replayed(board, found.moves)
        if found.status == SearchStatus.STATUS_SOLVED:
            assert end == fp.Board.goal(shape)
        else:
            # A stalled beam's moves lead to its board of least linear conflict.
            assert found.status == SearchStatus.STATUS_EXHAUSTED
            assert fp.manhattan(end) < fp.manhattan(board)


def test_any_goal_blank():
    board = fp.random_board((7, 7), rng=3)
    goal = fp.Board.goal((7, 7)).apply("UUULLL")
    _, found = _run(board, goal, width=4096)
    assert found.status == SearchStatus.STATUS_SOLVED
    assert _replayed(board, found.moves) == goal


def test_the_goal_is_an_empty_path():
    _, found = _run(fp.Board.goal((7, 7)), width=8)
    assert found.status == SearchStatus.STATUS_SOLVED and found.moves == ""


def test_limits_stop_it_with_a_partial_path():
    board = fp.random_board((10, 10), rng=1)
    _, found = _run(board, width=64, node_limit=1_000)
    assert found.status == SearchStatus.STATUS_NODE_LIMIT
    assert found.expanded == 1_000
    _replayed(board, found.moves)  # legal moves
    _, found = _run(board, width=64, max_depth=30)
    assert found.status == SearchStatus.STATUS_DEPTH_LIMIT and len(found.moves) <= 30


def test_the_same_call_gives_the_same_path_and_a_seed_another_tie_break():
    board = fp.random_board((7, 7), rng=2)
    one = _run(board, width=256)[1].moves
    assert one == _run(board, width=256)[1].moves
    other = _run(board, width=256, seed=3)[1]
    assert other.moves == _run(board, width=256, seed=3)[1].moves
    assert other.moves != one
    assert other.status != SearchStatus.STATUS_SOLVED or _replayed(board, other.moves) == (
        fp.Board.goal((7, 7))
    )


def test_bad_width_and_cells():
    problem = make_problem(fp.random_board((7, 7), rng=1))
    cells = problem.wide_cells()
    with pytest.raises(ValueError, match="beam width"):
        _beam.beam(cells, problem.blank, 7, 7, problem.goal_blank, width=0)
    with pytest.raises(ValueError, match="cells"):
        _beam.beam(np.zeros(5, dtype=np.uint16), 0, 7, 7, 48, width=4)


def test_what_the_kernel_refuses_before_it_reads_out_of_its_arrays():
    # A side past 100 overran the line keys on the stack, a tile past the board read past the
    # goal tables, a width past 2**24 could fill the seen-set: each is refused now.
    problem = make_problem(fp.random_board((7, 7), rng=1))
    cells = problem.wide_cells()
    blank, goal_blank = problem.blank, problem.goal_blank
    with pytest.raises(ValueError, match="beam width from 1 to 1048576"):
        _beam.beam(cells, blank, 7, 7, goal_blank, width=1 << 21)
    with pytest.raises(ValueError, match="2 to 100 rows and columns, got 101x1"):
        _beam.beam(np.zeros(101, dtype=np.uint16), 0, 101, 1, 100, width=4)
    too_large = cells.copy()
    too_large[(blank + 1) % 49] = 49
    with pytest.raises(ValueError, match="tiles below 49, got 49"):
        _beam.beam(too_large, blank, 7, 7, goal_blank, width=4)
    with pytest.raises(ValueError, match="blank's cells"):
        _beam.beam(cells, (blank + 1) % 49, 7, 7, goal_blank, width=4)
    with pytest.raises(ValueError, match="blank's cells"):
        _beam.beam(cells, blank, 7, 7, 49, width=4)
