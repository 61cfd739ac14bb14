"""IDA*'s node driver against the C yardstick: node rates, and instructions a node.

Usage: ``python -m benchmarks.studies.kernel_report [--base TREE/src] [--rounds 7]
[--cases manhattan:parent,manhattan:fsm,...] [--instructions]``.

Every figure is measured in this one run, on the C yardstick's boards (``yardstick.py``: the
random50 boards of 1 to 5 million Manhattan nodes), one thread:

- node rates (generated nodes a second of search time, best of ``--rounds``): the C yardstick
  (``ida_manhattan.c``, ``cc -O3``), this tree, and with ``--base`` a second build of the package
  (another checkout's ``src``, built in place), each round running C, this tree and the base in
  turn, every search in a fresh process; a case is ``heuristic:prune`` (``prune`` ``parent``,
  ``fsm`` or a machine's depth);
- with ``--instructions`` (valgrind's cachegrind must be installed): instructions a generated
  node for IDA* + Manhattan, C's whole program against those counted in ``_idastar.c`` (the
  driver and every helper inlined into it) on two smaller random50 boards. Instructions are not
  time (cache misses are not counted), but unlike times they do not move with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.baselines import yardstick
from benchmarks.harness import random50, tree_environment

#: Runs the cases of argv[2] (JSON) on the boards of argv[1] (JSON) with the package on sys.path;
#: prints {case: [generated, seconds]}.
RATES = """
import json, sys
import fastpuzzle as fp
boards, cases = json.loads(sys.argv[1]), json.loads(sys.argv[2])
out = {}
for case in cases:
    heuristic, prune = case.split(":")
    prune = int(prune) if prune.isdigit() else prune
    fp.search(boards[0], algorithm="idastar", heuristic=heuristic, workers=1, prune=prune)
    generated, seconds = 0, 0.0
    for board in boards:
        stats = fp.search(board, algorithm="idastar", heuristic=heuristic, workers=1,
                          prune=prune).stats
        generated += stats.generated
        seconds += stats.seconds
    out[case] = [generated, seconds]
print(json.dumps(out))
"""


def _rates(src: Path | None, boards: list[list[int]], cases: list[str]) -> dict[str, list[float]]:
    env = tree_environment(src)
    done = subprocess.run(
        [sys.executable, "-c", RATES, json.dumps(boards), json.dumps(cases)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def node_rates(src: Path | None, base: Path | None, rounds: int, cases: list[str]) -> None:
    instances = yardstick.rate_boards()
    boards = [list(case.tiles) for case in instances]
    trees = {"tree": src, **({"base": base} if base else {})}
    best: dict[tuple[str, str], float] = {}
    nodes: dict[tuple[str, str], int] = {}
    with tempfile.TemporaryDirectory() as scratch:
        binary = yardstick.compile_yardstick(scratch)
        for _ in range(rounds):
            if binary is not None:
                runs = yardstick.run_yardstick(binary, boards)
                generated = sum(r[1] for r in runs)
                assert generated == sum(c.manhattan_ida_nodes or 0 for c in instances)
                rate = generated / sum(r[2] for r in runs)
                best[("C", "")] = max(best.get(("C", ""), 0.0), rate)
                nodes[("C", "")] = generated
            for name, path in trees.items():
                for case, (generated, seconds) in _rates(path, boards, cases).items():
                    best[(name, case)] = max(best.get((name, case), 0.0), generated / seconds)
                    nodes[(name, case)] = int(generated)
    c_rate = best.get(("C", ""))
    print(f"IDA* node rates, {len(boards)} random50 boards, one thread, best of {rounds}")
    if c_rate:
        print(f"  {'C yardstick':>24}: {nodes[('C', '')]:>12,} nodes {c_rate / 1e6:7.1f} M/s")
    for case in cases:
        for name in trees:
            rate = best[(name, case)]
            against = f"  {rate / c_rate:.2f}x C" if c_rate else ""
            extra = ""
            if name == "tree" and base:
                extra = f"  {rate / best[('base', case)]:.2f}x base"
            label = f"{case} ({name})"
            print(
                f"  {label:>24}: {nodes[(name, case)]:>12,} nodes {rate / 1e6:7.1f} M/s"
                f"{against}{extra}"
            )


def _cachegrind(command: list[str], env: dict[str, str], stdin: str | None = None) -> str:
    """cg_annotate's table of the instructions ``command`` executed, by file and function."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "cg.out"
        valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
        valgrind.append(f"--cachegrind-out-file={out}")
        subprocess.run(
            [*valgrind, *command], input=stdin, env=env, capture_output=True, text=True, check=True
        )
        return subprocess.run(
            ["cg_annotate", "--auto=no", "--threshold=0", str(out)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout


def _counted(text: str, suffix: str) -> int:
    """Instructions counted in the files whose names end with ``suffix``."""
    total = 0
    for line in text.splitlines():
        found = re.match(r"\s*([\d,]+) \(.*?\)\s+(\S+):\S+", line)
        if found and found.group(2).endswith(suffix):
            total += int(found.group(1).replace(",", ""))
    return total


def instructions(src: Path | None, base: Path | None) -> None:
    cases = [c for c in random50() if 300_000 <= (c.manhattan_ida_nodes or 0) <= 1_500_000][:2]
    boards = [list(c.tiles) for c in cases]
    generated = sum(c.manhattan_ida_nodes or 0 for c in cases)
    print(f"\nInstructions a generated node, IDA* + Manhattan, {len(cases)} random50 boards")
    with tempfile.TemporaryDirectory() as scratch:
        binary = yardstick.compile_yardstick(scratch)
        if binary is not None:
            stdin = "\n".join(" ".join(map(str, board)) for board in boards) + "\n"
            total = re.search(
                r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", _cachegrind([str(binary)], {}, stdin)
            )
            assert total is not None
            count = int(total.group(1).replace(",", ""))
            print(f"  {'C yardstick (program)':>24}: {count / generated:6.1f}")
        # cachegrind's file keeps the command line, which must hold no newline: a script file.
        script = Path(scratch) / "searches.py"
        script.write_text(RATES)
        trees = {"tree": src, **({"base": base} if base else {})}
        for prune in ("parent", "fsm"):
            case = json.dumps([f"manhattan:{prune}"])
            for name, path in trees.items():
                env = tree_environment(path)
                command = [sys.executable, str(script), json.dumps(boards), case]
                counted = _counted(_cachegrind(command, env), "_idastar.c")
                # The script searches boards[0] once more before the timed searches.
                searched = _rates(path, boards, [f"manhattan:{prune}"])[f"manhattan:{prune}"][0]
                warm = _rates(path, boards[:1], [f"manhattan:{prune}"])[f"manhattan:{prune}"][0]
                label = f"{prune} ({name})"
                print(f"  {label:>24}: {counted / (searched + warm):6.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="a second tree's src, built in place")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--cases",
        default="manhattan:parent,manhattan:fsm,linear_conflict:parent,linear_conflict:fsm",
    )
    parser.add_argument("--instructions", action="store_true")
    args = parser.parse_args(argv)
    src = None  # the fastpuzzle this Python imports
    node_rates(src, args.base, args.rounds, args.cases.split(","))
    if args.instructions:
        instructions(src, args.base)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
