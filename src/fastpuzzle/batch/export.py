"""A batch's rows as CSV, JSON lines or an Arrow table, a block of rows per numpy pass.

The text is the same, byte for byte, as the ``csv`` module and ``json.dumps`` write one record
at a time (``BatchResult.to_records``), which took 3.9 s for 200,000 boards, most of it making a
``Board`` per row to print it. Here each field becomes a fixed-width byte matrix padded with NUL
bytes: the fields of a block of rows are laid side by side with their separators and the NULs
dropped in one pass. Text that needs quoting or escaping (messages, statuses, a board that is not
one) goes through ``csv``/``json`` once per distinct value.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from fastpuzzle._core._text import float_reprs, integer_texts
from fastpuzzle.batch.chunk import BoardTexts
from fastpuzzle.batch.result import MoveStrings

__all__ = [
    "arrow_table",
    "csv_bytes",
    "csv_text",
    "jsonl_bytes",
    "jsonl_text",
    "packed_board_texts",
]

#: Rows formatted per numpy pass: bounds the byte matrices (about 200 bytes a 4x4 row).
_BLOCK = 1 << 16

Piece = bytes | np.ndarray  # a constant, or a (rows, width) uint8 matrix padded with NULs


def _matrix(strings: Sequence[bytes] | np.ndarray) -> np.ndarray:
    """``(rows, width)`` uint8 matrix of byte strings padded with NULs."""
    array = np.asarray(strings, dtype=np.bytes_)
    width = max(array.dtype.itemsize, 1)
    return np.ascontiguousarray(array.astype(f"S{width}")).view(np.uint8).reshape(len(array), width)


def _encoded(values: np.ndarray, encode: Callable[[str], str]) -> np.ndarray:
    """``encode`` applied once per distinct value, as a byte matrix."""
    distinct, inverse = np.unique(np.asarray(values, dtype=object).astype(str), return_inverse=True)
    table = _matrix([encode(str(v)).encode("utf-8") for v in distinct])
    return table[inverse.reshape(-1)]


def _csv_field(value: str) -> str:
    buffer = io.StringIO()
    # A second field, so that an empty value is written empty (alone it would be '""').
    csv.writer(buffer, lineterminator="\n").writerow([value, ""])
    return buffer.getvalue()[:-2]


def _integers(values: np.ndarray) -> np.ndarray:
    values = np.ascontiguousarray(values, dtype=np.int64)
    # As wide as the widest value, so that short columns make narrow matrices.
    widest = max(abs(int(values.min(initial=0))) * 10, int(values.max(initial=0)), 1)
    out = np.empty((len(values), len(str(widest))), dtype=np.uint8)
    integer_texts(values, out)
    return out


def _lengths(values: np.ndarray, missing: bytes) -> np.ndarray:
    """Solution lengths as :func:`_integers` writes them, ``missing`` where a row has none
    (-1 in the numpy column: a row not solved): the empty field of CSV, JSON's ``null``."""
    values = np.asarray(values)
    unsolved = values < 0
    out = _integers(np.where(unsolved, 0, values))
    if unsolved.any():
        width = max(out.shape[1], len(missing))
        out = np.pad(out, ((0, 0), (0, width - out.shape[1])))
        out[unsolved] = 0
        out[np.ix_(unsolved, np.arange(len(missing)))] = np.frombuffer(missing, dtype=np.uint8)
    return out


def _floats(values: np.ndarray) -> np.ndarray:
    # float.__repr__, as csv and json write floats (numpy's own formatting can differ), by the
    # function it calls, without a float object a value.
    values = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty((len(values), _FLOAT_WIDTH), dtype=np.uint8)
    float_reprs(values, out)
    return out


#: The longest repr of a float64 ('-2.2250738585072014e-308').
_FLOAT_WIDTH = 24


def packed_board_texts(words: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``Board.to_string()`` of valid packed boards: ``'1 2 3/4 5 6/7 8 _'``."""
    rows, cols = shape
    cells = rows * cols
    shifts = 4 * np.arange(cells, dtype=np.uint64)
    tiles = ((words[:, None] >> shifts[None, :]) & np.uint64(15)).astype(np.intp)
    tokens = _matrix([b"_"] + [str(t).encode("ascii") for t in range(1, 16)])  # (16, 2)
    separators = np.array([ord("/" if (c + 1) % cols == 0 else " ") for c in range(cells)])
    out = np.zeros((len(words), cells, 3), dtype=np.uint8)
    out[:, :, :2] = tokens[tiles]
    out[:, :, 2] = separators[None, :].astype(np.uint8)
    return out.reshape(len(words), cells * 3)[:, :-1]  # no separator after the last cell


def _board_texts(boards: Sequence[str], start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """Board text of rows ``start:stop`` as a byte matrix, and which rows are plain boards (no
    quoting or escaping needed)."""
    packed = boards.packed_rows() if isinstance(boards, BoardTexts) else None
    if packed is None:
        texts = [boards[i] for i in range(start, stop)]
        plain = np.array(
            [
                t.isascii() and t.replace(" ", "").replace("/", "").replace("_", "").isalnum()
                for t in texts
            ],
            dtype=bool,
        )
        return _matrix([t.encode("utf-8") for t in texts]), plain
    words, shape = packed
    words = words[start:stop]
    cells = shape[0] * shape[1]
    tiles = np.sort((words[:, None] >> (4 * np.arange(cells, dtype=np.uint64))) & np.uint64(15))
    high = words >> np.uint64(4 * cells) if cells < 16 else np.zeros_like(words)
    plain = (tiles == np.arange(cells, dtype=np.uint64)).all(axis=1) & (high == 0)
    matrix = packed_board_texts(np.where(plain, words, np.uint64(0)), shape)
    if not plain.all():
        # A row that is not a board gives its input as written (BoardTexts' rule), so its text
        # is formatted one row at a time, and quoted or escaped where needed.
        odd = _matrix([boards[start + i].encode("utf-8") for i in np.flatnonzero(~plain).tolist()])
        width = max(matrix.shape[1], odd.shape[1])
        matrix = np.pad(matrix, ((0, 0), (0, width - matrix.shape[1])))
        matrix[~plain] = np.pad(odd, ((0, 0), (0, width - odd.shape[1])))
    return matrix, plain


def _quoted_where(
    matrix: np.ndarray,
    plain: np.ndarray,
    texts: Callable[[int], str],
    encode: Callable[[str], str],
    bare: bool,
) -> np.ndarray:
    """``matrix`` with its rows that are not ``plain`` replaced by ``encode`` of their text; with
    ``bare=False`` the plain rows get quotes around them too (JSON strings)."""
    if not bare:
        quote = np.full((len(matrix), 1), ord('"'), dtype=np.uint8)
        matrix = np.concatenate([quote, matrix, quote], axis=1)
    if plain.all():
        return matrix
    odd = _matrix([encode(texts(i)).encode("utf-8") for i in np.flatnonzero(~plain).tolist()])
    width = max(matrix.shape[1], odd.shape[1])
    matrix = np.pad(matrix, ((0, 0), (0, width - matrix.shape[1])))
    matrix[~plain] = np.pad(odd, ((0, 0), (0, width - odd.shape[1])))
    return matrix


def _text_at(boards: Sequence[str], first: int) -> Callable[[int], str]:
    return lambda i: boards[first + i]


def _moves(result: Any, start: int, stop: int) -> np.ndarray:
    moves = result.moves
    if isinstance(moves, MoveStrings):
        return moves.byte_matrix(start, stop)
    return _matrix([str(m).encode("ascii") for m in moves[start:stop]])


def _join(pieces: list[Piece], rows: int) -> bytes:
    """The rows made of ``pieces`` side by side, NUL padding dropped."""
    blocks = []
    for piece in pieces:
        if isinstance(piece, bytes):
            constant = np.frombuffer(piece, dtype=np.uint8)
            blocks.append(np.broadcast_to(constant, (rows, len(constant))))
        else:
            blocks.append(piece)
    flat = np.concatenate(blocks, axis=1).reshape(-1)
    joined: bytes = flat[flat != 0].tobytes()
    return joined


def _blocks(result: Any) -> Iterator[tuple[int, int]]:
    for start in range(0, len(result), _BLOCK):
        yield start, min(start + _BLOCK, len(result))


def _fields_fast(result: Any) -> bool:
    """Whether every field can be laid out here: finite seconds (json writes NaN otherwise)
    and no NUL in any text (NUL is the padding)."""
    seconds = np.asarray(result.seconds, dtype=float)
    texts = np.asarray(result.messages, dtype=object).astype(str)
    return bool(np.isfinite(seconds).all()) and not any("\0" in t for t in set(texts.tolist()))


def csv_bytes(result: Any, *, first_index: int = 0) -> bytes | None:
    """``result.to_csv()`` as UTF-8 bytes, or None where only the row-by-row writer can say;
    rows are numbered from ``first_index`` (a chunk's rows: their place in the batch)."""
    if not _fields_fast(result):
        return None
    boards = result.boards
    names = ["index", *(["board"] if boards is not None else []), *_NAMES]
    out = [(",".join(names) + "\n").encode("ascii")]
    for start, stop in _blocks(result):
        pieces: list[Piece] = [_integers(np.arange(start, stop) + first_index), b","]
        if boards is not None:
            matrix, plain = _board_texts(boards, start, stop)
            pieces += [
                _quoted_where(matrix, plain, _text_at(boards, start), _csv_field, bare=True),
                b",",
            ]
        pieces += [
            _lengths(result.lengths[start:stop], b""),
            b",",
            _lengths(_bounds(result, start, stop), b""),
            b",",
            _encoded(result.status[start:stop], _csv_field),
            b",",
            _integers(result.expanded[start:stop]),
            b",",
            _integers(result.generated[start:stop]),
            b",",
            _floats(result.seconds[start:stop]),
            b",",
            _moves(result, start, stop),
            b",",
            _encoded(result.messages[start:stop], _csv_field),
            b"\n",
        ]
        out.append(_join(pieces, stop - start))
    return b"".join(out)


def jsonl_bytes(result: Any, *, first_index: int = 0) -> bytes | None:
    """``json.dumps`` of each of ``result.to_records()``, one a line, as UTF-8 bytes; None where
    only the row-by-row writer can say; rows are numbered from ``first_index``."""
    if not _fields_fast(result):
        return None
    boards = result.boards
    out = []
    for start, stop in _blocks(result):
        pieces: list[Piece] = [b'{"index": ', _integers(np.arange(start, stop) + first_index)]
        if boards is not None:
            matrix, plain = _board_texts(boards, start, stop)
            pieces += [
                b', "board": ',
                _quoted_where(matrix, plain, _text_at(boards, start), json.dumps, bare=False),
            ]
        pieces += [
            b', "length": ',
            _lengths(result.lengths[start:stop], b"null"),
            b', "lower_bound": ',
            _lengths(_bounds(result, start, stop), b"null"),
            b', "status": ',
            _encoded(result.status[start:stop], json.dumps),
            b', "expanded": ',
            _integers(result.expanded[start:stop]),
            b', "generated": ',
            _integers(result.generated[start:stop]),
            b', "seconds": ',
            _floats(result.seconds[start:stop]),
            b', "moves": "',
            _moves(result, start, stop),
            b'", "message": ',
            _encoded(result.messages[start:stop], json.dumps),
            b"}\n",
        ]
        out.append(_join(pieces, stop - start))
    return b"".join(out)


def _records(result: Any, first_index: int) -> Iterator[dict[str, Any]]:
    for record in result.to_records():
        record["index"] += first_index
        yield record


def csv_text(result: Any, *, first_index: int = 0) -> bytes:
    """``result.to_csv()`` as UTF-8 bytes, rows numbered from ``first_index``: by columns
    (:func:`csv_bytes`), or by rows with the ``csv`` module where that cannot."""
    data = csv_bytes(result, first_index=first_index)
    if data is not None:
        return data
    buffer = io.StringIO()
    names = ["index", *(["board"] if result.boards is not None else []), *_NAMES]
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    for record in _records(result, first_index):
        writer.writerow([record[name] for name in names])
    return buffer.getvalue().encode("utf-8")


def jsonl_text(result: Any, *, first_index: int = 0) -> bytes:
    """``json.dumps`` of each of ``result.to_records()``, one a line, as UTF-8 bytes, rows
    numbered from ``first_index``: by columns (:func:`jsonl_bytes`) where it can."""
    data = jsonl_bytes(result, first_index=first_index)
    if data is not None:
        return data
    return "".join(json.dumps(r) + "\n" for r in _records(result, first_index)).encode("utf-8")


#: The columns after ``index`` and ``board``.
_NAMES = (
    "length", "lower_bound", "status", "expanded", "generated", "seconds", "moves", "message",
)  # fmt: skip


def _bounds(result: Any, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop``'s lower bounds, -1 (missing) where their row has no length."""
    lengths = np.asarray(result.lengths[start:stop])
    return np.where(lengths < 0, -1, np.asarray(result.lower_bounds[start:stop]))


def arrow_table(result: Any, pa: Any, *, first_index: int = 0) -> Any:
    """The table ``pa.Table.from_pylist(result.to_records())`` makes, from whole columns, rows
    numbered from ``first_index``."""
    index = np.arange(len(result), dtype=np.int64) + first_index
    lengths = np.asarray(result.lengths, dtype=np.int64)
    columns: dict[str, Any] = {"index": pa.array(index, pa.int64())}
    if result.boards is not None:
        columns["board"] = pa.array(_board_list(result.boards), pa.string())
    columns.update(
        # A nullable column: null where a row was not solved (-1 in the numpy column).
        length=pa.array(lengths, mask=lengths < 0),
        lower_bound=pa.array(
            np.asarray(result.lower_bounds, dtype=np.int64), mask=lengths < 0, type=pa.int64()
        ),
        status=pa.array(np.asarray(result.status, dtype=object).astype(str).tolist(), pa.string()),
        expanded=pa.array(np.asarray(result.expanded, dtype=np.int64)),
        generated=pa.array(np.asarray(result.generated, dtype=np.int64)),
        seconds=pa.array(np.asarray(result.seconds, dtype=np.float64)),
        moves=pa.array(list(result.moves), pa.string()),
        message=pa.array(
            np.asarray(result.messages, dtype=object).astype(str).tolist(), pa.string()
        ),
    )
    return pa.table(columns)


def _board_list(boards: Sequence[str]) -> list[str]:
    texts: list[str] = []
    for start in range(0, len(boards), _BLOCK):
        stop = min(start + _BLOCK, len(boards))
        matrix, plain = _board_texts(boards, start, stop)
        rows = matrix.view(f"S{matrix.shape[1]}").reshape(-1)
        block = [b.replace(b"\0", b"").decode("utf-8") for b in rows.tolist()]
        for i in np.flatnonzero(~plain).tolist():
            block[i] = boards[start + i]
        texts.extend(block)
    return texts
