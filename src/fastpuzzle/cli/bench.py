"""``fastpuzzle bench``: a quick benchmark."""

from __future__ import annotations

import argparse

from fastpuzzle.cli import quickbench
from fastpuzzle.cli.arguments import Subcommands, epilog

__all__ = ["add_bench_parser"]


def _cmd_bench(args: argparse.Namespace) -> int:
    print(quickbench.format_rows(quickbench.run(quick=args.quick)))
    return 0


def add_bench_parser(sub: Subcommands) -> None:
    """The ``bench`` subcommand."""
    bench = sub.add_parser(
        "bench",
        help="a quick benchmark: nodes per second and times",
        epilog=epilog("bench"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("--quick", action="store_true", help="fewer boards")
    bench.set_defaults(run=_cmd_bench)
