from collections.abc import Callable
from typing import Any

from fastpuzzle._core._result import CoreResult

__test__: dict[str, str]

DIRECTION_LETTERS: str
PARALLEL_FROM: int
FRONTIER_PER_WORKER: int
SPLIT_PER_WORKER: int

def idastar(
    packed: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    heuristic: int,
    *,
    tables: Any = None,
    node_limit: int = 0,
    time_limit: float = 0.0,
    max_depth: int = -1,
    progress: Callable[[int, int, float, int], Any] | None = None,
    workers: int = 1,
    min_bound: int = 0,
) -> CoreResult: ...
