"""The one result type every compiled search returns.

A small typed record instead of a positional tuple: each field has a name, and the Python layer
(:func:`fastpuzzle.results.result_from_core`) reads them by name.
"""


cdef class CoreResult:
    """How one compiled search ended, and what it did.

    Attributes
    ----------
    status : int
        The status code (0 solved, 1 exhausted, 2 time limit, 3 node limit, 4 memory limit,
        5 depth limit; see :class:`fastpuzzle.Status`).
    moves : str
        The solution's moves (U/D/L/R, the direction the blank moves); empty unless solved.
    expanded, generated, max_frontier : int
        Nodes expanded and generated (the root not counted), the largest open list (or deepest
        path).
    peak_memory_bytes : int
        The most bytes of nodes the search stored at once: entries held times the bytes of one
        entry (see :attr:`fastpuzzle.SearchStats.peak_memory_bytes`).
    seconds : float
        Wall-clock time of the search.
    depth : int
        The solution's length; when none was found, the deepest depth or bound reached.
    iterations : int
        Iterations of iterative methods, else 1.
    allocated_bytes : int
        The most bytes the search's structures held, at their capacity: what the memory limit
        is checked against (0 where the driver reports none).
    max_depth_reached : int
        The deepest g (moves from the start, or from the goal for a backward side) of any node
        generated, the start's 0 included; -1 where the driver does not count it.
    reexpanded : int
        Expansions of a board already expanded; -1 where the driver cannot know (it keeps no
        record of the boards it expanded).
    """

    def __init__(
        self,
        int status,
        str moves,
        unsigned long long expanded,
        unsigned long long generated,
        unsigned long long max_frontier,
        unsigned long long peak_memory_bytes,
        double seconds,
        int depth,
        unsigned long long iterations,
        unsigned long long allocated_bytes=0,
        int max_depth_reached=-1,
        long long reexpanded=-1,
    ):
        self.status = status
        self.moves = moves
        self.expanded = expanded
        self.generated = generated
        self.max_frontier = max_frontier
        self.peak_memory_bytes = peak_memory_bytes
        self.seconds = seconds
        self.depth = depth
        self.iterations = iterations
        self.allocated_bytes = allocated_bytes
        self.max_depth_reached = max_depth_reached
        self.reexpanded = reexpanded

    def counts(self):
        """``(expanded, generated, max_frontier, peak_memory_bytes)``: what two runs of the same
        search must agree on (everything but the time)."""
        return (self.expanded, self.generated, self.max_frontier, self.peak_memory_bytes)

    def __repr__(self):
        return (
            f"CoreResult(status={self.status}, moves={self.moves!r}, expanded={self.expanded}, "
            f"generated={self.generated}, max_frontier={self.max_frontier}, "
            f"peak_memory_bytes={self.peak_memory_bytes}, seconds={self.seconds!r}, "
            f"depth={self.depth}, iterations={self.iterations}, "
            f"allocated_bytes={self.allocated_bytes}, "
            f"max_depth_reached={self.max_depth_reached}, reexpanded={self.reexpanded})"
        )


cdef CoreResult core_result(
    int status,
    str moves,
    unsigned long long expanded,
    unsigned long long generated,
    unsigned long long max_frontier,
    unsigned long long peak_memory_bytes,
    double seconds,
    int depth,
    unsigned long long iterations,
    unsigned long long allocated_bytes=0,
    int max_depth_reached=-1,
    long long reexpanded=-1,
):
    # Filled directly, without a Python-level call to __init__: every search ends here.
    cdef CoreResult result = CoreResult.__new__(CoreResult)
    result.status = status
    result.moves = moves
    result.expanded = expanded
    result.generated = generated
    result.max_frontier = max_frontier
    result.peak_memory_bytes = peak_memory_bytes
    result.seconds = seconds
    result.depth = depth
    result.iterations = iterations
    result.allocated_bytes = allocated_bytes
    result.max_depth_reached = max_depth_reached
    result.reexpanded = reexpanded
    return result
