"""Data-set figures measured in one run: random_boards' speed and memory a board.

Usage: ``python benchmarks/datasets_report.py [--boards N] [--baseline OLD_DATASETS_PY]``.
``--baseline`` names a copy of an older ``fastpuzzle/datasets.py`` (``git show
REV:src/fastpuzzle/datasets.py > old.py``) whose ``random_boards`` is measured in the same run.
Memory is tracemalloc's peak less the 8 bytes a board of the result.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import fastpuzzle as fp


def measure(draw: Callable[..., np.ndarray], n: int, shape: tuple[int, int]) -> tuple[float, float]:
    """Boards a second and bytes a board beyond the result, for one call."""
    gc.collect()
    tracemalloc.start()
    started = time.perf_counter()
    boards = draw(n, shape, rng=1)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(boards) == n
    return n / seconds, (peak - boards.nbytes) / n


def load(path: str) -> Callable[..., np.ndarray]:
    spec = importlib.util.spec_from_file_location("baseline_datasets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    draw: Callable[..., np.ndarray] = module.random_boards
    return draw


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=10_000_000)
    parser.add_argument("--shape", type=int, nargs=2, default=(4, 4))
    parser.add_argument("--baseline", help="an older datasets.py to measure beside this one")
    args = parser.parse_args()
    shape = (args.shape[0], args.shape[1])
    draws = [("this tree", fp.random_boards)]
    if args.baseline:
        draws.insert(0, ("baseline", load(args.baseline)))
    print(f"random_boards({args.boards:,}, {shape})")
    for name, draw in draws:
        rate, extra = measure(draw, args.boards, shape)
        print(f"  {name:10} {rate / 1e6:7.2f} M boards/s  {extra:8.2f} bytes a board beyond result")


if __name__ == "__main__":
    main()
