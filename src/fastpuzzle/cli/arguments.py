"""What every subcommand shares: the argument types, the options of the commands that read
boards, the epilogs of ``--help`` and the one-line error.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import NoReturn, TypeAlias

from fastpuzzle._util.checks import shown
from fastpuzzle._util.files import unwritable_file
from fastpuzzle.board import check_shape
from fastpuzzle.conventions import (
    DEFAULT_GOAL_TEST,
    DEFAULT_ORDER,
    DEFAULT_TIES,
    GOAL_TESTS,
    TIES,
)
from fastpuzzle.errors import (
    InvalidBoardError,
)
from fastpuzzle.formats import FORMATS
from fastpuzzle.limits import Limits

__all__ = [
    "CLI_WORDS",
    "EXIT_STATUS",
    "INPUT_RULES",
    "LAYOUTS",
    "Parser",
    "Subcommands",
    "UsageError",
    "add_anytime",
    "add_board_input",
    "add_reading_options",
    "add_weight",
    "anytime_options",
    "cli_words",
    "epilog",
    "integer_arg",
    "limits_option",
    "print_error",
    "seconds_arg",
    "shape_option",
    "whole_arg",
]

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
    "study": "0 the table printed (a depth whose searches a limit stopped shows how many were "
    "solved); 2 usage or input error; 130 interrupted",
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


def epilog(command: str, rules: str = "") -> str:
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


def out_file(option: str, path: str) -> None:
    """Refuse, before any work, an ``option``'s file that cannot be written (a folder, a missing
    folder, one that takes no new file such as /proc's)."""
    problem = unwritable_file(path)
    if problem is not None:
        raise UsageError(f"{option}: {problem}")


def cli_words(message: str) -> str:
    """``message`` of the library, one line, with the command line's option names."""
    for python, cli in CLI_WORDS:
        message = message.replace(python, cli)
    return " ".join(message.split())


def print_error(message: object) -> None:
    print(f"fastpuzzle: error: {cli_words(str(message))}", file=sys.stderr)


def shape_option(args: argparse.Namespace) -> tuple[int, int] | None:
    """``--shape``, checked before anything is read (a shape of 0 rows read as none, and one
    past a C long was a traceback from the compiled reader)."""
    if args.shape is None:
        return None
    try:
        return check_shape((args.shape[0], args.shape[1]))
    except InvalidBoardError as error:
        raise UsageError(f"--shape: {error}") from None


def limits_option(args: argparse.Namespace) -> Limits | None:
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


def integer_arg(text: str) -> int:
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


def whole_arg(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer argument from ``low`` to ``high`` (None: no upper end)."""

    def read(text: str) -> int:
        value = integer_arg(text)
        if value < low or (high is not None and value > high):
            span = f"from {low:,} to {high:,}" if high is not None else f"of {low:,} or more"
            raise argparse.ArgumentTypeError(f"expected a whole number {span}, got {value}")
        return value

    return read


def seconds_arg(*, zero: bool, most: float | None = None) -> Callable[[str], float]:
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


#: The input layouts, as ``--help`` lists them.
LAYOUTS = (
    "input layout: auto (a stream of boards, see below); board (all numbers are "
    "one board); pair (start and goal boards in pairs); count (a count then boards); lines "
    "(one board per line); rows (boards written as rows)"
)


def add_board_input(
    cmd: argparse.ArgumentParser,
    *,
    formats: Sequence[str] = FORMATS,
    format_help: str = LAYOUTS,
    format_action: type[argparse.Action] | None = None,
) -> None:
    """The boards as arguments, and the reading options (:func:`add_reading_options`)."""
    cmd.add_argument(
        "board",
        nargs="*",
        help="one board per argument: tiles, rows split by '/', 0 or _ = blank; '-' (or no "
        "argument): boards from stdin",
    )
    add_reading_options(cmd, formats=formats, format_help=format_help, format_action=format_action)


def add_anytime(cmd: argparse.ArgumentParser, fast_help: str) -> None:
    """``--fast`` (``optimal=False``) and ``--seconds S``, its anytime solver's shorthand."""
    cmd.add_argument("--fast", action="store_true", help=fast_help)
    cmd.add_argument(
        "--seconds",
        type=seconds_arg(zero=False),
        default=None,
        metavar="S",
        help="the shortest answer found within S seconds a board, not guaranteed shortest "
        "(--fast --time-limit S; past 16 cells, the anytime solver: each answer with its lower "
        "bound and gap)",
    )


def anytime_options(args: argparse.Namespace) -> None:
    """Read ``--seconds S`` as ``--fast --time-limit S`` (``args`` changed in place)."""
    if args.seconds is None:
        return
    if args.time_limit is not None:
        raise UsageError("--seconds is --fast --time-limit: pass one of them")
    args.fast, args.time_limit = True, args.seconds


def add_weight(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument(
        "--weight",
        type=_number,
        help="weight of wastar's heuristic, 1 (A*) to 1000 (default: the library's)",
    )


def add_conventions(cmd: argparse.ArgumentParser) -> None:
    """A course's conventions (:mod:`fastpuzzle.conventions`): move order, ties, goal test."""
    cmd.add_argument(
        "--order",
        help=f"the order children are generated in, a permutation of UDLR (default: "
        f"{DEFAULT_ORDER}); bfs, ucs, greedy, astar, wastar and idastar",
    )
    cmd.add_argument(
        "--ties",
        choices=TIES,
        help=f"which of equal open nodes first in ucs, greedy, astar and wastar (default: "
        f"{DEFAULT_TIES})",
    )
    cmd.add_argument(
        "--goal-test",
        choices=GOAL_TESTS,
        help=f"when bfs tests a board (default: {DEFAULT_GOAL_TEST})",
    )


def add_reading_options(
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
        type=integer_arg,
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
        type=whole_arg(0),
        help="longest solution to look for; the depth-first searches' bound (dfs: the board's "
        "misplaced tiles + Manhattan distance unless given; dfs_visited: 50)",
    )
    cmd.add_argument("--time-limit", type=seconds_arg(zero=False), help="seconds per board")
    cmd.add_argument("--node-limit", type=whole_arg(1), help="expansions per board")
    cmd.add_argument(
        "--memory-limit",
        type=_bytes,
        metavar="BYTES",
        help="bytes the search's tables may hold per board, e.g. 500M or 2G "
        "(searches that store nodes default to 2G)",
    )


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (the usage is one --help away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


#: The subcommands of the ``fastpuzzle`` command, to which each module adds its parser.
Subcommands: TypeAlias = "argparse._SubParsersAction[Parser]"
