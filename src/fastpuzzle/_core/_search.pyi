"""Stub of the compiled classic-search drivers (see ``_search.pyx``).

Every driver takes the same limit and progress keywords (``node_limit``, ``time_limit``,
``memory_limit``, ``max_depth``, ``progress``) and returns a :class:`CoreResult`; moves are U,
D, L, R, the direction the blank moves.
"""

from collections.abc import Callable

from fastpuzzle._core._result import CoreResult

_Progress = Callable[[int, int, float, int], object] | None
_Core = CoreResult

DIRECTION_LETTERS: str
FRAME_BYTES: int
__test__: dict[str, str]

def perfect_index(
    board: int, blank: int, cells: int, *, tables: bool = True
) -> tuple[int, int] | None: ...
def bfs(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
    progress: _Progress = None,
    perfect_hash: bool = True,
) -> _Core: ...
def best_first(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    heuristic: int,
    g_scale: int = 1,
    h_scale: int = 1,
    lookahead: bool = False,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
    progress: _Progress = None,
    perfect_hash: bool = True,
) -> _Core: ...
def bidirectional(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
    progress: _Progress = None,
) -> _Core: ...
def depth_first(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    iterative: bool = False,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
    progress: _Progress = None,
) -> _Core: ...
def depth_limited(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    max_depth: int,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    progress: _Progress = None,
) -> _Core: ...
def random_walk(
    start: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    seed: int,
    node_limit: int = 0,
    time_limit: float = 0.0,
    memory_limit: int = 0,
    max_depth: int = -1,
    progress: _Progress = None,
) -> _Core: ...
