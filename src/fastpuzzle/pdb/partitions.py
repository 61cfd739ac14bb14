"""Partitions: which goal cells each table of an additive pattern database covers.

Named partitions are written for the blank in the last cell; :func:`resolve` moves them to
another goal blank cell, and checks and names explicit ones. A partition is resolved once, where
it enters :mod:`fastpuzzle.pdb` (a public function's arguments), into one
:class:`ResolvedPartition` that the rest of the package passes on.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from fastpuzzle._util.checks import is_whole, ordered, shown
from fastpuzzle.pdb.database import Database, PatternDatabaseError

__all__ = [
    "COMPOUNDS",
    "COMPOUND_BASE",
    "CUSTOM_NAME",
    "MAX_PDB_CELLS",
    "NAMED_PARTITIONS",
    "PARTITIONS",
    "PARTITIONS_5X5",
    "PARTITIONS_6X6",
    "PARTITIONS_7X7",
    "SPARSE_MAX",
    "ZERO_AWARE",
    "ZERO_COMPOUNDS",
    "Partition",
    "ResolvedPartition",
    "ZeroAwareGroups",
    "auto_partition",
    "compound_groups",
    "compound_sources",
    "default_partition",
    "free_regions",
    "is_zero_aware",
    "is_zero_compound",
    "partition_of",
    "resolve",
    "shape_of_partition",
    "walled_off",
]

#: 4x4 partitions by name, as cells of the goal with the blank in the last cell. For another
#: goal blank cell, that cell's tile group takes cell 15 instead.
PARTITIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    "5-5-5": ((0, 4, 5, 8, 12), (1, 2, 3, 6, 7), (9, 10, 11, 13, 14)),
    "6-6-3": ((0, 4, 5, 8, 9, 12), (6, 7, 10, 11, 13, 14), (1, 2, 3)),
    "7-8": ((8, 9, 10, 11, 12, 13, 14), (0, 1, 2, 3, 4, 5, 6, 7)),
    # A second 7-8 split, into an upper-left block and the rest: weaker than 7-8 on most boards
    # but far stronger on some (hard.tsv's 70-move board); solve() takes the larger of the two
    # once both are built.
    "7-8b": ((0, 1, 2, 4, 5, 8, 9), (3, 6, 7, 10, 11, 12, 13, 14)),
}

#: 5x5 partitions by name, as cells of the goal with the blank in the last cell (24). The four
#: blocks turn around the board like a pinwheel, so the partition mirrored about the main
#: diagonal is a different one: the search takes the larger of the two sums.
PARTITIONS_5X5: dict[str, tuple[tuple[int, ...], ...]] = {
    "6-6-6-6": (
        (0, 1, 2, 5, 6, 7),
        (3, 4, 8, 9, 13, 14),
        (10, 11, 15, 16, 20, 21),
        (12, 17, 18, 19, 22, 23),
    ),
}
# The same groups, zero-aware (see ZERO_AWARE).
PARTITIONS_5X5["6-6-6-6z"] = PARTITIONS_5X5["6-6-6-6"]

#: 6x6 partitions by name, as cells of the goal with the blank in the last cell (35). Seven
#: P-pentominoes (2x3 blocks less a corner) turning around the centre one; the partition
#: mirrored about the main diagonal is a different one, whose sum the search also takes.
#: Groups of 6 would be 1.4 billion entries each; these are 45,239,040 (22.6 MB at 4 bits).
#:
#: .. code-block:: text
#:
#:     0 1 1 1 2 2
#:     0 0 1 1 2 2
#:     0 0 3 3 3 2
#:     4 4 3 3 5 5
#:     4 4 6 6 5 5
#:     4 6 6 6 5 .
PARTITIONS_6X6: dict[str, tuple[tuple[int, ...], ...]] = {
    "5-5-5-5-5-5-5": (
        (0, 6, 7, 12, 13),
        (1, 2, 3, 8, 9),
        (4, 5, 10, 11, 17),
        (14, 15, 16, 20, 21),
        (18, 19, 24, 25, 30),
        (22, 23, 28, 29, 34),
        (26, 27, 31, 32, 33),
    ),
}

#: 7x7 partitions by name, as cells of the goal with the blank in the last cell (48). Twelve
#: groups of 4 (5,085,024 entries each, 30.5 MB in all at 4 bits; groups of 5 would be 229
#: million each): 2x2 blocks where they fit, a column and a row of 4 by the right and bottom
#: edges, and an L and a block by the blank. The L makes the partition mirrored about the main
#: diagonal a different one, whose sum the search also takes.
#:
#: .. code-block:: text
#:
#:     A A B B C C D
#:     A A B B C C D
#:     E E F F G G D
#:     E E F F G G D
#:     H H I I J J J
#:     H H I I K K J
#:     L L L L K K .
PARTITIONS_7X7: dict[str, tuple[tuple[int, ...], ...]] = {
    "4-4-4-4-4-4-4-4-4-4-4-4": (
        (0, 1, 7, 8),
        (2, 3, 9, 10),
        (4, 5, 11, 12),
        (6, 13, 20, 27),
        (14, 15, 21, 22),
        (16, 17, 23, 24),
        (18, 19, 25, 26),
        (28, 29, 35, 36),
        (30, 31, 37, 38),
        (32, 33, 34, 41),
        (39, 40, 46, 47),
        (42, 43, 44, 45),
    ),
}

#: Named partitions whose tables are zero-aware: an entry per placement of the group's tiles and
#: region of free cells the blank is in (where the tiles wall cells off, the free cells split into
#: regions), not the least over the regions: more entries (docs/performance.rst, "Where the
#: constants come from"), values at least as large.
ZERO_AWARE: frozenset[str] = frozenset({"6-6-6-6z"})

#: 6-6-6-6 partitions of the 5x5 board beside ``"6-6-6-6"`` (each with its transposition, which
#: the reflected lookup reads from the same tables), as cells of the goal with the blank in the
#: last cell: the base partitions of the published "small" catalogue of the clausecker/24puzzle
#: solver (its goal turned by half a turn, its blank on cell 0 becoming our cell 24), whose first
#: is Korf and Felner's, ours. A search takes the largest sum of those a compound lists.
OTHER_6666: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((0, 1, 2, 5, 6, 7), (10, 11, 15, 16, 20, 21), (3, 4, 8, 9, 12, 13), (14, 17, 18, 19, 22, 23)),
    ((0, 1, 5, 10, 15, 20), (2, 6, 7, 11, 16, 21), (3, 4, 8, 9, 13, 14), (12, 17, 18, 19, 22, 23)),
    ((0, 1, 5, 10, 15, 20), (2, 6, 7, 11, 16, 21), (3, 4, 8, 9, 12, 13), (14, 17, 18, 19, 22, 23)),
    ((0, 1, 2, 5, 6, 7), (3, 4, 8, 9, 13, 14), (10, 11, 12, 15, 16, 17), (18, 19, 20, 21, 22, 23)),
    ((0, 1, 2, 3, 4, 9), (5, 6, 7, 8, 12, 13), (10, 11, 15, 16, 20, 21), (14, 17, 18, 19, 22, 23)),
    ((0, 1, 2, 5, 10, 15), (3, 4, 8, 9, 13, 14), (6, 7, 11, 12, 16, 17), (18, 19, 20, 21, 22, 23)),
)

#: Compounds by shape and name: partitions whose largest sum a search takes (``pdb24``).
COMPOUNDS: dict[tuple[int, int], dict[str, tuple[tuple[tuple[int, ...], ...], ...]]] = {
    (5, 5): {
        "6-6-6-6x7": (PARTITIONS_5X5["6-6-6-6"], *OTHER_6666),
    },
}
# The same partitions, zero-aware (see ZERO_COMPOUNDS).
COMPOUNDS[(5, 5)]["6-6-6-6x7z"] = COMPOUNDS[(5, 5)]["6-6-6-6x7"]

#: Compounds whose tables are zero-aware (as :data:`ZERO_AWARE`'s): the base partition's
#: zero-aware twin, then each other group as a :class:`ZeroAwareGroups` of one.
ZERO_COMPOUNDS: frozenset[str] = frozenset({"6-6-6-6x7z"})

#: The named partition whose tables a compound of each shape begins with: its file holds the
#: groups the compound shares with it (and it is kept when the compound's tables are cleared).
COMPOUND_BASE: dict[tuple[int, int], str] = {(5, 5): "6-6-6-6"}

#: The same for the zero-aware compounds (:data:`ZERO_COMPOUNDS`).
ZERO_COMPOUND_BASE: dict[tuple[int, int], str] = {(5, 5): "6-6-6-6z"}

Cells = tuple[int, ...]

#: Named partitions of each shape.
NAMED_PARTITIONS: dict[tuple[int, int], dict[str, tuple[tuple[int, ...], ...]]] = {
    (4, 4): PARTITIONS,
    (5, 5): PARTITIONS_5X5,
    (6, 6): PARTITIONS_6X6,
    (7, 7): PARTITIONS_7X7,
}

#: Groups of at most this many tiles are indexed sparsely (16**k entries), larger ones compactly.
SPARSE_MAX = 6

#: Past 25 cells :func:`auto_partition`'s groups have at most this many tiles.
AUTO_MAX_PAST_25 = 5

#: Largest board a pattern database is built for (past 16 cells, compact tables only).
MAX_PDB_CELLS = 64

#: Zero-aware tables are laid out for boards of up to this many cells.
MAX_ZERO_CELLS = 25


Partition = Sequence[Sequence[int]]

#: The name :func:`resolve` gives groups of goal cells: a digest of them, with a
#: ``z`` after it for zero-aware tables.
CUSTOM_NAME = re.compile(r"custom-[0-9a-f]{12}z?")


class ZeroAwareGroups(tuple):  # type: ignore[type-arg]
    """An explicit partition (groups of goal cells) whose tables are zero-aware.

    Named as the same groups are, with a ``z`` after the digest (``custom-<12 hex digits>z``),
    so the plain and zero-aware tables of the same groups are different files.
    """

    __slots__ = ()


def is_zero_aware(name: str) -> bool:
    """Whether the partition named ``name`` (as :func:`resolve` names it) has
    zero-aware tables."""
    # A digest is hex, so no plain custom name ends in "z".
    return name in ZERO_AWARE or (name.startswith("custom-") and name.endswith("z"))


def is_zero_compound(name: str) -> bool:
    """Whether compound ``name``'s tables are zero-aware."""
    return name in ZERO_COMPOUNDS


def is_sparse(tiles: int, cells: int) -> bool:
    """Whether a group of ``tiles`` tiles on a board of ``cells`` cells is indexed sparsely."""
    return tiles <= SPARSE_MAX and cells <= 16


def _shape_for(partition: str | Partition, shape: object) -> tuple[int, int]:
    if shape is None:
        if isinstance(partition, str) and partition != "auto":
            return shape_of_partition(partition)
        return (4, 4)
    if not (isinstance(shape, (tuple, list)) and len(shape) == 2 and all(map(is_whole, shape))):
        raise PatternDatabaseError(
            f"expected shape as (rows, cols) of two ints, got {shown(shape)}"
        )
    rows, cols = int(shape[0]), int(shape[1])
    if rows < 2 or cols < 2 or rows * cols > MAX_PDB_CELLS:
        raise PatternDatabaseError(
            f"pattern databases are built for boards of at least 2 rows and 2 columns and up "
            f"to {MAX_PDB_CELLS} cells, not {shown(shape)}"
        )
    return (rows, cols)


def shape_and_blank(
    partition: str | Partition, shape: object, goal_blank: object
) -> tuple[tuple[int, int], int]:
    """``(shape, goal blank cell)`` as plain ints, checked, with their defaults filled in."""
    checked = _shape_for(partition, shape)
    cells = checked[0] * checked[1]
    if goal_blank is None:
        return checked, cells - 1
    blank = int(goal_blank) if is_whole(goal_blank) else -1
    if not 0 <= blank < cells:
        raise PatternDatabaseError(
            f"expected goal_blank as a cell of the {checked[0]}x{checked[1]} board "
            f"(an int from 0 to {cells - 1}), got {shown(goal_blank)}"
        )
    return checked, blank


def shape_of_partition(name: str) -> tuple[int, int]:
    """The board shape a named partition belongs to (``"7-8"`` → 4x4, ``"6-6-6-6"`` → 5x5)."""
    for table in (NAMED_PARTITIONS, COMPOUNDS):
        for shape, named in table.items():
            if name in named:
                return shape
    known = ", ".join(n for named in NAMED_PARTITIONS.values() for n in named)
    raise PatternDatabaseError(f"unknown partition {shown(name)}; named partitions are {known}")


def tile_of(cell: int, goal_blank: int) -> int:
    """The tile whose home is ``cell`` once the goal is canonical (its blank on ``goal_blank``)."""
    return cell + 1 if cell < goal_blank else cell


@dataclass(frozen=True)
class ResolvedPartition:
    """A partition resolved for one board shape and goal: what names its file and what its
    tables cover. :func:`resolve` makes it once, where a partition enters
    :mod:`fastpuzzle.pdb`; everything past that takes it as it is.

    Attributes
    ----------
    name : str
        ``"6-6-3"``, ``"6-6-6-6z"``, or ``custom-<digest>`` for groups of goal cells.
    shape : tuple of int
        Rows and columns.
    goal_blank : int
        The goal's blank cell.
    groups : tuple of tuple of int
        The goal cells of each group (a named partition's moved to ``goal_blank``).
    asked : str or None
        The name it was asked by (a named partition, or ``"auto"``), which the commands that
        build it take; None for groups of cells. Not part of its identity.
    """

    name: str
    shape: tuple[int, int]
    goal_blank: int
    groups: tuple[tuple[int, ...], ...]
    asked: str | None = field(default=None, compare=False)

    @property
    def zero_aware(self) -> bool:
        """Whether its tables are zero-aware (:data:`ZERO_AWARE`)."""
        return is_zero_aware(self.name)


def resolve(
    partition: str | Partition | ResolvedPartition,
    shape: object = None,
    goal_blank: object = None,
) -> ResolvedPartition:
    """``partition`` for ``shape`` and ``goal_blank``, checked, with their defaults filled in
    (:func:`shape_and_blank`): a named partition (``"auto"``: the shape's default) moved to
    the goal blank cell, or groups of goal cells checked and named. A
    :class:`ResolvedPartition` is returned as it is (its shape and goal blank are its own).

    Raises
    ------
    PatternDatabaseError
        If the shape, goal blank or partition is not one a table can be built for.
    """
    if isinstance(partition, ResolvedPartition):
        return partition
    if (type(partition) is str or _keys_a_memo(partition)) and _keys_a_memo((shape, goal_blank)):
        return _resolved(partition, shape, goal_blank, _named_now(partition))
    return _resolve_now(partition, shape, goal_blank)


def partition_of(database: Database) -> ResolvedPartition:
    """The resolved partition whose tables ``database`` holds (nothing is parsed again)."""
    return ResolvedPartition(database.name, database.shape, database.goal_blank, database.cells)


def _keys_a_memo(value: object) -> bool:
    # None, ints and tuples of them, each exactly an int: a key equal to another is then the same
    # argument (3.0 and True equal 3 and 1 as keys, but are refused as cells and sides).
    if value is None or type(value) is int:
        return True
    return type(value) is tuple and all(_keys_a_memo(item) for item in value)


def _named_now(partition: object) -> object:
    # What a name stands for as the memo is asked: a name's groups are part of its key, so a
    # partition registered again under the same name (tests do) is resolved afresh.
    if not isinstance(partition, str):
        return None
    return tuple(named.get(partition) for named in NAMED_PARTITIONS.values())


@lru_cache(maxsize=256, typed=True)
def _resolved(
    partition: str | tuple[Sequence[int], ...], shape: object, goal_blank: object, named: object
) -> ResolvedPartition:
    # Every search resolves its partition: a named one's groups are worked out once.
    return _resolve_now(partition, shape, goal_blank)


def _resolve_now(
    partition: str | Partition, shape: object, goal_blank: object
) -> ResolvedPartition:
    checked, blank = shape_and_blank(partition, shape, goal_blank)
    asked = partition if isinstance(partition, str) else None
    name, groups = _named_groups(partition, checked, blank)
    _check_buildable(name, checked, groups)
    return ResolvedPartition(name, checked, blank, groups, asked)


def _check_buildable(
    name: str, shape: tuple[int, int], groups: tuple[tuple[int, ...], ...]
) -> None:
    """Refuses zero-aware tables past :data:`MAX_ZERO_CELLS` (their layout keeps cell sets in
    32 bits)."""
    rows, cols = shape
    if rows * cols > MAX_ZERO_CELLS and is_zero_aware(name):
        raise PatternDatabaseError(
            f"zero-aware tables are built for boards of up to {MAX_ZERO_CELLS} cells, not "
            f"{rows}x{cols}"
        )


def _named_groups(
    partition: str | Partition, shape: tuple[int, int], goal_blank: int
) -> tuple[str, tuple[tuple[int, ...], ...]]:
    """``(name, goal cells per group)`` for a named or explicit partition, checked."""
    rows, cols = shape
    cells = rows * cols
    # Only a str is compared: == on an array of groups would compare each cell.
    if isinstance(partition, str) and partition == "auto":
        partition = default_partition(shape, goal_blank)
    if isinstance(partition, str):
        named = NAMED_PARTITIONS.get(shape, {})
        if partition not in named:
            listed = "; ".join(
                f"{', '.join(names)} for {r}x{c}" for (r, c), names in NAMED_PARTITIONS.items()
            )
            raise PatternDatabaseError(
                f"unknown partition {shown(partition)} for {rows}x{cols}; named partitions are "
                f"{listed}; or give groups of goal cells"
            )
        # Named partitions are written for the blank in the last cell; for another goal blank
        # cell, that cell's tile takes the last cell instead.
        groups = tuple(
            tuple(sorted(cells - 1 if c == goal_blank else c for c in group))
            for group in named[partition]
        )
        return partition, groups
    expected = (
        f"disjoint non-empty groups of goal cells of a {rows}x{cols} board (not the goal blank "
        f"{goal_blank})"
    )
    # Cells are whole numbers: int() would take 1.5 or "3" for a cell.
    # Read no further than a board's cells: an endless iterator is no partition.
    given = [
        ordered(expected, group, error=PatternDatabaseError, most=cells)
        for group in ordered(expected, partition, error=PatternDatabaseError, most=cells)
    ]
    flat = [c for group in given for c in group]
    if (
        not given
        or any(not group for group in given)
        or not all(map(is_whole, flat))
        or len(set(flat)) != len(flat)
        or any(not 0 <= c < cells or c == goal_blank for c in flat)
    ):
        raise PatternDatabaseError(f"expected {expected}, got {shown(partition)}")
    groups = tuple(tuple(int(c) for c in group) for group in given)
    digest = hashlib.sha1(repr(groups).encode()).hexdigest()[:12]
    zero = "z" if isinstance(partition, ZeroAwareGroups) else ""
    if zero and cells <= 16:
        # Only the kernel past 16 cells reads them.
        raise PatternDatabaseError(
            f"zero-aware tables are built for boards of more than 16 cells, not {rows}x{cols}"
        )
    return f"custom-{digest}{zero}", groups


def auto_partition(shape: tuple[int, int], goal_blank: int) -> tuple[tuple[int, ...], ...]:
    """Goal cells cut into balanced groups of at most six tiles (five past 25 cells), in
    reading order on a board at least as tall as it is wide, column by column on a wider one:
    each group a block across the short side, never a stretch along the long one.

    Tiles of a wide board travel mostly along its rows, and the moves of tiles that must pass
    each other there are what a group's table counts; blocks across the short side count far
    more of them (fewer nodes on every shape of ``rect_report.py``'s boards; the figures are in
    docs/performance.rst).
    """
    rows, cols = shape
    if cols > rows:
        order = [r * cols + c for c in range(cols) for r in range(rows)]
    else:
        order = list(range(rows * cols))
    cells = [c for c in order if c != goal_blank]
    # Past 25 cells, groups of at most five: six tiles on 5x6 would be 427 million entries.
    most = SPARSE_MAX if rows * cols <= 25 else AUTO_MAX_PAST_25
    count = -(-len(cells) // most)
    size, extra = divmod(len(cells), count)
    out, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        out.append(tuple(cells[start:end]))
        start = end
    return tuple(out)


def reflection(shape: tuple[int, int], goal_blank: int) -> tuple[int, ...] | None:
    """The cell each cell mirrors to about the main diagonal, or None when the goal's blank is
    off the diagonal or the board is not square (then no reflected lookup is taken)."""
    rows, cols = shape
    if rows != cols or goal_blank // cols != goal_blank % cols:
        return None
    return tuple((cell % cols) * cols + cell // cols for cell in range(rows * cols))


def default_partition(shape: tuple[int, int], goal_blank: int) -> str | Partition:
    """The partition ``"auto"`` names on ``shape``: ``"6-6-6-6"`` on 5x5, ``"5-5-5-5-5-5-5"``
    on 6x6, ``"4-4-4-4-4-4-4-4-4-4-4-4"`` on 7x7, else :func:`auto_partition`'s blocks of at
    most six tiles (4x4 has better named ones)."""
    if shape == (5, 5):
        return "6-6-6-6"
    if shape == (6, 6):
        return "5-5-5-5-5-5-5"
    if shape == (7, 7):
        return "4-4-4-4-4-4-4-4-4-4-4-4"
    return auto_partition(shape, goal_blank)


def free_regions(shape: tuple[int, int], taken: Sequence[int]) -> dict[int, int]:
    """The connected regions of the cells not in ``taken``: cell -> the region's smallest cell."""
    rows, cols = shape
    blocked = set(taken)
    region: dict[int, int] = {}
    for start in range(rows * cols):
        if start in blocked or start in region:
            continue
        region[start] = start
        stack = [start]
        while stack:
            cell = stack.pop()
            r, c = divmod(cell, cols)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                other = nr * cols + nc
                if 0 <= nr < rows and 0 <= nc < cols and other not in blocked:
                    if other in region:
                        continue
                    region[other] = start
                    stack.append(other)
    return region


def walled_off(
    shape: tuple[int, int], goal_blank: int, groups: Sequence[Sequence[int]]
) -> list[int | None]:
    """Per group of cells: the region (its smallest cell) of free cells the goal blank is
    walled off from; None where the free cells are one region (the largest of several)."""
    out: list[int | None] = []
    for cells in groups:
        region = free_regions(shape, cells)
        others = [r for r in set(region.values()) if r != region[goal_blank]]
        sizes = {r: sum(1 for v in region.values() if v == r) for r in others}
        out.append(max(others, key=sizes.__getitem__) if others else None)
    return out


def compound_groups(
    name: str, shape: tuple[int, int], goal_blank: int
) -> tuple[tuple[Cells, ...], ...]:
    """The goal cells of each group of each partition of compound ``name`` for ``shape`` and a
    goal whose blank is on ``goal_blank`` (as for a named partition, the tile of that cell takes
    the last cell)."""
    named = COMPOUNDS.get(shape, {})
    if name not in named:
        known = ", ".join(n for compounds in COMPOUNDS.values() for n in compounds)
        raise PatternDatabaseError(
            f"unknown compound {name!r} for {shape[0]}x{shape[1]}; compounds are {known}"
        )
    last = shape[0] * shape[1] - 1
    return tuple(
        tuple(tuple(sorted(last if c == goal_blank else c for c in group)) for group in groups)
        for groups in named[name]
    )


def compound_sources(
    name: str, shape: tuple[int, int], goal_blank: int
) -> list[str | Sequence[Cells]]:
    """The partitions whose files hold compound ``name``'s tables, as :func:`resolve` takes
    them: the shape's :data:`COMPOUND_BASE` (:data:`ZERO_COMPOUND_BASE` for a zero-aware
    compound) where it shares groups with the compound, then each other group alone (as
    :class:`ZeroAwareGroups` for a zero-aware compound)."""
    wanted = [group for groups in compound_groups(name, shape, goal_blank) for group in groups]
    sources: list[str | Sequence[Cells]] = []
    seen: set[Cells] = set()
    zero = is_zero_compound(name)
    base = (ZERO_COMPOUND_BASE if zero else COMPOUND_BASE).get(shape)
    if base is not None:
        base_cells = resolve(base, shape, goal_blank).groups
        if set(base_cells) & set(wanted):
            sources.append(base)
            seen.update(base_cells)
    for group in wanted:
        if group not in seen:
            seen.add(group)
            sources.append(ZeroAwareGroups([group]) if zero else [group])
    return sources
