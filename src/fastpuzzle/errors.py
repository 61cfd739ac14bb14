"""The exception hierarchy of fastpuzzle.

Every error raised on purpose derives from :class:`FastPuzzleError`; errors about bad input also
derive from :class:`ValueError`, so ``except ValueError`` keeps working for callers that do not
know this library.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # This module is below board.py, which imports it; fastpuzzle.board puts Board here once
    # it is defined, so that typing.get_type_hints(UnsolvableError.__init__) resolves it.
    from fastpuzzle.board import Board

__all__ = [
    "BatchFileError",
    "BatchInUseError",
    "BoardTooLargeError",
    "DepthLimitError",
    "DistanceNotFoundError",
    "FastPuzzleError",
    "FastPuzzleWarning",
    "IllegalMoveError",
    "InternalError",
    "InvalidBoardError",
    "InvalidLimitsError",
    "InvalidMoveError",
    "InvalidOptionError",
    "MemoryLimitError",
    "NodeLimitError",
    "OutOfMemoryError",
    "SearchLimitError",
    "ThreadStartError",
    "TimeLimitError",
    "UnknownNameError",
    "UnsolvableError",
]


class FastPuzzleError(Exception):
    """Base class of every error fastpuzzle raises on purpose."""


class FastPuzzleWarning(UserWarning):
    """What fastpuzzle says through :mod:`warnings` where it has news but no error: a table it
    builds on first use, say. The command line shows each as a ``fastpuzzle:`` line on stderr."""


class InvalidBoardError(FastPuzzleError, ValueError):
    """The input does not describe a board: wrong size, missing or duplicate tiles, non-integers."""


class BoardTooLargeError(InvalidBoardError):
    """A board is too large for what was asked of it.

    Raised for the packed (one 64-bit word, 4 bits per cell) form of a board of more than 16
    cells: :attr:`Board.packed <fastpuzzle.Board.packed>` and :meth:`Board.from_packed
    <fastpuzzle.Board.from_packed>`. Boards of up to 100x100 cells are otherwise valid. It is an
    :class:`InvalidBoardError` (and so a ``ValueError``).
    """


class InvalidMoveError(FastPuzzleError, ValueError):
    """A move is not one of U, D, L, R (the direction the blank moves)."""


class InvalidOptionError(FastPuzzleError, ValueError):
    """An option of a call is not valid (for example a progress callback that cannot be
    called)."""


class IllegalMoveError(FastPuzzleError, ValueError):
    """A move would take the blank off the board."""


class UnsolvableError(FastPuzzleError, ValueError):
    """The goal cannot be reached from the board (the parities of their permutation and of
    the blank's distance differ).

    The pair that was asked for is kept in the ``board`` and ``goal`` attributes, and why in
    ``explanation`` (a :class:`~fastpuzzle.solvability.Solvability`, as
    :func:`~fastpuzzle.explain_solvability` gives it), which the message quotes: the inversion
    count, the blank's row where the width makes it matter, the rule, and two tiles to swap.
    """

    def __init__(self, board: Board, goal: Board) -> None:
        # Imported here: solvability.py imports board.py, which imports this module.
        from fastpuzzle.solvability import explain_solvability

        self.board = board
        self.goal = goal
        self.explanation = explain_solvability(board, goal)
        super().__init__(
            f"this puzzle is not solvable: {board.to_string()!r} cannot reach "
            f"{goal.to_string()!r}: {self.explanation}"
        )

    def __reduce__(self) -> tuple[type[UnsolvableError], tuple[Board, Board]]:
        # Pickled by its pair, as a process pool or a Dask worker sends it back: the default
        # would call __init__ with the message alone.
        return type(self), (self.board, self.goal)


class InvalidLimitsError(FastPuzzleError, ValueError, TypeError):
    """A :class:`~fastpuzzle.Limits` value is of the wrong type or out of range, or ``limits`` is
    not a :class:`~fastpuzzle.Limits`; the message names the field and what it accepts.

    It is a ``ValueError`` like every bad-input error here, and a ``TypeError`` because a limit of
    the wrong type raised ``TypeError`` before this class existed.
    """


class SearchLimitError(FastPuzzleError):
    """A search stopped at a limit before finding a solution.

    The ``stats`` attribute (a :class:`~fastpuzzle.SearchStats`) says what the search had done.
    """

    def __init__(self, message: str, stats: Any) -> None:
        self.stats = stats
        super().__init__(message)


class TimeLimitError(SearchLimitError):
    """The search ran out of its time limit."""


class NodeLimitError(SearchLimitError):
    """The search expanded as many nodes as its limit allowed."""


class MemoryLimitError(SearchLimitError):
    """The search's tables reached their memory limit."""


class DepthLimitError(SearchLimitError):
    """A depth-bounded search found no solution within its depth limit."""


class DistanceNotFoundError(FastPuzzleError, RuntimeError):
    """No board at the optimal distance asked for was found within the tries allowed
    (:func:`~fastpuzzle.random_board` with ``distance=`` on boards past 9 cells, which draws
    scrambles and solves them until one is that far)."""


class ThreadStartError(FastPuzzleError, RuntimeError):
    """The system would not start a thread that a search asked for (``workers=``): a limit on
    threads or memory binds (``ulimit -u``, a container's ``pids.max``, ``ulimit -v``). The
    threads that had started are stopped before it is raised; fewer workers may fit.

    It is a ``RuntimeError``, as Python's own ``can't start new thread`` is.
    """


class OutOfMemoryError(FastPuzzleError, MemoryError):
    """The system would not give the memory a call needs at once (``n`` boards of
    :func:`~fastpuzzle.random_boards`: 8 bytes each); the message says how much was asked for.

    It is a ``MemoryError``, as numpy's own refusal is; a smaller call may fit.
    """


class InternalError(FastPuzzleError, RuntimeError):
    """fastpuzzle reached a result that a correct program never reaches: a defect, raised
    rather than given as an answer.

    Raised when a complete search (IDA*, A*, BFS...) of a board that can reach its goal ends
    with every path tried and no solution (``"exhausted"``): a bug, or a damaged or crafted
    cache file that got past the checks (``fastpuzzle pdb clear --all`` removes the cached
    tables and pruning machines, which are then rebuilt). A batch stops on it rather than
    marking the row. It is a ``RuntimeError``; please report it with the call that raised it.
    """


class UnknownNameError(FastPuzzleError, ValueError):
    """An algorithm or heuristic name is not known; the message lists the valid ones."""


class BatchFileError(FastPuzzleError, ValueError):
    """A file under :func:`~fastpuzzle.solve_many`'s ``out=`` directory cannot be used.

    Raised when resuming into a directory whose manifest or chunks were written for another
    batch, or whose manifest is damaged or not a regular file; when a directory is where a chunk
    or check file goes; and when a chunk file changed after it was written. The file is named in
    the message and kept in the ``path`` attribute.
    """

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = Path(path)
        super().__init__(f"{self.path}: {message}")


class BatchInUseError(BatchFileError):
    """Another batch (another process, or another thread of this one) is writing into the same
    :func:`~fastpuzzle.solve_many` ``out=`` directory; ``path`` is the directory.

    Two batches writing one directory would overwrite each other's chunks. The directory's lock
    file is held while a batch writes there, and released when it ends, however it ends (the
    system releases it when the process dies, even by ``kill -9``): try again then, or choose
    another ``out=``.
    """
