from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

DIRECTION_LETTERS: str

def idastar(
    cells: npt.NDArray[np.uint8],
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    groups: Sequence[tuple[Sequence[int], bool, Any]],
    reflect: Sequence[int] | None = None,
    node_limit: int = 0,
    seconds: float = 0.0,
    max_depth: int = -1,
    progress: Callable[[int, int, float, int], Any] | None = None,
) -> tuple[int, str, int, int, int, int, float, int, int]: ...
