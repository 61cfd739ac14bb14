"""What the puzzle page asks the server to do: checked requests, and searches run as jobs.

Every request is a JSON object checked here before any work starts (:class:`RequestError`
carries the message and the HTTP status the page shows). Searches and comparisons run on their
own thread as a :class:`Job`; the page polls it for progress and may stop it, which makes the
running search raise at its next check (the library's stop events, as for batches). An ended
job is kept until its page has fetched the end, then briefly; never more than
:data:`MAX_ENDED` of them, nor for more than :data:`MAX_AGE` seconds.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import logging
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any, cast

from fastpuzzle._core import _interrupt
from fastpuzzle._solver.heuristic_tables import not_ready
from fastpuzzle._solver.policy import HINT_AFTER_SECONDS, progress_hint
from fastpuzzle.algorithms import ALGORITHMS, AlgorithmName, resolve_algorithm
from fastpuzzle.board import MAX_CELLS, MAX_SIDE, Board
from fastpuzzle.compare import compare
from fastpuzzle.errors import FastPuzzleError, SearchLimitError, UnsolvableError
from fastpuzzle.generate import random_board, scramble
from fastpuzzle.heuristics import (
    CATALOGUE,
    HeuristicName,
    resolve_heuristic,
    supported_heuristics,
)
from fastpuzzle.limits import Limits
from fastpuzzle.results import AnytimeStats, SearchStats
from fastpuzzle.solve import ANYTIME, search, solve
from fastpuzzle.trace import MAX_TRACE_CELLS, TRACEABLE, trace_search

__all__ = [
    "Job",
    "Jobs",
    "RequestError",
    "catalogue",
    "new_board",
    "solve_request",
    "trace_request",
]

#: The longest a search started from the page may run, and the default.
MAX_SECONDS = 300.0
DEFAULT_SECONDS = 30.0
#: Memory any one search from the page may hold (node-storing searches stop there).
MEMORY_BYTES = 1 << 30
#: Optimal searches from the page: boards of at most this many cells (5x5).
MAX_OPTIMAL_CELLS = 25
#: The page's methods that are no entry of ALGORITHMS: ``solve(optimal=False)``, the
#: millisecond answer (its limits dropped) and the anytime solver (its limits kept: shorter
#: answers until they run out).
FAST = "fast"
#: Searches running at once, over every page.
MAX_RUNNING = 4
#: Methods one comparison may run.
MAX_METHODS = 30
#: Expansions one trace from the page records at most, per method (each is sent to the page:
#: 20,000 expansions are 1 to 1.5 MB of JSON, kept as text with the ended job).
MAX_TRACE_EXPANSIONS = 20_000
#: Ended jobs kept at most, over every page (the oldest ended go first): each holds its result,
#: a 100x100 board's moves included (megabytes).
MAX_ENDED = 16
#: Seconds an ended job is kept once its page has fetched the end (a poll already in flight may
#: ask again), and at most after it ended if no page fetches it (the page was closed).
FETCHED_GRACE = 10.0
MAX_AGE = 600.0


class RequestError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _field(
    body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None
) -> Any:
    value = body.get(name, default)
    if value is None and default is None:
        raise RequestError(f"expected {name!r} in the request")
    if isinstance(value, bool) and kind is not bool:
        raise RequestError(f"expected {name!r} to be a number, got {value!r}")
    if not isinstance(value, kind):
        raise RequestError(f"expected {name!r} of type {kind}, got {value!r}")
    return value


def _shape(body: dict[str, Any]) -> tuple[int, int]:
    rows = _field(body, "rows", int)
    cols = _field(body, "cols", int)
    if not (2 <= rows <= MAX_SIDE and 2 <= cols <= MAX_SIDE):
        raise RequestError(f"expected 2 to {MAX_SIDE} rows and columns, got {rows}x{cols}")
    return rows, cols


def _board(body: dict[str, Any], name: str, shape: tuple[int, int]) -> Board:
    tiles = body.get(name)
    if not isinstance(tiles, list) or len(tiles) != shape[0] * shape[1]:
        raise RequestError(f"expected {name!r}: a list of {shape[0] * shape[1]} tiles")
    try:
        return Board(tiles, shape=shape)
    except FastPuzzleError as error:
        raise RequestError(f"{name}: {error}") from None


def _goal(body: dict[str, Any], shape: tuple[int, int]) -> Board:
    return Board.goal(shape) if body.get("goal") is None else _board(body, "goal", shape)


def _limits(body: dict[str, Any]) -> Limits:
    seconds = _field(body, "seconds", (int, float), DEFAULT_SECONDS)
    if not 0 < seconds <= MAX_SECONDS:
        raise RequestError(f"expected seconds from 0 to {MAX_SECONDS:g}, got {seconds!r}")
    nodes = body.get("nodes")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise RequestError(f"expected nodes to be a positive whole number, got {nodes!r}")
    return Limits(seconds=float(seconds), nodes=nodes, memory_bytes=MEMORY_BYTES)


#: The largest board side the page's shape menu offers for the heuristics with tables: the
#: shapes checked for :func:`_unready` (tables reach 25 cells; walking distance any size).
_CHECKED_SIDE = 12


def _unready(entry: Any) -> dict[str, str]:
    """``{"RxC": why}`` for the shapes ``entry`` fits where a search would fail at once, its
    goal's blank in the last cell (:func:`fastpuzzle._solver.heuristic_tables.not_ready`)."""
    if entry.tables not in ("pdb", "walking"):
        return {}
    out: dict[str, str] = {}
    for rows in range(2, _CHECKED_SIDE + 1):
        for cols in range(2, _CHECKED_SIDE + 1):
            if not entry.fits((rows, cols)):
                continue
            why = not_ready(entry, (rows, cols), rows * cols - 1)
            if why is not None:
                out[f"{rows}x{cols}"] = why
    return out


def catalogue() -> dict[str, Any]:
    """The algorithms and heuristics the page offers: names and one-line help, from the
    library's registry and catalogue, and which heuristics each algorithm takes."""
    heuristics = [
        {
            "name": h.name,
            "doc": h.doc,
            "admissible": h.admissible,
            "shapes": h.shapes,
            "max_cells": h.max_cells,
            # The shapes it fits where it would fail at once (tables not built and that no
            # search builds, walking tables too large), and why: the page offers working
            # choices only (read anew each time the page loads its catalogue).
            "unready": _unready(h),
        }
        for h in CATALOGUE
    ]
    algorithms = []
    for algorithm in ALGORITHMS.values():
        usable = []
        if algorithm.informed:
            for h in CATALOGUE:
                try:
                    resolve_heuristic(h.name, algorithm)
                except FastPuzzleError:
                    continue
                usable.append(h.name)
        algorithms.append(
            {
                "name": algorithm.name,
                "doc": algorithm.doc,
                "optimal": algorithm.optimal,
                # The heuristics it computes on boards of up to 16 cells, and past 16: the page
                # offers those that also work on the board's shape (Heuristic.fits).
                "heuristics": usable,
                "heuristics_wide": list(
                    supported_heuristics(algorithm, MAX_CELLS + 1) if algorithm.informed else ()
                ),
                "max_cells": algorithm.max_cells,
            }
        )
    return {
        "algorithms": algorithms,
        "heuristics": heuristics,
        "max_seconds": MAX_SECONDS,
        "default_seconds": DEFAULT_SECONDS,
        "max_side": MAX_SIDE,
        "max_optimal_cells": MAX_OPTIMAL_CELLS,
        "traceable": list(TRACEABLE),
        "max_trace_cells": MAX_TRACE_CELLS,
        "max_trace_expansions": MAX_TRACE_EXPANSIONS,
    }


def new_board(body: dict[str, Any]) -> dict[str, Any]:
    """A uniformly random solvable board, or the goal scrambled by ``moves`` random moves."""
    shape = _shape(body)
    goal = _goal(body, shape)
    kind = body.get("kind", "random")
    if kind == "random":
        board = random_board(shape, goal=goal)
    elif kind == "scramble":
        moves = _field(body, "moves", int, 20)
        if not 0 <= moves <= 1_000_000:
            raise RequestError(f"expected 0 to 1,000,000 moves, got {moves}")
        board = scramble(goal, moves)
    else:
        raise RequestError(f"expected kind 'random' or 'scramble', got {kind!r}")
    return {"tiles": list(board.tiles), "solvable": True}


def check_board(body: dict[str, Any]) -> dict[str, Any]:
    """Whether a board (typed by hand) is valid, and solvable towards the goal."""
    shape = _shape(body)
    board = _board(body, "board", shape)
    goal = _goal(body, shape)
    return {"tiles": list(board.tiles), "solvable": board.is_solvable(goal)}


class _JobNotes(logging.Handler):
    """The library's log records made on one job's thread (a table built on first use: its
    start, each group, its end) as the job's ``progress["note"]``, which the page shows in
    place of a count that would stand still meanwhile."""

    def __init__(self, job: Job, thread: int) -> None:
        super().__init__(logging.INFO)
        self.job = job
        self.thread = thread

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            # The note replaces the counts of a search that ran before the build (they stand
            # still meanwhile); the search's next report replaces the note.
            kept = {key: value for key, value in self.job.progress.items() if key == "hint"}
            self.job.progress = {**kept, "note": record.getMessage()}


@contextlib.contextmanager
def _notes_of(job: Job) -> Iterator[None]:
    """Collect the notes of ``job``, whose work runs on this thread, while the block runs."""
    logger = logging.getLogger("fastpuzzle")
    if logger.getEffectiveLevel() > logging.INFO:
        # The page's server is the program here: it wants the library's INFO records (no
        # handler of its own prints them; Python's last resort shows warnings only).
        logger.setLevel(logging.INFO)
    handler = _JobNotes(job, threading.get_ident())
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


@dataclass
class Job:
    """One search or comparison started from a page, run on its own thread."""

    id: str
    page: str
    kind: str
    stop: threading.Event = field(default_factory=threading.Event)
    state: str = "running"  # running, done, stopped, failed
    progress: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    started: float = field(default_factory=time.monotonic)
    thread: threading.Thread | None = None
    ended: float | None = None  # time.monotonic() when it ended
    fetched: float | None = None  # when its page first fetched the end

    def view(self) -> dict[str, Any]:
        """What the page polls: the state, the latest progress and, once ended, the result."""
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "progress": self.progress,
            "result": self.result,
            "seconds": time.monotonic() - self.started,
        }


def solve_request(body: dict[str, Any]) -> tuple[Board, Board, dict[str, Any]]:
    """The board, goal and ``solve()`` options of a solve request, every one checked."""
    shape = _shape(body)
    board = _board(body, "board", shape)
    goal = _goal(body, shape)
    algorithm = body.get("algorithm", "auto")
    heuristic = body.get("heuristic", "auto")
    if not isinstance(algorithm, str) or not isinstance(heuristic, str):
        raise RequestError("expected algorithm and heuristic names")
    optimal = algorithm not in (FAST, ANYTIME)
    if optimal and shape[0] * shape[1] > MAX_OPTIMAL_CELLS:
        raise RequestError(
            f"optimal searches from the page take boards of up to {MAX_OPTIMAL_CELLS} cells; "
            "choose 'fast' or 'anytime' (not guaranteed shortest) for this board"
        )
    limits = _limits(body)
    if algorithm == FAST:
        # 'fast' stays the millisecond answer: under a time or node limit, boards past 16 cells
        # spend all of it shortening the answer, which is what 'anytime' is for.
        limits = replace(limits, seconds=None, nodes=None)
    options: dict[str, Any] = {"limits": limits, "optimal": optimal}
    if optimal:
        try:
            if algorithm != "auto":
                chosen = resolve_algorithm(algorithm)
                options["algorithm"] = chosen.name
                if heuristic != "auto":
                    options["heuristic"] = resolve_heuristic(heuristic, chosen, shape=shape).name
                if chosen.name == "random":
                    options["seed"] = int(time.time_ns() % (1 << 32))
            elif heuristic != "auto":
                options["heuristic"] = heuristic
        except FastPuzzleError as error:
            raise RequestError(str(error)) from None
    return board, goal, options


def solve_hint(board: Board, goal: Board, options: dict[str, Any]) -> str | None:
    """What would make this solve request faster (a table to build), or None: only optimal IDA*
    with pattern databases (what ``auto`` picks on 4x4) has a stronger table to build."""
    if not options["optimal"] or options.get("algorithm", "idastar") != "idastar":
        return None
    if options.get("heuristic", "pdb") != "pdb":
        return None
    return progress_hint(board.shape, goal.blank)


def progress_view(stats: SearchStats, hint: str | None) -> dict[str, Any]:
    """A search's progress as the page polls it, with ``hint`` once it has run for a while; the
    anytime solver's (:class:`~fastpuzzle.results.AnytimeStats`) with its best length so far
    (``depth``), ``lower_bound`` and ``gap``."""
    view = asdict(stats)
    if isinstance(stats, AnytimeStats):
        view["gap"] = _finite(stats.gap)
    if hint is not None and stats.seconds >= HINT_AFTER_SECONDS:
        view["hint"] = hint
    return view


def _finite(value: float) -> float | None:
    """``value``, or None where JSON has no number for it (an infinite gap)."""
    return value if math.isfinite(value) else None


def compare_request(body: dict[str, Any]) -> tuple[Board, Board, list[tuple[str, str]], Limits]:
    """The board, goal, methods and limits of a comparison, every one checked."""
    shape = _shape(body)
    if shape[0] * shape[1] > 16:
        raise RequestError("comparisons run the classic searches: boards of up to 16 cells")
    board = _board(body, "board", shape)
    goal = _goal(body, shape)
    checked = [(name, heuristic or "") for name, heuristic in _methods(body, shape, MAX_METHODS)]
    return board, goal, checked, _limits(body)


def _methods(
    body: dict[str, Any], shape: tuple[int, int], most: int
) -> list[tuple[str, str | None]]:
    # The request's methods, 1 to `most` of them, as [algorithm, heuristic] pairs: canonical
    # names, the heuristic None for a search that takes none (Manhattan when none is given).
    methods = body.get("methods")
    if not isinstance(methods, list) or not 1 <= len(methods) <= most:
        raise RequestError(f"expected 1 to {most} methods")
    checked = []
    for method in methods:
        if not (isinstance(method, list) and len(method) == 2):
            raise RequestError(f"expected each method as [algorithm, heuristic], got {method!r}")
        name, heuristic = method
        try:
            algorithm = resolve_algorithm(name)
            if algorithm.informed:
                heuristic = resolve_heuristic(heuristic or "manhattan", algorithm, shape=shape).name
            else:
                heuristic = None
        except (FastPuzzleError, TypeError) as error:
            raise RequestError(str(error)) from None
        checked.append((algorithm.name, heuristic))
    return checked


def trace_request(
    body: dict[str, Any],
) -> tuple[Board, Board, list[tuple[str, str | None]], int]:
    """The board, goal, one or two methods and the expansion limit of a trace, every one
    checked (an unsolvable board is refused here: a trace of it would only stop at the limit)."""
    shape = _shape(body)
    if shape[0] * shape[1] > MAX_TRACE_CELLS:
        raise RequestError(f"traces take boards of up to {MAX_TRACE_CELLS} cells")
    board = _board(body, "board", shape)
    goal = _goal(body, shape)
    if not board.is_solvable(goal):
        raise RequestError("this board is not solvable: it cannot reach the goal")
    checked = _methods(body, shape, 2)
    for name, _ in checked:
        if name not in TRACEABLE:
            raise RequestError(f"traces follow {', '.join(TRACEABLE)}; got {name!r}")
    nodes = body.get("nodes", MAX_TRACE_EXPANSIONS)
    if (
        isinstance(nodes, bool)
        or not isinstance(nodes, int)
        or not 1 <= nodes <= MAX_TRACE_EXPANSIONS
    ):
        raise RequestError(f"expected nodes from 1 to {MAX_TRACE_EXPANSIONS:,}, got {nodes!r}")
    return board, goal, checked, nodes


class Jobs:
    """The jobs of every page: at most one running per page, :data:`MAX_RUNNING` in all.

    Parameters
    ----------
    max_ended : int
        Ended jobs kept at most (:data:`MAX_ENDED`).
    fetched_grace : float
        Seconds an ended job is kept after its end was fetched (:data:`FETCHED_GRACE`).
    max_age : float
        Seconds an ended job is kept at most (:data:`MAX_AGE`).
    """

    def __init__(
        self,
        max_ended: int = MAX_ENDED,
        fetched_grace: float = FETCHED_GRACE,
        max_age: float = MAX_AGE,
    ) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._ids = itertools.count(1)
        self.max_ended = max_ended
        self.fetched_grace = fetched_grace
        self.max_age = max_age

    def __len__(self) -> int:
        """The number of jobs kept, running or ended."""
        with self._lock:
            return len(self._jobs)

    def _drop_ended(self) -> None:
        # Called with the lock held, on every start and fetch: no thread of its own is needed,
        # and what is kept is bounded by max_ended + MAX_RUNNING whatever the timing.
        now = time.monotonic()
        ended = []
        for job in list(self._jobs.values()):
            if job.ended is None:
                continue
            fetched_long_ago = job.fetched is not None and now - job.fetched >= self.fetched_grace
            if fetched_long_ago or now - job.ended >= self.max_age:
                del self._jobs[job.id]
            else:
                ended.append(job)
        ended.sort(key=lambda job: job.ended or 0.0)
        for job in ended[: max(0, len(ended) - self.max_ended)]:
            del self._jobs[job.id]

    def _start(self, page: str, kind: str, work: Any) -> Job:
        with self._lock:
            self._drop_ended()
            running = [job for job in self._jobs.values() if job.state == "running"]
            if any(job.page == page for job in running):
                raise RequestError("this page already has a search running: stop it first", 409)
            if len(running) >= MAX_RUNNING:
                raise RequestError("the server is busy with other searches", 429)
            # Ended jobs of this page are dropped: a page keeps only its latest.
            for old in [key for key, job in self._jobs.items() if job.page == page]:
                del self._jobs[old]
            job = Job(f"job-{next(self._ids)}", page, kind)
            self._jobs[job.id] = job

        def run() -> None:
            try:
                with _notes_of(job):
                    job.result = _interrupt.run_stoppable(job.stop, work, job)
                job.state = "done"
            except KeyboardInterrupt:
                job.state = "stopped"
                job.result = {"status": "stopped", "message": "stopped from the page"}
            except Exception as error:  # reported to the page, never a dead server thread
                job.state = "failed"
                job.result = {"status": "error", "message": f"{type(error).__name__}: {error}"}
            finally:
                job.ended = time.monotonic()

        job.thread = threading.Thread(target=run, name=f"fastpuzzle-gui-{job.id}", daemon=True)
        job.thread.start()
        return job

    def get(self, job_id: str) -> Job:
        """The job with this id."""
        with self._lock:
            self._drop_ended()
            job = self._jobs.get(job_id)
        if job is None:
            raise RequestError(f"no job {job_id!r}", 404)
        return job

    def view(self, job_id: str) -> dict[str, Any]:
        """What the page polls of the job with this id; an ended job's end counts as fetched."""
        job = self.get(job_id)
        view = job.view()
        if view["state"] != "running" and job.fetched is None:  # the page has its result
            job.fetched = time.monotonic()
        return view

    def stop_all(self, wait: float = 5.0) -> None:
        """Stop every running job and wait up to ``wait`` seconds for them."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.stop.set()
        deadline = time.monotonic() + wait
        for job in jobs:
            if job.thread is not None:
                job.thread.join(max(0.0, deadline - time.monotonic()))

    def solve(self, page: str, body: dict[str, Any]) -> Job:
        """Start a search for a solve request."""
        board, goal, options = solve_request(body)
        hint = solve_hint(board, goal, options)

        def work(job: Job) -> dict[str, Any]:
            def progress(stats: SearchStats) -> None:
                job.progress = progress_view(stats, hint)

            try:
                solution = solve(
                    board,
                    goal,
                    # The millisecond answer reports nothing worth a poll.
                    progress=None
                    if options["limits"].seconds is None and not options["optimal"]
                    else progress,
                    workers=None if options.get("algorithm", "auto") in ("auto", "idastar") else 1,
                    **options,
                )
            except UnsolvableError as error:
                return {"status": "unsolvable", "message": str(error)}
            except SearchLimitError as error:
                return {
                    "status": "limit",
                    "message": str(error),
                    "stats": asdict(error.stats) if error.stats is not None else None,
                }
            except FastPuzzleError as error:
                return {"status": "error", "message": str(error)}
            return {
                "status": "solved",
                "moves": solution.moves,
                "length": len(solution),
                "optimal": solution.optimal,
                "lower_bound": solution.lower_bound,
                "gap": _finite(solution.gap),
                "algorithm": solution.algorithm,
                "heuristic": solution.heuristic,
                "stats": asdict(solution.stats),
            }

        return self._start(page, "solve", work)

    def compare(self, page: str, body: dict[str, Any]) -> Job:
        """Start a comparison of several methods on one board."""
        board, goal, methods, limits = compare_request(body)

        def work(job: Job) -> dict[str, Any]:
            def progress(done: int, total: int) -> None:
                job.progress = {"searches_done": done, "searches": total}

            names = [f"{name}+{h}" if h else name for name, h in methods]
            table = compare([board], names, goal=goal, limits=limits, progress=progress)
            return {
                "status": "done",
                "rows": table.to_records(),
                "text": str(table),
                **_plot(table),
            }

        return self._start(page, "compare", work)

    def trace(self, page: str, body: dict[str, Any]) -> Job:
        """Start tracing one or two searches on one board (:mod:`fastpuzzle.trace`), each
        beside the compiled search's own count and time under the same node limit."""
        board, goal, methods, nodes = trace_request(body)

        def work(job: Job) -> dict[str, Any]:
            traces = []
            for done, (algorithm, heuristic) in enumerate(methods):
                job.progress = {"traces_done": done, "traces": len(methods)}
                trace = trace_search(
                    board, algorithm, heuristic=heuristic, goal=goal, max_expansions=nodes
                )
                compiled = search(
                    board,
                    goal,
                    # The page's names, checked as search() checks any caller's.
                    algorithm=cast(AlgorithmName, algorithm),
                    heuristic=cast(HeuristicName | None, heuristic),
                    limits=Limits(nodes=nodes, memory_bytes=MEMORY_BYTES),
                )
                traces.append(
                    {
                        **trace.to_json(),
                        "compiled": {
                            "status": compiled.status.value,
                            "expanded": compiled.stats.expanded,
                            "generated": compiled.stats.generated,
                            "seconds": compiled.stats.seconds,
                        },
                    }
                )
            # Kept as JSON text until the page fetches it: a fifth of the memory the lists of
            # two 20,000-expansion traces hold (about 3 MB against 16 MB).
            return {"status": "done", "traces_json": json.dumps(traces, separators=(",", ":"))}

        return self._start(page, "trace", work)


def _plot(table: Any) -> dict[str, Any]:
    # The same bar chart as Comparison.plot, as SVG text (matplotlib, the ``plot`` extra).
    try:
        from matplotlib.figure import Figure  # the plot extra, loaded when a chart is asked for
    except ImportError:
        return {"plot_message": "the plot needs matplotlib: pip install 'fastpuzzle[plot]'"}
    figure = Figure(figsize=(9, 4), constrained_layout=True)
    table.plot(ax=figure.add_subplot())
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")
    return {"plot_svg": buffer.getvalue()}
