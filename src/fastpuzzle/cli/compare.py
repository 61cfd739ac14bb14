"""``fastpuzzle compare``: several algorithms on several boards, as one table."""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from fastpuzzle._util.checks import MAX_LISTED, shown
from fastpuzzle._util.optional import require
from fastpuzzle._util.plot import METRICS
from fastpuzzle._util.progress import LiveLine, on_terminal
from fastpuzzle._util.units import duration
from fastpuzzle.algorithms import ALGORITHMS
from fastpuzzle.board import Board
from fastpuzzle.cli.arguments import (
    INPUT_RULES,
    LAYOUTS,
    Subcommands,
    UsageError,
    add_board_input,
    add_weight,
    epilog,
    integer_arg,
    limits_option,
    out_file,
    shape_option,
    whole_arg,
)
from fastpuzzle.cli.boards import board_jobs
from fastpuzzle.compare import Comparison, ComparisonInterrupted, compare, methods
from fastpuzzle.formats import FORMATS, Job
from fastpuzzle.generate import random_board
from fastpuzzle.heuristics import heuristic_names

__all__ = ["TABLE_FORMATS", "FormatAction", "add_compare_parser"]

#: How ``compare`` writes its table on standard output (``--format``): aligned text, Markdown,
#: LaTeX, or CSV alone (what ``--csv -`` also asks for).
TABLE_FORMATS = ("table", "markdown", "latex", "csv")


def _cmd_compare(args: argparse.Namespace) -> int:
    if args.csv == "-" and args.table_format not in ("table", "csv"):
        raise UsageError(
            f"--csv - writes the CSV on standard output, so it takes no --format "
            f"{args.table_format}: write the CSV to a file, or drop one of them"
        )
    table_format = "csv" if args.csv == "-" else args.table_format
    if not args.plot and (args.log or args.metric != ["expanded"]):
        # Before: ignored without a word, and the user looked for the chart.
        given = "--log" if args.log else "--metric"
        raise UsageError(f"{given} applies to --plot's charts: pass --plot FILE too")
    if args.plot:  # before any search: a path that cannot take a chart fails now
        _check_plot_path(args.plot)
    if args.csv and args.csv != "-":
        out_file("--csv", args.csv)
    # Boards given are kept, and --random N adds N random boards after them (before: the
    # boards given were dropped without a word).
    jobs = board_jobs(args) if args.board or not args.random else []
    if args.random:
        shape = shape_option(args) or (jobs[0].board.shape if jobs else (3, 3))
        jobs += [
            Job(random_board(shape, rng=None if args.seed is None else args.seed + i))
            for i in range(args.random)
        ]
    algorithms, heuristics = args.algorithms.split(","), args.heuristics.split(",")
    named = methods(algorithms, heuristics)
    line = _CompareLine([job.board for job in jobs], named) if on_terminal() else None
    rows: list[Any] = []
    interrupted = False
    try:
        # One comparison for each run of boards that share a goal (--goal, or --format pair).
        for goal, group in itertools.groupby(jobs, key=lambda job: job.goal):
            boards = [job.board for job in group]
            try:
                table = compare(
                    boards,
                    algorithms,
                    heuristics=heuristics,
                    goal=goal,
                    limits=limits_option(args),
                    weight=args.weight,
                    seed=args.seed,
                    repeat=args.repeat,
                    progress=None if line is None else line.after(len(rows)),
                )
            except ComparisonInterrupted as stop:
                rows += stop.comparison.rows
                interrupted = True
                break
            rows += table.rows
    finally:
        if line is not None:
            line.close()
    table = Comparison(tuple(rows))
    sys.stdout.write(_table_text(table, table_format))
    sys.stdout.flush()
    if args.csv and args.csv != "-":
        table.to_csv(args.csv)
    if args.plot:
        import matplotlib  # the plot extra, loaded for --plot alone

        matplotlib.use("Agg")
        drawn = table.plot(metric=args.metric, log=args.log)
        # The figure lays itself out (constrained layout).
        drawn[0].figure.savefig(args.plot)
    if interrupted:
        print(
            f"fastpuzzle: interrupted after {len(rows) - 1} of "
            f"{len(jobs) * len(named)} searches; the rows above are those finished",
            file=sys.stderr,
        )
        return 130
    return 2 if getattr(args, "bad_lines", 0) else 0


def _check_plot_path(path: str) -> None:
    """``--plot PATH``, checked before the searches: matplotlib is there, it writes the format
    the name ends in, and the folder exists."""
    require("matplotlib", "--plot", "plot")
    from matplotlib.figure import Figure  # an optional extra, checked just above

    if os.path.isdir(path):
        raise UsageError(f"--plot: {path!r} is a folder, not a file")
    formats = Figure().canvas.get_supported_filetypes()
    ending = os.path.splitext(path)[1].lower().lstrip(".")
    if ending not in formats:
        raise UsageError(
            f"--plot: expected a file name ending in .{', .'.join(sorted(formats))}, got {path!r}"
        )
    out_file("--plot", path)


def _table_text(table: Any, table_format: str) -> str:
    """The table as ``compare --format`` asks for it, ending with a newline."""
    if table_format == "csv":
        text: str = table.to_csv()
        return text
    if table_format == "markdown":
        return f"{table.to_markdown()}\n"
    if table_format == "latex":
        return f"{table.to_latex()}\n"
    return f"{table.to_string()}\n"


class _CompareLine:
    """``compare``'s progress on a terminal: one line on stderr saying which search runs now
    (its number, method and board), rewritten as each ends, cleared at the end."""

    def __init__(self, boards: list[Board], methods: list[str]) -> None:
        self.boards = [board.to_string() for board in boards]
        self.methods = methods
        self.total = len(boards) * len(methods)
        self.started = time.monotonic()
        # Drawn as each search starts: no search is skipped for a throttle.
        self.line = LiveLine(0.0, terminal=True)
        self._show(0)

    def after(self, offset: int) -> Callable[[int, int], None]:
        """The ``progress`` of a comparison whose rows start at search ``offset``."""

        def progress(done: int, total: int) -> None:
            self._show(offset + done)

        return progress

    def _show(self, done: int) -> None:
        if done >= self.total:
            return
        board, method = divmod(done, len(self.methods))
        text = (
            f"compare: search {done + 1}/{self.total}, {self.methods[method]} on "
            f"{self.boards[board]} ({duration(time.monotonic() - self.started)} so far)"
        )
        self.line.show(text)

    def close(self) -> None:
        self.line.close()


def _metrics(text: str) -> list[str]:
    """``--metric``: one or more of :data:`METRICS`, comma-separated."""
    wanted = [name.strip() for name in text.split(",")]
    for name in wanted:
        if name not in METRICS:
            raise argparse.ArgumentTypeError(
                f"expected {', '.join(METRICS)} (or several, comma-separated), got "
                f"{shown(name, 40)}"
            )
    return wanted


class FormatAction(argparse.Action):
    """``compare --format``: how the boards are read (an input layout) or how the table is
    written (:data:`TABLE_FORMATS`). No name is both, so one option takes either, each once:
    the layout goes to ``format``, as for the other commands, the table's to ``table_format``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        where = "table_format" if values in TABLE_FORMATS else "format"
        given: set[str] = getattr(namespace, "_formats_given", set())
        if where in given:
            kind = "table format" if where == "table_format" else "input layout"
            parser.error(f"argument --format: a second {kind}, got {values!r}")
        namespace._formats_given = given | {where}
        setattr(namespace, where, values)


def add_compare_parser(sub: Subcommands) -> None:
    """The ``compare`` subcommand."""
    comp = sub.add_parser(
        "compare",
        help="tabulate several algorithms on several boards",
        epilog=epilog("compare", INPUT_RULES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # The same option also says how the table is written (no name is both).
    add_board_input(
        comp,
        formats=(*FORMATS, *TABLE_FORMATS),
        format_help=f"{LAYOUTS}; and/or how the table is written: table (aligned text, the "
        "default), markdown, latex, csv (only CSV on stdout); give it twice for both",
        format_action=FormatAction,
    )
    comp.set_defaults(table_format="table")
    comp.add_argument(
        "--algorithms",
        default="bfs,astar,idastar,greedy",
        help=f"comma-separated, among {', '.join(ALGORITHMS)} (default: %(default)s)",
    )
    comp.add_argument(
        "--heuristics",
        default="manhattan",
        help=f"comma-separated, among {', '.join(heuristic_names())} (default: %(default)s)",
    )
    comp.add_argument(
        "--random", type=whole_arg(0, MAX_LISTED), default=0, help="compare on N random boards"
    )
    comp.add_argument(
        "--seed",
        type=integer_arg,
        help="seed of the --random boards and of the random algorithm (default: fresh)",
    )
    add_weight(comp)
    comp.add_argument(
        "--repeat",
        type=whole_arg(1),
        default=1,
        help="runs of each search; its time is their median (and a search shorter than 20 ms "
        "runs again until its runs fill 20 ms) (default: %(default)s)",
    )
    comp.add_argument(
        "--csv",
        help="also write the table as CSV to this file ('-': only the CSV, on stdout, as "
        "--format csv)",
    )
    comp.add_argument(
        "--plot",
        help="also draw bar charts (linear scale, boards labelled B1, B2, ...) to this image file",
    )
    comp.add_argument(
        "--log",
        action="store_true",
        help="--plot on a log scale (for figures that span orders of magnitude)",
    )
    comp.add_argument(
        "--metric",
        type=_metrics,
        default=["expanded"],
        metavar="METRIC[,METRIC...]",
        help=f"what --plot draws, one chart each: {', '.join(METRICS)} (default: expanded)",
    )
    comp.set_defaults(run=_cmd_compare)
