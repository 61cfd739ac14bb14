import numpy as np
import numpy.typing as npt

from fastpuzzle._core._result import CoreResult

__test__: dict[str, str]

def beam(
    cells: npt.NDArray[np.uint16],
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    width: int,
    node_limit: int = ...,
    time_limit: float = ...,
    max_depth: int = ...,
    patience: int = ...,
    seed: int = ...,
) -> CoreResult: ...
