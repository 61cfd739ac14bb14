from collections.abc import Callable

import numpy as np
import numpy.typing as npt

__test__: dict[str, str]
DIRECTION_LETTERS: str
CELL_BYTES: int

def solve(
    cells: npt.NDArray[np.uint16],
    blank: int,
    rows: int,
    cols: int,
    *,
    shorten: bool = ...,
    time_limit: float = ...,
    progress: Callable[[int, int, float, int], None] | None = ...,
) -> tuple[int, str, int, float, int]: ...
def cancel_inverse_pairs(moves: str) -> str: ...
def shorten_windows(
    cells: npt.NDArray[np.uint16],
    blank: int,
    rows: int,
    cols: int,
    moves: str,
    *,
    window: int = ...,
    first: int = ...,
    node_cap: int = ...,
) -> str: ...
