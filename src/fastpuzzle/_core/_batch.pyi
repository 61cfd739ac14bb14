import numpy as np
import numpy.typing as npt

def walk_exact_many(
    boards: npt.NDArray[np.uint64],
    blanks: npt.NDArray[np.int8],
    rows: int,
    cols: int,
    goal_blank: int,
    table: npt.NDArray[np.uint8],
    nibble: bool,
    lengths: npt.NDArray[np.int32],
    moves: npt.NDArray[np.uint8],
    generated: npt.NDArray[np.int64],
    seconds: npt.NDArray[np.float64],
) -> None: ...
