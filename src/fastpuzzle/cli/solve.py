"""``fastpuzzle solve``: boards given as arguments or on stdin, solved one by one."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastpuzzle._solver import policy
from fastpuzzle._util.optional import require
from fastpuzzle._util.progress import Throttle, fit_line, on_terminal
from fastpuzzle._util.units import duration
from fastpuzzle.algorithms import ALGORITHMS
from fastpuzzle.board import Board
from fastpuzzle.cli.arguments import (
    INPUT_RULES,
    Subcommands,
    add_board_input,
    add_weight,
    cli_words,
    epilog,
    integer_arg,
    limits_option,
    seconds_arg,
    whole_arg,
)
from fastpuzzle.cli.boards import board_jobs
from fastpuzzle.errors import (
    SearchLimitError,
    UnsolvableError,
)
from fastpuzzle.formats import Job
from fastpuzzle.heuristics import heuristic_names, linear_conflict
from fastpuzzle.limits import Limits
from fastpuzzle.render import gap_words
from fastpuzzle.results import SearchStats, Solution
from fastpuzzle.solve import solve

__all__ = ["HINT_AFTER_SECONDS", "NOT_SOLVABLE", "add_solve_parser"]

NOT_SOLVABLE = "This puzzle is not solvable."


def _animate(solution: Solution, delay: float) -> None:
    frames = solution.boards()
    # Clearing the screen only makes sense on a terminal; elsewhere the frames follow each other.
    clear = "\x1b[2J\x1b[H" if sys.stdout.isatty() else "\n"
    for step, board in enumerate(frames):
        move = f"  move {step}/{len(solution)}: {solution.moves[step - 1]}" if step else "  start"
        sys.stdout.write(clear + str(board) + "\n" + move + "\n")
        sys.stdout.flush()
        time.sleep(delay)


#: A 4x4 search without the best tables that runs this long says how to make it faster.
HINT_AFTER_SECONDS = policy.HINT_AFTER_SECONDS


def _shows_progress(args: argparse.Namespace) -> bool:
    """Whether ``solve`` draws its progress: ``--progress``, or by default when stderr is a
    terminal (a long optimal search is not silent there); never with ``--no-progress``."""
    return bool(args.progress) or (args.progress is None and on_terminal())


class _SolveLine:
    """The progress of one solve: one line on stderr, rewritten in place on a terminal (one
    line per report elsewhere), so long optimal searches say how far they got; past
    :data:`HINT_AFTER_SECONDS`, a line naming the table that would make it faster, if any.

    Reports come as often as the search makes them (hundreds a second); a line is drawn at most
    ten times a second on a terminal and once a second elsewhere (:class:`Throttle`, on the
    search's clock). It counts expanded nodes, as the solution's line does. On a terminal the
    line is cleared once the search ends (the hint, on a line of its own, stays), so a solve
    shows the same lines whether or not it drew its progress. ``--fast --time-limit`` (the
    anytime solver) draws its best length so far and its gap instead of a bound."""

    def __init__(self, job: Job, args: argparse.Namespace) -> None:
        self.hint = None
        optimal_pdb = args.algorithm in ("auto", "idastar") and args.heuristic in ("auto", "pdb")
        if optimal_pdb and not args.fast:
            goal = job.goal if job.goal is not None else Board.goal(job.board.shape)
            self.hint = policy.faster_table_hint(job.board.shape, goal.blank)
        self.terminal = on_terminal()
        self.throttle = Throttle()
        self.drawn = False
        # --fast reports its best length so far: its gap is over the start's bound (the
        # answer's own bound, printed at the end, may be higher).
        self.start_bound = None
        if args.fast and args.time_limit is not None:
            self.start_bound = linear_conflict(job.board, job.goal)

    def show(self, stats: SearchStats) -> None:
        """Draw the report ``stats`` (when due)."""
        if self.hint is not None and stats.seconds >= HINT_AFTER_SECONDS:
            # Once, on a line of its own that the next report does not overwrite.
            line = f"  hint: {self.hint}"
            sys.stderr.write((fit_line(line).rstrip() if self.terminal else line) + "\n")
            self.hint = None
        elif not self.throttle.due(stats.seconds):
            return
        text = f"  bound {stats.depth}, {stats.expanded:,} expanded, {duration(stats.seconds)}"
        if self.start_bound is not None:
            gap = stats.depth / self.start_bound if self.start_bound else 1.0
            text = (
                f"  best {stats.depth} moves (gap at most {gap:.3g}x), "
                f"{stats.expanded:,} expanded, {duration(stats.seconds)}"
            )
        sys.stderr.write(fit_line(text) if self.terminal else f"{text}\n")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        """End the display: a terminal's line is cleared."""
        if self.drawn and self.terminal:
            sys.stderr.write(fit_line("") + "\r")
            sys.stderr.flush()


def _progress_printer(job: Job, args: argparse.Namespace) -> Callable[[SearchStats], None]:
    """The ``progress`` of one solve (:class:`_SolveLine`)."""
    return _SolveLine(job, args).show


def _cmd_solve(args: argparse.Namespace) -> int:
    if args.fast and (args.algorithm != "auto" or args.heuristic != "auto"):
        raise ValueError("--fast picks its own method: pass no --algorithm or --heuristic")
    if args.fast and args.scheduler:
        raise ValueError("--fast runs on one thread: pass no --scheduler")
    with _scheduler_client(args.scheduler) as client:
        return _solve_jobs(args, client)


@contextlib.contextmanager
def _scheduler_client(address: str | None) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address`` for the block (None without one)."""
    if not address:
        yield None
        return
    distributed = require("distributed", "--scheduler", "dask")
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise ValueError(f"--scheduler {address}: no Dask scheduler answered ({error})") from None
    with client:
        yield client


def _solve_jobs(args: argparse.Namespace, client: Any) -> int:
    status = 0
    jobs = board_jobs(args)
    for number, job in enumerate(jobs, 1):
        if len(jobs) > 1 and not args.json:
            # Which board the lines below are about (a bad line costs only itself, so the
            # order of the input alone cannot say).
            towards = "" if job.goal is None else f" (goal {job.goal.to_string()})"
            print(f"board {number} of {len(jobs)}: {job.board.to_string()}{towards}")
        started = time.perf_counter()
        line = _SolveLine(job, args) if _shows_progress(args) else None
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
                    limits=limits_option(args)
                    if not args.fast
                    else Limits(seconds=args.time_limit),
                    progress=None if line is None else line.show,
                    weight=args.weight,
                    seed=args.seed,
                    optimal=not args.fast,
                    workers=1 if args.fast else args.workers,
                    client=client,
                    prune=args.prune,
                )
            finally:
                if line is not None:
                    line.close()
        except UnsolvableError:
            status = max(status, 1)
            record.update(status="unsolvable", moves=None)
            print(json.dumps(record) if args.json else NOT_SOLVABLE)
            continue
        except SearchLimitError as error:
            status = max(status, 1)
            record.update(status="limit", message=cli_words(str(error)), moves=None)
            print(json.dumps(record) if args.json else f"No solution: {record['message']}")
            continue
        elapsed = time.perf_counter() - started
        if args.json:
            record.update(
                status="solved",
                moves=solution.moves,
                length=len(solution),
                optimal=solution.optimal,
                lower_bound=solution.lower_bound,
                algorithm=solution.algorithm,
                heuristic=solution.heuristic,
                stats=dataclasses.asdict(solution.stats),
            )
            print(json.dumps(record))
            continue
        if args.show:
            print(solution.steps())
        if args.animate:
            _animate(solution, args.delay)
        # Every move (str(solution) cuts long ones), then the line of figures.
        stats = solution.stats
        kind = "optimal"
        if not solution.optimal:
            kind = f"not guaranteed optimal; {gap_words(solution)}"
        method = solution.algorithm + (f" + {solution.heuristic}" if solution.heuristic else "")
        print(solution.moves or "(no moves)")
        print(
            f"length {len(solution)} ({kind}), {method}: {stats.expanded:,} expanded, "
            f"{stats.generated:,} generated, {duration(stats.seconds)}"
        )
        print(f"elapsed {duration(elapsed)}")
    return 2 if args.bad_lines else status


def add_solve_parser(sub: Subcommands) -> None:
    """The ``solve`` subcommand."""
    solve = sub.add_parser(
        "solve",
        help="solve boards given as arguments or on stdin",
        epilog=epilog("solve", INPUT_RULES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_board_input(solve)
    solve.add_argument(
        "--algorithm",
        default="auto",
        help=f"auto (IDA* with the best table: optimal) or one of {', '.join(ALGORITHMS)}",
    )
    solve.add_argument(
        "--heuristic",
        default="auto",
        help=f"auto (the algorithm's best) or one of {', '.join(heuristic_names())}",
    )
    solve.add_argument(
        "--seed",
        type=integer_arg,
        help="seed of the random algorithm: the same seed, the same walk (default: fresh)",
    )
    add_weight(solve)
    solve.add_argument("--json", action="store_true", help="one JSON object per board")
    solve.add_argument("--show", action="store_true", help="print every board of the solution")
    solve.add_argument(
        "--animate", action="store_true", help="animate the solution in the terminal"
    )
    solve.add_argument(
        "--delay",
        type=seconds_arg(zero=True, most=60),
        default=0.3,
        help="seconds per frame of --animate, 0 to 60 (default: %(default)s)",
    )
    solve.add_argument(
        "--fast",
        action="store_true",
        help="a fast solution, not guaranteed shortest (any size up to 100x100); with "
        "--time-limit, past 16 cells, shorter ones until the time runs out",
    )
    solve.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show the search's bound and nodes on stderr, and after a few seconds the table "
        "that would make it faster (default: when stderr is a terminal)",
    )
    solve.add_argument(
        "--workers",
        type=whole_arg(1),
        default=None,
        help="threads for IDA* (default: every core; 1: the serial search)",
    )
    solve.add_argument(
        "--prune",
        default=None,
        help="IDA*'s duplicate pruning: fsm (default: on 4x4 and 5x5 the machine of depth 13), "
        "parent (the published node counts) or a depth of 6 or 8 to 16 (a smaller depth is a "
        "weaker machine, more nodes)",
    )
    solve.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler (tcp://host:8786): IDA*'s largest iterations run on its cluster",
    )
    solve.set_defaults(run=_cmd_solve)
