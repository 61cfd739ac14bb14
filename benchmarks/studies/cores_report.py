"""Korf and Felner's 24-puzzles on many cores: each heuristic's nodes, time and node rate.

Usage: ``python -m benchmarks.studies.cores_report [--korf 1,25,32,38,40] [--workers 16]
[--heuristics pdb6666,pdb,pdb6666z] [--scaling-korf 38,40] [--threads 1,2,4,8,16]
[--deadline SECONDS]``. First, for each board of ``tests/data/korf24_some.tsv``, each heuristic
in turn on ``--workers`` threads: nodes generated, wall seconds, nodes a second, and how long
Korf and Felner's published node count would take at that rate. Then, on the ``--scaling-korf``
boards, each heuristic on each thread count, with the speed-up over one thread of the same
heuristic. Tables are loaded before anything is timed (``fastpuzzle pdb build 6-6-6-6`` and
``6-6-6-6z`` first). ``--deadline`` starts no search after that many seconds, so a run on a
lent machine ends with what it has rather than nothing.
"""

from __future__ import annotations

import argparse
import os
import time

import fastpuzzle as fp
from benchmarks.harness import korf24


def _timed(tiles: tuple[int, ...], heuristic: str, workers: int, optimal: int) -> tuple[int, float]:
    """Nodes generated and wall seconds of one optimal search."""
    started = time.perf_counter()
    result = fp.search(list(tiles), algorithm="idastar", heuristic=heuristic, workers=workers)
    seconds = time.perf_counter() - started
    if len(result.unwrap()) != optimal:
        raise SystemExit(f"{heuristic}: length {len(result.unwrap())}, published {optimal}")
    return result.stats.generated, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", default="1,25,32,38,40")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--heuristics", default="pdb6666,pdb,pdb6666z")
    parser.add_argument("--scaling-korf", default="38,40")
    parser.add_argument("--threads", default="1,2,4,8,16")
    parser.add_argument("--deadline", type=float, default=float("inf"))
    args = parser.parse_args(argv)
    began = time.perf_counter()
    heuristics = args.heuristics.split(",")
    for heuristic in heuristics:
        # Loaded (and laid out) before anything is timed.
        fp.search(fp.scramble(fp.Board.goal((5, 5)), 6, rng=1), algorithm="idastar",
                  heuristic=heuristic)  # fmt: skip
    boards = {i.name: i for i in korf24()}

    def in_time() -> bool:
        if time.perf_counter() - began < args.deadline:
            return True
        print("  (deadline reached: no more searches)", flush=True)
        return False

    print(f"{args.workers} threads, nodes generated, wall s, nodes a second, and the published "
          "count at that rate", flush=True)  # fmt: skip
    totals = {h: [0, 0.0] for h in heuristics}
    for name in (f"korf24-{k}" for k in args.korf.split(",")):
        instance = boards[name]
        published = instance.published_nodes or 0
        print(f"  {name} ({instance.optimal_length}), published {published:,}", flush=True)
        for heuristic in heuristics:
            if not in_time():
                return 0
            nodes, seconds = _timed(instance.tiles, heuristic, args.workers,
                                    instance.optimal_length)  # fmt: skip
            rate = nodes / seconds
            totals[heuristic][0] += nodes
            totals[heuristic][1] += seconds
            print(f"    {heuristic:>9} {nodes:>14,} {seconds:8.2f} s {rate / 1e6:6.1f} M/s   "
                  f"published at this rate {published / rate:8.1f} s", flush=True)  # fmt: skip
    for heuristic, (nodes, seconds) in totals.items():
        print(f"  total {heuristic}: {nodes:,} nodes in {seconds:.1f} s")
    print("one board on 1..n threads: wall s, speed-up over one thread, nodes", flush=True)
    for name in (f"korf24-{k}" for k in args.scaling_korf.split(",") if k):
        instance = boards[name]
        for heuristic in heuristics:
            single = None
            for threads in (int(t) for t in args.threads.split(",")):
                if not in_time():
                    return 0
                nodes, seconds = _timed(instance.tiles, heuristic, threads,
                                        instance.optimal_length)  # fmt: skip
                single = single or seconds
                print(f"  {name} {heuristic:>9} {threads:>3} threads {seconds:7.2f} s "
                      f"{single / seconds:5.2f}x {nodes:>13,}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
