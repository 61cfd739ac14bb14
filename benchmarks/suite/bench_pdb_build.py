"""Pattern-database builds: 6-6-3 (default run) and 7-8 (``slow``), on every core and on one.

Each build runs in a child process of its own, so the peak resident memory recorded (in
``extra_info``, with ``impl`` and ``threads``) is the build's. With ``FASTPUZZLE_BASELINE`` set
to the ``src`` directory of another checkout (built in place), the same builds by that checkout
run in the same session as the baseline (its builder picks its own threads).

Run: ``python -m pytest benchmarks/suite/bench_pdb_build.py --benchmark-json=r.json`` (``-m slow``
or ``-m ''`` for 7-8; 7-8 needs about 1.5 GiB of memory, 4.1 GiB for the builder before level
scans), then ``python -m benchmarks.suite.bench_pdb_build r.json`` for wall time and peak memory
side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
BASELINE = os.environ.get("FASTPUZZLE_BASELINE")

# The child builds into an empty cache and prints its peak resident memory in KiB. A thread
# count other than 0 pins the builder's threads (the default is every usable core).
CHILD = """
import functools, resource, sys
from fastpuzzle import pdb
from fastpuzzle._core import _pdb
threads = int(sys.argv[3])
if threads:
    for name in ("build_levels", "pack_table"):
        setattr(_pdb, name, functools.partial(getattr(_pdb, name), threads=threads))
pdb.build_pdb(sys.argv[1], cache_dir=sys.argv[2], progress=False, force=True)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _build(src: str, partition: str, cache: Path, threads: int) -> int:
    environment = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, partition, str(cache), str(threads)],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    for path in cache.glob("*.fpdb"):
        path.unlink()  # 7-8 leaves 275 MiB
    return int(done.stdout.split()[-1])


def _run(benchmark, tmp_path: Path, partition: str, impl: str, threads: int, rounds: int) -> None:  # type: ignore[no-untyped-def]
    src = str(SRC) if impl == "fastpuzzle" else BASELINE
    if src is None:
        pytest.skip("set FASTPUZZLE_BASELINE to the src directory of a baseline checkout")
    peaks: list[int] = []

    def build() -> None:
        peaks.append(_build(src, partition, tmp_path, threads))

    benchmark.pedantic(build, rounds=rounds, iterations=1)
    benchmark.extra_info["impl"] = impl
    benchmark.extra_info["threads"] = threads or "all"
    benchmark.extra_info["peak_rss_mib"] = round(max(peaks) / 1024)


VARIANTS = [("fastpuzzle", 0), ("fastpuzzle", 1), ("baseline", 0)]


@pytest.mark.benchmark(group="pdb-build-663")
@pytest.mark.parametrize(("impl", "threads"), VARIANTS)
def test_build_663(benchmark, tmp_path: Path, impl: str, threads: int) -> None:  # type: ignore[no-untyped-def]
    _run(benchmark, tmp_path, "6-6-3", impl, threads, rounds=3)


@pytest.mark.slow
@pytest.mark.benchmark(group="pdb-build-78")
@pytest.mark.parametrize(("impl", "threads"), VARIANTS)
def test_build_78(benchmark, tmp_path: Path, impl: str, threads: int) -> None:  # type: ignore[no-untyped-def]
    _run(benchmark, tmp_path, "7-8", impl, threads, rounds=1)


def report(data: dict[str, Any]) -> str:
    """Wall seconds (min and max over rounds) and peak memory per build."""
    lines = [f"{'benchmark':<44} {'impl':<11} {'threads':>7} {'wall s':>15} {'peak MiB':>9}"]
    for bench in data["benchmarks"]:
        info, stats = bench.get("extra_info", {}), bench["stats"]
        if "peak_rss_mib" not in info:
            continue
        wall = f"{stats['min']:.1f}-{stats['max']:.1f}"
        lines.append(
            f"{bench['name']:<44} {info['impl']:<11} {info['threads']!s:>7} {wall:>15} "
            f"{info['peak_rss_mib']:>9}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path, help="file written by --benchmark-json")
    print(report(json.loads(parser.parse_args().json.read_text())))
