"""The ``fastpuzzle`` command (also ``python -m fastpuzzle``).

Moves are printed as U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import json
import logging
import os
import sys
import textwrap
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TextIO

import numpy as np

from fastpuzzle import quickbench
from fastpuzzle._pdb_command import add_pdb_command
from fastpuzzle._solver import policy
from fastpuzzle._util.checks import MAX_LISTED, shown
from fastpuzzle._util.files import atomic_writer, unwritable_file
from fastpuzzle._util.optional import require
from fastpuzzle._util.plot import METRICS
from fastpuzzle._util.progress import Throttle, fit_line, on_terminal
from fastpuzzle._util.units import duration
from fastpuzzle._version import __version__
from fastpuzzle.algorithms import ALGORITHMS
from fastpuzzle.batch import BatchInterrupted, solve_many
from fastpuzzle.batch.export import arrow_table
from fastpuzzle.batch.store import batch_lock, foreign_entries, join_chunks, remove_batch_files
from fastpuzzle.board import Board, check_shape
from fastpuzzle.compare import Comparison, ComparisonInterrupted, compare, methods
from fastpuzzle.errors import (
    FastPuzzleError,
    FastPuzzleWarning,
    InvalidBoardError,
    SearchLimitError,
    UnsolvableError,
)
from fastpuzzle.formats import FORMATS, Format, Job, decode_text, read_jobs, read_packed
from fastpuzzle.generate import MAX_SCRAMBLE, random_board, scramble
from fastpuzzle.gui import serve
from fastpuzzle.heuristics import heuristic_names
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchStats, Solution
from fastpuzzle.solve import solve

__all__ = ["build_parser", "main"]

NOT_SOLVABLE = "This puzzle is not solvable."

#: How boards are read (``solve`` and ``compare``); the rules of :mod:`fastpuzzle.formats`.
INPUT_RULES = """\
input: each argument is one board, or a file of boards ('-': standard input); a file and
standard input are a stream of boards (UTF-8, with or without a BOM, or UTF-16):
  - a line with '/' is one board ("1 2 3/4 5 6/7 8 _"), as 'random' and 'scramble' print them;
  - a line of a square number of tiles (9, 16, ...; rows*cols with --shape) is one board;
  - n lines of n numbers in a row are one n x n board written as rows (--shape R C: R lines of
    C numbers); where that could be read both ways (4 lines of 4 numbers: one 4x4 board or four
    2x2 boards) the reading whose boards hold valid tiles is taken, and where neither does the
    input is refused: add --format rows or --format lines;
  - a first line holding one number N announces N boards.
  Start and goal boards in pairs (start, goal, start, goal, ...) are read only with
  --format pair (or give one --goal for all).
  0 or _ is the blank.
"""

#: Each command's exit statuses, the end of its ``--help``.
EXIT_STATUS = {
    "solve": "0 every board solved; 1 some board not solvable or stopped by a limit; 2 usage or "
    "input error (a bad board costs only itself: the others are solved); 130 interrupted",
    "compare": "0 the table printed (boards that were not solved are rows of it); 2 usage or "
    "input error; 130 interrupted (the rows finished are written first, the search stopped "
    "marked 'interrupted')",
    "batch": "0 every board solved; 1 some board not solvable or stopped by a limit; 2 usage or "
    "input error; 130 interrupted (with --out, go on with --resume)",
    "gui": "0 the server stopped (Ctrl-C); 2 usage error, or the address cannot be listened on",
    "bench": "0 the table printed; 2 usage error; 130 interrupted",
    "random": "0 the boards printed (also when the reader stops early: | head); 2 usage error; "
    "130 interrupted",
    "scramble": "0 the boards printed (also when the reader stops early: | head); 2 usage error; "
    "130 interrupted",
    "pdb": "0 done (clear: also when nothing by that name is built, or the question is "
    "answered no); 2 usage error, or a database that cannot be built or written; 130 interrupted",
}


def _epilog(command: str, rules: str = "") -> str:
    """``rules`` then the exit statuses of ``command``, wrapped for ``--help``."""
    status = textwrap.fill(
        f"exit status: {EXIT_STATUS[command]}.", width=96, subsequent_indent="  "
    )
    return f"{rules}\n{status}\n" if rules else f"{status}\n"


class UsageError(ValueError):
    """A command-line mistake: one line on stderr, exit status 2."""


#: The library's words for its options, and the command line's (the longest first).
CLI_WORDS = (
    ("limits=Limits(seconds=...)", "--time-limit SECONDS"),
    ("solve(board, optimal=False)", "fastpuzzle solve --fast"),
    ("optimal=False", "--fast"),
    ("shape=(rows, cols)", "--shape ROWS COLS"),
    ("from shape=", "from --shape"),
    ("got shape=", "got --shape "),
    ("Limits.seconds", "--time-limit"),
    ("Limits.nodes", "--node-limit"),
    ("Limits.memory_bytes", "--memory-limit"),
    ("Limits.max_depth", "--max-depth"),
    ("algorithm='greedy'", "--algorithm greedy"),
    (" or None (no limit)", ""),
    ("heuristic=", "--heuristic "),
    ("workers=", "--workers "),
    ("prune=", "--prune "),
    ("expected a weight from", "--weight expected a number from"),
    ("weight=", "--weight "),
    ("seed=", "--seed "),
)


def _cli_words(message: str) -> str:
    """``message`` of the library, one line, with the command line's option names."""
    for python, cli in CLI_WORDS:
        message = message.replace(python, cli)
    return " ".join(message.split())


def _error(message: object) -> None:
    print(f"fastpuzzle: error: {_cli_words(str(message))}", file=sys.stderr)


def _shape(args: argparse.Namespace) -> tuple[int, int] | None:
    """``--shape``, checked before anything is read (a shape of 0 rows read as none, and one
    past a C long was a traceback from the compiled reader)."""
    if args.shape is None:
        return None
    try:
        return check_shape((args.shape[0], args.shape[1]))
    except InvalidBoardError as error:
        raise UsageError(f"--shape: {error}") from None


def _read_boards(
    text: str, args: argparse.Namespace, *, pairs: bool = True, source: str = ""
) -> list[Job]:
    """The boards of ``text``; each line that is not one is reported on stderr by number (after
    ``source``, the file's name, when given) and counted in ``args.bad_lines``: it costs only
    itself, the exit status says. ``pairs=False``: boards whose pairs the caller makes (``-``
    among arguments)."""
    bad: list[tuple[int, str]] = []
    fmt: Format = args.format if pairs or args.format != "pair" else "auto"
    try:
        jobs = read_jobs(text, shape=_shape(args), fmt=fmt, bad_lines=bad)
    except InvalidBoardError as error:
        if not source:
            raise
        raise InvalidBoardError(f"{source}: {error}") from None
    _report_bad_lines(bad, args, source)
    return jobs


def _report_bad_lines(
    bad: list[tuple[int, str]], args: argparse.Namespace, source: str = ""
) -> None:
    """Each ``(line number, why)`` of ``bad`` on stderr, counted in ``args.bad_lines``."""
    for number, why in bad:
        where = "" if why.startswith(f"line {number} ") else f"line {number}: "
        _error(f"{source}: {where}{why}" if source else f"{where}{why}")
    args.bad_lines = getattr(args, "bad_lines", 0) + len(bad)


def _file_text(path: str) -> str:
    """The text of the file of boards at ``path``, in whichever encoding it came
    (:func:`~fastpuzzle.formats.decode_text`); no line over :data:`MAX_LINE`."""
    with open(path, "rb") as stream:
        return decode_text(_read_text(stream, repr(path)), name=path)


def _names_a_file(text: str, args: argparse.Namespace) -> bool:
    """Whether the board argument ``text`` is the name of a file to read rather than a board:
    it is not a board, and something that is not a folder is there under its name (a FIFO,
    such as ``<(command)``, is read too)."""
    if text == "-" or not os.path.exists(text) or os.path.isdir(text):
        return False
    try:
        Board(text, shape=_shape(args))
    except InvalidBoardError:
        return True
    return False


def _stdin_text(what: str) -> str:
    """Standard input, read for ``what`` (``'-'``: the argument that asked for it)."""
    if sys.stdin is None:
        raise UsageError(f"{what}: standard input is closed, so there are no boards to read")
    if sys.stdin.isatty():
        raise UsageError(
            f"{what}: expected boards on standard input, but it is a terminal; pipe boards in "
            "or give a file or boards as arguments"
        )
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream put in its place (tests, embedding programs)
        return str(_read_text(sys.stdin, what))
    # Bytes, so that UTF-16 (PowerShell's pipes and '>') and a BOM are read too.
    return decode_text(_read_text(stream, what), name="standard input")


#: The longest line the commands read, in characters (bytes, read before decoding): a 100x100
#: board on one line takes about 50,000; a longer one is no board, and reading on
#: (``/dev/zero``) would grow without end.
MAX_LINE = 1 << 20


def _read_text(stream: Any, what: str) -> Any:
    """The contents of ``stream`` (text or bytes, as it gives them), read in blocks; refused at
    a line of over :data:`MAX_LINE` characters (or bytes)."""
    parts: list[Any] = []
    since = 0  # characters (or bytes) since the last newline
    while True:
        block = stream.read(MAX_LINE)
        if not block:
            return block[:0].join(parts)
        newline = "\n" if isinstance(block, str) else b"\n"
        first = block.find(newline)
        longest = since + (len(block) if first < 0 else first)
        since = len(block) - block.rfind(newline) - 1 if first >= 0 else longest
        if longest > MAX_LINE:
            line = sum(part.count(newline) for part in parts) + 1
            raise UsageError(
                f"{what}: line {line:,} is longer than {MAX_LINE:,} characters, which no board "
                "is; stopped reading there"
            )
        parts.append(block)


def _argument_jobs(args: argparse.Namespace) -> list[Job]:
    """Each argument is one board (``-``: the boards of standard input, read as a stream);
    with ``--format pair`` they go start, goal, start, goal."""
    if args.board == ["-"]:  # standard input alone: read as without arguments
        return _read_boards(_stdin_text("board argument 1 '-'"), args)
    if len(args.board) == 1 and _names_a_file(args.board[0], args):  # a file alone: the same
        return _read_boards(_file_text(args.board[0]), args, source=args.board[0])
    if len(args.board) > 1 and all(text.strip().isdigit() or text == "_" for text in args.board):
        raise UsageError(
            f"each board argument is one board, got {len(args.board)} arguments of one tile "
            f'each: quote the tiles of a board ("{" ".join(args.board[:9])}")'
        )
    boards: list[Board] = []
    for number, text in enumerate(args.board, 1):
        if text == "-":
            boards += [
                job.board
                for job in _read_boards(
                    _stdin_text(f"board argument {number} '-'"), args, pairs=False
                )
            ]
            continue
        if _names_a_file(text, args):
            boards += [
                job.board for job in _read_boards(_file_text(text), args, pairs=False, source=text)
            ]
            continue
        try:
            boards.append(Board(text, shape=_shape(args)))
        except InvalidBoardError as error:
            # A name with no spaces was perhaps meant as a file: say there is none.
            missing = " (nor a file: none has that name)" if text and " " not in text else ""
            _error(f"board argument {number}: {error}{missing}")
            args.bad_lines += 1
    if args.format != "pair":
        return [Job(board) for board in boards]
    if len(boards) % 2:
        raise UsageError(
            f"--format pair expects a start board then a goal board for each puzzle, got "
            f"{len(boards)} boards (an odd number)"
        )
    jobs = []
    for start, goal in zip(boards[::2], boards[1::2]):
        if goal.shape != start.shape:
            raise UsageError(
                f"--format pair: the goal {_size(goal)} does not match its start {_size(start)}"
            )
        jobs.append(Job(start, goal))
    return jobs


def _size(board: Board) -> str:
    return f"{board.shape[0]}x{board.shape[1]}"


def _jobs(args: argparse.Namespace) -> list[Job]:
    args.bad_lines = 0
    if args.board:
        jobs = _argument_jobs(args)
    elif sys.stdin is not None and sys.stdin.isatty():
        raise UsageError(
            "expected boards as arguments or on standard input, e.g. "
            'fastpuzzle solve "1 2 3/4 5 6/7 _ 8" (see fastpuzzle solve --help)'
        )
    else:
        jobs = _read_boards(_stdin_text(args.command), args)
    # `is not None`: an empty --goal '' is a mistake to report, not the default goal.
    if args.goal is not None:
        return [Job(job.board, _goal(args, job.board)) for job in jobs]
    return jobs


def _goal(args: argparse.Namespace, board: Board) -> Board:
    """``--goal`` read for ``board``: its shape, else a one-line error naming both sizes."""
    try:
        try:
            goal = Board(args.goal, shape=_shape(args))
        except InvalidBoardError:
            if _shape(args) is not None:
                raise
            # A line of tiles that is not square: read it at the board's shape.
            goal = Board(args.goal, shape=board.shape)
    except InvalidBoardError as error:
        raise UsageError(f"--goal: {error}") from None
    if goal.shape != board.shape:
        raise UsageError(
            f"--goal is a {_size(goal)} board, but board {board.to_string()!r} is {_size(board)}"
        )
    return goal


def _limits(args: argparse.Namespace) -> Limits | None:
    # None when no limit is given, so solve() keeps its own default (a time cap past 16 cells).
    given = {
        "seconds": args.time_limit,
        "nodes": args.node_limit,
        "memory_bytes": args.memory_limit,
        "max_depth": args.max_depth,
    }
    if all(value is None for value in given.values()):
        return None
    return Limits(**given)


def _integer(text: str) -> int:
    """An integer argument, in ASCII: int() would also read other scripts' digits ('٣' as 3)."""
    if text.isascii():
        try:
            return int(text)
        except ValueError:  # not a number, or past int()'s 4,300 digits
            pass
    raise argparse.ArgumentTypeError(f"expected an integer, got {shown(text, 40)}")


def _number(text: str) -> float:
    """A number argument, in ASCII: float() would also read other scripts' digits."""
    if text.isascii():
        try:
            return float(text)
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(f"expected a number, got {shown(text, 40)}")


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer argument from ``low`` to ``high`` (None: no upper end)."""

    def read(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            span = f"from {low:,} to {high:,}" if high is not None else f"of {low:,} or more"
            raise argparse.ArgumentTypeError(f"expected a whole number {span}, got {value}")
        return value

    return read


def _seconds(*, zero: bool, most: float | None = None) -> Callable[[str], float]:
    """A number of seconds: positive (or, with ``zero``, not negative), finite, up to ``most``."""

    def read(text: str) -> float:
        value = _number(text)
        if not (value >= 0 if zero else value > 0) or value == float("inf"):
            which = "of 0 or more" if zero else "above 0"
            raise argparse.ArgumentTypeError(
                f"expected a finite number of seconds {which}, got {shown(text, 40)}"
            )
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"expected at most {most:g} seconds, got {value:g}")
        return value

    return read


def _bytes(text: str) -> int:
    """``"500M"``, ``"2G"``, ``"1048576"``: bytes, with an optional K, M or G (powers of 2)."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    number, unit = (text[:-1], text[-1].upper()) if text[-1:].isalpha() else (text, "")
    if (not unit or unit in units) and number.isascii() and number.isdigit():
        try:
            return int(number) * units.get(unit, 1)
        except ValueError:  # past int()'s 4,300 digits
            pass
    raise argparse.ArgumentTypeError(f"expected bytes such as 500M or 2G, got {shown(text, 40)}")


def _animate(solution: Solution, delay: float) -> None:
    frames = solution.boards()
    # Clearing the screen only makes sense on a terminal; elsewhere the frames follow each other.
    clear = "\x1b[2J\x1b[H" if sys.stdout.isatty() else "\n"
    for step, board in enumerate(frames):
        move = f"  move {step}/{len(solution)}: {solution.moves[step - 1]}" if step else "  start"
        sys.stdout.write(clear + str(board) + "\n" + move + "\n")
        sys.stdout.flush()
        time.sleep(delay)


#: A 4x4 search without the best tables that runs this long says how to make it faster.
HINT_AFTER_SECONDS = policy.HINT_AFTER_SECONDS


def _shows_progress(args: argparse.Namespace) -> bool:
    """Whether ``solve`` draws its progress: ``--progress``, or by default when stderr is a
    terminal (a long optimal search is not silent there); never with ``--no-progress``."""
    return bool(args.progress) or (args.progress is None and on_terminal())


class _SolveLine:
    """The progress of one solve: one line on stderr, rewritten in place on a terminal (one
    line per report elsewhere), so long optimal searches say how far they got; past
    :data:`HINT_AFTER_SECONDS`, a line naming the table that would make it faster, if any.

    Reports come as often as the search makes them (hundreds a second); a line is drawn at most
    ten times a second on a terminal and once a second elsewhere (:class:`Throttle`, on the
    search's clock). It counts expanded nodes, as the solution's line does. On a terminal the
    line is cleared once the search ends (the hint, on a line of its own, stays), so a solve
    shows the same lines whether or not it drew its progress."""

    def __init__(self, job: Job, args: argparse.Namespace) -> None:
        self.hint = None
        optimal_pdb = args.algorithm in ("auto", "idastar") and args.heuristic in ("auto", "pdb")
        if optimal_pdb and not args.fast:
            goal = job.goal if job.goal is not None else Board.goal(job.board.shape)
            self.hint = policy.faster_table_hint(job.board.shape, goal.blank)
        self.terminal = on_terminal()
        self.throttle = Throttle()
        self.drawn = False

    def show(self, stats: SearchStats) -> None:
        """Draw the report ``stats`` (when due)."""
        if self.hint is not None and stats.seconds >= HINT_AFTER_SECONDS:
            # Once, on a line of its own that the next report does not overwrite.
            line = f"  hint: {self.hint}"
            sys.stderr.write((fit_line(line).rstrip() if self.terminal else line) + "\n")
            self.hint = None
        elif not self.throttle.due(stats.seconds):
            return
        text = f"  bound {stats.depth}, {stats.expanded:,} expanded, {duration(stats.seconds)}"
        sys.stderr.write(fit_line(text) if self.terminal else f"{text}\n")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        """End the display: a terminal's line is cleared."""
        if self.drawn and self.terminal:
            sys.stderr.write(fit_line("") + "\r")
            sys.stderr.flush()


def _progress_printer(job: Job, args: argparse.Namespace) -> Callable[[SearchStats], None]:
    """The ``progress`` of one solve (:class:`_SolveLine`)."""
    return _SolveLine(job, args).show


def _cmd_solve(args: argparse.Namespace) -> int:
    if args.fast and (args.algorithm != "auto" or args.heuristic != "auto"):
        raise ValueError("--fast picks its own method: pass no --algorithm or --heuristic")
    if args.fast and args.scheduler:
        raise ValueError("--fast runs on one thread: pass no --scheduler")
    with _scheduler_client(args.scheduler) as client:
        return _solve_jobs(args, client)


@contextlib.contextmanager
def _scheduler_client(address: str | None) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address`` for the block (None without one)."""
    if not address:
        yield None
        return
    distributed = require("distributed", "--scheduler", "dask")
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise ValueError(f"--scheduler {address}: no Dask scheduler answered ({error})") from None
    with client:
        yield client


def _solve_jobs(args: argparse.Namespace, client: Any) -> int:
    status = 0
    jobs = _jobs(args)
    for number, job in enumerate(jobs, 1):
        if len(jobs) > 1 and not args.json:
            # Which board the lines below are about (a bad line costs only itself, so the
            # order of the input alone cannot say).
            towards = "" if job.goal is None else f" (goal {job.goal.to_string()})"
            print(f"board {number} of {len(jobs)}: {job.board.to_string()}{towards}")
        started = time.perf_counter()
        line = _SolveLine(job, args) if _shows_progress(args) else None
        record: dict[str, Any] = {"board": job.board.to_string()}
        if job.goal is not None:
            record["goal"] = job.goal.to_string()
        try:
            try:
                solution = solve(
                    job.board,
                    job.goal,
                    algorithm=args.algorithm,
                    heuristic=args.heuristic,
                    limits=_limits(args) if not args.fast else Limits(seconds=args.time_limit),
                    progress=None if line is None else line.show,
                    weight=args.weight,
                    seed=args.seed,
                    optimal=not args.fast,
                    workers=1 if args.fast else args.workers,
                    client=client,
                    prune=args.prune,
                )
            finally:
                if line is not None:
                    line.close()
        except UnsolvableError:
            status = max(status, 1)
            record.update(status="unsolvable", moves=None)
            print(json.dumps(record) if args.json else NOT_SOLVABLE)
            continue
        except SearchLimitError as error:
            status = max(status, 1)
            record.update(status="limit", message=_cli_words(str(error)), moves=None)
            print(json.dumps(record) if args.json else f"No solution: {record['message']}")
            continue
        elapsed = time.perf_counter() - started
        if args.json:
            record.update(
                status="solved",
                moves=solution.moves,
                length=len(solution),
                optimal=solution.optimal,
                algorithm=solution.algorithm,
                heuristic=solution.heuristic,
                stats=dataclasses.asdict(solution.stats),
            )
            print(json.dumps(record))
            continue
        if args.show:
            print(solution.steps())
        if args.animate:
            _animate(solution, args.delay)
        # Every move (str(solution) cuts long ones), then the line of figures.
        stats = solution.stats
        kind = "optimal" if solution.optimal else "not guaranteed optimal"
        method = solution.algorithm + (f" + {solution.heuristic}" if solution.heuristic else "")
        print(solution.moves or "(no moves)")
        print(
            f"length {len(solution)} ({kind}), {method}: {stats.expanded:,} expanded, "
            f"{stats.generated:,} generated, {duration(stats.seconds)}"
        )
        print(f"elapsed {duration(elapsed)}")
    return 2 if args.bad_lines else status


#: How ``compare`` writes its table on standard output (``--format``): aligned text, Markdown,
#: LaTeX, or CSV alone (what ``--csv -`` also asks for).
TABLE_FORMATS = ("table", "markdown", "latex", "csv")


def _cmd_compare(args: argparse.Namespace) -> int:
    if args.csv == "-" and args.table_format not in ("table", "csv"):
        raise UsageError(
            f"--csv - writes the CSV on standard output, so it takes no --format "
            f"{args.table_format}: write the CSV to a file, or drop one of them"
        )
    table_format = "csv" if args.csv == "-" else args.table_format
    if args.plot:  # before any search: a path that cannot take a chart fails now
        _check_plot_path(args.plot)
    # Boards given are kept, and --random N adds N random boards after them (before: the
    # boards given were dropped without a word).
    jobs = _jobs(args) if args.board or not args.random else []
    if args.random:
        shape = _shape(args) or (jobs[0].board.shape if jobs else (3, 3))
        jobs += [
            Job(random_board(shape, rng=None if args.seed is None else args.seed + i))
            for i in range(args.random)
        ]
    algorithms, heuristics = args.algorithms.split(","), args.heuristics.split(",")
    named = methods(algorithms, heuristics)
    line = _CompareLine([job.board for job in jobs], named) if on_terminal() else None
    rows: list[Any] = []
    interrupted = False
    try:
        # One comparison for each run of boards that share a goal (--goal, or --format pair).
        for goal, group in itertools.groupby(jobs, key=lambda job: job.goal):
            boards = [job.board for job in group]
            try:
                table = compare(
                    boards,
                    algorithms,
                    heuristics=heuristics,
                    goal=goal,
                    limits=_limits(args),
                    weight=args.weight,
                    seed=args.seed,
                    repeat=args.repeat,
                    progress=None if line is None else line.after(len(rows)),
                )
            except ComparisonInterrupted as stop:
                rows += stop.comparison.rows
                interrupted = True
                break
            rows += table.rows
    finally:
        if line is not None:
            line.close()
    table = Comparison(tuple(rows))
    sys.stdout.write(_table_text(table, table_format))
    sys.stdout.flush()
    if args.csv and args.csv != "-":
        table.to_csv(args.csv)
    if args.plot:
        import matplotlib  # the plot extra, loaded for --plot alone

        matplotlib.use("Agg")
        drawn = table.plot(metric=args.metric, log=args.log)
        # The figure lays itself out (constrained layout).
        drawn[0].figure.savefig(args.plot)
    if interrupted:
        print(
            f"fastpuzzle: interrupted after {len(rows) - 1} of "
            f"{len(jobs) * len(named)} searches; the rows above are those finished",
            file=sys.stderr,
        )
        return 130
    return 2 if getattr(args, "bad_lines", 0) else 0


def _check_plot_path(path: str) -> None:
    """``--plot PATH``, checked before the searches: matplotlib is there, it writes the format
    the name ends in, and the folder exists."""
    require("matplotlib", "--plot", "plot")
    from matplotlib.figure import Figure  # an optional extra, checked just above

    if os.path.isdir(path):
        raise UsageError(f"--plot: {path!r} is a folder, not a file")
    formats = Figure().canvas.get_supported_filetypes()
    ending = os.path.splitext(path)[1].lower().lstrip(".")
    if ending not in formats:
        raise UsageError(
            f"--plot: expected a file name ending in .{', .'.join(sorted(formats))}, got {path!r}"
        )
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"--plot: {folder!r} is not a folder, so {path!r} cannot be written")


def _table_text(table: Any, table_format: str) -> str:
    """The table as ``compare --format`` asks for it, ending with a newline."""
    if table_format == "csv":
        text: str = table.to_csv()
        return text
    if table_format == "markdown":
        return f"{table.to_markdown()}\n"
    if table_format == "latex":
        return f"{table.to_latex()}\n"
    return f"{table.to_string()}\n"


class _CompareLine:
    """``compare``'s progress on a terminal: one line on stderr saying which search runs now
    (its number, method and board), rewritten as each ends, cleared at the end."""

    def __init__(self, boards: list[Board], methods: list[str]) -> None:
        self.boards = [board.to_string() for board in boards]
        self.methods = methods
        self.total = len(boards) * len(methods)
        self.started = time.monotonic()
        self._show(0)

    def after(self, offset: int) -> Callable[[int, int], None]:
        """The ``progress`` of a comparison whose rows start at search ``offset``."""

        def progress(done: int, total: int) -> None:
            self._show(offset + done)

        return progress

    def _show(self, done: int) -> None:
        if done >= self.total:
            return
        board, method = divmod(done, len(self.methods))
        text = (
            f"compare: search {done + 1}/{self.total}, {self.methods[method]} on "
            f"{self.boards[board]} ({duration(time.monotonic() - self.started)} so far)"
        )
        sys.stderr.write(fit_line(text))
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write(fit_line("") + "\r")
        sys.stderr.flush()


def _metrics(text: str) -> list[str]:
    """``--metric``: one or more of :data:`METRICS`, comma-separated."""
    wanted = [name.strip() for name in text.split(",")]
    for name in wanted:
        if name not in METRICS:
            raise argparse.ArgumentTypeError(
                f"expected {', '.join(METRICS)} (or several, comma-separated), got "
                f"{shown(name, 40)}"
            )
    return wanted


class _FormatAction(argparse.Action):
    """``compare --format``: how the boards are read (an input layout) or how the table is
    written (:data:`TABLE_FORMATS`). No name is both, so one option takes either, each once:
    the layout goes to ``format``, as for the other commands, the table's to ``table_format``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        where = "table_format" if values in TABLE_FORMATS else "format"
        given: set[str] = getattr(namespace, "_formats_given", set())
        if where in given:
            kind = "table format" if where == "table_format" else "input layout"
            parser.error(f"argument --format: a second {kind}, got {values!r}")
        namespace._formats_given = given | {where}
        setattr(namespace, where, values)


#: Output formats of ``fastpuzzle batch --out``, by file name ending.
BATCH_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}


def _batch_input(args: argparse.Namespace) -> tuple[Any, tuple[int, int] | None]:
    """The boards of the batch's input and their shape (None: several): packed words where
    every board is a line of one shape of at most 16 cells (read by compiled code), else
    Boards."""
    args.bad_lines = 0
    text = _stdin_text("batch input '-'") if args.input == "-" else _file_text(args.input)
    bad: list[tuple[int, str]] = []
    packed = read_packed(text, shape=_shape(args), fmt=args.format, bad_lines=bad)
    if packed is not None:
        _report_bad_lines(bad, args)
        return packed.words, packed.shape
    jobs = _read_boards(text, args)
    if any(job.goal is not None for job in jobs):
        raise UsageError("batch solves boards towards one goal: give it with --goal")
    boards = [job.board for job in jobs]
    shapes = {board.shape for board in boards}
    shape = next(iter(shapes)) if len(shapes) == 1 else None
    if shape is not None and shape[0] * shape[1] <= 16:
        # One shape of up to 16 cells: packed words take the batch's fast path.
        return np.array([board.packed for board in boards], dtype=np.uint64), shape
    return boards, shape


def _batch_out_format(path: str) -> str:
    for ending, fmt in BATCH_FORMATS.items():
        if path.lower().endswith(ending):
            return fmt
    raise UsageError(f"--out must end in {', '.join(BATCH_FORMATS)}, got {path!r}")


def _write_batch(result: Any, path: str | None, fmt: str, chunks: str | None) -> None:
    """The batch's rows to ``path`` (stdout when None) as ``fmt``; CSV and JSON lines are the
    chunk files in ``chunks`` joined, which hold those very rows."""
    if path is None:
        sys.stdout.write(result.to_csv())
    elif fmt in ("csv", "jsonl"):
        assert chunks is not None
        join_chunks(chunks, path)
    else:
        pa = require("pyarrow", "batch --out *.parquet", "parquet")
        parquet = require("pyarrow.parquet", "batch --out *.parquet", "parquet")
        table = arrow_table(result, pa)
        with atomic_writer(path) as stream:
            parquet.write_table(table, stream)


def _out_file(path: str) -> None:
    """Refuse, before solving, an ``--out`` that no file can be written to: a directory, or a
    path in a directory that does not exist (which the chunk folder would have created)."""
    problem = unwritable_file(path)
    if problem is not None:
        raise UsageError(f"--out: {problem}")


def _chunks_folder(path: str) -> None:
    """Refuse a ``--out``'s chunk folder that is not a batch's: a link (its target would get
    the chunks), something else than a directory, or a directory holding other files (the
    folder goes when the batch is done)."""
    why = "the batch keeps its chunks there and removes them when it is done"
    if os.path.islink(path):
        raise UsageError(
            f"{path} is a symbolic link; {why}: remove the link or choose another --out"
        )
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"{path} is not a directory; {why}: remove it or choose another --out")
    foreign = foreign_entries(path)
    if foreign:
        named = ", ".join(repr(name) for name in foreign[:3]) + (", ..." if foreign[3:] else "")
        raise UsageError(
            f"{path} holds files that are not a batch's ({named}); {why}: move them or choose "
            "another --out"
        )


def _cmd_batch(args: argparse.Namespace) -> int:
    out_format = "csv" if args.out is None else _batch_out_format(args.out)
    if args.resume and args.out is None:
        raise UsageError("--resume needs --out: the finished chunks are kept beside that file")
    boards, shape = _batch_input(args)
    goal = None
    if args.goal is not None:  # an empty --goal '' is refused, not taken for the default goal
        try:
            # The first board's shape, where the boards have several (each row is then checked).
            first = shape if shape is not None or not len(boards) else boards[0].shape
            goal = Board(args.goal, shape=first)
        except InvalidBoardError as error:
            raise UsageError(f"--goal: {error}") from None
    limits = _limits(args)
    # With --out, chunks are kept in OUT.chunks/ as they finish, so an interrupted batch can go
    # on with --resume; the folder goes once the output file is written. Its lock is held until
    # then, so that a second batch on the same --out is refused at once, not left solving
    # beside this one to find the folder removed under it.
    chunks = None if args.out is None else f"{args.out}.chunks"
    if chunks is not None:
        _out_file(args.out)
        _chunks_folder(chunks)
    with contextlib.nullcontext() if chunks is None else batch_lock(chunks):
        result = _solve_batch(args, boards, shape, goal, limits, chunks, out_format)
        _write_batch(result, args.out, out_format, chunks)
        if chunks is not None:
            # Only what the batch wrote: the folder goes if nothing else was put there since.
            remove_batch_files(chunks)
    solved = int(result.solved.sum())
    if args.out is not None:
        print(f"{solved:,} of {len(result):,} boards solved; rows in {args.out}", file=sys.stderr)
    if args.bad_lines:
        return 2
    return 0 if solved == len(result) else 1


def _solve_batch(
    args: argparse.Namespace,
    boards: Any,
    shape: tuple[int, int] | None,
    goal: Board | None,
    limits: Limits | None,
    chunks: str | None,
    out_format: str,
) -> Any:
    """``solve_many`` of ``boards`` (packed words of ``shape``, or Boards), with the command's
    options; the chunk files in ``chunks`` are written as ``out_format`` (CSV for Parquet).

    On Ctrl-C the rows finished are kept: in ``chunks`` for ``--resume``, or without ``--out``
    written to standard output (the others marked ``interrupted``); the interrupt goes on to
    :func:`main` with a note of what was kept."""
    try:
        return solve_many(
            boards,
            goal,
            shape=shape,
            limits=limits,
            workers=args.workers,
            progress=args.progress or (args.progress is None and on_terminal()),
            out=chunks,
            out_format="jsonl" if out_format == "jsonl" else "csv",
            resume=args.resume,
            # The counts (and Parquet's rows) come from memory, not read back from the chunks.
            keep_rows=True,
        )
    except FileExistsError:
        raise UsageError(
            f"{chunks} holds the chunks of an earlier batch: add --resume to go on with it, or "
            "remove it"
        ) from None
    except BatchInterrupted as stop:
        kept = f"{stop.finished:,} of {len(stop.result):,} boards"
        if chunks is not None:
            note = (
                f"{kept} were solved and kept in {chunks}/; run the same command with --resume "
                "to go on from them"
            )
        else:
            sys.stdout.write(stop.result.to_csv())
            note = (
                f"{kept} were solved (the rows above; the others are marked interrupted); "
                "give --out FILE to keep finished chunks and go on with --resume"
            )
        setattr(stop, "cli_note", note)  # noqa: B010 (read by main, whatever the exception)
        raise


def _cmd_gui(args: argparse.Namespace) -> int:
    serve(args.host, args.port, open_browser=not args.no_browser)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    print(quickbench.format_rows(quickbench.run(quick=args.quick)))
    return 0


def _cmd_random(args: argparse.Namespace) -> int:
    import numpy as np

    shape = _shape(args) or (4, 4)
    # One stream of random numbers from the seed: the boards of random_boards(N, rng=S) (up to
    # 16 cells), drawn and printed in blocks. Before, board k was random_board(rng=S + k).
    generator = np.random.default_rng(args.seed)
    if shape[0] * shape[1] > 16:
        for _ in range(args.count):
            print(random_board(shape, rng=generator).to_string())
        return 0
    from fastpuzzle.datasets import random_boards

    for first in range(0, args.count, _RANDOM_BLOCK):
        words = random_boards(min(_RANDOM_BLOCK, args.count - first), shape, rng=generator)
        sys.stdout.write(
            "".join(f"{Board.from_packed(int(w), shape).to_string()}\n" for w in words.tolist())
        )
    return 0


#: Boards ``fastpuzzle random`` draws and prints at a time.
_RANDOM_BLOCK = 1 << 14


def _cmd_scramble(args: argparse.Namespace) -> int:
    start = Board.goal(_shape(args) or (4, 4))
    # One stream of random numbers from the seed, as `random` draws its boards (before: board
    # k was scramble(rng=S + k), so the two commands' --seed meant different things).
    generator = np.random.default_rng(args.seed)
    for _ in range(args.count):
        print(scramble(start, args.moves, rng=generator).to_string())
    return 0


def _add_board_input(cmd: argparse.ArgumentParser, *, table_formats: bool = False) -> None:
    cmd.add_argument(
        "board",
        nargs="*",
        help="one board per argument: tiles, rows split by '/', 0 or _ = blank; '-' (or no "
        "argument): boards from stdin",
    )
    layouts = (
        "input layout: auto (a stream of boards, see below); board (all numbers are "
        "one board); pair (start and goal boards in pairs); count (a count then boards); lines "
        "(one board per line); rows (boards written as rows)"
    )
    if table_formats:
        # compare: the same option also says how the table is written (no name is both).
        _add_reading_options(
            cmd,
            formats=(*FORMATS, *TABLE_FORMATS),
            format_help=f"{layouts}; and/or how the table is written: table (aligned text, the "
            "default), markdown, latex, csv (only CSV on stdout); give it twice for both",
            format_action=_FormatAction,
        )
        cmd.set_defaults(table_format="table")
        return
    _add_reading_options(cmd, formats=FORMATS, format_help=layouts)


def _add_weight(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument(
        "--weight",
        type=_number,
        help="weight of wastar's heuristic, 1 (A*) to 1000 (default: the library's)",
    )


def _add_reading_options(
    cmd: argparse.ArgumentParser,
    *,
    formats: Sequence[str],
    format_help: str,
    format_action: type[argparse.Action] | None = None,
) -> None:
    # What solve, compare and batch share: how boards are read, their goal, and the limits.
    cmd.add_argument(
        "--shape",
        nargs=2,
        type=_integer,
        metavar=("ROWS", "COLS"),
        help="the boards' shape, needed when they are not square",
    )
    cmd.add_argument(
        "--format",
        default="auto",
        choices=formats,
        help=format_help,
        action="store" if format_action is None else format_action,
    )
    cmd.add_argument("--goal", help="goal of every board (default: 1..n-1 then the blank)")
    cmd.add_argument(
        "--max-depth",
        type=_whole(0),
        help="longest solution to look for; the depth-first searches' bound (dfs: the board's "
        "misplaced tiles + Manhattan distance unless given; dfs_visited: 50)",
    )
    cmd.add_argument("--time-limit", type=_seconds(zero=False), help="seconds per board")
    cmd.add_argument("--node-limit", type=_whole(1), help="expansions per board")
    cmd.add_argument(
        "--memory-limit",
        type=_bytes,
        metavar="BYTES",
        help="bytes the search's tables may hold per board, e.g. 500M or 2G "
        "(searches that store nodes default to 2G)",
    )


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the usage is one --help away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``fastpuzzle`` command."""
    parser = _Parser(
        prog="fastpuzzle",
        description="Sliding-tile puzzles solved optimally. Moves are U, D, L, R: the direction "
        "the blank moves.",
    )
    parser.add_argument("--version", action="version", version=f"fastpuzzle {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser(
        "solve",
        help="solve boards given as arguments or on stdin",
        epilog=_epilog("solve", INPUT_RULES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board_input(solve)
    solve.add_argument(
        "--algorithm",
        default="auto",
        help=f"auto (IDA* with the best table: optimal) or one of {', '.join(ALGORITHMS)}",
    )
    solve.add_argument(
        "--heuristic",
        default="auto",
        help=f"auto (the algorithm's best) or one of {', '.join(heuristic_names())}",
    )
    solve.add_argument(
        "--seed",
        type=_integer,
        help="seed of the random algorithm: the same seed, the same walk (default: fresh)",
    )
    _add_weight(solve)
    solve.add_argument("--json", action="store_true", help="one JSON object per board")
    solve.add_argument("--show", action="store_true", help="print every board of the solution")
    solve.add_argument(
        "--animate", action="store_true", help="animate the solution in the terminal"
    )
    solve.add_argument(
        "--delay",
        type=_seconds(zero=True, most=60),
        default=0.3,
        help="seconds per frame of --animate, 0 to 60 (default: %(default)s)",
    )
    solve.add_argument(
        "--fast",
        action="store_true",
        help="a fast solution, not guaranteed shortest (any size up to 100x100)",
    )
    solve.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show the search's bound and nodes on stderr, and after a few seconds the table "
        "that would make it faster (default: when stderr is a terminal)",
    )
    solve.add_argument(
        "--workers",
        type=_whole(1),
        default=None,
        help="threads for IDA* (default: every core; 1: the serial search)",
    )
    solve.add_argument(
        "--prune",
        default=None,
        help="IDA*'s duplicate pruning: fsm (default: on 4x4 and 5x5 the machine of depth 13), "
        "parent (the published node counts) or a depth of 6 or 8 to 16 (a smaller depth is a "
        "weaker machine, more nodes)",
    )
    solve.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler (tcp://host:8786): IDA*'s largest iterations run on its cluster",
    )
    solve.set_defaults(run=_cmd_solve)

    comp = sub.add_parser(
        "compare",
        help="tabulate several algorithms on several boards",
        epilog=_epilog("compare", INPUT_RULES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_board_input(comp, table_formats=True)
    comp.add_argument(
        "--algorithms",
        default="bfs,astar,idastar,greedy",
        help=f"comma-separated, among {', '.join(ALGORITHMS)} (default: %(default)s)",
    )
    comp.add_argument(
        "--heuristics",
        default="manhattan",
        help=f"comma-separated, among {', '.join(heuristic_names())} (default: %(default)s)",
    )
    comp.add_argument(
        "--random", type=_whole(0, MAX_LISTED), default=0, help="compare on N random boards"
    )
    comp.add_argument(
        "--seed",
        type=_integer,
        help="seed of the --random boards and of the random algorithm (default: fresh)",
    )
    _add_weight(comp)
    comp.add_argument(
        "--repeat",
        type=_whole(1),
        default=1,
        help="runs of each search; its time is their median (and a search shorter than 20 ms "
        "runs again until its runs fill 20 ms) (default: %(default)s)",
    )
    comp.add_argument(
        "--csv",
        help="also write the table as CSV to this file ('-': only the CSV, on stdout, as "
        "--format csv)",
    )
    comp.add_argument(
        "--plot",
        help="also draw bar charts (linear scale, boards labelled B1, B2, ...) to this image file",
    )
    comp.add_argument(
        "--log",
        action="store_true",
        help="--plot on a log scale (for figures that span orders of magnitude)",
    )
    comp.add_argument(
        "--metric",
        type=_metrics,
        default=["expanded"],
        metavar="METRIC[,METRIC...]",
        help=f"what --plot draws, one chart each: {', '.join(METRICS)} (default: expanded)",
    )
    comp.set_defaults(run=_cmd_compare)

    batch = sub.add_parser(
        "batch",
        help="solve a file of boards on every core, one row per board",
        epilog=_epilog("batch", INPUT_RULES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    batch.add_argument("input", help="a file of boards, or - for standard input")
    batch.add_argument(
        "--out",
        help=f"write the rows here ({', '.join(BATCH_FORMATS)}); default: CSV on stdout. Rows "
        "carry the board, its length, status, node counts, seconds, moves and message",
    )
    batch.add_argument(
        "--resume",
        action="store_true",
        help="go on with an interrupted batch of the same boards into the same --out",
    )
    batch.add_argument(
        "--workers", type=_whole(1), default=None, help="threads (default: every core)"
    )
    batch.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="one progress bar on stderr (default: when stderr is a terminal)",
    )
    _add_reading_options(
        batch,
        formats=[f for f in FORMATS if f != "pair"],
        format_help="input layout (see below); pair is not allowed: give one --goal",
    )
    batch.set_defaults(run=_cmd_batch)

    gui = sub.add_parser(
        "gui",
        help="the puzzle page: enter, shuffle, solve and compare in the browser",
        epilog=_epilog("gui"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gui.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: this machine only; beyond it, a warning, and every "
        "request needs the page's token, which the printed address carries)",
    )
    gui.add_argument(
        "--port", type=_whole(1, 65535), default=0, help="port, 1 to 65535 (default: any free one)"
    )
    gui.add_argument(
        "--no-browser", action="store_true", help="print the address without opening it"
    )
    gui.set_defaults(run=_cmd_gui)

    bench = sub.add_parser(
        "bench",
        help="a quick benchmark: nodes per second and times",
        epilog=_epilog("bench"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("--quick", action="store_true", help="fewer boards")
    bench.set_defaults(run=_cmd_bench)

    for name, helptext in (
        ("random", "uniformly random solvable boards"),
        ("scramble", "random walks from the goal"),
    ):
        cmd = sub.add_parser(
            name,
            help=helptext,
            epilog=_epilog(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        cmd.add_argument(
            "--shape", nargs=2, type=_integer, metavar=("ROWS", "COLS"), help="default: 4 4"
        )
        cmd.add_argument("--count", type=_whole(0), default=1, help="how many boards (default: 1)")
        cmd.add_argument(
            "--seed",
            type=_whole(0),
            help="seed of the boards: one stream of random numbers drawn from it, the same "
            "seed the same boards; "
            + (
                "those of fastpuzzle.random_boards(COUNT, rng=SEED) up to 16 cells"
                if name == "random"
                else "those of fastpuzzle.scramble(goal, MOVES, rng=numpy.random."
                "default_rng(SEED)) in turn"
            )
            + " (default: fresh)",
        )
        if name == "scramble":
            cmd.add_argument(
                "--moves",
                type=_whole(0, MAX_SCRAMBLE),
                default=50,
                help="random moves from the goal (default: 50)",
            )
        cmd.set_defaults(run=_cmd_random if name == "random" else _cmd_scramble)

    add_pdb_command(sub, epilog=_epilog, integer=_integer, read_shape=_shape, parser_class=_Parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 every board solved, 1 some board not
    solvable or stopped by a limit, 2 usage or input error, 130 interrupted)."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else list(argv)):
        # A bare `fastpuzzle`: what it does and its commands, not an error about a command.
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    if sys.stdout is None and _prints_results(args):
        # Python leaves sys.stdout None when descriptor 1 was closed (``>&-``): print() would
        # drop every result without a word, and sys.stdout.write() raise AttributeError.
        print(
            "fastpuzzle: error: standard output is closed, so there is nowhere to print to; "
            "redirect it (e.g. >/dev/null)" + (" or give --out" if args.command == "batch" else ""),
            file=sys.stderr,
        )
        return 2
    try:
        with _warnings_as_lines(), _log_as_lines():
            return int(args.run(args))
    except (FastPuzzleError, ValueError, OSError, ImportError) as error:
        if isinstance(error, BrokenPipeError):
            return _closed_pipe()
        _error(_named(error, args))
        return 2
    except KeyboardInterrupt as stop:
        note = getattr(stop, "cli_note", "")  # what was kept, where a command says so
        print("fastpuzzle: interrupted" + (f": {note}" if note else ""), file=sys.stderr)
        return 130


@contextlib.contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """The library's :class:`~fastpuzzle.errors.FastPuzzleWarning` (a table built on first use)
    as the command's own lines on stderr, ``fastpuzzle: <message>``, each time; other warnings
    as Python shows them."""
    with warnings.catch_warnings():
        python_shows = warnings.showwarning

        def show(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if issubclass(category, FastPuzzleWarning):
                print(f"fastpuzzle: {message}", file=sys.stderr, flush=True)
            else:
                python_shows(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        warnings.simplefilter("always", FastPuzzleWarning)
        yield


@contextlib.contextmanager
def _log_as_lines() -> Iterator[None]:
    """The library's log records of INFO and above (a table built on first use: its start,
    groups and end) as the command's own lines on stderr, ``fastpuzzle: <message>``; the
    logger's level and handlers are as they were afterwards (:func:`main` runs inside other
    programs and tests too)."""
    logger = logging.getLogger("fastpuzzle")
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("fastpuzzle: %(message)s"))
    level = logger.level
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


class _StderrHandler(logging.Handler):
    """A handler writing to whatever ``sys.stderr`` is when a record comes (a test's capture,
    or stderr replaced by the program that runs :func:`main`)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print(self.format(record), file=sys.stderr, flush=True)
        except Exception:  # logging's rule: writing a record never raises
            self.handleError(record)


def _named(error: Exception, args: argparse.Namespace) -> str:
    """The message of ``error``, led by the option or argument it is about where the library's
    message does not name it."""
    message = str(error)
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        return f"{error.filename}: {error.strerror}"
    plural = "s" if args.command == "compare" else ""
    leads = {
        "unknown algorithm": f"--algorithm{plural}",
        "unknown heuristic": f"--heuristic{plural}",
        "unknown partition": "NAME",
        "unknown table set": "NAME",
        "expected at least 2 rows": "--shape",
        "expected at most 100 rows": "--shape",
    }
    for start, option in leads.items():
        if message.startswith(start):
            return f"{option}: {message}"
    return message


def _prints_results(args: argparse.Namespace) -> bool:
    # Every command prints what it made on stdout, but for a batch written to --out (its line of
    # totals goes to stderr).
    return not (args.command == "batch" and args.out is not None)


def _closed_pipe() -> int:
    # The reader went away (``| head``): not an error of ours. Point stdout at devnull so the
    # interpreter's final flush does not raise again.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0
