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
