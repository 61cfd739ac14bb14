"""Chunk files under ``out=``: one file per finished chunk, written atomically, and a manifest
that ``resume=True`` checks before it reuses them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Literal

from fastpuzzle._files import atomic_writer, write_text_atomically
from fastpuzzle.batch.result import COLUMNS, ChunkResult

__all__ = ["ChunkStore", "OutFormat"]

OutFormat = Literal["csv", "jsonl", "parquet"]


class ChunkStore:
    """One file per chunk under a directory, written atomically, with a manifest."""

    def __init__(self, directory: Path, fmt: OutFormat, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.fmt = fmt
        self.manifest = manifest

    def open(self, resume: bool) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / "manifest.json"
        if path.exists():
            found = json.loads(path.read_text())
            if not resume:
                raise FileExistsError(
                    f"{self.directory} already holds results; pass resume=True to continue them "
                    "or choose another out="
                )
            if found != self.manifest:
                raise ValueError(
                    f"cannot resume: {path} was written for another batch "
                    f"({found}), expected {self.manifest}"
                )
        else:
            write_text_atomically(path, json.dumps(self.manifest, indent=1, sort_keys=True))

    def path(self, chunk: int) -> Path:
        return self.directory / f"part-{chunk:06d}.{self.fmt}"

    def write(self, chunk: int, result: ChunkResult) -> None:
        target = self.path(chunk)
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.table({name: getattr(result, name) for name in COLUMNS})
            with atomic_writer(target) as stream:
                pq.write_table(table, stream)
            return
        buffer = io.StringIO()
        if self.fmt == "csv":
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(COLUMNS)
            writer.writerows(result.rows())
        else:
            for row in result.rows():
                buffer.write(json.dumps(dict(zip(COLUMNS, row))) + "\n")
        write_text_atomically(target, buffer.getvalue())

    def read(self, chunk: int, expected_rows: int) -> ChunkResult | None:
        """The chunk's rows if its file is there and whole, else None."""
        target = self.path(chunk)
        if not target.exists():
            return None
        try:
            records = self._records(target)
        except (OSError, ValueError, KeyError):
            return None
        if len(records) != expected_rows:
            return None
        out = ChunkResult()
        for r in records:
            out.index.append(int(r["index"]))
            out.length.append(int(r["length"]))
            out.status.append(str(r["status"]))
            out.expanded.append(int(r["expanded"]))
            out.generated.append(int(r["generated"]))
            out.seconds.append(float(r["seconds"]))
            out.moves.append("" if r["moves"] is None else str(r["moves"]))
            out.message.append("" if r["message"] is None else str(r["message"]))
        return out

    def _records(self, target: Path) -> list[dict[str, Any]]:
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(target).to_pylist()  # type: ignore[no-any-return]
        text = target.read_text()
        if self.fmt == "csv":
            return list(csv.DictReader(io.StringIO(text)))
        return [json.loads(line) for line in text.splitlines() if line]
