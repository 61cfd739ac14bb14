"""The anytime solver's second thread: one search beside the schedule on the calling thread.

Moves are U, D, L, R: the direction the **blank** moves.

The anytime solver (:mod:`fastpuzzle._solver.anytime`) runs one search at a time; on a machine
of two cores or more, :class:`Side` runs its strongest member (batch A* on 6x6's tables, beams
on 36 to 49 cells) on a thread of its own while the rest of the schedule runs on the calling
thread. The kernels release the GIL, so the two search at once.

Each thread spends a budget of its own (:class:`~fastpuzzle._solver.budget.Budget`): the same
deadline, and under a node limit a fixed share of the nodes each, so that neither reads what
the other has done and the answer under a node limit stays the same from run to run. The
calling thread takes the side's answer at a fixed point of its schedule (:meth:`Side.join`);
Ctrl-C on the calling thread, or its own error, stops the side at its next check of the limits
(:meth:`Side.close`), and nothing of it runs once the call has returned.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from fastpuzzle._core._interrupt import raise_if_stopped, run_stoppable
from fastpuzzle._solver.crew import Crew
from fastpuzzle._solver.parallel import POLL_SECONDS, Endings

if TYPE_CHECKING:
    from fastpuzzle._solver.budget import Budget

__all__ = ["THREADS", "Side"]

#: The most threads one anytime solve uses: the schedule's and the side's.
THREADS = 2


class Side:
    """``job(budget)`` on a thread of its own, started at once; its answer (a path) is
    :meth:`join`'s.

    Parameters
    ----------
    kind : str
        What it runs (``"astar"`` or ``"beams"``): the schedule leaves that member out.
    job : callable
        Called with ``budget`` on the side thread; returns the best path it found.
    budget : Budget
        The side's own budget, whose counts the answer's statistics add.
    """

    def __init__(self, kind: str, job: Callable[[Budget], str], budget: Budget) -> None:
        self.kind = kind
        self.budget = budget
        self._stop = threading.Event()
        self._crew = Crew(1)
        self._endings = Endings()
        try:
            self._future = self._endings.watch(
                self._crew.submit(
                    0, "a thread for the anytime solver", run_stoppable, self._stop, job, budget
                )
            )
        except BaseException:
            # Ctrl-C (or an error) between the submit and the return: nobody would hold the
            # side to stop it, and it would run on after the call.
            self.close()
            raise
        self._joined: str | None = None

    @property
    def done(self) -> bool:
        """Whether the side has ended (:meth:`join` then returns at once)."""
        return self._future.done()

    def join(self, *, cancel: bool = False) -> str | None:
        """The side's path once it has ended (its error raised here), or None when ``cancel``
        stopped it first (the schedule proved its best shortest: nothing shorter exists)."""
        if self._joined is not None:
            return self._joined
        if cancel:
            self._stop.set()
        while not self._future.done():
            self._endings.next(POLL_SECONDS)
            # A caller on a worker thread (a batch, the page) sees no Ctrl-C but its event.
            raise_if_stopped()
        error = self._future.exception()
        if cancel and isinstance(error, KeyboardInterrupt):
            return None
        self._joined = self._future.result()
        return self._joined

    def close(self) -> None:
        """Stop the side at its next check (when it has not ended) and wait for its thread."""
        self._stop.set()
        self._crew.close()
