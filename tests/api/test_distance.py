"""Boards at an exact optimal distance (issue 57): random_board / random_boards(distance=) and
the environment's reset(options={"distance": d}), judged by BFS over the whole 3x3 space
(tests/oracle.py) and, past 9 cells, by a second algorithm (A* beside the default IDA*)."""

import collections
import logging
import sys

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import distance as distance_module
from tests.oracle import distances_3x3, distances_from


def _tiles(word: int, cells: int) -> tuple[int, ...]:
    return tuple((int(word) >> (4 * cell)) & 15 for cell in range(cells))


@pytest.mark.parametrize("d", [0, 1, 2, 13, 20, 30, 31])
def test_3x3_boards_are_exactly_that_far_by_bfs(d):
    oracle = distances_3x3()
    words = fp.random_boards(200, (3, 3), distance=d, rng=d)
    assert {oracle[_tiles(w, 9)] for w in words.tolist()} == {d}
    board = fp.random_board((3, 3), distance=d, rng=d)
    assert oracle[board.tiles] == d


def test_3x3_draw_covers_every_board_at_a_small_distance_evenly():
    # Uniform: the 4 boards 2 moves from the goal (blank last) come a quarter of the time each.
    oracle = distances_3x3()
    at_two = {tiles for tiles, d in oracle.items() if d == 2}
    words = fp.random_boards(4000, (3, 3), distance=2, rng=5)
    counts = collections.Counter(_tiles(w, 9) for w in words.tolist())
    assert set(counts) == at_two
    assert min(counts.values()) > 800


def test_another_goal_and_a_rectangle_are_judged_by_their_own_bfs():
    goal = fp.Board("8 7 6/5 _ 4/3 2 1")
    oracle = distances_from(goal.tiles, 3, 3)
    for d in (1, 7, 18, 30):
        words = fp.random_boards(50, (3, 3), distance=d, goal=goal, rng=d)
        assert {oracle[_tiles(w, 9)] for w in words.tolist()} == {d}
    rect = fp.Board.goal((2, 4), blank="first")
    oracle = distances_from(rect.tiles, 2, 4)
    for d in (3, 21):
        board = fp.random_board((2, 4), distance=d, goal=rect, rng=d)
        assert oracle[board.tiles] == d


def test_unique_draws_every_board_at_the_distance_once():
    oracle = distances_3x3()
    wanted = sorted(tiles for tiles, d in oracle.items() if d == 5)
    words = fp.random_boards(len(wanted), (3, 3), distance=5, unique=True, rng=1)
    assert sorted(_tiles(w, 9) for w in words.tolist()) == wanted
    with pytest.raises(fp.InvalidOptionError, match="at most 20 with unique=True"):
        fp.random_boards(len(wanted) + 1, (3, 3), distance=5, unique=True)


def test_distance_counts_match_bfs():
    oracle = distances_3x3()
    expected = collections.Counter(oracle.values())
    counts = distance_module.distance_counts(fp.Board.goal((3, 3)))
    assert counts == [expected[d] for d in range(max(expected) + 1)]


@pytest.mark.parametrize("d", [6, 11, 16])
def test_4x4_boards_are_that_far_by_a_second_algorithm(d):
    boards = fp.random_boards(3, (4, 4), distance=d, rng=d)
    for word in boards.tolist():
        board = fp.Board.from_packed(int(word), (4, 4))
        assert len(fp.search(board, algorithm="astar", heuristic="manhattan").unwrap()) == d
    board = fp.random_board((4, 4), distance=d, rng=d)
    assert len(fp.search(board, algorithm="astar", heuristic="manhattan").unwrap()) == d


def test_a_rectangle_past_9_cells_is_solved_to_its_distance():
    for d in (9, 20):
        board = fp.random_board((2, 5), distance=d, rng=d)
        assert len(fp.search(board, algorithm="astar", heuristic="manhattan").unwrap()) == d
    assert fp.random_board((4, 4), distance=0, rng=1) == fp.Board.goal((4, 4))


def test_bad_distances_are_refused_typed():
    with pytest.raises(fp.InvalidOptionError, match="no 3x3 board is 32 moves"):
        fp.random_board((3, 3), distance=32)
    with pytest.raises(fp.InvalidOptionError, match="farthest are 30"):
        fp.random_board((3, 3), distance=31, goal="1 2 3/4 _ 5/6 7 8")
    for bad in (-1, 2.5, "7"):
        with pytest.raises(fp.InvalidOptionError, match="distance"):
            fp.random_board((3, 3), distance=bad)
    with pytest.raises(fp.InvalidOptionError, match="max_tries"):
        fp.random_board((4, 4), distance=3, max_tries=0)


def test_too_few_tries_raise_a_typed_error_and_the_draw_logs(caplog, monkeypatch):
    # No 2x5 board is 60 moves away (the farthest are 55, by BFS): every try falls short.
    monkeypatch.setattr(distance_module, "_TELL_AFTER", 0.0)
    logs = caplog.at_level(logging.INFO, logger="fastpuzzle.distance")
    wrong = pytest.raises(fp.DistanceNotFoundError, match="no board 60 moves from the goal in 3")
    with logs, wrong:
        fp.random_board((2, 5), distance=60, max_tries=3, rng=1)
    assert "boards 60 moves away: 0 of 1 found in 1 tries" in caplog.text


def test_env_reset_at_a_distance():
    pytest.importorskip("gymnasium")
    from fastpuzzle.env import SlidingPuzzleEnv

    oracle = distances_3x3()
    env = SlidingPuzzleEnv(shape=(3, 3))
    for d in (0, 4, 25):
        _, info = env.reset(seed=d, options={"distance": d})
        assert info["distance"] == d
        assert oracle[env.board.tiles] == d
    first = env.reset(seed=3, options={"distance": 12})[0]
    assert np.array_equal(env.reset(seed=3, options={"distance": 12})[0], first)
    with pytest.raises(fp.InvalidOptionError, match="not both"):
        env.reset(options={"distance": 3, "board": "1 2 3/4 5 6/7 _ 8"})
    with pytest.raises(fp.InvalidOptionError, match="no 3x3 board is 40 moves"):
        env.reset(options={"distance": 40})


@pytest.mark.parametrize(
    "limits", [fp.Limits(nodes=10), fp.Limits(max_depth=3)], ids=["nodes", "max_depth"]
)
def test_a_solve_stopped_by_limits_is_a_failed_try(limits):
    # Before: the first stopped solve raised NodeLimitError (DepthLimitError) out of the draw.
    said = "in 4 scrambles solved .*the limits stopped 4 of the solves"
    with pytest.raises(fp.DistanceNotFoundError, match=said):
        fp.random_board((4, 4), distance=30, rng=1, max_tries=4, limits=limits)


def test_a_depth_study_past_9_cells_draws_without_its_limits():
    # Before: the study's node limit stopped the draw's solves, and NodeLimitError ended it.
    study = fp.depth_study(
        (4, 4), [30], per_depth=1, methods=["idastar"], limits=fp.Limits(nodes=10), rng=1
    )
    (row,) = study.rows
    assert (row.depth, row.boards, row.solved) == (30, 1, 0)


@pytest.mark.parametrize(
    ("shape", "distance", "said"),
    [
        ((4, 4), 81, "at most 80, got 81: no 4x4 board is farther"),
        ((4, 4), 200, "at most 80, got 200"),
        ((4, 4), 10**9, "at most 80, got 1000000000"),
        ((3, 4), 10**9, "at most 864, got 1000000000: no 3x4 board is farther"),
    ],
)
def test_a_distance_past_the_farthest_is_refused_at_once(monkeypatch, shape, distance, said):
    # Before: 16 s of solves and DistanceNotFoundError (200), or 20 s and an error naming
    # scramble's ``moves``, which the caller never passed (10**9).
    def no_solving(*args, **kwargs):
        raise AssertionError("solved a scramble")

    monkeypatch.setattr(sys.modules["fastpuzzle.solve"], "solve", no_solving)
    with pytest.raises(fp.InvalidOptionError, match=f"expected distance of {said}"):
        fp.random_board(shape, distance=distance)
    with pytest.raises(fp.InvalidOptionError, match=f"expected distance of {said}"):
        fp.random_boards(1, shape, distance=distance)


def test_the_4x4_bound_holds_for_a_goal_with_the_blank_anywhere():
    # 80 from a corner goal (Korf and Schultze's BFS); a goal with the blank inside is two
    # moves from one with it in a corner, so no board is more than 82 moves from it.
    inside = fp.Board.goal((4, 4)).apply("UL")
    assert distance_module.farthest_bound(fp.Board.goal((4, 4))) == 80
    assert distance_module.farthest_bound(inside) == 82
    assert distance_module.farthest_bound(fp.Board.goal((3, 3))) == 31  # the table's own


def test_unique_past_9_cells_refuses_more_boards_than_there_are_that_near(monkeypatch):
    # Before: 5,000 solves, then "a larger max_tries tries longer"; two boards are one move
    # from the 4x4 goal (its blank in a corner has two neighbours).
    def no_solving(*args, **kwargs):
        raise AssertionError("solved a scramble")

    monkeypatch.setattr(sys.modules["fastpuzzle.solve"], "solve", no_solving)
    with pytest.raises(fp.InvalidOptionError, match=r"at most 2 with unique=True .* got 5"):
        fp.random_boards(5, (4, 4), distance=1, unique=True)
    with pytest.raises(fp.InvalidOptionError, match=r"at most 1 with unique=True .* got 2"):
        fp.random_boards(2, (4, 4), distance=0, unique=True)


def test_tries_that_find_the_same_boards_do_not_ask_for_more_tries(monkeypatch):
    # Past the breadth-first count (a layer too large to count), the message says the tries
    # found boards already drawn rather than suggesting a larger max_tries.
    monkeypatch.setattr(distance_module, "_LAYER_CAP", 1)
    with pytest.raises(fp.DistanceNotFoundError, match="found a board already drawn") as error:
        fp.random_boards(3, (4, 4), distance=1, unique=True, rng=1, max_tries=20)
    assert "max_tries" not in str(error.value)
