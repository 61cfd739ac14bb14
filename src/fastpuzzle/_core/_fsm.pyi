from typing import Literal, overload

import numpy as np
import numpy.typing as npt

@overload
def build(
    rows: int,
    cols: int,
    depth: int,
    max_states: int = 0,
    deadline: float | None = None,
    twins: Literal[False] = False,
) -> tuple[npt.NDArray[np.uint64], list[int]]: ...
@overload
def build(
    rows: int,
    cols: int,
    depth: int,
    max_states: int = 0,
    deadline: float | None = None,
    *,
    twins: Literal[True],
) -> tuple[npt.NDArray[np.uint64], list[int], npt.NDArray[np.uint64]]: ...
def compile(forbidden: npt.NDArray[np.uint64]) -> npt.NDArray[np.int32]: ...
def verify(
    rows: int,
    cols: int,
    depth: int,
    forbidden: npt.NDArray[np.uint64],
    twins: npt.NDArray[np.uint64],
) -> int: ...
