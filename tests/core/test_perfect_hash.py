"""The perfect-index path of BFS and the best-first searches (boards of up to 12 cells).

Every board of the start's parity class has its own index, so those searches keep a byte per
board (and a g for best-first) instead of a hash table. These tests check the index against an
independent Lehmer rank in Python, the searches against the BFS oracle and IDA*, and that the
new path expands exactly what the hash-table path expands (``perfect_hash=False``), obeys the
limits, and falls back to the table when its arrays would not fit.
"""

from __future__ import annotations

import math
import random
import sys
import time

import pytest

import fastpuzzle as fp
from fastpuzzle._core import _search
from fastpuzzle._problem import make_problem
from fastpuzzle.heuristics import BY_NAME
from tests.interrupts import interrupt_latency
from tests.oracle import distances_3x3, distances_from

HARD_3X3 = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves
HARD_2X5 = fp.Board("0 5 3 2 1/9 4 8 7 6")  # 55 moves: the farthest 2x5 board
HARD_3X4 = fp.Board("2 _ 9 10/11 7 5 6/3 4 8 1")  # 44 moves: BFS takes seconds

# Core results: (status, moves, expanded, generated, max_frontier, peak_memory_bytes, seconds,
# depth, iterations, allocated_bytes). Both paths must agree on all but the memory and the time.
SAME = ("status", "moves", "expanded", "generated", "max_frontier", "depth", "iterations")


def _core_args(board, goal=None):
    problem = make_problem(board, goal)
    return (problem.packed, problem.blank, problem.rows, problem.cols, problem.goal_blank)


def _same(a, b):
    return tuple(getattr(a, name) for name in SAME) == tuple(getattr(b, name) for name in SAME)


def _lehmer_index(tiles, blank):
    # Independent of the core: the Lehmer rank of the tiles in reading order (blank skipped),
    # halved (the last two digits are fixed by parity), then interleaved with the blank cell.
    sequence = [t for t in tiles if t]
    n = len(sequence)
    rank = sum(
        sum(later < tile for later in sequence[j + 1 :]) * math.factorial(n - 1 - j)
        for j, tile in enumerate(sequence)
    )
    return (rank // 2) * len(tiles) + blank


def _packed(tiles):
    return sum(tile << (4 * cell) for cell, tile in enumerate(tiles))


# --- the index --------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)])
def test_index_numbers_every_reachable_board_once(shape):
    rows, cols = shape
    cells = rows * cols
    goal = (*range(1, cells), 0)
    boards = distances_3x3() if shape == (3, 3) else distances_from(goal, rows, cols)
    indices = set()
    for tiles in boards:
        index, size = _search.perfect_index(_packed(tiles), tiles.index(0), cells)
        assert 0 <= index < size
        indices.add(index)
    assert size == math.factorial(cells) // 2 == len(boards) == len(indices)


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (2, 6), (4, 3)])
def test_index_is_the_halved_lehmer_rank(shape):
    # Up to 8 tiles the core ranks by table lookups, past that by a digit loop: both must give
    # the plain Lehmer rank, and the lookups must agree with the loop.
    rng = random.Random(sum(shape))
    cells = shape[0] * shape[1]
    for _ in range(300):
        tiles = fp.random_board(shape, rng=rng.randrange(1 << 30)).tiles
        blank = tiles.index(0)
        index, _ = _search.perfect_index(_packed(tiles), blank, cells)
        assert index == _lehmer_index(tiles, blank)
        assert _search.perfect_index(_packed(tiles), blank, cells, tables=False)[0] == index


def test_no_index_past_twelve_cells():
    assert _search.perfect_index(_packed(fp.Board.goal((4, 4)).tiles), 15, 16) is None


# --- BFS --------------------------------------------------------------------------------------


@pytest.mark.heavy
def test_bfs_matches_the_oracle_and_the_table_path_on_random_3x3_boards():
    oracle = distances_3x3()
    for tiles in random.Random(11).sample(sorted(oracle), 150):
        args = _core_args(tiles)
        fast = _search.bfs(*args)
        table = _search.bfs(*args, perfect_hash=False)
        assert _same(fast, table), tiles
        assert len(fast.moves) == oracle[tiles]
        assert fp.Board(tiles).apply(fast.moves) == fp.Board.goal((3, 3))


def test_bfs_whole_3x3_space_counts_like_the_table():
    args = _core_args(HARD_3X3)
    fast = _search.bfs(*args)
    table = _search.bfs(*args, perfect_hash=False)
    assert _same(fast, table)
    assert len(fast.moves) == 31
    assert fast.expanded == 181_347  # almost every one of the 181,440 boards is expanded
    # The byte array (and its sentinel) is allocated from the start.
    assert fast.allocated_bytes > 181_440


@pytest.mark.heavy
def test_bfs_on_2x4_with_other_goals():
    rng = random.Random(5)
    for _ in range(20):
        goal = fp.random_board((2, 4), rng=rng.randrange(1 << 30))
        oracle = distances_from(goal.tiles, 2, 4)
        for tiles in rng.sample(sorted(oracle), 10):
            args = _core_args(fp.Board(tiles, shape=(2, 4)), goal)
            fast = _search.bfs(*args)
            assert _same(fast, _search.bfs(*args, perfect_hash=False))
            assert len(fast.moves) == oracle[tiles]
            assert fp.Board(tiles, shape=(2, 4)).apply(fast.moves) == goal


@pytest.mark.heavy
@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 5), (2, 6)])
def test_bfs_on_bigger_boards_agrees_with_the_table_and_idastar(shape):
    for seed in range(3):
        board = fp.scramble(fp.Board.goal(shape), moves=24, rng=seed)
        args = _core_args(board)
        fast = _search.bfs(*args)
        assert _same(fast, _search.bfs(*args, perfect_hash=False))
        # It took the array path.
        assert fast.allocated_bytes >= math.factorial(shape[0] * shape[1]) // 2
        optimal = fp.solve(board, algorithm="idastar", heuristic="manhattan")
        assert len(fast.moves) == len(optimal)
        assert board.apply(fast.moves) == fp.Board.goal(shape)


def test_bfs_through_the_public_api():
    result = fp.search(HARD_2X5, algorithm="bfs")
    assert len(result.unwrap()) == 55
    assert result.solution.verify()
    assert result.stats.expanded == 1_814_388
    assert result.stats.peak_allocated_bytes > 1_814_400


# --- best-first -------------------------------------------------------------------------------

BEST_FIRST = [
    # (g_scale, h_scale, lookahead): A*, weighted A* (w = 5/2), greedy, lookahead greedy.
    (1, 1, False),
    (2, 5, False),
    (0, 1, False),
    (0, 1, True),
]


@pytest.mark.parametrize(("g_scale", "h_scale", "lookahead"), BEST_FIRST)
@pytest.mark.parametrize("heuristic", fp.HEURISTICS)
def test_best_first_expands_exactly_what_the_table_path_expands(
    g_scale, h_scale, lookahead, heuristic
):
    code = BY_NAME[heuristic].code
    oracle = distances_3x3()
    for tiles in random.Random(3).sample(sorted(oracle), 40):
        args = _core_args(tiles)
        options = {
            "heuristic": code,
            "g_scale": g_scale,
            "h_scale": h_scale,
            "lookahead": lookahead,
        }
        fast = _search.best_first(*args, **options)
        assert _same(fast, _search.best_first(*args, **options, perfect_hash=False)), tiles
        assert fp.Board(tiles).apply(fast.moves) == fp.Board.goal((3, 3))
        if g_scale == h_scale == 1:
            assert len(fast.moves) == oracle[tiles]


@pytest.mark.parametrize("algorithm", ["astar", "wastar", "greedy"])
def test_best_first_on_2x5_and_2x4(algorithm):
    code = BY_NAME["manhattan"].code
    scales = {"astar": (1, 1), "wastar": (1, 2), "greedy": (0, 1)}[algorithm]
    for shape in [(2, 4), (2, 5)]:
        for seed in range(4):
            board = fp.random_board(shape, rng=seed)
            args = _core_args(board)
            options = {"heuristic": code, "g_scale": scales[0], "h_scale": scales[1]}
            fast = _search.best_first(*args, **options)
            assert _same(fast, _search.best_first(*args, **options, perfect_hash=False))
            # It took the arrays: a state byte per board, and a g of 1 byte (A*) or 4.
            per_board = 2 if algorithm == "astar" else 5
            assert fast.allocated_bytes >= per_board * math.factorial(shape[0] * shape[1]) // 2


def test_best_first_keeps_the_table_on_twelve_cells():
    # A best-first search touches a small part of a 12-cell space: 1.2 GB of arrays would cost
    # more than they save, so it stays on the hash table.
    board = fp.scramble(fp.Board.goal((3, 4)), moves=30, rng=2)
    args = _core_args(board)
    code = BY_NAME["manhattan"].code
    fast = _search.best_first(*args, heuristic=code, memory_limit=0)
    table = _search.best_first(*args, heuristic=code, memory_limit=0, perfect_hash=False)
    assert fast.counts() == table.counts()


# --- limits -----------------------------------------------------------------------------------


@pytest.mark.parametrize("nodes", [1, 1000, 65536, 100_003])
@pytest.mark.parametrize(("algorithm", "board"), [("bfs", HARD_3X4), ("astar", HARD_2X5)])
def test_node_limit_is_exact(algorithm, board, nodes):
    result = fp.search(board, algorithm=algorithm, limits=fp.Limits(nodes=nodes))
    assert result.status is fp.Status.NODE_LIMIT
    assert result.stats.expanded == nodes


def test_depth_limit_and_the_table_path_agree():
    for max_depth in (0, 1, 20, 30, 31):
        args = _core_args(HARD_3X3)
        fast = _search.bfs(*args, max_depth=max_depth)
        assert _same(fast, _search.bfs(*args, max_depth=max_depth, perfect_hash=False))
        code = BY_NAME["manhattan"].code
        fast = _search.best_first(*args, heuristic=code, max_depth=max_depth)
        table = _search.best_first(*args, heuristic=code, max_depth=max_depth, perfect_hash=False)
        assert _same(fast, table)
    assert fp.search(HARD_3X3, algorithm="bfs", limits=fp.Limits(max_depth=20)).status is (
        fp.Status.DEPTH_LIMIT
    )


def test_time_limit_stops_promptly():
    started = time.perf_counter()
    result = fp.search(HARD_3X4, algorithm="bfs", limits=fp.Limits(seconds=0.2))
    wall = time.perf_counter() - started
    assert result.status is fp.Status.TIME_LIMIT
    assert 0.2 <= result.stats.seconds < 1.0
    assert wall < 1.5


def test_memory_cap_stops_the_queue():
    # The 2x5 array (1.8 MB) fits in half of a 4 MB cap, the BFS queue of the hardest board
    # does not fit in the rest.
    cap = 4 << 20
    result = fp.search(HARD_2X5, algorithm="bfs", limits=fp.Limits(memory_bytes=cap))
    assert result.status is fp.Status.MEMORY_LIMIT
    assert 1_814_400 < result.stats.peak_allocated_bytes <= cap
    assert result.stats.expanded > 10_000


def test_progress_is_called_at_every_checkpoint():
    seen: list[fp.SearchStats] = []
    result = fp.search(HARD_3X3, algorithm="bfs", progress=seen.append)
    assert result.solved
    assert [s.expanded for s in seen] == [65536, 131072]
    assert all(s.generated >= s.expanded and s.depth > 0 for s in seen)


class Stop(Exception):
    pass


@pytest.mark.parametrize(("algorithm", "board"), [("bfs", HARD_3X3), ("astar", HARD_2X5)])
def test_progress_exception_stops_the_search(algorithm, board):
    def progress(stats):
        raise Stop(stats.expanded)

    with pytest.raises(Stop):
        fp.search(board, algorithm=algorithm, progress=progress)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_interrupts_quickly():
    latency = interrupt_latency(0.3, HARD_3X4, algorithm="bfs", limits=fp.Limits(seconds=30))
    assert latency < 0.5


# --- fallback ---------------------------------------------------------------------------------


def test_a_cap_too_small_for_the_array_falls_back_to_the_table():
    # 181,441 bytes of array need a cap of twice that; below it the table is used, and the
    # search still solves the board within the cap.
    board = fp.scramble(fp.Board.goal((3, 3)), moves=12, rng=3)
    args = _core_args(board)
    for cap in (100_000, 300_000):
        fast = _search.bfs(*args, memory_limit=cap)
        table = _search.bfs(*args, memory_limit=cap, perfect_hash=False)
        assert fast.counts() == table.counts()
        assert fast.status == 0
        assert fast.allocated_bytes <= cap
    assert _search.bfs(*args, memory_limit=400_000).allocated_bytes > 181_440


def test_a_board_past_twelve_cells_uses_the_table():
    board = fp.scramble(fp.Board.goal((4, 4)), moves=20, rng=1)
    args = _core_args(board)
    assert _search.bfs(*args).counts() == _search.bfs(*args, perfect_hash=False).counts()
