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
    ) -> None: ...
    def counts(self) -> tuple[int, int, int, int]: ...
