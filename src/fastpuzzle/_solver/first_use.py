"""The anytime solver's pattern database, built on first use when the time limit allows it.

Past 16 cells the anytime searches read the shape's tables (:class:`anytime.Tables
<fastpuzzle._solver.anytime.Tables>`; 5x5: 6-6-6-6, 6x6: 5-5-5-5-5-5-5) where they are on disk.
A solve whose time limit is long beside the build (its estimate from the build plan, as ``fastpuzzle
pdb build NAME --dry-run`` prints it, at most :data:`BUILD_SHARE` of the limit) builds them first,
announced on the library's logger with their size and estimated time, and searches on them for
the rest of its limit: the build counts against the limit and stops by :data:`DEADLINE_SHARE` of
it, leaving nothing written. Every later solve of the shape reads the file. Under a node limit
alone nothing is built (a build's time is not bounded by nodes), nor where the build's memory
passes ``Limits(memory_bytes=)`` or half the memory available.
"""

from __future__ import annotations

import logging
import time

from fastpuzzle._problem import Problem
from fastpuzzle._solver import hybrid, policy
from fastpuzzle._util.units import size
from fastpuzzle.board import MAX_CELLS
from fastpuzzle.pdb.database import PatternDatabaseError
from fastpuzzle.pdb.partitions import resolve
from fastpuzzle.pdb.plan import FilePlan, plan_tables, usable_cores
from fastpuzzle.pdb.store import load_or_build, pdb_path

_log = logging.getLogger(__name__)

__all__ = ["BUILD_SHARE", "DEADLINE_SHARE", "build_for_anytime", "estimated_build"]

#: The tables are built when their estimated build takes at most this share of the time limit
#: (5x5's 6-6-6-6, about 2 minutes on two cores: a limit of 6 minutes or more).
BUILD_SHARE = 1 / 3

#: A build not over by this share of the time limit stops (nothing written): the rest of the
#: limit searches on linear conflict.
DEADLINE_SHARE = 2 / 3

#: The most of the memory available now that a build may take.
MEMORY_FRACTION = 0.5


def estimated_build(problem: Problem, table_cells: int) -> FilePlan | None:
    """The plan of the tables the anytime searches on ``problem``'s shape read, when they are
    not on disk; None when they are, or the shape has none (past ``table_cells`` cells)."""
    rows, cols = problem.rows, problem.cols
    if not MAX_CELLS < rows * cols <= table_cells:
        return None
    partition = policy.tables_of((rows, cols), problem.goal_blank).read[0]
    try:
        # A file there, good or damaged, is never built here (a damaged one is passed over):
        # the plan checks a file whole (6x6's 158 MB: about a second), its name only a stat.
        if pdb_path(partition, (rows, cols), problem.goal_blank).is_file():
            return None
        tables = plan_tables(partition, (rows, cols), problem.goal_blank).files[0]
    except PatternDatabaseError:
        return None  # the shape's default groups cannot be built
    return None if tables.built else tables


def build_for_anytime(
    problem: Problem,
    *,
    started: float,
    seconds: float,
    memory_bytes: int | None,
    table_cells: int,
) -> bool:
    """Build the shape's tables for the anytime searches if the limit allows it (see the
    module's text); True when a build ran and wrote them.

    Parameters
    ----------
    problem : Problem
        The board and goal.
    started : float
        When the solve started (:func:`time.monotonic`); ``seconds`` counts from it.
    seconds : float
        The solve's time limit.
    memory_bytes : int or None
        The solve's memory limit.
    table_cells : int
        The largest board whose tables the anytime searches read.
    """
    plan = estimated_build(problem, table_cells)
    if plan is None:
        return False
    estimate = plan.seconds_on_two * 2 / usable_cores()
    left = started + seconds - time.monotonic()
    if estimate > BUILD_SHARE * left:
        return False
    room = hybrid.available_memory()
    if (memory_bytes is not None and plan.build_bytes > memory_bytes) or (
        room is not None and plan.build_bytes > room * MEMORY_FRACTION
    ):
        return False
    _log.info(
        "building the pattern database %s for %dx%d boards (%s on disk, %s of memory, about "
        "%.0f s) for the anytime searches: within the time limit, once (later solves read it)",
        plan.name,
        problem.rows,
        problem.cols,
        size(plan.bytes),
        size(plan.build_bytes),
        estimate,
    )
    resolved = resolve(
        policy.tables_of((problem.rows, problem.cols), problem.goal_blank).read[0],
        (problem.rows, problem.cols),
        problem.goal_blank,
    )
    try:
        load_or_build(resolved, build=True, deadline=started + DEADLINE_SHARE * seconds)
    except (PatternDatabaseError, OSError, MemoryError) as error:
        # BuildTimeLimitError among them: the searches go on without the tables.
        _log.warning("the anytime solver goes on without its tables: %s", error)
        return False
    return True
