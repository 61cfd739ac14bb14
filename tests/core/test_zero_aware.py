"""Zero-aware pattern databases: an entry per placement and region of free cells the blank is in.

The builder's levels are checked entry by entry against a plain-Python BFS over (placement,
region) states read through a plain-Python index (``tests/zero_reference.py``); the packed
values against exact distances over every 3x3 and 2x4 board; the 5x5 kernel's value board by
board against a plain-Python reference reading the same tables; its lengths against the plain
tables' search.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _pdb
from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle.pdb import PatternDatabaseError, partitions
from tests.instances import korf24
from tests.oracle import distances_3x3, distances_from
from tests.pdbcache import entry_value, scrambles_5x5, search_5x5
from tests.zero_reference import ZeroIndex, abstract_distances, regions

GROUPS = [
    ((3, 3), 8, (1, 2, 3, 4)),
    ((3, 3), 8, (5, 6, 7, 8)),
    ((3, 3), 8, (2, 4, 6)),
    ((3, 3), 0, (1, 5, 8)),
    ((2, 4), 7, (1, 2, 5, 6)),
    ((2, 4), 7, (3, 4, 7)),
    ((5, 5), 24, (2, 6)),
    ((4, 5), 19, (1, 2, 6)),
]


def _home(tile: int, goal_blank: int) -> int:
    return tile - 1 if tile - 1 < goal_blank else tile


@pytest.mark.heavy
@pytest.mark.parametrize(("shape", "goal_blank", "tiles"), GROUPS)
def test_levels_are_the_abstract_distances(
    shape: tuple[int, int], goal_blank: int, tiles: tuple[int, ...]
) -> None:
    rows, cols = shape
    levels = _pdb.build_levels(rows, cols, goal_blank, list(tiles), False, zero=True, threads=2)
    index = ZeroIndex(shape, len(tiles))
    assert len(levels) == index.entries
    homes = tuple(_home(t, goal_blank) for t in tiles)
    expected = np.full(index.entries, 255, dtype=np.uint8)
    for (cells, region), distance in abstract_distances(shape, homes, goal_blank).items():
        where = regions(shape, set(cells))
        blank = next(c for c, r in where.items() if r == region)
        expected[index.entry(cells, blank)] = distance
    np.testing.assert_array_equal(levels, expected)
    # Every (placement, region) state is reached: no entry is left at 255.
    assert (levels != 255).all()
    # The least over a placement's regions is the plain table's value.
    plain = _pdb.build_levels(rows, cols, goal_blank, list(tiles), False, threads=1)
    n = rows * cols
    for cells in itertools.permutations(range(n), len(tiles)):
        free = [c for c in range(n) if c not in cells]
        least = min(levels[index.entry(cells, b)] for b in free)
        assert least == plain[_pdb.placement_rank(list(cells), n)]


@pytest.mark.heavy
def test_the_levels_do_not_depend_on_the_threads_or_the_pass() -> None:
    runs = [
        _pdb.build_levels(5, 5, 24, [1, 2, 6, 7], False, zero=True, threads=t, backward_from=b)
        for t, b in ((1, None), (2, None), (2, 0), (1, 99))
    ]
    for other in runs[1:]:
        np.testing.assert_array_equal(runs[0], other)


def _partition_tables(
    shape: tuple[int, int], goal_blank: int, groups: list[tuple[int, ...]], zero: bool
) -> list[tuple[tuple[int, ...], bool, bool, np.ndarray]]:
    rows, cols = shape
    out = []
    for tiles in groups:
        levels = _pdb.build_levels(rows, cols, goal_blank, list(tiles), False, zero=zero)
        table, nibble = _pdb.pack_table(levels, rows, cols, goal_blank, list(tiles), False,
                                        zero=zero)  # fmt: skip
        out.append((tiles, False, nibble, table))
    return out


def _manhattan(board: tuple[int, ...], cols: int, goal_blank: int, tiles: object) -> int:
    total = 0
    for cell, tile in enumerate(board):
        if tile and tile in tiles:  # type: ignore[operator]
            home = _home(tile, goal_blank)
            total += abs(cell // cols - home // cols) + abs(cell % cols - home % cols)
    return total


@pytest.mark.heavy
@pytest.mark.parametrize(
    ("shape", "groups"),
    [((3, 3), [(1, 2, 3, 4), (5, 6, 7, 8)]), ((2, 4), [(1, 2, 5, 6), (3, 4, 7)])],
)
def test_the_tables_are_admissible_on_every_board(
    shape: tuple[int, int], groups: list[tuple[int, ...]]
) -> None:
    """Exhaustive: over every board of the shape, the zero-aware sum never exceeds the exact
    distance, never falls below the plain tables' sum, and is above it on some boards."""
    rows, cols = shape
    n = rows * cols
    goal_blank = n - 1
    zero = _partition_tables(shape, goal_blank, groups, zero=True)
    plain = _partition_tables(shape, goal_blank, groups, zero=False)
    index = {k: ZeroIndex(shape, k) for k in {len(g) for g in groups}}
    if shape == (3, 3):
        exact = distances_3x3()
    else:
        exact = distances_from((*tuple(range(1, n)), 0), rows, cols)
    higher = 0
    for board, distance in exact.items():
        where = {tile: cell for cell, tile in enumerate(board)}
        zero_h = plain_h = 0
        for (tiles, _, znib, ztable), (_, _, pnib, ptable) in zip(zero, plain):
            cells = tuple(where[t] for t in tiles)
            md = _manhattan(board, cols, goal_blank, tiles)
            zero_h += md + 2 * entry_value(ztable, znib, index[len(tiles)].entry(cells, where[0]))
            plain_h += md + 2 * entry_value(ptable, pnib, _pdb.placement_rank(list(cells), n))
        assert plain_h <= zero_h <= distance, board
        higher += zero_h > plain_h
    assert higher > len(exact) // 100


SMALL = [tuple(range(i, i + 4)) for i in range(1, 25, 4)]  # six groups of four tiles


@pytest.fixture(scope="module")
def small_tables() -> tuple[LoadedPatterns, LoadedPatterns, list[object]]:
    """Six 4-tile groups on 5x5, zero-aware and plain, with the reflection."""
    reflect = partitions.reflection((5, 5), 24)
    zero = _partition_tables((5, 5), 24, SMALL, zero=True)
    plain = _partition_tables((5, 5), 24, SMALL, zero=False)
    return (
        LoadedPatterns(zero, reflect, 25, 5, 24, zero=(5, 5)),
        LoadedPatterns(plain, reflect, 25, 5, 24),
        zero,  # type: ignore[list-item]
    )


def test_the_kernel_value_is_the_reference_value(small_tables: tuple) -> None:
    zero_layout, plain_layout, zero = small_tables
    reflect = partitions.reflection((5, 5), 24)
    assert reflect is not None
    index = ZeroIndex((5, 5), 4)
    boards = scrambles_5x5(150, (10, 150), seed=3) + [
        tuple(int(t) for t in fp.random_board((5, 5), rng=seed).tiles) for seed in range(50)
    ]
    higher = 0
    for board in boards:
        where = {tile: cell for cell, tile in enumerate(board)}
        md = _manhattan(board, 5, 24, range(1, 25))
        plain_sum = mirrored_sum = 0
        for tiles, _, nibble, table in zero:
            plain_sum += entry_value(
                table, nibble, index.entry(tuple(where[t] for t in tiles), where[0])
            )
            # The mirrored board: the tile whose goal cell is c stands, reflected, where the
            # tile of goal cell reflect[c] stands; its blank is the reflected blank.
            cells = tuple(reflect[where[reflect[t - 1] + 1]] for t in tiles)
            mirrored_sum += entry_value(table, nibble, index.entry(cells, reflect[where[0]]))
        expected = md + 2 * max(plain_sum, mirrored_sum)
        core = search_5x5(board, zero_layout, max_depth=0)
        assert (0 if core.status == 0 else core.depth) == expected, board  # type: ignore[attr-defined]
        plain = search_5x5(board, plain_layout, max_depth=0)
        higher += expected > (0 if plain.status == 0 else plain.depth)  # type: ignore[attr-defined]
    assert higher > 0


@pytest.mark.parametrize("workers", [1, 2])
def test_lengths_equal_the_plain_tables(small_tables: tuple, workers: int) -> None:
    zero_layout, plain_layout, _ = small_tables
    fewer = 0
    for board in scrambles_5x5(8, (34, 46), seed=7 + workers):
        zero = search_5x5(board, zero_layout, workers=workers)
        plain = search_5x5(board, plain_layout, workers=workers)
        assert zero.status == plain.status == 0  # type: ignore[attr-defined]
        assert zero.depth == plain.depth  # type: ignore[attr-defined]
        fewer += zero.generated < plain.generated  # type: ignore[attr-defined]
        if workers == 1:
            assert zero.generated <= plain.generated  # type: ignore[attr-defined]
    assert fewer > 0


def test_what_zero_aware_tables_refuse(small_tables: tuple) -> None:
    _, _, zero = small_tables
    reflect = partitions.reflection((5, 5), 24)
    with pytest.raises(ValueError, match="dual"):
        LoadedPatterns(zero, reflect, 25, 5, 24, dual=([], []), zero=(5, 5))
    with pytest.raises(ValueError, match="past 16 cells"):
        LoadedPatterns(zero, reflect, 25, 4, 24, zero=(5, 5))
    with pytest.raises(ValueError, match="does not fit"):
        # A plain table is shorter than the zero-aware index range.
        plain = _partition_tables((5, 5), 24, SMALL[:1], zero=False)
        LoadedPatterns(plain, None, 25, 5, 24, zero=(5, 5))
    with pytest.raises(ValueError, match="compact"):
        _pdb.build_levels(3, 3, 8, [1, 2], True, zero=True)


@pytest.mark.heavy
def test_a_zero_aware_partition_is_written_read_and_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the store: a named zero-aware partition's file says so, loads as one, and its
    search finds the lengths of the plain partition of the same groups."""
    groups = tuple(tuple(t - 1 for t in g) for g in SMALL)  # goal cells
    monkeypatch.setitem(partitions.PARTITIONS_5X5, "test-z", groups)
    monkeypatch.setitem(partitions.PARTITIONS_5X5, "test-plain", groups)
    monkeypatch.setattr(partitions, "ZERO_AWARE", frozenset({"test-z"}))
    pdb.build_pdb("test-z", cache_dir=tmp_path, progress=False)
    pdb.build_pdb("test-plain", cache_dir=tmp_path, progress=False)
    zero = pdb.load_pdb("test-z", cache_dir=tmp_path)
    plain = pdb.load_pdb("test-plain", cache_dir=tmp_path)
    assert zero is not None and zero.zero_aware and zero.loaded().zero
    assert plain is not None and not plain.zero_aware
    assert zero.nbytes > plain.nbytes
    header = pdb.pdb_path("test-z", cache_dir=tmp_path).read_bytes()[:4096]
    assert b'"zero_aware": true' in header
    for board in scrambles_5x5(4, (30, 40), seed=11):
        assert search_5x5(board, zero).depth == search_5x5(board, plain).depth  # type: ignore[attr-defined]
    # A plain file under the zero-aware name fails its checks (it would be read wrongly).
    pdb.pdb_path("test-plain", cache_dir=tmp_path).replace(
        pdb.pdb_path("test-z", cache_dir=tmp_path)
    )
    assert pdb.load_pdb("test-z", cache_dir=tmp_path) is None


def test_the_catalogue_names_the_zero_aware_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = BY_NAME["pdb6666z"]
    assert entry.partition == "6-6-6-6z" and partitions.is_zero_aware("6-6-6-6z")
    assert partitions.PARTITIONS_5X5["6-6-6-6z"] == partitions.PARTITIONS_5X5["6-6-6-6"]
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    board = fp.scramble(fp.Board.goal((5, 5)), 40, rng=5)
    with pytest.raises(PatternDatabaseError, match="pdb build 6-6-6-6z"):
        fp.search(board, algorithm="idastar", heuristic="pdb6666z")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["korf24-38", "korf24-40"])
def test_korf24_with_the_zero_aware_tables(name: str) -> None:
    if pdb.load_pdb("6-6-6-6z") is None:
        pytest.skip("6-6-6-6z is not built (fastpuzzle pdb build 6-6-6-6z)")
    instance = next(i for i in korf24() if i.name == name)
    result = fp.search(list(instance.tiles), algorithm="idastar", heuristic="pdb6666z", workers=2)
    assert len(result.unwrap()) == instance.optimal_length
