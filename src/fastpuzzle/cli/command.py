"""The ``fastpuzzle`` command: its parser, made of each subcommand's, and how a run ends (exit
status, the library's warnings and errors as one line each).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import TextIO

from fastpuzzle._version import __version__
from fastpuzzle.cli.arguments import Parser, print_error
from fastpuzzle.cli.batch import add_batch_parser
from fastpuzzle.cli.bench import add_bench_parser
from fastpuzzle.cli.compare import add_compare_parser
from fastpuzzle.cli.generate import add_generate_parsers
from fastpuzzle.cli.gui import add_gui_parser
from fastpuzzle.cli.pdb import add_pdb_parser
from fastpuzzle.cli.solve import add_solve_parser
from fastpuzzle.cli.study import add_study_parser
from fastpuzzle.errors import (
    FastPuzzleError,
    FastPuzzleWarning,
)

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``fastpuzzle`` command."""
    parser = Parser(
        prog="fastpuzzle",
        description="Sliding-tile puzzles solved optimally. Moves are U, D, L, R: the direction "
        "the blank moves.",
    )
    parser.add_argument("--version", action="version", version=f"fastpuzzle {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    for add in (
        add_solve_parser,
        add_compare_parser,
        add_study_parser,
        add_batch_parser,
        add_gui_parser,
        add_bench_parser,
        add_generate_parsers,
        add_pdb_parser,
    ):
        add(sub)
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
        print_error(_named(error, args))
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
