"""peak_memory_bytes: the bytes of nodes a search stored, counted the same way for every
algorithm, so that a comparison's memory column compares searches.

Before: the perfect-index searches reported their whole preallocated arrays (BFS 197,825 bytes
after expanding one node, greedy and lookahead about 895 KiB whatever they did), IDA* its fixed
state (16 KiB on any board) and IDA* past 16 cells and the fast solver 0.
"""

from __future__ import annotations

import pytest

import fastpuzzle as fp
from fastpuzzle._core import _search
from tests.oracle import distances_3x3

BOARD = "5 2 3/4 1 8/_ 7 6"  # 14 moves
EASY = "1 3 _/5 2 6/4 7 8"  # 6 moves

#: The most a stored node costs in any search: a hash-table entry (16 bytes) and a queue item
#: (16 bytes in a FIFO, 8 in a bucket queue).
MOST_PER_NODE = 32


def _search_with(algorithm: str, board: str, limits: fp.Limits | None = None) -> fp.SearchResult:
    informed = fp.ALGORITHMS[algorithm].informed
    if algorithm == "dfs" and limits is None:
        # The tree search's default bound (misplaced + Manhattan) is short of 14 moves here.
        limits = fp.Limits(max_depth=20)
    return fp.search(
        board,
        algorithm=algorithm,
        heuristic="manhattan" if informed else None,
        seed=7 if algorithm == "random" else None,
        limits=limits,
        workers=1 if algorithm == "idastar" else None,
    )


@pytest.mark.parametrize("algorithm", list(fp.ALGORITHMS))
def test_every_algorithm_counts_what_it_stored(algorithm):
    result = _search_with(algorithm, BOARD)
    stats = result.stats
    assert result.solved
    # More than the start board alone, and never more than every node it generated stored
    # at the dearest entry size: a count of nodes, not of capacity.
    assert 8 < stats.peak_memory_bytes <= 8 + (stats.generated + 1) * MOST_PER_NODE


@pytest.mark.parametrize("algorithm", [a for a in fp.ALGORITHMS if a not in ("random", "dfs")])
def test_the_figure_grows_with_the_work_done(algorithm):
    # Before: BFS reported 197,825 bytes after one expansion, greedy and lookahead about
    # 895 KiB, A* 362 KiB, IDA* 16 KiB, whatever they had done.
    hard = "8 6 7/2 5 4/3 _ 1"  # 31 moves: no method here finishes within 50 expansions
    one = _search_with(algorithm, hard, fp.Limits(nodes=1)).stats.peak_memory_bytes
    more = _search_with(algorithm, hard, fp.Limits(nodes=50)).stats.peak_memory_bytes
    assert one < 1024
    assert one < more or algorithm in ("iddfs", "idastar")  # their path may not deepen


def test_greedy_on_an_easy_board_stores_less_than_on_a_harder_one():
    easy = _search_with("greedy", EASY).stats
    hard = _search_with("greedy", BOARD).stats
    assert easy.expanded < hard.expanded
    assert easy.peak_memory_bytes < hard.peak_memory_bytes
    # Both used the same preallocated arrays: the allocation alone does not tell them apart.
    assert easy.peak_allocated_bytes > 100 * easy.peak_memory_bytes


def test_depth_first_searches_count_their_path_the_same_way():
    # IDDFS and IDA* both hold the path, a frame a level: the same figure for the same length
    # (before: IDA* reported its fixed state, 16 KiB, and IDDFS 255 bytes).
    length = distances_3x3()[tuple(fp.Board(BOARD).tiles)]
    iddfs = _search_with("iddfs", BOARD).stats.peak_memory_bytes
    idastar = _search_with("idastar", BOARD).stats.peak_memory_bytes
    assert iddfs == idastar == (length + 1) * _search.FRAME_BYTES


def test_wide_idastar_and_the_fast_solver_report_what_they_hold():
    # Before: both reported 0.
    board = fp.scramble(fp.Board.goal((5, 5)), 20, rng=4)
    result = fp.search(board, algorithm="idastar", heuristic="linear_conflict")
    assert result.solved
    # One board of 25 two-byte cells changed in place, and a move byte a level of the path.
    assert result.stats.peak_memory_bytes == 25 * 2 + len(result.solution) + 1
    big = fp.random_board((12, 12), rng=2)
    fast = fp.solve(big, optimal=False)
    assert fast.stats.peak_memory_bytes > 12 * 12


def test_the_memory_limit_applies_to_what_is_allocated():
    # The limit caps the structures at their capacity; the figure of stored nodes is below it.
    cap = 4 << 20
    result = fp.search(
        "13 7 6 11/12 9 15 8/5 4 10 _/14 2 3 1",
        algorithm="astar",
        heuristic="misplaced",
        limits=fp.Limits(memory_bytes=cap),
    )
    assert result.status is fp.Status.MEMORY_LIMIT
    assert cap // 2 <= result.stats.peak_allocated_bytes <= cap
    assert 0 < result.stats.peak_memory_bytes < result.stats.peak_allocated_bytes
