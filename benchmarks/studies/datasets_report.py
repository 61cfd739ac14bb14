"""Data-set figures measured in one run: random_boards' speed and memory a board; with
``--parquet N``, a labelled data set of N boards written to Parquet.

Usage: ``python -m benchmarks.studies.datasets_report [--boards N] [--baseline OLD_DATASETS_PY]``.
``--baseline`` names a copy of an older ``fastpuzzle/datasets.py`` (``git show
REV:src/fastpuzzle/datasets.py > old.py``) whose ``random_boards`` is measured in the same run.
Memory is tracemalloc's peak less the 8 bytes a board of the result.

``python -m benchmarks.studies.datasets_report --parquet 10000000 [--in-memory 1000000]`` streams N
3x3 boards through ``write_labelled`` in a process of its own and reports its peak resident memory
(``getrusage``: everything, the interpreter and pyarrow included) and boards a second; beside it, in
another process, the way there was before: ``labelled`` in memory, then one Arrow table written at
once, on ``--in-memory`` boards (default: a tenth as many).
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


def _streamed(path: str, n: int, shape: tuple[int, int]) -> None:
    fp.write_labelled(path, n, shape, rng=1)


def _in_memory(path: str, n: int, shape: tuple[int, int]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = fp.labelled(n, shape, rng=1)
    table = pa.table(
        {
            "packed": data.boards,
            "length": data.lengths,
            "first_move": data.first_moves.astype(str).tolist(),
        }
    )
    pq.write_table(table, path)


def parquet_child(how: str, path: str, n: int, rows: int, cols: int) -> None:
    """Run one way of writing ``n`` boards and print its seconds and peak RSS as JSON."""
    import json
    import resource

    run = _streamed if how == "streamed" else _in_memory
    started = time.perf_counter()
    run(path, n, (rows, cols))
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kB on Linux
    print(json.dumps({"seconds": seconds, "peak": peak}))


def parquet_section(n: int, baseline: int, shape: tuple[int, int]) -> None:
    import json
    import subprocess
    import tempfile

    print(f"labelled data set to Parquet, {shape[0]}x{shape[1]}, seed 1; peak RSS of the process")
    with tempfile.TemporaryDirectory() as folder:
        for how, count in (("in memory", baseline), ("streamed", n)):
            path = f"{folder}/{how.replace(' ', '_')}.parquet"
            found = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "benchmarks.studies.datasets_report",
                    "--child",
                    how,
                    path,
                    str(count),
                    *map(str, shape),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            figures = json.loads(found.stdout.strip().splitlines()[-1])
            size = Path(path).stat().st_size / 2**20
            rate = count / figures["seconds"]
            print(
                f"  {how:9} {count:>12,} boards  {figures['seconds']:8.1f} s  {rate:>10,.0f} "
                f"boards/s  peak {figures['peak'] / 2**20:7.0f} MiB  file {size:6.0f} MiB"
            )


def main() -> None:
    if "--child" in sys.argv:
        at = sys.argv.index("--child")
        how, path, n, rows, cols = sys.argv[at + 1 : at + 6]
        parquet_child(how, path, int(n), int(rows), int(cols))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=10_000_000)
    parser.add_argument("--shape", type=int, nargs=2, default=(4, 4))
    parser.add_argument("--baseline", help="an older datasets.py to measure beside this one")
    parser.add_argument("--parquet", type=int, help="boards of a labelled data set to write")
    parser.add_argument("--in-memory", type=int, help="boards for the in-memory way")
    args = parser.parse_args()
    shape = (args.shape[0], args.shape[1])
    if args.parquet:
        parquet_shape = shape if "--shape" in sys.argv else (3, 3)
        parquet_section(args.parquet, args.in_memory or args.parquet // 10, parquet_shape)
        return
    draws = [("this tree", fp.random_boards)]
    if args.baseline:
        draws.insert(0, ("baseline", load(args.baseline)))
    print(f"random_boards({args.boards:,}, {shape})")
    for name, draw in draws:
        rate, extra = measure(draw, args.boards, shape)
        print(f"  {name:10} {rate / 1e6:7.2f} M boards/s  {extra:8.2f} bytes a board beyond result")


if __name__ == "__main__":
    main()
