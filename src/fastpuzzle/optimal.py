"""The optimal workhorse: IDA* with the strongest heuristic available, and the 3x3 exact table.

Heuristics IDA* takes here (all admissible, so solutions are shortest):

``misplaced``, ``manhattan``, ``linear_conflict``
    As everywhere in fastpuzzle; updated incrementally per move.
``walking_distance``
    Ken'ichiro Takahashi's walking distance: exact distances of the "which goal row is each tile
    in" (and column) abstraction, any shape up to 16 cells whose tables stay small.
``pdb``
    The best additive pattern database for the shape: on 4x4 the 7-8 partition when it has been
    built (``fastpuzzle pdb build 7-8``), else 6-6-3, built on first use; elsewhere a partition
    into groups of up to 6 tiles. Reflected about the main diagonal when the goal allows.
``pdb555``, ``pdb663``, ``pdb78``
    One 4x4 partition explicitly (``pdb78`` must be built beforehand).
``pdb6666``
    The 5x5 partition, for boards past 16 cells (run by :mod:`fastpuzzle.large`).
``table``
    Only on 3x3: the exact distance of every board (built in memory on first use).

Moves are U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

from collections.abc import Callable

from fastpuzzle import _idastar, pdb
from fastpuzzle.errors import UnknownNameError
from fastpuzzle.heuristics import BY_NAME, CATALOGUE
from fastpuzzle.limits import Limits
from fastpuzzle.problem import Problem
from fastpuzzle.results import CoreResult

__all__ = ["HEURISTICS", "auto_heuristic", "run_auto", "run_idastar"]

CoreProgress = Callable[[int, int, float, int], None]

#: Heuristic names :func:`run_idastar` accepts (boards of up to 16 cells).
HEURISTICS = tuple(h.name for h in CATALOGUE if "packed" in h.idastar)


def run_idastar(
    problem: Problem,
    heuristic: str,
    limits: Limits,
    progress: CoreProgress | None = None,
) -> CoreResult:
    """Run IDA* with ``heuristic`` (one of :data:`HEURISTICS`) on a validated problem.

    Parameters
    ----------
    problem : Problem
        From :func:`fastpuzzle.problem.make_problem`.
    heuristic : str
        Canonical heuristic name.
    limits : Limits
        ``nodes`` (expansions), ``seconds`` and ``max_depth`` are honoured; IDA* stores no nodes,
        so ``memory_bytes`` never binds.
    progress : callable, optional
        Core-level ``progress(expanded, generated, seconds, depth)``.

    Returns
    -------
    CoreResult
        The compiled driver's result tuple.
    """
    entry = BY_NAME.get(heuristic)
    if entry is None or "packed" not in entry.idastar:
        raise UnknownNameError(
            f"unknown heuristic {heuristic!r} for idastar; expected one of {', '.join(HEURISTICS)}"
        )
    walking = groups = reflect = None
    if entry.tables == "walking":
        walking = pdb.walking_tables(problem)
    elif entry.tables is not None:
        database = pdb.database_for(problem, entry.name)
        groups, reflect = database.groups, database.reflect
    return _idastar.idastar(
        problem.packed,
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        entry.code,
        node_limit=int(limits.nodes or 0),
        seconds=float(limits.seconds or 0.0),
        max_depth=-1 if limits.max_depth is None else int(limits.max_depth),
        progress=progress,
        groups=groups,
        reflect=reflect,
        walking=walking,
    )


def auto_heuristic(problem: Problem) -> tuple[str, str]:
    """The ``(algorithm, heuristic)`` :func:`run_auto` uses for this problem's shape."""
    shape = (problem.rows, problem.cols)
    if shape == (3, 3):
        return "table", "table"
    if shape == (4, 4):
        return "idastar", "pdb"
    if problem.rows <= 4 and problem.cols <= 4:
        # Walking-distance tables of lines up to 4 long build in a blink and beat linear conflict
        # there (3x4: fewer nodes, ~2x faster); longer lines make them slow to build or too big.
        return "idastar", "walking_distance"
    return "idastar", "linear_conflict"


def run_auto(
    problem: Problem, limits: Limits, progress: CoreProgress | None = None
) -> tuple[CoreResult, str, str]:
    """The default optimal solver: ``(core result, algorithm name, heuristic name)``.

    3x3 walks down an exact distance table; 4x4 runs IDA* on the best pattern databases on disk
    (building 6-6-3 on first use); other shapes run IDA* with walking distance when both sides
    are at most 4 long, else with linear conflict.
    """
    algorithm, heuristic = auto_heuristic(problem)
    return run_idastar(problem, heuristic, limits, progress), algorithm, heuristic
