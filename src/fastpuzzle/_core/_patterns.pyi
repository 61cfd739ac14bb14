from collections.abc import Sequence
from typing import Any

class LoadedPatterns:
    cells: int
    bits: int
    goal_blank: int
    dual: bool
    zero: bool
    arrays: list[Any]
    def __init__(
        self,
        groups: Sequence[tuple[Sequence[int], bool, bool, Any]],
        reflect: Sequence[int] | None,
        cells: int,
        bits: int,
        goal_blank: int,
        dual: tuple[Sequence[Sequence[int]], Sequence[Any]] | None = None,
        extra: Sequence[Sequence[tuple[Sequence[int], bool, bool, Any]]] | None = None,
        zero: tuple[int, int] | None = None,
        extra_reflect: Sequence[Sequence[int] | None] | None = None,
    ) -> None: ...
    @property
    def n_extra(self) -> int: ...
    @property
    def n_groups(self) -> int: ...
    @property
    def mirror(self) -> bool: ...
    @property
    def shared(self) -> tuple[tuple[int, ...], ...]: ...
