from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__test__: dict[str, str]

class DeadlinePassed(Exception): ...

def level_length(cells: int, k: int, sparse: bool) -> int: ...
def placement_rank(cells: Sequence[int], n: int) -> int: ...
def build_levels(
    rows: int,
    cols: int,
    goal_blank: int,
    tiles: Sequence[int],
    sparse: bool,
    progress: Callable[[int, int, int], Any] | None = None,
    threads: int | None = None,
    backward_from: int | None = None,
    deadline: float | None = None,
    zero: bool = False,
) -> npt.NDArray[np.uint8]: ...
def pack_table(
    levels: npt.NDArray[np.uint8],
    rows: int,
    cols: int,
    goal_blank: int,
    tiles: Sequence[int],
    sparse: bool,
    threads: int | None = None,
    zero: bool = False,
) -> tuple[npt.NDArray[np.uint8], bool]: ...
def table_length(cells: int, k: int, sparse: bool, nibble: bool) -> int: ...
def check_table(
    table: npt.NDArray[np.uint8],
    rows: int,
    cols: int,
    goal_blank: int,
    tiles: Sequence[int],
    sparse: bool,
    nibble: bool,
    zero: bool = False,
    samples: int = 0,
    seed: int = 0,
) -> tuple[int, int]: ...
def zero_layout(
    rows: int, cols: int, k: int
) -> tuple[npt.NDArray[np.uint8], tuple[npt.NDArray[Any], ...], int]: ...
def zero_table_length(rows: int, cols: int, k: int, nibble: bool) -> int: ...
def walking_table(
    lines: int,
    width: int,
    goal_line: int,
    max_states: int = 2000000,
    deadline: float | None = None,
) -> tuple[dict[tuple[int, ...], int], npt.NDArray[np.int32], npt.NDArray[np.uint8]]: ...
