"""Search limits: one dataclass shared by every algorithm."""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from typing import NamedTuple

from fastpuzzle._util.checks import shown
from fastpuzzle.errors import InvalidLimitsError

__all__ = ["DEFAULT_MEMORY_BYTES", "MAX_DEPTH", "MAX_NODES", "CoreLimits", "Limits", "as_limits"]

#: Memory cap for searches that store nodes when :class:`Limits` sets none (2 GiB), so that no
#: call can take a machine down by accident.
DEFAULT_MEMORY_BYTES = 2 << 30

#: Largest ``nodes`` and ``memory_bytes``: the compiled searches count both in 64 unsigned bits.
MAX_NODES = 2**64 - 1

#: Largest ``max_depth``: the compiled searches hold depths in 32 signed bits.
MAX_DEPTH = 2**31 - 1


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

    Every limit is checked when the object is made, so a search never meets a value it cannot
    honour: :class:`~fastpuzzle.errors.InvalidLimitsError` names the field otherwise. Zero is
    refused where it would stop a search before it starts (``seconds``, ``nodes``,
    ``memory_bytes``; use ``None`` for no limit); ``max_depth=0`` is valid and explores the start
    board only.

    Parameters
    ----------
    seconds : float, optional
        Wall-clock time: a positive number (``math.inf`` is no limit, as ``None``), not NaN.
    nodes : int, optional
        Nodes expanded: a whole number from 1 to :data:`MAX_NODES`.
    memory_bytes : int, optional
        Bytes the search's tables may allocate, counted at their capacity (what
        ``SearchStats.peak_allocated_bytes`` reports, not the smaller ``peak_memory_bytes``),
        from 1 to :data:`MAX_NODES` (searches that store nodes default to
        :data:`DEFAULT_MEMORY_BYTES`).
    max_depth : int, optional
        Longest path explored, from 0 to :data:`MAX_DEPTH` (depth-bounded searches need it).
    """

    seconds: float | None = None
    nodes: int | None = None
    memory_bytes: int | None = None
    max_depth: int | None = None

    def __post_init__(self) -> None:
        _check_seconds(self.seconds)
        _check_whole("nodes", self.nodes, 1, MAX_NODES)
        _check_whole("memory_bytes", self.memory_bytes, 1, MAX_NODES)
        _check_whole("max_depth", self.max_depth, 0, MAX_DEPTH)

    @property
    def memory_cap(self) -> int:
        """The memory limit in force for node-storing searches."""
        return DEFAULT_MEMORY_BYTES if self.memory_bytes is None else int(self.memory_bytes)

    def core(self, *, stores_nodes: bool) -> CoreLimits:
        """These limits as the compiled drivers take them: the one place they are converted.

        Searches that store nodes run under :attr:`memory_cap`; the others (IDA*, IDDFS) only
        under an explicit ``memory_bytes``.
        """
        # Kept on the (frozen) instance, as every search of a session converts the same limits
        # again; keyed on the memory limit it used, since the default cap is a module setting.
        memory = self.memory_cap if stores_nodes else int(self.memory_bytes or 0)
        key = "_core_storing" if stores_nodes else "_core_path"
        kept: CoreLimits | None = self.__dict__.get(key)
        if kept is None or kept.memory_limit != memory:
            kept = self._convert(memory)
            object.__setattr__(self, key, kept)
        return kept

    def _convert(self, memory: int) -> CoreLimits:
        return CoreLimits(
            int(self.nodes or 0),
            _core_seconds(self.seconds),
            memory,
            -1 if self.max_depth is None else int(self.max_depth),
        )


def _check_seconds(value: object) -> None:
    if value is None:
        return
    expected = "a positive number of seconds or None (no limit)"
    # bool is an int, but True seconds is a mistake, not one second.
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidLimitsError(f"Limits.seconds expected {expected}, got {shown(value)}")
    try:
        seconds = float(value)
    except (OverflowError, ValueError):
        seconds = math.nan
    if math.isnan(seconds) or seconds <= 0:
        raise InvalidLimitsError(f"Limits.seconds expected {expected}, got {shown(value)}")


def _check_whole(name: str, value: object, low: int, high: int) -> None:
    if value is None:
        return
    expected = f"a whole number from {low} to {high:,} or None (no limit)"
    whole: int | None = None
    if isinstance(value, Integral) and not isinstance(value, bool):
        whole = int(value)
    elif isinstance(value, Real) and not isinstance(value, bool):
        number = float(value)
        if number.is_integer():  # False for NaN and infinities
            whole = int(number)
    if whole is None or not low <= whole <= high:
        raise InvalidLimitsError(f"Limits.{name} expected {expected}, got {shown(value)}")


_NO_LIMITS = Limits()


def as_limits(limits: object) -> Limits:
    """``limits`` as a search takes it: a :class:`Limits` unchanged, ``None`` as no limits.

    Raises
    ------
    InvalidLimitsError
        If ``limits`` is anything else (a number, a dict, ...).
    """
    if limits is None:
        return _NO_LIMITS
    if isinstance(limits, Limits):
        return limits
    raise InvalidLimitsError(
        "expected limits=fastpuzzle.Limits(...) or None, got "
        f"{type(limits).__name__} {shown(limits)}"
    )


def _core_seconds(seconds: float | None) -> float:
    # The core reads 0.0 as "no limit"; an infinite limit is none too.
    return float(seconds) if seconds is not None and math.isfinite(seconds) else 0.0
