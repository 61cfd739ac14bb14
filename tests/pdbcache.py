"""A pattern-database cache for a test module or benchmark: built once, set as the cache."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastpuzzle import pdb

__all__ = ["cache_holding"]


@contextmanager
def cache_holding(partition: str, directory: Path) -> Iterator[Path]:
    """``directory`` holding ``partition``'s database, set as ``$FASTPUZZLE_CACHE`` meanwhile."""
    before = os.environ.get("FASTPUZZLE_CACHE")
    os.environ["FASTPUZZLE_CACHE"] = str(directory)
    try:
        pdb.build_pdb(partition, progress=False)
        yield directory
    finally:
        if before is None:
            os.environ.pop("FASTPUZZLE_CACHE", None)
        else:
            os.environ["FASTPUZZLE_CACHE"] = before
