"""The anytime solver's beam phase on large boards (``_solver/beam.py``, 36 to 400 cells).

Checked under node limits (deterministic), never against the clock. Optimal lengths come from
a plain breadth-first search here (the boards are short scrambles), not from the code under
test.
"""

from __future__ import annotations

import pytest

import fastpuzzle as fp
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import anytime, beam
from fastpuzzle._solver.constructive import solve_fast
from tests.oracle import distance_between
from tests.scrambles import scrambled


def _bfs_distance(board: fp.Board, cap: int) -> int:
    """Fewest moves to the goal, by breadth-first search to ``cap`` moves (tests/oracle.py)."""
    return distance_between(board.tiles, fp.Board.goal(board.shape).tiles, *board.shape, cap)


def test_10x10_under_a_node_limit_answers_far_shorter_than_the_constructive():
    # Before the beam phase: 2237 moves from 2361 under 3 million nodes (weighted IDA* does
    # not finish on 10x10, the windows gain a little); with it: 1453.
    board = fp.random_board((10, 10), rng=3)
    first = solve_fast(board)
    limits = fp.Limits(nodes=3_000_000)
    one = fp.solve(board, optimal=False, limits=limits)
    assert one.verify() and one.algorithm == "anytime"
    assert len(one) <= 0.75 * len(first)
    assert fp.manhattan(board) <= one.lower_bound <= len(one)
    again = fp.solve(board, optimal=False, limits=limits)
    assert again.moves == one.moves and again.lower_bound == one.lower_bound


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bounds_and_lengths_against_breadth_first_optima_on_7x7(seed):
    board = scrambled((7, 7), 10, seed)
    optimum = _bfs_distance(board, 10)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=200_000))
    assert solution.verify()
    assert solution.lower_bound <= optimum <= len(solution)
    moves, expanded, _, _ = beam.beam_answer(make_problem(board), 64)
    assert len(moves) >= optimum and expanded > 0
    assert board.apply(moves) == fp.Board.goal((7, 7))


@pytest.mark.parametrize("shape", [(7, 7), (8, 12), (12, 12)])
def test_beam_answers_reach_any_goal(shape):
    board = fp.random_board(shape, rng=4)
    goal = fp.Board.goal(shape).apply("UULL")
    problem = make_problem(board, goal)
    moves, _, _, _ = beam.beam_answer(problem, 64)
    assert board.apply(moves) == goal
    assert anytime._reaches_goal(problem, moves)


def test_a_beam_stopped_by_its_limit_is_finished_by_the_constructive_solver():
    board = fp.random_board((10, 10), rng=5)
    moves, expanded, _, _ = beam.beam_answer(make_problem(board), 1024, node_limit=5_000)
    assert expanded == 5_000
    assert board.apply(moves) == fp.Board.goal((10, 10))


def test_boards_outside_the_beam_sizes_do_not_run_it(monkeypatch):
    calls = []
    monkeypatch.setattr(beam, "beam_phase", lambda *args: calls.append(args) or args[1])
    limits = fp.Limits(nodes=20_000)
    for shape in ((5, 5), (4, 8), (21, 21)):
        fp.solve(fp.random_board(shape, rng=1), optimal=False, limits=limits, workers=1)
    assert not calls
    fp.solve(fp.random_board((6, 6), rng=1), optimal=False, limits=limits, workers=1)
    assert len(calls) == 1


def test_the_beams_memory_is_in_the_answers_statistics():
    # The beams' boards (megabytes at a width of 1,024) were left out: a 7x7 answer said 1,456
    # bytes at its peak.
    board = fp.random_board((7, 7), rng=1)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=1_000_000))
    _, _, _, allocated = beam.beam_answer(make_problem(board), beam.FIRST_WIDTH)
    assert solution.stats.peak_allocated_bytes >= allocated > 100_000
    assert solution.stats.peak_memory_bytes >= solution.stats.peak_allocated_bytes


def test_10x10_runs_no_weighted_search_and_the_unweighted_one_gets_the_time(monkeypatch):
    # Weighted IDA* never finished on 10x10 within its 1,000-move paths; from 100 cells on the
    # time after the beams and windows goes to the unweighted search, whose bound it raises.
    # (Beams on a small share, so that the node limit reaches the searches after the windows.)
    calls = []
    searched = anytime._idastar

    def recording(*args, **kwargs):
        calls.append((kwargs["weight"], kwargs["max_depth"]))
        return searched(*args, **kwargs)

    monkeypatch.setattr(anytime, "_idastar", recording)
    monkeypatch.setattr(anytime.beam, "SHARE", 0.05)
    board = fp.random_board((10, 10), rng=3)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=8_000_000))
    assert solution.verify()
    # The windows search below their own length (under 120 moves); the rest is the portfolio:
    # before, weights 5 and 4 first (max_depth -1), now the unweighted search below the best.
    portfolio = [(weight, depth) for weight, depth in calls if depth == -1 or depth > 120]
    assert portfolio and all(weight == 1.0 and depth > 120 for weight, depth in portfolio)
    assert fp.manhattan(board) <= solution.lower_bound <= len(solution)
