"""``fastpuzzle study``: a depth study (:func:`fastpuzzle.depth_study`), printed as one table."""

from __future__ import annotations

import argparse
import sys
import time

from fastpuzzle._util.progress import LiveLine, on_terminal
from fastpuzzle._util.units import duration
from fastpuzzle.cli.arguments import (
    Subcommands,
    UsageError,
    epilog,
    out_file,
    seconds_arg,
    whole_arg,
)
from fastpuzzle.cli.compare import TABLE_FORMATS, _check_plot_path, _table_text
from fastpuzzle.limits import Limits
from fastpuzzle.study import DEFAULT_METHODS, depth_study

__all__ = ["add_study_parser", "depths_arg", "shape_arg"]


def shape_arg(text: str) -> tuple[int, int]:
    """``--shape 3x3`` (or ``3,3``): rows then columns."""
    parts = text.lower().replace(",", "x").split("x")
    try:
        rows, cols = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROWSxCOLS such as 3x3, got {text!r}") from None
    return rows, cols


def depths_arg(text: str) -> list[int]:
    """``--depths``: ``FIRST:LAST[:STEP]`` (both ends included: ``2:24:2`` is 2, 4, ..., 24)
    or a comma-separated list."""
    try:
        if ":" in text:
            parts = [int(part) for part in text.split(":")]
            if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] < 1):
                raise ValueError
            first, last, step = parts if len(parts) == 3 else (*parts, 1)
            depths = list(range(first, last + 1, step))
        else:
            depths = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected FIRST:LAST[:STEP] (a positive step) or depths separated by commas, such "
            f"as 2:24:2 or 2,4,8, got {text!r}"
        ) from None
    if not depths or min(depths) < 0:
        raise argparse.ArgumentTypeError(f"expected depths of 0 or more, got {text!r}")
    return depths


def _cmd_study(args: argparse.Namespace) -> int:
    if args.plot:
        _check_plot_path(args.plot)
    if args.csv:
        out_file("--csv", args.csv)
    methods = [name.strip() for name in args.methods.split(",") if name.strip()]
    if not methods:
        raise UsageError("--methods: expected at least one method, such as bfs,astar+manhattan")
    given = {"seconds": args.time_limit, "nodes": args.node_limit}
    limits = None if all(v is None for v in given.values()) else Limits(**given)
    line = LiveLine(terminal=True) if on_terminal() else None
    started = time.monotonic()

    def progress(done: int, total: int) -> None:
        if line is not None and done < total:
            line.show(
                f"study: search {done + 1:,}/{total:,} "
                f"({duration(time.monotonic() - started)} so far)"
            )

    try:
        study = depth_study(
            args.shape,
            args.depths,
            per_depth=args.per_depth,
            methods=methods,
            limits=limits,
            rng=args.seed,
            progress=progress,
        )
    finally:
        if line is not None:
            line.close()
    sys.stdout.write(_table_text(study, args.table_format))
    sys.stdout.flush()
    if args.csv:
        study.to_csv(args.csv)
    if args.plot:
        import matplotlib  # the plot extra, loaded for --plot alone

        matplotlib.use("Agg")
        drawn = study.plot()
        drawn[0].figure.savefig(args.plot)
    return 0


def add_study_parser(sub: Subcommands) -> None:
    """The ``study`` subcommand."""
    cmd = sub.add_parser(
        "study",
        help="nodes, time, memory and branching factor by exact solution depth",
        description="Each method on --per-depth boards at each exact optimal depth: mean, "
        "median and deviation of nodes expanded and generated, time, memory, and the effective "
        "branching factor b* (ebf), laid out as Russell and Norvig's table.",
        epilog=epilog("study"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("--shape", type=shape_arg, default=(3, 3), help="ROWSxCOLS (default: 3x3)")
    cmd.add_argument(
        "--depths",
        type=depths_arg,
        default=list(range(2, 25, 2)),
        help="FIRST:LAST[:STEP], both ends included, or a comma-separated list (default: 2:24:2)",
    )
    cmd.add_argument(
        "--per-depth",
        type=whole_arg(1, 1_000_000),
        default=100,
        help="boards a depth (default: %(default)s)",
    )
    cmd.add_argument(
        "--methods",
        default=",".join(DEFAULT_METHODS),
        help="comma-separated, as compare names them (default: %(default)s)",
    )
    cmd.add_argument("--seed", type=whole_arg(0), help="seed of the boards (default: fresh)")
    cmd.add_argument(
        "--format",
        dest="table_format",
        default="table",
        choices=TABLE_FORMATS,
        help="how the table is written (default: table)",
    )
    cmd.add_argument("--csv", help="also write every statistic as CSV to this file")
    cmd.add_argument(
        "--plot", help="also draw nodes generated (log scale) and b* against depth to this image"
    )
    cmd.add_argument("--time-limit", type=seconds_arg(zero=False), help="seconds per search")
    cmd.add_argument("--node-limit", type=whole_arg(1), help="expansions per search")
    cmd.set_defaults(run=_cmd_study)
