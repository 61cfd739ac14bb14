import numpy as np
import numpy.typing as npt

from fastpuzzle._core._result import CoreResult

__test__: dict[str, str]

def wastar(
    cells: npt.NDArray[np.uint16],
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    weight: float,
    batch: int = ...,
    tables: object | None = ...,
    node_limit: int = ...,
    time_limit: float = ...,
    memory_bytes: int = ...,
    max_f: int = ...,
) -> CoreResult: ...
