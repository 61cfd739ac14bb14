"""Custom 4x4 goals on a fresh table cache, measured in one run: how long the first solve of
an easy board takes, and whether it built a table.

Usage: ``python -m benchmarks.studies.custom_goal_report [--baseline TREE]``. Each tree
(``--baseline``: another checkout, built in place) runs in a process of its own with an empty
``$FASTPUZZLE_CACHE``: a one-move board and a 30-move scramble towards the goal with the blank
first, then a uniformly random board (which needs the table).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness import tree_environment

CHILD = """
import json, os, sys, time
import fastpuzzle as fp
goal = fp.Board("_ 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15")
rows = []
for name, board in (
    ("one move", goal.apply("R")),
    ("30-move scramble", fp.scramble(goal, 30, rng=3)),
    ("random board", fp.random_board((4, 4), goal=goal, rng=5)),
):
    started = time.perf_counter()
    solution = fp.solve(board, goal)
    seconds = time.perf_counter() - started
    rows.append([name, len(solution), solution.heuristic, seconds,
                 len(os.listdir(os.environ["FASTPUZZLE_CACHE"]))])
print(json.dumps(rows))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", help="another checkout, built in place")
    args = parser.parse_args()
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.baseline:
        trees.insert(0, ("baseline", Path(args.baseline).resolve() / "src"))
    print(f"{'tree':10} {'board':18} {'length':>6} {'heuristic':>17} {'seconds':>8} tables")
    for name, tree in trees:
        with tempfile.TemporaryDirectory() as cache:
            env = tree_environment(tree, FASTPUZZLE_CACHE=cache)
            done = subprocess.run(
                [sys.executable, "-c", CHILD], env=env, check=True, capture_output=True, text=True
            )
        for board, length, heuristic, seconds, tables in json.loads(done.stdout):
            print(f"{name:10} {board:18} {length:>6} {heuristic:>17} {seconds:8.3f} {tables}")


if __name__ == "__main__":
    main()
