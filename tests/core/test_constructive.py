"""The constructive solver: every size replays to the goal; small boards against the BFS oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle._core import _constructive
from fastpuzzle._solver.constructive import cancel_inverse_pairs, manhattan_sum, solve_fast
from tests.oracle import distances_3x3, distances_from

REPLAY_SHAPES = [
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (4, 4),
    (2, 8),
    (8, 2),
    (5, 5),
    (6, 6),
    (7, 3),
    (3, 7),
    (2, 12),
    (12, 2),
    (10, 10),
    (30, 30),
    (2, 100),
    (100, 3),
]


def check(board, goal=None, **options):
    solution = solve_fast(board, goal, **options)
    target = fp.Board.goal(board.shape) if goal is None else goal
    assert solution.board == board and solution.goal == target
    assert board.apply(solution.moves) == target
    assert solution.verify() and not solution.optimal
    assert solution.algorithm == "constructive"
    assert len(solution) >= solution.lower_bound >= manhattan_sum(board, target)
    return solution


@pytest.mark.parametrize("shape", REPLAY_SHAPES)
def test_moves_replay_to_the_goal(shape):
    for seed in range(4 if shape[0] * shape[1] < 200 else 1):
        check(fp.random_board(shape, rng=seed))


@pytest.mark.parametrize("shape", [(3, 3), (5, 5), (6, 6), (7, 3), (4, 9), (10, 10)])
def test_any_goal(shape):
    for seed in range(3):
        goal = fp.random_board(shape, rng=1000 + seed)
        check(fp.random_board(shape, rng=seed, goal=goal), goal)
    goal = fp.Board.goal(shape, blank="first")
    check(fp.scramble(goal, 100, rng=3), goal)
    check(goal, goal)


def test_100x100_replays_to_the_goal():
    board = fp.random_board((100, 100), rng=7)
    solution = check(board)
    assert solution.stats.expanded >= len(solution)


def test_solved_boards_need_no_moves():
    for shape in [(2, 2), (3, 3), (5, 5), (9, 4)]:
        assert solve_fast(fp.Board.goal(shape)).moves == ""


def test_boards_that_only_need_the_finish_are_optimal():
    # A 3x3, 2x3 or 2x2 with the blank-last goal goes straight to the optimal finishing IDA*.
    truth = distances_3x3()
    for seed in range(150):
        board = fp.random_board((3, 3), rng=seed)
        assert len(check(board)) == truth[board.tiles]
    for shape in [(2, 3), (3, 2), (2, 2)]:
        rows, cols = shape
        table = distances_from((*range(1, rows * cols), 0), rows, cols)
        for tiles, distance in list(table.items())[::7]:
            assert len(check(fp.Board(tiles, shape=shape))) == distance


def test_lengths_are_bounded_on_4x4_by_a_few_times_the_oracle_free_bound():
    for seed in range(20):
        board = fp.random_board((4, 4), rng=seed)
        assert len(check(board)) <= 6 * max(manhattan_sum(board), 1)


def test_shorten_false_keeps_the_raw_moves():
    board = fp.random_board((6, 6), rng=2)
    raw = solve_fast(board, shorten=False)
    short = solve_fast(board)
    assert raw.verify() and short.verify()
    assert len(short) <= len(cancel_inverse_pairs(raw.moves)) <= len(raw) == raw.stats.expanded


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (5, 5), (7, 3), (12, 12)])
def test_window_shortening_keeps_the_end_board_and_never_lengthens(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(5):
        board = fp.random_board(shape, rng=rng)
        # A random walk without immediate reversals: plenty of room to shorten.
        moves = []
        position = board
        for _ in range(int(rng.integers(0, 200))):
            options = [m for m in position.moves() if not moves or m != fp.inverse(moves[-1])]
            move = options[int(rng.integers(len(options)))]
            moves.append(move)
            position = position.move(move)
        moves = "".join(moves)
        cells = np.array(board.tiles, dtype=np.uint16)
        shorter = _constructive.shorten_windows(
            cells, board.blank, *shape, moves, window=int(rng.integers(4, 40))
        )
        assert len(shorter) <= len(moves) and len(shorter) % 2 == len(moves) % 2
        assert board.apply(shorter) == position
        assert tuple(cells.tolist()) == position.tiles


def test_shortening_helps_on_4x4():
    # Each 4x4 of the instance file, solved without and with shortening: never longer, and
    # shorter on the whole (the figures themselves are reported by benchmarks/).
    raw = short = 0
    for seed in range(30):
        board = fp.random_board((4, 4), rng=seed)
        raw += len(cancel_inverse_pairs(solve_fast(board, shorten=False).moves))
        short += len(check(board))
    assert short < raw


def test_unsolvable_boards_raise():
    tiles = list(fp.Board.goal((5, 5)).tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    with pytest.raises(fp.UnsolvableError):
        solve_fast(fp.Board(tiles, shape=(5, 5)))


def test_time_limit_stops_with_a_time_limit_error():
    board = fp.random_board((100, 100), rng=1)
    with pytest.raises(fp.TimeLimitError) as info:
        solve_fast(board, limits=fp.Limits(seconds=1e-9))
    assert info.value.stats.seconds < 5


def test_progress_sees_the_moves_grow():
    seen = []
    solve_fast(fp.random_board((40, 40), rng=1), progress=seen.append)
    assert seen and all(isinstance(s, fp.SearchStats) for s in seen)
    counts = [s.generated for s in seen]
    assert counts == sorted(counts) and counts[-1] > 0


def model_cancel(moves):
    stack = []
    for m in moves:
        if stack and stack[-1] == fp.inverse(m):
            stack.pop()
        else:
            stack.append(m)
    return "".join(stack)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="UDLR", max_size=40))
def test_cancel_inverse_pairs_matches_a_stack_model(moves):
    assert cancel_inverse_pairs(moves) == model_cancel(moves)


@settings(max_examples=40, deadline=None)
@given(
    st.tuples(st.integers(2, 9), st.integers(2, 9)),
    st.integers(0, 2**32 - 1),
)
def test_random_shapes_and_goals_replay(shape, seed):
    rng = np.random.default_rng(seed)
    goal = fp.random_board(shape, rng=rng)
    check(fp.random_board(shape, rng=rng, goal=goal), goal)
