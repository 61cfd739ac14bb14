"""Instructions the classic searches execute in their compiled module, two trees side by side.

On a machine shared with other work, wall-clock timings of the drivers in ``_search.pyx`` move by
tens of percent from run to run; the number of instructions they execute does not. This counts
them with valgrind's cachegrind (which must be installed): each search runs four times in a
fresh process and the instructions attributed to ``_search.c`` (the drivers and every helper
inlined into them) are divided by four. Instructions are not time (cache misses are not counted),
but a change in the loops shows here at the percent level.

Usage: ``python -m benchmarks.studies.core_instructions_report --src TREE/src --base BASELINE/src``
(each tree built in place).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SEARCHES = """
import sys
import fastpuzzle as fp
from fastpuzzle._core import _search
from fastpuzzle.heuristics import BY_NAME
from fastpuzzle._problem import make_problem

def args(board):
    p = make_problem(board)
    return (p.packed, p.blank, p.rows, p.cols, p.goal_blank)

H3 = args((8, 6, 7, 2, 5, 4, 3, 0, 1))
B44 = args(fp.scramble(fp.Board.goal((4, 4)), 60, rng=5))
I3 = args(fp.scramble(fp.Board.goal((3, 3)), 40, rng=1))
M, MIS = BY_NAME["manhattan"].code, BY_NAME["misplaced"].code
CASES = {
    "bfs 3x3 hardest, array": lambda: _search.bfs(*H3),
    "bfs 3x3 hardest, table": lambda: _search.bfs(*H3, perfect_hash=False),
    "astar+misplaced 3x3 hardest, array": lambda: _search.best_first(*H3, heuristic=MIS),
    "astar+misplaced 3x3 hardest, table": lambda: _search.best_first(
        *H3, heuristic=MIS, perfect_hash=False
    ),
    "astar+manhattan 4x4 (60-move scramble)": lambda: _search.best_first(*B44, heuristic=M),
    "greedy+misplaced 3x3 hardest, array": lambda: _search.best_first(
        *H3, heuristic=MIS, g_scale=0
    ),
    "bidirectional 3x3 hardest": lambda: _search.bidirectional(*H3),
    "dfs 3x3 hardest, depth 22": lambda: _search.depth_first(*H3, max_depth=22),
    "iddfs 3x3 (16 moves)": lambda: _search.depth_first(*I3, iterative=True),
    "random walk 3x3 hardest": lambda: _search.random_walk(*H3, seed=1),
}
if sys.argv[1] == "--list":
    print("\\n".join(CASES))
else:
    for _ in range(int(sys.argv[2])):
        CASES[sys.argv[1]]()
"""

RUNS = 4


def instructions(src: Path, script: Path, case: str) -> float:
    """Instructions in ``_search.c`` per run of ``case``, with the tree at ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        valgrind = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            f"--cachegrind-out-file={out.name}",
        ]
        command = [sys.executable, str(script), case, str(RUNS)]
        subprocess.run(
            [*valgrind, *command],
            env=env,
            capture_output=True,
            check=True,
        )
        text = subprocess.run(
            ["cg_annotate", "--auto=no", "--threshold=0", out.name],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    total = 0
    for line in text.splitlines():
        found = re.match(r"\s*([\d,]+) \(.*?\)\s+(\S+):\S+", line)
        if found and found.group(2).endswith("_search.c"):
            total += int(found.group(1).replace(",", ""))
    return total / RUNS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, required=True, help="the tree measured (its src)")
    parser.add_argument("--base", type=Path, required=True, help="the baseline's src")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "searches.py"
        script.write_text(SEARCHES)
        env = {**os.environ, "PYTHONPATH": str(args.src)}
        cases = subprocess.run(
            [sys.executable, str(script), "--list"], env=env, capture_output=True, text=True
        ).stdout.split("\n")
        print(f"{'instructions in _search.c per search':40} {'base':>9} {'tree':>9} {'ratio':>6}")
        for case in filter(None, cases):
            base = instructions(args.base, script, case)
            tree = instructions(args.src, script, case)
            print(f"{case:40} {base / 1e6:8.2f}M {tree / 1e6:8.2f}M {tree / base:6.3f}", flush=True)


if __name__ == "__main__":
    main()
