"""The tables a batch's boards share, fetched once before the boards.

A batch of 4x4 boards (or of another shape whose pattern database the solver builds on first
use) searches every board with the same table. Left to the boards, the first one built it
within its own time limit and threw it away at that limit, and so did the next: five hard 4x4
boards with ``--time-limit 3`` on a fresh cache built 6-6-3 five times over and gave no row.
So the batch builds (or reads) that table once, before its boards, with no time limit: the
build is announced by a :class:`~fastpuzzle.errors.FastPuzzleWarning` and timed apart (the
``fastpuzzle`` logger's lines say when it is ready), and each board's time limit is then the
search's alone, as it is once the table is in the cache.

Which table: the one the batch's method reads on the batch's shape (``shape=``, the packed
words', or the first board's), as the solver picks it: ``auto``'s pattern database, or the
``pdb`` heuristic named. Nothing is fetched for fast solutions, for other heuristics, or for
tables no search builds (those stay as they were: read where built, else each row says what
to build).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from typing import Any

from fastpuzzle._problem import make_problem
from fastpuzzle._solver import heuristic_tables, idastar, policy
from fastpuzzle._solver.request import Request
from fastpuzzle.algorithms import is_auto, resolve_algorithm
from fastpuzzle.batch.chunk import BatchSpec
from fastpuzzle.board import MAX_CELLS, Board, Shape
from fastpuzzle.errors import FastPuzzleError, FastPuzzleWarning
from fastpuzzle.heuristics import resolve_heuristic
from fastpuzzle.limits import Limits
from fastpuzzle.pdb.database import PatternDatabaseError
from fastpuzzle.pdb.store import pdb_path

__all__ = ["fetch_shared_tables"]


def _shape(rows: Sequence[Any], spec: BatchSpec) -> Shape | None:
    """The batch's shape: given, or the first row's (None where it is no board)."""
    if spec.shape is not None:
        return spec.shape
    if not len(rows):
        return None
    try:
        return Board(rows[0]).shape
    except FastPuzzleError:
        return None


def _request(rows: Sequence[Any], spec: BatchSpec) -> Request | None:
    """A search request of the batch's method on its shape whose tables are a pattern
    database, or None where the batch reads none."""
    shape = _shape(rows, spec)
    if not spec.optimal or shape is None or shape[0] * shape[1] > MAX_CELLS:
        return None
    try:
        goal = Board.goal(shape) if spec.goal is None else Board(spec.goal, shape=shape)
        if is_auto(spec.heuristic):
            if not is_auto(spec.algorithm):
                return None
            heuristic = policy.auto_choice(shape, goal.blank).heuristic
        elif is_auto(spec.algorithm) or resolve_algorithm(spec.algorithm).name == "idastar":
            heuristic = resolve_heuristic(spec.heuristic).name
        else:
            return None
        problem = make_problem(goal, goal)
    except FastPuzzleError:
        return None  # each row says what is wrong
    request = Request(problem, heuristic, Limits())
    entry = request.entry
    if entry.tables != "pdb" or entry.compound is not None:
        return None
    return request


def fetch_shared_tables(rows: Sequence[Any], spec: BatchSpec) -> float | None:
    """Build or read the pattern database (and pruning machine) the batch's boards search
    with, once, before them: the seconds it took, or None where they read none.

    A table that is neither in the cache nor built on first use, or that the cache cannot
    take, is left alone: each row says why, as a search does.
    """
    request = _request(rows, spec)
    if request is None:
        return None
    entry = request.entry
    shape = (request.problem.rows, request.problem.cols)
    blank = request.problem.goal_blank
    if heuristic_tables.not_ready(entry, shape, blank) is not None:
        return None  # not built by a search either: each row says how to build it
    if entry.partition is None:
        on_disk = heuristic_tables.built_database(request) is not None
    else:
        on_disk = pdb_path(entry.partition, shape, blank).is_file()
    if not on_disk:
        rows_count = f"{len(rows):,} board{'s' * (len(rows) != 1)}"
        warnings.warn(
            f"building the pattern database of {shape[0]}x{shape[1]} boards (goal blank "
            f"{blank}) once, before the batch's {rows_count}: each board's search reads it, "
            "and its time is not counted in their time limits (it is kept in the cache)",
            FastPuzzleWarning,
            stacklevel=4,  # solve_many's caller: here, _Run.solve, solve_many
        )
    started = time.monotonic()
    try:
        idastar.prepare(request)  # the table and the pruning machine
    except PatternDatabaseError:
        return None  # a cache that takes no table: each row says so, as it did
    return time.monotonic() - started
