"""Independent oracles for tests: plain breadth-first search in pure Python.

Nothing here uses fastpuzzle's code, so its answers can judge that code.
"""

from __future__ import annotations

from collections import deque
from functools import cache

Tiles = tuple[int, ...]


def neighbours(tiles: Tiles, rows: int, cols: int) -> list[Tiles]:
    """Boards one blank move away."""
    blank = tiles.index(0)
    r, c = divmod(blank, cols)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            other = nr * cols + nc
            cells = list(tiles)
            cells[blank], cells[other] = cells[other], cells[blank]
            out.append(tuple(cells))
    return out


def distance_between(
    start: Tiles, goal: Tiles, rows: int, cols: int, cap: int | None = None
) -> int:
    """Fewest moves from ``start`` to ``goal`` (searched to ``cap`` moves when given; past
    it, or unreachable, AssertionError)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        tiles = queue.popleft()
        if tiles == goal:
            return seen[tiles]
        if seen[tiles] == cap:
            continue
        for nxt in neighbours(tiles, rows, cols):
            if nxt not in seen:
                seen[nxt] = seen[tiles] + 1
                queue.append(nxt)
    raise AssertionError("the goal is not within reach" if cap is None else "past the cap")


def distances_from(goal: Tiles, rows: int, cols: int) -> dict[Tiles, int]:
    """Exact distance to ``goal`` of every board that can reach it (moves are reversible)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        step = dist[board] + 1
        for nxt in neighbours(board, rows, cols):
            if nxt not in dist:
                dist[nxt] = step
                queue.append(nxt)
    return dist


@cache
def distances_3x3() -> dict[Tiles, int]:
    """Distance to 1..8 then blank of all 181,440 solvable 3x3 boards."""
    return distances_from((1, 2, 3, 4, 5, 6, 7, 8, 0), 3, 3)


def group_distances(
    rows: int, cols: int, goal_blank: int, cells: tuple[int, ...]
) -> dict[tuple[int, ...], int]:
    """Fewest moves of the group's tiles (blank steps elsewhere free) from every placement home.

    A plain 0-1 BFS over (placement, blank cell), written independently of ``_pdb``: moves are
    reversible, so distances from the goal are distances to it.
    """
    n = rows * cols

    def neighbours(cell: int) -> list[int]:
        r, c = divmod(cell, cols)
        out = []
        if r > 0:
            out.append(cell - cols)
        if r < rows - 1:
            out.append(cell + cols)
        if c > 0:
            out.append(cell - 1)
        if c < cols - 1:
            out.append(cell + 1)
        return out

    start = (cells, goal_blank)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        placement, blank = state
        for target in neighbours(blank):
            if target in placement:
                slot = placement.index(target)
                moved = (*placement[:slot], blank, *placement[slot + 1 :])
                child, cost = (moved, target), 1
            else:
                child, cost = (placement, target), 0
            step = dist[state] + cost
            if step < dist.get(child, n * n * n):
                dist[child] = step
                if cost:
                    queue.append(child)
                else:
                    queue.appendleft(child)
    best: dict[tuple[int, ...], int] = {}
    for (placement, _), value in dist.items():
        best[placement] = min(value, best.get(placement, value))
    return best


def compact_rank(placement: tuple[int, ...], n: int) -> int:
    """Index of a placement (a cell per tile) among all placements of as many tiles on n cells,
    in lexicographic order of the cells."""
    rank, free = 0, list(range(n))
    for cell in placement:
        rank = rank * len(free) + free.index(cell)
        free.remove(cell)
    return rank


def pack(tiles: Tiles) -> int:
    """A board of up to 16 cells as the packed kernels take it: 4 bits a cell, cell 0 lowest."""
    return sum(tile << (4 * cell) for cell, tile in enumerate(tiles))


def replay(tiles: Tiles, moves: str, cols: int) -> Tiles:
    """The board after ``moves`` (the blank's directions), moved cell by cell."""
    cells = list(tiles)
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    for move in moves:
        blank = cells.index(0)
        target = blank + step[move]
        cells[blank], cells[target] = cells[target], 0
    return tuple(cells)
