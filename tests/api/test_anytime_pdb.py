"""The anytime solver on a pattern database past 16 cells: its searches towards the goal and its
lower bound read the tables when they are on disk.

Small stand-in tables (eight 3-tile groups, built in milliseconds) take the place of 5x5's
6-6-6-6; the optima are DeepCubeA's and Korf's published ones (``tests/data``). Node limits keep
the schedule deterministic.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import anytime
from fastpuzzle._solver.bounds import pattern_bound, start_bound
from tests import instances
from tests.pdbcache import (
    SMALL_6X6,
    small_5x5_database,
    small_6x6_database,
    stand_in_6x6_tables,
)


def _known_5x5() -> list[tuple[str, tuple[int, ...], int]]:
    out = [(i.name, i.tiles, i.optimal_length) for i in instances.deepcubea(5)]
    out += [(i.name, i.tiles, i.optimal_length) for i in instances.korf24()]
    return [(name, tiles, optimum) for name, tiles, optimum in out if optimum is not None]


@pytest.fixture(scope="module")
def small_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("anytime5x5")
    small_5x5_database(directory)
    return directory


@pytest.fixture
def small_tables(small_cache: Path, monkeypatch: pytest.MonkeyPatch) -> anytime.Tables:
    """The small tables, set as what the anytime solver finds on disk for 5x5."""
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(small_cache))
    # small_5x5_database's groups: cells 0-2, 3-5, ... of the goal.
    groups = tuple(tuple(range(first, first + 3)) for first in range(0, 24, 3))
    tables = anytime.Tables(groups, (5, 5), 24, wait=True)
    assert tables.ready() is not None
    monkeypatch.setattr(
        anytime.Tables, "on_disk", classmethod(lambda cls, problem, wait, memory_bytes=None: tables)
    )
    return tables


def test_the_pattern_bound_is_never_above_the_optimum(small_tables):
    known = _known_5x5()
    assert len(known) == 25
    raised = 0
    for name, tiles, optimum in known:
        problem = make_problem(fp.Board(tiles, shape=(5, 5)), None)
        plain = start_bound(problem)
        bound = start_bound(problem, small_tables.ready())
        assert plain <= bound <= optimum, name
        assert bound == max(plain, pattern_bound(problem, small_tables.ready()))
        raised += bound > plain
    # Even 3-tile groups beat linear conflict on some of these boards.
    assert raised > 0


def test_pattern_bound_of_the_goal_is_zero(small_tables):
    problem = make_problem(fp.Board.goal((5, 5)), None)
    assert pattern_bound(problem, small_tables.ready()) == 0


@pytest.mark.parametrize("index", range(4))
def test_anytime_answers_on_the_pattern_database(small_tables, index):
    name, tiles, optimum = _known_5x5()[index]
    board = fp.Board(tiles, shape=(5, 5))
    problem = make_problem(board, None)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=200_000))
    assert solution.heuristic == "pdb"
    assert solution.verify(), name
    assert board.apply(solution.moves) == fp.Board.goal((5, 5))
    # Its bound is at least the tables' value of the start, and never above the optimum.
    assert pattern_bound(problem, small_tables.ready()) <= solution.lower_bound <= optimum
    assert optimum <= len(solution)
    # Deterministic under a node limit: the same answer again.
    again = fp.solve(board, optimal=False, limits=fp.Limits(nodes=200_000))
    assert again.moves == solution.moves and again.lower_bound == solution.lower_bound


def test_certified_bound_reaches_the_optimum_of_a_short_board(small_tables):
    # A 5x5 scramble the unweighted search on the tables proves within the limit.
    board = fp.scramble(fp.Board.goal((5, 5)), 30, rng=7)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=2_000_000))
    assert solution.lower_bound == optimum == len(solution)
    assert solution.optimal


def test_no_tables_without_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    problem = make_problem(fp.Board.goal((5, 5)), None)
    assert anytime.Tables.on_disk(problem, wait=False) is None
    for side in (6, 7, 8):
        board = fp.Board.goal((side, side))
        assert anytime.Tables.on_disk(make_problem(board, None), wait=True) is None


def test_the_6x6_tables_are_found_on_disk(tmp_path, monkeypatch):
    # The shape's named table, as 6-6-6-6 is 5x5's (a stand-in file: on_disk only sizes it).
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    path = pdb.pdb_path("5-5-5-5-5-5-5", (6, 6), 35)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(1000))
    found = anytime.Tables.on_disk(make_problem(fp.Board.goal((6, 6)), None), wait=True)
    assert found is not None and found.partition == "5-5-5-5-5-5-5" and found.nbytes == 1000
    # 7x7's table is built by its name, but the searches do not read it (it did not pay).
    path = pdb.pdb_path("4-4-4-4-4-4-4-4-4-4-4-4", (7, 7), 48)
    path.write_bytes(bytes(1000))
    assert anytime.Tables.on_disk(make_problem(fp.Board.goal((7, 7)), None), wait=True) is None


def test_a_damaged_file_gives_no_tables_and_is_read_once(tmp_path, monkeypatch):
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    path = pdb.pdb_path("6-6-6-6", (5, 5), 24)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database")
    problem = make_problem(fp.Board.goal((5, 5)), None)
    tables = anytime.Tables.on_disk(problem, wait=True)
    assert tables is not None and tables.ready() is None
    path.unlink()
    assert tables.ready() is None


def test_tables_read_in_the_background_arrive(tmp_path, monkeypatch):
    # Built, not loaded, in a cache folder of its own: no read of this process has kept it.
    groups = tuple(tuple(range(first, first + 3)) for first in range(0, 24, 3))
    pdb.build_pdb(groups, (5, 5), cache_dir=tmp_path, progress=False)
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    tables = anytime.Tables(groups, (5, 5), 24, wait=False)
    for _ in range(10_000):
        if tables.ready() is not None:
            break
        threading.Event().wait(0.01)
    assert tables.ready() is not None
    assert tables.for_goal(24) is tables.ready() and tables.for_goal(0) is None


def test_anytime_under_a_time_limit_on_the_pattern_database(small_cache, monkeypatch):
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(small_cache))
    groups = tuple(tuple(range(first, first + 3)) for first in range(0, 24, 3))
    monkeypatch.setattr(
        anytime.Tables,
        "on_disk",
        classmethod(
            lambda cls, problem, wait, memory_bytes=None: cls(groups, (5, 5), 24, wait=wait)
        ),
    )
    name, tiles, optimum = _known_5x5()[5]
    board = fp.Board(tiles, shape=(5, 5))
    solution = fp.solve(board, optimal=False, limits=fp.Limits(seconds=0.5))
    assert solution.verify(), name
    assert solution.lower_bound <= optimum <= len(solution)


def test_an_unreadable_file_leaves_the_searches_on_linear_conflict(small_tables, monkeypatch):
    # A read that fails (permissions, no memory) is a table the solver goes on without.
    def unreadable(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    tables = anytime.Tables(small_tables.partition, (5, 5), 24, wait=True)
    monkeypatch.setattr(anytime, "load_pdb", unreadable)
    monkeypatch.setattr(
        anytime.Tables, "on_disk", classmethod(lambda cls, problem, wait, memory_bytes=None: tables)
    )
    name, tiles, optimum = _known_5x5()[0]
    solution = fp.solve(
        fp.Board(tiles, shape=(5, 5)), optimal=False, limits=fp.Limits(nodes=20_000)
    )
    assert solution.verify(), name
    assert solution.heuristic == "linear_conflict"
    assert solution.lower_bound <= optimum <= len(solution)


def test_tables_larger_than_the_memory_limit_stay_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    path = pdb.pdb_path("6-6-6-6", (5, 5), 24)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(1000))
    problem = make_problem(fp.Board.goal((5, 5)), None)
    assert anytime.Tables.on_disk(problem, wait=True, memory_bytes=999) is None
    found = anytime.Tables.on_disk(problem, wait=True, memory_bytes=1000)
    assert found is not None and found.nbytes == 1000


def test_the_tables_read_count_in_the_peak_memory(small_tables):
    small_tables.nbytes = 10**7
    _, tiles, _ = _known_5x5()[1]
    solution = fp.solve(
        fp.Board(tiles, shape=(5, 5)), optimal=False, limits=fp.Limits(nodes=20_000)
    )
    assert solution.heuristic == "pdb"
    assert solution.stats.peak_memory_bytes >= 10**7


@pytest.fixture(scope="module")
def small_cache_6x6(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("anytime6x6")
    small_6x6_database(directory)
    return directory


@pytest.mark.parametrize("seed", range(3))
def test_anytime_answers_on_6x6_tables(small_cache_6x6, monkeypatch, seed):
    # 6x6 reads its tables as 5x5 does (small stand-ins for 5-5-5-5-5-5-5); the optima of
    # these scrambles come from IDA* with linear conflict.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(small_cache_6x6))
    tables = anytime.Tables(SMALL_6X6, (6, 6), 35, wait=True)
    assert tables.ready() is not None
    monkeypatch.setattr(
        anytime.Tables, "on_disk", classmethod(lambda cls, problem, wait, memory_bytes=None: tables)
    )
    board = fp.scramble(fp.Board.goal((6, 6)), 60, rng=seed)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    problem = make_problem(board, None)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=3_000_000))
    assert solution.heuristic == "pdb"
    assert solution.verify()
    assert pattern_bound(problem, tables.ready()) <= solution.lower_bound <= optimum
    assert optimum <= len(solution)


def test_beams_wait_for_boards_without_tables(small_cache_6x6, monkeypatch):
    # On a pattern database weighted IDA* finishes, and beams first gained nothing there (6x6,
    # 20 million nodes: 148.0 moves with them and without) at twice its time a node.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(small_cache_6x6))
    tables = anytime.Tables(SMALL_6X6, (6, 6), 35, wait=True)
    board = fp.scramble(fp.Board.goal((6, 6)), 60, rng=0)
    beams: list[int] = []
    phase = anytime.beam.beam_phase
    monkeypatch.setattr(anytime.beam, "beam_phase", lambda *args: beams.append(1) or phase(*args))
    limits = fp.Limits(nodes=200_000)
    for found in (None, tables):
        monkeypatch.setattr(
            anytime.Tables,
            "on_disk",
            classmethod(lambda cls, problem, wait, memory_bytes=None, found=found: found),
        )
        assert fp.solve(board, optimal=False, limits=limits, workers=1).verify()
    assert beams == [1]


def _tables_6x6(directory: Path, monkeypatch: pytest.MonkeyPatch) -> anytime.Tables:
    return stand_in_6x6_tables(directory, monkeypatch)


def test_batch_astar_runs_on_6x6_tables_and_its_answer_replays(small_cache_6x6, monkeypatch):
    # Batch weighted A* on the tables joins the schedule once a share of the limit is spent
    # (6x6, 20 million nodes, DeepCubeA's first 5 boards: 148.0 moves without, 140.0 with).
    _tables_6x6(small_cache_6x6, monkeypatch)
    calls: list[int] = []
    phase = anytime.batch_astar.astar_phase

    def counted(problem, best, *args, **options):
        found = phase(problem, best, *args, **options)
        calls.append(len(found))
        assert len(found) <= len(best)
        return found

    monkeypatch.setattr(anytime.batch_astar, "astar_phase", counted)
    board = fp.random_board((6, 6), rng=5)
    limits = fp.Limits(nodes=1_000_000)
    solution = fp.solve(board, optimal=False, limits=limits)
    assert len(calls) == 1
    assert solution.verify() and len(solution) <= calls[0]
    assert solution.lower_bound <= len(solution)
    # Under a node limit the schedule stays deterministic.
    assert fp.solve(board, optimal=False, limits=limits).moves == solution.moves


def test_batch_astar_waits_for_6x6(small_tables, monkeypatch):
    # 5x5 keeps its schedule (the portfolio on 6-6-6-6 is within 1.04x optimal).
    calls: list[int] = []
    monkeypatch.setattr(
        anytime.batch_astar,
        "astar_phase",
        lambda problem, best, *args, **kw: calls.append(1) or best,
    )
    _, tiles, _ = _known_5x5()[0]
    assert fp.solve(fp.Board(tiles, shape=(5, 5)), optimal=False, limits=fp.Limits(nodes=400_000))
    assert calls == []


def test_the_peak_memory_holds_the_tables_and_batch_astars_store(small_cache_6x6, monkeypatch):
    # Before: the larger of the two (the tables and the boards A* stores are in memory
    # together: 6x6, 158 MB and up to 1 GiB).
    tables = _tables_6x6(small_cache_6x6, monkeypatch)
    tables.nbytes = 50_000_000  # as the file's size counts them
    stored: list[int] = []
    kernel = anytime.batch_astar._wastar.wastar

    def watched(*args, **options):
        found = kernel(*args, **options)
        stored.append(found.allocated_bytes)
        return found

    monkeypatch.setattr(anytime.batch_astar._wastar, "wastar", watched)
    board = fp.random_board((6, 6), rng=5)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=1_000_000), workers=1)
    assert stored and solution.heuristic == "pdb"
    assert solution.stats.peak_memory_bytes >= tables.nbytes + max(stored)


def test_batch_astar_stores_within_the_memory_limit(small_cache_6x6, monkeypatch):
    tables = _tables_6x6(small_cache_6x6, monkeypatch)
    memory = tables.nbytes + 3_000_000
    seen: list[int] = []
    kernel = anytime.batch_astar._wastar.wastar

    def watched(*args, **options):
        found = kernel(*args, **options)
        seen.append(found.allocated_bytes)
        assert options["memory_bytes"] == 3_000_000
        return found

    monkeypatch.setattr(anytime.batch_astar._wastar, "wastar", watched)
    board = fp.random_board((6, 6), rng=5)
    solution = fp.solve(
        board, optimal=False, limits=fp.Limits(nodes=1_000_000, memory_bytes=memory)
    )
    assert solution.verify()
    assert seen and max(seen) <= 3_000_000
