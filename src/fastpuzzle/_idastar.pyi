from collections.abc import Callable, Sequence
from typing import Any

__test__: dict[str, str]

DIRECTION_LETTERS: str

def idastar(
    packed: int,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    heuristic: int,
    node_limit: int = 0,
    seconds: float = 0.0,
    max_depth: int = -1,
    progress: Callable[[int, int, float, int], Any] | None = None,
    groups: Sequence[tuple[Sequence[int], bool, bool, Any]] | None = None,
    reflect: Sequence[int] | None = None,
    walking: tuple[Any, ...] | None = None,
) -> tuple[int, str, int, int, int, int, float, int, int]: ...
