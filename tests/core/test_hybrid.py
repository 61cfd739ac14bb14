"""A*+IDA* (the kernels' ``frontier=``, ``_core/_hybrid.pxi``) and the study options
(``complete=``, ``trace=``).

Optimal lengths come from outside the code under test: every 3x3 and 2x4 board's breadth-first
distance (tests/oracle.py), and on 5x5 the length plain Manhattan IDA* finds. Budgets are
small, so that most boards run both parts (A* stops with nodes left open, IDA* searches them).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _fsm, _heuristics, _idastar
from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import hybrid, idastar, pruning
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from tests.oracle import distances_3x3, distances_from, pack, replay
from tests.pdbcache import small_5x5_compound, small_5x5_database, wide_pdb_search

MANHATTAN = _heuristics.HeuristicCode.H_MANHATTAN
SOLVED = 0
GOAL_3X3 = (1, 2, 3, 4, 5, 6, 7, 8, 0)

#: Budgets of stored nodes: the A* part alone solves few boards with them.
BUDGETS = (16, 40, 300)


def _machines(rows: int, cols: int) -> dict[str, np.ndarray | None]:
    # Parent pruning, the default machine, and a deeper one built here.
    codes, _ = _fsm.build(rows, cols, 14)
    return {
        "parent": None,
        "fsm": pruning.machine((rows, cols), "fsm"),
        "depth14": _fsm.compile(codes),
    }


#: The default run checks every board with the default machine; the slow run with the others.
PRUNES = [
    pytest.param("parent", marks=pytest.mark.slow),
    "fsm",
    pytest.param("depth14", marks=pytest.mark.slow),
]


@pytest.mark.heavy
@pytest.mark.parametrize("prune", PRUNES)
def test_every_3x3_board_optimal(prune: str) -> None:
    machine = _machines(3, 3)[prune]
    replayed = 0
    for i, (tiles, distance) in enumerate(sorted(distances_3x3().items())):
        core = _idastar.idastar(
            pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN, machine=machine,
            frontier=BUDGETS[i % len(BUDGETS)],
        )  # fmt: skip
        assert core.status == SOLVED and core.depth == distance == len(core.moves), tiles
        if i % 97 == 0:
            assert replay(tiles, core.moves, 3) == GOAL_3X3, tiles
            replayed += 1
    assert replayed > 1000


@pytest.mark.heavy
@pytest.mark.parametrize("prune", PRUNES)
@pytest.mark.parametrize("shape", [(2, 4), pytest.param((4, 2), marks=pytest.mark.slow)])
def test_every_rectangle_board_optimal(shape: tuple[int, int], prune: str) -> None:
    rows, cols = shape
    goal = (*range(1, rows * cols), 0)
    machine = _machines(rows, cols)[prune]
    for i, (tiles, distance) in enumerate(sorted(distances_from(goal, rows, cols).items())):
        core = _idastar.idastar(
            pack(tiles), tiles.index(0), rows, cols, rows * cols - 1, MANHATTAN,
            machine=machine, frontier=BUDGETS[i % len(BUDGETS)],
        )  # fmt: skip
        assert core.status == SOLVED and core.depth == distance, tiles
        assert replay(tiles, core.moves, cols) == goal, tiles


def test_a_star_alone_and_a_frontier_of_the_start() -> None:
    # A budget larger than the search: A* reaches the goal itself; the smallest budget leaves
    # a frontier of a few nodes near the start.
    distances = distances_3x3()
    for tiles in random.Random(5).sample(sorted(distances), 200):
        for budget in (1, 1 << 20):
            core = _idastar.idastar(
                pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN, frontier=budget
            )
            assert core.depth == distances[tiles] and replay(tiles, core.moves, 3) == GOAL_3X3


def test_prunes_at_least_what_the_machine_prunes() -> None:
    # Keyed by board and machine state, the stored tree is IDA*'s own with duplicates merged:
    # over many boards it expands fewer nodes than IDA* with the same machine.
    machine = pruning.machine((3, 3), "fsm")
    plain = merged = 0
    for tiles in random.Random(9).sample(sorted(distances_3x3()), 300):
        args = (pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN)
        plain += _idastar.idastar(*args, machine=machine).expanded
        merged += _idastar.idastar(*args, machine=machine, frontier=2000).expanded
    assert merged < plain


@pytest.fixture(scope="module")
def small_5x5(tmp_path_factory: pytest.TempPathFactory) -> fp.pdb.Database:
    return small_5x5_database(tmp_path_factory.mktemp("hybrid5x5"))


@pytest.mark.parametrize("zero", [False, True])
def test_5x5_lengths_equal_manhattan_ida_star(
    tmp_path_factory: pytest.TempPathFactory, zero: bool
) -> None:
    # The wide kernel makes each stored node from its board (no re-entry from the root).
    database = small_5x5_database(tmp_path_factory.mktemp(f"hybrid-zero-{zero}"), zero=zero)
    machine = pruning.machine((5, 5), "fsm")
    for seed in range(6):
        board = fp.scramble(fp.Board.goal((5, 5)), 40, rng=300 + seed)
        optimum = len(fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1))
        for budget in (30, 2000):
            core = wide_pdb_search(database, board, machine=machine, frontier=budget)
            assert core.status == SOLVED and core.depth == optimum == len(core.moves)
            assert board.apply(core.moves) == fp.Board.goal((5, 5))


@pytest.mark.heavy
def test_5x5_compound_lengths_equal_manhattan_ida_star(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    tables = small_5x5_compound(tmp_path_factory.mktemp("hybrid-compound"))
    first, *others = tables.partitions
    layout = LoadedPatterns(list(first), tables.reflect, 25, 5, 24, extra=[list(p) for p in others])
    for seed in range(4):
        board = fp.scramble(fp.Board.goal((5, 5)), 36, rng=400 + seed)
        optimum = len(fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1))
        core = wide_pdb_search(layout, board, frontier=500)
        assert core.status == SOLVED and len(core.moves) == optimum
        assert board.apply(core.moves) == fp.Board.goal((5, 5))


def test_complete_iteration_counts_the_plain_search_up_to_its_goal(small_5x5) -> None:
    # complete= goes on past the goal; the counters at the first goal it reaches are the plain
    # search's at its end (the same nodes in the same order), for both searches.
    board = fp.scramble(fp.Board.goal((5, 5)), 50, rng=21)
    for frontier in (0, 200):
        plain = wide_pdb_search(small_5x5, board, frontier=frontier)
        trace: list[tuple[int, int, int, int, int, int]] = []
        whole = wide_pdb_search(small_5x5, board, frontier=frontier, complete=True, trace=trace)
        assert whole.status == SOLVED and whole.depth == plain.depth and whole.moves == ""
        bound, expanded, generated, first_expanded, first_generated, _ = trace[-1]
        assert bound == plain.depth
        assert (first_expanded, first_generated) == (plain.expanded, plain.generated)
        assert (expanded, generated) == (whole.expanded, whole.generated)
        assert expanded > plain.expanded
        assert [b for b, *_ in trace if b >= 0] == sorted({b for b, *_ in trace if b >= 0})


def test_trace_records_every_iteration(small_5x5) -> None:
    board = fp.scramble(fp.Board.goal((5, 5)), 60, rng=8)
    trace: list[tuple[int, int, int, int, int, int]] = []
    core = wide_pdb_search(small_5x5, board, trace=trace)
    assert len(trace) == core.iterations
    assert trace[-1][1:3] == (core.expanded, core.generated) == trace[-1][3:5]
    assert all(row[3] == -1 for row in trace[:-1])
    # A*+IDA*: its A* part first (bound -1, the nodes it stored), then its iterations.
    trace.clear()
    core = wide_pdb_search(small_5x5, board, frontier=500, trace=trace)
    assert trace[0][0] == -1 and trace[0][5] <= 500
    assert len(trace) == core.iterations + 1
    assert trace[-1][1:3] == (core.expanded, core.generated)


def test_refuses_threads_and_dual_lookups(small_5x5) -> None:
    board = fp.scramble(fp.Board.goal((5, 5)), 20, rng=3)
    for options in ({"frontier": 100}, {"complete": True}, {"trace": []}):
        with pytest.raises(ValueError, match="one thread"):
            wide_pdb_search(small_5x5, board, workers=2, **options)


def test_parent_pruning_counts_unchanged_without_a_frontier() -> None:
    # random50's first board's published Manhattan IDA* counts are checked elsewhere; here
    # the request's default (no frontier) is plain IDA*, node for node the kernel's.
    problem = make_problem(list(fp.scramble(fp.Board.goal((4, 4)), 30, rng=4).tiles))
    asked = idastar.run(Request(problem, "manhattan", Limits(), prune="parent"))
    kernel = _idastar.idastar(problem.packed, problem.blank, 4, 4, 15, MANHATTAN, max_depth=1000)
    assert (asked.expanded, asked.generated) == (kernel.expanded, kernel.generated)


def test_request_runs_a_star_ida_star_within_its_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = make_problem(list(fp.scramble(fp.Board.goal((4, 4)), 40, rng=12).tiles))
    plain = idastar.run(Request(problem, "manhattan", Limits()))
    request = Request(problem, "manhattan", Limits(), frontier=5000)
    both = idastar.run(request)
    assert both.depth == plain.depth and both.expanded != plain.expanded
    # The store (at least a board and a path a node) counts in allocated_bytes.
    assert both.allocated_bytes >= plain.allocated_bytes + 5000 * 56
    # The store never takes more than memory_bytes, nor a quarter of what is available.
    capped = request._replace(limits=Limits(memory_bytes=100 * _idastar.HYBRID_NODE_BYTES))
    assert hybrid.budget(capped, _idastar.HYBRID_NODE_BYTES) == 100
    monkeypatch.setattr(hybrid, "available_memory", lambda: 400 * _idastar.HYBRID_NODE_BYTES)
    assert hybrid.budget(request, _idastar.HYBRID_NODE_BYTES) == 100
    assert hybrid.budget(request._replace(frontier=0), _idastar.HYBRID_NODE_BYTES) == 0
