"""Parallel IDA*: one thread against several on the same boards, measured in one run.

Usage: ``python -m benchmarks.studies.parallel_report [--threads 1,2] [--rounds 5] [--hard N]``.

Each board is solved with every thread count in turn, round after round (1, 2, 1, 2, ...), so that
other load on the machine falls on both sides. For every board and thread count it prints the
fastest and slowest wall time of ``fp.search``, the process's CPU time (every thread) of its
cheapest round, close to the serial one when the threads waste no work whatever else runs on the
machine, and the nodes generated (summed over threads); for every count past the first, the
speedup over the first count round by round (slowest to fastest round), and with ``--reference``
the throughput the machine gave that many threads in the same round (that many serial searches of
the board run at once, against one alone): on a shared machine, the speedup to compare with.

Boards: those of ``random50.tsv`` whose serial search takes at least ``--min-seconds`` of CPU; with
``--random N``, those of ``fp.random_board((4, 4), rng=seed)`` for seeds below N that take that
long too (their length is the serial one's, checked on every thread count); with ``--hard N`` the
first N 80-move boards of ``hard.tsv`` (about a minute each on one thread with 6-6-3: one round).
The 6-6-3 database is built into ``--cache-dir`` (default: a temporary directory) unless it is
there.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import fastpuzzle as fp
from benchmarks.harness import Instance, hard, random50
from fastpuzzle import pdb


def timed(instance: Instance, heuristic: str, workers: int) -> tuple[float, float, int]:
    """Wall and CPU seconds (every thread of the process) and generated nodes of one optimal
    search, its length checked."""
    started, cpu = time.perf_counter(), time.process_time()
    result = fp.search(instance.tiles, algorithm="idastar", heuristic=heuristic, workers=workers)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert result.solution is not None and len(result.solution) == instance.optimal_length
    return seconds, cpu, result.stats.generated


def independent(instance: Instance, heuristic: str, copies: int) -> float:
    """Wall seconds of ``copies`` serial searches of the board run at once, one per thread."""
    with ThreadPoolExecutor(copies) as pool:
        started = time.perf_counter()
        list(pool.map(lambda _: timed(instance, heuristic, 1), range(copies)))
        return time.perf_counter() - started


def measure(
    instance: Instance, heuristic: str, threads: list[int], rounds: int, reference: bool
) -> None:
    times: dict[int, list[float]] = {n: [] for n in threads}
    cpus: dict[int, list[float]] = {n: [] for n in threads}
    nodes: dict[int, list[int]] = {n: [] for n in threads}
    alone: dict[int, list[float]] = {n: [] for n in threads}
    for _ in range(rounds):
        for n in threads:
            seconds, cpu, generated = timed(instance, heuristic, n)
            times[n].append(seconds)
            cpus[n].append(cpu)
            nodes[n].append(generated)
            if reference and n > 1:
                # What the machine gives n threads right now: n copies of the serial search.
                alone[n].append(n * times[threads[0]][-1] / independent(instance, heuristic, n))
    base = threads[0]
    for n in threads:
        line = (
            f"{instance.name:<12} {instance.optimal_length:>3} moves  {n:>2} threads  "
            f"{min(times[n]):8.3f}-{max(times[n]):8.3f} s  cpu {min(cpus[n]):8.3f} s  "
            f"{min(nodes[n]):>13,}-{max(nodes[n]):>13,} nodes"
        )
        if n != base:
            ratios = sorted(b / t for b, t in zip(times[base], times[n]))
            line += f"  {ratios[0]:.2f}-{ratios[-1]:.2f}x"
            if alone[n]:
                capacity = sorted(alone[n])
                line += f"  (independent copies: {capacity[0]:.2f}-{capacity[-1]:.2f}x)"
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", default="1,2", help="thread counts, the first the baseline")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--heuristic", default="pdb663")
    parser.add_argument("--min-seconds", type=float, default=0.02)
    parser.add_argument("--random", type=int, default=0, help="also random boards of seeds < N")
    parser.add_argument("--hard", type=int, default=0, help="also the first N 80-move boards")
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument(
        "--reference",
        action="store_true",
        help="also time N serial searches at once: the throughput the machine gives N threads",
    )
    args = parser.parse_args()
    threads = [int(n) for n in args.threads.split(",")]

    cache = args.cache_dir or tempfile.mkdtemp(prefix="fastpuzzle-parallel-")
    os.environ["FASTPUZZLE_CACHE"] = cache
    if args.heuristic == "pdb663" and pdb.load_pdb("6-6-3") is None:
        pdb.build_pdb("6-6-3", progress=False)
    print(f"{os.cpu_count()} cores; {args.heuristic}; threads {threads}; {args.rounds} rounds")

    chosen = []
    # Boards are chosen by the CPU time of their serial search, which other load changes less.
    for instance in random50():
        _, cpu, _ = timed(instance, args.heuristic, 1)  # also maps the tables
        if cpu >= args.min_seconds:
            chosen.append((cpu, instance))
    for seed in range(args.random):
        tiles = fp.random_board((4, 4), rng=seed).tiles
        cpu = time.process_time()
        length = len(fp.solve(tiles, algorithm="idastar", heuristic=args.heuristic, workers=1))
        cpu = time.process_time() - cpu
        if cpu >= args.min_seconds:
            chosen.append((cpu, Instance(f"random-{seed}", 4, tiles, length)))
    for _, instance in sorted(chosen, key=lambda pair: pair[0], reverse=True):
        measure(instance, args.heuristic, threads, args.rounds, args.reference)
    eighty = [i for i in hard() if i.optimal_length == 80][: args.hard]
    for instance in eighty:
        measure(instance, args.heuristic, threads, 1, args.reference)


if __name__ == "__main__":
    main()
