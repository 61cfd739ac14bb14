"""What is left of an anytime solve's limits (:class:`Budget`), shared by its searches.

The anytime solver (:mod:`fastpuzzle._solver.anytime`) and its phases (beams, batch A*, the
second thread) charge every search here; each of them takes its limits from it.
"""

from __future__ import annotations

import dataclasses
import time

__all__ = ["Budget"]


@dataclasses.dataclass
class Budget:
    """What is left of the caller's limits, shared by every search of one board.

    Attributes
    ----------
    deadline : float or None
        A :func:`time.monotonic` time, or None without a time limit.
    nodes : int or None
        Expansions left, or None without a node limit.
    started : float
        When the solve began (:func:`time.monotonic`).
    expanded, generated : int
        What the searches so far expanded and generated.
    searches : int
        How many searches ran.
    peak_bytes : int
        The most memory one search allocated (the beams' boards; IDA* keeps only its path).
    """

    deadline: float | None
    nodes: int | None
    started: float = dataclasses.field(default_factory=time.monotonic)
    expanded: int = 0
    generated: int = 0
    searches: int = 0
    peak_bytes: int = 0

    @property
    def spent(self) -> bool:
        """Whether the time or the nodes have run out."""
        if self.nodes is not None and self.nodes <= 0:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def limits(self, seconds: float | None = None, nodes: int | None = None) -> tuple[float, int]:
        """``(time_limit, node_limit)`` for the next search (0: none): at most ``seconds`` and
        ``nodes`` and what is left, at least a millisecond and a node so that it starts."""
        time_limit = 0.0
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            time_limit = max(1e-3, left if seconds is None else min(seconds, left))
        caps = [cap for cap in (nodes, self.nodes) if cap is not None]
        return time_limit, max(1, min(caps)) if caps else 0

    def charge(self, expanded: int, generated: int, allocated: int = 0) -> None:
        """Count a search's nodes and the bytes it allocated."""
        self.peak_bytes = max(self.peak_bytes, allocated)
        self.expanded += expanded
        self.generated += generated
        self.searches += 1
        if self.nodes is not None:
            self.nodes -= expanded
