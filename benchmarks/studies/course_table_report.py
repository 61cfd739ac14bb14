"""Do two runs of the course-report table agree? The source documents' table, twice, side by side.

Runs ``fastpuzzle compare`` on the source documents' two boards with every algorithm and both
heuristics, each time in a fresh process (as a student runs the command twice), the random walk
seeded so that both runs do the same work, and prints each row's two times, their ratio and
whether they differ by more than the two runs' spreads together. ``--src`` names a source tree
to run (its ``src`` folder; default: this one); with two, their runs alternate (A, B, A, B), so
that a baseline is measured in the same conditions. A tree whose table has no ``runs`` column
(before the times were medians) is timed once per search, as it reports.

Usage: ``python -m benchmarks.studies.course_table_report [--src PATH] [--src BASELINE]``
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.harness import tree_environment

ALGORITHMS = "bfs,dfs,iddfs,greedy,lookahead,random,astar,wastar,bidirectional,idastar"
BOARDS = ["5 2 3/4 1 8/_ 7 6", "1 3 _/5 2 6/4 7 8"]


def table(src: Path | None) -> list[dict[str, str]]:
    """The table's rows as CSV records, from a fresh process running the tree at ``src`` (None:
    the fastpuzzle this Python imports)."""
    env = tree_environment(src)
    command = [sys.executable, "-m", "fastpuzzle", "compare", "--algorithms", ALGORITHMS]
    command += ["--heuristics", "misplaced,manhattan", "--seed", "1", "--csv", "-", *BOARDS]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    # A tree from before --csv - wrote only CSV prints the aligned table first.
    text = done.stdout[done.stdout.index("board,algorithm") :]
    return list(csv.DictReader(io.StringIO(text)))


def report(name: str, first: list[dict[str, str]], second: list[dict[str, str]]) -> str:
    from fastpuzzle._util.units import duration, spread

    lines = [
        f"{name}",
        f"{'board':9} {'method':20} {'run 1':>17} {'run 2':>17} {'2/1':>5}  within spreads",
    ]
    ratios, inside = [], 0
    for a, b in zip(first, second):
        s1, s2 = float(a["seconds"]), float(b["seconds"])
        d1, d2 = float(a.get("seconds_spread", 0)), float(b.get("seconds_spread", 0))
        ok = abs(s1 - s2) <= d1 + d2
        inside += ok
        ratios.append(s2 / s1)
        method = a["algorithm"] + (f"+{a['heuristic']}" if a["heuristic"] else "")
        # One run (or a tree from before the runs were counted) has no spread to show.
        one = f"{duration(s1)} {spread(s1, d1) if int(a.get('runs', 1)) > 1 else ''}".strip()
        two = f"{duration(s2)} {spread(s2, d2) if int(b.get('runs', 1)) > 1 else ''}".strip()
        lines.append(
            f"{a['board'][:9]:9} {method:20} {one:>17} {two:>17} {s2 / s1:5.2f}  "
            f"{'yes' if ok else 'no'}"
        )
    far = sum(not 0.8 <= r <= 1.25 for r in ratios)
    lines.append(
        f"rows within the spreads: {inside}/{len(ratios)}; median |log2 ratio|: "
        f"{statistics.median(abs(math.log2(r)) for r in ratios):.2f}; "
        f"rows more than 25% apart: {far}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", type=Path, help="a tree's src folder")
    args = parser.parse_args()
    trees: list[Path | None] = args.src or [None]
    runs: dict[Path | None, list[list[dict[str, str]]]] = {tree: [] for tree in trees}
    for _ in range(2):
        for tree in trees:
            runs[tree].append(table(tree))
    print("\n\n".join(report(_name(tree), *runs[tree]) for tree in trees))


def _name(tree: Path | None) -> str:
    return "this Python's fastpuzzle" if tree is None else str(tree)


if __name__ == "__main__":
    main()
