"""Parallel IDA*: one thread against several on the same boards, measured in one run.

Usage: ``python benchmarks/parallel_report.py [--threads 1,2] [--rounds 5] [--hard N]``.

Each board is solved with every thread count in turn, round after round (1, 2, 1, 2, ...), so that
other load on the machine falls on both sides. For every board and thread count it prints the
fastest and slowest wall time of ``fp.search`` and the nodes generated (summed over threads); for
every count past the first, the speedup over the first count round by round (slowest to fastest
round). Boards: those of ``random50.tsv`` whose serial search takes at least ``--min-seconds``,
and with ``--hard N`` the first N 80-move boards of ``hard.tsv`` (about a minute each on one
thread with 6-6-3: one round). The 6-6-3 database is built into ``--cache-dir`` (default: a
temporary directory) unless it is there.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastpuzzle as fp
from fastpuzzle import pdb
from tests.instances import Instance, hard, random50


def timed(instance: Instance, heuristic: str, workers: int) -> tuple[float, int]:
    """Wall seconds and generated nodes of one optimal search, its length checked."""
    started = time.perf_counter()
    result = fp.search(instance.tiles, algorithm="idastar", heuristic=heuristic, workers=workers)
    seconds = time.perf_counter() - started
    assert result.solution is not None and len(result.solution) == instance.optimal_length
    return seconds, result.stats.generated


def measure(instance: Instance, heuristic: str, threads: list[int], rounds: int) -> None:
    times: dict[int, list[float]] = {n: [] for n in threads}
    nodes: dict[int, list[int]] = {n: [] for n in threads}
    for _ in range(rounds):
        for n in threads:
            seconds, generated = timed(instance, heuristic, n)
            times[n].append(seconds)
            nodes[n].append(generated)
    base = threads[0]
    for n in threads:
        line = (
            f"{instance.name:<12} {instance.optimal_length:>3} moves  {n:>2} threads  "
            f"{min(times[n]):8.3f}-{max(times[n]):8.3f} s  "
            f"{min(nodes[n]):>13,}-{max(nodes[n]):>13,} nodes"
        )
        if n != base:
            ratios = sorted(b / t for b, t in zip(times[base], times[n]))
            line += f"  {ratios[0]:.2f}-{ratios[-1]:.2f}x"
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", default="1,2", help="thread counts, the first the baseline")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--heuristic", default="pdb663")
    parser.add_argument("--min-seconds", type=float, default=0.02)
    parser.add_argument("--hard", type=int, default=0, help="also the first N 80-move boards")
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args()
    threads = [int(n) for n in args.threads.split(",")]

    cache = args.cache_dir or tempfile.mkdtemp(prefix="fastpuzzle-parallel-")
    os.environ["FASTPUZZLE_CACHE"] = cache
    if args.heuristic == "pdb663" and pdb.load_pdb("6-6-3") is None:
        pdb.build_pdb("6-6-3", progress=False)
    print(f"{os.cpu_count()} cores; {args.heuristic}; threads {threads}; {args.rounds} rounds")

    chosen = []
    for instance in random50():
        seconds, _ = timed(instance, args.heuristic, 1)  # also maps the tables
        if seconds >= args.min_seconds:
            chosen.append((seconds, instance))
    for _, instance in sorted(chosen, key=lambda pair: pair[0], reverse=True):
        measure(instance, args.heuristic, threads, args.rounds)
    eighty = [i for i in hard() if i.optimal_length == 80][: args.hard]
    for instance in eighty:
        measure(instance, args.heuristic, threads, 1)


if __name__ == "__main__":
    main()
