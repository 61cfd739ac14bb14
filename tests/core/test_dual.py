"""Dual pattern-database lookups and BPMX: admissible on every board of small shapes (against
BFS), the same values and node counts as the plain-Python reference (tests/dual_reference.py),
optimal lengths from the instance sets, on one thread and on several."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _board, _idastar, _wide_pdb
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import heuristic_tables, idastar, parallel, policy
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from fastpuzzle.pdb import dual, partitions
from tests.dual_reference import DualLookups, ida_bpmx, tables_of
from tests.instances import hard, korf24, random50
from tests.oracle import distances_from
from tests.pdbcache import small_5x5_database

# (shape, goal cells per group, goal blank): groups that wall the goal blank in (it needs its
# table for the other region) and groups that do not, goal blanks on the diagonal (reflected
# lookups) and off it.
SMALL = [
    ((3, 3), ((0, 1, 3, 4), (2, 5, 6, 7)), 8),
    ((3, 3), ((0, 1, 2), (3, 5), (6, 7, 8)), 4),
    ((3, 3), ((0, 1, 3), (2, 4, 5), (6, 7)), 8),
    ((2, 4), ((0, 1, 4), (2, 3, 5, 6)), 7),
    ((2, 4), ((0, 1, 2, 3), (5, 6, 7)), 4),
]


def _goal(shape: tuple[int, int], goal_blank: int) -> tuple[int, ...]:
    return tuple(
        0 if c == goal_blank else (c + 1 if c < goal_blank else c)
        for c in range(shape[0] * shape[1])
    )


def _setup(
    shape: tuple[int, int], partition: tuple[tuple[int, ...], ...], goal_blank: int, cache: Path
) -> tuple[pdb.Database, LoadedPatterns, DualLookups]:
    pdb.build_pdb(partition, shape, goal_blank, cache, progress=False)
    database = pdb.load_pdb(partition, shape, goal_blank, cache)
    assert database is not None
    layout = dual.dual_layout(database, cache)
    alts = dual.dual_tables(database, cache)
    assert alts is not None
    walled = dual.walled_regions(database)
    reference = DualLookups(
        shape[0],
        shape[1],
        goal_blank,
        tables_of(database),
        database.reflect,
        alt={(i, walled[i]): tables_of(a)[0] for i, a in enumerate(alts) if a is not None},
    )
    return database, layout, reference


def _packed(layout: LoadedPatterns, shape: tuple[int, int], goal_blank: int, tiles, **kw):  # type: ignore[no-untyped-def]
    return _idastar.idastar(
        int(_board.pack(tiles)),
        tiles.index(0),
        shape[0],
        shape[1],
        goal_blank,
        HeuristicCode.H_PDB,
        tables=layout,
        **kw,
    )


@pytest.mark.heavy
@pytest.mark.parametrize(("shape", "partition", "goal_blank"), SMALL)
def test_dual_lookups_never_overestimate(
    tmp_path: Path,
    shape: tuple[int, int],
    partition: tuple[tuple[int, ...], ...],
    goal_blank: int,
) -> None:
    _, layout, reference = _setup(shape, partition, goal_blank, tmp_path)
    distances = distances_from(_goal(shape, goal_blank), *shape)
    boards = sorted(distances)
    if len(boards) > 40_000:
        boards = random.Random(7).sample(boards, 40_000)
    above_regular = 0
    for tiles in boards:
        h = reference.h(tiles)
        assert h <= distances[tiles], tiles
        above_regular += h > reference.regular_h(tiles)
    assert above_regular > 0
    # The kernel's h at the root (searched to depth 0) is the reference's, board by board.
    for tiles in boards[:: max(1, len(boards) // 3000)]:
        core = _packed(layout, shape, goal_blank, tiles, max_depth=0)
        assert (0 if core.status == 0 else core.depth) == reference.h(tiles), tiles


def test_both_rules_are_needed(tmp_path: Path) -> None:
    # Without them the plain lookup on the dual overestimates: reading the group that holds
    # the blank's cell, or a walled group's own table for the other region.
    shape, partition, goal_blank = (2, 4), ((0, 1, 4), (2, 3, 5, 6)), 7
    _, _, reference = _setup(shape, partition, goal_blank, tmp_path)
    distances = distances_from(_goal(shape, goal_blank), *shape)

    class OwnTableEverywhere(DualLookups):
        def table_for(self, group: int, beta: int):  # type: ignore[no-untyped-def]
            table = self.tables[group]
            return None if beta in table.cells else table

    class EveryGroup(DualLookups):
        def table_for(self, group: int, beta: int):  # type: ignore[no-untyped-def]
            return self.tables[group]

    for wrong in (OwnTableEverywhere, EveryGroup):
        lookups = wrong(shape[0], shape[1], goal_blank, reference.tables, reference.reflect)
        assert sum(lookups.h(t) > d for t, d in distances.items()) > 50


@pytest.mark.heavy
@pytest.mark.parametrize(("shape", "partition", "goal_blank"), SMALL)
def test_packed_kernel_counts_the_reference_nodes(
    tmp_path: Path,
    shape: tuple[int, int],
    partition: tuple[tuple[int, ...], ...],
    goal_blank: int,
) -> None:
    _, layout, reference = _setup(shape, partition, goal_blank, tmp_path)
    distances = distances_from(_goal(shape, goal_blank), *shape)
    for tiles in random.Random(3).sample(sorted(distances), 150):
        core = _packed(layout, shape, goal_blank, tiles)
        length, counts = ida_bpmx(reference, tiles)
        assert core.depth == length == distances[tiles]
        assert (core.expanded, core.generated) == (counts.expanded, counts.generated), tiles
        start = fp.Board(list(tiles), shape=shape)
        assert start.apply(core.moves) == fp.Board(list(_goal(shape, goal_blank)), shape=shape)


def _play(tiles: tuple[int, ...], swaps: list[tuple[int, int]]) -> tuple[int, ...]:
    # Each swap must move the blank to a neighbouring cell.
    board = list(tiles)
    for a, b in swaps:
        assert 0 in (board[a], board[b])
        board[a], board[b] = board[b], board[a]
    return tuple(board)


@pytest.mark.heavy
def test_dual_search_reference_solves_optimally(tmp_path: Path) -> None:
    # Dual search (DIDA*) in plain Python, the measure of benchmarks/studies/dual_report.py: optimal
    # lengths, and its pieces unwound into moves that solve the board.
    shape, partition, goal_blank = (3, 3), ((0, 1, 3, 4), (2, 5, 6, 7)), 8
    _, _, reference = _setup(shape, partition, goal_blank, tmp_path)
    distances = distances_from(_goal(shape, goal_blank), *shape)
    jumps = 0
    for tiles in random.Random(9).sample(sorted(distances), 120):
        length, counts = ida_bpmx(reference, tiles, jump=True)
        assert length == len(counts.swaps) == distances[tiles]
        assert _play(tiles, counts.swaps) == _goal(shape, goal_blank)
        jumps += counts.jumps
    assert jumps > 0


def test_wide_kernel_counts_the_reference_nodes(tmp_path: Path) -> None:
    # 3x6 in small groups (built in milliseconds): the last one walls the goal blank in.
    shape, goal_blank = (3, 6), 17
    partition = ((0, 1, 6, 7), (2, 3, 8, 9), (4, 5, 10), (12, 13, 14), (11, 15, 16))
    database, layout, reference = _setup(shape, partition, goal_blank, tmp_path)
    assert dual.walled_regions(database) == [None, None, None, None, 0]
    rng = random.Random(5)
    goal = fp.Board(list(_goal(shape, goal_blank)), shape=shape)
    for _ in range(4):
        board = fp.scramble(goal, 40, rng=rng.randrange(1 << 30))
        tiles = tuple(int(t) for t in np.asarray(board).ravel())
        core = _wide_pdb.idastar(
            np.array(tiles, dtype=np.uint8), tiles.index(0), 3, 6, goal_blank, tables=layout
        )
        length, counts = ida_bpmx(reference, tiles)
        assert core.depth == length
        assert (core.expanded, core.generated) == (counts.expanded, counts.generated)
        plain = _wide_pdb.idastar(
            np.array(tiles, dtype=np.uint8), tiles.index(0), 3, 6, goal_blank, tables=database
        )
        assert plain.depth == length


def test_5x5_with_reflected_dual_lookups_on_threads(tmp_path: Path) -> None:
    # Eight 3-tile groups, the goal blank on the diagonal: all four lookups on 25 cells, the
    # reference's counts on one thread, the same lengths on two.
    database = small_5x5_database(tmp_path)
    layout = dual.dual_layout(database, tmp_path)
    reference = DualLookups(5, 5, 24, tables_of(database), database.reflect)
    rng = random.Random(11)
    for _ in range(3):
        board = fp.scramble(fp.Board.goal((5, 5)), 36, rng=rng.randrange(1 << 30))
        tiles = tuple(int(t) for t in np.asarray(board).ravel())
        cells = np.array(tiles, dtype=np.uint8)
        serial = _wide_pdb.idastar(cells, tiles.index(0), 5, 5, 24, tables=layout)
        length, counts = ida_bpmx(reference, tiles)
        assert (serial.depth, serial.expanded, serial.generated) == (
            length,
            counts.expanded,
            counts.generated,
        )
        shared = _wide_pdb.idastar(
            cells, tiles.index(0), 5, 5, 24, tables=layout, workers=2, runner=parallel.run_team
        )
        assert shared.depth == length and board.apply(shared.moves) == fp.Board.goal((5, 5))


def test_random50_lengths_with_dual_lookups() -> None:
    for instance in random50():
        for workers in (1, 2):
            result = fp.search(
                list(instance.tiles), algorithm="idastar", heuristic="pdb663_dual", workers=workers
            )
            assert result.solution is not None
            assert len(result.solution) == instance.optimal_length, instance.name
            assert result.solution.verify()


def test_dual_lookups_expand_fewer_nodes_than_the_two_lookups() -> None:
    # At least as large as the two lookups at every node and still admissible: each iteration's
    # tree is part of theirs, and an optimal path within the bound stays in it, so never more
    # expansions on any board; fewer over random50.
    dual_total = plain_total = 0
    for instance in random50():
        board = list(instance.tiles)
        with_dual = fp.search(board, algorithm="idastar", heuristic="pdb663_dual", workers=1)
        plain = fp.search(board, algorithm="idastar", heuristic="pdb663", workers=1)
        assert with_dual.stats.expanded <= plain.stats.expanded, instance.name
        dual_total += with_dual.stats.expanded
        plain_total += plain.stats.expanded
    assert dual_total < plain_total


def test_a_batch_takes_the_dual_heuristic() -> None:
    boards = [list(i.tiles) for i in list(random50())[:6]]
    result = fp.solve_many(boards, shape=(4, 4), heuristic="pdb663_dual")
    assert [int(n) for n in result.lengths] == [i.optimal_length for i in list(random50())[:6]]


def test_the_dual_table_is_named_in_the_error_when_it_cannot_be_built(tmp_path: Path) -> None:
    partition = ((0, 1, 3, 4), (2, 5, 6, 7))
    pdb.build_pdb(partition, (3, 3), 8, tmp_path, progress=False)
    database = pdb.load_pdb(partition, (3, 3), 8, tmp_path)
    assert database is not None
    with pytest.raises(pdb.PatternDatabaseError, match="dual lookups"):
        dual.dual_layout(database, tmp_path, build=False)


@pytest.mark.slow
@pytest.mark.parametrize("instance", list(hard()), ids=lambda i: i.name)
def test_hard_boards_with_dual_lookups(instance) -> None:  # type: ignore[no-untyped-def]
    heuristic = "pdb78_dual" if pdb.load_pdb("7-8") is not None else "pdb663_dual"
    result = fp.search(list(instance.tiles), algorithm="idastar", heuristic=heuristic)
    assert result.solution is not None and len(result.solution) == instance.optimal_length


@pytest.mark.slow
@pytest.mark.parametrize("instance", list(korf24()), ids=lambda i: i.name)
def test_korf24_with_dual_lookups(instance) -> None:  # type: ignore[no-untyped-def]
    if pdb.load_pdb("6-6-6-6", (5, 5)) is None:
        pytest.skip("needs 6-6-6-6 (fastpuzzle pdb build 6-6-6-6)")
    result = fp.search(list(instance.tiles), algorithm="idastar", heuristic="pdb6666_dual")
    assert result.solution is not None and len(result.solution) == instance.optimal_length


def test_pdb_past_16_cells_switches_to_dual_lookups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "pdb" on 5x5 goes on with the dual lookups past DUAL_FROM expansions when their tables
    # are on disk (these small tables need none), from the bound it had reached.
    database = small_5x5_database(tmp_path)
    monkeypatch.setattr(heuristic_tables, "database_for", lambda *args, **kw: database)
    # An empty cache: the policy would read 6-6-6-6 where the session's cache holds it.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path / "empty"))
    monkeypatch.setattr(policy, "DUAL_FROM", 2_000)
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=21)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    problem = make_problem(board)
    switched = idastar.run(Request(problem, "pdb", Limits(), workers=1))
    assert "_dual_loaded" in database.__dict__, "never switched"
    assert switched.depth == len(switched.moves) == optimum
    assert board.apply(switched.moves) == fp.Board.goal((5, 5))
    assert switched.expanded > 2_000


def test_a_search_parses_no_partition_past_the_one_it_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A partition is resolved once, where it enters pdb; asking whether the search switches to
    # the dual lookups (every "pdb" search past 16 cells asks) reads the database's resolved
    # partition instead of checking and naming its groups again. Before: each search parsed the
    # groups twice or more (dual_tables_built, then a path per walled-in group).
    database = small_5x5_database(tmp_path)
    monkeypatch.setattr(heuristic_tables, "database_for", lambda *args, **kw: database)
    parsed: list[object] = []
    check = partitions.shape_and_blank

    def counted(partition: object, shape: object, goal_blank: object) -> object:
        parsed.append(partition)
        return check(partition, shape, goal_blank)  # type: ignore[arg-type]

    board = fp.scramble(fp.Board.goal((5, 5)), 20, rng=4)
    request = Request(make_problem(board), "pdb", Limits(), workers=1)
    first = idastar.run(request)
    monkeypatch.setattr(partitions, "shape_and_blank", counted)
    again = idastar.run(request)
    assert parsed == []
    assert again.depth == first.depth == len(again.moves)
    assert board.apply(again.moves) == fp.Board.goal((5, 5))


def test_5x5_hint_names_the_dual_table_until_it_is_built(tmp_path: Path) -> None:
    # Files are enough: the hint looks for them, and reads none.
    assert policy.faster_table_hint((5, 5), 24, tmp_path) is None
    pdb.pdb_path("6-6-6-6", (5, 5), 24, tmp_path).touch()
    hint = policy.faster_table_hint((5, 5), 24, tmp_path)
    assert hint is not None and "pdb build 6-6-6-6" in hint
    walled = (12, 17, 18, 19, 22, 23)
    pdb.pdb_path((walled,), (5, 5), 0, tmp_path).touch()
    assert dual.dual_tables_built("6-6-6-6", (5, 5), 24, tmp_path)
    assert policy.faster_table_hint((5, 5), 24, tmp_path) is None
