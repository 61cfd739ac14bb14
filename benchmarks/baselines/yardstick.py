"""The C yardstick (``benchmarks/baselines/ida_manhattan.c``) and the optimal-solver ratio report.

``compile_yardstick()`` builds the plain C IDA* with ``cc -O3`` into a temporary directory;
``run_yardstick(boards)`` returns its ``(length, nodes, seconds)`` per board.

Run ``python -m benchmarks.baselines.yardstick`` for the report, every figure measured in this one
run on this machine (other load on the machine shows up in both sides of each ratio):

- IDA* + Manhattan node rate of fastpuzzle against the C yardstick (best of ``--rounds``,
  interleaved), and the ratio;
- the 6-6-3 build time and size, random50 all solved optimally with 6-6-3 + reflection (total
  search time), and with 7-8 when it has been built in the cache;
- the 50-move random50 board with the fewest Manhattan nodes: the default solver against the
  pure-Python IDA* of ``plain_ida.py`` (reported as "> 60 s" if it takes longer).

Options: ``--cache-dir`` (default: a temporary directory for 6-6-3, the user's cache for 7-8),
``--skip-python``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.harness import Instance, random50

#: The plain C IDA* + Manhattan that fastpuzzle's IDA* is measured against.
YARDSTICK_SOURCE = Path(__file__).resolve().parent / "ida_manhattan.c"


def compile_yardstick(directory: str | os.PathLike[str]) -> Path | None:
    """Compile the yardstick with ``cc -O3`` into ``directory``; None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    binary = Path(directory) / "ida_manhattan"
    subprocess.run([compiler, "-O3", "-o", str(binary), str(YARDSTICK_SOURCE)], check=True)
    return binary


def run_yardstick(binary: Path, boards: Sequence[Sequence[int]]) -> list[tuple[int, int, float]]:
    """``(length, nodes, seconds)`` per board, as the yardstick measures itself."""
    text = "\n".join(" ".join(str(t) for t in board) for board in boards) + "\n"
    done = subprocess.run([str(binary)], input=text, capture_output=True, text=True, check=True)
    out = []
    for line in done.stdout.splitlines():
        length, nodes, seconds, _ = line.split()
        out.append((int(length), int(nodes), float(seconds)))
    return out


def rate_boards() -> list[Instance]:
    """random50 boards of 1-5 million Manhattan nodes: quick, yet long enough to time."""
    return [c for c in random50() if 1_000_000 <= (c.manhattan_ida_nodes or 0) <= 5_000_000]


def smallest_50_move_board() -> Instance:
    """The 50-move board of random50 with the fewest Manhattan IDA* nodes."""
    return min(
        (c for c in random50() if c.optimal_length == 50), key=lambda c: c.manhattan_ida_nodes or 0
    )


def fastpuzzle_manhattan(boards: Sequence[Instance]) -> tuple[int, float]:
    """Total generated nodes and core seconds of fastpuzzle's IDA* + Manhattan."""
    from fastpuzzle._problem import make_problem
    from fastpuzzle._solver import idastar
    from fastpuzzle._solver.request import Request
    from fastpuzzle.limits import Limits

    nodes, seconds = 0, 0.0
    for case in boards:
        core = idastar.run(Request(make_problem(list(case.tiles)), "manhattan", Limits()))
        assert core.depth == case.optimal_length and core.generated == case.manhattan_ida_nodes
        nodes += core.generated
        seconds += core.seconds
    return nodes, seconds


def solve_all(heuristic: str) -> tuple[float, int]:
    """Total core seconds and generated nodes solving random50 optimally with ``heuristic``."""
    from fastpuzzle._problem import make_problem
    from fastpuzzle._solver import idastar
    from fastpuzzle._solver.request import Request
    from fastpuzzle.limits import Limits

    seconds, nodes = 0.0, 0
    for case in random50():
        core = idastar.run(Request(make_problem(list(case.tiles)), heuristic, Limits()))
        assert core.depth == case.optimal_length, case.name
        seconds += core.seconds
        nodes += core.generated
    return seconds, nodes


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cache-dir")
    parser.add_argument("--skip-python", action="store_true")
    args = parser.parse_args(argv)

    from fastpuzzle import pdb

    boards = rate_boards()
    with tempfile.TemporaryDirectory() as scratch:
        binary = compile_yardstick(scratch)
        print(f"IDA* + Manhattan on {len(boards)} random50 boards (exact node counts checked)")
        best_c = best_fp = 0.0
        nodes = 0
        for _ in range(args.rounds):
            if binary is not None:
                runs = run_yardstick(binary, [c.tiles for c in boards])
                c_nodes = sum(r[1] for r in runs)
                assert c_nodes == sum(c.manhattan_ida_nodes or 0 for c in boards)
                best_c = max(best_c, c_nodes / sum(r[2] for r in runs))
            nodes, seconds = fastpuzzle_manhattan(boards)
            best_fp = max(best_fp, nodes / seconds)
        print(f"  nodes per round          {nodes:,}")
        print(f"  fastpuzzle               {best_fp / 1e6:8.1f} M nodes/s (best of {args.rounds})")
        if binary is None:
            print("  C yardstick              skipped (no C compiler)")
        else:
            print(f"  C yardstick (cc -O3)     {best_c / 1e6:8.1f} M nodes/s")
            print(f"  ratio fastpuzzle / C     {best_fp / best_c:8.2f}")

    user_cache = pdb.pdb_cache_dir(args.cache_dir)  # where a 7-8 build would be
    with tempfile.TemporaryDirectory() as scratch:
        cache = Path(args.cache_dir) if args.cache_dir else Path(scratch)
        os.environ["FASTPUZZLE_CACHE"] = str(cache)
        started = time.perf_counter()
        path = pdb.build_pdb("6-6-3", progress=False, force=args.cache_dir is None)
        build = time.perf_counter() - started
        print(f"6-6-3 build: {build:.1f} s, {path.stat().st_size / 2**20:.1f} MiB on disk")
        seconds, total = solve_all("pdb663")
        print(f"random50, 6-6-3 + reflection: {seconds:.3f} s total search, {total:,} nodes")
        if pdb.load_pdb("7-8", cache_dir=user_cache) is not None:
            os.environ["FASTPUZZLE_CACHE"] = str(user_cache)
            seconds, total = solve_all("pdb78")
            os.environ["FASTPUZZLE_CACHE"] = str(cache)
            print(f"random50, 7-8 + reflection: {seconds:.3f} s total search, {total:,} nodes")
        else:
            print(f"random50, 7-8: skipped (not built in {user_cache})")

        case = smallest_50_move_board()
        import fastpuzzle as fp

        solution = fp.solve(list(case.tiles))
        assert len(solution) == case.optimal_length
        print(
            f"{case.name} ({case.optimal_length} moves, {case.manhattan_ida_nodes:,} Manhattan "
            f"nodes): solve() {solution.stats.seconds * 1e3:.1f} ms search"
        )
        if not args.skip_python:
            import plain_ida

            started = time.perf_counter()
            try:
                length, py_nodes, _ = plain_ida.solve(case.tiles, seconds=60.0)
                elapsed = time.perf_counter() - started
                assert length == case.optimal_length and py_nodes == case.manhattan_ida_nodes
                print(
                    f"  pure-Python IDA* + Manhattan: {elapsed:.1f} s "
                    f"({py_nodes / elapsed / 1e6:.2f} M nodes/s), "
                    f"{elapsed / max(solution.stats.seconds, 1e-9):,.0f}x the default solver"
                )
            except plain_ida.TimeUp:
                print("  pure-Python IDA* + Manhattan: > 60 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
