"""Wide IDA*: optimal lengths against the BFS oracle through the wide path, agreement of its
heuristics on 5x5, weighted bounds, limits and progress."""

import time

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _wide
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import idastar, pruning
from fastpuzzle._solver.idastar import MAX_OPTIMAL_DEPTH
from fastpuzzle._solver.request import Request
from fastpuzzle.heuristics import resolve_heuristic
from fastpuzzle.results import core_progress, result_from_core
from tests.oracle import distances_3x3, distances_from


def wide_idastar(
    board, goal=None, *, heuristic="linear_conflict", weight=None, limits=None, progress=None
):
    """IDA* (weighted, given a weight) on the wide kernel whatever the board's size, reported
    as search(algorithm="idastar") reports it."""
    problem = make_problem(board, goal)
    name = resolve_heuristic(heuristic).name
    request = Request(
        problem, name, limits or fp.Limits(), weight, progress=core_progress(progress)
    )
    core = idastar.run(request, wide=True)
    unweighted = weight is None or weight == 1
    return result_from_core(problem.board, problem.goal, core, "idastar", name, unweighted)


def manhattan_sum(board):
    return fp.manhattan(board)


def solved(result):
    assert result.status is fp.Status.SOLVED, result.status
    solution = result.solution
    assert solution.board.apply(solution.moves) == solution.goal
    return solution


def test_3x3_through_the_wide_path_matches_the_oracle():
    truth = distances_3x3()
    for seed in range(120):
        board = fp.random_board((3, 3), rng=seed)
        for heuristic in ("manhattan", "linear_conflict"):
            solution = solved(wide_idastar(board, heuristic=heuristic))
            assert len(solution) == truth[board.tiles]
            assert solution.optimal and solution.algorithm == "idastar"


@pytest.mark.parametrize(("shape", "goals"), [((2, 4), 3), ((4, 2), 3), ((2, 3), 3), ((3, 3), 1)])
def test_small_rectangles_with_random_goals_match_the_oracle(shape, goals):
    rng = np.random.default_rng(sum(shape))
    rows, cols = shape
    for _ in range(goals):
        goal = fp.random_board(shape, rng=rng)
        truth = distances_from(goal.tiles, rows, cols)
        boards = list(truth)
        picks = rng.choice(len(boards), 15, replace=False)
        for index in picks:
            board = fp.Board(boards[int(index)], shape=shape)
            solution = solved(wide_idastar(board, goal))
            assert len(solution) == truth[board.tiles]


def scrambles_5x5(count, moves, seed):
    rng = np.random.default_rng(seed)
    goal = fp.Board.goal((5, 5))
    return [fp.scramble(goal, moves, rng=rng) for _ in range(count)]


def test_5x5_manhattan_and_linear_conflict_agree():
    for board in scrambles_5x5(8, 36, seed=1):
        plain = solved(wide_idastar(board, heuristic="manhattan"))
        strong = solved(wide_idastar(board, heuristic="lc"))
        assert len(plain) == len(strong)
        assert strong.stats.expanded <= plain.stats.expanded
        assert len(strong) >= manhattan_sum(board)


def test_other_goals_and_rectangles_past_16_cells():
    for shape in [(7, 3), (3, 7), (6, 6), (2, 9)]:
        goal = fp.random_board(shape, rng=5)
        board = fp.scramble(goal, 24, rng=6)
        plain = solved(wide_idastar(board, goal, heuristic="manhattan"))
        strong = solved(wide_idastar(board, goal))
        assert len(plain) == len(strong) <= 24


def test_weighted_stays_within_its_bound():
    truth = distances_3x3()
    for seed in range(60):
        board = fp.random_board((3, 3), rng=seed)
        for weight in (1.5, 2.0, 3.0):
            result = wide_idastar(board, weight=weight)
            solution = solved(result)
            assert len(solution) <= weight * truth[board.tiles]
            assert not solution.optimal and solution.algorithm == "idastar"
    for board in scrambles_5x5(6, 40, seed=2):
        optimal = len(solved(wide_idastar(board)))
        for weight in (1.25, 2.0):
            assert len(solved(wide_idastar(board, weight=weight))) <= weight * optimal
    assert wide_idastar(board, weight=1).solution.optimal


def test_time_limit_stops_a_hard_5x5_promptly():
    board = fp.random_board((5, 5), rng=3)
    # The duplicate-pruning machine is built on first use (about 0.9 s, then cached) within the
    # limit; built here, the whole half second is the search's (else, run alone, none is).
    pruning.machine((5, 5), "fsm")
    started = time.perf_counter()
    result = wide_idastar(board, limits=fp.Limits(seconds=0.5))
    spent = time.perf_counter() - started
    assert result.status is fp.Status.TIME_LIMIT and result.solution is None
    # The limit's clock starts a moment before the statistics' (0.49998 s was seen).
    assert 0.49 <= result.stats.seconds < 3 and spent < 3
    assert result.stats.expanded > 0 and result.stats.depth >= manhattan_sum(board)
    with pytest.raises(fp.TimeLimitError):
        result.unwrap()


def test_node_and_depth_limits():
    board = fp.random_board((5, 5), rng=4)
    result = wide_idastar(board, limits=fp.Limits(nodes=100_000))
    assert result.status is fp.Status.NODE_LIMIT and result.stats.expanded == 100_000
    easy = scrambles_5x5(1, 30, seed=3)[0]
    optimal = len(solved(wide_idastar(easy)))
    assert wide_idastar(easy, limits=fp.Limits(max_depth=optimal - 1)).status is (
        fp.Status.DEPTH_LIMIT
    )
    assert len(solved(wide_idastar(easy, limits=fp.Limits(max_depth=optimal)))) == optimal


def test_boards_beyond_the_depth_cap_are_refused_at_once():
    board = fp.random_board((30, 30), rng=1)
    assert manhattan_sum(board) > MAX_OPTIMAL_DEPTH
    started = time.perf_counter()
    result = wide_idastar(board)
    assert time.perf_counter() - started < 1
    assert result.status is fp.Status.DEPTH_LIMIT
    with pytest.raises(fp.DepthLimitError):
        result.unwrap()


def test_progress_reports_the_bound_and_nodes():
    seen = []
    board = fp.random_board((5, 5), rng=3)
    wide_idastar(board, limits=fp.Limits(nodes=400_000), progress=seen.append)
    assert len(seen) >= 5
    assert [s.expanded for s in seen] == sorted(s.expanded for s in seen)
    assert all(s.depth >= manhattan_sum(board) for s in seen)


def test_progress_errors_propagate():
    def fail(_stats):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        wide_idastar(fp.random_board((5, 5), rng=3), progress=fail)


def test_bad_options():
    board = fp.Board.goal((5, 5))
    with pytest.raises(fp.UnknownNameError, match="manhattan, linear_conflict, walking_distance"):
        fp.search(board, algorithm="idastar", heuristic="misplaced")
    with pytest.raises(fp.UnknownNameError, match="manhattan, linear_conflict, walking_distance"):
        wide_idastar(fp.Board.goal((3, 3)), heuristic="misplaced")
    for weight in (0.5, "2", True):
        with pytest.raises(fp.InvalidOptionError, match="expected a weight from 1"):
            fp.search(board, algorithm="idastar", weight=weight)  # type: ignore[arg-type]
    with pytest.raises(fp.InvalidOptionError, match="not a pattern database"):
        fp.search(board, algorithm="idastar", heuristic="pdb", weight=2)
    tiles = list(board.tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    with pytest.raises(fp.UnsolvableError):
        fp.search(fp.Board(tiles, shape=(5, 5)), algorithm="idastar", weight=2)
    assert wide_idastar(board).solution.moves == ""


def test_weighted_idastar_through_search():
    # Weighted IDA* is idastar with a weight: the wide kernel, on any board, not optimal.
    board = fp.random_board((3, 3), rng=2)
    result = fp.search(board, algorithm="idastar", heuristic="linear_conflict", weight=2)
    assert result.solution is not None and result.solution.verify()
    assert (result.algorithm, result.solution.optimal) == ("idastar", False)
    wide = wide_idastar(board, weight=2).stats
    assert (result.stats.expanded, result.stats.depth) == (wide.expanded, wide.depth)
    assert fp.search(board, algorithm="idastar", weight=1).solution.optimal


def test_wide_heuristics_match_the_packed_ones_on_4x4():
    from fastpuzzle._core import _heuristics
    from fastpuzzle.heuristics import BY_NAME

    for seed in range(50):
        goal = fp.random_board((4, 4), rng=seed + 500)
        problem = make_problem(fp.random_board((4, 4), rng=seed, goal=goal), goal)
        cells = problem.wide_cells()
        for name in ("misplaced", "manhattan", "linear_conflict"):
            code = BY_NAME[name].code
            assert _wide.heuristic(code, cells, 4, 4, problem.goal_blank) == _heuristics.evaluate(
                code, problem.packed, 4, 4, problem.goal_blank
            )


def reference_linear_conflict(board, goal):
    """Manhattan plus Hansson's rule, straight from the definition: in each line, the tiles
    whose goal is that line cost two moves for each that must leave it (the line's count less
    its longest run in increasing goal order)."""
    import bisect

    rows, cols = board.shape
    home = {tile: divmod(cell, cols) for cell, tile in enumerate(goal.tiles) if tile}
    at = {tile: divmod(cell, cols) for cell, tile in enumerate(board.tiles) if tile}
    total = sum(abs(at[t][0] - home[t][0]) + abs(at[t][1] - home[t][1]) for t in at)
    lines = [[board.tiles[r * cols + c] for c in range(cols)] for r in range(rows)]
    lines += [[board.tiles[r * cols + c] for r in range(rows)] for c in range(cols)]
    for index, line in enumerate(lines):
        vertical = index >= rows
        number = index - rows if vertical else index
        keys = [home[t][0 if vertical else 1] for t in line if t and home[t][vertical] == number]
        tails: list[int] = []
        for key in keys:
            spot = bisect.bisect_left(tails, key)
            tails[spot : spot + 1] = [key]
        total += 2 * (len(keys) - len(tails))
    return total


@pytest.mark.parametrize("shape", [(20, 20), (3, 40), (40, 3), (5, 5)])
def test_wide_linear_conflict_on_long_lines_matches_its_definition(shape):
    from fastpuzzle.heuristics import BY_NAME

    code = BY_NAME["linear_conflict"].code
    for seed in range(6):
        goal = fp.random_board(shape, rng=seed + 100)
        board = fp.random_board(shape, rng=seed, goal=goal)
        problem = make_problem(board, goal)
        value = _wide.heuristic(code, problem.wide_cells(), *shape, problem.goal_blank)
        assert value == reference_linear_conflict(board, goal)


def test_ctrl_c_interrupts_a_long_search():
    import signal

    previous = signal.signal(signal.SIGALRM, signal.default_int_handler)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    started = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            wide_idastar(fp.random_board((5, 5), rng=3))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - started < 3


@pytest.mark.parametrize(
    ("shape", "moves"), [((5, 5), 30), ((6, 6), 30), ((7, 3), 30), ((10, 10), 26), ((30, 30), 20)]
)
def test_every_wide_method_replays_on_scrambles(shape, moves):
    goal = fp.random_board(shape, rng=8)
    board = fp.scramble(goal, moves, rng=9)
    lengths = {}
    for heuristic in ("manhattan", "linear_conflict"):
        for weight in (None, 1.5, 3.0):
            solution = solved(wide_idastar(board, goal, heuristic=heuristic, weight=weight))
            assert solution.goal == goal and len(solution) <= (weight or 1) * moves
            lengths[heuristic, weight] = len(solution)
    best = lengths["manhattan", None]
    assert lengths["linear_conflict", None] == best
    assert all(length <= (w or 1) * best for (_, w), length in lengths.items())


def test_100x100_scramble_replays():
    goal = fp.Board.goal((100, 100))
    board = fp.scramble(goal, 16, rng=2)
    solution = solved(wide_idastar(board))
    assert len(solution) <= 16 and solution.optimal


@pytest.mark.parametrize("shape", [(3, 6), (4, 5), (6, 3), (3, 7)])
def test_walking_distance_past_16_cells_agrees_with_linear_conflict(shape):
    for seed in range(3):
        board = fp.scramble(fp.Board.goal(shape), 40, rng=seed)
        reference = wide_idastar(board, heuristic="linear_conflict").unwrap()
        walked = wide_idastar(board, heuristic="wd").unwrap()
        assert walked.heuristic == "walking_distance" and walked.verify()
        assert len(walked) == len(reference)
        # The first bound is the root's h: at least Manhattan, at most the optimum.
        first = wide_idastar(board, heuristic="walking_distance", limits=fp.Limits(max_depth=0))
        root_h = 0 if first.solution is not None else first.stats.depth
        assert manhattan_sum(board) <= root_h <= len(reference)


def test_walking_distance_is_refused_where_no_side_has_tables():
    board = fp.scramble(fp.Board.goal((5, 5)), 20, rng=1)
    with pytest.raises(fp.UnknownNameError, match="65,650,495"):
        wide_idastar(board, heuristic="walking_distance")
