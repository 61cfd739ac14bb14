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

from fastpuzzle._solver import policy, pruning
from fastpuzzle._solver.search_line import SearchLine
from fastpuzzle._util.optional import require
from fastpuzzle._util.progress import on_terminal
from fastpuzzle._util.units import duration
from fastpuzzle.algorithms import ALGORITHMS
from fastpuzzle.batch.chunk import error_status
from fastpuzzle.board import Board
from fastpuzzle.cli.arguments import (
    INPUT_RULES,
    Subcommands,
    add_anytime,
    add_board_input,
    add_conventions,
    add_weight,
    anytime_options,
    cli_words,
    epilog,
    integer_arg,
    limits_option,
    out_file,
    seconds_arg,
    whole_arg,
)
from fastpuzzle.cli.boards import board_jobs
from fastpuzzle.errors import (
    SearchLimitError,
    UnsolvableError,
)
from fastpuzzle.formats import Job
from fastpuzzle.heuristics import heuristic_names
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


class _SolveLine(SearchLine):
    """The progress of one solve (:class:`~fastpuzzle._solver.search_line.SearchLine`): its
    hint only for the default optimal search with pattern databases, not for ``--fast``."""

    def __init__(self, job: Job, args: argparse.Namespace) -> None:
        optimal_pdb = args.algorithm in ("auto", "idastar") and args.heuristic in ("auto", "pdb")
        goal = job.goal if job.goal is not None else Board.goal(job.board.shape)
        super().__init__(
            job.board.shape, goal.blank, hint=optimal_pdb and not args.fast, terminal=on_terminal()
        )


def _progress_printer(job: Job, args: argparse.Namespace) -> Callable[[SearchStats], None]:
    """The ``progress`` of one solve (:class:`_SolveLine`)."""
    return _SolveLine(job, args).show


def _record(index: int, job: Job) -> dict[str, Any]:
    """``--json``'s record of a board before its search: the keys and order of a batch's JSONL
    record (:meth:`fastpuzzle.BatchResult.to_records`), the goal after the board when given."""
    record: dict[str, Any] = {"index": index, "board": job.board.to_string()}
    if job.goal is not None:
        record["goal"] = job.goal.to_string()
    record.update(length=None, lower_bound=None, status="", expanded=0, generated=0)
    record.update(seconds=0.0, moves="")
    record["message"] = ""
    return record


def _counted(record: dict[str, Any], stats: SearchStats | None) -> None:
    if stats is not None:
        record.update(expanded=stats.expanded, generated=stats.generated, seconds=stats.seconds)


def _failed(record: dict[str, Any], error: UnsolvableError | SearchLimitError) -> None:
    """``record`` of a board without a solution: a batch's status word (``"time_limit"``...)
    and its message."""
    record.update(status=error_status(error), message=cli_words(str(error)))
    _counted(record, getattr(error, "stats", None))


def _cmd_solve(args: argparse.Namespace) -> int:
    anytime_options(args)
    if args.fast and (args.algorithm != "auto" or args.heuristic != "auto"):
        raise ValueError(
            "--fast and --seconds pick their own method: pass no --algorithm or --heuristic"
        )
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


def _gif_checked(args: argparse.Namespace, boards: int) -> None:
    """Refuse ``--gif`` before any search when its picture cannot be written: more than one
    board, a path where no file can be, or no Pillow."""
    if args.gif is None:
        return
    if boards != 1:
        raise ValueError(f"--gif draws one board's solution; got {boards:,} boards")
    if args.json:
        raise ValueError("--gif writes a picture, --json a record: pass one of them")
    out_file("--gif", args.gif)
    require("PIL.Image", "--gif", "pictures", package="Pillow")


def _solve_jobs(args: argparse.Namespace, client: Any) -> int:
    status = 0
    jobs = board_jobs(args)
    _gif_checked(args, len(jobs))
    for number, job in enumerate(jobs, 1):
        if len(jobs) > 1 and not args.json:
            # Which board the lines below are about (a bad line costs only itself, so the
            # order of the input alone cannot say).
            towards = "" if job.goal is None else f" (goal {job.goal.to_string()})"
            print(f"board {number} of {len(jobs)}: {job.board.to_string()}{towards}")
        started = time.perf_counter()
        line = _SolveLine(job, args) if _shows_progress(args) else None
        record = _record(number - 1, job)
        try:
            try:
                solution = solve(
                    job.board,
                    job.goal,
                    algorithm=args.algorithm,
                    heuristic=args.heuristic,
                    limits=limits_option(args),
                    progress=None if line is None else line.show,
                    weight=args.weight,
                    seed=args.seed,
                    optimal=not args.fast,
                    workers=args.workers,
                    client=client,
                    prune=args.prune,
                    order=args.order,
                    ties=args.ties,
                    goal_test=args.goal_test,
                )
            finally:
                if line is not None:
                    line.close()
        except (UnsolvableError, SearchLimitError) as error:
            status = max(status, 1)
            _failed(record, error)
            if args.json:
                print(json.dumps(record))
            else:
                unsolvable = isinstance(error, UnsolvableError)
                print(NOT_SOLVABLE if unsolvable else f"No solution: {record['message']}")
            continue
        elapsed = time.perf_counter() - started
        if args.json:
            _counted(record, solution.stats)
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
        if args.gif is not None:
            # After the moves: a picture refused (too many pixels) costs no search's answer.
            solution.to_gif(args.gif)
            print(f"wrote {args.gif} ({len(solution) + 1:,} frames)")
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
    add_conventions(solve)
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
        "--gif",
        metavar="PATH",
        default=None,
        help="write the solution as an animated GIF there, a frame a board (one board; needs "
        "Pillow: pip install 'fastpuzzle[pictures]')",
    )
    add_anytime(
        solve,
        "a fast solution, not guaranteed shortest (any size up to 100x100); with --time-limit "
        "or --node-limit, past 16 cells, shorter ones until the limit runs out, each with its "
        "lower bound and gap (on a terminal, or with --progress, a line shows the best length "
        "so far, its lower bound and gap)",
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
        help="threads for IDA* and --fast with a limit (default: every core; 1: the serial search)",
    )
    solve.add_argument(
        "--prune",
        default=None,
        help="IDA*'s duplicate pruning: fsm (default: the deepest machine of up to "
        f"{pruning.MAX_DEPTH} moves within {pruning.MAX_STATES:,} states, kept in the cache as "
        f"fsm-...-d{pruning.MAX_DEPTH}-s{pruning.MAX_STATES}.npy; on 4x4 and 5x5 it holds every "
        "twin of up to 13 moves, as --prune 13 does), parent (the published node counts) or a "
        f"depth of 6 or 8 to {pruning.MAX_DEPTH} (a smaller depth is a weaker machine, more "
        "nodes)",
    )
    solve.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="a Dask scheduler (tcp://host:8786): IDA*'s largest iterations run on its cluster",
    )
    solve.set_defaults(run=_cmd_solve)
