"""The ``fastpuzzle`` command (also ``python -m fastpuzzle``).

Moves are printed as U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from fastpuzzle.board import Board
from fastpuzzle.errors import FastPuzzleError
from fastpuzzle.generate import random_board, scramble
from fastpuzzle.heuristics import linear_conflict, manhattan

__all__ = ["main"]


def _board_from(args: argparse.Namespace) -> Board:
    text = " ".join(args.board) if args.board else sys.stdin.read()
    shape = tuple(args.shape) if args.shape else None
    return Board(text, shape=shape)  # type: ignore[arg-type]


def _cmd_solve(args: argparse.Namespace) -> int:
    board = _board_from(args)
    goal = Board(args.goal, shape=board.shape) if args.goal else Board.goal(board.shape)
    print(board)
    if not board.is_solvable(goal):
        print("This puzzle is not solvable.")
        return 1
    print(
        f"solvable; manhattan {manhattan(board, goal)}, linear conflict "
        f"{linear_conflict(board, goal)}"
    )
    return 0


def _cmd_random(args: argparse.Namespace) -> int:
    for index in range(args.count):
        seed = None if args.seed is None else args.seed + index
        print(random_board(tuple(args.shape), rng=seed).to_string())  # type: ignore[arg-type]
    return 0


def _cmd_scramble(args: argparse.Namespace) -> int:
    start = Board.goal(tuple(args.shape))  # type: ignore[arg-type]
    for index in range(args.count):
        seed = None if args.seed is None else args.seed + index
        print(scramble(start, args.moves, rng=seed).to_string())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``fastpuzzle`` command."""
    parser = argparse.ArgumentParser(prog="fastpuzzle", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="solve a board given as arguments or on stdin")
    solve.add_argument("board", nargs="*", help="tiles, rows split by '/', 0 or _ = blank")
    solve.add_argument("--goal", help="goal board (default: 1..n-1 then the blank)")
    solve.add_argument("--shape", nargs=2, type=int, metavar=("ROWS", "COLS"))
    solve.set_defaults(run=_cmd_solve)

    for name, helptext in (
        ("random", "uniformly random solvable boards"),
        ("scramble", "random walks from the goal"),
    ):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("--shape", nargs=2, type=int, default=[4, 4], metavar=("ROWS", "COLS"))
        cmd.add_argument("--count", type=int, default=1)
        cmd.add_argument("--seed", type=int)
        if name == "scramble":
            cmd.add_argument("--moves", type=int, default=50)
        cmd.set_defaults(run=_cmd_random if name == "random" else _cmd_scramble)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except FastPuzzleError as error:
        print(f"fastpuzzle: error: {error}", file=sys.stderr)
        return 2
