"""fastpuzzle: sliding-tile puzzles solved optimally, with a Cython core.

Moves are U, D, L, R: the direction the **blank** moves.

>>> import fastpuzzle as fp
>>> board = fp.Board("1 2 3/4 5 6/7 _ 8")
>>> board.is_solvable()
True
>>> board.apply("R") == fp.Board.goal((3, 3))
True
"""

from fastpuzzle._version import __version__
from fastpuzzle.algorithms import ALGORITHMS
from fastpuzzle.batch import BatchInterrupted, BatchResult, solve_many
from fastpuzzle.board import MAX_CELLS, MAX_SIDE, Board, BoardLike, Shape, is_solvable
from fastpuzzle.compare import Comparison, compare
from fastpuzzle.datasets import (
    Labelled,
    all_boards,
    labelled,
    random_boards,
    space_size,
    split_mask,
    write_labelled,
)
from fastpuzzle.errors import (
    BatchFileError,
    BatchInUseError,
    BoardTooLargeError,
    DepthLimitError,
    DistanceNotFoundError,
    FastPuzzleError,
    IllegalMoveError,
    InternalError,
    InvalidBoardError,
    InvalidLimitsError,
    InvalidMoveError,
    InvalidOptionError,
    MemoryLimitError,
    NodeLimitError,
    OutOfMemoryError,
    SearchLimitError,
    ThreadStartError,
    TimeLimitError,
    UnknownNameError,
    UnsolvableError,
)
from fastpuzzle.generate import random_board, scramble
from fastpuzzle.heuristic_check import HeuristicCheck, check_heuristic
from fastpuzzle.heuristics import HEURISTICS, euclidean, linear_conflict, manhattan, misplaced
from fastpuzzle.hints import hint
from fastpuzzle.limits import Limits
from fastpuzzle.moves import MOVES, inverse, parse_moves, to_tile_directions
from fastpuzzle.pdb import build_pdb, pdb_cache_dir
from fastpuzzle.results import SearchResult, SearchStats, Solution, Status
from fastpuzzle.solvability import Solvability, explain_solvability
from fastpuzzle.solve import search, solve
from fastpuzzle.study import DepthRow, DepthStudy, depth_study

__all__ = [
    "ALGORITHMS",
    "HEURISTICS",
    "MAX_CELLS",
    "MAX_SIDE",
    "MOVES",
    "BatchFileError",
    "BatchInUseError",
    "BatchInterrupted",
    "BatchResult",
    "Board",
    "BoardLike",
    "BoardTooLargeError",
    "Comparison",
    "DepthLimitError",
    "DepthRow",
    "DepthStudy",
    "DistanceNotFoundError",
    "FastPuzzleError",
    "HeuristicCheck",
    "IllegalMoveError",
    "InternalError",
    "InvalidBoardError",
    "InvalidLimitsError",
    "InvalidMoveError",
    "InvalidOptionError",
    "Labelled",
    "Limits",
    "MemoryLimitError",
    "NodeLimitError",
    "OutOfMemoryError",
    "SearchLimitError",
    "SearchResult",
    "SearchStats",
    "Shape",
    "Solution",
    "Solvability",
    "Status",
    "ThreadStartError",
    "TimeLimitError",
    "UnknownNameError",
    "UnsolvableError",
    "__version__",
    "all_boards",
    "build_pdb",
    "check_heuristic",
    "compare",
    "depth_study",
    "euclidean",
    "explain_solvability",
    "hint",
    "inverse",
    "is_solvable",
    "labelled",
    "linear_conflict",
    "manhattan",
    "misplaced",
    "parse_moves",
    "pdb_cache_dir",
    "random_board",
    "random_boards",
    "scramble",
    "search",
    "solve",
    "solve_many",
    "space_size",
    "split_mask",
    "to_tile_directions",
    "write_labelled",
]
