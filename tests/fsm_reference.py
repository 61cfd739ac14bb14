"""A plain-Python reference of the duplicate-pruning machine (``fastpuzzle._core._fsm``).

Written from the rule, not from the kernel: a move string's effect is the map from each cell
(relative to the blank's start) to the cell its tile came from; strings are taken by length,
then by their moves (U < D < L < R); a string is forbidden when the first string with its
effect was found earlier and covers a box inside its own. Slow: for boxes up to 3x3 or 2x4 and
a dozen moves.
"""

from __future__ import annotations

from collections.abc import Iterator

MOVES = "UDLR"
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}

Box = tuple[int, int, int, int]  # top, bottom, left, right (relative to the start)


Cell = tuple[int, int]


def effect(moves: str) -> tuple[Cell, frozenset[tuple[Cell, Cell]]]:
    """Where the blank ends, and which cell's tile each displaced cell now holds."""
    blank = (0, 0)
    came_from: dict[Cell, Cell] = {}
    for move in moves:
        target = (blank[0] + STEP[move][0], blank[1] + STEP[move][1])
        origin = came_from.pop(target, target)
        if origin != blank:
            came_from[blank] = origin
        else:
            came_from.pop(blank, None)
        blank = target
    return blank, frozenset(came_from.items())


def box(moves: str) -> Box:
    """The rows and columns the blank's path covers, relative to its start."""
    row = col = top = bottom = left = right = 0
    for move in moves:
        row += STEP[move][0]
        col += STEP[move][1]
        top, bottom = min(top, row), max(bottom, row)
        left, right = min(left, col), max(right, col)
    return top, bottom, left, right


def inside(a: Box, b: Box) -> bool:
    return a[0] >= b[0] and a[1] <= b[1] and a[2] >= b[2] and a[3] <= b[3]


def forbidden_strings(rows: int, cols: int, depth: int) -> list[str]:
    """The forbidden strings in the order found (by length, then by moves)."""
    first: dict[object, str] = {effect(""): ""}
    forbidden: list[str] = []
    banned: set[str] = set()
    level = [""]
    for _length in range(1, depth + 1):
        following = []
        for parent in level:
            for move in MOVES:
                child = parent + move
                if any(child[i:] in banned for i in range(len(child))):
                    continue
                top, bottom, left, right = box(child)
                if bottom - top >= rows or right - left >= cols:
                    continue
                key = effect(child)
                twin = first.get(key)
                if twin is None:
                    first[key] = child
                elif inside(box(twin), box(child)):
                    forbidden.append(child)
                    continue
                following.append(child)
        banned.update(s for s in forbidden if len(s) == _length)
        level = following
    return forbidden


def allowed(machine: list[list[int]], moves: str) -> bool:
    """Whether the automaton ``machine`` (rows of next states, -1 forbidden) allows ``moves``."""
    state = 0
    for move in moves:
        state = machine[state][MOVES.index(move)]
        if state < 0:
            return False
    return True


def holds_forbidden(moves: str, forbidden: set[str]) -> bool:
    """Whether any substring of ``moves`` is forbidden (the automaton's meaning, spelled out)."""
    n = len(moves)
    return any(moves[i:j] in forbidden for i in range(n) for j in range(i + 1, n + 1))


def strings(length: int) -> Iterator[str]:
    """Every move string of ``length`` moves without an immediate reversal."""
    if length == 0:
        yield ""
        return
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    for head in strings(length - 1):
        for move in MOVES:
            if not head or undo[head[-1]] != move:
                yield head + move


PARENT = frozenset({"UD", "DU", "LR", "RL"})


class Counts:
    """What a search counted: nodes expanded and generated, iterations."""

    def __init__(self) -> None:
        self.expanded = 0
        self.generated = 0
        self.iterations = 0


def manhattan(tiles: tuple[int, ...], cols: int) -> int:
    """Manhattan distance to the goal 1..n-1 then blank."""
    total = 0
    for cell, tile in enumerate(tiles):
        if tile:
            home = tile - 1
            total += abs(cell // cols - home // cols) + abs(cell % cols - home % cols)
    return total


def ida_star(
    tiles: tuple[int, ...], rows: int, cols: int, forbidden: frozenset[str] = PARENT
) -> tuple[str, Counts]:
    """IDA* with Manhattan, counting as the kernels do: children tried with the blank moving
    D, R, L, U, a child skipped when its path would end with a forbidden string, every other
    child generated once, a node expanded when its f is within the bound and it is not the goal.
    Returns the moves and the counts."""
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    counts = Counts()
    longest = max((len(s) for s in forbidden), default=0)
    path: list[str] = []
    board = list(tiles)

    def allowed(move: str) -> bool:
        text = "".join(path[-(longest - 1) :] if longest > 1 else []) + move
        return not any(text[i:] in forbidden for i in range(len(text)))

    def search(blank: int, h: int, bound: int) -> int | None:
        # None: found; else the smallest f over the bound.
        f = len(path) + h
        if f > bound:
            return f
        if h == 0:
            return None
        counts.expanded += 1
        smallest = 1 << 30
        for move in "DRLU":
            target = blank + step[move]
            if move in "UD" and not 0 <= target < rows * cols:
                continue
            if move in "LR" and target // cols != blank // cols:
                continue
            if not allowed(move):
                continue
            counts.generated += 1
            tile = board[target]
            home = tile - 1
            before = abs(target // cols - home // cols) + abs(target % cols - home % cols)
            after = abs(blank // cols - home // cols) + abs(blank % cols - home % cols)
            board[blank], board[target] = tile, 0
            path.append(move)
            found = search(target, h - before + after, bound)
            if found is None:
                return None
            path.pop()
            board[blank], board[target] = 0, tile
            smallest = min(smallest, found)
        return smallest

    bound = manhattan(tiles, cols)
    while True:
        counts.iterations += 1
        found = search(tiles.index(0), manhattan(tiles, cols), bound)
        if found is None:
            return "".join(path), counts
        bound = found
