"""Search limits: one dataclass shared by every algorithm."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["DEFAULT_MEMORY_BYTES", "CoreLimits", "Limits"]

#: Memory cap for searches that store nodes when :class:`Limits` sets none (2 GiB), so that no
#: call can take a machine down by accident.
DEFAULT_MEMORY_BYTES = 2 << 30


class CoreLimits(NamedTuple):
    """Limits as every compiled driver takes them (keywords of the same names); 0, 0.0 and -1
    mean none."""

    node_limit: int
    time_limit: float
    memory_limit: int
    max_depth: int


@dataclass(frozen=True)
class Limits:
    """Limits on one search; ``None`` means no limit.

    Parameters
    ----------
    seconds : float, optional
        Wall-clock time.
    nodes : int, optional
        Nodes expanded.
    memory_bytes : int, optional
        Bytes held by the search's tables (searches that store nodes default to
        :data:`DEFAULT_MEMORY_BYTES`).
    max_depth : int, optional
        Longest path explored (depth-bounded searches need it).
    """

    seconds: float | None = None
    nodes: int | None = None
    memory_bytes: int | None = None
    max_depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("seconds", "nodes", "memory_bytes", "max_depth"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"Limits.{name} expected a number or None, got {value!r}")
            if name != "seconds" and not float(value).is_integer():
                raise ValueError(f"Limits.{name} expected a whole number, got {value!r}")
            if value < 0:
                raise ValueError(f"Limits.{name} expected a non-negative number, got {value!r}")

    @property
    def memory_cap(self) -> int:
        """The memory limit in force for node-storing searches."""
        return DEFAULT_MEMORY_BYTES if self.memory_bytes is None else int(self.memory_bytes)

    def core(self, *, stores_nodes: bool) -> CoreLimits:
        """These limits as the compiled drivers take them: the one place they are converted.

        Searches that store nodes run under :attr:`memory_cap`; the others (IDA*, IDDFS) only
        under an explicit ``memory_bytes``.
        """
        return CoreLimits(
            int(self.nodes or 0),
            float(self.seconds or 0.0),
            self.memory_cap if stores_nodes else int(self.memory_bytes or 0),
            -1 if self.max_depth is None else int(self.max_depth),
        )
