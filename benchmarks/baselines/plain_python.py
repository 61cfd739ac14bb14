"""Deliberately plain pure-Python BFS, A* and IDA*: the baselines of the benchmarks.

Written the way a course report would write them (tuples as states, a dict of parents, deque,
heapq, recursion), with the same counting conventions as fastpuzzle's core so node rates
compare: a node is expanded when its children are generated; generated counts children, never
the move that undoes the previous one; BFS tests the goal when a child is generated, A* when a
node is taken off the queue, IDA* when a child is generated. Moves are U, D, L, R: the direction
the blank moves. The goal is 1..n-1 then the blank.
"""

from __future__ import annotations

import heapq
from collections import deque

Tiles = tuple[int, ...]
MOVES = "UDLR"
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L", "": ""}


def neighbour_table(rows: int, cols: int) -> list[list[tuple[str, int]]]:
    """For each blank cell, the (move, cell) pairs the blank can reach."""
    table = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        out = []
        if r > 0:
            out.append(("U", cell - cols))
        if r < rows - 1:
            out.append(("D", cell + cols))
        if c > 0:
            out.append(("L", cell - 1))
        if c < cols - 1:
            out.append(("R", cell + 1))
        table.append(out)
    return table


def goal_of(rows: int, cols: int) -> Tiles:
    return (*range(1, rows * cols), 0)


def swap(tiles: Tiles, a: int, b: int) -> Tiles:
    cells = list(tiles)
    cells[a], cells[b] = cells[b], cells[a]
    return tuple(cells)


def bfs(start: Tiles, rows: int, cols: int) -> tuple[str, int, int]:
    """Breadth-first search; returns (moves, expanded, generated)."""
    goal = goal_of(rows, cols)
    if start == goal:
        return "", 0, 0
    moves_of = neighbour_table(rows, cols)
    parent: dict[Tiles, tuple[Tiles | None, str]] = {start: (None, "")}
    queue = deque([start])
    expanded = generated = 0
    while queue:
        board = queue.popleft()
        expanded += 1
        blank = board.index(0)
        last = parent[board][1]
        for move, cell in moves_of[blank]:
            if move == INVERSE[last]:
                continue
            child = swap(board, blank, cell)
            generated += 1
            if child in parent:
                continue
            parent[child] = (board, move)
            if child == goal:
                path = []
                node: Tiles | None = child
                while node is not None:
                    previous, step = parent[node]
                    path.append(step)
                    node = previous
                return "".join(reversed(path)), expanded, generated
            queue.append(child)
    raise ValueError("no solution")


def distance_table(rows: int, cols: int) -> list[list[int]]:
    """distance[tile][cell]: Manhattan distance of a tile at a cell from its goal cell."""
    n = rows * cols
    table = [[0] * n for _ in range(n)]
    for tile in range(1, n):
        home = tile - 1
        for cell in range(n):
            table[tile][cell] = abs(cell // cols - home // cols) + abs(cell % cols - home % cols)
    return table


def manhattan(tiles: Tiles, distance: list[list[int]]) -> int:
    return sum(distance[tile][cell] for cell, tile in enumerate(tiles) if tile)


def astar(start: Tiles, rows: int, cols: int) -> tuple[str, int, int]:
    """A* with Manhattan distance, a heap and a closed set; returns (moves, expanded, generated)."""
    goal = goal_of(rows, cols)
    moves_of = neighbour_table(rows, cols)
    distance = distance_table(rows, cols)
    h0 = manhattan(start, distance)
    best_g = {start: 0}
    parent: dict[Tiles, tuple[Tiles | None, str]] = {start: (None, "")}
    closed: set[Tiles] = set()
    # Entries (f, -g, counter, board, h): ties go to larger g, as in fastpuzzle.
    heap = [(h0, 0, 0, start, h0)]
    counter = 0
    expanded = generated = 0
    while heap:
        _, neg_g, _, board, h = heapq.heappop(heap)
        g = -neg_g
        if board in closed or best_g[board] != g:
            continue
        closed.add(board)
        if board == goal:
            path = []
            node: Tiles | None = board
            while node is not None:
                previous, step = parent[node]
                path.append(step)
                node = previous
            return "".join(reversed(path)), expanded, generated
        expanded += 1
        blank = board.index(0)
        last = parent[board][1]
        for move, cell in moves_of[blank]:
            if move == INVERSE[last]:
                continue
            tile = board[cell]
            child = swap(board, blank, cell)
            generated += 1
            if child in closed or best_g.get(child, 1 << 30) <= g + 1:
                continue
            child_h = h - distance[tile][cell] + distance[tile][blank]
            best_g[child] = g + 1
            parent[child] = (board, move)
            counter += 1
            heapq.heappush(heap, (g + 1 + child_h, -(g + 1), counter, child, child_h))
    raise ValueError("no solution")


def idastar(start: Tiles, rows: int, cols: int) -> tuple[str, int, int]:
    """IDA* with Manhattan distance (recursive); returns (moves, expanded, generated)."""
    goal = goal_of(rows, cols)
    moves_of = neighbour_table(rows, cols)
    distance = distance_table(rows, cols)
    counts = [0, 0]
    path: list[str] = []
    if start == goal:
        return "", 0, 0

    def search(board: list[int], blank: int, g: int, h: int, bound: int, last: str) -> int:
        # Returns -1 when solved, else the smallest f above the bound.
        counts[0] += 1
        smallest = 1 << 30
        for move, cell in moves_of[blank]:
            if move == INVERSE[last]:
                continue
            tile = board[cell]
            child_h = h - distance[tile][cell] + distance[tile][blank]
            counts[1] += 1
            f = g + 1 + child_h
            if f > bound:
                smallest = min(smallest, f)
                continue
            board[blank], board[cell] = tile, 0
            path.append(move)
            if child_h == 0:
                return -1
            found = search(board, cell, g + 1, child_h, bound, move)
            if found == -1:
                return -1
            smallest = min(smallest, found)
            path.pop()
            board[blank], board[cell] = 0, tile
        return smallest

    h0 = manhattan(start, distance)
    bound = h0
    while True:
        found = search(list(start), start.index(0), 0, h0, bound, "")
        if found == -1:
            return "".join(path), counts[0], counts[1]
        bound = found
