"""The heuristic catalogue: every heuristic, what it computes and where it can be used.

Each :class:`Heuristic` entry says what it is (name, aliases, one line of help), whether it is
admissible, which compiled kernel computes it (its
:class:`~fastpuzzle._core._heuristics.HeuristicCode`) and what that kernel supports: the
best-first searches and :func:`evaluate` (a whole-board kernel), IDA* on boards of up to 16 cells
and past them, the shapes it works on and the tables it needs. Every other list of heuristic
names in fastpuzzle is generated from :data:`CATALOGUE`.

To add a heuristic: one entry here and its kernel (a code in ``_heuristics.pxd`` with its
whole-board evaluation in ``board_heuristic``, or an IDA* driver). Nothing else learns its name.

None of the heuristics counts the blank. ``misplaced``, ``manhattan``, ``linear_conflict`` and
``euclidean`` are admissible and consistent; ``squared_difference`` is neither (A*, weighted A*
and IDA* take it, and their solutions are then not promised shortest). ``linear_conflict``
follows Hansson et al.: Manhattan distance plus two moves for every tile that must leave its
row or column to let the others pass (the minimum number, found as the line's length minus its
longest increasing run of goal positions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, Protocol

from fastpuzzle._core import _heuristics, _wide
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._problem import make_problem
from fastpuzzle._util.checks import did_you_mean, shown
from fastpuzzle.board import MAX_CELLS, BoardLike, Shape
from fastpuzzle.errors import UnknownNameError

__all__ = [
    "BY_NAME",
    "CATALOGUE",
    "HEURISTICS",
    "Heuristic",
    "HeuristicName",
    "Searcher",
    "euclidean",
    "evaluate",
    "heuristic_names",
    "linear_conflict",
    "lookup_heuristic",
    "manhattan",
    "misplaced",
    "name_key",
    "resolve_heuristic",
    "supported_heuristics",
]

Encoding = Literal["packed", "wide"]
Tables = Literal["walking", "pdb", "exact"]

_BOTH: frozenset[Encoding] = frozenset({"packed", "wide"})
_PACKED: frozenset[Encoding] = frozenset({"packed"})
_NONE: frozenset[Encoding] = frozenset()


@dataclass(frozen=True)
class Heuristic:
    """One heuristic and what supports it.

    Attributes
    ----------
    name : str
        Canonical lower-case name.
    aliases : tuple of str
        Other accepted spellings (matched case-insensitively, ignoring spaces, ``-`` and ``_``).
    doc : str
        One line on what it computes.
    code : HeuristicCode
        The code the compiled kernels know it by (``_heuristics.pxd``).
    admissible : bool
        Never above the true distance: searches that promise shortest (or bounded) solutions
        accept only admissible heuristics.
    board_kernel : frozenset of {"packed", "wide"}
        Board encodings on which it is computed from the board alone: the best-first searches
        use it on packed boards (up to 16 cells), :func:`evaluate` on both.
    idastar : frozenset of {"packed", "wide"}
        Board encodings IDA* computes it on (packed: up to 16 cells; wide: past 16 cells).
    tables : {"walking", "pdb", "exact"} or None
        The tables it needs (built or loaded before the search), if any.
    shapes : tuple of (rows, cols), optional
        The only shapes it works on; None: any shape its kernels take.
    max_cells : int, optional
        The largest board (in cells) it works on, if smaller than its kernels allow.
    partition : str, optional
        For a named pattern-database partition: the partition's name (``"6-6-3"``).
    dual : bool
        Pattern databases only: also read the tables on the dual board and its reflection
        (four lookups a node, not consistent), with BPMX (see :mod:`fastpuzzle.pdb.dual`).
    compound : str, optional
        For a compound of several partitions (:mod:`fastpuzzle.pdb.compound`): its name; the
        search takes the largest of their sums, each with its reflection.
    """

    name: str
    aliases: tuple[str, ...]
    doc: str
    code: HeuristicCode
    admissible: bool = True
    board_kernel: frozenset[Encoding] = _NONE
    idastar: frozenset[Encoding] = _NONE
    tables: Tables | None = None
    shapes: tuple[Shape, ...] | None = None
    max_cells: int | None = None
    partition: str | None = None
    dual: bool = False
    compound: str | None = None

    @property
    def classic(self) -> bool:
        """Whether the best-first searches (greedy, A*, ...) compute it, not only IDA*."""
        return "packed" in self.board_kernel

    def fits(self, shape: Shape) -> bool:
        """Whether it works on boards of ``shape`` (ignoring which search asks)."""
        rows, cols = shape
        if self.shapes is not None and shape not in self.shapes:
            return False
        return self.max_cells is None or rows * cols <= self.max_cells


_PDB_HELP = "additive pattern database, max with its reflection"
_DUAL_HELP = (
    "max of four lookups (the board, its reflection, its dual and the dual's reflection), "
    "with BPMX; about 0.8-0.9x the nodes of the two lookups at 1.3-1.4x the time (one more "
    "table, built on first use)"
)

#: Every heuristic, in order of strength within its kind.
CATALOGUE: tuple[Heuristic, ...] = (
    Heuristic(
        "misplaced",
        ("hamming", "misplaced_tiles"),
        "tiles off their goal cell",
        HeuristicCode.H_MISPLACED,
        board_kernel=_BOTH,
        idastar=_PACKED,
    ),
    Heuristic(
        "manhattan",
        ("md", "manhattan_distance"),
        "sum of row + column distances",
        HeuristicCode.H_MANHATTAN,
        board_kernel=_BOTH,
        idastar=_BOTH,
    ),
    Heuristic(
        "linear_conflict",
        ("lc", "linear_conflicts"),
        "Manhattan + 2 per tile that must leave its row or column (Hansson et al.)",
        HeuristicCode.H_LINEAR_CONFLICT,
        board_kernel=_BOTH,
        idastar=_BOTH,
    ),
    Heuristic(
        "euclidean",
        ("euclidean_distance", "straight_line"),
        "sum of straight-line distances to the goal cells, rounded up (admissible and "
        "consistent, below Manhattan)",
        HeuristicCode.H_EUCLIDEAN,
        board_kernel=_PACKED,
    ),
    Heuristic(
        "squared_difference",
        ("squared_differences", "sqdiff", "one_level_weight"),
        "sum over cells of (tile there - goal tile there)^2, tiles numbered by goal position: "
        "the source documents' greedy one-level weight; not admissible",
        HeuristicCode.H_SQUARED_DIFFERENCE,
        admissible=False,
        board_kernel=_PACKED,
    ),
    Heuristic(
        "walking_distance",
        ("wd", "walking"),
        "walking distance (Takahashi): exact row/column-group abstraction, where one side's "
        "tables stay small",
        HeuristicCode.H_WALKING_DISTANCE,
        idastar=_BOTH,
        tables="walking",
    ),
    Heuristic(
        "pdb",
        ("pattern_database", "pattern_databases"),
        "best additive pattern database on disk (4x4: 7-8 if built, else 6-6-3 built on first "
        "use; other shapes up to 16 cells, 3x6 and 4x5: the shape's default, built on first "
        "use; 5x5: 6-6-6-6 once built), max with its reflection",
        HeuristicCode.H_PDB,
        idastar=_BOTH,
        tables="pdb",
        max_cells=25,
    ),
    Heuristic(
        "pdb555",
        ("pdb_5_5_5",),
        f"4x4 {_PDB_HELP}: 5-5-5",
        HeuristicCode.H_PDB,
        idastar=_PACKED,
        tables="pdb",
        shapes=((4, 4),),
        partition="5-5-5",
    ),
    Heuristic(
        "pdb663",
        ("pdb_6_6_3",),
        f"4x4 {_PDB_HELP}: 6-6-3",
        HeuristicCode.H_PDB,
        idastar=_PACKED,
        tables="pdb",
        shapes=((4, 4),),
        partition="6-6-3",
    ),
    Heuristic(
        "pdb78",
        ("pdb_7_8",),
        f"4x4 {_PDB_HELP}: 7-8 (build once: fastpuzzle pdb build 7-8)",
        HeuristicCode.H_PDB,
        idastar=_PACKED,
        tables="pdb",
        shapes=((4, 4),),
        partition="7-8",
    ),
    Heuristic(
        "pdb6666",
        ("pdb_6_6_6_6",),
        f"5x5 {_PDB_HELP}: 6-6-6-6 (build once: fastpuzzle pdb build 6-6-6-6)",
        HeuristicCode.H_PDB,
        idastar=frozenset({"wide"}),
        tables="pdb",
        shapes=((5, 5),),
        partition="6-6-6-6",
    ),
    Heuristic(
        "pdb6666z",
        ("pdb_6_6_6_6_z", "pdb_zero", "zero_aware"),
        f"5x5 {_PDB_HELP}: 6-6-6-6 zero-aware, an entry per region of free cells the blank is "
        "in (4 tables, 345 MiB; build once: fastpuzzle pdb build 6-6-6-6z)",
        HeuristicCode.H_PDB,
        idastar=frozenset({"wide"}),
        tables="pdb",
        shapes=((5, 5),),
        partition="6-6-6-6z",
    ),
    Heuristic(
        "pdb24",
        ("pdb_compound", "compound"),
        "5x5: the largest sum of seven 6-6-6-6 partitions, each with its reflection (14 tables, "
        "851 MiB; build once: fastpuzzle pdb build 6-6-6-6x7)",
        HeuristicCode.H_PDB,
        idastar=frozenset({"wide"}),
        tables="pdb",
        shapes=((5, 5),),
        compound="6-6-6-6x7",
    ),
    Heuristic(
        "pdb24z",
        ("pdb_compound_zero", "compound_zero"),
        "5x5: pdb24 with zero-aware tables (14 tables, 1,208 MiB; build once: fastpuzzle pdb "
        "build 6-6-6-6x7z); the fewest nodes, each dearer",
        HeuristicCode.H_PDB,
        idastar=frozenset({"wide"}),
        tables="pdb",
        shapes=((5, 5),),
        compound="6-6-6-6x7z",
    ),
    Heuristic(
        "pdb_dual",
        ("pdb+dual", "dual_pdb", "dual"),
        f"the tables of pdb, {_DUAL_HELP}",
        HeuristicCode.H_PDB,
        idastar=_BOTH,
        tables="pdb",
        max_cells=25,
        dual=True,
    ),
    Heuristic(
        "pdb663_dual",
        ("pdb_6_6_3_dual",),
        f"4x4 6-6-3, {_DUAL_HELP}",
        HeuristicCode.H_PDB,
        idastar=_PACKED,
        tables="pdb",
        shapes=((4, 4),),
        partition="6-6-3",
        dual=True,
    ),
    Heuristic(
        "pdb78_dual",
        ("pdb_7_8_dual",),
        f"4x4 7-8, {_DUAL_HELP}",
        HeuristicCode.H_PDB,
        idastar=_PACKED,
        tables="pdb",
        shapes=((4, 4),),
        partition="7-8",
        dual=True,
    ),
    Heuristic(
        "pdb6666_dual",
        ("pdb_6_6_6_6_dual",),
        f"5x5 6-6-6-6, {_DUAL_HELP}",
        HeuristicCode.H_PDB,
        idastar=frozenset({"wide"}),
        tables="pdb",
        shapes=((5, 5),),
        partition="6-6-6-6",
        dual=True,
    ),
    Heuristic(
        "table",
        ("exact", "exact_table"),
        "exact distance of every board, for boards of up to 9 cells (built in memory)",
        HeuristicCode.H_PDB,
        idastar=_PACKED,
        tables="exact",
        max_cells=9,
    ),
)

#: The heuristics' names as a type, for editors and type checkers (``"auto"`` is taken where a
#: search picks its best). The names are matched case-insensitively and their aliases
#: (``"md"``, ``"lc"``) are taken as well, which a type checker does not know.
HeuristicName = Literal[
    "misplaced", "manhattan", "linear_conflict", "euclidean", "squared_difference",
    "walking_distance",
    "pdb", "pdb555", "pdb663", "pdb78", "pdb6666", "pdb6666z", "pdb24", "pdb24z", "pdb_dual",
    "pdb663_dual", "pdb78_dual", "pdb6666_dual", "table",
]  # fmt: skip

#: Every heuristic by canonical name (read-only).
BY_NAME: Mapping[str, Heuristic] = MappingProxyType({h.name: h for h in CATALOGUE})

#: Names of the heuristics every informed search computes on boards of up to 16 cells.
HEURISTICS: tuple[str, ...] = tuple(
    h.name for h in CATALOGUE if h.admissible and h.classic and "packed" in h.idastar
)


def name_key(name: str) -> str:
    """``name`` as the catalogues match it: lower case, without spaces, ``-`` or ``_``."""
    return re.sub(r"[\s_\-]+", "", name.strip().lower())


# Every spelling, exact and normalised, of every name: a plain lookup serves the usual call.
_INDEX: dict[str, Heuristic] = {}
for _entry in CATALOGUE:
    for _spelling in (_entry.name, *_entry.aliases):
        _INDEX.setdefault(_spelling, _entry)
        _INDEX.setdefault(name_key(_spelling), _entry)


def lookup_heuristic(name: str) -> Heuristic | None:
    """The heuristic called ``name`` or one of its aliases, or None."""
    entry = _INDEX.get(name) if type(name) is str else None
    if entry is None and isinstance(name, str):
        entry = _INDEX.get(name_key(name))
    return entry


def heuristic_names(*, classic_only: bool = False) -> tuple[str, ...]:
    """Canonical names of every heuristic (only those the best-first searches compute, if asked)."""
    return tuple(h.name for h in CATALOGUE if h.classic or not classic_only)


class Searcher(Protocol):
    """What the catalogue asks of a search algorithm (an
    :class:`~fastpuzzle.algorithms.Algorithm`): its name, which heuristic kernel it runs
    (``"best_first"``, ``"idastar"`` or None) and whether it needs admissible heuristics."""

    @property
    def name(self) -> str: ...

    @property
    def kernel(self) -> str | None: ...

    @property
    def needs_admissible(self) -> bool: ...


def supported_heuristics(algorithm: Searcher, cells: int = MAX_CELLS) -> tuple[str, ...]:
    """Names of the heuristics ``algorithm`` computes on boards of ``cells`` cells."""
    return tuple(h.name for h in CATALOGUE if _supports(algorithm, h, cells) is None)


def _supports(algorithm: Searcher, heuristic: Heuristic, cells: int) -> str | None:
    """Why ``algorithm`` cannot use ``heuristic`` on boards of ``cells`` cells, or None."""
    encoding: Encoding = "packed" if cells <= MAX_CELLS else "wide"
    if algorithm.kernel == "idastar":
        # The whole-board heuristics its kernel lacks, IDA* computes in the textbook loop.
        computed = encoding in heuristic.idastar or (
            encoding == "packed" and "packed" in heuristic.board_kernel
        )
    elif algorithm.kernel == "best_first":
        computed = encoding == "packed" and "packed" in heuristic.board_kernel
    else:
        return f"{algorithm.name} does not use a heuristic"
    if not computed:
        where = (
            f"on boards of up to {MAX_CELLS} cells" if encoding == "packed" else "on bigger ones"
        )
        return f"{algorithm.name} does not compute it {where}"
    # An inadmissible heuristic is taken everywhere (a course compares it with the others); a
    # search that promised shortest solutions then promises none (SearchResult says so).
    return None


def resolve_heuristic(
    name: str, algorithm: Searcher | None = None, *, shape: Shape | None = None
) -> Heuristic:
    """The heuristic called ``name`` or one of its aliases (case-insensitive).

    Parameters
    ----------
    name : str
        A name or alias of :data:`CATALOGUE`.
    algorithm : Algorithm, optional
        Also check that this algorithm computes it (on boards of ``shape``).
    shape : (rows, cols), optional
        Also check that it works on this shape.

    Raises
    ------
    UnknownNameError
        If no heuristic has that name, or it does not work with ``algorithm`` or ``shape``; the
        message names the heuristics that do.
    """
    entry = lookup_heuristic(name)
    cells = MAX_CELLS if shape is None else shape[0] * shape[1]
    if entry is None:
        where = "" if algorithm is None else f" for {algorithm.name}"
        known = tuple(BY_NAME) if algorithm is None else supported_heuristics(algorithm, cells)
        spellings = ((spelling, h.name) for spelling, h in _INDEX.items() if h.name in known)
        raise UnknownNameError(
            f"unknown heuristic {shown(name)}{where}; {did_you_mean(name, spellings)}expected "
            f"one of {', '.join(known) or 'none'}"
        )
    if shape is not None and not entry.fits(shape):
        fitting = [h.name for h in CATALOGUE if h.fits(shape)]
        if algorithm is not None:
            fitting = [n for n in fitting if _supports(algorithm, BY_NAME[n], cells) is None]
        raise UnknownNameError(
            f"heuristic {entry.name!r} does not work on {shape[0]}x{shape[1]} boards "
            f"({_shape_rule(entry)}); expected one of {', '.join(fitting)}"
        )
    why = None if algorithm is None else _supports(algorithm, entry, cells)
    if why is not None:
        assert algorithm is not None
        size = "" if cells <= MAX_CELLS else f" on boards past {MAX_CELLS} cells"
        supported = ", ".join(supported_heuristics(algorithm, cells)) or "none"
        raise UnknownNameError(
            f"unknown heuristic {shown(name)} for {algorithm.name}{size} ({why}); "
            f"expected one of {supported}"
        )
    return entry


def _shape_rule(heuristic: Heuristic) -> str:
    if heuristic.shapes is not None:
        return "only " + ", ".join(f"{r}x{c}" for r, c in heuristic.shapes)
    return f"boards of at most {heuristic.max_cells} cells"


def evaluate(name: str, board: BoardLike, goal: BoardLike | None = None) -> int:
    """Evaluate heuristic ``name`` on ``board`` towards ``goal``.

    Any heuristic computed from the board alone works (see :data:`CATALOGUE`: those with a
    ``board_kernel``); the default goal is the tiles in order, blank last.

    Raises
    ------
    UnknownNameError
        If ``name`` is not such a heuristic (for this board's size).
    """
    problem = make_problem(board, goal, check_solvable=False)
    encoding: Encoding = "wide" if problem.wide else "packed"
    entry = lookup_heuristic(name)
    if entry is None or encoding not in entry.board_kernel:
        valid = ", ".join(h.name for h in CATALOGUE if encoding in h.board_kernel)
        size = "" if encoding == "packed" else f" on boards past {MAX_CELLS} cells"
        raise UnknownNameError(f"unknown heuristic {shown(name)}{size}; expected one of {valid}")
    if encoding == "packed":
        return int(
            _heuristics.evaluate(
                entry.code, problem.packed, problem.rows, problem.cols, problem.goal_blank
            )
        )
    return int(
        _wide.heuristic(
            entry.code, problem.wide_cells(), problem.rows, problem.cols, problem.goal_blank
        )
    )


def misplaced(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Number of tiles not on their goal cell (the blank is never counted).

    >>> misplaced("1 2 3/4 5 6/7 _ 8")
    1
    """
    return evaluate("misplaced", board, goal)


def manhattan(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Sum over tiles of the row plus column distance to the goal cell (blank not counted).

    >>> manhattan("1 2 3/4 5 6/_ 7 8")
    2
    """
    return evaluate("manhattan", board, goal)


def linear_conflict(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Manhattan distance plus 2 for every tile that must leave its line (Hansson's rule).

    >>> linear_conflict("2 1 3/4 5 6/7 8 _")
    4
    """
    return evaluate("linear_conflict", board, goal)


def euclidean(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Sum over tiles of the straight-line distance to the goal cell, rounded up (admissible).

    >>> euclidean("1 2 3/4 5 6/_ 7 8"), euclidean("8 2 3/4 5 6/7 1 _")
    (2, 5)
    """
    return evaluate("euclidean", board, goal)
