"""One board on many cores, judged on any machine: simulated speed-ups beside measured times.

Usage: ``python benchmarks/scaling_report.py [--threads 2,4,16,64] [--sets hard,random50,korf24]
[--rounds 2]``.

For each board the search runs once per simulated thread count P with ``workers=P`` (so that the
frontier and its splits are the ones a P-thread machine would get), recording the expansions of
every unit of work each shared iteration handed out (``fastpuzzle._parallel.tracing``). The
speed-up a P-core machine would give is the serial search's expansions over the critical path:
the work outside the units on one thread, plus, per iteration, the makespan of its units taken in
order by the first free thread, up to the unit that found the goal (``simulated_speedup``).
Beside it: the measured wall time on 1 and 2 threads (best of ``--rounds``, alternating), and
their ratio. ``--no-timing`` prints the simulated speed-ups alone (any load on the machine
leaves them as they are).

Boards: ``hard`` (``tests/data/hard.tsv``; 7-8 and 7-8b from the cache when built, else
6-6-3), ``random50`` (one row for the 50: total times, summed critical paths), ``korf24``
(``tests/data/korf24_some.tsv`` boards of at most ``--max-korf-nodes`` published nodes, with
6-6-6-6 when built).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._parallel import simulated_speedup, tracing
from tests.instances import Instance, hard, korf24, random50


def heuristic_for(instance: Instance) -> str:
    """The tables the default solver uses: ``pdb`` (4x4: 7-8, with 7-8b past 2**23 expansions,
    when built, else 6-6-3; 5x5: 6-6-6-6)."""
    return "pdb"


def run(instance: Instance, workers: int) -> fp.SearchResult:
    """One optimal search of ``instance`` on ``workers`` threads, its length checked."""
    result = fp.search(
        fp.Board(list(instance.tiles)),
        algorithm="idastar",
        heuristic=heuristic_for(instance),
        workers=workers,
    )
    assert result.solution is not None and len(result.solution) == instance.optimal_length, (
        instance.name
    )
    return result


def report(instance: Instance, threads: list[int], rounds: int) -> None:
    """Print one board's row."""
    best = {1: float("inf"), 2: float("inf")}
    nodes = run(instance, 1).stats.expanded
    for _ in range(rounds):
        for workers in (1, 2):
            started = time.perf_counter()
            result = run(instance, workers)
            best[workers] = min(best[workers], time.perf_counter() - started)
    cells = []
    for p in threads:
        with tracing() as trace:
            result = run(instance, p)
        units = sum(len(iteration.units) for iteration in trace)
        speedup = simulated_speedup(result.stats.expanded, trace, p, serial=nodes)
        cells.append(f"{speedup:6.1f} ({units:,} units)")
    print(
        f"{instance.name:>10} {instance.optimal_length:>4} {nodes:>13,} {_times(best)}  "
        + "  ".join(cells),
        flush=True,
    )


def _times(best: dict[int, float]) -> str:
    if best[1] == float("inf"):
        return f"{'-':>10} {'-':>10} {'-':>6}"
    return f"{best[1]:8.3f} s {best[2]:8.3f} s {best[1] / best[2]:5.2f}x"


def summary(instances: list[Instance], threads: list[int], rounds: int) -> None:
    """One row for a whole set: total times, and the speed-up of its summed critical paths."""
    best = {1: float("inf"), 2: float("inf")}
    serial: dict[str, int] = {}
    for _ in range(rounds):
        for workers in (1, 2):
            started = time.perf_counter()
            for instance in instances:
                result = run(instance, workers)
                if workers == 1:
                    serial[instance.name] = result.stats.expanded
            best[workers] = min(best[workers], time.perf_counter() - started)
    cells = []
    for p in threads:
        path = 0.0
        units = 0
        for instance in instances:
            with tracing() as trace:
                result = run(instance, p)
            nodes = serial[instance.name]
            path += nodes / simulated_speedup(result.stats.expanded, trace, p, serial=nodes)
            units += sum(len(iteration.units) for iteration in trace)
        cells.append(f"{sum(serial.values()) / path:6.1f} ({units:,} units)")
    print(
        f"{'all ' + str(len(instances)):>10} {'':>4} {sum(serial.values()):>13,} {_times(best)}  "
        + "  ".join(cells),
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="2,4,16,64")
    parser.add_argument("--sets", default="hard,random50,korf24")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-timing", action="store_true", help="simulated speed-ups only")
    parser.add_argument("--max-korf-nodes", type=int, default=500_000_000)
    args = parser.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    print(
        f"{'board':>10} {'len':>4} {'expanded':>13} {'1 thread':>10} {'2 threads':>10} "
        f"{'ratio':>6}  " + "  ".join(f"{'P=' + str(p):>19}" for p in threads)
    )
    for name in args.sets.split(","):
        if name == "hard":
            boards = hard()
        elif name == "random50":
            summary(random50(), threads, max(1, 0 if args.no_timing else args.rounds))
            continue
        elif name == "korf24":
            if pdb.load_pdb("6-6-6-6") is None:
                print("korf24: skipped (6-6-6-6 not built: fastpuzzle pdb build 6-6-6-6)")
                continue
            boards = [i for i in korf24() if (i.published_nodes or 0) <= args.max_korf_nodes]
        else:
            raise SystemExit(f"unknown set {name!r}")
        for instance in boards:
            report(instance, threads, 0 if args.no_timing else args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
