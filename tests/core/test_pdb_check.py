"""Checking a pattern-database table read from a file (``_pdb.check_table``, issue 53, item 2):
genuine tables pass at every placement, and tables with raised entries are refused."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from fastpuzzle._core import _pdb
from fastpuzzle.pdb.partitions import is_sparse, tile_of


@functools.cache
def _table(
    shape: tuple[int, int], goal_blank: int, cells: tuple[int, ...], zero: bool = False
) -> tuple[list[int], bool, np.ndarray, bool, np.ndarray]:
    # A group's table as the builder makes it, and its levels (read-only: tests share them).
    rows, cols = shape
    tiles = [tile_of(cell, goal_blank) for cell in cells]
    sparse = is_sparse(len(tiles), rows * cols) and not zero
    levels = _pdb.build_levels(rows, cols, goal_blank, tiles, sparse, zero=zero)
    table, nibble = _pdb.pack_table(levels, rows, cols, goal_blank, tiles, sparse, zero=zero)
    table.setflags(write=False)
    levels.setflags(write=False)
    return tiles, sparse, table, nibble, levels


def _check(
    shape: tuple[int, int],
    goal_blank: int,
    built: tuple[list[int], bool, np.ndarray, bool, np.ndarray],
    table: np.ndarray | None = None,
    zero: bool = False,
    samples: int = 0,
) -> tuple[int, int]:
    tiles, sparse, genuine, nibble, _ = built
    stored = genuine if table is None else table
    return _pdb.check_table(stored, *shape, goal_blank, tiles, sparse, nibble, zero, samples, 7)


GENUINE = [
    ((2, 4), 7, (0, 1, 4), False),
    ((2, 4), 7, (2, 3, 5, 6), False),
    ((3, 3), 8, (0, 1, 2, 3, 4, 5, 6, 7), False),  # every tile: half the placements unreached
    ((3, 3), 0, (1, 2, 3, 4, 5, 6, 7, 8), False),
    ((4, 4), 15, (1, 2, 3, 6, 7), False),  # 5-5-5's
    ((4, 4), 15, (1, 2, 3), False),  # 6-6-3's
    ((3, 5), 14, (5, 6, 7, 8, 9), False),
    ((5, 3), 14, (3, 4, 7, 8, 9), False),
    ((3, 6), 17, (12, 13, 14, 15, 16), False),  # compact (past 16 cells)
    ((3, 6), 17, (12, 13, 14, 15, 16), True),  # zero-aware
    ((3, 6), 17, (0, 1, 6, 7), True),
]


@pytest.mark.heavy
@pytest.mark.parametrize(("shape", "goal_blank", "cells", "zero"), GENUINE)
def test_genuine_tables_pass_at_every_placement(
    shape: tuple[int, int], goal_blank: int, cells: tuple[int, ...], zero: bool
) -> None:
    # No false refusal: a table as the builder makes it is a breadth-first distance.
    built = _table(shape, goal_blank, cells, zero)
    assert _check(shape, goal_blank, built, zero=zero) == (0, 0)
    assert _check(shape, goal_blank, built, zero=zero, samples=1000) == (0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("cells", [(0, 4, 5, 8, 9, 12), (6, 7, 10, 11, 13, 14)])
def test_6_6_3s_six_tile_tables_pass_at_every_placement(cells: tuple[int, ...]) -> None:
    # 5.8 million placements each: seconds to build, seconds to check all.
    assert _check((4, 4), 15, _table((4, 4), 15, cells)) == (0, 0)


def _one_region(occupied: set[int], rows: int, cols: int) -> bool:
    free = [cell for cell in range(rows * cols) if cell not in occupied]
    seen, stack = {free[0]}, [free[0]]
    while stack:
        cell = stack.pop()
        row, col = divmod(cell, cols)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < rows and 0 <= c < cols and r * cols + c not in occupied | seen:
                seen.add(r * cols + c)
                stack.append(r * cols + c)
    return len(seen) == len(free)


def _raised_by_one_move(table: np.ndarray, nibble: bool, entry: int) -> np.ndarray:
    # The stored entry is (value - Manhattan) / 2: one more is two moves more.
    raised = table.copy()
    if nibble:
        raised[entry >> 1] += 1 << (4 * (entry & 1))
    else:
        raised[entry] += 1
    return raised


def test_one_raised_entry_next_to_an_exact_one_is_refused() -> None:
    # A placement of one region whose neighbour (one region too) is one move closer: raised by
    # two moves it is three from that neighbour, which a distance cannot be.
    shape, goal_blank = (4, 4), 15
    built = _table(shape, goal_blank, (1, 2, 3, 6, 7))
    tiles, _, table, nibble, levels = built
    found = None
    for index in np.nonzero((levels != 255) & (levels > 4))[0][::97].tolist():
        cells = [(index >> (4 * slot)) & 15 for slot in range(len(tiles))]
        if not _one_region(set(cells), *shape):
            continue
        for slot, cell in enumerate(cells):
            for target in (cell - 4, cell + 4, cell - 1, cell + 1):
                if not 0 <= target < 16 or target in cells or abs(target % 4 - cell % 4) > 1:
                    continue
                moved = [*cells[:slot], target, *cells[slot + 1 :]]
                other = sum(c << (4 * s) for s, c in enumerate(moved))
                if levels[other] == levels[index] - 1 and _one_region(set(moved), *shape):
                    found = index
        if found is not None:
            break
    assert found is not None
    raised = _raised_by_one_move(table, nibble, found)
    assert _check(shape, goal_blank, built, raised, samples=0)[0] == 2


def test_a_raised_goal_entry_is_refused() -> None:
    shape, goal_blank = (2, 4), 7
    built = _table(shape, goal_blank, (0, 1, 4))
    _, _, table, nibble, _ = built
    goal = sum(cell << (4 * slot) for slot, cell in enumerate((0, 1, 4)))
    assert _check(shape, goal_blank, built, _raised_by_one_move(table, nibble, goal)) == (1, 0)


@pytest.mark.parametrize("share", [1.0, 0.02])
def test_raised_bytes_are_found_by_a_sample(share: float) -> None:
    # The crafted files: every byte, or 2 % of them, raised by 0x11 (both entries).
    shape, goal_blank = (4, 4), 15
    built = _table(shape, goal_blank, (1, 2, 3, 6, 7))
    table = built[2].copy()
    chosen = np.random.default_rng(53).random(len(table)) < share
    table[chosen] = np.minimum(table[chosen], 0xEE) + 0x11
    assert _check(shape, goal_blank, built, table, samples=16_384)[0] != 0


def test_a_table_too_short_for_its_group_is_refused() -> None:
    built = _table((2, 4), 7, (0, 1, 4))
    with pytest.raises(ValueError, match="shorter"):
        _check((2, 4), 7, built, built[2][:-1])


@pytest.mark.parametrize("part", ["first", "second"])
def test_a_zero_aware_entry_raised_anywhere_is_refused(part: str) -> None:
    # Zero-aware tables keep every region's distance, so each entry is held to its neighbours
    # exactly: one raised by a move is refused once its placement is looked at, in the first
    # part (the largest region's) or in a row of the others'.
    shape, goal_blank, cells = (3, 6), 17, (12, 13, 14, 15, 16)
    built = _table(shape, goal_blank, cells, zero=True)
    tiles, _, table, nibble, levels = built
    placements = _pdb.level_length(18, len(tiles), False)
    if part == "first":
        # A placement of several regions: a plain table's check could not tell.
        entry = next(
            rank
            for rank in range(0, placements, 101)
            if levels[rank] > 6 and not _one_region(set(_cells_of(rank, 18, len(tiles))), *shape)
        )
    else:
        entry = placements + 7
    raised = _raised_by_one_move(table, nibble, entry)
    assert _check(shape, goal_blank, built, raised, zero=True)[0] in (2, 3)


def _cells_of(rank: int, n: int, k: int) -> list[int]:
    # A compact rank's cells: slot i's digit picks among the cells the earlier slots left free.
    free, cells = list(range(n)), []
    for slot in range(k):
        weight = 1
        for i in range(slot + 1, k):
            weight *= n - i
        digit, rank = divmod(rank, weight)
        cells.append(free.pop(digit))
    return cells
