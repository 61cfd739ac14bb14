"""``fastpuzzle random`` and ``fastpuzzle scramble``: boards to solve, printed one a line (one
module: the two commands take the same options but one).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from fastpuzzle.board import Board
from fastpuzzle.cli.arguments import Subcommands, epilog, integer_arg, shape_option, whole_arg
from fastpuzzle.generate import MAX_SCRAMBLE, random_board, scramble

__all__ = ["add_generate_parsers"]


def _cmd_random(args: argparse.Namespace) -> int:
    import numpy as np

    shape = shape_option(args) or (4, 4)
    # One stream of random numbers from the seed: the boards of random_boards(N, rng=S) (up to
    # 16 cells), drawn and printed in blocks. Before, board k was random_board(rng=S + k).
    generator = np.random.default_rng(args.seed)
    if shape[0] * shape[1] > 16:
        for _ in range(args.count):
            print(random_board(shape, rng=generator).to_string())
        return 0
    from fastpuzzle.datasets import random_boards

    for first in range(0, args.count, _RANDOM_BLOCK):
        words = random_boards(min(_RANDOM_BLOCK, args.count - first), shape, rng=generator)
        sys.stdout.write(
            "".join(f"{Board.from_packed(int(w), shape).to_string()}\n" for w in words.tolist())
        )
    return 0


#: Boards ``fastpuzzle random`` draws and prints at a time.
_RANDOM_BLOCK = 1 << 14


def _cmd_scramble(args: argparse.Namespace) -> int:
    start = Board.goal(shape_option(args) or (4, 4))
    # One stream of random numbers from the seed, as `random` draws its boards (before: board
    # k was scramble(rng=S + k), so the two commands' --seed meant different things).
    generator = np.random.default_rng(args.seed)
    for _ in range(args.count):
        print(scramble(start, args.moves, rng=generator).to_string())
    return 0


def add_generate_parsers(sub: Subcommands) -> None:
    """The ``random`` and ``scramble`` subcommands."""
    for name, helptext in (
        ("random", "uniformly random solvable boards"),
        ("scramble", "random walks from the goal"),
    ):
        cmd = sub.add_parser(
            name,
            help=helptext,
            epilog=epilog(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        cmd.add_argument(
            "--shape", nargs=2, type=integer_arg, metavar=("ROWS", "COLS"), help="default: 4 4"
        )
        cmd.add_argument(
            "--count", type=whole_arg(0), default=1, help="how many boards (default: 1)"
        )
        cmd.add_argument(
            "--seed",
            type=whole_arg(0),
            help="seed of the boards: one stream of random numbers drawn from it, the same "
            "seed the same boards; "
            + (
                "those of fastpuzzle.random_boards(COUNT, rng=SEED) up to 16 cells"
                if name == "random"
                else "those of fastpuzzle.scramble(goal, MOVES, rng=numpy.random."
                "default_rng(SEED)) in turn"
            )
            + " (default: fresh)",
        )
        if name == "scramble":
            cmd.add_argument(
                "--moves",
                type=whole_arg(0, MAX_SCRAMBLE),
                default=50,
                help="random moves from the goal (default: 50)",
            )
        cmd.set_defaults(run=_cmd_random if name == "random" else _cmd_scramble)
