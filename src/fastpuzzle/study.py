"""``depth_study()``: what several methods do on boards at each exact optimal depth, laid out as
Russell and Norvig's table of IDS and A* (*Artificial Intelligence: A Modern Approach*, 3rd
edition, figure 3.29: rows the solution depth d, for each method its nodes generated and its
effective branching factor b*, averaged over 100 boards a depth).

The boards of a depth are drawn exactly that many optimal moves from the goal
(:func:`~fastpuzzle.random_boards` with ``distance=``): a scramble of d moves is often a
board much nearer, and a table built on scrambles puts its figures at the wrong depth. Every
method runs on the same boards, on one thread.

The table's ``ebf`` is the b* of the depth's mean nodes generated (``N + 1 = 1 + b* + ... +
b*^d`` for ``N`` the mean): the table's own two columns agree, as a reader recomputing b* from
its nodes finds. ``ebf_mean``, in :meth:`DepthStudy.to_pandas` and the CSV, is the mean of each
board's own b*, a little lower (b* grows slower than N).
"""

from __future__ import annotations

import functools
import os
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, cast

import numpy as np

from fastpuzzle._util.branching import effective_branching_factor
from fastpuzzle._util.checks import (
    callback,
    choice,
    names,
    ordered,
    random_generator,
    shown,
    whole,
)
from fastpuzzle._util.optional import require
from fastpuzzle._util.text_tables import Table, TableText, rows_csv
from fastpuzzle._walk import RandomSource
from fastpuzzle.algorithms import AlgorithmName
from fastpuzzle.board import MAX_CELLS, Board, BoardLike, Shape, as_goal, check_shape
from fastpuzzle.compare import methods as method_names
from fastpuzzle.datasets import random_boards
from fastpuzzle.errors import InvalidOptionError
from fastpuzzle.generate import random_board
from fastpuzzle.heuristics import HeuristicName
from fastpuzzle.limits import Limits, as_limits
from fastpuzzle.results import SearchResult, Status
from fastpuzzle.solve import search

__all__ = ["DEFAULT_METHODS", "DepthRow", "DepthStudy", "depth_study"]

#: What :func:`depth_study` compares when no methods are given: Russell and Norvig's table,
#: with BFS in place of IDS (which generates the same layers again at every bound).
DEFAULT_METHODS = ("bfs", "astar+misplaced", "astar+manhattan", "idastar+manhattan")

#: The statistics a plot draws, and the axis label of each (all on a log scale but ``ebf``).
PLOT_METRICS = {
    "generated": "nodes generated (mean)",
    "expanded": "nodes expanded (mean)",
    "seconds": "time (mean, s)",
    "peak_memory_bytes": "memory (mean bytes of nodes stored)",
    "ebf": "effective branching factor b*",
}


@dataclass(frozen=True)
class DepthRow:
    """One method at one depth of a :class:`DepthStudy`.

    Attributes
    ----------
    depth : int
        The optimal solution length of every board of the row.
    method : str
        Algorithm, with its heuristic for informed ones (``"astar+manhattan"``).
    boards : int
        Boards at this depth.
    solved : int
        Of them, solved within the limits: the figures below are over these.
    expanded_mean, expanded_median, expanded_std : float
        Nodes expanded (:attr:`SearchStats.expanded <fastpuzzle.SearchStats.expanded>`): mean,
        median and sample standard deviation (0 for one board).
    generated_mean, generated_median, generated_std : float
        Nodes generated, the root not counted, likewise: Russell and Norvig's search cost.
    seconds_mean, seconds_median, seconds_std : float
        The search's own time (:attr:`SearchStats.seconds <fastpuzzle.SearchStats.seconds>`),
        one run a board.
    peak_memory_mean : float
        Mean of :attr:`SearchStats.peak_memory_bytes
        <fastpuzzle.SearchStats.peak_memory_bytes>`, the most bytes of nodes stored at once.
    ebf : float or None
        b* of ``generated_mean`` at ``depth``: ``N + 1 = 1 + b* + ... + b*^d`` (None at depth 0
        or where nothing was solved).
    ebf_mean : float or None
        The mean of each solved board's own b*.
    """

    depth: int
    method: str
    boards: int
    solved: int
    expanded_mean: float
    expanded_median: float
    expanded_std: float
    generated_mean: float
    generated_median: float
    generated_std: float
    seconds_mean: float
    seconds_median: float
    seconds_std: float
    peak_memory_mean: float
    ebf: float | None
    ebf_mean: float | None


_COLUMNS = tuple(f.name for f in fields(DepthRow))


def _summary(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (0.0, 0.0, 0.0)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return (statistics.fmean(values), statistics.median(values), spread)


def _row(depth: int, method: str, boards: int, results: list[SearchResult]) -> DepthRow:
    solved = [r.stats for r in results if r.status is Status.SOLVED]
    expanded = _summary([float(s.expanded) for s in solved])
    generated = _summary([float(s.generated) for s in solved])
    seconds = _summary([s.seconds for s in solved])
    memory = statistics.fmean(s.peak_memory_bytes for s in solved) if solved else 0.0
    own = [b for b in (s.ebf for s in solved) if b is not None]
    return DepthRow(
        depth,
        method,
        boards,
        len(solved),
        *expanded,
        *generated,
        *seconds,
        memory,
        # b* of the mean itself, not rounded: a reader's recomputation from it agrees.
        effective_branching_factor(generated[0], depth) if solved else None,
        statistics.fmean(own) if own else None,
    )


@dataclass(frozen=True)
class DepthStudy(TableText):
    """The rows of :func:`depth_study`: a table by depth and method that prints, converts to
    files and frames, and plots, as :class:`~fastpuzzle.Comparison` does.

    ``str()``, :meth:`to_string`, :meth:`to_markdown` and :meth:`to_latex` lay it out as
    Russell and Norvig's table: a row per depth, and for each method its mean nodes generated
    (a decimal under 100) and ``ebf`` (b*); ``nodes (k)`` where only k of the boards were
    solved.
    :meth:`to_pandas` and :meth:`to_csv` hold every statistic, a row per depth and method.

    Attributes
    ----------
    rows : tuple of DepthRow
        One per depth and method, depths in the order given, methods in theirs.
    shape : (rows, cols)
        The boards' shape.
    """

    rows: tuple[DepthRow, ...]
    shape: Shape

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def depths(self) -> list[int]:
        """The depths, in order."""
        return list(dict.fromkeys(row.depth for row in self.rows))

    @property
    def methods(self) -> list[str]:
        """The methods, in order."""
        return list(dict.fromkeys(row.method for row in self.rows))

    def row(self, depth: int, method: str) -> DepthRow:
        """The row of ``method`` at ``depth`` (KeyError if there is none)."""
        for row in self.rows:
            if row.depth == depth and row.method == method:
                return row
        raise KeyError((depth, method))

    def to_records(self) -> list[dict[str, Any]]:
        """The rows as a list of dicts, one per depth and method."""
        return [asdict(row) for row in self.rows]

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame, a column per field of :class:`DepthRow`.

        ``study.to_pandas().pivot(index="depth", columns="method", values=["generated_mean",
        "ebf"])`` is the printed table's layout.

        Raises
        ------
        ImportError
            Without pandas (``pip install 'fastpuzzle[pandas]'``).
        """
        pd = require("pandas", "DepthStudy.to_pandas", "pandas")
        return pd.DataFrame.from_records(self.to_records(), columns=_COLUMNS)

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """The rows as CSV text with a header, a column per field of :class:`DepthRow` (times
        in seconds, memory in bytes); also written atomically to ``path`` when given."""
        return rows_csv(_COLUMNS, self.rows, path)

    def _table(self) -> Table:
        methods = self.methods
        header = ("d", "boards", *(f"{m} {part}" for m in methods for part in ("nodes", "ebf")))
        depths = self.depths
        by_key = {(row.depth, row.method): row for row in self.rows}

        def cells(i: int) -> tuple[str, ...]:
            depth = depths[i]
            rows = [by_key[depth, method] for method in methods]
            counts = {row.boards for row in rows}
            out = [str(depth), str(max(counts)) if counts else "0"]
            for row in rows:
                partial = f" ({row.solved})" if row.solved < row.boards else ""
                # A decimal under 100: b* recomputed from the printed nodes stays within 1 % of
                # the printed b* (rounded to whole nodes, 2.4 read as 2 moved b* by 9 %).
                mean = row.generated_mean
                shown = f"{mean:,.1f}" if mean < 100 else f"{mean:,.0f}"
                nodes = f"{shown}{partial}" if row.solved else "-"
                out += [nodes, "-" if row.ebf is None else f"{row.ebf:.2f}"]
            return tuple(out)

        return Table(header, len(depths), cells, frozenset(range(len(header))))

    def __repr__(self) -> str:
        rows, cols = self.shape
        return (
            f"<DepthStudy: {rows}x{cols}, {len(self.depths)} depths x {len(self.methods)} "
            "methods; print() it for the table>"
        )

    def plot(
        self, *, metric: str | Sequence[str] = ("generated", "ebf"), ax: Any = None
    ) -> list[Any]:
        """Line charts against the depth, a line per method; needs matplotlib.

        Nodes, time and memory on a log scale (they grow exponentially with the depth: a
        straight line's slope is the log of its branching factor), ``ebf`` on a linear one.

        Parameters
        ----------
        metric : str or sequence of str
            ``"generated"``, ``"expanded"``, ``"seconds"``, ``"peak_memory_bytes"`` or
            ``"ebf"`` (means over each depth's boards); several give a chart each, side by
            side. Default: nodes generated and b*, Russell and Norvig's two columns.
        ax : matplotlib Axes or a sequence of them (one per metric), optional
            Where to draw (default: a new figure).

        Returns
        -------
        list of matplotlib.axes.Axes
        """
        wanted = [metric] if isinstance(metric, str) else names("metric", metric)
        if not wanted:
            raise InvalidOptionError("expected at least one metric, got none")
        for name in wanted:
            choice("metric", name, tuple(PLOT_METRICS))
        plt = require("matplotlib.pyplot", "DepthStudy.plot", "plot")
        if ax is None:
            _, made = plt.subplots(
                1, len(wanted), figsize=(5.0 * len(wanted), 4.0), layout="constrained"
            )
            axes = list(np.atleast_1d(made))
        else:
            axes = [ax] if not isinstance(ax, (list, tuple, np.ndarray)) else list(ax)
            if len(axes) != len(wanted):
                raise InvalidOptionError(
                    f"expected one Axes per metric ({len(wanted)}), got {len(axes)}"
                )
        rows, cols = self.shape
        for axis, name in zip(axes, wanted):
            for k, method in enumerate(self.methods):
                points = [
                    (row.depth, _plotted(row, name))
                    for row in self.rows
                    if row.method == method and _plotted(row, name) is not None
                ]
                if points:
                    xs, ys = zip(*points)
                    axis.plot(xs, ys, marker="os^vDx*"[k % 7], label=method)
            if name != "ebf":
                axis.set_yscale("log")
            axis.set_xlabel("solution depth d (moves)")
            axis.set_ylabel(PLOT_METRICS[name] + (" (log scale)" if name != "ebf" else ""))
            axis.set_title(f"{rows}x{cols}: {PLOT_METRICS[name]}")
            axis.grid(True, which="major", alpha=0.3)
            axis.legend()
        return axes


def _plotted(row: DepthRow, metric: str) -> float | None:
    if row.solved == 0:
        return None
    if metric == "ebf":
        return row.ebf
    if metric == "peak_memory_bytes":
        return row.peak_memory_mean
    return cast(float, getattr(row, f"{metric}_mean"))


def _boards(count: int, target: Board, depth: int, generator: np.random.Generator) -> list[Board]:
    # Not the study's limits: they bound the methods measured, and a draw whose solves they
    # stopped would find no board at all (each stopped solve is a failed try).
    if target.size <= MAX_CELLS:
        words = random_boards(count, target.shape, distance=depth, rng=generator, goal=target)
        return [Board.from_packed(int(word), target.shape) for word in words.tolist()]
    return [
        random_board(target.shape, distance=depth, rng=generator, goal=target) for _ in range(count)
    ]


def _once(what: str, values: Sequence[object]) -> None:
    """Refuse a value given twice: its rows would run twice and the table, by depth and method,
    would show them once. (Methods need no such check: :func:`~fastpuzzle.methods` keeps one
    of each.)"""
    seen: set[object] = set()
    for value in values:
        if value in seen:
            raise InvalidOptionError(f"expected each {what} once, got {shown(value)} twice")
        seen.add(value)


def depth_study(
    shape: Shape = (3, 3),
    depths: Iterable[int] = range(2, 25, 2),
    per_depth: int = 100,
    methods: Iterable[str] = DEFAULT_METHODS,
    *,
    goal: BoardLike | None = None,
    limits: Limits | None = None,
    rng: RandomSource = None,
    progress: Callable[[int, int], Any] | None = None,
) -> DepthStudy:
    """Run each method on ``per_depth`` boards at each exact optimal depth and tabulate mean,
    median and standard deviation of nodes expanded and generated, time and memory, and b*.

    Parameters
    ----------
    shape : (rows, cols)
        The boards' shape.
    depths : iterable of int
        Optimal solution lengths, each a row (``range(2, 25, 2)``: Russell and Norvig's).
    per_depth : int
        Boards a depth, drawn exactly that far from the goal (uniformly on up to 9 cells, see
        :func:`~fastpuzzle.random_board`); every method runs on the same boards.
    methods : iterable of str
        Methods as :func:`~fastpuzzle.compare` names them: ``"bfs"``, ``"astar+misplaced"``;
        an informed algorithm alone takes Manhattan.
    goal : BoardLike, optional
        The goal (default: tiles in order, blank last).
    limits : Limits, optional
        Limits of each search; a search stopped by one counts in ``boards``, not in ``solved``
        or the figures. The boards are drawn without them (past 9 cells, by optimal solves).
    rng : int, numpy.random.Generator or None
        Seed or generator of the boards (None: fresh entropy).
    progress : callable, optional
        ``progress(done, total)`` after each search, ``total`` being depths x boards x methods.

    Returns
    -------
    DepthStudy

    Raises
    ------
    InvalidOptionError, UnknownNameError, InvalidLimitsError
        Before any search, if a depth, ``per_depth``, a method, ``limits``, ``rng`` or
        ``progress`` is not valid, ``depths`` or ``methods`` is empty, a depth is given twice,
        ``depths`` is a string, or no board of the shape is that deep.
    DistanceNotFoundError
        Past 9 cells, if no board at a depth was found within the tries of
        :func:`~fastpuzzle.random_board` (a depth past the farthest is refused at once, as
        :class:`InvalidOptionError`).

    Examples
    --------
    >>> study = depth_study((3, 3), [2, 4], per_depth=5, methods=["bfs"], rng=1)
    >>> [(row.depth, row.solved) for row in study.rows]
    [(2, 5), (4, 5)]
    """
    target = as_goal(Board.goal(check_shape(shape)), goal)
    if isinstance(depths, (str, bytes)):
        # A string iterates by character: "24" would be the depths 2 and 4.
        raise InvalidOptionError(f"expected depths as whole numbers, got {shown(depths)}")
    wanted = [
        whole("depth", d, low=0, why="an optimal number of moves")
        for d in ordered("depths", depths, most=1000)
    ]
    if not wanted:
        raise InvalidOptionError("expected at least one depth, got none")
    _once("depth", wanted)
    count = whole("per_depth", per_depth, low=1, high=1_000_000)
    chosen = method_names(names("methods", methods))
    if not chosen:
        raise InvalidOptionError("expected at least one method, such as 'bfs', got none")
    pairs = [(name, *name.split("+", 1)) if "+" in name else (name, name, None) for name in chosen]
    as_limits(limits)
    callback(progress, "progress(done, total)")
    generator = random_generator(rng)
    runs: dict[str, Callable[[Board], SearchResult]] = {
        name: functools.partial(
            search,
            goal=target,
            algorithm=cast(AlgorithmName, algorithm),
            heuristic=cast(HeuristicName | None, heuristic),
            limits=limits,
            workers=1,
        )
        for name, algorithm, heuristic in pairs
    }
    # Untimed first runs: a method's first search loads its tables, no part of its time.
    for run in runs.values():
        run(target.apply(target.moves()[0]))
    rows: list[DepthRow] = []
    done, total = 0, len(wanted) * count * len(runs)
    for depth in wanted:
        boards = _boards(count, target, depth, generator)
        for name, run in runs.items():
            results = []
            for board in boards:
                results.append(run(board))
                done += 1
                if progress is not None:
                    progress(done, total)
            rows.append(_row(depth, name, count, results))
    return DepthStudy(tuple(rows), target.shape)
