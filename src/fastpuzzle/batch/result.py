"""The columns of a batch: one chunk's rows as they are solved, the whole batch in input order."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fastpuzzle._files import write_text_atomically

__all__ = ["COLUMNS", "BatchResult", "ChunkResult"]

COLUMNS = ("index", "length", "status", "expanded", "generated", "seconds", "moves", "message")


@dataclass
class ChunkResult:
    """The columns of one chunk, in row order."""

    index: list[int] = field(default_factory=list)
    length: list[int] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    expanded: list[int] = field(default_factory=list)
    generated: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)

    def add(
        self, index: int, length: int, status: str, stats: Any, moves: str, message: str
    ) -> None:
        self.index.append(index)
        self.length.append(length)
        self.status.append(status)
        self.expanded.append(int(getattr(stats, "expanded", 0)))
        self.generated.append(int(getattr(stats, "generated", 0)))
        self.seconds.append(float(getattr(stats, "seconds", 0.0)))
        self.moves.append(moves)
        self.message.append(message)

    def rows(self) -> Iterator[tuple[Any, ...]]:
        return zip(*(getattr(self, name) for name in COLUMNS))


@dataclass(frozen=True)
class BatchResult:
    """Columns of a batch, in input order.

    Attributes
    ----------
    lengths : numpy.ndarray
        Solution lengths (int32), -1 where a row was not solved.
    status : numpy.ndarray
        ``"solved"``, or why not: ``"unsolvable"``, ``"invalid"``, ``"time_limit"``,
        ``"node_limit"``, ``"memory_limit"``, ``"depth_limit"``, ``"exhausted"``, ``"error"``.
    expanded, generated : numpy.ndarray
        Nodes (int64) per row.
    seconds : numpy.ndarray
        Search time per row (float64).
    moves : numpy.ndarray
        Move strings (U/D/L/R, blank directions), ``""`` where not solved.
    messages : numpy.ndarray
        Error messages, ``""`` for solved rows.
    """

    lengths: np.ndarray
    status: np.ndarray
    expanded: np.ndarray
    generated: np.ndarray
    seconds: np.ndarray
    moves: np.ndarray
    messages: np.ndarray

    def __len__(self) -> int:
        return len(self.lengths)

    @property
    def solved(self) -> np.ndarray:
        """Boolean mask of solved rows."""
        return np.asarray(self.status == "solved", dtype=bool)

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per row."""
        return [
            {
                "index": i,
                "length": int(self.lengths[i]),
                "status": str(self.status[i]),
                "expanded": int(self.expanded[i]),
                "generated": int(self.generated[i]),
                "seconds": float(self.seconds[i]),
                "moves": str(self.moves[i]),
                "message": str(self.messages[i]),
            }
            for i in range(len(self))
        ]

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """The rows as CSV text; also written atomically to ``path`` when given."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        for record in self.to_records():
            writer.writerow([record[name] for name in COLUMNS])
        text = buffer.getvalue()
        if path is not None:
            write_text_atomically(path, text)
        return text

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the rows (needs pandas)."""
        import pandas as pd

        return pd.DataFrame.from_records(self.to_records(), index="index")

    @classmethod
    def from_chunks(cls, total: int, chunks: Iterable[ChunkResult]) -> BatchResult:
        """Assemble chunk columns into input order."""
        lengths = np.full(total, -1, dtype=np.int32)
        status = np.full(total, "", dtype=object)
        expanded = np.zeros(total, dtype=np.int64)
        generated = np.zeros(total, dtype=np.int64)
        seconds = np.zeros(total, dtype=np.float64)
        moves = np.full(total, "", dtype=object)
        messages = np.full(total, "", dtype=object)
        for chunk in chunks:
            idx = np.asarray(chunk.index, dtype=np.int64)
            lengths[idx] = chunk.length
            status[idx] = chunk.status
            expanded[idx] = chunk.expanded
            generated[idx] = chunk.generated
            seconds[idx] = chunk.seconds
            moves[idx] = chunk.moves
            messages[idx] = chunk.message
        return cls(lengths, status, expanded, generated, seconds, moves, messages)
