"""What a search costs besides its nodes: an easy board through solve(), and a batch of easy boards.

Usage: ``python -m benchmarks.studies.prepare_report [--base TREE/src] [--rounds 5]
[--instructions]``.

Two figures, each for this tree and, with ``--base``, another checkout's ``src`` (built in
place), measured in the same run, the trees in turn within each round (best of ``--rounds``):

- ``solve()`` of a 4x4 board two moves from the goal (6-6-3 loaded; the kernel expands a handful
  of nodes, so the figure is the search's preparation and its records), microseconds a call;
- ``solve_many`` of 3,000 4x4 boards 20 random moves from the goal on one worker (about 32
  nodes expanded each), microseconds a board.

With ``--instructions`` (valgrind's cachegrind must be installed), the instructions of one
``solve()`` call as well (2,000 calls less none, each tree in a fresh process): unlike times,
they do not move with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from benchmarks.harness import ROOT, ratio, table, tree_environment

#: Times the two cases in a process with the package of argv[1] on its path; prints
#: [solve seconds a call, solve_many seconds a board].
TIMES = """
import json, sys, time
import numpy as np
import fastpuzzle as fp
goal = fp.Board.goal((4, 4))
easy = goal.apply("UL")
fp.solve(easy)
start = time.perf_counter()
for _ in range(2000):
    fp.solve(easy)
one = (time.perf_counter() - start) / 2000
boards = np.array([fp.scramble(goal, 20, rng=s).packed for s in range(3000)], dtype=np.uint64)
fp.solve_many(boards[:10], shape=(4, 4), workers=1)
start = time.perf_counter()
result = fp.solve_many(boards, shape=(4, 4), workers=1)
many = (time.perf_counter() - start) / len(boards)
assert result.solved.all()
print(json.dumps([one, many]))
"""

#: ``solve()`` of the easy board argv[1] times after one call (the table loaded).
CALLS = """
import sys
import fastpuzzle as fp
easy = fp.Board.goal((4, 4)).apply("UL")
fp.solve(easy)
for _ in range(int(sys.argv[1])):
    fp.solve(easy)
"""


def _environment(src: Path | None) -> dict[str, str]:
    return tree_environment(src)


def _times(src: Path | None) -> list[float]:
    done = subprocess.run(
        [sys.executable, "-c", TIMES],
        env=_environment(src),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def _instructions(src: Path | None, calls: int) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", CALLS, str(calls)],
        env=_environment(src), cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"I\s+refs:\s+([0-9,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in cachegrind's output:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout's src, built in place")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args(argv)
    trees: dict[str, Path | None] = {"this tree": None}
    if args.base is not None:
        trees["base"] = args.base.resolve()
    best: dict[str, list[float]] = {name: [float("inf"), float("inf")] for name in trees}
    for _ in range(max(1, args.rounds)):
        for name, src in trees.items():
            one, many = _times(src)
            best[name] = [min(best[name][0], one), min(best[name][1], many)]
    base = best.get("base")
    rows = []
    for name, (one, many) in best.items():
        rows.append(
            (
                name,
                f"{one * 1e6:.1f}",
                "-" if base is None else ratio(one, base[0]),
                f"{many * 1e6:.1f}",
                "-" if base is None else ratio(many, base[1]),
            )
        )
    header = ("tree", "solve() us", "x base", "solve_many us/board", "x base")
    print(table(header, rows))
    if args.instructions:
        counts = {}
        for name, src in trees.items():
            counts[name] = (_instructions(src, 2000) - _instructions(src, 0)) / 2000
        against = counts.get("base")
        rows = [
            (name, int(count), "-" if against is None else ratio(count, against))
            for name, count in counts.items()
        ]
        print()
        print(table(("tree", "instructions a solve()", "x base"), rows))


if __name__ == "__main__":
    main()
