import enum

class SearchStatus(enum.IntEnum):
    STATUS_RUNNING = -1
    STATUS_SOLVED = 0
    STATUS_EXHAUSTED = 1
    STATUS_TIME_LIMIT = 2
    STATUS_NODE_LIMIT = 3
    STATUS_MEMORY_LIMIT = 4
    STATUS_DEPTH_LIMIT = 5
    STATUS_ABORTED = 100

class CoreResult:
    status: int
    moves: str
    expanded: int
    generated: int
    max_frontier: int
    peak_memory_bytes: int
    seconds: float
    depth: int
    iterations: int
    allocated_bytes: int
    max_depth_reached: int
    reexpanded: int
    def __init__(
        self,
        status: int,
        moves: str,
        expanded: int,
        generated: int,
        max_frontier: int,
        peak_memory_bytes: int,
        seconds: float,
        depth: int,
        iterations: int,
        allocated_bytes: int = ...,
        max_depth_reached: int = ...,
        reexpanded: int = ...,
    ) -> None: ...
    def counts(self) -> tuple[int, int, int, int]: ...
