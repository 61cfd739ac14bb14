"""What a driver receives: the problem and the checked options of one search, as one object.

:func:`fastpuzzle.search`, :func:`fastpuzzle.solve` and a batch's rows build a :class:`Request`;
the algorithm's registry entry (:class:`fastpuzzle.algorithms.Algorithm`) hands it to its
driver, which returns the compiled core's :class:`~fastpuzzle._core._result.CoreResult`. IDA*
carries the same object down to its kernel calls (:mod:`fastpuzzle._solver.idastar`), with the
deadline it sets as it starts.
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._problem import Problem
from fastpuzzle._solver import pruning
from fastpuzzle.heuristics import BY_NAME, Heuristic
from fastpuzzle.limits import CoreLimits, Limits
from fastpuzzle.results import CoreProgress

__all__ = ["Request"]

_TIME_LIMIT = SearchStatus.STATUS_TIME_LIMIT

#: What :attr:`Request.machine` holds until a search start fetches the machine (None would mean
#: parent pruning).
UNFETCHED: Any = object()


class Request(NamedTuple):
    """The problem and the checked options of one search.

    A named tuple: every search builds one, and a tuple is made in a third of the time of a
    frozen dataclass.
    """

    problem: Problem
    #: The canonical heuristic name (None: the algorithm takes none, or Manhattan by default).
    heuristic: str | None
    limits: Limits
    weight: float | None = None
    seed: int | None = None
    progress: CoreProgress | None = None
    #: Threads (IDA* only; every other driver runs serially and is never given more than 1).
    workers: int = 1
    #: A Dask client for IDA*'s largest iterations (IDA* only; see fastpuzzle.distributed).
    client: Any = None
    #: When ``limits.seconds`` runs out, as a :func:`time.monotonic` time (None: no time limit,
    #: or not started). IDA* sets it as it starts (:meth:`started`), so that the time spent
    #: building its tables counts against the limit.
    deadline: float | None = None
    #: IDA*'s duplicate pruning, checked (:func:`fastpuzzle._solver.pruning.check_prune`):
    #: ``"fsm"``, ``"parent"`` or a machine's depth.
    prune: str | int = "fsm"
    #: The duplicate-pruning machine IDA*'s kernels carry (:func:`~fastpuzzle._solver.pruning.
    #: machine` of :attr:`machine_prune`), fetched once as its search starts; None: parent
    #: pruning; :data:`UNFETCHED` until then (:meth:`kernel_machine`).
    machine: Any = UNFETCHED

    def kernel_machine(self) -> Any:
        """The machine the kernels carry: :attr:`machine`, or fetched now for a request that no
        search start has fetched it for (a kernel called on its own prunes as asked too)."""
        if self.machine is UNFETCHED:
            return pruning.machine((self.problem.rows, self.problem.cols), self.machine_prune)
        return self.machine

    @property
    def machine_prune(self) -> str | int:
        """The pruning IDA* does on this request's tables: :attr:`prune`, except that ``"fsm"``
        means parent pruning on an exact distance table (see
        :func:`fastpuzzle._solver.pruning.in_effect`). A cluster's workers are sent this, so that
        they build the machine the calling process searches with."""
        return pruning.in_effect(self.prune, exact=self.entry.tables == "exact")

    @property
    def entry(self) -> Heuristic:
        """The heuristic's catalogue entry (Manhattan when none is named)."""
        return BY_NAME[self.heuristic or "manhattan"]

    def started(self) -> Request:
        """This request with its :attr:`deadline` set from now."""
        seconds = self.limits.seconds
        if seconds is None or not math.isfinite(seconds):
            return self
        return self._replace(deadline=time.monotonic() + seconds)

    def limits_left(self) -> CoreLimits | None:
        """The limits of a search that stores only its path (IDA*), as the compiled drivers take
        them, with the time left before the :attr:`deadline`; None when none is left."""
        core = self.limits.core(stores_nodes=False)
        if self.deadline is None:
            return core
        left = self.deadline - time.monotonic()
        # The core reads a time limit of 0 as none, so an exhausted budget ends here instead.
        return core._replace(time_limit=left) if left > 0 else None

    def out_of_time(self) -> CoreResult:
        """How a search ends whose time ran out before it began (building its tables)."""
        return CoreResult(_TIME_LIMIT, "", 0, 0, 0, 0, float(self.limits.seconds or 0.0), -1, 0)
