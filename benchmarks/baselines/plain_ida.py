"""A deliberately plain pure-Python IDA* with Manhattan distance: the baseline to measure against.

Same conventions as ``benchmarks/baselines/ida_manhattan.c`` (goal 1..15 then the blank, children
tried with the blank moving D, R, L, U, only the immediate reversal pruned, every child generated
counted), so its node counts equal random50.tsv's. Written the way a careful Python programmer
would: a list board, incremental Manhattan distance, recursion, no tricks.

Usage: ``python -m benchmarks.baselines.plain_ida 11 5 8 7 9 15 2 0 3 13 12 1 14 10 6 4``
"""

from __future__ import annotations

import sys
import time


class TimeUp(Exception):
    """The time limit passed before a solution was found."""


def solve(
    tiles: tuple[int, ...] | list[int], *, rows: int = 4, cols: int = 4, seconds: float = 0.0
) -> tuple[int, int, str]:
    """Optimal ``(length, nodes generated, moves)`` for a board whose goal is 1..n-1 then blank.

    Raises TimeUp when ``seconds`` (if positive) pass first.
    """
    n = rows * cols
    distance = [[0] * n for _ in range(n)]
    for tile in range(1, n):
        home = tile - 1
        for cell in range(n):
            distance[tile][cell] = abs(home // cols - cell // cols) + abs(home % cols - cell % cols)
    moves_of = []
    for cell in range(n):
        options = []
        if cell + cols < n:
            options.append((cell + cols, "D"))
        if cell % cols != cols - 1:
            options.append((cell + 1, "R"))
        if cell % cols != 0:
            options.append((cell - 1, "L"))
        if cell >= cols:
            options.append((cell - cols, "U"))
        moves_of.append(options)
    board = list(tiles)
    blank = board.index(0)
    h = sum(distance[t][c] for c, t in enumerate(board) if t)
    path: list[str] = []
    nodes = 0
    deadline = time.perf_counter() + seconds if seconds > 0 else 0.0
    infinity = 1 << 30

    def search(blank: int, g: int, h: int, bound: int, previous: int) -> int:
        # Returns -1 when solved, else the smallest f above the bound seen below this node.
        nonlocal nodes
        f = g + h
        if f > bound:
            return f
        if h == 0:
            return -1
        if deadline and nodes & 0xFFFF == 0 and time.perf_counter() > deadline:
            raise TimeUp
        smallest = infinity
        for cell, letter in moves_of[blank]:
            if cell == previous:
                continue
            tile = board[cell]
            board[blank], board[cell] = tile, 0
            nodes += 1
            path.append(letter)
            found = search(
                cell, g + 1, h - distance[tile][cell] + distance[tile][blank], bound, blank
            )
            if found == -1:
                return -1
            path.pop()
            board[cell], board[blank] = tile, 0
            smallest = min(smallest, found)
        return smallest

    bound = h
    while True:
        found = search(blank, 0, h, bound, -1)
        if found == -1:
            return len(path), nodes, "".join(path)
        bound = found


if __name__ == "__main__":
    started = time.perf_counter()
    length, nodes, moves = solve([int(t) for t in sys.argv[1:]])
    print(length, nodes, moves, f"{time.perf_counter() - started:.2f} s")
