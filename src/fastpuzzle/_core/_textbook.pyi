"""Stub of the textbook loop (see ``_textbook.pyx``)."""

from collections.abc import Callable

from fastpuzzle._core._result import CoreResult

DIRECTION_LETTERS: str
ENTRY_BYTES: int
TIES: tuple[str, ...]

def breadth_first(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    order: tuple[int, ...],
    at_generation: bool = True,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
) -> CoreResult: ...
def best_first(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    order: tuple[int, ...],
    ties: str = "lowest_h",
    heuristic: int = -1,
    function: Callable[[tuple[int, ...]], float] | None = None,
    labels: tuple[int, ...] = (),
    g_scale: float = 1.0,
    h_scale: float = 1.0,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
) -> CoreResult: ...
def idastar(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    order: tuple[int, ...],
    heuristic: int = -1,
    function: Callable[[tuple[int, ...]], float] | None = None,
    labels: tuple[int, ...] = (),
    weight: float = 1.0,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
) -> CoreResult: ...
