"""The boards a command reads: from its arguments, files and standard input, with their goals."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from fastpuzzle.board import Board
from fastpuzzle.cli.arguments import UsageError, print_error, shape_option
from fastpuzzle.errors import (
    InvalidBoardError,
)
from fastpuzzle.formats import Format, Job, decode_text, read_jobs

__all__ = ["MAX_LINE", "board_jobs", "file_text", "read_boards", "report_bad_lines", "stdin_text"]


def read_boards(
    text: str, args: argparse.Namespace, *, pairs: bool = True, source: str = ""
) -> list[Job]:
    """The boards of ``text``; each line that is not one is reported on stderr by number (after
    ``source``, the file's name, when given) and counted in ``args.bad_lines``: it costs only
    itself, the exit status says. ``pairs=False``: boards whose pairs the caller makes (``-``
    among arguments)."""
    bad: list[tuple[int, str]] = []
    fmt: Format = args.format if pairs or args.format != "pair" else "auto"
    try:
        jobs = read_jobs(text, shape=shape_option(args), fmt=fmt, bad_lines=bad)
    except InvalidBoardError as error:
        if not source:
            raise
        raise InvalidBoardError(f"{source}: {error}") from None
    report_bad_lines(bad, args, source)
    return jobs


def report_bad_lines(
    bad: list[tuple[int, str]], args: argparse.Namespace, source: str = ""
) -> None:
    """Each ``(line number, why)`` of ``bad`` on stderr, counted in ``args.bad_lines``."""
    for number, why in bad:
        where = "" if why.startswith(f"line {number} ") else f"line {number}: "
        print_error(f"{source}: {where}{why}" if source else f"{where}{why}")
    args.bad_lines = getattr(args, "bad_lines", 0) + len(bad)


def file_text(path: str) -> str:
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
        Board(text, shape=shape_option(args))
    except InvalidBoardError:
        return True
    return False


def stdin_text(what: str) -> str:
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
        return read_boards(stdin_text("board argument 1 '-'"), args)
    if len(args.board) == 1 and _names_a_file(args.board[0], args):  # a file alone: the same
        return read_boards(file_text(args.board[0]), args, source=args.board[0])
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
                for job in read_boards(
                    stdin_text(f"board argument {number} '-'"), args, pairs=False
                )
            ]
            continue
        if _names_a_file(text, args):
            boards += [
                job.board for job in read_boards(file_text(text), args, pairs=False, source=text)
            ]
            continue
        try:
            boards.append(Board(text, shape=shape_option(args)))
        except InvalidBoardError as error:
            # A name with no spaces was perhaps meant as a file: say there is none.
            missing = " (nor a file: none has that name)" if text and " " not in text else ""
            print_error(f"board argument {number}: {error}{missing}")
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


def board_jobs(args: argparse.Namespace) -> list[Job]:
    args.bad_lines = 0
    if args.board:
        jobs = _argument_jobs(args)
    elif sys.stdin is not None and sys.stdin.isatty():
        raise UsageError(
            "expected boards as arguments or on standard input, e.g. "
            'fastpuzzle solve "1 2 3/4 5 6/7 _ 8" (see fastpuzzle solve --help)'
        )
    else:
        jobs = read_boards(stdin_text(args.command), args)
    # `is not None`: an empty --goal '' is a mistake to report, not the default goal.
    if args.goal is not None:
        return [Job(job.board, _goal(args, job.board)) for job in jobs]
    return jobs


def _goal(args: argparse.Namespace, board: Board) -> Board:
    """``--goal`` read for ``board``: its shape, else a one-line error naming both sizes."""
    try:
        try:
            goal = Board(args.goal, shape=shape_option(args))
        except InvalidBoardError:
            if shape_option(args) is not None:
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
