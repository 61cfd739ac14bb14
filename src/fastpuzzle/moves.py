"""Moves: U, D, L, R name the direction the **blank** moves.

``"U"`` slides the tile above the blank down into it, so the blank goes up. Helpers here parse
move strings, invert them and convert them to tile directions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from fastpuzzle._util.checks import MAX_LISTED, ordered, shown
from fastpuzzle.errors import InvalidMoveError

__all__ = ["MOVES", "inverse", "parse_moves", "to_tile_directions"]

#: The four moves, in the order of their direction codes in the compiled core (U=0, D=1, L=2, R=3).
MOVES = "UDLR"

# Direction codes pair up: d ^ 1 undoes d (U=0 and D=1, L=2 and R=3).
_OPPOSITE = str.maketrans(MOVES, "".join(MOVES[code ^ 1] for code in range(len(MOVES))))
_WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "U": "U", "D": "D", "L": "L", "R": "R"}
# A part of more than MAX_LISTED letters is more moves than that (a word has 5 at most): the
# match stops one past, so that a string of 200 MB is refused without scanning it all.
_PART = re.compile(rf"[^\s,;]{{1,{MAX_LISTED + 1}}}")


def _too_many(moves: object) -> InvalidMoveError:
    return InvalidMoveError(f"expected at most {MAX_LISTED:,} moves, got more: {shown(moves)}")


def _parts(moves: str | Iterable[str]) -> Iterator[str]:
    """Each part of ``moves``: a word or a run of letters, found in the text without copying
    the parts between them (a list of every part of a long string took eight times its
    size)."""
    if isinstance(moves, str):
        for found in _PART.finditer(moves):
            if found.end() - found.start() > MAX_LISTED:  # refused before it is copied
                raise _too_many(moves)
            yield found.group()
        return
    items = ordered(
        "moves as a string or a sequence of strings",
        moves,
        error=InvalidMoveError,
        most=MAX_LISTED,
    )
    for item in items:
        if not isinstance(item, str):
            raise InvalidMoveError(f"expected a move U, D, L or R, got {shown(item)}")
    for item in items:
        yield from _parts(item)


def parse_moves(moves: str | Iterable[str]) -> str:
    """Normalise moves to a string of U/D/L/R (blank directions).

    Accepts ``"ULDR"``, lower case, separators (``"u, l, d"``), words (``"up left"``, ``"up"``)
    or an iterable of such items in order: at most :data:`~fastpuzzle._util.checks.MAX_LISTED`
    moves in all, a string as a list.

    Raises
    ------
    InvalidMoveError
        If an item is not a move, there are more than ``MAX_LISTED`` moves, or ``moves`` has
        no order (a set, a dict: the same call would give other moves in another process) or
        is bytes.

    Examples
    --------
    >>> parse_moves("up, left d r")
    'ULDR'
    """
    if isinstance(moves, str) and len(moves) <= MAX_LISTED and moves.isalpha():
        letters = moves.upper()
        if not letters.strip(MOVES):  # a run of moves, the form solutions take: as it is
            return letters
    out: list[str] = []
    # Joined every few thousand parts: a list of one-letter strings takes 8 bytes a move.
    done: list[str] = []
    count = 0
    for part in _parts(moves):
        key = part.upper()
        if key in _WORDS:
            move = _WORDS[key]
        elif key.isalpha() and not key.strip(MOVES):
            move = key  # a run of letters: kept whole, not a list of one string a letter
        else:
            raise InvalidMoveError(
                "expected moves U, D, L, R (the direction the blank moves), "
                f"got {shown(part)} in {shown(moves)}"
            )
        count += len(move)
        if count > MAX_LISTED:
            raise _too_many(moves)
        out.append(move)
        if len(out) == _JOINED:
            done.append("".join(out))
            out.clear()
    return "".join(done) + "".join(out)


_JOINED = 4096


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
