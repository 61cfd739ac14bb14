import numpy as np
import numpy.typing as npt

LINE_EMPTY: int
LINE_BOARD: int
LINE_OTHER_SLASH: int
LINE_OTHER: int

def parse_lines(
    text: bytes,
    want_rows: int,
    want_cols: int,
    words: npt.NDArray[np.uint64],
    rows: npt.NDArray[np.uint8],
    cols: npt.NDArray[np.uint8],
    kinds: npt.NDArray[np.uint8],
) -> int: ...
def float_reprs(values: npt.NDArray[np.float64], out: npt.NDArray[np.uint8]) -> None: ...
def integer_texts(values: npt.NDArray[np.int64], out: npt.NDArray[np.uint8]) -> None: ...
