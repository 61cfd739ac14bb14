"""Reading boards from text: a stream of boards, never silently anything else.

The rules (``fastpuzzle solve --help`` states them too):

- **auto** (the default) reads a stream of boards, in order:

  - a line with ``/`` is one whole board (``"1 2 3/4 5 6/7 8 _"``: what ``fastpuzzle random``
    and ``scramble`` print, so their output goes back in unchanged);
  - a line of a square number of tiles (9, 16, …; or of ``rows * cols`` with a shape) is one
    board;
  - lines of ``n`` numbers, ``n`` lines in a row, are one ``n x n`` board written as its rows
    (with a shape: ``rows`` lines of ``cols`` numbers);
  - where a square number of lines of that square width could be read either way (four lines
    of four numbers: one 4x4 board, or four 2x2 boards), the reading whose boards hold valid
    tiles is taken: the first lines as one board written as rows if they make one, else one
    board per line if each line is one (sixteen lines of 4x4 boards are sixteen boards: no 16x16
    board has only the tiles 0 to 15); where neither holds, the input is refused with the flag
    that decides;
  - a first line holding one number ``N`` (ASCII digits) announces ``N`` boards (the 16-puzzle
    report's input).

- **pair**: a start board then a goal board (the 15-puzzle report's input), as many pairs as
  given (boards read as a stream, taken two by two) — read only when asked for, never guessed;
- **board**: all the numbers are one board; **lines**: one board per line; **rows**: boards
  written as rows, one line per row; **count**: a count then that many boards.
"""

from __future__ import annotations

import codecs
import math
import re
from dataclasses import dataclass
from typing import Literal

import numpy as np

from fastpuzzle._core import _text
from fastpuzzle._util.checks import shown
from fastpuzzle.board import Board, Shape
from fastpuzzle.errors import InvalidBoardError

__all__ = ["FORMATS", "Job", "PackedBoards", "decode_text", "read_jobs", "read_packed"]

Format = Literal["auto", "board", "pair", "count", "lines", "rows"]

#: The layouts :func:`read_jobs` takes.
FORMATS: tuple[str, ...] = ("auto", "board", "pair", "count", "lines", "rows")

_TOKEN = re.compile(r"[^\s,;/]+")


#: Byte-order marks and their codecs, the longer first (UTF-32 LE's begins as UTF-16 LE's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(raw: bytes, *, name: str = "the input") -> str:
    """``raw`` as text, in the encoding a file of boards comes in: UTF-8, with or without a
    byte-order mark (what Notepad and Excel write), UTF-16 with its mark (what PowerShell's
    ``>`` writes) or without one (ASCII text with a NUL beside every byte), or UTF-32 with its
    mark.

    Raises
    ------
    InvalidBoardError
        If ``raw`` is none of these; the message names ``name`` and the first bad byte.

    Examples
    --------
    >>> decode_text("1 2/3 _\\n".encode("utf-16"))
    '1 2/3 _\\n'
    >>> decode_text(b"\\xef\\xbb\\xbf1 2/3 _")
    '1 2/3 _'
    """
    codec = next((codec for bom, codec in _BOMS if raw.startswith(bom)), None)
    if codec is None and len(raw) >= 2 and len(raw) % 2 == 0:
        # No mark: UTF-16 where every other byte is NUL and the others are not.
        even, odd = raw[0::2], raw[1::2]
        if odd.count(0) == len(odd) and 0 not in even:
            codec = "utf-16-le"
        elif even.count(0) == len(even) and 0 not in odd:
            codec = "utf-16-be"
    try:
        return raw.decode(codec or "utf-8")
    except UnicodeDecodeError as error:
        raise InvalidBoardError(
            f"{name} is not text in UTF-8 or UTF-16: byte {raw[error.start]:#04x} at offset "
            f"{error.start:,} ({error.reason})"
        ) from None


@dataclass(frozen=True)
class Job:
    """One board to solve and its goal (``None``: the default goal)."""

    board: Board
    goal: Board | None = None


@dataclass(frozen=True)
class PackedBoards:
    """Boards of one shape of at most 16 cells, as packed words (cell i at bits 4i..4i+3)."""

    words: np.ndarray
    shape: Shape


def read_packed(
    text: str,
    *,
    shape: Shape | None = None,
    fmt: Format = "auto",
    bad_lines: list[tuple[int, str]] | None = None,
) -> PackedBoards | None:
    """The boards :func:`read_jobs` reads from ``text``, as packed words, where each is one line
    of at most 16 cells and all have one shape (a batch's usual input); None otherwise, and then
    only :func:`read_jobs` can say.

    Compiled code reads the lines (a few hundred nanoseconds a board, against tens of
    microseconds for a ``Board`` per line). A line it does not take is read as
    :func:`read_jobs` reads it: where that line is a board on its own line whatever surrounds
    it (a line with ``/``; any line with ``fmt="lines"``), by ``Board``, whose error goes to
    ``bad_lines`` (or is raised) as there; where it is not (a line of tiles that could be a
    board's first row, a count), or where it is a board after all, this returns None.

    Parameters
    ----------
    text, shape, fmt, bad_lines
        As for :func:`read_jobs`; only ``"auto"`` and ``"lines"`` are read here.

    Raises
    ------
    InvalidBoardError
        As :func:`read_jobs`, for a line that is not a board when ``bad_lines`` is None.

    Examples
    --------
    >>> boards = read_packed("1 2 3/4 5 6/7 8 _\\n1 2 3 4 5 6 7 _ 8\\n")
    >>> boards.shape, [Board.from_packed(int(w), boards.shape).blank for w in boards.words]
    ((3, 3), [8, 7])
    >>> read_packed("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 _") is None
    True
    """
    text = text.removeprefix("\ufeff")  # a byte-order mark read as text (UTF-8 with BOM)
    if fmt not in ("auto", "lines") or not text.isascii():
        return None
    data = text.encode("ascii")
    capacity = data.count(b"\n") + 1
    words = np.empty(capacity, dtype=np.uint64)
    rows = np.empty(capacity, dtype=np.uint8)
    cols = np.empty(capacity, dtype=np.uint8)
    kinds = np.empty(capacity, dtype=np.uint8)
    want = shape or (0, 0)
    count = _text.parse_lines(data, want[0], want[1], words, rows, cols, kinds)
    if count < 0:
        return None
    kinds = kinds[:count]
    taken = kinds == _text.LINE_BOARD
    if not taken.any():
        return None
    rows, cols = rows[:count][taken], cols[:count][taken]
    found = (int(rows[0]), int(cols[0]))
    if (rows != found[0]).any() or (cols != found[1]).any():
        return None  # boards of several shapes
    others = np.flatnonzero(kinds >= _text.LINE_OTHER_SLASH)
    if fmt == "auto" and (kinds[others] == _text.LINE_OTHER).any():
        return None  # a line whose reading depends on the lines around it
    bad: list[tuple[int, str]] = []
    if len(others):
        lines = text.splitlines()  # numbered as the compiled reader numbers them
        for k in others.tolist():
            try:
                Board(lines[k], shape=shape)
            except InvalidBoardError as error:
                if bad_lines is None:
                    raise
                bad.append((k + 1, str(error)))
            else:
                return None  # a board the compiled reader does not take (a '.' blank, 5x5)
    if bad_lines is not None:
        bad_lines.extend(bad)
    return PackedBoards(words[:count][taken], found)


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
        raise InvalidBoardError(f"expected a format among {', '.join(FORMATS)}, got {shown(fmt)}")
    text = text.removeprefix("\ufeff")  # a byte-order mark read as text (UTF-8 with BOM)
    tokens = _tokens(text)
    if not tokens:
        raise InvalidBoardError("expected at least one board, got no numbers")
    numbered = [(n + 1, line) for n, line in enumerate(text.splitlines()) if line.strip()]
    first = _tokens(numbered[0][1])
    if fmt == "count" or (fmt == "auto" and len(first) == 1 and "/" not in numbered[0][1]):
        return _counted(numbered, shape)
    if fmt == "board":
        return [Job(_board(tokens, shape))]
    if fmt == "pair":
        return _pairs(numbered, tokens, shape)
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


def _pairs(lines: list[tuple[int, str]], tokens: list[str], shape: Shape | None) -> list[Job]:
    """Start, goal, start, goal, ...: a stream of boards taken two by two; or, where the numbers
    are no stream of boards (one line of 18 numbers), one start then one goal of as many."""
    try:
        boards = [job.board for job in _stream(lines, shape, rows_only=False, bad_lines=None)]
    except InvalidBoardError:
        boards = []
    if len(boards) < 2:
        cells = _cells_for(len(tokens), 2, shape)
        if cells is None:
            raise InvalidBoardError(
                f"expected a start board then a goal board of as many tiles, got {len(tokens)} "
                "numbers"
            )
        start = _board(tokens[:cells], shape)
        return [Job(start, _board(tokens[cells:], start.shape))]
    if len(boards) % 2:
        raise InvalidBoardError(
            f"expected a start board then a goal board for each puzzle, got {len(boards)} "
            "boards (an odd number)"
        )
    jobs = []
    for start, goal in zip(boards[::2], boards[1::2]):
        if goal.shape != start.shape:
            raise InvalidBoardError(
                f"expected a goal of its start's shape {start.shape}, got {goal.shape}"
            )
        jobs.append(Job(start, goal))
    return jobs


def _counted(lines: list[tuple[int, str]], shape: Shape | None) -> list[Job]:
    """A count on the first line, then that many boards read from the numbers that follow.

    ``lines`` holds ``(line number, text)`` of the non-empty lines; a board that is not valid is
    refused naming the line it starts on.
    """
    first = _tokens(lines[0][1])
    head = first[0] if first else lines[0][1].strip()
    # ASCII digits only: int() would read other scripts' digits too ('٣' as 3).
    if not (head.isascii() and head.isdigit()):
        raise InvalidBoardError(
            f"expected a count of boards on the first line, got {shown(head, 24)}"
        )
    rest = [(number, token) for number, line in lines for token in _tokens(line)][1:]
    # A count of more digits than the number of numbers after it counts more boards than they
    # hold (and int() refuses numbers past 4,300 digits).
    count = int(head) if len(head.lstrip("0")) <= len(str(len(rest))) else None
    cells = None if count is None else _cells_for(len(rest), count, shape)
    if count is None or cells is None:
        shown_count = head if len(head) <= 20 else head[:16] + "..."
        raise InvalidBoardError(
            f"expected {shown_count} boards after the count on the first line, got {len(rest)} "
            "numbers (pass --shape ROWS COLS for boards that are not square)"
        )
    jobs = []
    for start in range(0, count * cells, cells):
        part = rest[start : start + cells]
        try:
            jobs.append(Job(_board([token for _, token in part], shape)))
        except InvalidBoardError as error:
            raise InvalidBoardError(f"line {part[0][0]}: {error}") from None
    return jobs


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
        boards, taken = _next_boards(lines, i, shape, rows_only=rows_only)
        for number, text, why in boards:
            try:
                if why:
                    raise InvalidBoardError(why)
                jobs.append(Job(Board(text, shape=shape)))
            except InvalidBoardError as error:
                if bad_lines is None:
                    raise
                bad_lines.append((number, str(error)))
        i += taken
    return jobs


#: A board of a stream: its first line's number, its text, and why it is no board ("" if it may
#: be one).
Piece = tuple[int, str, str]


def _next_boards(
    lines: list[tuple[int, str]], i: int, shape: Shape | None, *, rows_only: bool
) -> tuple[list[Piece], int]:
    """The boards that start at ``lines[i]``, and how many lines they take."""
    number, line = lines[i]
    width = len(_tokens(line))
    whole = width == shape[0] * shape[1] if shape else _square_cells(width)
    height = (shape[0] if width == shape[1] else 0) if shape else width
    run = _run_length(lines, i, width)
    as_rows = height >= 2 and run >= height
    if "/" in line and not rows_only:
        return [(number, line, "")], 1
    if whole and not rows_only:
        # Lines of whole boards, unless a square number of them can be read as rows.
        if as_rows and run % height == 0 and _rows_or_lines(lines[i : i + height], shape):
            return _rows(lines[i : i + run], height), run
        return [(n, text, "") for n, text in lines[i : i + run]], run
    if as_rows:
        return _rows(lines[i : i + height], height), height
    words = _not_numbers(_tokens(line))
    if words:
        listed = ", ".join(shown(word, 20) for word in words[:3])
        more = f" and {len(words) - 3} more" if len(words) > 3 else ""
        why = (
            f"line {number} holds words that are not tiles (numbers, or _ for the blank): "
            f"{listed}{more}"
        )
        return [(number, "", why)], 1
    wanted = f"{shape[0]} lines of {shape[1]}" if shape else f"{width} lines of {width}"
    why = (
        f"line {number} has {width} numbers: not a whole board, and not the first of "
        f"{wanted} numbers (a board written as rows); pass --shape ROWS COLS for boards "
        f"that are not square: {line.strip()[:60]!r}"
    )
    return [(number, "", why)], 1


def _not_numbers(tokens: list[str]) -> list[str]:
    """The tokens that are no tile: neither ASCII digits nor ``_``."""
    return [t for t in tokens if t != "_" and not (t.isascii() and t.isdigit())]


def _rows(lines: list[tuple[int, str]], height: int) -> list[Piece]:
    """``lines`` as boards of ``height`` rows each, numbered by their first line."""
    return [
        (lines[k][0], "\n".join(text for _, text in lines[k : k + height]), "")
        for k in range(0, len(lines), height)
    ]


def _is_board(text: str, shape: Shape | None) -> bool:
    try:
        Board(text, shape=shape)
    except InvalidBoardError:
        return False
    return True


def _rows_or_lines(group: list[tuple[int, str]], shape: Shape | None) -> bool:
    """Whether lines that read both ways (``group``: as many as one board has rows) are rows.

    True when they make one board written as rows; False when each of them is a board; refused
    when neither holds. Both cannot: boards of one line each repeat their tiles from line to
    line, which one board cannot.
    """
    if _is_board("\n".join(text for _, text in group), shape):
        return True
    if all(_is_board(text, shape) for _, text in group):
        return False
    number, width = group[0][0], len(_tokens(group[0][1]))
    side = math.isqrt(width)
    raise InvalidBoardError(
        f"ambiguous input: from line {number}, {len(group)} lines of {width} numbers are one "
        f"board written as rows, or {len(group)} boards of {side}x{side}, and neither reading "
        "gives valid boards; add --format rows (boards written as rows) or --format lines "
        "(one board per line) to see what is wrong"
    )


def _run_length(lines: list[tuple[int, str]], start: int, width: int) -> int:
    """How many lines from ``start`` on have ``width`` numbers and no ``/``."""
    end = start
    while end < len(lines) and "/" not in lines[end][1] and len(_tokens(lines[end][1])) == width:
        end += 1
    return end - start
