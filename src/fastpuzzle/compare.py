"""``compare()``: run several searches on several boards and tabulate what each did.

The table is the one the course reports print: one row per board and method (algorithm, plus
heuristic for informed ones) with status, solution length, whether it is the shortest, nodes
expanded and generated, memory (bytes of nodes stored) and time. It prints as aligned text and
turns into CSV, Markdown, LaTeX, records, a DataFrame or bar charts.

How times are taken: each search runs ``repeat`` times (default 1), and a short one again until
its runs have taken ``min_seconds`` (20 ms) of wall-clock time, as ``timeit`` fills a minimum
time; the row's ``seconds`` is the median of the runs' own times (the compiled search's clock,
:attr:`SearchStats.seconds <fastpuzzle.SearchStats.seconds>`, not Python's set-up around it) and
``seconds_spread`` their median absolute deviation: half the runs lie within it of the median.
The other figures are those of the first run; every run of a row repeats the same search (the
random walk keeps one seed for all of them). A search stopped by its time limit is not run
again: its time is the limit.

Each method runs once, untimed, on a board one move from the goal before its first timed run,
as pytest-benchmark warms up: the first search of a method in a process pays for loading its
table or machine (and building a table not built yet), which is no part of the search's time
(the figure: docs/performance.rst, "Where the constants come from").
"""

from __future__ import annotations

import csv
import functools
import io
import os
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, cast, overload

import numpy as np

from fastpuzzle._util.checks import (
    MAX_LISTED,
    callback,
    check_seed,
    check_weight,
    choice,
    flag,
    names,
    ordered,
    real,
    rng_or_seed,
    shown,
    whole,
)
from fastpuzzle._util.optional import require
from fastpuzzle._util.plot import METRICS, draw
from fastpuzzle._util.text_tables import Table, TableText, rows_csv
from fastpuzzle._util.units import duration, size, spread
from fastpuzzle.algorithms import AlgorithmName, resolve_algorithm
from fastpuzzle.board import (
    Board,
    BoardLike,
    Shape,
    as_board,
    as_goal,
    check_shape,
    is_packed_word,
)
from fastpuzzle.errors import InvalidBoardError, InvalidOptionError, UnsolvableError
from fastpuzzle.heuristics import HeuristicName, resolve_heuristic
from fastpuzzle.limits import Limits, as_limits
from fastpuzzle.results import SearchResult, Status
from fastpuzzle.solve import search

__all__ = [
    "MIN_SECONDS",
    "Comparison",
    "ComparisonInterrupted",
    "Row",
    "compare",
    "methods",
]

#: Wall-clock time a short search's runs fill before its median is taken: a tenth of what
#: ``timeit`` fills (docs/performance.rst, "Where the constants come from").
MIN_SECONDS = 0.02

#: The most runs of one search, however short.
MAX_RUNS = 10_000


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
        ``"solved"``, the limit that stopped the search, ``"unsolvable"``, or
        ``"interrupted"`` for the search Ctrl-C stopped (see :class:`ComparisonInterrupted`).
    length : int or None
        Solution length (moves), when solved.
    shortest : bool or None
        Whether the length is the shortest possible: known when the method guarantees shortest
        solutions, or when such a method solved the same board in this comparison (a greedy
        solution of that length is then as short as one can be, though its method promised
        nothing); else None. Not :attr:`Solution.optimal <fastpuzzle.Solution.optimal>`, which
        is the method's guarantee.
    expanded, generated, peak_memory_bytes : int
        As in :class:`~fastpuzzle.SearchStats` (``peak_memory_bytes``: the most bytes of nodes
        the search stored at once).
    seconds : float
        The median time of the search's runs (see :func:`compare`).
    seconds_spread : float
        The median absolute deviation of those times (0 after one run).
    runs : int
        How many times the search ran: 0 for a board no method can solve (its one
        ``"unsolvable"`` row) and for the search Ctrl-C stopped.
    bound : int or None
        For a search stopped by its depth bound (status ``"depth_limit"``), the bound: the
        table shows ``depth_limit (13)``. ``dfs``'s bound, unless ``Limits.max_depth`` sets
        one, is the board's misplaced tiles plus its Manhattan distance (the source
        documents' rule), often below the shortest solution.
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
    seconds_spread: float = 0.0
    runs: int = 1
    bound: int | None = None

    @property
    def method(self) -> str:
        """Algorithm and heuristic, e.g. ``"astar+manhattan"``."""
        return f"{self.algorithm}+{self.heuristic}" if self.heuristic else self.algorithm

    @property
    def time(self) -> str:
        """The median time in the unit that fits, and the spread of the runs when there were
        several: ``"45.1 µs ±2.3%"`` (``"-"`` when no search ran)."""
        if self.runs == 0:
            return "-"
        text = duration(self.seconds)
        if self.runs > 1:
            text += f" {spread(self.seconds, self.seconds_spread)}"
        return text


_COLUMNS = tuple(f.name for f in fields(Row))
#: The numeric columns :meth:`Comparison.plot` draws.
_METRICS = tuple(METRICS)
_OLD_COLUMNS = tuple("optimal" if name == "shortest" else name for name in _COLUMNS)
#: Columns that files written before them lack, and the value a row read from one gets.
_LATER_COLUMNS: dict[str, Any] = {"seconds_spread": 0.0, "runs": 1, "bound": None}


def _csv_source(source: object) -> str:
    """The text of :meth:`Comparison.from_csv`'s ``source``."""
    from fastpuzzle.formats import decode_text

    if isinstance(source, str) and ("\n" in source or "\r" in source):
        return source.removeprefix("\ufeff")
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as stream:
            return decode_text(stream.read(), name=os.fspath(source))
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        if isinstance(data, bytes):
            return decode_text(data, name="the file")
        if isinstance(data, str):
            return data.removeprefix("\ufeff")
    raise InvalidOptionError(f"expected a path, an open file or the CSV text, got {shown(source)}")


def _parse_optional_int(text: str) -> int | None:
    return None if text == "" else int(text)


def _parse_optional_bool(text: str) -> bool | None:
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    raise ValueError(f"expected True, False or an empty field, got {text!r}")


#: The columns of the printed table; the numbers among them align right.
_HEADER = (
    "board",
    "method",
    "status",
    "length",
    "shortest",
    "expanded",
    "generated",
    "memory",
    "time",
)
_NUMERIC = frozenset({3, 5, 6, 7, 8})


def _cells(row: Row) -> tuple[str, ...]:
    stopped = row.status == "depth_limit" and row.bound is not None
    return (
        row.board,
        row.method,
        f"{row.status} ({row.bound})" if stopped else row.status,
        "-" if row.length is None else f"{row.length:,}",
        {True: "yes", False: "no", None: "?"}[row.shortest],
        f"{row.expanded:,}",
        f"{row.generated:,}",
        "-" if row.runs == 0 else size(row.peak_memory_bytes),
        row.time,
    )


class ComparisonInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`compare`: a ``KeyboardInterrupt`` that carries the rows finished.

    Attributes
    ----------
    comparison : Comparison
        The rows of the searches that finished, then the one Ctrl-C stopped (status
        ``"interrupted"``, no figures).
    """

    def __init__(self, comparison: Comparison) -> None:
        super().__init__(f"compare() interrupted after {len(comparison) - 1} searches")
        self.comparison = comparison


@dataclass(frozen=True)
class Comparison(TableText):
    """The rows of :func:`compare`: a table that prints, and converts to files and frames.

    ``str()`` is the aligned table (past 60 rows, the first and last five, as a DataFrame
    shows itself; :meth:`to_string` has every row), and a notebook shows it as an HTML table.
    :meth:`to_csv`, :meth:`to_markdown` and :meth:`to_latex` give the whole table for a report.

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
        """The rows as a pandas DataFrame, one column per field of :class:`Row`, and
        ``method`` (:attr:`Row.method`, ``"astar+manhattan"``: what the printed table, the
        plots and the CSV's readers group by) after ``heuristic``.

        ``length`` is pandas' nullable ``Int64`` and ``shortest`` its nullable ``boolean``,
        ``<NA>`` where there is none (no float NaN), as in
        :meth:`BatchResult.to_pandas <fastpuzzle.BatchResult.to_pandas>`.

        Raises
        ------
        ImportError
            Without pandas (``pip install 'fastpuzzle[pandas]'``).
        """
        pd = require("pandas", "Comparison.to_pandas", "pandas")
        frame = pd.DataFrame.from_records(self.to_records(), columns=_COLUMNS)
        frame.insert(_COLUMNS.index("heuristic") + 1, "method", [row.method for row in self.rows])
        return frame.astype({"length": "Int64", "shortest": "boolean"})

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """The rows as CSV text with a header, one column per field of :class:`Row` (times in
        seconds, memory in bytes: numbers a spreadsheet or ``pandas.read_csv`` reads); also
        written atomically to ``path`` when given."""
        return rows_csv(_COLUMNS, self.rows, path)

    @classmethod
    def from_csv(cls, source: str | os.PathLike[str] | Any) -> Comparison:
        """Read back what :meth:`to_csv` wrote (also files of earlier versions).

        Parameters
        ----------
        source : path, file object or str
            A path (``str`` or ``os.PathLike``) or an open file (text or binary), as
            ``pandas.read_csv`` takes them, or the CSV text itself (a ``str`` with a line break,
            which no file name has). Bytes may be UTF-8, with or without a byte-order mark
            (Excel's "CSV UTF-8"), or UTF-16.

        Examples
        --------
        >>> import io
        >>> table = compare("1 2 3/4 5 6/7 _ 8", algorithms=["bfs"])
        >>> Comparison.from_csv(io.StringIO(table.to_csv())) == table
        True
        """
        text = _csv_source(source)
        reader = csv.DictReader(io.StringIO(text, newline=""))
        given = tuple(reader.fieldnames or ())
        # Files written before the column's rename call it "optimal"; older ones lack some of
        # the columns added since (each later column is there or not, in its place).
        known = any(
            given == tuple(name for name in layout if name in given)
            and all(name in given for name in layout if name not in _LATER_COLUMNS)
            for layout in (_COLUMNS, _OLD_COLUMNS)
        )
        if not known:
            raise ValueError(f"expected the columns {', '.join(_COLUMNS)}, got {reader.fieldnames}")
        shortest = "optimal" if "optimal" in given else "shortest"
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
                seconds_spread=float(record.get("seconds_spread", 0.0)),
                runs=int(record.get("runs", 1)),
                bound=_parse_optional_int(record.get("bound", "")),
            )
            for record in reader
        ]
        return cls(tuple(rows))

    def _table(self) -> Table:
        return Table(_HEADER, len(self.rows), lambda i: _cells(self.rows[i]), _NUMERIC)

    def __repr__(self) -> str:
        boards = len({row.board for row in self.rows})
        methods = len({row.method for row in self.rows if row.algorithm})
        return (
            f"<Comparison: {len(self.rows)} rows, {boards} board{'s' * (boards != 1)} x "
            f"{methods} method{'s' * (methods != 1)}; print() it for the table>"
        )

    @overload
    def plot(self, *, metric: str = ..., ax: Any = ..., log: bool = ...) -> Any: ...
    @overload
    def plot(self, *, metric: Sequence[str], ax: Any = ..., log: bool = ...) -> list[Any]: ...
    def plot(
        self, *, metric: str | Sequence[str] = "expanded", ax: Any = None, log: bool = False
    ) -> Any:
        """Bar charts of a metric per method, grouped by board; needs matplotlib.

        The scale is linear (a bar twice as tall is twice the figure) unless ``log=True``, for
        figures that span orders of magnitude.

        Boards are labelled B1, B2, ... under the bars; the label under the chart says which
        board each is. Runs stopped by a limit are pale and hatched.

        Parameters
        ----------
        metric : str or sequence of str
            A numeric column: ``"expanded"``, ``"generated"``, ``"peak_memory_bytes"``,
            ``"seconds"`` or ``"length"``; several give one chart each, one under another.
        ax : matplotlib Axes, or a sequence of them (one per metric), optional
            Where to draw (default: a new figure).
        log : bool
            A log scale (the axis label says so) instead of a linear one.

        Returns
        -------
        matplotlib.axes.Axes, or a list of them when ``metric`` is a sequence
        """
        wanted = [metric] if isinstance(metric, str) else names("metric", metric)
        if not wanted:
            raise InvalidOptionError("expected at least one metric, got none")
        for name in wanted:
            choice("metric", name, _METRICS)
        if ax is None:
            axes = None
        elif isinstance(metric, str):
            axes = [ax]
        else:
            # Read to one past the metrics: an endless iterable of Axes is refused, not listed.
            axes = ordered("ax as one Axes per metric", ax, most=len(wanted))
            if len(axes) != len(wanted):
                raise InvalidOptionError(
                    f"expected one Axes per metric ({len(wanted)}), got {len(axes)}"
                )
        flag("log", log)
        drawn = draw(self.rows, wanted, axes, log=log)
        return drawn[0] if isinstance(metric, str) else drawn


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


def methods(
    algorithms: str | Iterable[str], heuristics: str | Iterable[str] = ("manhattan",)
) -> list[str]:
    """The methods :func:`compare` runs on each board, in its order (as :attr:`Row.method`).

    Examples
    --------
    >>> methods(["bfs", "astar", "greedy"], ["misplaced", "manhattan"])
    ['bfs', 'astar+misplaced', 'astar+manhattan', 'greedy+misplaced', 'greedy+manhattan']
    """
    return [f"{a}+{h}" if h else a for a, h in _methods(algorithms, heuristics)]


#: What :func:`_timed` returns: the first run's result, the median and the median absolute
#: deviation of the runs' times, and the number of runs.
Timed = tuple[SearchResult, float, float, int]


def _timed(run: Callable[[], SearchResult], repeat: int, min_seconds: float) -> Timed:
    """``run`` at least ``repeat`` times and until ``min_seconds`` of wall-clock time have
    passed: the first result, the median and median absolute deviation of the runs' own
    times, and the number of runs."""
    started = time.perf_counter()
    first = run()
    times = [first.stats.seconds]
    if first.status is not Status.TIME_LIMIT:
        while len(times) < MAX_RUNS and (
            len(times) < repeat or time.perf_counter() - started < min_seconds
        ):
            times.append(run().stats.seconds)
    median = statistics.median(times)
    deviation = statistics.median(abs(t - median) for t in times) if len(times) > 1 else 0.0
    return first, median, deviation, len(times)


def _row(
    name: str, algorithm: str, heuristic: str | None, timed: Timed, limits: Limits | None
) -> Row:
    result, median, deviation, runs = timed
    stats = result.stats
    solution = result.solution
    bound = None
    if result.status is Status.DEPTH_LIMIT:
        # The bound in force: the one given, else the search's own (dfs: misplaced +
        # Manhattan of the board, dfs_visited: 50), which it reports as the depth it reached.
        given = None if limits is None else limits.max_depth
        bound = stats.depth if given is None else given
    return Row(
        board=name,
        algorithm=algorithm,
        heuristic=heuristic or "",
        status=str(result.status),
        length=None if solution is None else len(solution),
        shortest=True if solution is not None and solution.optimal else None,
        expanded=stats.expanded,
        generated=stats.generated,
        peak_memory_bytes=stats.peak_memory_bytes,
        seconds=median,
        seconds_spread=deviation,
        runs=runs,
        bound=bound,
    )


def _settled(group: list[Row]) -> list[Row]:
    """A board's rows with ``shortest`` known wherever a shortest-guaranteeing method solved
    the same board."""
    known = {row.length for row in group if row.shortest and row.length is not None}
    best = min(known) if known else None
    return [
        replace(row, shortest=row.length == best)
        if row.length is not None and row.shortest is None and best is not None
        else row
        for row in group
    ]


def compare(
    boards: str | Board | int | np.integer[Any] | Iterable[BoardLike],
    algorithms: str | Iterable[str],
    *,
    heuristics: str | Iterable[str] = ("manhattan",),
    goal: BoardLike | None = None,
    shape: Shape | None = None,
    limits: Limits | None = None,
    weight: float | None = None,
    seed: int | None = None,
    repeat: int = 1,
    min_seconds: float = MIN_SECONDS,
    progress: Callable[[int, int], Any] | None = None,
    rng: int | np.random.Generator | None = None,
) -> Comparison:
    """Run every method on every board and tabulate the results.

    Parameters
    ----------
    boards : str, Board or iterable of boards
        Start boards (anything :class:`~fastpuzzle.Board` accepts); a single string or Board is
        one board. Packed boards (the ``uint64`` words of :func:`~fastpuzzle.random_boards`)
        take their shape from ``shape``, else from ``goal``.
    algorithms : str or iterable of str
        Algorithm names; each informed one runs once per heuristic. A method written as
        :attr:`Row.method` writes it (``"astar+manhattan"``) runs with that heuristic only.
    heuristics : str or iterable of str
        Heuristics for the informed algorithms (default: Manhattan).
    goal : BoardLike, optional
        The goal of every board (default: tiles in order, blank last).
    shape : (rows, cols), optional
        The boards' shape: needed for packed boards (unless ``goal`` gives it) and flat
        sequences of tiles that are not square.
    limits : Limits, optional
        Limits of each search; searches stopped by one keep their partial statistics.
    weight, seed : optional
        Passed to ``wastar`` and ``random`` respectively. Without a seed, each random-walk row
        draws one, which all its runs use. ``rng=`` (a seed, or a numpy Generator that draws
        one) may give the seed, as for :func:`~fastpuzzle.random_board`.
    repeat : int
        Runs of each search, at least 1: the row's time is their median, its
        ``seconds_spread`` their median absolute deviation.
    min_seconds : float
        A search is run again (beyond ``repeat``) until its runs have taken this much
        wall-clock time, as ``timeit`` does: 20 ms by default, so that sub-millisecond times
        are medians of many runs. 0 runs each search exactly ``repeat`` times.
    progress : callable, optional
        Called as ``progress(done, total)`` after each search (all its runs), ``total`` being
        boards times methods.

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
        Before any search, if a name, ``limits``, ``weight``, ``seed``, ``repeat``,
        ``min_seconds`` or ``progress`` is not valid.
    ComparisonInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``): its ``comparison`` holds the rows finished and the
        search it stopped, marked ``"interrupted"``.

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
        if isinstance(boards, (str, Board)) or is_packed_word(boards)
        else ordered(
            "a board or a collection of boards", boards, error=InvalidBoardError, most=MAX_LISTED
        )
    )
    if shape is not None:
        shape = check_shape(shape)
    elif goal is not None and any(is_packed_word(item) for item in items):
        shape = as_board(goal).shape  # packed boards take the goal's shape
    pairings = _methods(algorithms, heuristics)
    callback(progress, "progress(done, total)")
    check_weight(weight)
    seed = rng_or_seed(rng, seed)
    if isinstance(seed, np.random.Generator):
        seed = int(seed.integers(2**63))
    check_seed(seed)
    repeat = whole("repeat", repeat, low=1)
    min_seconds = real("min_seconds", min_seconds)
    if not 0 <= min_seconds <= 60:
        raise InvalidOptionError(f"expected min_seconds from 0 to 60, got {min_seconds!r}")
    starts = [as_board(item, shape) for item in items]
    pairs = [(board, as_goal(board, goal)) for board in starts]
    rows: list[Row] = []
    group: list[Row] = []
    done, total = 0, len(pairs) * len(pairings)
    name, current = "", ("", "")
    warm: set[tuple[str, str | None, Board]] = set()
    try:
        for board, target in pairs:
            name = board.to_string()
            group = []
            for algorithm, heuristic in pairings:
                current = (algorithm, heuristic or "")
                walk_seed = seed
                if algorithm == "random" and walk_seed is None:
                    walk_seed = int.from_bytes(os.urandom(8), "little")

                run = functools.partial(
                    search,
                    # Canonical names, resolved from the catalogues by _methods.
                    algorithm=cast(AlgorithmName, algorithm),
                    heuristic=cast(HeuristicName | None, heuristic),
                    limits=limits,
                    weight=weight if algorithm == "wastar" else None,
                    seed=walk_seed if algorithm == "random" else None,
                    # Every method on one thread, so that times and node counts compare.
                    workers=1,
                )
                if (algorithm, heuristic, target) not in warm:
                    warm.add((algorithm, heuristic, target))
                    run(target.apply(target.moves()[0]), target)
                try:
                    timed = _timed(functools.partial(run, board, target), repeat, min_seconds)
                except UnsolvableError:
                    # Every method of this board counts as done: none can run.
                    done += len(pairings) - len(group)
                    group = [Row(name, "", "", "unsolvable", None, None, 0, 0, 0, 0.0, runs=0)]
                    if progress is not None:
                        progress(done, total)
                    break
                group.append(_row(name, algorithm, heuristic, timed, limits))
                done += 1
                if progress is not None:
                    progress(done, total)
            rows.extend(_settled(group))
            group = []
    except KeyboardInterrupt as interrupt:
        stopped = Row(name, *current, "interrupted", None, None, 0, 0, 0, 0.0, runs=0)
        kept = Comparison((*rows, *_settled(group), stopped))
        raise ComparisonInterrupted(kept) from interrupt
    return Comparison(tuple(rows))
