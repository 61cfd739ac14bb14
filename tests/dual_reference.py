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


Labels = tuple[int, ...]  # cell -> label; the blank is the label of its goal cell


def labels_of(board: Tiles, goal_blank: int) -> Labels:
    """A board of tiles as labels (goal cells; the blank's label is ``goal_blank``)."""
    return tuple(goal_blank if t == 0 else _goal_cell(t, goal_blank) for t in board)


def dual_of(board: Labels, goal_blank: int) -> tuple[Labels, int]:
    """The dual board and its goal blank: label ``q`` goes where label ``q`` stands on
    ``board`` (the inverse permutation), and its goal has the blank on ``board``'s blank cell."""
    dual = [0] * len(board)
    for cell, label in enumerate(board):
        dual[label] = cell
    return tuple(dual), dual[goal_blank]


@dataclass
class DualLookups:
    """Plain, reflected, dual and dual reflected lookups of one additive database.

    Boards are labels (see :func:`labels_of`) with a goal blank ``beta``: the lookups of a board
    towards the goal whose blank is on ``beta``, where a group counts only if its table is a
    lower bound for that goal (:meth:`table_for`). The dual lookups of a board are the plain
    lookups of its dual board (:func:`dual_of`), towards the dual's goal. ``alt`` maps
    ``(group, region id)`` to the group's table built for a goal blank in that region of its
    free cells.
    """

    rows: int
    cols: int
    goal_blank: int
    tables: list[Table]
    reflect: tuple[int, ...] | None
    alt: dict[tuple[int, int], Table] = field(default_factory=dict)
    dual: bool = True  # False: the plain and reflected lookups only

    def __post_init__(self) -> None:
        self.region_of = [regions(self.rows, self.cols, t.cells) for t in self.tables]

    def table_for(self, group: int, beta: int) -> Table | None:
        """The table ``group`` reads towards the goal whose blank is on ``beta`` (None: none
        is a lower bound there: the group holds ``beta``'s goal cell, or ``beta`` lies in a
        region of its free cells it has no table for)."""
        table = self.tables[group]
        if beta in table.cells:
            return None
        region = self.region_of[group]
        if region[beta] == region[self.goal_blank]:
            return table
        return self.alt.get((group, region[beta]))

    def manhattan(self, board: Labels, beta: int) -> int:
        return sum(
            abs(cell // self.cols - label // self.cols) + abs(cell % self.cols - label % self.cols)
            for cell, label in enumerate(board)
            if label != beta
        )

    def sums(self, board: Labels, beta: int) -> list[int]:
        """The stored values' sums of the plain lookup, and of the reflected one when the
        tables have a reflection (the board and its goal mirrored about the diagonal)."""
        where = [0] * len(board)
        for cell, label in enumerate(board):
            where[label] = cell
        out = [self._sum(lambda c: where[c], beta)]
        r = self.reflect
        if r is not None:
            out.append(self._sum(lambda c: r[where[r[c]]], r[beta]))
        return out

    def _sum(self, location, beta: int) -> int:  # type: ignore[no-untyped-def]
        total = 0
        for group in range(len(self.tables)):
            table = self.table_for(group, beta)
            if table is not None:
                total += table.extra([location(c) for c in table.cells])
        return total

    def regular(self, board: Labels, beta: int) -> int:
        """Manhattan plus twice the larger of the plain and reflected sums."""
        return self.manhattan(board, beta) + 2 * max(self.sums(board, beta))

    def plain_h(self, board: Labels, beta: int) -> int:
        """Manhattan plus twice the plain sum (the kernels' first stage)."""
        return self.manhattan(board, beta) + 2 * self.sums(board, beta)[0]

    def four(self, board: Labels, beta: int) -> int:
        """The larger of the board's regular value and its dual's (equal Manhattan distance)."""
        if not self.dual:
            return self.regular(board, beta)
        return max(self.regular(board, beta), self.regular(*dual_of(board, beta)))

    # Boards of tiles, towards the canonical goal.
    def h(self, tiles: Tiles) -> int:
        return self.four(labels_of(tiles, self.goal_blank), self.goal_blank)

    def regular_h(self, tiles: Tiles) -> int:
        return self.regular(labels_of(tiles, self.goal_blank), self.goal_blank)


def children(
    board: Labels, beta: int, rows: int, cols: int, previous: int
) -> list[tuple[int, Labels]]:
    """``(blank cell before the move, child)`` in the kernels' order (blank D, R, L, U), the
    move back to ``previous`` (a cell, or -1) left out."""
    blank = board.index(beta)
    r, c = divmod(blank, cols)
    out = []
    for dr, dc in ((1, 0), (0, 1), (0, -1), (-1, 0)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            cell = nr * cols + nc
            if cell == previous:
                continue
            labels = list(board)
            labels[blank], labels[cell] = labels[cell], labels[blank]
            out.append((blank, tuple(labels)))
    return out


@dataclass
class Counts:
    expanded: int = 0
    generated: int = 0
    jumps: int = 0
    #: The solution as the cells each move swaps, in order (pieces after a jump unwound).
    swaps: list[tuple[int, int]] = field(default_factory=list)


def unwind(path: list[tuple[int, int] | None]) -> list[tuple[int, int]]:
    """A dual search's path (swaps, None for a jump) as swaps from its start: a piece searched
    on a dual board solves that dual, so played backwards it solves the board it came from."""
    if None not in path:
        return list(path)  # type: ignore[arg-type]
    cut = path.index(None)
    return list(path[:cut]) + unwind(path[cut + 1 :])[::-1]  # type: ignore[return-value]


def ida_bpmx(
    lookups: DualLookups,
    start: Tiles,
    *,
    bpmx: bool = True,
    lazy: bool = True,
    jump: bool = False,
) -> tuple[int, Counts]:
    """IDA* with dual lookups and BPMX, as the kernels run it: ``(length, counts)``.

    Every child of an expanded node counts as generated. With ``lazy`` a child is judged in
    stages, as the kernels do: its plain lookup, then (if that keeps it within the bound) its
    reflected one, then (again only within the bound) the dual ones; it keeps the h of the
    stage that cut it. With ``bpmx`` a node takes its best child's h less one (and is cut when that
    passes the bound, before any child is entered), each child takes at least the node's h less
    one, and a child's search hands back the h it ended with, which lifts the node's h in turn
    and cuts the siblings left once it passes the bound.

    With ``jump``, dual search (DIDA*, Zahavi et al. 2008, jumping when larger): a child whose
    dual's value is larger than its own is replaced by its dual, and the search goes on there
    towards the dual's goal (all moves allowed after a jump); a solution's moves are those of
    the path's pieces, each piece after a jump played backwards.
    """
    rows, cols, goal_blank = lookups.rows, lookups.cols, lookups.goal_blank
    counts = Counts()
    root = labels_of(start, goal_blank)
    bound = lookups.four(root, goal_blank)

    def child(
        board: Labels, beta: int, blank: int, room: int
    ) -> tuple[Labels, int, int, int, bool]:
        # (the board searched next, its goal blank, its h, the cell back to its parent, and
        # whether it is the dual of the child)
        plain = lookups.plain_h(board, beta)
        if lazy and plain > room:
            return board, beta, plain, blank, False
        regular = lookups.regular(board, beta)
        if (lazy and regular > room) or not lookups.dual:
            return board, beta, regular, blank, False
        dual, dual_beta = dual_of(board, beta)
        flipped = lookups.regular(dual, dual_beta)
        if flipped <= regular:
            return board, beta, regular, blank, False
        if jump:
            counts.jumps += 1
            return dual, dual_beta, flipped, -1, True
        return board, beta, flipped, blank, False

    path: list[tuple[int, int] | None] = []  # built backwards on the way out of the goal

    def search(board: Labels, beta: int, depth: int, h: int, previous: int) -> tuple[bool, int]:
        nonlocal next_bound
        if depth + h > bound:
            next_bound = min(next_bound, depth + h)
            return False, h
        if lookups.manhattan(board, beta) == 0:
            return True, h
        counts.expanded += 1
        kids = children(board, beta, rows, cols, previous)
        counts.generated += len(kids)
        judged = [child(kid, beta, blank, bound - depth - 1) for blank, kid in kids]
        cells = [kid.index(beta) for _, kid in kids]
        best = max(kid[2] for kid in judged)
        if bpmx and best - 1 > h:
            h = best - 1
            if depth + h > bound:
                next_bound = min(next_bound, depth + h)
                return False, h
        blank = board.index(beta)
        for (kid, kid_beta, kid_h, back_cell, jumped), cell in zip(judged, cells):
            found, back = search(
                kid, kid_beta, depth + 1, max(kid_h, h - 1) if bpmx else kid_h, back_cell
            )
            if found:
                if jumped:
                    path.append(None)
                path.append((blank, cell))
                return True, h
            if bpmx and back - 1 > h:
                h = back - 1
                if depth + h > bound:
                    next_bound = min(next_bound, depth + h)
                    return False, h
        return False, h

    while True:
        next_bound = 1 << 30
        if search(root, goal_blank, 0, bound, -1)[0]:
            counts.swaps = unwind(path[::-1])
            return bound, counts
        bound = next_bound
