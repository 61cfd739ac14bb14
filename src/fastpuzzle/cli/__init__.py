"""The ``fastpuzzle`` command (also ``python -m fastpuzzle``).

Moves are printed as U, D, L, R: the direction the blank moves. One module a subcommand, each
with its own parser: :mod:`~fastpuzzle.cli.solve`, :mod:`~fastpuzzle.cli.compare`,
:mod:`~fastpuzzle.cli.batch`, :mod:`~fastpuzzle.cli.gui`, :mod:`~fastpuzzle.cli.bench`,
:mod:`~fastpuzzle.cli.generate` (``random`` and ``scramble``) and :mod:`~fastpuzzle.cli.pdb`;
what they share is in :mod:`~fastpuzzle.cli.arguments` (argument types, the reading options,
the help's epilogs) and :mod:`~fastpuzzle.cli.boards` (boards from arguments, files and
standard input); :mod:`~fastpuzzle.cli.command` puts the parser together and runs it.
"""

from fastpuzzle.cli.command import build_parser, main

__all__ = ["build_parser", "main"]
