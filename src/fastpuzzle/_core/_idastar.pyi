from collections.abc import Callable
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from fastpuzzle._core._result import CoreResult

__test__: dict[str, str]

DIRECTION_LETTERS: str

#: status, moves, expanded, generated, next bound, expansions per unit
UnitResults = tuple[int, str, int, int, int, list[int]]
NO_BOUND: int
PARALLEL_FROM: int
FRONTIER_PER_WORKER: int
SPLIT_PER_WORKER: int
STEAL_QUANTUM: int
SHARE_AFTER: int
HYBRID_NODE_BYTES: int

@overload
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
    runner: Callable[[Any, int, Any], CoreResult] | None = None,
    units: None = None,
    min_bound: int = 0,
    machine: npt.NDArray[np.int32] | None = None,
    frontier: int = 0,
    complete: bool = False,
    trace: list[tuple[int, int, int, int, int, int]] | None = None,
    order: int = 0,
) -> CoreResult: ...
@overload
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
    runner: None = None,
    units: tuple[int, bytes],
    min_bound: int = 0,
    machine: npt.NDArray[np.int32] | None = None,
    frontier: int = 0,
    complete: bool = False,
    trace: list[tuple[int, int, int, int, int, int]] | None = None,
    order: int = 0,
) -> UnitResults: ...
