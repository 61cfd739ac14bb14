"""Children by increasing f (the IDA* kernels' ``order=``, ``expand_ordered`` in _engine.pxi).

Optimal lengths come from outside the code under test: every 3x3 and 2x4 board's breadth-first
distance (tests/oracle.py), and on 5x5 the length plain Manhattan IDA* finds. The order may
change only where the last iteration meets its goal: an iteration searched to its end
(``complete=``) expands and generates the same nodes in either order.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _fsm, _heuristics, _idastar
from fastpuzzle._solver import parallel, pruning
from tests.instances import random50
from tests.oracle import distances_3x3, distances_from, pack, replay
from tests.pdbcache import small_5x5_database, wide_pdb_search

MANHATTAN = _heuristics.HeuristicCode.H_MANHATTAN
SOLVED = 0
#: Deeper than any path searched here: every level ordered.
EVERY_LEVEL = 1000


def _machine(rows: int, cols: int, prune: str) -> np.ndarray | None:
    # Parent pruning, the default machine, and a deeper one built here.
    if prune == "parent":
        return None
    if prune == "fsm":
        return pruning.machine((rows, cols), "fsm")
    codes, _ = _fsm.build(rows, cols, 14)
    return _fsm.compile(codes)


PRUNES = ["parent", "fsm", pytest.param("depth14", marks=pytest.mark.slow)]


@pytest.mark.heavy
@pytest.mark.parametrize("prune", PRUNES)
@pytest.mark.parametrize("order", [EVERY_LEVEL, 3])
def test_every_3x3_board_optimal(prune: str, order: int) -> None:
    machine = _machine(3, 3, prune)
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    for i, (tiles, distance) in enumerate(sorted(distances_3x3().items())):
        core = _idastar.idastar(
            pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN, machine=machine, order=order
        )
        assert core.status == SOLVED and core.depth == distance == len(core.moves), tiles
        if i % 53 == 0:
            assert replay(tiles, core.moves, 3) == goal, tiles


@pytest.mark.parametrize("prune", ["parent", "fsm"])
def test_every_2x4_board_optimal(prune: str) -> None:
    goal = (1, 2, 3, 4, 5, 6, 7, 0)
    machine = _machine(2, 4, prune)
    for tiles, distance in distances_from(goal, 2, 4).items():
        core = _idastar.idastar(
            pack(tiles), tiles.index(0), 2, 4, 7, MANHATTAN, machine=machine, order=EVERY_LEVEL
        )
        assert core.status == SOLVED and core.depth == distance, tiles
        assert replay(tiles, core.moves, 4) == goal, tiles


@pytest.mark.parametrize("prune", ["parent", "fsm"])
def test_complete_iterations_count_the_same_nodes_and_only_the_goal_moves(prune: str) -> None:
    # Every iteration, the last one searched to its end too, expands and generates the same
    # nodes in either order; the nodes up to the first goal differ on some boards.
    machine = _machine(3, 3, prune)
    moved = 0
    for tiles in random.Random(17).sample(sorted(distances_3x3()), 150):
        traces = []
        for order in (0, EVERY_LEVEL):
            trace: list[tuple[int, int, int, int, int, int]] = []
            _idastar.idastar(
                pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN, machine=machine,
                complete=True, trace=trace, order=order,
            )  # fmt: skip
            traces.append(trace)
        fixed, ordered = traces
        assert [row[:3] for row in fixed] == [row[:3] for row in ordered], tiles
        moved += fixed[-1][3] != ordered[-1][3]
    assert moved > 10


@pytest.fixture(scope="module")
def small_5x5(tmp_path_factory: pytest.TempPathFactory) -> fp.pdb.Database:
    return small_5x5_database(tmp_path_factory.mktemp("order5x5"))


@pytest.mark.parametrize("prune", ["parent", "fsm"])
def test_4x4_published_lengths(prune: str) -> None:
    # random50's easiest boards (tests/data/random50.tsv's lengths), Manhattan distance.
    machine = _machine(4, 4, prune)
    easy = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[:6]
    for instance in easy:
        tiles = instance.tiles
        core = _idastar.idastar(
            pack(tiles), tiles.index(0), 4, 4, 15, MANHATTAN, machine=machine, order=6
        )
        assert core.status == SOLVED and len(core.moves) == instance.optimal_length
        assert replay(tiles, core.moves, 4) == (*range(1, 16), 0)


@pytest.mark.parametrize("prune", ["parent", "fsm"])
def test_5x5_lengths_equal_manhattan_ida_star(small_5x5: fp.pdb.Database, prune: str) -> None:
    # The pattern databases' look-ahead (one partition, with its reflection).
    machine = _machine(5, 5, prune)
    for seed in range(5):
        board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=500 + seed)
        optimum = len(fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1))
        core = wide_pdb_search(small_5x5, board, machine=machine, order=EVERY_LEVEL)
        assert core.status == SOLVED and core.depth == optimum == len(core.moves)
        assert board.apply(core.moves) == fp.Board.goal((5, 5))


def test_5x5_complete_iterations_count_the_same_nodes(small_5x5: fp.pdb.Database) -> None:
    machine = pruning.machine((5, 5), "fsm")
    board = fp.scramble(fp.Board.goal((5, 5)), 60, rng=8)
    rows = []
    for order in (0, 4, EVERY_LEVEL):
        trace: list[tuple[int, int, int, int, int, int]] = []
        wide_pdb_search(small_5x5, board, machine=machine, complete=True, trace=trace, order=order)
        rows.append([row[:3] for row in trace])
    assert rows[0] == rows[1] == rows[2]


def test_refuses_threads_and_a_negative_depth(small_5x5: fp.pdb.Database) -> None:
    # A team's giver tells its untried children by the fixed order: ordering is one thread's.
    board = fp.scramble(fp.Board.goal((5, 5)), 20, rng=3)
    with pytest.raises(ValueError, match="one thread"):
        wide_pdb_search(small_5x5, board, workers=2, order=EVERY_LEVEL)
    tiles = fp.scramble(fp.Board.goal((4, 4)), 20, rng=3).tiles
    with pytest.raises(ValueError, match="one thread"):
        _idastar.idastar(
            pack(tiles), tiles.index(0), 4, 4, 15, MANHATTAN, order=4, runner=parallel.run_team
        )
    with pytest.raises(ValueError, match="order >= 0"):
        wide_pdb_search(small_5x5, board, order=-1)
