"""A long 5x5 ``pdb`` search goes on with the compound (6-6-6-6x7z) where its files are on
disk: the switch is taken past ``policy.COMPOUND_FROM`` expansions, from the bound reached, and
the lengths stay optimal; small stand-in tables here, the real ones where they are built."""

from __future__ import annotations

from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import heuristic_tables, idastar, policy
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from fastpuzzle.pdb import compound, partitions
from tests.instances import korf24
from tests.pdbcache import small_5x5_compound, small_5x5_database


def _touch_compound(cache: Path) -> None:
    # Files are enough for the policy: it looks for them, and reads none.
    for wanted in partitions.compound_sources(policy.LONG_COMPOUND, (5, 5), 24):
        pdb.pdb_path(wanted, (5, 5), 24, cache).touch()


def test_the_compound_replaces_the_dual_lookups_once_its_files_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    cells = partitions.resolve("6-6-6-6", (5, 5), 24).groups
    pinwheel = pdb.Database((5, 5), 24, "6-6-6-6", cells, [], None, None)
    walled = (12, 17, 18, 19, 22, 23)
    pdb.pdb_path((walled,), (5, 5), 0).touch()
    assert policy.table_switch("pdb", pinwheel, wide=True) == policy.Switch(
        policy.DUAL_FROM, "dual"
    )
    _touch_compound(tmp_path)
    assert policy.table_switch("pdb", pinwheel, wide=True) == policy.Switch(
        policy.COMPOUND_FROM, "compound"
    )
    # Named outright, 6-6-6-6 keeps its tables.
    assert policy.table_switch("pdb6666", pinwheel, wide=True) is None


@pytest.fixture
def small_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[pdb.Database, pdb.Compound]:
    """The small stand-ins: ``pdb`` reads eight 3-tile groups, its compound is three
    partitions of 4-tile groups, reported built, switched to after 2,000 expansions."""
    database = small_5x5_database(tmp_path)
    tables = small_5x5_compound(tmp_path)
    monkeypatch.setattr(heuristic_tables, "database_for", lambda *args, **kw: database)
    monkeypatch.setattr(heuristic_tables, "compound_for", lambda *args, **kw: tables)
    monkeypatch.setattr(policy, "compound_built", lambda *args, **kw: True)
    # An empty cache: the policy would read 6-6-6-6 where the session's cache holds it.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path / "empty"))
    monkeypatch.setattr(policy, "COMPOUND_FROM", 2_000)
    return database, tables


@pytest.fixture
def small_tables(small_pair: tuple[pdb.Database, pdb.Compound]) -> pdb.Compound:
    """The small compound of :func:`small_pair`."""
    return small_pair[1]


@pytest.mark.parametrize("rng", [21, 5, 8])
def test_pdb_on_5x5_goes_on_with_the_compound(small_tables: pdb.Compound, rng: int) -> None:
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=rng)
    # The optimum from another heuristic.
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    switched = idastar.run(Request(make_problem(board), "pdb", Limits(), workers=1))
    assert switched.depth == len(switched.moves) == optimum
    assert board.apply(switched.moves) == fp.Board.goal((5, 5))
    if switched.expanded > 2_000:
        assert "_loaded" in small_tables.__dict__, "never switched"


def test_a_search_past_the_switch_reads_the_compound(small_tables: pdb.Compound) -> None:
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=21)
    result = idastar.run(Request(make_problem(board), "pdb", Limits(), workers=1))
    assert result.expanded > 2_000
    assert "_loaded" in small_tables.__dict__, "never switched"


def test_a_compound_that_does_not_load_leaves_the_search_on_its_tables(
    small_tables: pdb.Compound, monkeypatch: pytest.MonkeyPatch
) -> None:
    def damaged(*args: object, **kw: object) -> pdb.Compound:
        raise pdb.PatternDatabaseError("damaged")

    monkeypatch.setattr(heuristic_tables, "compound_for", damaged)
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=21)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    result = idastar.run(Request(make_problem(board), "pdb", Limits(), workers=1))
    assert result.expanded > 2_000
    assert result.depth == len(result.moves) == optimum


def test_a_node_limit_below_the_switch_stops_before_it(small_tables: pdb.Compound) -> None:
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=21)
    result = idastar.run(Request(make_problem(board), "pdb", Limits(nodes=1_000), workers=1))
    assert result.moves == ""
    assert "_loaded" not in small_tables.__dict__


def test_korf24_easiest_with_the_real_compound(monkeypatch: pytest.MonkeyPatch) -> None:
    if not compound.compound_built(policy.LONG_COMPOUND, (5, 5), 24):
        pytest.skip(f"needs {policy.LONG_COMPOUND} (fastpuzzle pdb build {policy.LONG_COMPOUND})")
    monkeypatch.setattr(policy, "COMPOUND_FROM", 1 << 20)
    instance = min(korf24(), key=lambda i: i.published_nodes or 1 << 62)
    solution = fp.solve(list(instance.tiles), workers=1, limits=fp.Limits(seconds=3600))
    assert len(solution.moves) == instance.optimal_length


def test_a_chain_of_switches_goes_through_every_part(
    small_pair: tuple[pdb.Database, pdb.Compound], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The dual lookups past 1,000 expansions, then the compound past 3,000: each part from the
    # bound the one before reached, the lengths optimal.
    chained = policy.Switch(1_000, "dual", policy.Switch(3_000, "compound"))
    monkeypatch.setattr(policy, "table_switch", lambda *args, **kw: chained)
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=21)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    database, small_tables = small_pair
    result = idastar.run(Request(make_problem(board), "pdb", Limits(), workers=1))
    assert result.expanded > 3_000
    assert "_dual_loaded" in database.__dict__, "never read the dual lookups"
    assert "_loaded" in small_tables.__dict__, "never switched to the compound"
    assert result.depth == len(result.moves) == optimum
