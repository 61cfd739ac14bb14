"""Beam search answers for large boards (6x6 and up), where weighted IDA* rarely finishes.

Moves are U, D, L, R: the direction the **blank** moves.

:func:`beam_answer` runs the compiled beam (``_core/_beam.pyx``: each level keeps the
``width`` children of least linear conflict) until it reaches the goal or stalls on a plateau
(the least h not falling for :data:`PATIENCE` levels: on 10x10 a wide beam gets within a few
dozen of the goal's h and then wanders, the tiles left out of place scattered far from the
blank); a stalled beam's path to its best board is finished by the constructive solver.
:func:`beam_phase` is the anytime solver's first step on these boards: widths from
:data:`FIRST_WIDTH` up, each :data:`GROWTH` times wider while the budget allows, then beams of
the widest with other tie-breaks; the shortest answer is kept for the windows that follow
(docs/near_optimal.rst has the measurements).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from fastpuzzle._core import _beam, _constructive
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._problem import Problem
from fastpuzzle._solver.constructive import solve_fast
from fastpuzzle._solver.phase_share import PhaseShare

if TYPE_CHECKING:
    from fastpuzzle._solver.budget import Budget

__all__ = [
    "FIRST_WIDTH",
    "GROWTH",
    "MAX_CELLS",
    "MAX_WIDTH",
    "MAX_WIDTH_LARGE",
    "MIN_CELLS",
    "PATIENCE",
    "SHARE",
    "beam_answer",
    "beam_phase",
]

#: Boards of this many cells and up get beam answers in the anytime solver (smaller ones are
#: left to weighted IDA*, which finishes there). Under 20 million nodes a board, DeepCubeA's
#: first 5 boards: 6x6 173.6 moves without, 150.0 with; 7x7 456.8 without, 322.8 with.
MIN_CELLS = 36

#: And of at most this many: a beam's memory grows with its path (a parent word a board a level).
MAX_CELLS = 400

#: The first width, and the widest up to 49 cells and past them: a wider beam costs nodes in
#: proportion to its width and answers shorter up to a point, past which other tie-breaks at a
#: narrower width pay more for the same nodes (the mean over 5 boards of the shortest answer
#: of 8 tie-breaks at 1024, 4 at 2048, 2 at 4096: 7x7, 336.0, 338.8, 329.2 moves; 10x10,
#: 1380.2, 1377.8, 1506.2; one 10x10 beam of 16,384 on the first board: 1648).
FIRST_WIDTH = 256
MAX_WIDTH = 4096
MAX_WIDTH_LARGE = 1024

#: Each beam is this many times wider than the last where this share of what is left allows
#: it at the last one's cost a board.
GROWTH = 4
FIT = 0.8

#: Levels without a new least h after which the beam stops (10x10, 4 boards x 3 tie-breaks,
#: mean length: width 1024, 1783.6 moves at 10, 1708.6 at 30, 1733.4 at 100, 1756.4 at 300;
#: width 4096, 1607.9 at 30, 1631.9 at 100: a stalled beam rarely gets out).
PATIENCE = 30

#: The share of the time (or node) limit the beams may take; the rest goes to windows and the
#: unweighted search's bound.
SHARE = 0.75

_SOLVED = int(SearchStatus.STATUS_SOLVED)


def beam_answer(
    problem: Problem,
    width: int,
    *,
    time_limit: float = 0.0,
    node_limit: int = 0,
    patience: int = PATIENCE,
    seed: int = 0,
) -> tuple[str, int, int, int]:
    """``(moves, expanded, generated, allocated)``: a solution of ``problem`` from a beam of
    ``width`` boards a level, and the bytes the beam allocated.

    The beam's moves when it reaches the goal; else (stalled for ``patience`` levels, or
    stopped by ``time_limit`` seconds or ``node_limit`` expansions, 0: none) its moves to the
    board of least linear conflict, finished by the constructive solver.
    """
    found = _beam.beam(
        problem.wide_cells(),
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        width=width,
        time_limit=time_limit,
        node_limit=node_limit,
        patience=patience,
        seed=seed,
    )
    if found.status == _SOLVED:
        return found.moves, found.expanded, found.generated, found.allocated_bytes
    rest = solve_fast(problem.board.apply(found.moves), problem.goal)
    moves = _constructive.cancel_inverse_pairs(found.moves + rest.moves)
    return moves, found.expanded, found.generated, found.allocated_bytes


def beam_phase(
    problem: Problem,
    best: str,
    budget: Budget,
    report: Callable[[str], None],
    *,
    first_seed: int = 0,
) -> str:
    """``best``, or the shortest path from beams of growing width while :data:`SHARE` of
    ``budget`` lasts; ``report`` is called with each new best; ``first_seed``: the tie-break
    of each width's first beam, the next ones counting up from it (0: none)."""
    share = PhaseShare(budget, SHARE, budget.started)
    width, seed = FIRST_WIDTH, first_seed
    widest = MAX_WIDTH if problem.rows * problem.cols <= 49 else MAX_WIDTH_LARGE
    while (limits := share.step()) is not None:
        time_limit, node_limit = limits
        moves, expanded, generated, allocated = beam_answer(
            problem, width, time_limit=time_limit, node_limit=node_limit, seed=seed
        )
        budget.charge(expanded, generated, allocated)
        if len(moves) < len(best):
            best = moves
            report(best)
        # A beam's cost grows with its width: the next one is GROWTH times wider where what is
        # left allows it at this one's cost a board, else as wide with another tie-break (the
        # lengths vary widely with it: 10x10, width 4096, 1098 to 1180 moves on one board,
        # 1476 to 1936 on another), else none (a beam cut short by the limits is finished by
        # the constructive solver, its nodes mostly lost).
        room = share.room(FIT)
        if room >= GROWTH and width * GROWTH <= widest:
            width, seed = width * GROWTH, first_seed
        elif room >= 1:
            seed += 1
        else:
            break
    return best
