"""One board on a Dask cluster against the same machine's threads, measured in one run.

Usage: ``python -m benchmarks.studies.cluster_report [--board korf24-1] [--workers 2] [--rounds
1]``.

Solves one board optimally with ``workers`` local threads, then on a ``LocalCluster`` of
``workers`` processes with one thread each (its large iterations as Dask tasks,
``fastpuzzle.distributed``), alternating round by round, and prints wall time, expansions and
rate of both and their ratio. The cluster runs on this machine, so the ratio is the cost of
processes, pickled units and the scheduler against shared-memory threads; on several machines
the cluster adds their cores. The 5x5 boards need 6-6-6-6 (``fastpuzzle pdb build 6-6-6-6``).
"""

from __future__ import annotations

import argparse
import time

import fastpuzzle as fp
from benchmarks.harness import Instance, hard, korf24, random50


def find(name: str) -> Instance:
    """The instance of tests/data called ``name``."""
    for instance in [*korf24(), *hard(), *random50()]:
        if instance.name == name:
            return instance
    raise SystemExit(f"no board {name!r} in tests/data")


def timed(instance: Instance, **options: object) -> tuple[float, int]:
    """Wall seconds and expansions of one optimal solve, its length checked."""
    started = time.perf_counter()
    solution = fp.solve(list(instance.tiles), **options)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    assert len(solution) == instance.optimal_length and solution.verify(), instance.name
    return seconds, solution.stats.expanded


def main(argv: list[str] | None = None) -> int:
    """Print the report."""
    from distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="korf24-1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    instance = find(args.board)
    with (
        LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        for round_ in range(args.rounds):
            # Past 16 cells solve() stops after a minute unless given a limit.
            hour = fp.Limits(seconds=3600)
            local = timed(instance, workers=args.workers, limits=hour)
            remote = timed(instance, workers=1, client=client, limits=hour)
            print(
                f"round {round_ + 1}: {instance.name} ({instance.optimal_length} moves) "
                f"{args.workers} threads {local[0]:.1f} s ({local[1]:,} expanded, "
                f"{local[1] / local[0] / 1e6:.1f} M/s); LocalCluster {args.workers}x1 "
                f"{remote[0]:.1f} s ({remote[1]:,} expanded, {remote[1] / remote[0] / 1e6:.1f} "
                f"M/s); cluster / threads {remote[0] / local[0]:.2f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
