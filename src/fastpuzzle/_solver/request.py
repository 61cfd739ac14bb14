"""What the caller asked of one search: the problem and the checked options, as one object.

:func:`fastpuzzle.search`, :func:`fastpuzzle.solve` and a batch's rows build a :class:`Request`;
the algorithm's registry entry (:class:`fastpuzzle.algorithms.Algorithm`) hands it to its
driver, which returns the compiled core's :class:`~fastpuzzle._core._result.CoreResult`. What an
IDA* search resolves from it before any board (its deadline, tables, pruning machine) is a
:class:`~fastpuzzle._solver.prepared.Prepared`, built once and run per board
(:mod:`fastpuzzle._solver.idastar`); the request itself stays what the caller asked.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from fastpuzzle._problem import Problem
from fastpuzzle.conventions import Conventions
from fastpuzzle.heuristics import BY_NAME, Heuristic
from fastpuzzle.limits import Limits
from fastpuzzle.results import CoreProgress

__all__ = ["Request"]


class Request(NamedTuple):
    """The problem and the checked options of one search, as the caller gave them.

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
    #: IDA*'s duplicate pruning, checked (:func:`fastpuzzle._solver.pruning.check_prune`):
    #: ``"fsm"``, ``"parent"`` or a machine's depth.
    prune: str | int = "fsm"
    #: A*+IDA*: the most nodes its A* part stores (:mod:`fastpuzzle._solver.hybrid`); 0: plain
    #: IDA*; None: the default (:data:`fastpuzzle._solver.hybrid.DEFAULT_NODES`).
    frontier: int | None = None
    #: With a client: iterations expected to expand at least this many nodes go to the cluster
    #: (None: :data:`fastpuzzle.distributed.REMOTE_FROM`).
    remote_from: int | None = None
    #: Textbook conventions or a heuristic function (:mod:`fastpuzzle.conventions`); None: the
    #: compiled driver's own.
    conventions: Conventions | None = None

    @property
    def entry(self) -> Heuristic:
        """The heuristic's catalogue entry (Manhattan when none is named)."""
        return BY_NAME[self.heuristic or "manhattan"]
