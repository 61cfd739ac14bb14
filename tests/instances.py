"""Instance sets with optimal lengths verified outside this project (``../shared/instances``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    """``$FASTPUZZLE_SHARED``, else ``../shared`` beside the checkout."""
    configured = os.environ.get("FASTPUZZLE_SHARED")
    return Path(configured) if configured else ROOT.parent / "shared"


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


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        pytest.skip(f"instance file {path} not found (set FASTPUZZLE_SHARED)")
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def seed_cases() -> list[Instance]:
    """The boards of the source documents (``seed_cases.tsv``), solvable and unsolvable."""
    out = []
    for index, row in enumerate(_rows(shared_dir() / "instances" / "seed_cases.tsv")):
        length = row["optimal_length"]
        out.append(
            Instance(
                name=f"seed{index + 1}",
                size=int(row["size"]),
                tiles=tuple(int(t) for t in row["tiles"].split()),
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
            tiles=tuple(int(t) for t in row["tiles"].split()),
            optimal_length=int(row["optimal_length"]),
            manhattan_ida_nodes=int(row["manhattan_ida_nodes"]),
        )
        for row in _rows(shared_dir() / "instances" / "random50.tsv")
    ]
