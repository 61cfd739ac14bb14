import numpy as np
import numpy.typing as npt

def build(
    rows: int, cols: int, depth: int, max_states: int = 0, deadline: float | None = None
) -> tuple[npt.NDArray[np.uint64], list[int]]: ...
def compile(forbidden: npt.NDArray[np.uint64]) -> npt.NDArray[np.int32]: ...
