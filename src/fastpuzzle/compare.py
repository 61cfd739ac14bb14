"""``compare()``: run several searches on several boards and tabulate what each did.

The table is the one the course reports print: one row per board and method (algorithm, plus
heuristic for informed ones) with status, solution length, whether it is the shortest, nodes
expanded and generated, peak memory and seconds.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from fastpuzzle._checks import callback, choice, names, ordered
from fastpuzzle._files import write_text_atomically
from fastpuzzle._optional import require
from fastpuzzle.algorithms import resolve_algorithm, resolve_heuristic
from fastpuzzle.board import Board, BoardLike, as_board, as_goal
from fastpuzzle.errors import InvalidBoardError, UnsolvableError
from fastpuzzle.limits import Limits, as_limits
from fastpuzzle.solve import check_seed, check_weight, search

__all__ = ["Comparison", "Row", "compare"]


@dataclass(frozen=True)
class Row:
    """One search of a comparison.

    Attributes
    ----------
    board : str
        The start board (``Board.to_string()``).
    algorithm : str
        Canonical algorithm name.
    heuristic : str
        Canonical heuristic name, or ``""`` for uninformed algorithms.
    status : str
        ``"solved"``, the limit that stopped the search, or ``"unsolvable"``.
    length : int or None
        Solution length (moves), when solved.
    shortest : bool or None
        Whether the length is the shortest possible: known when the method guarantees shortest
        solutions, or when such a method solved the same board in this comparison (a greedy
        solution of that length is then as short as one can be, though its method promised
        nothing); else None. Not :attr:`Solution.optimal <fastpuzzle.Solution.optimal>`, which
        is the method's guarantee.
    expanded, generated, peak_memory_bytes : int
        As in :class:`~fastpuzzle.SearchStats`.
    seconds : float
        Wall-clock time of the search.
    """

    board: str
    algorithm: str
    heuristic: str
    status: str
    length: int | None
    shortest: bool | None
    expanded: int
    generated: int
    peak_memory_bytes: int
    seconds: float

    @property
    def optimal(self) -> bool | None:
        """The older name of :attr:`shortest`."""
        return self.shortest

    @property
    def method(self) -> str:
        """Algorithm and heuristic, e.g. ``"astar+manhattan"``."""
        return f"{self.algorithm}+{self.heuristic}" if self.heuristic else self.algorithm


_COLUMNS = tuple(f.name for f in fields(Row))
#: The numeric columns :meth:`Comparison.plot` draws.
_METRICS = ("expanded", "generated", "peak_memory_bytes", "seconds", "length")
_OLD_COLUMNS = tuple("optimal" if name == "shortest" else name for name in _COLUMNS)


def _parse_optional_int(text: str) -> int | None:
    return None if text == "" else int(text)


def _parse_optional_bool(text: str) -> bool | None:
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    raise ValueError(f"expected True, False or an empty field, got {text!r}")


def _memory(num_bytes: int) -> str:
    value = float(num_bytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Comparison:
    """The rows of :func:`compare`; ``str()`` is the fixed-width table.

    Attributes
    ----------
    rows : tuple of Row
        One per board and method, in the order they ran.
    """

    rows: tuple[Row, ...]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def to_records(self) -> list[dict[str, Any]]:
        """The rows as a list of dicts (e.g. for ``pandas.DataFrame``)."""
        return [asdict(row) for row in self.rows]

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame, one column per field of :class:`Row`.

        Raises
        ------
        ImportError
            Without pandas (``pip install 'fastpuzzle[pandas]'``).
        """
        pd = require("pandas", "Comparison.to_pandas", "pandas")
        return pd.DataFrame.from_records(self.to_records(), columns=_COLUMNS)

    def to_csv(self, path: str | Path | None = None) -> str:
        """The rows as CSV text with a header; also written to ``path`` when given."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(_COLUMNS)
        for row in self.rows:
            writer.writerow(
                [
                    "" if value is None else repr(value) if isinstance(value, float) else value
                    for value in (getattr(row, name) for name in _COLUMNS)
                ]
            )
        text = out.getvalue()
        if path is not None:
            write_text_atomically(path, text)
        return text

    @classmethod
    def from_csv(cls, text: str) -> Comparison:
        """Read back what :meth:`to_csv` wrote."""
        reader = csv.DictReader(io.StringIO(text))
        names = tuple(reader.fieldnames or ())
        # Files written before the column's rename call it "optimal".
        if names != _COLUMNS and names != _OLD_COLUMNS:
            raise ValueError(f"expected the columns {', '.join(_COLUMNS)}, got {reader.fieldnames}")
        shortest = "shortest" if names == _COLUMNS else "optimal"
        rows = [
            Row(
                board=record["board"],
                algorithm=record["algorithm"],
                heuristic=record["heuristic"],
                status=record["status"],
                length=_parse_optional_int(record["length"]),
                shortest=_parse_optional_bool(record[shortest]),
                expanded=int(record["expanded"]),
                generated=int(record["generated"]),
                peak_memory_bytes=int(record["peak_memory_bytes"]),
                seconds=float(record["seconds"]),
            )
            for record in reader
        ]
        return cls(tuple(rows))

    def _cells(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        header: tuple[str, ...] = (
            "board",
            "method",
            "status",
            "length",
            "shortest",
            "expanded",
            "generated",
            "memory",
            "seconds",
        )
        lines: list[tuple[str, ...]] = [
            (
                row.board,
                row.method,
                row.status,
                "-" if row.length is None else str(row.length),
                {True: "yes", False: "no", None: "?"}[row.shortest],
                f"{row.expanded:,}",
                f"{row.generated:,}",
                _memory(row.peak_memory_bytes),
                f"{row.seconds:.4f}",
            )
            for row in self.rows
        ]
        return header, lines

    def _repr_html_(self) -> str:
        import html

        header, lines = self._cells()
        numeric = {3, 5, 6, 7, 8}

        def cell(tag: str, i: int, text: str) -> str:
            align = ' style="text-align:right"' if i in numeric else ""
            return f"<{tag}{align}>{html.escape(text)}</{tag}>"

        head = "".join(cell("th", i, text) for i, text in enumerate(header))
        body = "".join(
            "<tr>" + "".join(cell("td", i, text) for i, text in enumerate(cells)) + "</tr>"
            for cells in lines
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __str__(self) -> str:
        header, lines = self._cells()
        widths = [max(len(cells[i]) for cells in [header, *lines]) for i in range(len(header))]
        # Text columns align left, numbers right, as printed tables do.
        left = {0, 1, 2, 4}

        def fmt(cells: Sequence[str]) -> str:
            return "  ".join(
                cell.ljust(width) if i in left else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(cells, widths))
            ).rstrip()

        rule = "  ".join("-" * width for width in widths)
        return "\n".join([fmt(header), rule, *(fmt(cells) for cells in lines)])

    def plot(self, *, metric: str = "expanded", ax: Any = None) -> Any:
        """Bar chart of ``metric`` per method, grouped by board (log scale); needs matplotlib.

        Parameters
        ----------
        metric : str
            A numeric column: ``"expanded"``, ``"generated"``, ``"peak_memory_bytes"``,
            ``"seconds"`` or ``"length"``.
        ax : matplotlib Axes, optional
            Where to draw (default: a new figure).

        Returns
        -------
        matplotlib.axes.Axes
        """
        choice("metric", metric, _METRICS)
        plt = require("matplotlib.pyplot", "Comparison.plot", "plot")
        patches = require("matplotlib.patches", "Comparison.plot", "plot")
        if ax is None:
            # Constrained layout keeps the slanted board labels and the outside legend inside
            # the figure.
            figure = plt.figure(figsize=(10, 4.5), constrained_layout=True)
            ax = figure.add_subplot()
        boards = list(dict.fromkeys(row.board for row in self.rows))
        methods = list(dict.fromkeys(row.method for row in self.rows))
        width = 0.8 / max(len(methods), 1)
        stopped_any = False
        for k, method in enumerate(methods):
            color, hatch = _method_style(k)
            rows = {r.board: r for r in self.rows if r.method == method}
            for i, board in enumerate(boards):
                row = rows.get(board)
                if row is None:
                    continue
                stopped = row.status != "solved"
                stopped_any |= stopped
                # A run stopped by a limit: a pale, hatched bar (its height is what it did
                # before it stopped, not what solving would take).
                ax.bar(
                    i + k * width,
                    getattr(row, metric) or 0,
                    width,
                    color=color,
                    alpha=0.35 if stopped else 1.0,
                    hatch=("xx" if stopped else hatch) or None,
                    edgecolor="black" if stopped else "white",
                    linewidth=0.5,
                )
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(boards))])
        ax.set_xticklabels(
            [_short(board) for board in boards], rotation=30, ha="right", fontsize="small"
        )
        ax.set_ylabel(metric)
        if metric != "length":
            ax.set_yscale("log")
        handles = []
        for k in range(len(methods)):
            color, hatch = _method_style(k)
            style = {"facecolor": color, "hatch": hatch or None, "edgecolor": "white"}
            handles.append(patches.Patch(**style, linewidth=0.5))
        labels = list(methods)
        if stopped_any:
            handles.append(
                patches.Patch(facecolor="white", edgecolor="black", hatch="xx", linewidth=0.5)
            )
            labels.append("stopped by a limit")
        # Outside the axes, so that no bar is hidden behind it.
        ax.legend(
            handles,
            labels,
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize="small",
            frameon=False,
            ncol=1 if len(labels) <= 16 else 2,
        )
        return ax


#: Twenty distinct colours (matplotlib's tab20, written out so no colormap is needed); past
#: twenty methods the cycle repeats with a hatch, so every method still looks different.
_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
)  # fmt: skip
_HATCHES = ("", "//", "..", "\\\\", "oo")


def _method_style(k: int) -> tuple[str, str]:
    """Colour and hatch of the ``k``-th method of a plot."""
    return _COLOURS[k % len(_COLOURS)], _HATCHES[(k // len(_COLOURS)) % len(_HATCHES)]


def _short(board: str, limit: int = 24) -> str:
    """A board's label on the x axis: long boards (4x4 and up) cut with an ellipsis."""
    return board if len(board) <= limit else board[: limit - 1] + "…"


def _methods(
    algorithms: str | Iterable[str], heuristics: str | Iterable[str]
) -> list[tuple[str, str | None]]:
    wanted = names("heuristics", heuristics)
    out: list[tuple[str, str | None]] = []
    for name in names("algorithms", algorithms):
        if isinstance(name, str) and "+" in name:
            # A method as Row.method writes it ("astar+manhattan"): that pairing only.
            algorithm_name, heuristic_name = name.split("+", 1)
            algorithm = resolve_algorithm(algorithm_name)
            out.append((algorithm.name, resolve_heuristic(heuristic_name, algorithm).name))
            continue
        algorithm = resolve_algorithm(name)
        if algorithm.informed:
            for h in wanted:
                out.append((algorithm.name, resolve_heuristic(h, algorithm).name))
        else:
            out.append((algorithm.name, None))
    return list(dict.fromkeys(out))


def compare(
    boards: str | Board | Iterable[BoardLike],
    algorithms: str | Iterable[str],
    *,
    heuristics: str | Iterable[str] = ("manhattan",),
    goal: BoardLike | None = None,
    limits: Limits | None = None,
    weight: float | None = None,
    seed: int | None = None,
    progress: Callable[[int, int], Any] | None = None,
) -> Comparison:
    """Run every method on every board and tabulate the results.

    Parameters
    ----------
    boards : str, Board or iterable of boards
        Start boards (anything :class:`~fastpuzzle.Board` accepts); a single string or Board is
        one board.
    algorithms : str or iterable of str
        Algorithm names; each informed one runs once per heuristic. A method written as
        :attr:`Row.method` writes it (``"astar+manhattan"``) runs with that heuristic only.
    heuristics : str or iterable of str
        Heuristics for the informed algorithms (default: Manhattan).
    goal : BoardLike, optional
        The goal of every board (default: tiles in order, blank last).
    limits : Limits, optional
        Limits of each search; searches stopped by one keep their partial statistics.
    weight, seed : optional
        Passed to ``wastar`` and ``random`` respectively.
    progress : callable, optional
        Called as ``progress(done, total)`` after each search, ``total`` being boards times
        methods.

    Returns
    -------
    Comparison
        One row per board and method; unsolvable boards get one ``"unsolvable"`` row.

    Raises
    ------
    InvalidBoardError
        Before any search, if ``boards`` is no board or collection of boards in order (a set
        has no order), or one of them, or the goal, is not valid.
    InvalidOptionError, UnknownNameError, InvalidLimitsError
        Before any search, if a name, ``limits``, ``weight``, ``seed`` or ``progress`` is not
        valid.

    Examples
    --------
    >>> table = compare(["1 2 3/4 5 6/_ 7 8"], ["bfs", "astar"])
    >>> [(row.method, row.length) for row in table]
    [('bfs', 2), ('astar+manhattan', 2)]
    """
    # Every argument is checked here, before the first search: not halfway through the table.
    as_limits(limits)
    items: Sequence[BoardLike] = (
        [boards]
        if isinstance(boards, (str, Board))
        else ordered("a board or a collection of boards", boards, error=InvalidBoardError)
    )
    methods = _methods(algorithms, heuristics)
    callback(progress, "progress(done, total)")
    check_weight(weight)
    check_seed(seed)
    starts = [as_board(item) for item in items]
    pairs = [(board, as_goal(board, goal)) for board in starts]
    rows: list[Row] = []
    done, total = 0, len(pairs) * len(methods)
    for board, target in pairs:
        name = board.to_string()
        group: list[Row] = []
        for algorithm, heuristic in methods:
            try:
                result = search(
                    board,
                    target,
                    algorithm=algorithm,
                    heuristic=heuristic,
                    limits=limits,
                    weight=weight if algorithm == "wastar" else None,
                    seed=seed if algorithm == "random" else None,
                    # Every method on one thread, so that times and node counts compare.
                    workers=1,
                )
            except UnsolvableError:
                # Every method of this board counts as done: none can run.
                done += len(methods) - len(group)
                if progress is not None:
                    progress(done, total)
                group = [Row(name, "", "", "unsolvable", None, None, 0, 0, 0, 0.0)]
                break
            stats = result.stats
            solution = result.solution
            group.append(
                Row(
                    board=name,
                    algorithm=algorithm,
                    heuristic=heuristic or "",
                    status=str(result.status),
                    length=None if solution is None else len(solution),
                    shortest=True if solution is not None and solution.optimal else None,
                    expanded=stats.expanded,
                    generated=stats.generated,
                    peak_memory_bytes=stats.peak_memory_bytes,
                    seconds=stats.seconds,
                )
            )
            done += 1
            if progress is not None:
                progress(done, total)
        known = {row.length for row in group if row.shortest and row.length is not None}
        best = min(known) if known else None
        for row in group:
            if row.length is not None and row.shortest is None and best is not None:
                rows.append(replace(row, shortest=row.length == best))
            else:
                rows.append(row)
    return Comparison(tuple(rows))
