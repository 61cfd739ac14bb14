"""A plain-Python reference of dual pattern-database lookups and of IDA* with BPMX.

Written from the definitions, independently of the kernels, so that tests can check them node
for node on small boards. Nothing here is fast.

Labels are goal cells: the tile whose goal cell is ``c`` is "label c", and the blank's label is
the goal blank cell ``g``. A board ``S`` maps each cell to the label on it.

Duality (for a board whose blank is on cell ``b``): the dual board ``D = S^-1`` puts label ``p``
on cell ``S(p)`` -- where the tile that belongs on ``p`` is, read backwards. Take a shortest
solution of ``S`` as the cells its blank swaps, one adjacent pair a move. Played backwards from
``D`` those same swaps reach the identity, and every one of them moves label ``b``: ``D`` is a
board whose blank is label ``b`` (standing on cell ``g``), solved when every label is on its own
cell, so its goal has the blank on ``b``. Its distance to that goal equals ``S``'s to ours. A
group's table is a lower bound for that goal when the goal blank lies, in the group's goal
placement, in the region of free cells that the table was built from (the region holding ``g``
for our tables; ``alt`` tables are built for the other regions); the group holding ``b`` is not a
group of that goal at all, so it only counts its Manhattan distance. Manhattan distance is the
same for ``S`` and ``D``, so the dual heuristic is Manhattan plus twice the dual groups' stored
values, like the plain one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

Tiles = tuple[int, ...]


def regions(rows: int, cols: int, taken: Sequence[int]) -> dict[int, int]:
    """Connected regions of the cells not in ``taken``: cell -> region id (its smallest cell)."""
    n = rows * cols
    blocked = set(taken)
    region: dict[int, int] = {}
    for start in range(n):
        if start in blocked or start in region:
            continue
        stack = [start]
        region[start] = start
        while stack:
            cell = stack.pop()
            r, c = divmod(cell, cols)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                other = nr * cols + nc
                inside = 0 <= nr < rows and 0 <= nc < cols
                if inside and other not in blocked and other not in region:
                    region[other] = start
                    stack.append(other)
    return region


@dataclass
class Table:
    """One group's table: value (stored as (pdb - Manhattan) / 2) of a placement."""

    cells: tuple[int, ...]  # goal cells, in slot order
    n: int
    sparse: bool
    nibble: bool
    data: np.ndarray

    def extra(self, location: Sequence[int]) -> int:
        """The stored value for the group's labels on ``location[slot]``."""
        if self.sparse:
            entry = 0
            for slot, cell in enumerate(location):
                entry |= cell << (4 * slot)
        else:
            k = len(location)
            entry = 0
            used: list[int] = []
            for slot, cell in enumerate(location):
                weight = 1
                for i in range(slot + 1, k):
                    weight *= self.n - i
                entry += (cell - sum(1 for u in used if u < cell)) * weight
                used.append(cell)
        if self.nibble:
            return (int(self.data[entry >> 1]) >> ((entry & 1) * 4)) & 15
        return int(self.data[entry])


def _goal_cell(tile: int, goal_blank: int) -> int:
    return tile - 1 if tile - 1 < goal_blank else tile


def tables_of(database: object) -> list[Table]:
    """The groups of a :class:`fastpuzzle.pdb.Database` as :class:`Table` objects."""
    rows, cols = database.shape  # type: ignore[attr-defined]
    n = rows * cols
    goal_blank = database.goal_blank  # type: ignore[attr-defined]
    out = []
    for tiles, sparse, nibble, data in database.groups:  # type: ignore[attr-defined]
        cells = tuple(_goal_cell(t, goal_blank) for t in tiles)
        out.append(Table(cells, n, bool(sparse), bool(nibble), np.asarray(data)))
    return out


@dataclass
class DualLookups:
    """Plain, reflected, dual and dual reflected lookups of one additive database.

    ``alt`` maps ``(group, region id)`` to the table of that group built for a goal blank in
    that region of its free cells; a group and goal blank with no table count nothing.
    """

    rows: int
    cols: int
    goal_blank: int
    tables: list[Table]
    reflect: tuple[int, ...] | None
    alt: dict[tuple[int, int], Table] = field(default_factory=dict)
    plain: bool = True
    mirrored: bool = True
    dual: bool = True
    dual_mirrored: bool = True

    def __post_init__(self) -> None:
        self.n = self.rows * self.cols
        self.region_of = [regions(self.rows, self.cols, t.cells) for t in self.tables]

    # -- the table a group reads for a goal blank ``beta`` (None: the group counts nothing)
    def table_for(self, group: int, beta: int) -> Table | None:
        table = self.tables[group]
        if beta in table.cells:
            return None
        region = self.region_of[group]
        if region[beta] == region[self.goal_blank]:
            return table
        return self.alt.get((group, region[beta]))

    def manhattan(self, board: Tiles) -> int:
        total = 0
        for cell, tile in enumerate(board):
            if tile:
                home = _goal_cell(tile, self.goal_blank)
                total += abs(cell // self.cols - home // self.cols)
                total += abs(cell % self.cols - home % self.cols)
        return total

    def sums(self, board: Tiles) -> dict[str, int]:
        """Each enabled lookup's sum of stored values (h = Manhattan + 2 * the largest)."""
        g = self.goal_blank
        label = [g if t == 0 else _goal_cell(t, g) for t in board]  # cell -> label
        where = {lab: cell for cell, lab in enumerate(label)}  # label -> cell
        blank = where[g]
        r = self.reflect
        out: dict[str, int] = {}
        if self.plain:
            out["plain"] = sum(t.extra([where[c] for c in t.cells]) for t in self.tables)
        if self.mirrored and r is not None:
            out["mirrored"] = sum(t.extra([r[where[r[c]]] for c in t.cells]) for t in self.tables)
        if self.dual:
            total = 0
            for i, _ in enumerate(self.tables):
                table = self.table_for(i, blank)
                if table is not None:
                    total += table.extra([label[c] for c in table.cells])
            out["dual"] = total
        if self.dual_mirrored and r is not None:
            total = 0
            for i, _ in enumerate(self.tables):
                table = self.table_for(i, r[blank])
                if table is not None:
                    total += table.extra([r[label[r[c]]] for c in table.cells])
            out["dual_mirrored"] = total
        return out

    def h(self, board: Tiles) -> int:
        sums = self.sums(board)
        return self.manhattan(board) + 2 * max(sums.values(), default=0)

    def regular_h(self, board: Tiles) -> int:
        sums = self.sums(board)
        return self.manhattan(board) + 2 * max(
            [v for k, v in sums.items() if k in ("plain", "mirrored")], default=0
        )


def children(board: Tiles, rows: int, cols: int, previous: int) -> list[tuple[int, Tiles]]:
    """``(blank cell before the move, child)`` in the kernels' order (blank D, R, L, U), the
    move back to ``previous`` (a cell, or -1) left out."""
    blank = board.index(0)
    r, c = divmod(blank, cols)
    out = []
    for dr, dc in ((1, 0), (0, 1), (0, -1), (-1, 0)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            cell = nr * cols + nc
            if cell == previous:
                continue
            tiles = list(board)
            tiles[blank], tiles[cell] = tiles[cell], tiles[blank]
            out.append((blank, tuple(tiles)))
    return out


@dataclass
class Counts:
    expanded: int = 0
    generated: int = 0


def ida_bpmx(
    lookups: DualLookups, start: Tiles, *, bpmx: bool = True, lazy: bool = True
) -> tuple[int, Counts]:
    """IDA* with dual lookups and BPMX, as the kernels run it: ``(length, counts)``.

    Every child of an expanded node counts as generated. With ``lazy`` a child is first judged
    on its plain and reflected lookups, and only a child those leave within the bound gets the
    dual ones too. With ``bpmx`` a node takes its best child's h less one (and is cut when that
    passes the bound, before any child is entered), each child takes at least the node's h less
    one, and a child's search hands back the h it ended with, which lifts the node's h in turn
    and cuts the siblings left once it passes the bound.
    """
    rows, cols = lookups.rows, lookups.cols
    counts = Counts()
    bound = lookups.h(start)

    def child_h(child: Tiles, room: int) -> int:
        regular = lookups.regular_h(child)
        if lazy and regular > room:
            return regular
        return max(regular, lookups.h(child))

    def search(board: Tiles, depth: int, h: int, previous: int) -> tuple[bool, int]:
        nonlocal next_bound
        if depth + h > bound:
            next_bound = min(next_bound, depth + h)
            return False, h
        if lookups.manhattan(board) == 0:
            return True, h
        counts.expanded += 1
        kids = children(board, rows, cols, previous)
        counts.generated += len(kids)
        hs = [child_h(child, bound - depth - 1) for _, child in kids]
        if bpmx and hs and max(hs) - 1 > h:
            h = max(hs) - 1
            if depth + h > bound:
                next_bound = min(next_bound, depth + h)
                return False, h
        for (blank, child), hc in zip(kids, hs):
            found, back = search(child, depth + 1, max(hc, h - 1) if bpmx else hc, blank)
            if found:
                return True, h
            if bpmx and back - 1 > h:
                h = back - 1
                if depth + h > bound:
                    next_bound = min(next_bound, depth + h)
                    return False, h
        return False, h

    while True:
        next_bound = 1 << 30
        if search(start, 0, bound, -1)[0]:
            return bound, counts
        bound = next_bound
