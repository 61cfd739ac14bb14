"""IDA* drivers: exact node counts, optimal lengths, admissibility, limits.

Optimal lengths and node counts come from tests/data and tests/oracle.py, never from the
code under test. Pattern databases are built into a temporary cache.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _board, _heuristics, _idastar
from fastpuzzle._core._result import CoreResult
from fastpuzzle._problem import Problem, make_problem
from fastpuzzle._solver import heuristic_tables, idastar
from fastpuzzle._solver.request import Request
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle.limits import Limits
from fastpuzzle.results import CoreProgress
from tests.instances import random50
from tests.oracle import distances_3x3

SOLVED, EXHAUSTED, TIME_LIMIT, NODE_LIMIT, MEMORY_LIMIT, DEPTH_LIMIT = range(6)

#: random50 boards whose Manhattan IDA* is a few million nodes at most: checked in every run.
SMALL_NODES = 3_000_000
GOAL_4X4 = (*range(1, 16), 0)


def run_idastar(
    problem: Problem, heuristic: str, limits: Limits, progress: CoreProgress | None = None
) -> CoreResult:
    """The serial IDA* of the registry's driver, on one request, with parent pruning (the
    counts of random50.tsv and of the plain-Python searches here; tests/core/test_fsm.py checks
    the machine)."""
    return idastar.run(Request(problem, heuristic, limits, progress=progress, prune="parent"))


def _database(problem: Problem, heuristic: str) -> pdb.Database:
    """The tables ``heuristic`` reads for ``problem``."""
    return heuristic_tables.database(Request(problem, heuristic, Limits()))


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path_factory.getbasetemp() / "pdb-idastar"))


def _replay(tiles: tuple[int, ...], moves: str, rows: int, cols: int) -> tuple[int, ...]:
    cells = list(tiles)
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    for move in moves:
        blank = cells.index(0)
        target = blank + step[move]
        assert 0 <= target < rows * cols
        if move in "LR":
            assert target // cols == blank // cols
        cells[blank], cells[target] = cells[target], cells[blank]
    return tuple(cells)


def _manhattan_case(instance):  # type: ignore[no-untyped-def]
    problem = make_problem(list(instance.tiles))
    core = run_idastar(problem, "manhattan", Limits())
    assert core.status == SOLVED
    assert core.depth == len(core.moves) == instance.optimal_length
    assert core.generated == instance.manhattan_ida_nodes, (
        "generated nodes differ from random50.tsv"
    )
    goal = GOAL_4X4
    assert _replay(instance.tiles, core.moves, 4, 4) == goal


@pytest.mark.parametrize(
    "instance",
    [i for i in random50() if i.manhattan_ida_nodes <= SMALL_NODES],
    ids=lambda i: i.name,
)
def test_manhattan_node_counts_equal_random50(instance) -> None:  # type: ignore[no-untyped-def]
    _manhattan_case(instance)


@pytest.mark.slow
@pytest.mark.parametrize(
    "instance",
    [i for i in random50() if i.manhattan_ida_nodes > SMALL_NODES],
    ids=lambda i: i.name,
)
def test_manhattan_node_counts_equal_random50_slow(instance) -> None:  # type: ignore[no-untyped-def]
    _manhattan_case(instance)


@pytest.mark.parametrize("heuristic", ["linear_conflict", "walking_distance", "pdb555"])
def test_stronger_heuristics_find_optimal_lengths(heuristic: str) -> None:
    cases = sorted(random50(), key=lambda i: i.manhattan_ida_nodes)[:8]
    for instance in cases:
        core = run_idastar(make_problem(list(instance.tiles)), heuristic, Limits())
        assert core.status == SOLVED
        assert core.depth == instance.optimal_length, instance.name
        assert _replay(instance.tiles, core.moves, 4, 4) == GOAL_4X4
        # Stronger heuristics never generate more nodes than Manhattan on these boards.
        assert core.generated < instance.manhattan_ida_nodes


def _root_h(packed: int, blank: int, rows: int, cols: int, goal_blank: int, **kw) -> int:  # type: ignore[no-untyped-def]
    # max_depth=0 stops before any bound above 0: the reported depth is the root's h.
    core = _idastar.idastar(packed, blank, rows, cols, goal_blank, max_depth=0, **kw)
    return 0 if core.status == SOLVED else core.depth


def _pack(tiles: tuple[int, ...]) -> int:
    return int(_board.pack(tiles))


HEURISTICS_3X3 = ["misplaced", "manhattan", "linear_conflict", "walking_distance", "pdb", "table"]


def _kwargs_for(heuristic: str, tiles: tuple[int, ...]) -> dict[str, object]:
    problem = make_problem(list(tiles), check_solvable=False)
    if heuristic == "walking_distance":
        return {"heuristic": BY_NAME[heuristic].code, "tables": pdb.walking_tables(problem)}
    if heuristic in ("pdb", "table"):
        database = _database(problem, heuristic)
        return {"heuristic": BY_NAME[heuristic].code, "tables": database}
    return {"heuristic": BY_NAME[heuristic].code}


@pytest.mark.heavy
@pytest.mark.parametrize("heuristic", HEURISTICS_3X3)
def test_every_3x3_board_admissible(heuristic: str) -> None:
    distances = distances_3x3()
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    kwargs = _kwargs_for(heuristic, goal)
    walking = heuristic == "walking_distance"
    for tiles, distance in distances.items():
        packed = _pack(tiles)
        if walking:
            # Its start state depends on the board.
            kwargs["tables"] = pdb.walking_args(3, 3, 8, packed, tiles.index(0))
        h = _root_h(packed, tiles.index(0), 3, 3, 8, **kwargs)
        if heuristic == "table":
            assert h == distance, tiles
        else:
            assert h <= distance, tiles


@pytest.mark.parametrize("heuristic", ["linear_conflict", "walking_distance", "pdb", "table"])
def test_3x3_optimal_lengths_match_oracle(heuristic: str) -> None:
    distances = distances_3x3()
    rng = random.Random(7)
    boards = rng.sample(sorted(distances), 150)
    for tiles in boards:
        core = run_idastar(make_problem(list(tiles)), heuristic, Limits())
        assert core.status == SOLVED
        assert core.depth == distances[tiles]
        assert _replay(tiles, core.moves, 3, 3) == (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.mark.parametrize(
    "heuristic", ["manhattan", "linear_conflict", "walking_distance", "pdb555"]
)
def test_4x4_root_never_above_optimal(heuristic: str) -> None:
    for instance in random50():
        problem = make_problem(list(instance.tiles))
        core = run_idastar(problem, heuristic, Limits(max_depth=0))
        assert core.depth <= instance.optimal_length, instance.name


def test_node_limit_stops_with_status() -> None:
    instance = max(random50(), key=lambda i: i.manhattan_ida_nodes)
    core = run_idastar(make_problem(list(instance.tiles)), "manhattan", Limits(nodes=100_000))
    assert core.status == NODE_LIMIT
    assert core.moves == ""
    assert core.expanded == 100_000


def test_time_limit_stops_with_status() -> None:
    instance = max(random50(), key=lambda i: i.manhattan_ida_nodes)
    core = run_idastar(make_problem(list(instance.tiles)), "manhattan", Limits(seconds=0.05))
    assert core.status == TIME_LIMIT
    assert core.seconds < 2.0


def test_max_depth_gives_depth_limit() -> None:
    instance = min(random50(), key=lambda i: i.manhattan_ida_nodes)
    problem = make_problem(list(instance.tiles))
    core = run_idastar(problem, "manhattan", Limits(max_depth=instance.optimal_length - 1))
    assert core.status == DEPTH_LIMIT
    core = run_idastar(problem, "manhattan", Limits(max_depth=instance.optimal_length))
    assert core.status == SOLVED


def test_progress_is_called_and_can_interrupt() -> None:
    instance = max(random50(), key=lambda i: i.manhattan_ida_nodes)
    problem = make_problem(list(instance.tiles))
    seen: list[tuple[int, int, float, int]] = []

    def progress(expanded: int, generated: int, seconds: float, depth: int) -> None:
        seen.append((expanded, generated, seconds, depth))
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_idastar(problem, "manhattan", Limits(), progress)
    assert len(seen) == 3
    assert seen[0][0] == 1 << 16
    assert seen[-1][3] >= 0


def test_already_solved_and_other_goals() -> None:
    problem = make_problem("1 2 3/4 5 6/7 8 _")
    core = run_idastar(problem, "manhattan", Limits())
    assert (core.status, core.moves) == (SOLVED, "")
    # A goal with the blank in the centre: every heuristic agrees with the table.
    goal = "1 2 3/4 _ 5/6 7 8"
    board = "8 1 3/4 _ 2/7 6 5"
    problem = make_problem(board, goal)
    lengths = {h: run_idastar(problem, h, Limits()).depth for h in HEURISTICS_3X3}
    assert len(set(lengths.values())) == 1, lengths


def test_unknown_heuristic() -> None:
    from fastpuzzle.errors import UnknownNameError

    with pytest.raises(UnknownNameError):
        run_idastar(make_problem("1 2 3/4 5 6/7 _ 8"), "nope", Limits())


def _python_ida_nodes(
    tiles: tuple[int, ...], h_of, rows: int = 4, cols: int = 4
) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    # The same search as the drivers (children D, R, L, U; only the reversal pruned; every child
    # counted) with h recomputed from scratch at every node: equal counts mean the incremental
    # updates agree with the whole-board values along every path.
    board = list(tiles)
    nodes = 0
    steps = [(cols, lambda c: c + cols < rows * cols), (1, lambda c: c % cols != cols - 1)]
    steps += [(-1, lambda c: c % cols != 0), (-cols, lambda c: c >= cols)]

    def search(blank: int, g: int, bound: int, previous: int) -> int:
        nonlocal nodes
        h = h_of(tuple(board))
        if g + h > bound:
            return g + h
        if h == 0:
            return -1
        smallest = 1 << 30
        for step, allowed in steps:
            cell = blank + step
            if not allowed(blank) or cell == previous:
                continue
            board[blank], board[cell] = board[cell], 0
            nodes += 1
            found = search(cell, g + 1, bound, blank)
            board[cell], board[blank] = board[blank], 0
            if found == -1:
                return -1
            smallest = min(smallest, found)
        return smallest

    bound = h_of(tuple(board))
    while True:
        found = search(board.index(0), 0, bound, -1)
        if found == -1:
            return bound, nodes
        bound = found


def _pdb_h(database: pdb.Database, goal_blank: int = 15):  # type: ignore[no-untyped-def]
    reflect = database.reflect
    mirror = {}
    if reflect is not None:
        for tile in range(1, 16):
            home = tile - 1 if tile - 1 < goal_blank else tile
            other = reflect[home]
            mirror[tile] = other + 1 if other < goal_blank else other

    def lookup(position: dict[int, int]) -> int:
        total = 0
        for tiles, sparse, nibble, table in database.groups:
            assert sparse and nibble
            index = sum(position[t] << (4 * slot) for slot, t in enumerate(tiles))
            total += (int(table[index >> 1]) >> (4 * (index & 1))) & 15
        return total

    def h_of(board: tuple[int, ...]) -> int:
        md = _heuristics.evaluate(BY_NAME["manhattan"].code, _pack(board), 4, 4, goal_blank)
        plain = lookup({t: c for c, t in enumerate(board) if t})
        best = plain
        if reflect is not None:
            best = max(best, lookup({mirror[t]: reflect[c] for c, t in enumerate(board) if t}))
        return int(md) + 2 * best

    return h_of


def _whole_board_h(heuristic: str, problem, rows: int, cols: int):  # type: ignore[no-untyped-def]
    blank = rows * cols - 1
    if heuristic == "pdb555":
        return _pdb_h(_database(problem, heuristic))
    if heuristic == "walking_distance":

        def walking(board: tuple[int, ...]) -> int:
            tables = pdb.walking_args(rows, cols, blank, _pack(board), board.index(0))
            # A side without tables (2x8's columns) counts its Manhattan component.
            value = 0
            for side in (tables.vertical, tables.horizontal):
                value += side.start if side.next is None else int(side.distance[side.start])
            return value

        return walking

    def computed(board: tuple[int, ...]) -> int:
        return int(_heuristics.evaluate(BY_NAME[heuristic].code, _pack(board), rows, cols, blank))

    return computed


@pytest.mark.parametrize(
    ("heuristic", "shape"),
    [
        ("linear_conflict", (4, 4)),
        ("pdb555", (4, 4)),
        ("walking_distance", (4, 4)),
        ("linear_conflict", (3, 4)),
        ("walking_distance", (3, 4)),
        ("linear_conflict", (2, 7)),
        ("walking_distance", (2, 8)),
        ("misplaced", (3, 3)),
    ],
)
def test_incremental_updates_match_whole_board_values(
    heuristic: str, shape: tuple[int, int]
) -> None:
    rows, cols = shape
    if shape == (4, 4):
        tiles = next(i for i in random50() if i.name == "random50-2").tiles
    else:
        # Short walks on 2x8, where the pure-Python check would otherwise take minutes.
        moves = 16 if shape == (2, 8) else 40
        tiles = fp.scramble(fp.Board.goal(shape), moves, rng=3).tiles
    problem = make_problem(fp.Board(list(tiles), shape=shape))
    length, nodes = _python_ida_nodes(
        tiles, _whole_board_h(heuristic, problem, rows, cols), rows, cols
    )
    core = run_idastar(problem, heuristic, Limits())
    assert (core.depth, core.generated) == (length, nodes)


def _tables(groups, reflect=None):  # type: ignore[no-untyped-def]
    # Tables the driver reads as it reads a pdb.Database: groups and an optional reflection.
    return SimpleNamespace(groups=groups, reflect=reflect)


def test_driver_refuses_tables_that_do_not_fit() -> None:
    import numpy as np

    start = (_pack((1, 2, 3, 4, 5, 6, 0, 7, 8)), 6, 3, 3, 8)
    PDB = BY_NAME["pdb"].code
    short = np.zeros(10, dtype=np.uint8)
    with pytest.raises(ValueError, match="does not fit"):
        _idastar.idastar(*start, PDB, tables=_tables([((1, 2, 3), True, True, short)]))
    table = np.zeros(2048, dtype=np.uint8)
    with pytest.raises(ValueError, match="two groups"):
        _idastar.idastar(
            *start,
            PDB,
            tables=_tables([((1, 2, 3), True, True, table), ((3, 4), True, True, table)]),
        )
    with pytest.raises(ValueError, match="reflect"):
        _idastar.idastar(
            *start, PDB, tables=_tables([((1, 2, 3), True, True, table)], reflect=[0] * 9)
        )
