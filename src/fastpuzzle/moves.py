"""Moves: U, D, L, R name the direction the **blank** moves.

``"U"`` slides the tile above the blank down into it, so the blank goes up. Helpers here parse
move strings, invert them and convert them to tile directions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from fastpuzzle._util.checks import MAX_LISTED, ordered, shown
from fastpuzzle.errors import InvalidMoveError

__all__ = ["MOVES", "inverse", "parse_moves", "to_tile_directions"]

#: The four moves, in the order of their direction codes in the compiled core (U=0, D=1, L=2, R=3).
MOVES = "UDLR"

# Direction codes pair up: d ^ 1 undoes d (U=0 and D=1, L=2 and R=3).
_OPPOSITE = str.maketrans(MOVES, "".join(MOVES[code ^ 1] for code in range(len(MOVES))))
_WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "U": "U", "D": "D", "L": "L", "R": "R"}
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_moves(moves: str | Iterable[str]) -> str:
    """Normalise moves to a string of U/D/L/R (blank directions).

    Accepts ``"ULDR"``, lower case, separators (``"u, l, d"``), words (``"up left"``, ``"up"``)
    or an iterable of such items in order.

    Raises
    ------
    InvalidMoveError
        If an item is not a move, or ``moves`` has no order (a set, a dict: the same call would
        give other moves in another process) or is bytes.

    Examples
    --------
    >>> parse_moves("up, left d r")
    'ULDR'
    """
    parts: list[str]
    if isinstance(moves, str):
        # Each part is a word ("up") or a run of letters ("ULDR"), with or without separators.
        parts = _SEPARATORS.split(moves.strip())
    else:
        parts = ordered(
            "moves as a string or a sequence of strings",
            moves,
            error=InvalidMoveError,
            most=MAX_LISTED,
        )
        for item in parts:
            if not isinstance(item, str):
                raise InvalidMoveError(f"expected a move U, D, L or R, got {shown(item)}")
    out = []
    for part in parts:
        if not part:
            continue
        key = part.upper()
        if key in _WORDS:
            out.append(_WORDS[key])
        elif key.isalpha() and all(ch in MOVES for ch in key):
            out.extend(key)
        else:
            raise InvalidMoveError(
                "expected moves U, D, L, R (the direction the blank moves), "
                f"got {shown(part)} in {shown(moves)}"
            )
    return "".join(out)


def inverse(moves: str) -> str:
    """The moves that undo ``moves`` (reversed, each direction flipped).

    >>> inverse("ULL")
    'RRD'
    """
    return parse_moves(moves)[::-1].translate(_OPPOSITE)


def to_tile_directions(moves: str) -> str:
    """Convert blank directions to the directions the moved tiles travel (each flipped).

    >>> to_tile_directions("UL")
    'DR'
    """
    return parse_moves(moves).translate(_OPPOSITE)
