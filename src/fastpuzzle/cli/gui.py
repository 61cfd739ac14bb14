"""``fastpuzzle gui``: the puzzle page."""

from __future__ import annotations

import argparse

from fastpuzzle.cli.arguments import Subcommands, epilog, whole_arg
from fastpuzzle.gui import serve

__all__ = ["add_gui_parser"]


def _cmd_gui(args: argparse.Namespace) -> int:
    serve(args.host, args.port, open_browser=not args.no_browser)
    return 0


def add_gui_parser(sub: Subcommands) -> None:
    """The ``gui`` subcommand."""
    gui = sub.add_parser(
        "gui",
        help="the puzzle page: enter, shuffle, solve and compare in the browser",
        epilog=epilog("gui"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gui.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: this machine only; beyond it, a warning, and every "
        "request needs the page's token, which the printed address carries)",
    )
    gui.add_argument(
        "--port",
        type=whole_arg(1, 65535),
        default=0,
        help="port, 1 to 65535 (default: any free one)",
    )
    gui.add_argument(
        "--no-browser", action="store_true", help="print the address without opening it"
    )
    gui.set_defaults(run=_cmd_gui)
