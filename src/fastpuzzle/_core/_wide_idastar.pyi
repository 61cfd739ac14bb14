from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from fastpuzzle._core._result import CoreResult

__test__: dict[str, str]
MAX_PATH: int

def idastar(
    cells: npt.NDArray[np.uint16],
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    heuristic: int = ...,
    weight: float = ...,
    tables: Any = ...,
    node_limit: int = ...,
    time_limit: float = ...,
    max_depth: int = ...,
    progress: Callable[[int, int, float, int], None] | None = ...,
    machine: npt.NDArray[np.int32] | None = ...,
) -> CoreResult: ...
