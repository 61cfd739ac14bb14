import numpy as np
import numpy.typing as npt

def random_packed(
    out: npt.NDArray[np.uint64],
    bit_generator: np.random.BitGenerator,
    goal: int,
    rows: int,
    cols: int,
) -> None: ...
