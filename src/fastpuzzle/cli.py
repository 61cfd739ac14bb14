"""The ``fastpuzzle`` command (also ``python -m fastpuzzle``).

Moves are printed as U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from fastpuzzle.board import Board
from fastpuzzle.errors import FastPuzzleError, SearchLimitError, UnsolvableError
from fastpuzzle.formats import Job, read_jobs
from fastpuzzle.generate import random_board, scramble
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchStats, Solution

__all__ = ["build_parser", "main"]

NOT_SOLVABLE = "This puzzle is not solvable."


def _shape(args: argparse.Namespace) -> tuple[int, int] | None:
    return (args.shape[0], args.shape[1]) if args.shape else None


def _jobs(args: argparse.Namespace) -> list[Job]:
    text = " ".join(args.board) if args.board else sys.stdin.read()
    jobs = read_jobs(text, shape=_shape(args), fmt=args.format)
    if args.goal:
        return [Job(job.board, Board(args.goal, shape=job.board.shape)) for job in jobs]
    return jobs


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(seconds=args.time_limit, nodes=args.node_limit, max_depth=args.max_depth)


def _stats_record(solution: Solution) -> dict[str, Any]:
    s = solution.stats
    return {
        "expanded": s.expanded,
        "generated": s.generated,
        "max_frontier": s.max_frontier,
        "peak_memory_bytes": s.peak_memory_bytes,
        "seconds": s.seconds,
        "depth": s.depth,
        "iterations": s.iterations,
    }


def _animate(solution: Solution, delay: float) -> None:
    frames = solution.boards()
    for step, board in enumerate(frames):
        move = f"  move {step}/{len(solution)}: {solution.moves[step - 1]}" if step else "  start"
        sys.stdout.write("\x1b[2J\x1b[H" + str(board) + "\n" + move + "\n")
        sys.stdout.flush()
        time.sleep(delay)


def _show_progress(stats: SearchStats) -> None:
    # One line on stderr, rewritten in place: long optimal searches (5x5) say how far they got.
    sys.stderr.write(
        f"\r  bound {stats.depth}, {stats.generated:,} nodes, {stats.seconds:.1f} s   "
    )
    sys.stderr.flush()


def _cmd_solve(args: argparse.Namespace) -> int:
    from fastpuzzle.solve import solve

    if args.fast and (args.algorithm != "auto" or args.heuristic != "auto"):
        raise ValueError("--fast picks its own method: pass no --algorithm or --heuristic")
    status = 0
    for job in _jobs(args):
        started = time.perf_counter()
        record: dict[str, Any] = {"board": job.board.to_string()}
        if job.goal is not None:
            record["goal"] = job.goal.to_string()
        try:
            try:
                solution = solve(
                    job.board,
                    job.goal,
                    algorithm=args.algorithm,
                    heuristic=args.heuristic,
                    limits=_limits(args) if not args.fast else Limits(seconds=args.time_limit),
                    progress=_show_progress if args.progress else None,
                    optimal=not args.fast,
                    workers=1 if args.fast else args.workers,
                )
            finally:
                if args.progress:
                    sys.stderr.write("\n")
        except UnsolvableError:
            status = max(status, 1)
            record.update(status="unsolvable", moves=None)
            print(json.dumps(record) if args.json else NOT_SOLVABLE)
            continue
        except SearchLimitError as error:
            status = max(status, 1)
            record.update(status="limit", message=str(error), moves=None)
            print(json.dumps(record) if args.json else f"No solution: {error}")
            continue
        elapsed = time.perf_counter() - started
        if args.json:
            record.update(
                status="solved",
                moves=solution.moves,
                length=len(solution),
                optimal=solution.optimal,
                algorithm=solution.algorithm,
                heuristic=solution.heuristic,
                stats=_stats_record(solution),
            )
            print(json.dumps(record))
            continue
        if args.show:
            print(solution.steps())
        if args.animate:
            _animate(solution, args.delay)
        print(solution)
        print(f"elapsed {elapsed:.3f} s")
    return status


def _cmd_compare(args: argparse.Namespace) -> int:
    from fastpuzzle.compare import compare

    if args.random:
        shape = _shape(args) or (3, 3)
        boards = [
            random_board(shape, rng=None if args.seed is None else args.seed + i)
            for i in range(args.random)
        ]
    else:
        boards = [job.board for job in _jobs(args)]
    table = compare(
        boards,
        args.algorithms.split(","),
        heuristics=args.heuristics.split(","),
        limits=_limits(args),
    )
    print(table)
    if args.csv:
        table.to_csv(args.csv)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        ax = table.plot(metric=args.metric)
        ax.figure.tight_layout()
        ax.figure.savefig(args.plot)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from fastpuzzle import quickbench

    print(quickbench.format_rows(quickbench.run(quick=args.quick)))
    return 0


def _cmd_random(args: argparse.Namespace) -> int:
    for index in range(args.count):
        seed = None if args.seed is None else args.seed + index
        print(random_board(_shape(args) or (4, 4), rng=seed).to_string())
    return 0


def _cmd_scramble(args: argparse.Namespace) -> int:
    start = Board.goal(_shape(args) or (4, 4))
    for index in range(args.count):
        seed = None if args.seed is None else args.seed + index
        print(scramble(start, args.moves, rng=seed).to_string())
    return 0


def _cmd_pdb(args: argparse.Namespace) -> int:
    # Imported here: the pattern-database module is only needed by this command.
    from fastpuzzle import pdb

    if args.action == "build":
        goal_blank = None if args.goal_blank is None else int(args.goal_blank)
        shape = _shape(args)
        path = pdb.build_pdb(args.partition, shape, goal_blank, args.cache_dir, force=args.force)
        print(path)
    elif args.action == "info":
        print(f"cache directory: {pdb.pdb_cache_dir(args.cache_dir)}")
        for entry in pdb.pdb_info(args.cache_dir):
            state = "ok" if entry["valid"] else f"INVALID ({entry.get('problem', '')})"
            print(f"{entry['path']}  {entry['bytes']:,} bytes  {state}")
    else:
        print(f"removed {pdb.clear_cache(args.cache_dir)} file(s)")
    return 0


def _add_board_input(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument(
        "board",
        nargs="*",
        help="tiles, rows split by '/', 0 or _ = blank; without it, boards are read from stdin",
    )
    cmd.add_argument("--shape", nargs=2, type=int, metavar=("ROWS", "COLS"))
    cmd.add_argument(
        "--format",
        default="auto",
        choices=["auto", "board", "pair", "count", "lines"],
        help="input layout: one board; start then goal; a count then boards; "
        "one board per line (default: auto)",
    )
    cmd.add_argument("--goal", help="goal board (default: 1..n-1 then the blank)")
    cmd.add_argument("--max-depth", type=int, help="longest solution to look for")
    cmd.add_argument("--time-limit", type=float, help="seconds per board")
    cmd.add_argument("--node-limit", type=int, help="expansions per board")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``fastpuzzle`` command."""
    parser = argparse.ArgumentParser(
        prog="fastpuzzle",
        description="Sliding-tile puzzles solved optimally. Moves are U, D, L, R: the direction "
        "the blank moves.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="solve boards given as arguments or on stdin")
    _add_board_input(solve)
    solve.add_argument("--algorithm", default="auto", help="default: the optimal workhorse")
    solve.add_argument("--heuristic", default="auto")
    solve.add_argument("--json", action="store_true", help="one JSON object per board")
    solve.add_argument("--show", action="store_true", help="print every board of the solution")
    solve.add_argument(
        "--animate", action="store_true", help="animate the solution in the terminal"
    )
    solve.add_argument("--delay", type=float, default=0.3, help="seconds per frame of --animate")
    solve.add_argument(
        "--fast",
        action="store_true",
        help="a fast solution, not guaranteed shortest (any size up to 100x100)",
    )
    solve.add_argument(
        "--progress", action="store_true", help="show the search's bound and nodes on stderr"
    )
    solve.add_argument(
        "--workers",
        type=int,
        default=None,
        help="threads for IDA* (default: every core; 1: the serial search)",
    )
    solve.set_defaults(run=_cmd_solve)

    comp = sub.add_parser("compare", help="tabulate several algorithms on several boards")
    _add_board_input(comp)
    comp.add_argument("--algorithms", default="bfs,astar,idastar,greedy")
    comp.add_argument("--heuristics", default="manhattan")
    comp.add_argument("--random", type=int, default=0, help="compare on N random boards")
    comp.add_argument("--seed", type=int)
    comp.add_argument("--csv", help="also write the table as CSV to this file")
    comp.add_argument("--plot", help="also draw a bar chart (log scale) to this image file")
    comp.add_argument(
        "--metric",
        default="expanded",
        choices=["expanded", "generated", "peak_memory_bytes", "seconds", "length"],
    )
    comp.set_defaults(run=_cmd_compare)

    bench = sub.add_parser("bench", help="a quick benchmark: nodes per second and times")
    bench.add_argument("--quick", action="store_true", help="fewer boards")
    bench.set_defaults(run=_cmd_bench)

    for name, helptext in (
        ("random", "uniformly random solvable boards"),
        ("scramble", "random walks from the goal"),
    ):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("--shape", nargs=2, type=int, metavar=("ROWS", "COLS"))
        cmd.add_argument("--count", type=int, default=1)
        cmd.add_argument("--seed", type=int)
        if name == "scramble":
            cmd.add_argument("--moves", type=int, default=50)
        cmd.set_defaults(run=_cmd_random if name == "random" else _cmd_scramble)

    tables = sub.add_parser("pdb", help="pattern databases: build, info, clear")
    tables.add_argument("action", choices=("build", "info", "clear"))
    tables.add_argument(
        "partition",
        nargs="?",
        default="6-6-3",
        help="5-5-5, 6-6-3 or 7-8 (4x4), 6-6-6-6 (5x5), or auto (with --shape)",
    )
    tables.add_argument(
        "--shape",
        nargs=2,
        type=int,
        metavar=("ROWS", "COLS"),
        help="up to 25 cells (default: the named partition's shape, else 4x4)",
    )
    tables.add_argument("--goal-blank", type=int, help="goal blank cell (default: the last)")
    tables.add_argument("--cache-dir", help="default: $FASTPUZZLE_CACHE or ~/.cache/fastpuzzle")
    tables.add_argument("--force", action="store_true", help="rebuild even if a good file exists")
    tables.set_defaults(run=_cmd_pdb)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 solved, 1 not solved, 2 bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (FastPuzzleError, ValueError) as error:
        print(f"fastpuzzle: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fastpuzzle: interrupted", file=sys.stderr)
        return 130
