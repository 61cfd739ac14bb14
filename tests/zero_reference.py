"""Zero-aware pattern databases from their definitions, in plain Python (imports nothing of
fastpuzzle): the index of a (placement, blank region) entry, and the exact abstract distances by
breadth-first search over (placement, region) states.

A group's abstract state is the cells its tiles take and the region of free cells the blank is
in (free cells split into regions where the tiles wall some off). Sliding a group tile costs one
move; the blank's moves over free cells cost nothing, so they never leave its region.
"""

from __future__ import annotations

import itertools
from collections import deque
from math import comb, factorial

Cells = tuple[int, ...]


def neighbours(shape: tuple[int, int], cell: int) -> list[int]:
    rows, cols = shape
    r, c = divmod(cell, cols)
    out = []
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < rows and 0 <= nc < cols:
            out.append(nr * cols + nc)
    return out


def regions(shape: tuple[int, int], taken: set[int] | frozenset[int]) -> dict[int, int]:
    """Free cell -> its region's number, regions numbered in the order of their smallest cell."""
    out: dict[int, int] = {}
    count = 0
    for start in range(shape[0] * shape[1]):
        if start in taken or start in out:
            continue
        out[start] = count
        stack = [start]
        while stack:
            cell = stack.pop()
            for other in neighbours(shape, cell):
                if other not in taken and other not in out:
                    out[other] = count
                    stack.append(other)
        count += 1
    return out


class ZeroIndex:
    """Entries of a zero-aware table of ``k``-tile groups. First one per placement, by its
    compact rank (slot i: its cell's number among the cells the earlier slots left, weighted
    (n-1-i)! / (n-k)!), the value with the blank in the largest region (the first by smallest
    cell among equals); then, for each map (set of cells) of several regions in the order of
    its combinatorial rank, k! entries per other region (by smallest cell), indexed by the
    Lehmer code of the slots over the map's cells (slot i's digit: later slots' cells below its
    own, weighted (k-1-i)!)."""

    def __init__(self, shape: tuple[int, int], k: int) -> None:
        self.shape = shape
        self.k = k
        self.n = n = shape[0] * shape[1]
        self.placements = factorial(n) // factorial(n - k)
        maps = sorted(itertools.combinations(range(n), k), key=self.map_rank)
        assert [self.map_rank(m) for m in maps] == list(range(comb(n, k)))
        # Per map: its regions, the largest one's number, the others', its first row.
        self._maps: dict[Cells, tuple[dict[int, int], int, list[int], int]] = {}
        rows = 0
        for cells in maps:
            where = regions(shape, set(cells))
            numbers = sorted(set(where.values()))
            sizes = [sum(1 for r in where.values() if r == number) for number in numbers]
            largest = sizes.index(max(sizes))
            others = [number for number in numbers if number != largest]
            self._maps[cells] = (where, largest, others, rows)
            rows += len(others)
        self.entries = self.placements + rows * factorial(k)

    @staticmethod
    def map_rank(cells: Cells) -> int:
        return sum(comb(c, j + 1) for j, c in enumerate(sorted(cells)))

    def compact_rank(self, cells: Cells) -> int:
        n, k = self.n, self.k
        rank = 0
        for i, cell in enumerate(cells):
            digit = cell - sum(1 for earlier in cells[:i] if earlier < cell)
            rank += digit * factorial(n - 1 - i) // factorial(n - k)
        return rank

    def order(self, cells: Cells) -> int:
        k = self.k
        return sum(
            sum(1 for later in cells[i + 1 :] if later < cells[i]) * factorial(k - 1 - i)
            for i in range(k)
        )

    def entry(self, cells: Cells, blank: int) -> int:
        where, largest, others, first = self._maps[tuple(sorted(cells))]
        if where[blank] == largest:
            return self.compact_rank(cells)
        row = first + others.index(where[blank])
        return self.placements + row * factorial(self.k) + self.order(cells)


def abstract_distances(
    shape: tuple[int, int], homes: Cells, goal_blank: int
) -> dict[tuple[Cells, int], int]:
    """Exact distance of every (cells of the group's tiles, blank region) state to the goal
    (tiles on ``homes``, the blank in ``goal_blank``'s region), regions as :func:`regions`
    numbers them."""
    start = (homes, regions(shape, set(homes))[goal_blank])
    distance = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        cells, region = state
        where = regions(shape, set(cells))
        for slot, source in enumerate(cells):
            for target in neighbours(shape, source):
                if where.get(target) != region:
                    continue
                moved = (*cells[:slot], target, *cells[slot + 1 :])
                child = (moved, regions(shape, set(moved))[source])
                if child not in distance:
                    distance[child] = distance[state] + 1
                    queue.append(child)
    return distance
