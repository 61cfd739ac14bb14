"""Search traces follow the compiled searches expansion for expansion (fastpuzzle.trace)."""

from __future__ import annotations

import heapq
import random
import threading
from typing import Any

import pytest

import fastpuzzle as fp
from fastpuzzle._core import _interrupt
from fastpuzzle.trace import OUTCOMES, TRACEABLE, trace_search
from tests.oracle import distances_3x3

# Every algorithm a trace follows, with each heuristic the compiled search takes for it.
METHODS = [
    ("bfs", None),
    *[("astar", h) for h in ("misplaced", "manhattan", "linear_conflict")],
    *[("wastar", h) for h in ("misplaced", "manhattan", "linear_conflict")],
    *[("greedy", h) for h in ("misplaced", "manhattan", "linear_conflict", "squared_difference")],
    *[("lookahead", h) for h in ("misplaced", "manhattan", "linear_conflict")],
]


def _boards_3x3(per_distance: int, longest: int, seed: int) -> list[tuple[fp.Board, int]]:
    # Boards from the whole 3x3 space with their BFS distances (tests/oracle.py): the goal and
    # `per_distance` boards at each distance from 1 to `longest` moves (31: only two exist).
    rng = random.Random(seed)
    by_distance: dict[int, list[tuple[int, ...]]] = {}
    for tiles, distance in distances_3x3().items():
        by_distance.setdefault(distance, []).append(tiles)
    picked = [(fp.Board.goal((3, 3)), 0)]
    for distance in range(1, longest + 1):
        boards = sorted(by_distance[distance])
        for tiles in rng.sample(boards, min(per_distance, len(boards))):
            picked.append((fp.Board(list(tiles)), distance))
    return picked


def _compiled(board: fp.Board, algorithm: str, heuristic: str | None, **options: Any) -> Any:
    return fp.search(board, algorithm=algorithm, heuristic=heuristic, **options)


def _same_as_compiled(trace: Any, result: Any) -> None:
    stats = result.stats
    assert (trace.expanded, trace.generated, trace.max_frontier) == (
        stats.expanded,
        stats.generated,
        stats.max_frontier,
    ), (trace.algorithm, trace.heuristic, trace.start.to_string())
    assert trace.status == result.status.value
    assert trace.moves == (result.solution.moves if result.solution is not None else "")


@pytest.mark.heavy
@pytest.mark.parametrize(("algorithm", "heuristic"), METHODS)
def test_traces_expand_as_the_compiled_searches_on_many_3x3_boards(
    algorithm: str, heuristic: str | None
) -> None:
    # The same expansions, children, queue peak and moves on 62 boards, two at each distance
    # from the goal (or the same stop at a node limit of 3,000, which keeps the Python replica
    # quick), and for the optimal searches the length of the whole-space BFS.
    limit = 3000
    for board, distance in _boards_3x3(2, 31, seed=len(algorithm)):
        trace = trace_search(board, algorithm, heuristic=heuristic, max_expansions=limit)
        _same_as_compiled(
            trace, _compiled(board, algorithm, heuristic, limits=fp.Limits(nodes=limit))
        )
        assert trace.expanded == len(trace.steps)
        if trace.status == "solved" and algorithm in ("bfs", "astar"):
            assert len(trace.moves) == distance


@pytest.mark.parametrize(("algorithm", "heuristic"), [("bfs", None), ("astar", "manhattan")])
def test_a_trace_stops_where_the_compiled_node_limit_stops(
    algorithm: str, heuristic: str | None
) -> None:
    board = fp.Board("8 6 7/2 5 4/3 _ 1")
    for limit in (1, 2, 37, 1000):
        trace = trace_search(board, algorithm, heuristic=heuristic, max_expansions=limit)
        result = _compiled(board, algorithm, heuristic, limits=fp.Limits(nodes=limit))
        assert trace.status == "node_limit" and trace.expanded == limit
        _same_as_compiled(trace, result)


@pytest.mark.parametrize(
    ("shape", "moves"), [((2, 3), 30), ((2, 4), 40), ((3, 4), 14), ((4, 4), 12), ((2, 8), 10)]
)
def test_other_shapes_and_goals(shape: tuple[int, int], moves: int) -> None:
    # Small searches on every shape of up to 16 cells, towards the canonical goal and towards
    # one with the blank first (the core relabels tiles; the trace shows the tiles given).
    for blank in ("last", "first"):
        goal = fp.Board.goal(shape, blank=blank)
        for seed in range(3):
            board = fp.scramble(goal, moves, rng=seed)
            for algorithm, heuristic in (("bfs", None), ("astar", "manhattan"), ("greedy", None)):
                limits = fp.Limits(nodes=5000)
                trace = trace_search(
                    board, algorithm, heuristic=heuristic, goal=goal, max_expansions=5000
                )
                _same_as_compiled(
                    trace, _compiled(board, algorithm, heuristic, goal=goal, limits=limits)
                )
                assert trace.board(0) == board
                if trace.status == "solved":
                    assert trace.board(trace.path[-1]) == goal


def _served_order(trace: dict[str, Any]) -> None:
    # Replays the page's reading of a trace (to_json): the frontier is every queued entry not
    # yet served and not stale, served in the order `order` names. At every step the entry
    # served first must be the board the next step expands, and the boards waiting must be as
    # many as the step says.
    heap: list[tuple[tuple[int, ...], int, int]] = [((0,), 0, 0)]  # (order key, node, g)
    g_of: dict[int, int] = {0: 0}
    waiting: set[int] = {0}
    pushed = 0
    for number, (node, g, frontier, flat) in enumerate(trace["steps"]):
        while heap[0][1] not in waiting or (trace["by_g"] and g_of[heap[0][1]] != heap[0][2]):
            heapq.heappop(heap)  # served already, or stale
        assert heapq.heappop(heap)[1] == node, f"step {number}"
        assert g_of[node] == g
        waiting.discard(node)
        for k in range(0, len(flat), 4):
            child, outcome, child_g, priority = flat[k : k + 4]
            if OUTCOMES[outcome] in ("queued", "shorter"):
                pushed += 1
                g_of[child] = child_g
                waiting.add(child)
                if trace["order"] == "fifo":
                    key: tuple[int, ...] = (pushed,)
                else:  # lowest priority, then the largest tie key, then the last in
                    key = (priority, -(child_g if trace["by_g"] else 0), -pushed)
                heapq.heappush(heap, (key, child, child_g))
            elif OUTCOMES[outcome] == "goal":
                assert child_g == g + 1 and number == len(trace["steps"]) - 1
            else:
                assert priority == -1
        assert len(waiting) == frontier


@pytest.mark.parametrize(
    ("algorithm", "heuristic"),
    [
        ("bfs", None),
        ("astar", "manhattan"),
        ("astar", "misplaced"),
        ("greedy", "manhattan"),
        ("wastar", "linear_conflict"),
        ("lookahead", "manhattan"),
    ],
)
def test_the_frontier_the_page_rebuilds_serves_the_next_expansion(
    algorithm: str, heuristic: str | None
) -> None:
    for board, _ in _boards_3x3(1, 12, seed=3):
        trace = trace_search(board, algorithm, heuristic=heuristic)
        _served_order(trace.to_json())


def test_the_path_replays_its_moves_and_the_json_boards_are_the_boards() -> None:
    board = fp.Board("5 2 3/4 1 8/_ 7 6")
    goal = fp.Board("1 2 3/8 _ 4/7 6 5")
    board = fp.scramble(goal, 40, rng=11)
    trace = trace_search(board, "astar", heuristic="linear_conflict", goal=goal)
    boards = [trace.board(node) for node in trace.path]
    assert boards[0] == board and boards[-1] == goal and len(boards) == len(trace.moves) + 1
    for before, move, after in zip(boards, trace.moves, boards[1:]):
        assert before.apply(move) == after
    data = trace.to_json()
    for node in range(trace.boards):
        tiles = [int(digit, 16) for digit in data["boards"][node]]
        assert fp.Board(tiles, shape=(3, 3)) == trace.board(node)
    assert data["h"][0] == fp.linear_conflict(board, goal)


def test_bad_requests_raise_typed_errors() -> None:
    with pytest.raises(fp.BoardTooLargeError, match="16 cells"):
        trace_search(fp.Board.goal((5, 5)), "astar")
    with pytest.raises(fp.InvalidOptionError, match="traces follow"):
        trace_search("1 2 3/4 5 6/7 _ 8", "idastar")
    with pytest.raises(fp.InvalidOptionError, match="no heuristic"):
        trace_search("1 2 3/4 5 6/7 _ 8", "bfs", heuristic="manhattan")
    with pytest.raises(fp.InvalidOptionError, match=">= 1"):
        trace_search("1 2 3/4 5 6/7 _ 8", "bfs", max_expansions=0)
    with pytest.raises(fp.UnsolvableError):
        trace_search("1 2 3/4 5 6/8 7 _", "bfs")
    with pytest.raises(fp.UnknownNameError):
        trace_search("1 2 3/4 5 6/7 _ 8", "astar", heuristic="pdb")
    assert set(TRACEABLE) <= set(fp.ALGORITHMS)


def test_a_set_stop_event_ends_a_trace() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(KeyboardInterrupt):
        _interrupt.run_stoppable(stop, trace_search, "8 6 7/2 5 4/3 _ 1", "bfs")
