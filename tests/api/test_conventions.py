"""Textbook conventions as options (move order, tie-breaking, BFS's goal test, ucs) and heuristic
functions: lengths from tests/oracle.py's BFS, node counts checked by hand or against the
compiled drivers, which the textbook loop must equal under their own conventions."""

from __future__ import annotations

import itertools
import random
import sys
import time

import pytest

import fastpuzzle as fp
from fastpuzzle._core import _search, _textbook
from fastpuzzle._problem import make_problem
from tests.instances import hard
from tests.interrupts import interrupt_latency
from tests.oracle import distances_3x3

ORDERS = ["".join(p) for p in itertools.permutations("UDLR")]


def _boards(count, seed, *, most=31):
    # Boards drawn from the oracle's table, with their exact distances (at most `most`).
    dist = distances_3x3()
    picked = random.Random(seed).sample(sorted(t for t, d in dist.items() if d <= most), count)
    return [(fp.Board(tiles), dist[tiles]) for tiles in picked]


def plain_manhattan(tiles):
    # A student's Manhattan for the usual 3x3 goal: tile t belongs at cell t - 1.
    total = 0
    for cell, tile in enumerate(tiles):
        if tile:
            total += abs(cell // 3 - (tile - 1) // 3) + abs(cell % 3 - (tile - 1) % 3)
    return total


@pytest.mark.parametrize("order", ORDERS)
def test_every_order_gives_the_optimal_length(order):
    # Boards of at most 16 moves: BFS and ucs in the textbook loop stay under a second.
    for board, distance in _boards(2, seed=ORDERS.index(order), most=16):
        for algorithm in ("bfs", "ucs", "astar", "idastar"):
            result = fp.search(board, algorithm=algorithm, order=order)
            assert result.solved and result.solution.verify()
            assert len(result.solution) == distance, (order, algorithm)
            assert result.solution.optimal


def test_bfs_node_counts_by_hand_under_two_orders():
    # The blank at the bottom middle, the goal one move right. Children: U (blank to the
    # middle), L (bottom left), R (the goal). Tested on expansion, UDLR expands the root, U
    # (3 children: U, L, R; D would undo) and L (1 child: U) before it pops the goal: 3
    # expanded, 3 + 3 + 1 = 7 generated. RLDU generates the goal first: 1 expanded, 3 generated.
    board = "1 2 3/4 5 6/7 _ 8"
    udlr = fp.search(board, algorithm="bfs", goal_test="expansion", order="UDLR").stats
    rldu = fp.search(board, algorithm="bfs", goal_test="expansion", order="RLDU").stats
    assert (udlr.expanded, udlr.generated) == (3, 7)
    assert (rldu.expanded, rldu.generated) == (1, 3)
    # Tested on generation, the goal ends the first expansion under either order.
    for order in ("UDLR", "RLDU"):
        stats = fp.search(board, algorithm="bfs", order=order).stats
        assert (stats.expanded, stats.generated) == (1, 3)


def test_bfs_goal_at_generation_generates_fewer_nodes_than_at_expansion():
    for board, distance in _boards(4, seed=1):
        if distance == 0:
            continue
        early = fp.search(board, algorithm="bfs", goal_test="generation")
        late = fp.search(board, algorithm="bfs", goal_test="expansion")
        assert len(early.solution) == len(late.solution) == distance
        assert early.stats.generated < late.stats.generated
        assert early.stats.expanded < late.stats.expanded


@pytest.mark.heavy
def test_ucs_has_the_lengths_of_bfs_and_with_fifo_ties_its_node_counts_at_expansion():
    for board, distance in _boards(4, seed=2):
        bfs = fp.search(board, algorithm="bfs")
        ucs = fp.search(board, algorithm="uniform-cost")
        assert ucs.algorithm == "ucs"
        assert len(ucs.solution) == len(bfs.solution) == distance
        assert ucs.solution.optimal and ucs.solution.verify()
        # Goal test on expansion: the goal's layer is partly expanded, so more nodes than BFS.
        if distance:
            assert ucs.stats.expanded > bfs.stats.expanded
        # On unit moves a FIFO priority queue on g is a FIFO queue: BFS tested on expansion.
        fifo = fp.search(board, algorithm="ucs", ties="fifo").stats
        late = fp.search(board, algorithm="bfs", goal_test="expansion").stats
        assert (fifo.expanded, fifo.generated) == (late.expanded, late.generated)


def _core_args(board):
    p = make_problem(board)
    return (p.packed, p.blank, p.rows, p.cols, p.goal_blank)


def _same_search(slow, fast):
    """The textbook loop's result is the compiled driver's: moves and every count."""
    counts = ("expanded", "generated", "max_frontier", "max_depth_reached", "reexpanded")
    assert slow.moves == fast.moves
    assert [getattr(slow, name) for name in counts] == [getattr(fast, name) for name in counts]


@pytest.mark.heavy
@pytest.mark.parametrize(
    ("g_scale", "h_scale", "code"),
    [(1, 1, 1), (1, 1, 2), (0, 1, 1), (1, 2, 1), (1, 0, 0)],
    ids=["astar-md", "astar-lc", "greedy", "wastar2", "ucs"],
)
def test_textbook_loop_counts_as_the_compiled_best_first(g_scale, h_scale, code):
    # Under the compiled drivers' conventions the slow loop expands the same nodes in the same
    # order: the options then change counts only by what they change.
    for board, _ in _boards(3, seed=3):
        args = _core_args(board)
        fast = _search.best_first(*args, heuristic=code, g_scale=g_scale, h_scale=h_scale)
        slow = _textbook.best_first(
            *args, order=(0, 1, 2, 3), heuristic=code, g_scale=g_scale, h_scale=h_scale
        )
        _same_search(slow, fast)


def test_textbook_bfs_counts_as_the_compiled_bfs():
    for board, _ in _boards(3, seed=4):
        args = _core_args(board)
        fast = _search.bfs(*args)
        slow = _textbook.breadth_first(*args, order=(0, 1, 2, 3))
        _same_search(slow, fast)


@pytest.mark.parametrize("ties", ["lowest_h", "lifo", "fifo"])
def test_every_tie_rule_keeps_astar_optimal(ties):
    for board, distance in _boards(3, seed=5):
        result = fp.search(board, algorithm="astar", ties=ties)
        assert len(result.solution) == distance and result.solution.optimal


def test_tie_rules_change_the_count_where_ties_decide():
    # Greedy's priority is h alone: many ties, so the rules order the queue differently.
    board, _ = _boards(1, seed=6)[0]
    counts = {
        ties: fp.search(board, algorithm="greedy", ties=ties).stats.expanded
        for ties in ("lowest_h", "lifo", "fifo")
    }
    # lowest_h is LIFO where every tie has the same h (greedy), so the compiled count.
    compiled = fp.search(board, algorithm="greedy").stats.expanded
    assert counts["lowest_h"] == counts["lifo"] == compiled
    assert counts["fifo"] != counts["lifo"]


def test_a_heuristic_function_gives_the_builtin_lengths_and_astar_counts():
    for board, distance in _boards(4, seed=7):
        for algorithm in ("greedy", "astar", "wastar", "idastar"):
            builtin = fp.search(board, algorithm=algorithm, heuristic="manhattan")
            function = fp.search(board, algorithm=algorithm, heuristic=plain_manhattan)
            assert function.solution.verify()
            assert len(function.solution) == len(builtin.solution)
            assert function.heuristic == "function"
            # The function's admissibility is not known to the search: no promise.
            assert not function.solution.optimal
            if algorithm in ("greedy", "astar", "wastar"):
                # Same values, same ties: the same nodes (IDA*'s kernel prunes more).
                assert function.stats.expanded == builtin.stats.expanded
                assert function.stats.generated == builtin.stats.generated
        assert len(fp.solve(board, algorithm="astar", heuristic=plain_manhattan)) == distance


def test_a_heuristic_function_sees_the_callers_labels_for_any_goal():
    goal = fp.Board("_ 1 2/3 4 5/6 7 8")
    seen = []

    def spy(tiles):
        seen.append(tiles)
        return 0

    result = fp.search("1 _ 2/3 4 5/6 7 8", goal, algorithm="astar", heuristic=spy)
    assert result.solution.moves == "L"
    assert seen[0] == (1, 0, 2, 3, 4, 5, 6, 7, 8)


def test_solve_auto_with_a_function_runs_idastar():
    board, distance = _boards(1, seed=8)[0]
    solution = fp.solve(board, heuristic=plain_manhattan)
    assert len(solution) == distance
    assert solution.stats is not None


def test_euclidean_in_every_informed_search():
    for board, distance in _boards(2, seed=9):
        for algorithm in ("astar", "idastar"):
            result = fp.search(board, algorithm=algorithm, heuristic="euclidean")
            assert len(result.solution) == distance and result.solution.optimal
        for algorithm in ("greedy", "wastar", "lookahead"):
            assert fp.search(board, algorithm=algorithm, heuristic="euclidean").solution.verify()


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"algorithm": "dfs", "order": "LRUD"}, "order="),
        ({"algorithm": "astar", "goal_test": "expansion"}, "goal_test="),
        ({"algorithm": "bfs", "ties": "fifo"}, "ties="),
        ({"algorithm": "idastar", "ties": "lifo"}, "ties="),
        ({"algorithm": "bfs", "heuristic": plain_manhattan}, "heuristic function"),
        ({"algorithm": "lookahead", "heuristic": plain_manhattan}, "heuristic function"),
        ({"algorithm": "astar", "order": "UDL"}, "order="),
        ({"algorithm": "astar", "ties": "random"}, "ties="),
        ({"algorithm": "bfs", "goal_test": "never"}, "goal_test="),
    ],
)
def test_an_option_a_search_cannot_take_is_refused_by_name(options, named):
    with pytest.raises(fp.InvalidOptionError, match=named):
        fp.search("1 2 3/4 5 6/7 _ 8", **options)


def test_a_bad_heuristic_value_is_refused_with_what_it_returned():
    with pytest.raises(fp.InvalidOptionError, match=r"must return a number, got 'x'"):
        fp.search("1 2 3/4 5 6/7 _ 8", algorithm="astar", heuristic=lambda tiles: "x")
    with pytest.raises(fp.InvalidOptionError, match=r">= 0, got -1"):
        fp.search("1 2 3/4 5 6/7 _ 8", algorithm="astar", heuristic=lambda tiles: -1)


def test_conventions_refused_past_16_cells_and_beside_optimal_false():
    with pytest.raises(fp.InvalidOptionError, match="at most 16 cells"):
        fp.search(fp.Board.goal((5, 5)).apply("U"), algorithm="idastar", order="RLDU")
    with pytest.raises(fp.InvalidOptionError, match="order"):
        fp.solve("1 2 3/4 5 6/7 _ 8", optimal=False, order="RLDU")


def test_the_textbook_loop_refuses_what_only_the_compiled_idastar_does():
    with pytest.raises(fp.InvalidOptionError, match="prune only the move"):
        fp.search("1 2 3/4 5 6/7 _ 8", algorithm="idastar", order="RLDU", prune="fsm")
    with pytest.raises(fp.InvalidOptionError, match="prune only the move"):
        fp.search("1 2 3/4 5 6/7 _ 8", algorithm="idastar", heuristic=plain_manhattan, prune=8)
    result = fp.search("1 2 3/4 5 6/7 _ 8", algorithm="idastar", order="RLDU", prune="parent")
    assert result.solution.moves == "R"


def test_compare_takes_the_new_names():
    table = fp.compare(["1 2 3/4 5 6/_ 7 8"], ["ucs", "astar+euclidean", "astar+sqdiff"])
    assert [(row.method, row.length) for row in table] == [
        ("ucs", 2),
        ("astar+euclidean", 2),
        ("astar+squared_difference", 2),
    ]


def test_idastar_sends_only_packed_boards_to_the_textbook_loop(monkeypatch):
    # A heuristic the packed IDA* kernel lacks (euclidean) runs in the textbook loop; a wide
    # board's heuristic that only the wide kernel has (pdb6666) must still go to the engine
    # room, never to the loop (which takes packed boards only: it raised BoardTooLargeError).
    from fastpuzzle._solver import idastar
    from fastpuzzle._solver.request import Request

    sentinel = object()
    monkeypatch.setattr(idastar, "run", lambda request: sentinel)
    wide = make_problem(fp.Board.goal((5, 5)).apply("UL"))
    assert fp.ALGORITHMS["idastar"].driver(Request(wide, "pdb6666", fp.Limits())) is sentinel
    packed = make_problem("1 2 3/4 5 6/_ 7 8")
    core = fp.ALGORITHMS["idastar"].driver(Request(packed, "euclidean", fp.Limits()))
    assert core.moves == "RR"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_textbook_loop():
    # IDA* with misplaced tiles on a 4x4 board of 80 moves runs far past the time limit's 20 s.
    # The loop's compiled calls neither let the GIL go (the thread sending the signal could not
    # run) nor ran Python's signal check: Ctrl-C waited for the limit, 20 s.
    board = fp.Board(hard()[0].tiles)
    started = time.perf_counter()
    latency = interrupt_latency(
        0.3,
        board,
        algorithm="idastar",
        heuristic="misplaced",
        order="RLDU",
        limits=fp.Limits(seconds=20),
    )
    # Milliseconds on a quiet machine; room for a loaded one, far below the 20 s of the limit.
    assert latency < 5.0
    assert time.perf_counter() - started < 5.0
