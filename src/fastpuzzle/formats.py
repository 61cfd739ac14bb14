"""Reading boards from text in the formats of the source documents.

- one board: ``"1 2 3/4 5 6/7 8 _"`` or its numbers over several lines;
- a **pair**: a start board then a goal board (the 15-puzzle report's input);
- a **count** followed by that many boards, each written as a matrix (the 16-puzzle report's);
- **lines**: one board per line.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from fastpuzzle.board import Board, Shape
from fastpuzzle.errors import InvalidBoardError

__all__ = ["Job", "read_jobs"]

Format = Literal["auto", "board", "pair", "count", "lines"]

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


def read_jobs(text: str, *, shape: Shape | None = None, fmt: Format = "auto") -> list[Job]:
    """Parse ``text`` into boards (and goals) to solve.

    Parameters
    ----------
    text : str
        The input.
    shape : tuple of int, optional
        ``(rows, cols)`` of every board, needed when they are not square.
    fmt : {"auto", "board", "pair", "count", "lines"}
        The layout; ``"auto"`` tries count, then board, then pair, then lines.

    Raises
    ------
    InvalidBoardError
        If the text fits no layout, naming what was expected.

    Examples
    --------
    >>> [str(job.board.shape) for job in read_jobs("2\\n1 2\\n3 _\\n_ 1\\n3 2")]
    ['(2, 2)', '(2, 2)']
    >>> job, = read_jobs("1 2 3 4 5 6 7 _ 8\\n1 2 3 4 5 6 7 8 _")
    >>> job.goal == Board.goal((3, 3))
    True
    """
    tokens = _tokens(text)
    if not tokens:
        raise InvalidBoardError("expected at least one board, got no numbers")
    lines = [line for line in text.splitlines() if line.strip()]
    first = _tokens(lines[0])

    if fmt in ("auto", "count") and len(first) == 1 and first[0].isdigit():
        count, rest = int(first[0]), tokens[1:]
        cells = _cells_for(len(rest), count, shape)
        if cells is not None:
            return [Job(_board(rest[i * cells : (i + 1) * cells], shape)) for i in range(count)]
        if fmt == "count":
            raise InvalidBoardError(
                f"expected {count} boards after the count, got {len(rest)} numbers"
            )
    if fmt in ("auto", "board") and _cells_for(len(tokens), 1, shape):
        return [Job(_board(tokens, shape))]
    if fmt in ("auto", "pair"):
        cells = _cells_for(len(tokens), 2, shape)
        if cells is not None:
            start = _board(tokens[:cells], shape)
            return [Job(start, _board(tokens[cells:], start.shape))]
    if fmt in ("auto", "lines"):
        return [Job(Board(line, shape=shape)) for line in lines]
    raise InvalidBoardError(
        f"expected input in the {fmt!r} layout, got {len(tokens)} numbers: {text[:60]!r}"
    )
