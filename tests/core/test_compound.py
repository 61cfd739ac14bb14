"""Compound pattern databases: the largest sum of several partitions (``pdb24``), past 16 cells.

Small tables stand in for the 5x5 catalogue's (groups of four tiles, built in a blink): the
kernel's value is checked board by board against a plain-Python reference that reads the same
tables, its node counts against a plain-Python IDA*, its lengths against another heuristic.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import cli, pdb
from fastpuzzle._core import _board, _idastar
from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import cluster, pruning
from fastpuzzle.heuristics import BY_NAME, HeuristicCode
from fastpuzzle.pdb import PatternDatabaseError, compound, partitions, store
from fastpuzzle.pdb.compound import Compound
from tests.dual_reference import Table
from tests.instances import korf24
from tests.pdbcache import SMALL_COMPOUND, scrambles_5x5, search_5x5, small_5x5_compound

SHAPE = (5, 5)
BLANK = 24


PARTITIONS = SMALL_COMPOUND


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Compound:
    """The three test partitions as a compound, built through the catalogue's own path."""
    return small_5x5_compound(tmp_path_factory.mktemp("compound"))


def _layout(tables: Compound, count: int) -> LoadedPatterns:
    first, *others = tables.partitions[:count]
    return LoadedPatterns(
        list(first), tables.reflect, 25, 5, BLANK, extra=[list(p) for p in others] or None
    )


class Reference:
    """h of the compound, from the definitions: Manhattan plus twice the largest sum over the
    partitions and their reflections, each group's value read by a plain-Python index."""

    def __init__(self, tables: Compound, count: int) -> None:
        self.partitions = [
            [
                Table(tuple(t - 1 for t in tiles), 25, bool(sparse), bool(nibble), np.asarray(data))
                for tiles, sparse, nibble, data in groups
            ]
            for groups in tables.partitions[:count]
        ]
        assert tables.reflect is not None
        self.reflect = tables.reflect

    def h(self, tiles: tuple[int, ...]) -> int:
        where = {tile: cell for cell, tile in enumerate(tiles)}  # tile t's goal cell is t - 1
        md = sum(
            abs(where[t] // 5 - (t - 1) // 5) + abs(where[t] % 5 - (t - 1) % 5)
            for t in range(1, 25)
        )
        best = 0
        for groups in self.partitions:
            plain = sum(table.extra([where[c + 1] for c in table.cells]) for table in groups)
            # The board mirrored about the diagonal: the tile whose goal cell is c stands where
            # the tile of goal cell reflect[c] stands, reflected.
            mirrored = sum(
                table.extra([self.reflect[where[self.reflect[c] + 1]] for c in table.cells])
                for table in groups
            )
            best = max(best, plain, mirrored)
        return md + 2 * best


def test_the_tables_are_shared_between_partitions(tables: Compound) -> None:
    groups = {id(table) for partition in tables.partitions for *_, table in partition}
    assert len(groups) == 16  # 18 groups, two of them in two partitions
    assert tables.partitions[0][0][3] is tables.partitions[1][0][3]
    assert tables.nbytes == sum(
        int(t.nbytes) for t in {id(t): t for p in tables.partitions for *_, t in p}.values()
    )


def test_a_group_of_an_earlier_partition_is_read_once(tables: Compound) -> None:
    # Laid out third, first, second: the last shares two groups with the one before it, not
    # with the first, so its lookups come from that partition's (and the counts are the
    # reference's, as if every table were read).
    first, second, third = tables.partitions
    order = dataclasses.replace(tables, partitions=(third, first, second))
    layout = LoadedPatterns(
        list(third), tables.reflect, 25, 5, BLANK, extra=[list(first), list(second)]
    )
    assert layout.shared[0] == (-1,) * 6
    assert layout.shared[1] == (1, 1, -1, -1, -1, -1)
    reference = Reference(order, 3)
    for tiles in scrambles_5x5(3, (24, 34), seed=11):
        core = search_5x5(tiles, layout)
        length, expanded, generated = _reference_ida(reference, tiles)
        assert (core.depth, core.expanded, core.generated) == (  # type: ignore[attr-defined]
            length,
            expanded,
            generated,
        )


@pytest.mark.parametrize("count", [1, 2, 3])
def test_the_kernel_value_is_the_reference_value(tables: Compound, count: int) -> None:
    layout = _layout(tables, count)
    reference = Reference(tables, count)
    first = Reference(tables, 1)
    boards = scrambles_5x5(150, (10, 120), seed=count) + [
        tuple(int(t) for t in fp.random_board(SHAPE, rng=seed).tiles) for seed in range(50)
    ]
    above_first = 0
    for tiles in boards:
        core = search_5x5(tiles, layout, max_depth=0)
        h = 0 if core.status == 0 else core.depth  # type: ignore[attr-defined]
        assert h == reference.h(tiles), tiles
        above_first += h > first.h(tiles)
    # The later partitions do lift the value (else this would test only the first).
    assert (above_first > 0) == (count > 1)


def _reference_ida(reference: Reference, start: tuple[int, ...]) -> tuple[int, int, int]:
    """Plain IDA* with parent pruning, children in the kernels' order (blank D, R, L, U), every
    child of an expanded node counted as generated: ``(length, expanded, generated)``."""
    counts = {"expanded": 0, "generated": 0}

    def search(board: list[int], blank: int, depth: int, previous: int, bound: int) -> int:
        # 0: found; else the least f past the bound below this node.
        h = reference.h(tuple(board))
        if depth + h > bound:
            return depth + h
        if h == 0:
            return 0
        counts["expanded"] += 1
        least = 1 << 30
        r, c = divmod(blank, 5)
        for dr, dc in ((1, 0), (0, 1), (0, -1), (-1, 0)):
            if not (0 <= r + dr < 5 and 0 <= c + dc < 5):
                continue
            cell = (r + dr) * 5 + c + dc
            if cell == previous:
                continue
            counts["generated"] += 1
            board[blank], board[cell] = board[cell], 0
            found = search(board, cell, depth + 1, blank, bound)
            board[cell], board[blank] = board[blank], 0
            if found == 0:
                return 0
            least = min(least, found)
        return least

    bound = reference.h(start)
    while (found := search(list(start), start.index(0), 0, -1, bound)) != 0:
        bound = found
    return bound, counts["expanded"], counts["generated"]


def test_the_kernel_counts_the_reference_nodes(tables: Compound) -> None:
    # Lazy lookups change no count: a child cut by an early partition is generated, not
    # entered, as a child cut by its full h is.
    layout = _layout(tables, 3)
    reference = Reference(tables, 3)
    for tiles in scrambles_5x5(4, (24, 34), seed=9):
        core = search_5x5(tiles, layout)
        length, expanded, generated = _reference_ida(reference, tiles)
        assert (core.depth, core.expanded, core.generated) == (  # type: ignore[attr-defined]
            length,
            expanded,
            generated,
        )


@pytest.mark.heavy
def test_lengths_agree_with_one_partition_on_threads_and_with_the_machine(
    tables: Compound,
) -> None:
    one, three = _layout(tables, 1), _layout(tables, 3)
    machine = pruning.machine(SHAPE, "fsm")
    shared_once = False
    for tiles in scrambles_5x5(6, (44, 60), seed=4):
        plain = search_5x5(tiles, one, machine=machine)
        serial = search_5x5(tiles, three, machine=machine)
        shared = search_5x5(tiles, three, machine=machine, workers=2)
        assert plain.depth == serial.depth == shared.depth  # type: ignore[attr-defined]
        assert serial.expanded <= plain.expanded  # type: ignore[attr-defined]
        board = fp.Board(tiles, shape=SHAPE)
        assert board.apply(shared.moves) == fp.Board.goal(SHAPE)  # type: ignore[attr-defined]
        shared_once |= serial.expanded >= 1 << 15  # type: ignore[attr-defined]
    # At least one search was large enough for the threads to share its iterations.
    assert shared_once


@pytest.mark.heavy
def test_search_takes_pdb24_from_the_catalogue(
    tables: Compound,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # pdb24 reads the catalogue's compound: here the test partitions under its name.
    name = BY_NAME["pdb24"].compound
    monkeypatch.setitem(partitions.COMPOUNDS[SHAPE], name, PARTITIONS)
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    tiles = scrambles_5x5(1, (30, 31), seed=5)[0]
    with pytest.raises(PatternDatabaseError, match=f"fastpuzzle pdb build {name}"):
        fp.search(list(tiles), algorithm="idastar", heuristic="pdb24")
    assert cli.main(["pdb", "build", name, "--cache-dir", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("pdb-*.fpdb"))) == 16  # one file a distinct group
    capsys.readouterr()
    assert cli.main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count(f"a table of compound {name} (heuristic 'pdb24')") == 16
    expected = search_5x5(tiles, _layout(tables, 1)).depth  # type: ignore[attr-defined]
    for workers in (1, 2):
        result = fp.search(list(tiles), algorithm="idastar", heuristic="pdb24", workers=workers)
        assert result.solution is not None and len(result.solution) == expected
    # A batch, on threads: one compound laid out once for all its boards.
    boards = scrambles_5x5(6, (20, 40), seed=6)
    batch = fp.solve_many([list(b) for b in boards], shape=SHAPE, heuristic="pdb24", workers=2)
    lengths = [search_5x5(b, _layout(tables, 1)).depth for b in boards]  # type: ignore[attr-defined]
    assert list(batch.lengths) == lengths
    assert compound.compound_for(name, SHAPE, BLANK, build=False) is compound.compound_for(
        name, SHAPE, BLANK, build=False
    )


@pytest.mark.heavy
@pytest.mark.parametrize("heuristic", ["pdb24", "pdb24z"])
def test_a_worker_process_loads_the_compound_from_its_cache(
    tables: Compound, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heuristic: str
) -> None:
    # What a Dask worker runs for pdb24 (pdb24z): the catalogue's compound from its own cache,
    # laid out as the catalogue says (zero-aware for pdb24z), never built there.
    name = BY_NAME[heuristic].compound
    assert name is not None
    monkeypatch.setitem(partitions.COMPOUNDS[SHAPE], name, PARTITIONS)
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    named = dataclasses.replace(tables, name=name)
    problem = make_problem(fp.Board.goal(SHAPE))
    loader, key = cluster._worker_tables(BY_NAME[heuristic], problem, (named,), dual=False)
    assert key == f"compound:5x5:24:{name}"
    with pytest.raises(PatternDatabaseError, match=f"pdb build {name}"):
        loader()
    assert not list(tmp_path.iterdir())
    compound.build_compound(name, SHAPE, cache_dir=tmp_path, progress=False)
    layout = loader()
    assert layout.n_extra == 2 and layout.mirror
    assert layout.zero == partitions.is_zero_compound(name)


@pytest.mark.heavy
def test_pdb_clear_removes_a_compound_tables_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    small_5x5_compound(tmp_path, name="test-clear")
    pdb.build_pdb(((0, 1, 2), (3, 4, 5)), SHAPE, cache_dir=tmp_path, progress=False)
    monkeypatch.setitem(partitions.COMPOUNDS[SHAPE], "test-clear", PARTITIONS)
    assert len(list(tmp_path.glob("pdb-*.fpdb"))) == 17
    assert cli.main(["pdb", "clear", "test-clear", "--dry-run", "--cache-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("a table of compound test-clear") == 16
    removed = pdb.clear_cache(tmp_path, partition="test-clear")
    assert len(removed) == 16
    assert len(list(tmp_path.glob("pdb-*.fpdb"))) == 1  # the other table stays
    # The real compound's own files are its ten one-group tables; 6-6-6-6's file is kept.
    keys = store._keys_of(BY_NAME["pdb24"].compound, None, 24)
    assert len(keys) == 10 and all(name.startswith("custom-") for *_, name in keys)


def test_what_a_compound_refuses(tables: Compound) -> None:
    first = list(tables.partitions[0])
    with pytest.raises(ValueError, match="at most 8 partitions"):
        LoadedPatterns(first, tables.reflect, 25, 5, BLANK, extra=[first] * 8)
    with pytest.raises(ValueError, match="dual lookups take one partition"):
        LoadedPatterns(first, tables.reflect, 25, 5, BLANK, dual=([], []), extra=[first])
    with pytest.raises(ValueError, match="at most 8 groups"):
        nine = [((t,), False, True, np.zeros(13, dtype=np.uint8)) for t in range(1, 10)]
        LoadedPatterns(first, tables.reflect, 25, 5, BLANK, extra=[nine])
    # The packed kernel (up to 16 cells) reads two partitions at most.
    small = [((1,), False, False, np.zeros(16, dtype=np.uint8))]
    layout = LoadedPatterns(small, None, 16, 4, 15, extra=[small, small])
    goal = (*range(1, 16), 0)
    with pytest.raises(ValueError, match="at most 2 partitions, not 3"):
        _idastar.idastar(int(_board.pack(goal)), 15, 4, 4, 15, HeuristicCode.H_PDB, tables=layout)
    with pytest.raises(ValueError, match="a reflect for each of the 1 other partitions, got 2"):
        LoadedPatterns(first, tables.reflect, 25, 5, BLANK, extra=[first], extra_reflect=[None] * 2)
    with pytest.raises(PatternDatabaseError, match="unknown compound"):
        partitions.compound_groups("no-such", SHAPE, BLANK)


@pytest.mark.slow
@pytest.mark.parametrize("instance", list(korf24()), ids=lambda i: i.name)
def test_korf24_with_the_compound(instance) -> None:  # type: ignore[no-untyped-def]
    name = BY_NAME["pdb24"].compound
    if not compound.compound_built(name, SHAPE, BLANK):
        pytest.skip(f"needs the {name} tables (fastpuzzle pdb build {name})")
    result = fp.search(list(instance.tiles), algorithm="idastar", heuristic="pdb24", workers=2)
    assert result.solution is not None and len(result.solution) == instance.optimal_length
