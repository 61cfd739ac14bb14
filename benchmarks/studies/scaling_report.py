"""One board on many cores, judged on any machine: simulated speed-ups beside measured times.

Usage: ``python -m benchmarks.studies.scaling_report [--threads 2,4,16,64] [--sets
hard,random50,korf24] [--rounds 2] [--baseline SRC] [--no-steal] [--no-timing]``.

For each board and each simulated thread count P the search runs once with ``workers=P`` (so
that the frontier, its splits and the steals are those of a P-thread machine), with its P
threads in lockstep as P virtual cores (``fastpuzzle._solver.parallel.tracing(lockstep=True)``: each
thread waits at a barrier every 512 expansions of its clock), which records the critical path of
every shared iteration. The speed-up a P-core machine would give is the serial search's
expansions over the whole critical path: the work outside the shared iterations on one thread,
plus each iteration's span (``simulated_speedup``). Beside it: the measured wall time on 1 and 2
threads (best of ``--rounds``, alternating), and their ratio. ``--no-timing`` prints the simulated
speed-ups alone (other load on the machine leaves them as they are).

``--baseline SRC`` names the ``src`` directory of another checkout, built in place (a worktree
of main, say): its rows are printed under this tree's, its 1- and 2-thread times measured in the
same rounds, alternating with this tree's. A tree whose ``tracing()`` has no lockstep (before
work stealing) is simulated by replaying its units in order on P threads instead, the model that
holds without stealing. ``--no-steal`` runs this tree with stealing off (``STEAL_QUANTUM = 0``),
still in lockstep, as a check of the model against that replay.

Each measurement runs in a child process of this script (``--child``) with that tree first on
``sys.path``; the boards' lengths are checked in every run.

Boards: ``hard`` (``tests/data/hard.tsv``; 7-8 and 7-8b from the cache when built, else 6-6-3),
``random50`` (one row for the 50: total times, summed critical paths), ``korf24``
(``tests/data/korf24_some.tsv`` boards of at most ``--max-korf-nodes`` published nodes, with
6-6-6-6 when built).
"""

from __future__ import annotations

import argparse
import inspect
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import ROOT, tree_environment

#: Seconds a child may take (one board's simulations on every P, or a set's timing round).
CHILD_TIMEOUT = 3600


def _boards(name: str, max_korf_nodes: int) -> list[Any]:
    from tests.instances import hard, korf24, random50

    if name == "hard":
        return hard()
    if name == "random50":
        return random50()
    if name == "korf24":
        return [i for i in korf24() if (i.published_nodes or 0) <= max_korf_nodes]
    raise SystemExit(f"unknown set {name!r}")


def _run(instance: Any, workers: int) -> Any:
    """One optimal search of ``instance`` on ``workers`` threads, its length checked."""
    import fastpuzzle as fp

    result = fp.search(
        fp.Board(list(instance.tiles)), algorithm="idastar", heuristic="pdb", workers=workers
    )
    assert result.solution is not None and len(result.solution) == instance.optimal_length, (
        instance.name
    )
    return result


def _load_tables(instances: list[Any]) -> None:
    """Load every table the timed searches may read (the first search would pay for it, and the
    first is always the one on one thread): a short search with each heuristic of their shape,
    and 7-8b, which a long 4x4 search switches to."""
    import fastpuzzle as fp
    from fastpuzzle import pdb

    for cells in {len(instance.tiles) for instance in instances}:
        side = round(cells**0.5)
        board = fp.scramble(fp.Board.goal((side, side)), 12, rng=1)
        for name in ("pdb", "pdb6666_dual") if cells == 25 else ("pdb",):
            fp.search(board, algorithm="idastar", heuristic=name, workers=1)
        if cells == 16:
            pdb.load_pdb("7-8b")


def child(job: dict[str, Any]) -> dict[str, Any]:
    """One measurement in this process (imports the tree first on ``sys.path``)."""
    from fastpuzzle._core import _idastar, _wide_pdb
    from fastpuzzle._solver import parallel

    instances = _boards(job["set"], job["max_korf_nodes"])
    if job["board"] is not None:
        instances = [i for i in instances if i.name == job["board"]]
    if job["no_steal"]:
        for kernel in (_idastar, _wide_pdb):
            kernel.STEAL_QUANTUM = 0  # type: ignore[attr-defined]
    if job["kind"] == "time":
        _load_tables(instances)
        seconds = {}
        for workers in job["workers"]:
            started = time.perf_counter()
            for instance in instances:
                _run(instance, workers)
            seconds[workers] = time.perf_counter() - started
        return {"seconds": seconds}
    serial = {i.name: _run(i, 1).stats.expanded for i in instances}
    lockstep = "lockstep" in inspect.signature(parallel.tracing).parameters
    out: dict[str, Any] = {"expanded": sum(serial.values()), "model": "", "cells": {}}
    out["model"] = "lockstep" if lockstep else "in order"
    for p in job["threads"]:
        path = 0.0
        units = steals = 0
        for instance in instances:
            options = {"lockstep": True} if lockstep else {}
            with parallel.tracing(**options) as trace:
                result = _run(instance, p)
            nodes = serial[instance.name]
            path += nodes / parallel.simulated_speedup(
                result.stats.expanded, trace, p, serial=nodes
            )
            units += sum(len(iteration.units) for iteration in trace)
            steals += sum(getattr(iteration, "steals", 0) for iteration in trace)
        out["cells"][p] = (out["expanded"] / path, units, steals)
    return out


def _spawn(src: Path | None, job: dict[str, Any]) -> dict[str, Any]:
    env = tree_environment(src)  # the child runs from ROOT, which puts it on the path
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.studies.scaling_report", "--child", json.dumps(job)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"child failed ({src}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return answer


def _row(label: str, expanded: int, best: dict[int, float], sim: dict[str, Any]) -> str:
    cells = []
    for speedup, units, steals in sim["cells"].values():
        cells.append(f"{speedup:5.1f} ({units:,} u, {steals:,} s)")
    if best:
        times = f"{best[1]:8.3f} s {best[2]:8.3f} s {best[1] / best[2]:5.2f}x"
    else:
        times = f"{'-':>10} {'-':>10} {'-':>6}"
    return f"{label:>16} {expanded:>13,} {times}  " + "  ".join(cells) + f"  [{sim['model']}]"


def report(
    set_name: str,
    board: str | None,
    trees: list[tuple[str, Path | None, bool]],
    args: argparse.Namespace,
) -> None:
    """Print one row per tree for one board (or a whole set, ``board`` None)."""
    base = {
        "set": set_name,
        "board": board,
        "max_korf_nodes": args.max_korf_nodes,
        "threads": args.threads,
    }
    best: dict[str, dict[int, float]] = {label: {} for label, _, _ in trees}
    for _ in range(0 if args.no_timing else args.rounds):
        for label, src, no_steal in trees:
            job = dict(base, kind="time", workers=[1, 2], no_steal=no_steal)
            for w, s in _spawn(src, job)["seconds"].items():
                best[label][int(w)] = min(best[label].get(int(w), float("inf")), s)
    for label, src, no_steal in trees:
        sim = _spawn(src, dict(base, kind="simulate", no_steal=no_steal))
        name = board if board is not None else f"all {set_name}"
        print(_row(f"{name} {label}", sim["expanded"], best[label], sim), flush=True)


def main(argv: list[str] | None = None) -> int:
    """Print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="2,4,16,64")
    parser.add_argument("--sets", default="hard,random50,korf24")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-timing", action="store_true", help="simulated speed-ups only")
    parser.add_argument("--max-korf-nodes", type=int, default=500_000_000)
    parser.add_argument("--baseline", type=Path, help="src directory of another checkout")
    parser.add_argument("--no-steal", action="store_true", help="this tree without stealing")
    parser.add_argument("--boards", help="only these boards (names, comma-separated)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    args.threads = [int(t) for t in args.threads.split(",")]
    trees: list[tuple[str, Path | None, bool]] = [("this", None, args.no_steal)]
    if args.baseline:
        trees.append(("baseline", args.baseline.resolve(), False))
    from fastpuzzle import pdb

    print(
        f"{'board':>16} {'expanded':>13} {'1 thread':>10} {'2 threads':>10} {'ratio':>6}  "
        + "  ".join(f"{'P=' + str(p):>22}" for p in args.threads)
        + "  (u: units, s: steals)"
    )
    wanted = set(args.boards.split(",")) if args.boards else None
    for name in args.sets.split(","):
        if name == "random50":
            report(name, None, trees, args)
            continue
        if name == "korf24" and pdb.load_pdb("6-6-6-6") is None:
            print("korf24: skipped (6-6-6-6 not built: fastpuzzle pdb build 6-6-6-6)")
            continue
        for instance in _boards(name, args.max_korf_nodes):
            if wanted is None or instance.name in wanted:
                report(name, instance.name, trees, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
