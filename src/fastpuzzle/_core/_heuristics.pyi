import enum

import numpy as np
import numpy.typing as npt

class HeuristicCode(enum.IntEnum):
    H_NONE = -1
    H_MISPLACED = 0
    H_MANHATTAN = 1
    H_LINEAR_CONFLICT = 2
    H_WALKING_DISTANCE = 3
    H_PDB = 4
    H_SQUARED_DIFFERENCE = 5
    H_EUCLIDEAN = 6

def evaluate(code: int, packed: int, rows: int, cols: int, goal_blank: int) -> int: ...
def evaluate_many(
    code: int,
    boards: npt.NDArray[np.uint64],
    rows: int,
    cols: int,
    goal_blank: int,
    out: npt.NDArray[np.int64],
) -> None: ...
