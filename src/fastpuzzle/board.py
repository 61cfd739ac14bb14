"""The :class:`Board`: parsing, formatting, validation, moves and parity.

Moves are U, D, L, R: the direction the **blank** moves.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, Literal, TypeGuard

import numpy as np

from fastpuzzle import errors as _errors
from fastpuzzle._core import _board, _wide
from fastpuzzle._util.checks import UNORDERED, choice, is_whole, shown
from fastpuzzle._util.default_shape import OLD_DEFAULT_SHAPE, old_default_shape
from fastpuzzle.errors import (
    BoardTooLargeError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidOptionError,
)
from fastpuzzle.moves import MOVES, parse_moves

__all__ = [
    "MAX_CELLS",
    "MAX_SIDE",
    "MAX_TILES",
    "Board",
    "BoardLike",
    "Shape",
    "check_shape",
    "is_solvable",
]

#: The most cells a board with a packed form may have (one 64-bit word, 4 bits per cell).
#: Larger boards are kept as tiles only; :attr:`Board.packed` raises for them.
MAX_CELLS = 16

#: The most rows, and the most columns, a board may have (up to 100x100 = 10,000 cells).
MAX_SIDE = 100

#: The most tiles of a board: whatever a board is read from (an iterator, a ``range``, a long
#: string), reading stops at the tile after this many.
MAX_TILES = MAX_SIDE * MAX_SIDE

Shape = tuple[int, int]

_ROW_SPLIT = re.compile(r"\s*(?:/|\n|\r\n?)\s*")
_TOKEN_SPLIT = re.compile(r"[\s,;]+")
# A tile of a board's text: what the two splits above leave.
_TOKEN = re.compile(r"[^\s,;/]+")
_BLANK_TOKENS = {"_", "0", "."}
_CODES = {letter: code for code, letter in enumerate(MOVES)}


def _as_int(value: object, source: object) -> int:
    if is_whole(value):
        return int(value)
    raise InvalidBoardError(f"expected integer tiles, got {shown(value)} in {shown(source)}")


def _plain_shape(shape: object) -> Shape | None:
    """``(rows, cols)`` when ``shape`` is a valid pair of plain ints, else None (never raises)."""
    if (type(shape) is tuple or type(shape) is list) and len(shape) == 2:
        rows, cols = shape
        if (
            type(rows) is int
            and type(cols) is int
            and 2 <= rows <= MAX_SIDE
            and 2 <= cols <= MAX_SIDE
        ):
            return rows, cols
    return None


def check_shape(shape: object) -> Shape:
    """``shape`` as ``(rows, cols)``: two ints from 2 to :data:`MAX_SIDE`.

    Raises
    ------
    InvalidBoardError
        For anything else, quoting it.
    """
    plain = _plain_shape(shape)
    if plain is not None:
        return plain
    if (
        not isinstance(shape, (tuple, list))
        or len(shape) != 2
        or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in shape)
    ):
        raise InvalidBoardError(f"expected shape as (rows, cols), got {shown(shape)}")
    rows, cols = int(shape[0]), int(shape[1])
    if rows < 2 or cols < 2:
        raise InvalidBoardError(f"expected at least 2 rows and 2 columns, got shape {shown(shape)}")
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise InvalidBoardError(
            f"expected at most {MAX_SIDE} rows and {MAX_SIDE} columns, got shape {shown(shape)}"
        )
    return rows, cols


def _infer_shape(count: int, source: object) -> Shape:
    side = math.isqrt(count)
    if side * side != count or side < 2:
        raise InvalidBoardError(
            "expected a square number of tiles (4, 9, 16, 25, ...; or pass shape=(rows, cols)), "
            f"got {count}: {shown(source)}"
        )
    return check_shape((side, side))


#: Digits of the largest tile of the largest board (9999): a longer number is no tile.
_TILE_DIGITS = len(str(MAX_SIDE * MAX_SIDE - 1))


def _parse_token(token: str, source: str) -> int:
    if token in _BLANK_TOKENS:
        return 0
    # ASCII digits only (_parse_string checks the whole text is ASCII first): str.isdigit()
    # also takes superscripts, which int() refuses, and other scripts' digits, which int()
    # would silently read.
    if token.isdigit():
        # Refused before int(), which raises its own ValueError past 4,300 digits.
        if len(token.lstrip("0")) > _TILE_DIGITS:
            raise InvalidBoardError(
                f"expected tiles of at most {_TILE_DIGITS} digits (boards have at most "
                f"{MAX_SIDE * MAX_SIDE:,} cells), got a number of {len(token):,} digits: "
                f"{shown(token, 24)} in {shown(source)}"
            )
        return int(token)
    raise InvalidBoardError(
        f"expected integer tiles or '_' for the blank, got {shown(token, 40)} in {shown(source)}"
    )


def _too_many(got: str) -> InvalidBoardError:
    return InvalidBoardError(
        f"expected a board of at most {MAX_TILES:,} tiles ({MAX_SIDE}x{MAX_SIDE}), got {got}"
    )


def _check_spaced(lines: list[str], text: str) -> None:
    """Refuse tiles written without separators (``"123/456/780"``, ``"123456780"``), which
    read as one large tile a row, saying how to write them; a board of one-digit tiles only."""
    if any(_TOKEN_SPLIT.search(line) for line in lines):
        return  # separated (every usual board): nothing more to look at
    tokens = lines
    digits = "".join(tokens).replace("_", "0")
    if (
        all(len(token) > 1 for token in tokens)
        and digits.isdigit()
        and len(digits) in _ONE_DIGIT_CELLS
    ):
        spaced = "/".join(" ".join(token.replace("0", "_")) for token in tokens)
        raise InvalidBoardError(
            f"expected tiles separated by spaces or commas, got {shown(text)}, which reads as "
            f"{len(tokens)} tile{'s' * (len(tokens) != 1)} of {len(tokens[0])} digits; write "
            f"{spaced!r}"
        )


def _parse_string(text: str) -> tuple[list[int], Shape | None]:
    # Counted before the text is split, which would make a list of strings many times its
    # size; more tokens than a board's tiles take at least two characters each.
    if len(text) > 2 * MAX_TILES and next(
        itertools.islice(_TOKEN.finditer(text), MAX_TILES, None), None
    ):
        raise _too_many(f"more than {MAX_TILES:,} tokens: {shown(text)}")
    if not text.isascii():
        bad = next(ch for ch in text if not ch.isascii())
        raise InvalidBoardError(
            f"expected integer tiles or '_' for the blank, got {bad!r} in {shown(text)}"
        )
    lines = [line for line in _ROW_SPLIT.split(text.strip()) if line]
    if not lines:
        raise InvalidBoardError(f"expected tiles, got an empty board: {shown(text)}")
    _check_spaced(lines, text)
    rows = [[_parse_token(tok, text) for tok in _TOKEN_SPLIT.split(line) if tok] for line in lines]
    flat = [tile for row in rows for tile in row]
    if len(rows) == 1:
        return flat, None
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise InvalidBoardError(
            f"expected rows of equal length, got lengths {[len(r) for r in rows]}: {shown(text)}"
        )
    return flat, (len(rows), len(rows[0]))


def _coerce(data: object) -> tuple[list[int], Shape | None]:
    """Turn any board-like input into a flat tile list and, where the input fixes it, a shape."""
    if isinstance(data, str):
        return _parse_string(data)
    if isinstance(data, np.ma.MaskedArray):
        raise InvalidBoardError(
            f"expected a plain array, got a masked array (masked tiles have no value): "
            f"{shown(data.tolist())}"
        )
    if isinstance(data, np.ndarray):
        if data.dtype.kind not in "iu":
            raise InvalidBoardError(
                f"expected an integer array, got dtype {data.dtype}: {shown(data.tolist())}"
            )
        if data.size > MAX_TILES:
            raise _too_many(f"an array of {data.size:,} elements, shape {data.shape}")
        if data.ndim == 1:
            return [int(v) for v in data], None
        if data.ndim == 2:
            return [int(v) for v in data.ravel()], (int(data.shape[0]), int(data.shape[1]))
        raise InvalidBoardError(f"expected a 1-D or 2-D array, got {data.ndim} dimensions")
    # Not a board's tiles in order (see UNORDERED), or not a collection at all.
    if isinstance(data, UNORDERED) or not isinstance(data, Iterable):
        raise InvalidBoardError(
            "expected a board as a string, a sequence of tiles, rows or an array, "
            f"got {shown(data)}"
        )
    # At most one item past the largest board: an iterator may never end, and a range's list
    # may not fit in memory.
    items = list(itertools.islice(data, MAX_TILES + 1))
    if len(items) > MAX_TILES:
        raise _too_many(f"more than {MAX_TILES:,} items: {shown(data)}")
    if not items:
        raise InvalidBoardError(f"expected tiles, got an empty board: {shown(data)}")
    # A 0-d array is a scalar (and refuses to be iterated), not a row.
    nested = [
        isinstance(item, (list, tuple)) or (isinstance(item, np.ndarray) and item.ndim > 0)
        for item in items
    ]
    if all(nested):
        cells = sum(np.size(row) if isinstance(row, np.ndarray) else len(row) for row in items)
        if cells > MAX_TILES:
            raise _too_many(f"rows of {cells:,} items in all: {shown(data)}")
        rows = [[_as_int(v, data) for v in row] for row in items]
        widths = {len(row) for row in rows}
        if len(widths) != 1:
            raise InvalidBoardError(
                f"expected rows of equal length, got lengths {[len(r) for r in rows]}: "
                f"{shown(data)}"
            )
        return [v for row in rows for v in row], (len(rows), len(rows[0]))
    if any(nested):
        raise InvalidBoardError(f"expected tiles or rows of tiles, not a mix: {shown(data)}")
    return [_as_int(v, data) for v in items], None


def _check_tiles(tiles: list[int], source: object) -> None:
    count = len(tiles)
    seen = [False] * count
    for tile in tiles:
        if not 0 <= tile < count:
            raise InvalidBoardError(
                f"expected tiles 0..{count - 1} (0 = blank), got {shown(tile)}: {shown(source)}"
            )
        if seen[tile]:
            what = "the blank" if tile == 0 else f"tile {tile}"
            raise InvalidBoardError(
                f"expected each of 0..{count - 1} once, but {what} appears twice: {shown(source)}"
            )
        seen[tile] = True


#: Square shapes by cell count: what a flat input of that many tiles and no shape= is read as.
_SQUARE_SHAPES = {side * side: (side, side) for side in range(2, MAX_SIDE + 1)}

#: Cell counts of the boards whose tiles are all one digit (2x2, 2x3, 2x4, 3x3, 2x5): a run of
#: that many digits is such a board written without spaces.
_ONE_DIGIT_CELLS = frozenset({4, 6, 8, 9, 10})
_PLAIN_INT = frozenset({int})


@lru_cache(maxsize=16)
def _cell_set(count: int) -> frozenset[int]:
    return frozenset(range(count))


def _plain_board(data: object, shape: object) -> tuple[Shape, tuple[int, ...]] | None:
    """Shape and tiles of a flat tuple or list of plain ints that is a valid board, else None.

    The common input of every search, checked with a few C-level set operations instead of the
    general per-tile path. It never raises: anything it does not accept, valid or not, returns
    None and goes through the general path, which is what raises the usual errors. ``type() is``
    rather than ``isinstance`` keeps bools, int subclasses and numpy scalars on that path.
    """
    if type(data) is tuple:
        tiles = data
    elif type(data) is list and len(data) <= MAX_TILES:
        tiles = tuple(data)
    else:
        return None
    count = len(tiles)
    found = _SQUARE_SHAPES.get(count) if shape is None else _plain_shape(shape)
    if (
        found is None
        or found[0] * found[1] != count
        or not _PLAIN_INT.issuperset(map(type, tiles))
        or set(tiles) != _cell_set(count)
    ):
        return None
    return found, tiles


class Board:
    """An immutable sliding-tile board, from 2x2 up to 100x100 (rectangles too).

    Boards of up to 16 cells also have a packed form (:attr:`packed`, one 64-bit word); larger
    ones are kept as their tiles and move through a compiled cell-array path.

    Parameters
    ----------
    data : BoardLike
        A string (``"1 2 3/4 5 6/7 8 _"``: rows split by ``/`` or newlines, ``0`` or ``_`` for
        the blank), a flat sequence of tiles, a 2-D list, a numpy array, another Board, or a
        packed board (one integer, cell i at bits 4i..4i+3, as
        :func:`~fastpuzzle.random_boards` gives them) with its ``shape``.
    shape : tuple of int, optional
        ``(rows, cols)``. Needed for a flat input that is not square, and for a packed board.

    Raises
    ------
    InvalidBoardError
        If the input is not a permutation of 0..n-1 laid out as a rectangle of 2..100 rows and
        2..100 columns.

    Examples
    --------
    Moves name the direction the blank moves:

    >>> b = Board("1 2 3/4 5 6/7 8 _")
    >>> b.moves()
    ('U', 'L')
    >>> print(b.apply("U"))
    1 2 3
    4 5 _
    7 8 6

    A board iterates over its rows, and numpy sees it as its grid:

    >>> list(b)
    [(1, 2, 3), (4, 5, 6), (7, 8, 0)]
    >>> import numpy as np
    >>> np.asarray(b).shape
    (3, 3)
    """

    __slots__ = ("_blank", "_packed", "_shape", "_tiles")

    _shape: Shape
    _tiles: tuple[int, ...]
    _blank: int
    _packed: int | tuple[int, ...]

    def __init__(self, data: BoardLike, shape: Shape | None = None) -> None:
        plain = _plain_board(data, shape)
        if plain is not None:
            self._set(*plain)
            return
        if isinstance(data, Board):
            if shape is not None and check_shape(shape) != data.shape:
                raise InvalidBoardError(f"expected shape {data.shape}, got shape={shown(shape)}")
            self._set(data._shape, data._tiles)
            return
        if is_packed_word(data):
            # A packed word (what random_boards and solve_many's arrays hold): its shape says
            # how many cells it has.
            if shape is None:
                raise InvalidBoardError(
                    f"got the integer {shown(data)}: a packed board (as random_boards gives "
                    "them) needs its shape: pass shape=(rows, cols), or use "
                    "Board.from_packed(word, shape)"
                )
            board = Board.from_packed(data, shape)  # type: ignore[arg-type]
            self._set(board._shape, board._tiles)
            return
        tiles, found = _coerce(data)
        if shape is not None:
            wanted = check_shape(shape)
            if found is not None and found != wanted:
                raise InvalidBoardError(
                    f"expected shape {wanted} from shape=, but the input has shape {found}: "
                    f"{shown(data)}"
                )
            if wanted[0] * wanted[1] != len(tiles):
                raise InvalidBoardError(
                    f"expected {wanted[0] * wanted[1]} tiles for shape {wanted}, "
                    f"got {len(tiles)}: {shown(data)}"
                )
            found = wanted
        elif found is None:
            found = _infer_shape(len(tiles), data)
        else:
            found = check_shape(found)
        _check_tiles(tiles, data)
        self._set(found, tuple(tiles))

    def _set(self, shape: Shape, tiles: tuple[int, ...]) -> None:
        object.__setattr__(self, "_shape", shape)
        object.__setattr__(self, "_tiles", tiles)
        object.__setattr__(self, "_blank", tiles.index(0))
        # ``_packed`` is the equality/hash key: the packed word up to 16 cells, else the tiles.
        key = _board.pack(tiles) if len(tiles) <= MAX_CELLS else tiles
        object.__setattr__(self, "_packed", key)

    @classmethod
    def _trusted(cls, shape: Shape, tiles: tuple[int, ...]) -> Board:
        board = cls.__new__(cls)
        board._set(shape, tiles)
        return board

    @classmethod
    def from_packed(cls, packed: int, shape: Shape) -> Board:
        """Build a board from its packed form (cell i at bits 4i..4i+3), checking it.

        Raises
        ------
        BoardTooLargeError
            If ``shape`` has more than 16 cells (such boards have no packed form).

        Examples
        --------
        >>> Board.from_packed(Board("1 2/3 _").packed, shape=(2, 2))
        Board('1 2/3 _')
        """
        rows, cols = check_shape(shape)
        if rows * cols > MAX_CELLS:
            raise BoardTooLargeError(
                f"expected a shape of at most {MAX_CELLS} cells for a packed board, "
                f"got shape {shown(shape)} ({rows * cols} cells)"
            )
        if isinstance(packed, (bool, np.bool_)) or not isinstance(packed, (int, np.integer)):
            raise InvalidBoardError(
                f"expected an integer packed board, got {shown(packed)} of type "
                f"{type(packed).__name__}"
            )
        packed = int(packed)
        if not 0 <= packed < 1 << (4 * rows * cols):
            raise InvalidBoardError(
                f"expected a packed board of {rows * cols} cells, got {packed:#x}"
            )
        tiles = list(_board.unpack(packed, rows * cols))
        _check_tiles(tiles, hex(packed))
        return cls._trusted((rows, cols), tuple(tiles))

    @classmethod
    def goal(
        cls, shape: Shape = OLD_DEFAULT_SHAPE, blank: Literal["last", "first"] = "last"
    ) -> Board:
        """The usual goal: tiles 1..n-1 in reading order, the blank ``last`` or ``first``.

        Omitting ``shape`` gives the 3x3 goal after a ``FutureWarning``: the default becomes
        (4, 4), the library's default, in the next minor release.

        >>> Board.goal((2, 3), blank="first")
        Board('_ 1 2/3 4 5')
        """
        rows, cols = check_shape(old_default_shape(shape, "Board.goal()"))
        first = choice("blank", blank, ("last", "first"), error=InvalidBoardError) == "first"
        return _goal_board(rows, cols, first)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Board is immutable")

    # -- attributes ------------------------------------------------------------------------
    @property
    def shape(self) -> Shape:
        """``(rows, cols)``."""
        return self._shape

    @property
    def rows(self) -> int:
        """Number of rows."""
        return self._shape[0]

    @property
    def cols(self) -> int:
        """Number of columns."""
        return self._shape[1]

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self._tiles)

    @property
    def tiles(self) -> tuple[int, ...]:
        """Tiles in reading order, 0 for the blank."""
        return self._tiles

    @property
    def blank(self) -> int:
        """The blank's cell index (reading order, from 0)."""
        return self._blank

    @property
    def blank_position(self) -> tuple[int, int]:
        """The blank's ``(row, col)``."""
        return divmod(self._blank, self._shape[1])

    @property
    def packed(self) -> int:
        """The board as one integer: cell i at bits 4i..4i+3.

        Raises
        ------
        BoardTooLargeError
            If the board has more than 16 cells (use :attr:`tiles`).
        """
        key = self._packed
        if isinstance(key, tuple):
            raise BoardTooLargeError(
                f"expected a board of at most {MAX_CELLS} cells for the packed form, got a "
                f"{self.rows}x{self.cols} board ({self.size} cells); use .tiles instead"
            )
        return key

    def __getitem__(self, position: tuple[int, int]) -> int:
        """The tile at ``board[row, col]`` (0 for the blank).

        Raises
        ------
        InvalidOptionError
            If ``position`` is not a pair of integers.
        IndexError
            If it lies off the board (Python's protocol for indexing).
        """
        if not (
            isinstance(position, (tuple, list))
            and len(position) == 2
            and all(map(is_whole, position))
        ):
            raise InvalidOptionError(
                f"expected a (row, col) position of integers, got {shown(position)}"
            )
        row, col = int(position[0]), int(position[1])
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(
                f"position {shown(position)} is outside a {self.rows}x{self.cols} board"
            )
        return self._tiles[row * self.cols + col]

    # -- value semantics -------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._shape == other._shape and self._packed == other._packed

    def __hash__(self) -> int:
        return hash((self._shape, self._packed))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Board, (list(self._tiles), self._shape))

    def to_list(self) -> list[list[int]]:
        """Rows of tiles as a 2-D list (0 for the blank)."""
        cols = self.cols
        return [list(self._tiles[r * cols : (r + 1) * cols]) for r in range(self.rows)]

    def to_numpy(self) -> np.ndarray:
        """A ``(rows, cols)`` array of tiles (0 for the blank)."""
        return np.array(self._tiles, dtype=np.int64).reshape(self._shape)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        # np.asarray(board) is the grid, as to_numpy(); a board owns no array to share, so a
        # request for no copy cannot be met.
        if copy is False:
            raise ValueError("a Board holds no array: numpy must copy its tiles")
        grid = self.to_numpy()
        return grid if dtype is None else grid.astype(dtype)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """The rows, each a tuple of tiles (0 for the blank), top to bottom."""
        cols = self.cols
        for row in range(self.rows):
            yield self._tiles[row * cols : (row + 1) * cols]

    def to_string(self, row_separator: str = "/") -> str:
        """One-line form that :class:`Board` parses back, e.g. ``'1 2 3/4 5 6/7 8 _'``.

        Raises
        ------
        InvalidOptionError
            If ``row_separator`` is not a string.
        """
        if not isinstance(row_separator, str):
            raise InvalidOptionError(
                f"expected row_separator as a string, got {shown(row_separator)}"
            )
        cells = ["_" if t == 0 else str(t) for t in self._tiles]
        cols = self.cols
        return row_separator.join(
            " ".join(cells[r * cols : (r + 1) * cols]) for r in range(self.rows)
        )

    def __str__(self) -> str:
        width = len(str(self.size - 1))
        cells = ["_".rjust(width) if t == 0 else str(t).rjust(width) for t in self._tiles]
        cols = self.cols
        return "\n".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(self.rows))

    def __repr__(self) -> str:
        return f"Board({self.to_string()!r})"

    def _repr_svg_(self) -> str:
        # Lazy: a cycle (render draws Boards), and import fastpuzzle loads no render.
        from fastpuzzle.render import board_svg

        return board_svg(self)

    # -- moves (U, D, L, R: the direction the blank moves) ----------------------------------
    def moves(self) -> tuple[str, ...]:
        """Legal moves, in the order U, D, L, R (the direction the blank moves)."""
        row, col = self.blank_position
        legal = (row > 0, row < self.rows - 1, col > 0, col < self.cols - 1)
        return tuple(m for m, ok in zip(MOVES, legal, strict=False) if ok)

    def apply(self, moves: str | Iterable[str]) -> Board:
        """The board after a sequence of moves (blank directions), e.g. ``"ULDR"``.

        Raises
        ------
        InvalidMoveError
            If a move is not U, D, L or R.
        IllegalMoveError
            If a move would take the blank off the board.
        """
        # A plain "UDLR..." string (the common case, and millions of moves long for big boards)
        # skips the general parser; deleting its letters leaves nothing.
        if isinstance(moves, str) and not moves.translate(_DROP_MOVES):
            text = moves
        else:
            text = parse_moves(moves)
        codes = np.frombuffer(text.translate(_CODE_TABLE).encode("latin-1"), dtype=np.uint8)
        key = self._packed
        if isinstance(key, tuple):
            cells = np.array(key, dtype=np.uint16)
            _, failed = _wide.apply_moves(cells, self._blank, *self._shape, codes)
        else:
            packed, _, failed = _board.apply_moves(key, self._blank, *self._shape, codes)
        if failed >= 0:
            quoted = shown(text, 60)
            raise IllegalMoveError(
                f"move {text[failed]!r} (number {failed + 1} of {quoted}) would take the blank "
                f"off the board; expected one of {''.join(self._after(text[:failed]).moves())}"
            )
        if isinstance(key, tuple):
            return Board._trusted(self._shape, tuple(cells.tolist()))
        return Board._trusted(self._shape, _board.unpack(packed, self.size))

    def _after(self, moves: str) -> Board:
        return self.apply(moves) if moves else self

    def move(self, move: str) -> Board:
        """The board after one move: the same as :meth:`apply`, the documented name, which
        takes any number of moves."""
        return self.apply(move)

    def successors(self) -> list[tuple[str, Board]]:
        """``(move, board)`` for every legal move, in the order U, D, L, R."""
        return [(m, self.apply(m)) for m in self.moves()]

    def tiles_moved(self, moves: str | Iterable[str]) -> list[int]:
        """The tile numbers that slide, one per move (blank directions).

        >>> Board("1 2 3/4 5 6/7 8 _").tiles_moved("UL")
        [6, 5]
        """
        text = parse_moves(moves)
        self.apply(text)  # raises for an illegal move, with the usual message
        cells, blank, cols = list(self._tiles), self._blank, self.cols
        step = {"U": -cols, "D": cols, "L": -1, "R": 1}
        out = []
        for m in text:
            target = blank + step[m]
            out.append(cells[target])
            cells[blank], cells[target] = cells[target], 0
            blank = target
        return out

    def is_solvable(self, goal: BoardLike | None = None) -> bool:
        """Whether ``goal`` (default: :meth:`Board.goal` with the blank last) can be reached."""
        return is_solvable(self, goal)


_CODE_TABLE = str.maketrans({letter: chr(code) for letter, code in _CODES.items()})
_DROP_MOVES = str.maketrans("", "", MOVES)


@lru_cache(maxsize=16)
def _goal_board(rows: int, cols: int, blank_first: bool) -> Board:
    # Boards are immutable, so every search of a shape can share one default goal.
    n = rows * cols
    tiles = tuple(range(n)) if blank_first else (*range(1, n), 0)
    return Board._trusted((rows, cols), tiles)


# errors.py is imported before this module (it cannot import it): its hints name Board.
_errors.Board = Board  # type: ignore[attr-defined]

#: What every function taking a board accepts (see :class:`Board`). Defined after the class,
#: not with a string naming it, so that ``typing.get_type_hints`` of a function in any module
#: resolves it (beartype, pydantic and sphinx-autodoc-typehints read hints so).
BoardLike = Board | str | Sequence[int] | Sequence[Sequence[int]] | np.ndarray | int | np.integer


def is_packed_word(data: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``data`` is one integer (a packed board, as :func:`~fastpuzzle.random_boards`
    gives them: ``numpy.uint64`` or a Python int), not a bool."""
    return isinstance(data, (int, np.integer)) and not isinstance(data, (bool, np.bool_))


def as_board(data: BoardLike, shape: Shape | None = None) -> Board:
    """Return ``data`` as a Board (itself when it already is one with a matching shape)."""
    if isinstance(data, Board) and (shape is None or tuple(shape) == data.shape):
        return data
    return Board(data, shape=shape)


def as_goal(board: Board, goal: BoardLike | None) -> Board:
    """The goal for ``board``: the default goal of its shape, or ``goal`` checked against it."""
    if goal is None:
        return _goal_board(*board.shape, False)
    result = goal if isinstance(goal, Board) else Board(goal, shape=board.shape)
    if result.shape != board.shape:
        raise InvalidBoardError(
            f"expected a goal of shape {board.shape}, got shape {result.shape}: "
            f"{result.to_string()!r}"
        )
    return result


def _permutation_parity(cells: Sequence[int]) -> int:
    """Parity of ``cells`` as a permutation of 0..n-1.

    Sorting by swaps takes one swap per element put in place, n minus the number of cycles in
    all, which is the parity; no visited list is needed.
    """
    order = list(cells)
    swaps = 0
    for cell in range(len(order)):
        target = order[cell]
        while target != cell:
            order[cell], order[target] = order[target], target
            target = order[cell]
            swaps += 1
    return swaps & 1


@lru_cache(maxsize=16)
def _goal_parity(tiles: tuple[int, ...]) -> int:
    # Goals repeat from search to search, so each one's parity is worked out once.
    return _permutation_parity(tiles)


def solvable_pair(start: Board, target: Board) -> bool:
    """:func:`is_solvable` for two checked boards of the same shape."""
    # The permutation taking the start to the goal is goal^-1 . start, whose parity is the
    # sum of theirs.
    parity = _permutation_parity(start._tiles) ^ _goal_parity(target._tiles)
    cols = start._shape[1]
    (r1, c1), (r2, c2) = divmod(start._blank, cols), divmod(target._blank, cols)
    return parity == (abs(r1 - r2) + abs(c1 - c2)) % 2


def is_solvable(board: BoardLike, goal: BoardLike | None = None) -> bool:
    """Whether ``goal`` can be reached from ``board``, for any shape and any goal.

    Each move is a transposition of the blank with a neighbour, so the permutation taking
    ``board`` to ``goal`` (blank included) must have the parity of the blank's Manhattan
    displacement; on a connected grid that condition is also sufficient.

    >>> is_solvable("1 2 3/4 5 6/8 7 _")
    False
    """
    start = as_board(board)
    return solvable_pair(start, as_goal(start, goal))
