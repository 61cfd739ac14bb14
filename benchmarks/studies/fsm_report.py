"""Duplicate pruning (the finite-state machine) against parent pruning, in one run.

Usage: ``python -m benchmarks.studies.fsm_report [--sets machines,random50,hard,korf24,rate]
[--heuristics manhattan,linear_conflict,pdb663,pdb78] [--depths 10,12,14] [--workers 2]
[--korf 38,40] [--manhattan-nodes 20000000] [--rounds 1]``.

Every figure is measured here, beside its baseline in the same run (parent pruning: the published
node counts):

- ``machines``: each machine's depth, states, build time and peak memory (a child process a
  build), for the 4x4 and 5x5 boxes at ``--depths`` and the default (``prune="fsm"``);
- ``random50``: nodes generated and search time on one thread (serial counts), per heuristic,
  parent pruning against the default machine and the machines of ``--depths``; Manhattan on the
  boards of at most ``--manhattan-nodes`` parent nodes;
- ``hard``: the four 80-move boards and the 70-move one with the default 4x4 tables (7-8 when
  built, else 6-6-3) on ``--workers`` threads;
- ``korf24``: Korf and Felner's boards ``--korf`` with 6-6-6-6 on ``--workers`` threads (skipped
  when the table is not built), against their published counts too;
- ``rate``: IDA* + Manhattan node rate against the C yardstick (``ida_manhattan.c``, same boards,
  best of ``--rounds``), with parent pruning (the same nodes) and with the machine.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time

import fastpuzzle as fp
from benchmarks.harness import Instance, hard, korf24, random50, ratio
from fastpuzzle import pdb
from fastpuzzle._solver import pruning


def _search(
    instance: Instance, heuristic: str, prune: str | int, workers: int, rounds: int = 1
) -> tuple[int, float]:
    """Nodes generated and the best wall time of ``rounds`` searches."""
    best = float("inf")
    generated = 0
    for _ in range(rounds):
        started = time.perf_counter()
        result = fp.search(
            list(instance.tiles),
            algorithm="idastar",
            heuristic=heuristic,
            workers=workers,
            prune=prune,
        )
        best = min(best, time.perf_counter() - started)
        assert result.solution is not None and len(result.solution) == instance.optimal_length
        generated = result.stats.generated
    return generated, best


def _ratio(value: float, base: float) -> str:
    return ratio(value, base, digits=3)


def machines(depths: list[int]) -> None:
    """Depth, states, build time and peak memory of each machine, built in a fresh process."""
    print("Machines (each built in a fresh process; peak: that process's resident memory)")
    print(
        f"{'box':>5} {'asked':>8} {'depth':>5} {'states':>9} {'table':>9} {'build':>8} {'peak':>9}"
    )
    code = (
        "import resource, sys, time\n"
        "from fastpuzzle._core import _fsm\n"
        "rows, cols, depth, cap = map(int, sys.argv[1:])\n"
        "t = time.perf_counter()\n"
        "codes, levels = _fsm.build(rows, cols, depth, cap)\n"
        "m = _fsm.compile(codes)\n"
        "print(len(levels) - 1, m.shape[0], time.perf_counter() - t,\n"
        "      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    for box in ((4, 4), (5, 5)):
        asked = [(f"d{d}", d, 0) for d in depths]
        asked.append(("fsm", pruning.MAX_DEPTH, pruning.MAX_STATES))
        for label, depth, cap in asked:
            done = subprocess.run(
                [sys.executable, "-c", code, str(box[0]), str(box[1]), str(depth), str(cap)],
                capture_output=True,
                text=True,
                check=True,
            )
            reached, states, seconds, peak_kib = done.stdout.split()
            print(
                f"{box[0]}x{box[1]:<3} {label:>8} {reached:>5} {int(states):>9,} "
                f"{int(states) * 16 / 1024:>7.0f} K {float(seconds):>7.2f}s "
                f"{int(peak_kib) / 1024:>7.0f} M"
            )


def on_random50(heuristics: list[str], depths: list[int], manhattan_nodes: int) -> None:
    print("\nrandom50, one thread: nodes generated and search seconds, against parent pruning")
    for heuristic in heuristics:
        boards = random50()
        if heuristic == "manhattan":
            boards = [b for b in boards if (b.manhattan_ida_nodes or 0) <= manhattan_nodes]
        if heuristic == "pdb78" and pdb.load_pdb("7-8") is None:
            print(f"  {heuristic}: skipped (7-8 is not built)")
            continue
        prunes: list[str | int] = ["parent", "fsm", *depths]
        totals = {p: [0, 0.0] for p in prunes}
        for instance in boards:
            for prune in prunes:
                nodes, seconds = _search(instance, heuristic, prune, 1)
                totals[prune][0] += nodes
                totals[prune][1] += seconds
        base_nodes, base_seconds = totals["parent"]
        print(f"  {heuristic} ({len(boards)} boards)")
        for prune in prunes:
            nodes, seconds = totals[prune]
            print(
                f"    {prune!s:>7}: {nodes:>15,} nodes {_ratio(nodes, base_nodes):>8}   "
                f"{seconds:8.3f} s {_ratio(seconds, base_seconds):>8}"
            )


def on_boards(name: str, boards: list[Instance], heuristic: str, workers: int) -> None:
    print(f"\n{name}, {heuristic}, {workers} threads: nodes and wall seconds")
    totals = {"parent": [0, 0.0], "fsm": [0, 0.0]}
    for instance in boards:
        row = []
        for prune in ("parent", "fsm"):
            nodes, seconds = _search(instance, heuristic, prune, workers)
            totals[prune][0] += nodes
            totals[prune][1] += seconds
            row.append((nodes, seconds))
        (pn, ps), (fn, fs) = row
        published = (
            f"  published {instance.published_nodes:,} (fsm {_ratio(fn, instance.published_nodes)})"
            if instance.published_nodes
            else ""
        )
        print(
            f"  {instance.name:>12} ({instance.optimal_length}): parent {pn:>14,} {ps:8.2f} s   "
            f"fsm {fn:>14,} {fs:8.2f} s   nodes {_ratio(fn, pn)} time {_ratio(fs, ps)}{published}"
        )
    (pn, ps), (fn, fs) = totals["parent"], totals["fsm"]
    print(
        f"  {'all':>12}: parent {pn:>14,} {ps:8.2f} s   fsm {fn:>14,} {fs:8.2f} s   "
        f"nodes {_ratio(fn, pn)} time {_ratio(fs, ps)}"
    )


def rate(rounds: int) -> None:
    from benchmarks.baselines import yardstick

    boards = yardstick.rate_boards()
    print(f"\nIDA* + Manhattan node rate, {len(boards)} random50 boards, best of {rounds}")
    with tempfile.TemporaryDirectory() as scratch:
        binary = yardstick.compile_yardstick(scratch)
        best: dict[str, float] = {}
        nodes: dict[str, int] = {}
        for _ in range(rounds):
            if binary is not None:
                runs = yardstick.run_yardstick(binary, [b.tiles for b in boards])
                total = sum(r[1] for r in runs)
                best["C"] = max(best.get("C", 0.0), total / sum(r[2] for r in runs))
                nodes["C"] = total
            for prune in ("parent", "fsm"):
                total_nodes, seconds = 0, 0.0
                for instance in boards:
                    result = fp.search(
                        list(instance.tiles), algorithm="idastar", heuristic="manhattan",
                        workers=1, prune=prune,
                    )  # fmt: skip
                    total_nodes += result.stats.generated
                    seconds += result.stats.seconds
                best[prune] = max(best.get(prune, 0.0), total_nodes / seconds)
                nodes[prune] = total_nodes
    c_rate = best.get("C")
    for name in ("C", "parent", "fsm"):
        if name not in best:
            print(f"  {name:>6}: skipped (no C compiler)")
            continue
        against = f"  {best[name] / c_rate:.2f}x C's rate" if c_rate else ""
        print(f"  {name:>6}: {nodes[name]:>13,} nodes  {best[name] / 1e6:7.1f} M nodes/s{against}")
    if c_rate and "fsm" in best:
        time_c = nodes["C"] / c_rate
        time_fsm = nodes["fsm"] / best["fsm"]
        print(f"  time to solve them: fsm {time_fsm:.3f} s against C's {time_c:.3f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="machines,random50,hard,korf24,rate")
    parser.add_argument("--heuristics", default="manhattan,linear_conflict,pdb663,pdb78")
    parser.add_argument("--depths", default="10,12,14")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--korf", default="38,40")
    parser.add_argument("--manhattan-nodes", type=int, default=20_000_000)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    sets = args.sets.split(",")
    depths = [int(d) for d in args.depths.split(",") if d]
    print(f"default machine: prune='fsm' = at most {pruning.MAX_STATES:,} states")
    if "machines" in sets:
        machines(depths)
    if "random50" in sets:
        on_random50(args.heuristics.split(","), depths, args.manhattan_nodes)
    if "hard" in sets:
        four = "pdb78" if pdb.load_pdb("7-8") is not None else "pdb663"
        on_boards("hard.tsv", hard(), four, args.workers)
    if "korf24" in sets:
        if pdb.load_pdb("6-6-6-6") is None:
            print("\nkorf24: skipped (6-6-6-6 is not built: `fastpuzzle pdb build 6-6-6-6`)")
        else:
            wanted = {f"korf24-{k}" for k in args.korf.split(",")}
            boards = [b for b in korf24() if b.name in wanted]
            on_boards("korf24", boards, "pdb6666", args.workers)
    if "rate" in sets:
        rate(max(args.rounds, 3))
    print(f"\npeak resident memory of this process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
