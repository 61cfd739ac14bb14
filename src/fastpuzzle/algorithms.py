"""The registry of search algorithms: names, aliases, properties, drivers.

Names are lower-case (``"astar"``, ``"linear_conflict"``); aliases such as ``"A*"``,
``"breadth-first"`` or ``"bidi"`` are resolved case-insensitively, ignoring spaces, hyphens and
underscores. An unknown name raises :class:`~fastpuzzle.errors.UnknownNameError` listing the
valid ones.

Each :class:`Algorithm` says which heuristic kernel it runs (none for uninformed searches),
whether it needs an admissible heuristic, whether it is complete and optimal, what its memory
grows with, and holds the driver that runs it: a function from a
:class:`~fastpuzzle._solver.request.Request` to the compiled core's
:class:`~fastpuzzle._core._result.CoreResult`. IDA*'s driver is the engine room's
(:mod:`fastpuzzle._solver.idastar`); the others call their compiled search here.

Heuristics live in their own catalogue, :mod:`fastpuzzle.heuristics`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from math import floor
from types import MappingProxyType
from typing import Literal

from fastpuzzle._core import _search, _textbook
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._core._result import CoreResult
from fastpuzzle._problem import Problem, canonical_labels
from fastpuzzle._solver import idastar
from fastpuzzle._solver.request import Request
from fastpuzzle._util.checks import did_you_mean, shown
from fastpuzzle.board import MAX_CELLS
from fastpuzzle.conventions import Conventions, labels_for
from fastpuzzle.errors import UnknownNameError
from fastpuzzle.heuristics import manhattan, misplaced, name_key

__all__ = [
    "ALGORITHMS",
    "DEFAULT_DFS_DEPTH",
    "DEFAULT_WEIGHT",
    "DFS_DEPTH_HINT",
    "Algorithm",
    "AlgorithmName",
    "algorithm_names",
    "dfs_depth",
    "is_auto",
    "resolve_algorithm",
    "weight_fraction",
]

#: Depth bound of ``dfs_visited`` when ``Limits.max_depth`` is not set: above every optimal 3x3
#: length (31). ``dfs`` takes its bound from the board (:func:`dfs_depth`).
DEFAULT_DFS_DEPTH = 50

#: What a ``dfs`` that found nothing within its bound says (after its status): which bound it
#: had and what to change (the command line reads ``Limits.max_depth`` as ``--max-depth``).
DFS_DEPTH_HINT = (
    "no solution within Limits.max_depth={depth} moves ({source}); a larger Limits.max_depth "
    "searches longer (every path up to it, about 2.1 times as many per move on 4x4), and "
    "algorithm='iddfs' finds a shortest solution"
)

#: Weight of ``wastar`` when none is given.
DEFAULT_WEIGHT = 2.0

Driver = Callable[[Request], CoreResult]


@dataclass(frozen=True)
class Algorithm:
    """One search algorithm.

    Attributes
    ----------
    name : str
        Canonical lower-case name.
    aliases : tuple of str
        Other accepted spellings.
    kernel : {"best_first", "idastar"} or None
        Which heuristic kernels it runs (see :class:`~fastpuzzle.heuristics.Heuristic`); None
        for searches that take no heuristic.
    needs_admissible : bool
        Whether its promise (shortest, or within its weight of shortest) needs an admissible
        heuristic.
    complete : bool
        Whether it finds a solution whenever one exists (given the memory and time).
    optimal : bool
        Whether its solutions are shortest.
    memory : {"nodes", "path"}
        What its memory grows with: every node seen, or only the current path.
    max_cells : int or None
        The largest board it takes, in cells (None: any size).
    doc : str
        One line on how it works.
    driver : callable
        Runs it: ``driver(request) -> CoreResult``.
    """

    name: str
    aliases: tuple[str, ...]
    kernel: Literal["best_first", "idastar"] | None
    needs_admissible: bool
    complete: bool
    optimal: bool
    memory: Literal["nodes", "path"]
    doc: str
    driver: Driver
    max_cells: int | None = MAX_CELLS

    @property
    def informed(self) -> bool:
        """Whether it takes a heuristic."""
        return self.kernel is not None

    @property
    def stores_nodes(self) -> bool:
        """Whether it keeps every node seen (and so runs under the default memory cap)."""
        return self.memory == "nodes"


# The drivers below pass every argument by name rather than spreading a tuple and a dict
# (``*start, **limits``): a spread call makes the compiled function parse a fresh dict, which
# cost more than a short search itself. Every compiled driver takes the same limit keywords,
# converted once per Limits (Limits.core).


def _start(request: Request) -> tuple[int, int, int, int, int]:
    """``(start, blank, rows, cols, goal_blank)``: the first arguments of every compiled driver."""
    p = request.problem
    rows, cols = p.board.shape
    return (p.packed, p.blank, rows, cols, p.goal_blank)


def _heuristic_code(request: Request) -> int:
    return int(request.entry.code)


def weight_fraction(weight: float) -> tuple[int, int]:
    """The largest fraction ``num/den <= weight`` with ``den <= 16``, as ``(num, den)``.

    Weighted A* orders nodes by the integer ``den * g + num * h``, so the bound on its solution
    length is ``num/den`` times optimal, which never exceeds ``weight``.
    """
    best = (1, 1)
    for den in range(1, 17):
        num = floor(weight * den + 1e-9)
        if num * best[1] > best[0] * den:
            best = (num, den)
    return best


def _textbook_run(
    request: Request, run: Callable[..., CoreResult], conventions: Conventions, **options: object
) -> CoreResult:
    """The textbook loop (:mod:`fastpuzzle.conventions`): ``run`` with the request's move order,
    limits and, for a heuristic function, the caller's labels of the tiles."""
    start, blank, rows, cols, goal_blank = _start(request)
    limits = request.limits.core(stores_nodes=True)
    if conventions.function is not None:
        goal = request.problem.goal
        options["function"] = conventions.function
        options["labels"] = labels_for(goal.tiles, canonical_labels(goal))
    return run(
        start,
        blank,
        rows,
        cols,
        goal_blank,
        order=conventions.directions,
        node_limit=limits.node_limit,
        time_limit=limits.time_limit,
        memory_limit=limits.memory_limit,
        max_depth=limits.max_depth,
        **options,
    )


def _textbook_rules(request: Request) -> Conventions | None:
    """The request's conventions where they need the textbook loop, else None."""
    conventions = request.conventions
    return None if conventions is None or conventions.compiled else conventions


def _layered(request: Request, driver: Callable[..., CoreResult]) -> CoreResult:
    # BFS and bidirectional BFS take the same arguments: no heuristic, every node stored.
    start, blank, rows, cols, goal_blank = _start(request)
    limits = request.limits.core(stores_nodes=True)
    return driver(
        start,
        blank,
        rows,
        cols,
        goal_blank,
        node_limit=limits.node_limit,
        time_limit=limits.time_limit,
        memory_limit=limits.memory_limit,
        max_depth=limits.max_depth,
        progress=request.progress,
    )


def _bfs(request: Request) -> CoreResult:
    conventions = _textbook_rules(request)
    if conventions is not None:
        return _textbook_run(
            request,
            _textbook.breadth_first,
            conventions,
            at_generation=conventions.goal_test == "generation",
        )
    return _layered(request, _search.bfs)


def dfs_depth(problem: Problem) -> int:
    """``dfs``'s bound when ``Limits.max_depth`` is not set: the misplaced tiles plus the
    Manhattan distance of the start (the rule of the Java report's DFS). Often below the
    optimal length on hard boards, so that such a search ends at once with a depth limit,
    rather than after minutes; 0 for the goal itself.

    Examples
    --------
    >>> from fastpuzzle._problem import make_problem
    >>> dfs_depth(make_problem("1 2 3/4 5 6/_ 7 8", None))
    4
    """
    return misplaced(problem.board, problem.goal) + manhattan(problem.board, problem.goal)


def _depth_first(request: Request, kind: Literal["tree", "visited", "iterative"]) -> CoreResult:
    start, blank, rows, cols, goal_blank = _start(request)
    # The visited-table DFS stores boards, and the tree DFS allocates its path for the whole
    # bound at once (2**31 moves would be 34 GB): both run under the memory cap. IDDFS's path
    # grows with its bound.
    limits = request.limits.core(stores_nodes=kind != "iterative")
    depth = limits.max_depth
    if depth < 0 and kind != "iterative":
        depth = dfs_depth(request.problem) if kind == "tree" else DEFAULT_DFS_DEPTH
    run: Callable[..., CoreResult] = (
        _search.depth_limited
        if kind == "tree"
        else partial(_search.depth_first, iterative=kind == "iterative")
    )
    return run(
        start,
        blank,
        rows,
        cols,
        goal_blank,
        node_limit=limits.node_limit,
        time_limit=limits.time_limit,
        memory_limit=limits.memory_limit,
        max_depth=depth,
        progress=request.progress,
    )


def _dfs(request: Request) -> CoreResult:
    return _depth_first(request, "tree")


def _dfs_visited(request: Request) -> CoreResult:
    return _depth_first(request, "visited")


def _iddfs(request: Request) -> CoreResult:
    return _depth_first(request, "iterative")


def _best_first(
    request: Request,
    *,
    g_scale: int,
    h_scale: int,
    lookahead: bool = False,
    heuristic: int | None = None,
) -> CoreResult:
    code = _heuristic_code(request) if heuristic is None else heuristic
    conventions = _textbook_rules(request)
    if conventions is not None:
        return _textbook_run(
            request,
            _textbook.best_first,
            conventions,
            ties=conventions.ties,
            heuristic=code,
            g_scale=float(g_scale),
            h_scale=float(h_scale),
        )
    start, blank, rows, cols, goal_blank = _start(request)
    limits = request.limits.core(stores_nodes=True)
    return _search.best_first(
        start,
        blank,
        rows,
        cols,
        goal_blank,
        heuristic=code,
        g_scale=g_scale,
        h_scale=h_scale,
        lookahead=lookahead,
        node_limit=limits.node_limit,
        time_limit=limits.time_limit,
        memory_limit=limits.memory_limit,
        max_depth=limits.max_depth,
        progress=request.progress,
    )


def _astar(request: Request) -> CoreResult:
    return _best_first(request, g_scale=1, h_scale=1)


def _wastar(request: Request) -> CoreResult:
    num, den = weight_fraction(DEFAULT_WEIGHT if request.weight is None else request.weight)
    return _best_first(request, g_scale=den, h_scale=num)


def _ucs(request: Request) -> CoreResult:
    # Priority g alone: the compiled best-first search with h weighted 0 (its kernel computes
    # misplaced tiles, which a weight of 0 leaves out of every priority).
    return _best_first(request, g_scale=1, h_scale=0, heuristic=int(HeuristicCode.H_MISPLACED))


def _idastar(request: Request) -> CoreResult:
    conventions = _textbook_rules(request)
    if conventions is None and not request.problem.wide and "packed" not in request.entry.idastar:
        conventions = Conventions()  # a heuristic its packed kernel lacks (euclidean...)
    if conventions is None:
        return idastar.run(request)
    return _textbook_run(
        request,
        _textbook.idastar,
        conventions,
        heuristic=int(request.entry.code),
        weight=1.0 if request.weight is None else request.weight,
    )


def _greedy(request: Request) -> CoreResult:
    return _best_first(request, g_scale=0, h_scale=1)


def _lookahead(request: Request) -> CoreResult:
    return _best_first(request, g_scale=0, h_scale=1, lookahead=True)


def _bidirectional(request: Request) -> CoreResult:
    return _layered(request, _search.bidirectional)


def _random(request: Request) -> CoreResult:
    seed = request.seed
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    start, blank, rows, cols, goal_blank = _start(request)
    limits = request.limits.core(stores_nodes=True)
    return _search.random_walk(
        start,
        blank,
        rows,
        cols,
        goal_blank,
        seed=seed % (1 << 64),
        node_limit=limits.node_limit,
        time_limit=limits.time_limit,
        memory_limit=limits.memory_limit,
        max_depth=limits.max_depth,
        progress=request.progress,
    )


_ALGORITHM_LIST: tuple[Algorithm, ...] = (
    Algorithm(
        "bfs",
        ("breadth-first", "breadth-first search", "bfs search"),
        kernel=None,
        needs_admissible=False,
        complete=True,
        optimal=True,
        memory="nodes",
        doc="breadth-first search: FIFO queue and a table of seen boards",
        driver=_bfs,
    ),
    Algorithm(
        "ucs",
        ("uniform-cost", "uniform-cost search", "dijkstra", "ucs search"),
        kernel=None,
        needs_admissible=False,
        complete=True,
        optimal=True,
        memory="nodes",
        doc=(
            "uniform-cost search (Dijkstra): priority queue on g and a closed set, goal test on "
            "expansion; on unit moves the lengths of BFS, with more nodes (the goal's layer)"
        ),
        driver=_ucs,
    ),
    Algorithm(
        "dfs",
        ("depth-first", "depth-limited", "dls", "brute-force"),
        kernel=None,
        needs_admissible=False,
        complete=False,
        optimal=False,
        memory="path",
        doc=(
            "depth-first tree search bounded by Limits.max_depth (default: misplaced + "
            "Manhattan of the board), never undoing its last move and keeping no table of "
            "boards seen, as the source documents' brute force; first solution found"
        ),
        driver=_dfs,
    ),
    Algorithm(
        "dfs_visited",
        ("dfs-visited", "graph-dfs", "depth-first-visited"),
        kernel=None,
        needs_admissible=False,
        complete=False,
        optimal=False,
        memory="nodes",
        doc=(
            f"depth-first search bounded by Limits.max_depth (default {DEFAULT_DFS_DEPTH}), "
            "with a table of the smallest depth each board was reached at; first solution found"
        ),
        driver=_dfs_visited,
    ),
    Algorithm(
        "iddfs",
        ("iterative-deepening", "iterative-deepening-dfs", "ids", "id-dfs"),
        kernel=None,
        needs_admissible=False,
        complete=True,
        optimal=True,
        memory="path",
        doc="iterative deepening: depth-limited DFS with bounds 1, 2, 3, ... and no table",
        driver=_iddfs,
    ),
    Algorithm(
        "greedy",
        ("greedy-best-first", "gbfs", "best-first", "greedy-one-level"),
        kernel="best_first",
        needs_admissible=False,
        complete=True,
        optimal=False,
        memory="nodes",
        doc="greedy best-first search on h alone, with a closed set",
        driver=_greedy,
    ),
    Algorithm(
        "lookahead",
        ("greedy-two-level", "two-level", "greedy2", "greedy-lookahead"),
        kernel="best_first",
        needs_admissible=False,
        complete=True,
        optimal=False,
        memory="nodes",
        doc=(
            "greedy best-first search (not a hill-climb) scoring each node by the smallest h "
            "among its own children, with a closed set: the reports' greedy two-level"
        ),
        driver=_lookahead,
    ),
    Algorithm(
        "random",
        ("random-walk", "randomwalk"),
        kernel=None,
        needs_admissible=False,
        complete=False,
        optimal=False,
        memory="nodes",
        doc=(
            "seeded random walk (never undoing the previous move) until the goal or a limit; "
            "the whole walk is the solution"
        ),
        driver=_random,
    ),
    Algorithm(
        "astar",
        ("a*", "a-star", "a star"),
        kernel="best_first",
        needs_admissible=True,
        complete=True,
        optimal=True,
        memory="nodes",
        doc="A*: bucket queue on f = g + h (ties towards larger g) and a closed set",
        driver=_astar,
    ),
    Algorithm(
        "wastar",
        ("wa*", "weighted-astar", "weighted-a*", "weighted a star"),
        kernel="best_first",
        needs_admissible=True,
        complete=True,
        optimal=False,
        memory="nodes",
        doc=(
            "weighted A* on f = g + w*h (w >= 1, default "
            f"{DEFAULT_WEIGHT:g}): solutions at most w times optimal"
        ),
        driver=_wastar,
    ),
    Algorithm(
        "bidirectional",
        ("bidi", "bidirectional-bfs", "bi-bfs", "bidirectional-search"),
        kernel=None,
        needs_admissible=False,
        complete=True,
        optimal=True,
        memory="nodes",
        doc="bidirectional BFS expanding whole layers from both ends; stops at the first meeting",
        driver=_bidirectional,
    ),
    Algorithm(
        "idastar",
        ("ida*", "ida-star", "ida star"),
        kernel="idastar",
        needs_admissible=True,
        complete=True,
        optimal=True,
        memory="path",
        doc="IDA*: depth-first passes bounded by f = g + h, on boards of any size",
        driver=_idastar,
        max_cells=None,
    ),
)

#: Every algorithm by canonical name (read-only).
ALGORITHMS: Mapping[str, Algorithm] = MappingProxyType({a.name: a for a in _ALGORITHM_LIST})

#: The algorithms' names as a type, for editors and type checkers: what ``search(algorithm=)``
#: takes (``solve()`` takes ``"auto"`` too). The names are matched case-insensitively and
#: their aliases (``"A*"``, ``"ida*"``) are taken as well, which a type checker does not know.
AlgorithmName = Literal[
    "bfs", "ucs", "dfs", "dfs_visited", "iddfs", "greedy", "lookahead", "random", "astar",
    "wastar", "bidirectional", "idastar",
]  # fmt: skip


def algorithm_names() -> tuple[str, ...]:
    """Canonical names of every algorithm."""
    return tuple(ALGORITHMS)


def _index(entries: tuple[Algorithm, ...]) -> dict[str, Algorithm]:
    """Every spelling, exact and normalised, of every name: a plain lookup serves the usual call."""
    index: dict[str, Algorithm] = {}
    for entry in entries:
        for name in (entry.name, *entry.aliases):
            index.setdefault(name, entry)
            index.setdefault(name_key(name), entry)
    return index


_ALGORITHM_INDEX = _index(_ALGORITHM_LIST)


def is_auto(name: object) -> bool:
    """Whether ``name`` asks for the default choice: ``"auto"`` in any case, spaces around.

    Only a str is compared: ``==`` on an array would compare each element.
    """
    return isinstance(name, str) and name.strip().lower() == "auto"


def resolve_algorithm(name: str) -> Algorithm:
    """The algorithm called ``name`` or one of its aliases (case-insensitive).

    Raises
    ------
    UnknownNameError
        If no algorithm has that name; the message lists the valid ones.
    """
    algorithm = _ALGORITHM_INDEX.get(name) if type(name) is str else None
    if algorithm is None and isinstance(name, str):
        algorithm = _ALGORITHM_INDEX.get(name_key(name))
    if algorithm is None:
        spellings = ((spelling, a.name) for spelling, a in _ALGORITHM_INDEX.items())
        raise UnknownNameError(
            f"unknown algorithm {shown(name)}; {did_you_mean(name, spellings)}expected one of "
            f"{', '.join(algorithm_names())}"
        )
    return algorithm
