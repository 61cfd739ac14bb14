"""The compound with zero-aware tables (``pdb24z``, compound ``6-6-6-6x7z``), past 16 cells.

Small tables stand in for the catalogue's (the three partitions of groups of four tiles that
``tests/core/test_compound.py`` uses, zero-aware): the kernel's value is checked board by board
against a plain-Python reference reading the same tables through the zero-aware index of
``tests/zero_reference.py``; its lengths against the plain compound's search; the catalogue
path (build, info, search, batch, a worker's load, clear) through the same calls a user makes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle import cli, pdb
from fastpuzzle._solver import pruning
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle.pdb import PatternDatabaseError, compound, partitions, store
from fastpuzzle.pdb.compound import Compound
from tests.instances import korf24
from tests.pdbcache import (
    SMALL_COMPOUND,
    entry_value,
    scrambles_5x5,
    search_5x5,
    small_5x5_compound,
)
from tests.zero_reference import ZeroIndex

SHAPE = (5, 5)
BLANK = 24
NAME = BY_NAME["pdb24z"].compound


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Compound, Compound]:
    """The three test partitions as a compound, zero-aware and plain, built through the
    catalogue's own path."""
    zero = small_5x5_compound(tmp_path_factory.mktemp("zero"), "test-x3z", zero=True)
    plain = small_5x5_compound(tmp_path_factory.mktemp("plain"), "test-x3")
    return zero, plain


def _reference_h(tables: Compound, index: ZeroIndex, tiles: tuple[int, ...]) -> int:
    """Manhattan plus twice the largest sum over the partitions and their reflections, each
    group's value read by the plain-Python zero-aware index (tile t's goal cell is t - 1)."""
    where = {tile: cell for cell, tile in enumerate(tiles)}
    reflect = tables.reflect
    assert reflect is not None
    md = sum(
        abs(where[t] // 5 - (t - 1) // 5) + abs(where[t] % 5 - (t - 1) % 5) for t in range(1, 25)
    )
    best = 0
    for groups in tables.partitions:
        plain = mirrored = 0
        for group_tiles, _, nibble, table in groups:
            cells = tuple(where[t] for t in group_tiles)
            plain += entry_value(table, nibble, index.entry(cells, where[0]))
            # The mirrored board: the tile whose goal cell is c stands, reflected, where the
            # tile of goal cell reflect[c] stands; its blank is the reflected blank.
            reflected = tuple(reflect[where[reflect[t - 1] + 1]] for t in group_tiles)
            mirrored += entry_value(table, nibble, index.entry(reflected, reflect[where[0]]))
        best = max(best, plain, mirrored)
    return md + 2 * best


def test_the_tables_are_zero_aware_files_of_their_own(
    both: tuple[Compound, Compound], monkeypatch: pytest.MonkeyPatch
) -> None:
    zero, plain = both
    assert zero.zero_aware and not plain.zero_aware and zero.loaded().zero
    tables = {id(t): t for p in zero.partitions for *_, t in p}
    assert len(tables) == 16  # 18 groups, two of them in two partitions
    assert zero.nbytes > plain.nbytes
    for name in ("test-x3z", "test-x3"):
        monkeypatch.setitem(partitions.COMPOUNDS[SHAPE], name, SMALL_COMPOUND)
    monkeypatch.setattr(partitions, "ZERO_COMPOUNDS", frozenset({"test-x3z"}))
    names = [
        partitions.resolve(s, SHAPE, BLANK).name
        for s in partitions.compound_sources("test-x3z", SHAPE, BLANK)
    ]
    assert len(names) == 16 and all(n.endswith("z") and partitions.is_zero_aware(n) for n in names)
    plain_names = {
        partitions.resolve(s, SHAPE, BLANK).name
        for s in partitions.compound_sources("test-x3", SHAPE, BLANK)
    }
    assert {n[:-1] for n in names} == plain_names  # the same groups, the other files


def test_the_kernel_value_is_the_reference_value(both: tuple[Compound, Compound]) -> None:
    zero, plain = both
    index = ZeroIndex(SHAPE, 4)
    zero_layout, plain_layout = zero.loaded(), plain.loaded()
    boards = scrambles_5x5(120, (10, 120), seed=21) + [
        tuple(int(t) for t in fp.random_board(SHAPE, rng=seed).tiles) for seed in range(40)
    ]
    higher = 0
    for tiles in boards:
        h = search_5x5(tiles, zero_layout, max_depth=0)
        value = 0 if h.status == 0 else h.depth  # type: ignore[attr-defined]
        assert value == _reference_h(zero, index, tiles), tiles
        p = search_5x5(tiles, plain_layout, max_depth=0)
        plain_value = 0 if p.status == 0 else p.depth  # type: ignore[attr-defined]
        assert value >= plain_value, tiles
        higher += value > plain_value
    assert higher > 0  # the regions do lift the value (else this would test the plain one)


@pytest.mark.parametrize("workers", [1, 2])
def test_lengths_equal_the_plain_compound(both: tuple[Compound, Compound], workers: int) -> None:
    zero, plain = both
    machine = pruning.machine(SHAPE, "fsm")
    fewer = 0
    for tiles in scrambles_5x5(6, (40, 56), seed=30 + workers):
        z = search_5x5(tiles, zero.loaded(), machine=machine, workers=workers)
        p = search_5x5(tiles, plain.loaded(), machine=machine, workers=workers)
        assert z.status == p.status == 0  # type: ignore[attr-defined]
        assert z.depth == p.depth  # type: ignore[attr-defined]
        assert fp.Board(tiles, shape=SHAPE).apply(z.moves) == fp.Board.goal(SHAPE)  # type: ignore[attr-defined]
        fewer += z.generated < p.generated  # type: ignore[attr-defined]
        if workers == 1:
            assert z.generated <= p.generated  # type: ignore[attr-defined]
    assert fewer > 0


@pytest.mark.heavy
def test_search_and_batch_take_pdb24z_from_the_catalogue(
    both: tuple[Compound, Compound],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # pdb24z reads the catalogue's zero-aware compound: here the test partitions under its name.
    _, plain = both
    assert partitions.is_zero_compound(NAME)
    monkeypatch.setitem(partitions.COMPOUNDS[SHAPE], NAME, SMALL_COMPOUND)
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    tiles = scrambles_5x5(1, (34, 35), seed=5)[0]
    with pytest.raises(PatternDatabaseError, match=f"fastpuzzle pdb build {NAME}"):
        fp.search(list(tiles), algorithm="idastar", heuristic="pdb24z")
    assert cli.main(["pdb", "build", NAME, "--cache-dir", str(tmp_path)]) == 0
    files = list(tmp_path.glob("pdb-*.fpdb"))
    assert len(files) == 16 and all(f.stem.endswith("z") for f in files)
    assert all(b'"zero_aware": true' in f.read_bytes()[:4096] for f in files)
    capsys.readouterr()
    assert cli.main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count(f"a table of compound {NAME} (heuristic 'pdb24z')") == 16
    expected = search_5x5(tiles, plain.loaded()).depth  # type: ignore[attr-defined]
    for workers in (1, 2):
        result = fp.search(list(tiles), algorithm="idastar", heuristic="pdb24z", workers=workers)
        assert result.solution is not None and len(result.solution) == expected
    boards = scrambles_5x5(6, (20, 44), seed=6)
    batch = fp.solve_many([list(b) for b in boards], shape=SHAPE, heuristic="pdb24z", workers=2)
    assert list(batch.lengths) == [search_5x5(b, plain.loaded()).depth for b in boards]  # type: ignore[attr-defined]
    loaded = compound.compound_for(NAME, SHAPE, BLANK, build=False)
    assert loaded.zero_aware and loaded is compound.compound_for(NAME, SHAPE, BLANK, build=False)


def test_clear_and_refusals() -> None:
    # The real zero-aware compound's own files: its ten other groups, zero-aware; 6-6-6-6z's
    # file (and the plain compound's files) are kept.
    zero_keys = store._keys_of(NAME, None, 24)
    plain_keys = store._keys_of(BY_NAME["pdb24"].compound, None, 24)
    assert len(zero_keys) == len(plain_keys) == 10
    assert all(name.startswith("custom-") and name.endswith("z") for *_, name in zero_keys)
    assert {name[:-1] for *_, name in zero_keys} == {name for *_, name in plain_keys}
    assert partitions.compound_sources(NAME, SHAPE, BLANK)[0] == "6-6-6-6z"
    # Only the kernel past 16 cells reads zero-aware tables.
    with pytest.raises(PatternDatabaseError, match="more than 16 cells"):
        pdb.pdb_path(partitions.ZeroAwareGroups([(0, 1, 2)]), (4, 4))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["korf24-38", "korf24-40"])
def test_korf24_with_the_zero_aware_compound(name: str) -> None:
    if not compound.compound_built(NAME, SHAPE, BLANK):
        pytest.skip(f"needs the {NAME} tables (fastpuzzle pdb build {NAME})")
    instance = next(i for i in korf24() if i.name == name)
    result = fp.search(list(instance.tiles), algorithm="idastar", heuristic="pdb24z", workers=2)
    assert result.solution is not None and len(result.solution) == instance.optimal_length
