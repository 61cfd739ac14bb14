"""What an IDA* search resolved before any board: built once, run per board.

:func:`fastpuzzle._solver.idastar.prepare` turns a :class:`~fastpuzzle._solver.request.Request`
(what the caller asked) into a :class:`Prepared`: the kernel, the catalogue entry, the tables
and the pruning machine, fetched once, and the deadline the time limit sets. A single search
prepares and runs once; a batch chunk prepares once and runs every board of the chunk with it
(:meth:`Prepared.restarted` gives each board its own time budget), so that no board pays for
locating and checking tables that did not change. The pattern of scikit-learn's
``ArgKmin.compute`` (one object holds the state, then it runs) and numpy's
``Generator(bit_generator)``.
"""

from __future__ import annotations

import math
import time
from typing import Any, Literal, NamedTuple

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._solver.request import Request
from fastpuzzle.heuristics import Heuristic
from fastpuzzle.limits import CoreLimits
from fastpuzzle.pdb.compound import Compound
from fastpuzzle.pdb.database import Database

__all__ = ["Prepared", "deadline_from_now"]

_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT

#: Which compiled kernel runs the search: ``_idastar`` (boards of up to 16 cells),
#: ``_wide_idastar`` (Manhattan, linear conflict, walking distance and weighted IDA* on any
#: board) or ``_wide_pdb`` (pattern databases past 16 cells).
Kernel = Literal["packed", "wide", "wide_pdb"]


def deadline_from_now(seconds: float | None) -> float | None:
    """When a time limit of ``seconds`` started now runs out (:func:`time.monotonic`); None
    without a finite limit."""
    if seconds is None or not math.isfinite(seconds):
        return None
    return time.monotonic() + seconds


class Prepared(NamedTuple):
    """One IDA* search made ready: the caller's request and what it resolved.

    Every board run with it has the shape and goal of the request's problem (the tables and
    the machine are those of that shape and goal blank). A named tuple, as
    :class:`~fastpuzzle._solver.request.Request` is: every solve() makes one, and a tuple is
    made in a fraction of the time of a frozen dataclass.
    """

    #: What the caller asked (its problem is the board the search was prepared for).
    request: Request
    #: The heuristic's catalogue entry.
    entry: Heuristic
    kernel: Kernel
    #: The pruning the kernels do (:func:`fastpuzzle._solver.pruning.in_effect`): a cluster's
    #: workers are sent it, so that they build the machine the calling process searches with.
    machine_prune: str | int
    #: The duplicate-pruning machine the kernels carry (None: parent pruning).
    machine: Any
    #: When the time limit runs out (:func:`time.monotonic`), or None.
    deadline: float | None
    #: The request's limits as the compiled drivers take them, for a search that stores only
    #: its path (the time limit is what is left before :attr:`deadline`: :meth:`limits_left`).
    core: CoreLimits
    #: What the kernel reads: laid-out pattern-database tables, walking-distance tables, or
    #: None (Manhattan, linear conflict; walking distance past 16 cells, made per board).
    tables: Any = None
    #: The databases behind :attr:`tables` (a cluster's workers read the very same ones); a
    #: :class:`~fastpuzzle.pdb.compound.Compound` for a compound heuristic past 16 cells.
    databases: tuple[Database | Compound, ...] = ()
    #: Expansions after which the search changes tables (:func:`fastpuzzle._solver.policy.
    #: table_switch`), or None: it never does.
    switch_after: int | None = None

    def restarted(self) -> Prepared:
        """The same search for another board, with the time limit counted from now."""
        deadline = deadline_from_now(self.request.limits.seconds)
        if deadline is None:
            return self
        return self._replace(deadline=deadline)

    def limits_left(self) -> CoreLimits | None:
        """The limits of a search that stores only its path (IDA*), as the compiled drivers take
        them, with the time left before the :attr:`deadline`; None when none is left."""
        if self.deadline is None:
            return self.core
        left = self.deadline - time.monotonic()
        # The core reads a time limit of 0 as none, so an exhausted budget ends here instead.
        return self.core._replace(time_limit=left) if left > 0 else None

    def out_of_time(self) -> CoreResult:
        """How a search ends whose time ran out before it began (building its tables)."""
        seconds = float(self.request.limits.seconds or 0.0)
        return CoreResult(_TIME_LIMIT, "", 0, 0, 0, 0, seconds, -1, 0)
