from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from fastpuzzle._core._result import CoreResult

__test__: dict[str, str]

def apply_moves(
    cells: npt.NDArray[np.uint16], blank: int, rows: int, cols: int, codes: npt.NDArray[np.uint8]
) -> tuple[int, int]: ...
def hash_cells(cells: npt.NDArray[np.uint16]) -> int: ...
def heuristic(
    code: int, cells: npt.NDArray[np.uint16], rows: int, cols: int, goal_blank: int
) -> int: ...
def line_conflicts(
    cells: npt.NDArray[np.uint16], rows: int, cols: int, goal_blank: int
) -> tuple[list[int], list[int]]: ...
def direction_constants() -> dict[str, int]: ...
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
def pack_two_words(cells: npt.NDArray[np.uint16]) -> tuple[int, int]: ...
def unpack_two_words(lo: int, hi: int, cells: int) -> tuple[int, ...]: ...
