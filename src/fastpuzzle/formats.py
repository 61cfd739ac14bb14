"""Reading boards from text: a stream of boards, never silently anything else.

The rules (``fastpuzzle solve --help`` states them too):

- **auto** (the default) reads a stream of boards, in order:

  - a line with ``/`` is one whole board (``"1 2 3/4 5 6/7 8 _"``: what ``fastpuzzle random``
    and ``scramble`` print, so their output goes back in unchanged);
  - a line of a square number of tiles (9, 16, …; or of ``rows * cols`` with a shape) is one
    board;
  - lines of ``n`` numbers, ``n`` lines in a row, are one ``n x n`` board written as its rows
    (with a shape: ``rows`` lines of ``cols`` numbers);
  - when a square number of lines of that square width could be read either way (four lines of
    four numbers: one 4x4 board, or four 2x2 boards), the input is refused with the flag that
    decides;
  - a first line holding one number ``N`` announces ``N`` boards (the 16-puzzle report's input).

- **pair**: a start board then a goal board (the 15-puzzle report's input) — read only when
  asked for, never guessed;
- **board**: all the numbers are one board; **lines**: one board per line; **rows**: boards
  written as rows, one line per row; **count**: a count then that many boards.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from fastpuzzle.board import Board, Shape
from fastpuzzle.errors import InvalidBoardError

__all__ = ["FORMATS", "Job", "read_jobs"]

Format = Literal["auto", "board", "pair", "count", "lines", "rows"]

#: The layouts :func:`read_jobs` takes.
FORMATS: tuple[str, ...] = ("auto", "board", "pair", "count", "lines", "rows")

_TOKEN = re.compile(r"[^\s,;/]+")


@dataclass(frozen=True)
class Job:
    """One board to solve and its goal (``None``: the default goal)."""

    board: Board
    goal: Board | None = None


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _square_cells(count: int) -> bool:
    side = math.isqrt(count)
    return side >= 2 and side * side == count


def _board(tokens: list[str], shape: Shape | None) -> Board:
    return Board(" ".join(tokens), shape=shape)


def _cells_for(total: int, parts: int, shape: Shape | None) -> int | None:
    if parts <= 0 or total % parts:
        return None
    cells = total // parts
    if shape is not None:
        return cells if cells == shape[0] * shape[1] else None
    return cells if _square_cells(cells) else None


def read_jobs(
    text: str,
    *,
    shape: Shape | None = None,
    fmt: Format = "auto",
    bad_lines: list[tuple[int, str]] | None = None,
) -> list[Job]:
    """Parse ``text`` into boards (and goals) to solve, by the rules of the module docstring.

    Parameters
    ----------
    text : str
        The input.
    shape : tuple of int, optional
        ``(rows, cols)`` of every board, needed when they are not square.
    fmt : {"auto", "board", "pair", "count", "lines", "rows"}
        The layout; ``"auto"`` reads a stream of boards (or a count then boards).
    bad_lines : list, optional
        For a stream of boards (``"auto"``, ``"lines"``, ``"rows"``): collect ``(line number,
        reason)`` of each line that is not a board here and go on, instead of raising.

    Raises
    ------
    InvalidBoardError
        If the text fits no layout, or could be read two ways; the message names the
        ``--format`` (or ``--shape``) that decides.

    Examples
    --------
    >>> [str(job.board.shape) for job in read_jobs("2\\n1 2\\n3 _\\n_ 1\\n3 2")]
    ['(2, 2)', '(2, 2)']
    >>> job, = read_jobs("1 2 3 4 5 6 7 _ 8\\n1 2 3 4 5 6 7 8 _", fmt="pair")
    >>> job.goal == Board.goal((3, 3))
    True
    """
    if fmt not in FORMATS:
        raise InvalidBoardError(f"expected a format among {', '.join(FORMATS)}, got {fmt!r}")
    tokens = _tokens(text)
    if not tokens:
        raise InvalidBoardError("expected at least one board, got no numbers")
    lines = [line for line in text.splitlines() if line.strip()]
    first = _tokens(lines[0])
    if fmt == "count" or (fmt == "auto" and len(first) == 1 and "/" not in lines[0]):
        return _counted(first[0], tokens[1:], shape)
    if fmt == "board":
        return [Job(_board(tokens, shape))]
    if fmt == "pair":
        cells = _cells_for(len(tokens), 2, shape)
        if cells is None:
            raise InvalidBoardError(
                f"expected a start board then a goal board of as many tiles, got {len(tokens)} "
                "numbers"
            )
        start = _board(tokens[:cells], shape)
        return [Job(start, _board(tokens[cells:], start.shape))]
    numbered = [(n + 1, line) for n, line in enumerate(text.splitlines()) if line.strip()]
    if fmt == "lines":
        jobs = []
        for number, line in numbered:
            try:
                jobs.append(Job(Board(line, shape=shape)))
            except InvalidBoardError as error:
                if bad_lines is None:
                    raise
                bad_lines.append((number, str(error)))
        return jobs
    return _stream(numbered, shape, rows_only=fmt == "rows", bad_lines=bad_lines)


def _counted(head: str, rest: list[str], shape: Shape | None) -> list[Job]:
    if not head.isdigit():
        raise InvalidBoardError(f"expected a count of boards on the first line, got {head!r}")
    count = int(head)
    cells = _cells_for(len(rest), count, shape)
    if cells is None:
        raise InvalidBoardError(
            f"expected {count} boards after the count on the first line, got {len(rest)} "
            "numbers (pass --shape ROWS COLS for boards that are not square)"
        )
    return [Job(_board(rest[i * cells : (i + 1) * cells], shape)) for i in range(count)]


def _stream(
    lines: list[tuple[int, str]],
    shape: Shape | None,
    *,
    rows_only: bool,
    bad_lines: list[tuple[int, str]] | None,
) -> list[Job]:
    """Boards one after another: whole-board lines, or runs of lines that are a board's rows.

    ``lines`` holds ``(line number, text)`` of the non-empty lines. With ``bad_lines``, a line
    that is not a board is recorded there (number, reason) and skipped; without, it raises.
    """
    jobs: list[Job] = []
    i = 0
    while i < len(lines):
        number, line = lines[i]
        width = len(_tokens(line))
        whole = width == shape[0] * shape[1] if shape else _square_cells(width)
        height = (shape[0] if width == shape[1] else 0) if shape else width
        run = _run_length(lines, i, width)
        as_rows = height >= 2 and run >= height
        if "/" in line and not rows_only:
            taken, text = 1, line
        elif whole and as_rows and not rows_only and run % height == 0:
            side = math.isqrt(width)
            raise InvalidBoardError(
                f"ambiguous input: from line {number}, {run} lines of {width} numbers are "
                f"{run // height} board(s) written as rows, or {run} boards of {side}x{side}; "
                "add --format rows (boards written as rows) or --format lines (one board per "
                "line)"
            )
        elif whole and not rows_only:
            taken, text = 1, line
        elif as_rows:
            taken, text = height, "\n".join(text for _, text in lines[i : i + height])
        else:
            wanted = f"{shape[0]} lines of {shape[1]}" if shape else f"{width} lines of {width}"
            taken, text = 1, ""
            why = (
                f"line {number} has {width} numbers: not a whole board, and not the first of "
                f"{wanted} numbers (a board written as rows); pass --shape ROWS COLS for boards "
                f"that are not square: {line.strip()[:60]!r}"
            )
        try:
            if not text:
                raise InvalidBoardError(why)
            jobs.append(Job(Board(text, shape=shape)))
        except InvalidBoardError as error:
            if bad_lines is None:
                raise
            bad_lines.append((number, str(error)))
        i += taken
    return jobs


def _run_length(lines: list[tuple[int, str]], start: int, width: int) -> int:
    """How many lines from ``start`` on have ``width`` numbers and no ``/``."""
    end = start
    while end < len(lines) and "/" not in lines[end][1] and len(_tokens(lines[end][1])) == width:
        end += 1
    return end - start
