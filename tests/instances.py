"""Instance sets with optimal lengths verified outside this project (``tests/data/*.tsv``).

The files ship with the project, so a fresh clone checks its optimal lengths against outside data;
each file's header says where its lengths come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Instance:
    """One board with its independently verified optimal length (None: unsolvable)."""

    name: str
    size: int
    tiles: tuple[int, ...]
    optimal_length: int | None
    manhattan_ida_nodes: int | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return (self.size, self.size)


def _rows(name: str) -> list[dict[str, str]]:
    """The rows of ``tests/data/<name>`` as dictionaries keyed by its header line."""
    lines = [
        line for line in (DATA / name).read_text().splitlines() if line and not line.startswith("#")
    ]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def _tiles(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.split())


def seed_cases() -> list[Instance]:
    """The boards of the source documents (``seed_cases.tsv``), solvable and unsolvable."""
    out = []
    for index, row in enumerate(_rows("seed_cases.tsv")):
        length = row["optimal_length"]
        out.append(
            Instance(
                name=f"seed{index + 1}",
                size=int(row["size"]),
                tiles=_tiles(row["tiles"]),
                optimal_length=None if length == "-" else int(length),
            )
        )
    return out


def random50() -> list[Instance]:
    """50 random 4x4 boards with optimal lengths and Manhattan IDA* node counts."""
    return [
        Instance(
            name=f"random50-{row['id']}",
            size=4,
            tiles=_tiles(row["tiles"]),
            optimal_length=int(row["optimal_length"]),
            manhattan_ida_nodes=int(row["manhattan_ida_nodes"]),
        )
        for row in _rows("random50.tsv")
    ]


def hard() -> list[Instance]:
    """Hard 4x4 boards with published optimal lengths (``hard.tsv``: 80 and 70 moves)."""
    return [
        Instance(
            name=row["id"],
            size=4,
            tiles=_tiles(row["tiles"]),
            optimal_length=int(row["optimal_length"]),
        )
        for row in _rows("hard.tsv")
    ]
