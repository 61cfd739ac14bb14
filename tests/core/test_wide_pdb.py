"""Pattern databases past 16 cells: the builder against a plain 0-1 BFS, and IDA* with them
against plain Manhattan IDA* on boards whose optimum that can reach.

Everything builds into temporary cache directories with small groups (milliseconds); the real
5x5 6-6-6-6 database is exercised by the slow test at the end.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _pdb, _wide_pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import policy
from fastpuzzle.pdb import partitions
from tests.interrupts import latency_of
from tests.oracle import compact_rank as _compact_rank
from tests.oracle import group_distances as _plain_group_distances
from tests.pdbcache import small_5x5_database, small_6x6_database, wide_pdb_search

SOLVED = 0


@pytest.mark.heavy
@pytest.mark.parametrize(
    ("rows", "cols", "goal_blank", "cells"),
    [
        (5, 5, 24, (0, 6)),
        (5, 5, 24, (18, 19, 23)),
        (5, 5, 12, (11, 13, 7)),  # blank in the centre
        (4, 5, 0, (1, 2, 6)),
        (3, 7, 20, (0, 8, 20 - 1)),
    ],
)
def test_builder_matches_a_plain_blank_tracking_bfs(rows, cols, goal_blank, cells):
    n = rows * cols
    tiles = [cell + 1 if cell < goal_blank else cell for cell in cells]
    levels = _pdb.build_levels(rows, cols, goal_blank, tiles, False)
    expected = _plain_group_distances(rows, cols, goal_blank, cells)
    assert len(expected) == len(levels)
    for placement, value in expected.items():
        assert levels[_compact_rank(placement, n)] == value, placement


def test_builder_refuses_boards_past_64_cells_and_sparse_tables_past_16():
    with pytest.raises(ValueError, match="64 cells"):
        _pdb.build_levels(5, 13, 64, [1], False)
    with pytest.raises(ValueError, match="sparse"):
        _pdb.build_levels(5, 5, 24, [1, 2], True)
    with pytest.raises(pdb.PatternDatabaseError, match="zero-aware tables are built for boards"):
        pdb.build_pdb(partitions.ZeroAwareGroups(((0, 1, 2, 3),)), (6, 6), progress=False)


@pytest.fixture(scope="module")
def small_6x6(tmp_path_factory: pytest.TempPathFactory) -> pdb.Database:
    return small_6x6_database(tmp_path_factory.mktemp("cache6x6"))


@pytest.mark.parametrize("seed", range(6))
def test_6x6_pdb_and_linear_conflict_agree_on_optimal_length(small_6x6, seed):
    # Past 32 cells (6-bit slots): the tables' IDA*, plain and mirrored, against the wide
    # kernel's IDA* with linear conflict; and the tables' h between Manhattan and the optimum.
    board = fp.scramble(fp.Board.goal((6, 6)), 44, rng=seed)
    plain = fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1)
    h = wide_pdb_search(small_6x6, board, max_depth=0).depth
    assert fp.manhattan(board) <= h <= len(plain)
    for mirror in (False, True):
        core = wide_pdb_search(small_6x6, board, mirror=mirror)
        assert core.status == SOLVED
        assert len(core.moves) == len(plain)
        assert board.apply(core.moves) == fp.Board.goal((6, 6))
    weighted = wide_pdb_search(small_6x6, board, weight=1.5)
    assert weighted.status == SOLVED
    assert board.apply(weighted.moves) == fp.Board.goal((6, 6))
    assert len(plain) <= len(weighted.moves) <= 1.5 * len(plain)


@pytest.mark.parametrize(
    ("name", "shape", "size", "count"),
    [("5-5-5-5-5-5-5", (6, 6), 5, 7), ("4-4-4-4-4-4-4-4-4-4-4-4", (7, 7), 4, 12)],
)
def test_6x6_and_7x7_partitions_cover_every_tile_once(name, shape, size, count):
    groups = partitions.NAMED_PARTITIONS[shape][name]
    assert sorted(len(group) for group in groups) == [size] * count
    cells = shape[0] * shape[1]
    assert sorted(c for group in groups for c in group) == list(range(cells - 1))
    assert partitions.default_partition(shape, cells - 1) == name
    assert partitions.resolve(name).shape == shape
    # Mirrored about the diagonal it is another partition: the reflected lookup adds to it.
    mirrored = {frozenset((c % shape[1]) * shape[1] + c // shape[1] for c in g) for g in groups}
    assert mirrored != {frozenset(g) for g in groups}


@pytest.fixture(scope="module")
def small_5x5(tmp_path_factory: pytest.TempPathFactory) -> pdb.Database:
    return small_5x5_database(tmp_path_factory.mktemp("cache5x5"))


@pytest.mark.parametrize("seed", range(8))
def test_5x5_pdb_and_manhattan_agree_on_optimal_length(small_5x5, seed):
    board = fp.scramble(fp.Board.goal((5, 5)), 36, rng=seed)
    plain = fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1)
    for mirror in (False, True):
        core = wide_pdb_search(small_5x5, board, mirror=mirror)
        assert core.status == SOLVED
        assert len(core.moves) == len(plain)
        assert board.apply(core.moves) == fp.Board.goal((5, 5))


def test_pdb_heuristic_is_at_least_manhattan_and_never_above_the_optimum(small_5x5):
    for seed in range(12):
        board = fp.scramble(fp.Board.goal((5, 5)), 30, rng=100 + seed)
        optimum = len(fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1))
        # With max_depth 0 the search stops before its first bound past 0 and reports it: h.
        core = wide_pdb_search(small_5x5, board, max_depth=0)
        h = 0 if core.status == SOLVED else core.depth
        assert fp.manhattan(board) <= h <= optimum


def test_pdb_search_obeys_node_limits(small_5x5):
    board = fp.scramble(fp.Board.goal((5, 5)), 120, rng=5)
    core = wide_pdb_search(small_5x5, board, node_limit=1000)
    assert fp.Status.from_code(core.status) is fp.Status.NODE_LIMIT
    assert core.expanded == 1000


def test_driver_rejects_tables_that_do_not_fit(small_5x5):
    tiles, _, nibble, table = small_5x5.groups[0]
    board = make_problem(fp.scramble(fp.Board.goal((5, 5)), 10, rng=1), None)
    with pytest.raises(ValueError, match="does not fit"):
        _wide_pdb.idastar(
            board.wide_cells().astype(np.uint8),
            board.blank,
            5,
            5,
            24,
            tables=dataclasses.replace(small_5x5, groups=[(tiles, False, nibble, table[:10])]),
        )


@pytest.fixture(scope="module")
def rectangle_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding the default 4x5 database, built through the command line."""
    from fastpuzzle.cli import main

    cache = tmp_path_factory.mktemp("cache4x5")
    assert main(["pdb", "build", "auto", "--shape", "4", "5", "--cache-dir", str(cache)]) == 0
    return cache


def test_rectangle_pdb_through_the_public_api(
    rectangle_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    board = fp.scramble(fp.Board.goal((4, 5)), 60, rng=3)
    problem = make_problem(board, None)
    # 4x5 builds its table on first use (seconds); 4x6's (minutes) is only read once built.
    assert policy.auto_choice(board.shape, problem.goal_blank).heuristic == "pdb"
    board4x6 = fp.scramble(fp.Board.goal((4, 6)), 60, rng=3)
    assert policy.auto_choice((4, 6), 23).heuristic == "linear_conflict"
    with pytest.raises(pdb.PatternDatabaseError, match="pdb build auto --shape 4 6"):
        fp.search(board4x6, algorithm="idastar", heuristic="pdb", workers=1)
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(rectangle_cache))
    assert policy.auto_choice(board.shape, problem.goal_blank).heuristic == "pdb"
    reference = fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1)
    result = fp.search(board, algorithm="idastar", heuristic="pdb", workers=1)
    assert result.solution is not None and result.solution.verify()
    assert len(result.solution) == len(reference)
    solved = fp.solve(board)
    assert solved.heuristic == "pdb" and solved.optimal and len(solved) == len(reference)


def test_5x5_pdb_heuristics_need_their_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    board = fp.scramble(fp.Board.goal((5, 5)), 20, rng=1)
    for name in ("pdb", "pdb6666", "pattern_database"):
        with pytest.raises(pdb.PatternDatabaseError, match="pdb build 6-6-6-6"):
            fp.search(board, algorithm="idastar", heuristic=name)
    with pytest.raises(fp.UnknownNameError, match="only 5x5"):
        fp.search(fp.Board.goal((4, 4)).apply("UL"), algorithm="idastar", heuristic="pdb6666")
    with pytest.raises(ValueError, match="weighted"):
        fp.search(board, algorithm="idastar", heuristic="pdb", weight=2, workers=1)
    # Without the database solve() falls back to linear conflict.
    assert fp.solve(board).heuristic == "linear_conflict"


def test_named_5x5_partition_covers_every_tile_once():
    resolved = partitions.resolve("6-6-6-6", (5, 5), 24)
    name, groups = resolved.name, resolved.groups
    flat = sorted(c for group in groups for c in group)
    assert name == "6-6-6-6" and flat == list(range(24))
    assert [len(g) for g in groups] == [6, 6, 6, 6]
    assert partitions.shape_of_partition("6-6-6-6") == (5, 5)
    assert pdb.pdb_path("6-6-6-6", cache_dir="/c").name == "pdb-v1-5x5-blank24-6-6-6-6.fpdb"
    # The pinwheel mirrored about the diagonal is another partition: its lookups add information.
    mirror = {frozenset((c % 5) * 5 + c // 5 for c in g) for g in groups}
    assert mirror.isdisjoint({frozenset(g) for g in groups})


def test_cli_lists_the_rectangle_database(
    rectangle_cache: Path, capsys: pytest.CaptureFixture[str]
):
    from fastpuzzle.cli import main

    assert main(["pdb", "info", "--cache-dir", str(rectangle_cache)]) == 0
    out = capsys.readouterr().out
    assert "pdb-v1-4x5-blank19-custom-" in out and " ok" in out


@pytest.mark.slow
def test_6666_database_against_manhattan():
    # Uses the user's cache; builds 6-6-6-6 there when missing (about 7 minutes, 1 GiB).
    pdb.build_pdb("6-6-6-6", progress=False)
    database = pdb.load_pdb("6-6-6-6")
    assert database is not None and database.nbytes == 4 * 127_512_000 // 2
    for seed in range(6):
        board = fp.scramble(fp.Board.goal((5, 5)), 50, rng=200 + seed)
        plain = fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1)
        strong = fp.solve(board, algorithm="idastar", heuristic="pdb6666", workers=1)
        assert len(strong) == len(plain) and strong.verify()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_interrupts_a_5x5_build_and_a_5x5_search(small_5x5):
    # A five-tile group: 6.4 M placements, a second of work on one thread (on every core of a
    # large machine it could end before the signal).
    def build() -> object:
        return _pdb.build_levels(5, 5, 24, [1, 2, 3, 6, 7], False, threads=1)

    assert latency_of(0.3, build, "work") < 0.5
    hard = fp.random_board((5, 5), rng=11)
    assert latency_of(0.3, lambda: wide_pdb_search(small_5x5, hard, time_limit=30), "work") < 0.5


def test_progress_reports_the_bound(small_5x5):
    seen: list[int] = []
    core = wide_pdb_search(
        small_5x5,
        fp.random_board((5, 5), rng=11),
        node_limit=300_000,
        progress=lambda expanded, generated, seconds, bound: seen.append(bound),
    )
    assert fp.Status.from_code(core.status) is fp.Status.NODE_LIMIT
    assert (
        seen and seen == sorted(seen) and seen[0] >= fp.manhattan(fp.random_board((5, 5), rng=11))
    )
