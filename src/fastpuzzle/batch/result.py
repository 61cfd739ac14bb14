"""The columns of a batch: one chunk's rows as they are solved, the whole batch in input order.

A finished chunk is kept compactly (:class:`PackedChunk`: fixed-width numpy columns, the moves
as one byte string, messages only where there is one), and :class:`BatchResult` turns rows into
Python strings only when they are asked for. Where the rows live is a :class:`RowSource`: memory
(:class:`MemoryRows`) or the chunk files of ``out=`` (:class:`~fastpuzzle.batch.store.ChunkStore`).
"""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Protocol, overload

import numpy as np

from fastpuzzle._util.files import write_text_atomically
from fastpuzzle._util.optional import require
from fastpuzzle._util.text_tables import MAX_ROWS, Table
from fastpuzzle._util.units import duration
from fastpuzzle.moves import MOVES

__all__ = [
    "COLUMNS",
    "STATUSES",
    "BatchInterrupted",
    "BatchResult",
    "ChunkResult",
    "MemoryRows",
    "MoveStrings",
    "Numbers",
    "PackedChunk",
    "RowSource",
]

#: The move letters as bytes, for checking a column of moves read back.
_MOVE_BYTES = MOVES.encode("ascii")

COLUMNS = (
    "index", "length", "lower_bound", "status", "expanded", "generated", "seconds", "moves",
    "message",
)  # fmt: skip

#: Every status a row can have; a row's status is stored as its position here.
STATUSES = (
    "solved",
    "unsolvable",
    "invalid",
    "time_limit",
    "node_limit",
    "memory_limit",
    "depth_limit",
    "exhausted",
    "error",
    # Only in the result that Ctrl-C leaves (BatchInterrupted): a row of a chunk not finished.
    "interrupted",
)
_STATUS_CODE = {name: code for code, name in enumerate(STATUSES)}
_STATUS_NAMES = np.array(STATUSES, dtype=object)
_SOLVED = _STATUS_CODE["solved"]


@dataclass
class ChunkResult:
    """The columns of one chunk, in row order."""

    index: list[int] = field(default_factory=list)
    length: list[int] = field(default_factory=list)
    lower_bound: list[int] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    expanded: list[int] = field(default_factory=list)
    generated: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)

    def add(
        self,
        index: int,
        length: int,
        status: str,
        stats: Any,
        moves: str,
        message: str,
        lower_bound: int = -1,
    ) -> None:
        """Append a row; ``lower_bound`` the solution's (a solved row's), else -1."""
        self.index.append(index)
        self.length.append(length)
        self.lower_bound.append(lower_bound)
        self.status.append(status)
        self.expanded.append(int(getattr(stats, "expanded", 0)))
        self.generated.append(int(getattr(stats, "generated", 0)))
        self.seconds.append(float(getattr(stats, "seconds", 0.0)))
        self.moves.append(moves)
        self.message.append(message)

    def rows(self) -> Iterator[tuple[Any, ...]]:
        return zip(*(getattr(self, name) for name in COLUMNS))


@dataclass(frozen=True)
class PackedChunk:
    """One chunk's rows, checked, in about 41 bytes a row plus one byte a move.

    Attributes
    ----------
    first : int
        Global index of the first row.
    length, lower_bound, status, expanded, generated, seconds : numpy.ndarray
        ``int32``, ``int32``, ``uint8`` (a position in :data:`STATUSES`), ``int64``, ``int64``,
        ``float64``.
    moves : bytes
        Every row's moves (ASCII U/D/L/R), one row after another.
    offsets : numpy.ndarray
        ``int64``, one more than the rows: row ``k``'s moves are ``moves[offsets[k]:offsets[k+1]]``.
    messages : dict of int to str
        The non-empty messages, by row number within the chunk.
    """

    first: int
    length: np.ndarray
    lower_bound: np.ndarray
    status: np.ndarray
    expanded: np.ndarray
    generated: np.ndarray
    seconds: np.ndarray
    moves: bytes
    offsets: np.ndarray
    messages: dict[int, str]

    def __len__(self) -> int:
        return len(self.length)

    def move(self, k: int) -> str:
        """Row ``k``'s moves."""
        return self.moves[self.offsets[k] : self.offsets[k + 1]].decode("ascii")

    @classmethod
    def from_columns(cls, first: int, rows: int, columns: ChunkResult) -> PackedChunk:
        """Check a chunk's columns and pack them.

        Raises
        ------
        ValueError
            A column has the wrong number of rows, the indexes are not ``first`` to
            ``first + rows - 1`` in order, a status is unknown, a length does not match its
            moves (solved rows: one move per step in U/D/L/R; other rows: -1 and no moves), or a
            lower bound its row (solved rows: 0 to the length; other rows: -1).
        """
        for name in COLUMNS:
            if len(getattr(columns, name)) != rows:
                raise ValueError(f"expected {rows} rows, got {len(getattr(columns, name))}")
        index = np.asarray(columns.index, dtype=np.int64)
        if not np.array_equal(index, np.arange(first, first + rows, dtype=np.int64)):
            raise ValueError(f"expected the indexes {first} to {first + rows - 1} in order")
        try:
            status = np.fromiter(
                (_STATUS_CODE[name] for name in columns.status), dtype=np.uint8, count=rows
            )
        except KeyError as error:
            raise ValueError(f"unknown status {error.args[0]!r}") from None
        length = np.asarray(columns.length, dtype=np.int64)
        sizes = np.fromiter(map(len, columns.moves), dtype=np.int64, count=rows)
        solved = status == _SOLVED
        if (length[solved] != sizes[solved]).any() or (length[~solved] != -1).any():
            row = int(np.flatnonzero(np.where(solved, length != sizes, length != -1))[0])
            raise ValueError(
                f"row {first + row}: length {int(length[row])} does not fit status "
                f"{columns.status[row]!r} and {sizes[row]} moves"
            )
        bound = np.asarray(columns.lower_bound, dtype=np.int64)
        wrong = np.where(solved, (bound < 0) | (bound > length), bound != -1)
        if wrong.any():
            row = int(np.flatnonzero(wrong)[0])
            raise ValueError(
                f"row {first + row}: lower bound {int(bound[row])} does not fit status "
                f"{columns.status[row]!r} and length {int(length[row])}"
            )
        moves = "".join(columns.moves).encode("ascii", errors="replace")
        if moves.translate(None, _MOVE_BYTES):
            raise ValueError("moves hold letters other than U, D, L, R")
        offsets = np.zeros(rows + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        return cls(
            first,
            length.astype(np.int32),
            bound.astype(np.int32),
            status,
            np.asarray(columns.expanded, dtype=np.int64),
            np.asarray(columns.generated, dtype=np.int64),
            np.asarray(columns.seconds, dtype=np.float64),
            moves,
            offsets,
            {k: text for k, text in enumerate(columns.message) if text},
        )


@dataclass(frozen=True)
class Numbers:
    """A whole batch's fixed-width columns (33 bytes a row) and its non-empty messages."""

    length: np.ndarray
    lower_bound: np.ndarray
    status: np.ndarray
    expanded: np.ndarray
    generated: np.ndarray
    seconds: np.ndarray
    messages: dict[int, str]

    @classmethod
    def empty(cls, total: int) -> Numbers:
        """``total`` rows not solved yet: length and bound -1, every count 0, no message."""
        return cls(
            np.full(total, -1, dtype=np.int32),
            np.full(total, -1, dtype=np.int32),
            np.zeros(total, dtype=np.uint8),
            np.zeros(total, dtype=np.int64),
            np.zeros(total, dtype=np.int64),
            np.zeros(total, dtype=np.float64),
            {},
        )

    def take(self, chunk: PackedChunk) -> None:
        """Copy ``chunk``'s rows into their places."""
        start, stop = chunk.first, chunk.first + len(chunk)
        self.length[start:stop] = chunk.length
        self.lower_bound[start:stop] = chunk.lower_bound
        self.status[start:stop] = chunk.status
        self.expanded[start:stop] = chunk.expanded
        self.generated[start:stop] = chunk.generated
        self.seconds[start:stop] = chunk.seconds
        self.messages.update((start + k, text) for k, text in chunk.messages.items())


class RowSource(Protocol):
    """Where a batch's rows live: ``total`` rows in chunks of ``chunk_size`` (the last shorter)."""

    total: int
    chunk_size: int

    def chunk_moves(self, number: int) -> tuple[bytes, np.ndarray]:
        """Chunk ``number``'s moves and offsets, as in :class:`PackedChunk`."""
        ...

    def numbers(self) -> Numbers:
        """Every row's fixed-width columns and messages."""
        ...


class MemoryRows:
    """A batch's rows in memory: preallocated columns, filled as chunks finish (about 63 bytes a
    3x3 board: 33 fixed, 8 of offsets, 22 moves)."""

    def __init__(self, total: int, chunk_size: int) -> None:
        self.total = total
        self.chunk_size = chunk_size
        self._numbers = Numbers.empty(total)
        self._moves: dict[int, tuple[bytes, np.ndarray]] = {}

    def put(self, number: int, chunk: PackedChunk) -> None:
        """Store chunk ``number``."""
        self._numbers.take(chunk)
        self._moves[number] = (chunk.moves, chunk.offsets)

    def chunk_moves(self, number: int) -> tuple[bytes, np.ndarray]:
        return self._moves[number]

    def numbers(self) -> Numbers:
        return self._numbers


class PartialRows:
    """The rows of a batch that Ctrl-C stopped: those of its finished chunks, read from
    ``source`` when first asked for; every other row has the status ``"interrupted"``, no
    length (-1) and no moves."""

    def __init__(self, source: Any, finished: Iterable[int]) -> None:
        self.source = source
        self.total: int = source.total
        self.chunk_size: int = source.chunk_size
        self.finished = frozenset(finished)

    def chunk_moves(self, number: int) -> tuple[bytes, np.ndarray]:
        if number in self.finished:
            moves: tuple[bytes, np.ndarray] = self.source.chunk_moves(number)
            return moves
        start = number * self.chunk_size
        rows = min(self.chunk_size, self.total - start)
        return b"", np.zeros(rows + 1, dtype=np.int64)

    def numbers(self) -> Numbers:
        total, size = self.total, self.chunk_size
        if isinstance(self.source, MemoryRows):
            given = self.source.numbers()
            out = Numbers(
                given.length.copy(),
                given.lower_bound.copy(),
                given.status.copy(),
                given.expanded.copy(),
                given.generated.copy(),
                given.seconds.copy(),
                dict(given.messages),
            )
        else:  # chunk files: only the finished ones exist
            out = Numbers.empty(total)
            for number in sorted(self.finished):
                out.take(self.source.load(number))
        for number in range(-(-total // size)):
            if number not in self.finished:
                rows = slice(number * size, min(total, (number + 1) * size))
                out.length[rows] = -1
                out.lower_bound[rows] = -1
                out.status[rows] = _STATUS_CODE["interrupted"]
        return out


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`~fastpuzzle.solve_many`: a ``KeyboardInterrupt`` that carries the
    rows finished, as :class:`~fastpuzzle.compare.ComparisonInterrupted` does for
    :func:`~fastpuzzle.compare`.

    Attributes
    ----------
    result : BatchResult
        Every row in input order: those of the chunks that finished as they were solved, the
        others with the status ``"interrupted"`` (length -1, no moves). With ``out=``, the
        finished chunks are in their files too, and ``resume=True`` goes on from them.
    finished : int
        How many rows finished.
    """

    def __init__(self, result: BatchResult, finished: int) -> None:
        super().__init__(
            f"solve_many() interrupted: {finished:,} of {len(result):,} boards finished"
        )
        self.result = result
        self.finished = finished


class MoveStrings(Sequence[str]):
    """A batch's move strings, decoded one row at a time.

    Indexes, slices, iterates and compares like the object array it stands for: an integer
    gives a ``str``; a slice, an integer array or a boolean mask gives an object array; ``==``
    and ``!=`` compare row by row (as arrays do); ``numpy.asarray`` and :meth:`tolist` give every
    string at once.
    """

    def __init__(self, source: RowSource) -> None:
        self._source = source
        self._cached: tuple[int, bytes, np.ndarray] | None = None

    def __len__(self) -> int:
        return self._source.total

    def _chunk(self, number: int) -> tuple[bytes, np.ndarray]:
        # One chunk is kept decoded: reading rows in order reads each chunk once.
        if self._cached is None or self._cached[0] != number:
            moves, offsets = self._source.chunk_moves(number)
            self._cached = (number, moves, offsets)
        return self._cached[1], self._cached[2]

    def _one(self, i: int) -> str:
        number, k = divmod(i, self._source.chunk_size)
        moves, offsets = self._chunk(number)
        return moves[offsets[k] : offsets[k + 1]].decode("ascii")

    @overload
    def __getitem__(self, key: int) -> str: ...

    @overload
    def __getitem__(self, key: Any) -> Any: ...

    def __getitem__(self, key: Any) -> Any:
        total = len(self)
        if isinstance(key, (int, np.integer)):
            i = operator.index(key)
            if not -total <= i < total:
                raise IndexError(f"index {i} is out of bounds for {total} rows")
            return self._one(i % total if i < 0 else i)
        if isinstance(key, slice):
            picked: Iterable[int] = range(total)[key]
        else:
            where = np.asarray(key)
            if where.dtype == bool:
                if where.shape != (total,):
                    raise IndexError(f"a boolean mask needs {total} entries, got {where.shape}")
                where = np.flatnonzero(where)
            elif where.dtype.kind not in "iu" or where.ndim != 1:
                raise IndexError("rows are picked by an integer, a slice, integers or a mask")
            if len(where) and not (-total <= where.min() and where.max() < total):
                raise IndexError(f"an index is out of bounds for {total} rows")
            picked = (where % total).tolist() if total else []
        out = [self._one(i) for i in picked]
        array = np.empty(len(out), dtype=object)
        array[:] = out
        return array

    def byte_matrix(self, start: int, stop: int) -> np.ndarray:
        """Rows ``start:stop``'s moves as a ``(rows, width)`` uint8 matrix padded with NUL
        bytes, cut from each chunk's bytes by numpy (no string a row)."""
        size = self._source.chunk_size
        pieces = []
        for number in range(start // size, -(-stop // size)):
            moves, offsets = self._source.chunk_moves(number)
            low = max(start - number * size, 0)
            high = min(stop - number * size, len(offsets) - 1)
            pieces.append((np.frombuffer(moves, dtype=np.uint8), offsets[low : high + 1]))
        width = max([int(np.diff(bounds).max(initial=0)) for _, bounds in pieces] + [1])
        out = np.zeros((max(stop - start, 0), width), dtype=np.uint8)
        row = 0
        columns = np.arange(width)
        for data, bounds in pieces:
            count = len(bounds) - 1
            inside = columns[None, :] < np.diff(bounds)[:, None]
            out[row : row + count][inside] = data[(bounds[:-1, None] + columns[None, :])[inside]]
            row += count
        return out

    def buffers(self) -> tuple[bytes, np.ndarray]:
        """Every row's moves one after another, and ``int64`` offsets (one more than the rows:
        row ``k``'s moves are ``data[offsets[k]:offsets[k + 1]]``), as Arrow lays strings out."""
        size = self._source.chunk_size
        data: list[bytes] = []
        offsets = [np.zeros(1, dtype=np.int64)]
        done = 0
        for number in range(-(-len(self) // size)):
            moves, bounds = self._source.chunk_moves(number)
            data.append(moves)
            offsets.append(bounds[1:] + done)
            done += len(moves)
        return b"".join(data), np.concatenate(offsets)

    def __iter__(self) -> Iterator[str]:
        size = self._source.chunk_size
        for number, start in enumerate(range(0, len(self), size)):
            moves, offsets = self._chunk(number)
            bounds = offsets.tolist()
            for k in range(min(size, len(self) - start)):
                yield moves[bounds[k] : bounds[k + 1]].decode("ascii")

    def tolist(self) -> list[str]:
        """Every move string."""
        return list(self)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        array = np.empty(len(self), dtype=object)
        array[:] = self.tolist()
        return array if dtype is None else array.astype(dtype)

    def __eq__(self, other: object) -> Any:
        return np.asarray(self) == other

    def __ne__(self, other: object) -> Any:
        return np.asarray(self) != other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        head = ", ".join(repr(self._one(i)) for i in range(min(3, len(self))))
        more = ", ..." if len(self) > 3 else ""
        return f"MoveStrings([{head}{more}], rows={len(self)})"


def _cut(text: str, keep: int = 40) -> str:
    """A long board or move string shortened for a table cell."""
    return text if len(text) <= keep else f"{text[: keep - 1]}…"


_COLUMN_NAMES = ("lengths", "status", "expanded", "generated", "seconds", "moves", "messages")
#: The column that a result built from columns without it gets (see :class:`BatchResult`).
_BOUNDS = "lower_bounds"


class BatchResult:
    """Columns of a batch, in input order.

    A batch solved without ``out=`` keeps its rows compactly in memory; with ``out=`` it reads
    them back from the chunk files when a column is first asked for. Either way a column is
    built on first use and kept.

    Attributes
    ----------
    lengths : numpy.ndarray
        Solution lengths (int32), -1 where a row was not solved: numpy has no missing
        integer. Everything else says *missing* there, as a comparison does: ``None`` in
        :meth:`to_records`, ``<NA>`` in :meth:`to_pandas`, an empty field in CSV, ``null`` in
        JSON lines and Parquet (a nullable column).
    status : numpy.ndarray
        ``"solved"``, or why not: ``"unsolvable"``, ``"invalid"``, ``"time_limit"``,
        ``"node_limit"``, ``"memory_limit"``, ``"depth_limit"``, ``"exhausted"``, ``"error"``,
        and in the result that Ctrl-C leaves (:class:`BatchInterrupted`) ``"interrupted"``
        for the rows it did not let finish.
    lower_bounds : numpy.ndarray
        Each solution's certified lower bound on the optimal length (int32; its length for an
        optimal search, :attr:`Solution.lower_bound <fastpuzzle.Solution.lower_bound>` for
        ``optimal=False``), -1 where a row was not solved, and missing there as ``lengths`` is.
        :attr:`gaps` divides the lengths by them.
    expanded, generated : numpy.ndarray
        Nodes (int64) per row.
    seconds : numpy.ndarray
        Search time per row (float64).
    moves : MoveStrings or numpy.ndarray
        Move strings (U/D/L/R, blank directions), ``""`` where not solved; from
        :func:`~fastpuzzle.solve_many`, a :class:`~fastpuzzle.batch.result.MoveStrings` that
        decodes rows as they are read.
    messages : numpy.ndarray
        Error messages, ``""`` for solved rows.
    """

    def __init__(
        self,
        lengths: np.ndarray,
        status: np.ndarray,
        expanded: np.ndarray,
        generated: np.ndarray,
        seconds: np.ndarray,
        moves: Any,
        messages: np.ndarray,
        lower_bounds: np.ndarray | None = None,
    ) -> None:
        self._source: RowSource | None = None
        self._boards: Sequence[str] | None = None
        self._total = len(lengths)
        columns = (lengths, status, expanded, generated, seconds, moves, messages)
        self._columns: dict[str, Any] = dict(zip(_COLUMN_NAMES, columns))
        if lower_bounds is None:
            # No bound known: 0 where solved (as a Solution built without one), -1 elsewhere.
            lower_bounds = np.where(np.asarray(lengths) < 0, -1, 0).astype(np.int32)
        self._columns[_BOUNDS] = lower_bounds

    @classmethod
    def over(cls, source: RowSource) -> BatchResult:
        """A result whose columns are read from ``source`` when first asked for."""
        self = cls.__new__(cls)
        self._source = source
        self._boards = None
        self._total = source.total
        self._columns = {}
        return self

    def _column(self, name: str) -> Any:
        if name not in self._columns:
            assert self._source is not None  # an eager result has every column
            if name == "moves":
                self._columns[name] = MoveStrings(self._source)
            else:
                self._columns[name] = self._numbered(name)
        return self._columns[name]

    def _numbers(self) -> Numbers:
        if "_numbers" not in self._columns:
            assert self._source is not None
            self._columns["_numbers"] = self._source.numbers()
        numbers: Numbers = self._columns["_numbers"]
        return numbers

    def _numbered(self, name: str) -> np.ndarray:
        numbers = self._numbers()
        if name == "status":
            return np.asarray(_STATUS_NAMES[numbers.status])
        if name == "messages":
            messages = np.full(self._total, "", dtype=object)
            for i, text in numbers.messages.items():
                messages[i] = text
            return messages
        field_name = {"lengths": "length", _BOUNDS: "lower_bound"}.get(name, name)
        column: np.ndarray = getattr(numbers, field_name)
        return column

    @property
    def lengths(self) -> np.ndarray:
        column: np.ndarray = self._column("lengths")
        return column

    @property
    def lower_bounds(self) -> np.ndarray:
        column: np.ndarray = self._column(_BOUNDS)
        return column

    @property
    def gaps(self) -> np.ndarray:
        """How far from optimal each solution may be: its length over its lower bound (float64;
        1.0 for an optimal one, ``inf`` without a positive bound, NaN where not solved), as
        :attr:`Solution.gap <fastpuzzle.Solution.gap>`."""
        lengths = np.asarray(self.lengths, dtype=np.float64)
        bounds = np.asarray(self.lower_bounds, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            gaps = np.where(bounds > 0, lengths / np.where(bounds > 0, bounds, 1.0), np.inf)
        gaps[lengths == 0] = 1.0
        gaps[~self.solved] = np.nan
        return gaps

    @property
    def status(self) -> np.ndarray:
        column: np.ndarray = self._column("status")
        return column

    @property
    def expanded(self) -> np.ndarray:
        column: np.ndarray = self._column("expanded")
        return column

    @property
    def generated(self) -> np.ndarray:
        column: np.ndarray = self._column("generated")
        return column

    @property
    def seconds(self) -> np.ndarray:
        column: np.ndarray = self._column("seconds")
        return column

    @property
    def moves(self) -> Any:
        return self._column("moves")

    @property
    def messages(self) -> np.ndarray:
        column: np.ndarray = self._column("messages")
        return column

    def __len__(self) -> int:
        return self._total

    def __repr__(self) -> str:
        return (
            f"<BatchResult: {self._total:,} rows, {int(self.solved.sum()):,} solved; "
            "print() it for the table>"
        )

    def _table(self) -> Table:
        # Only the rows shown are formatted (a batch may hold millions).
        boards = self.boards
        header = ("index", *(("board",) if boards is not None else ()), "status", "length")
        header += ("expanded", "generated", "time", "moves", "message")
        numeric = {0, len(header) - 6, len(header) - 5, len(header) - 4, len(header) - 3}

        def row(i: int) -> tuple[str, ...]:
            length = int(self.lengths[i])
            return (
                f"{i:,}",
                *((_cut(boards[i]),) if boards is not None else ()),
                str(self.status[i]),
                "-" if length < 0 else f"{length:,}",
                f"{int(self.expanded[i]):,}",
                f"{int(self.generated[i]):,}",
                duration(float(self.seconds[i])),
                _cut(str(self.moves[i])),
                _cut(str(self.messages[i]), 48),
            )

        return Table(header, self._total, row, frozenset(numeric))

    def _summary_line(self) -> str:
        summary = self.summary()
        others = "".join(f", {n:,} {status}" for status, n in summary["statuses"].items())
        return (
            f"{summary['rows']:,} rows: {summary['solved']:,} solved{others}; search time "
            f"{duration(summary['search seconds'])} in all"
        )

    def __str__(self) -> str:
        """The rows as a table (past 60, the first and last five), then the totals."""
        return f"{self._table().text(MAX_ROWS)}\n{self._summary_line()}"

    @property
    def boards(self) -> Sequence[str] | None:
        """Each row's board as text (``Board.to_string()``), formatted when read; a row that is
        not a board gives its input as written. None when the result was built from columns."""
        return self._boards

    def with_boards(self, boards: Sequence[str]) -> BatchResult:
        """This result, its rows carrying ``boards`` (one text per row); returns ``self``."""
        if len(boards) != self._total:
            raise ValueError(f"expected {self._total} boards, got {len(boards)}")
        self._boards = boards
        return self

    def summary(self) -> dict[str, Any]:
        """Counts and totals: rows, solved, each other status, lengths, nodes and seconds."""
        statuses, counts = np.unique(self.status.astype(str), return_counts=True)
        solved = self.solved
        lengths = self.lengths[solved]
        return {
            "rows": self._total,
            "solved": int(solved.sum()),
            "statuses": {str(k): int(v) for k, v in zip(statuses, counts) if k != "solved"},
            "length min/mean/max": (
                (int(lengths.min()), float(lengths.mean()), int(lengths.max()))
                if len(lengths)
                else None
            ),
            "expanded": int(self.expanded.sum()),
            "generated": int(self.generated.sum()),
            "search seconds": float(self.seconds.sum()),
        }

    def _repr_html_(self) -> str:
        # Notebooks show the totals, then the rows as a DataFrame shows them (the first and
        # last five past 60), not an array dump.
        summary = self.summary()
        shown = {
            "rows": f"{summary['rows']:,}",
            "solved": f"{summary['solved']:,}",
            "not solved": ", ".join(f"{n:,} {k}" for k, n in summary["statuses"].items()) or "-",
            "length (min / mean / max)": (
                "{} / {:.2f} / {}".format(*summary["length min/mean/max"])
                if summary["length min/mean/max"]
                else "-"
            ),
            "nodes expanded": f"{summary['expanded']:,}",
            "nodes generated": f"{summary['generated']:,}",
            "search time (summed over rows)": duration(summary["search seconds"]),
        }
        cells = "".join(
            f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td></tr>"
            for k, v in shown.items()
        )
        rows = self._table().html(MAX_ROWS)
        return f"<div><table><caption>BatchResult</caption>{cells}</table>{rows}</div>"

    @property
    def solved(self) -> np.ndarray:
        """Boolean mask of solved rows."""
        if self._source is not None and "status" not in self._columns:
            return np.asarray(self._numbers().status == _SOLVED)
        return np.asarray(self.status == "solved", dtype=bool)

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per row (with its ``board`` after ``index`` when :attr:`boards` is known);
        ``length`` is None where the row was not solved."""
        columns = zip(
            self.lengths.tolist(),
            self.lower_bounds.tolist(),
            self.status.tolist(),
            self.expanded.tolist(),
            self.generated.tolist(),
            self.seconds.tolist(),
            self.moves,
            self.messages.tolist(),
        )
        boards = self.boards
        records = []
        for i, (length, bound, status, expanded, generated, seconds, moves, message) in enumerate(
            columns
        ):
            record: dict[str, Any] = {"index": i}
            if boards is not None:
                record["board"] = boards[i]
            record.update(
                length=None if length < 0 else int(length),
                lower_bound=None if length < 0 else int(bound),
                status=str(status),
                expanded=int(expanded),
                generated=int(generated),
                seconds=float(seconds),
                moves=str(moves),
                message=str(message),
            )
            records.append(record)
        return records

    def _csv_columns(self) -> tuple[str, ...]:
        if self.boards is None:
            return COLUMNS
        return (COLUMNS[0], "board", *COLUMNS[1:])

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """The rows as CSV text (a ``board`` column when :attr:`boards` is known); also written
        atomically to ``path`` when given."""
        # Lazy: a cycle (export writes this module's columns).
        from fastpuzzle.batch.export import csv_text

        text = csv_text(self).decode("utf-8")
        if path is not None:
            write_text_atomically(path, text)
        return text

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the rows, indexed by row number.

        ``length`` and ``lower_bound`` are pandas' nullable ``Int64``, ``<NA>`` where a row was
        not solved (as the batch's files say: empty in CSV, null in JSON lines and Parquet; the
        numpy columns :attr:`lengths` and :attr:`lower_bounds` say -1), as in
        :meth:`Comparison.to_pandas <fastpuzzle.Comparison.to_pandas>`.

        Raises
        ------
        ImportError
            Without pandas (``pip install 'fastpuzzle[pandas]'``).
        """
        pd = require("pandas", "BatchResult.to_pandas", "pandas")
        frame = pd.DataFrame.from_records(
            self.to_records(), columns=list(self._csv_columns()), index="index"
        )
        for name in ("length", "lower_bound"):
            frame[name] = frame[name].astype("Int64").mask(~self.solved)
        return frame
