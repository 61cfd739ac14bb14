"""The library's one default shape, and the warning where an older default still holds.

The default board is the 15-puzzle, :data:`DEFAULT_SHAPE` = (4, 4) (issue 58, item 3). Where a
function's default was (3, 3) (``Board.goal``, ``labelled``, ``write_labelled``, the
Gymnasium environment), it stays (3, 3) until the next minor release, and omitting ``shape``
there warns: such a signature says ``shape: Shape = OLD_DEFAULT_SHAPE`` and its body passes
the shape through :func:`old_default_shape`. ``OLD_DEFAULT_SHAPE`` is a (3, 3) that is told
from one the caller wrote by identity (a tuple subclass: no caller's tuple is it), so an
explicit ``shape=(3, 3)`` never warns.
"""

from __future__ import annotations

import warnings
from typing import cast

__all__ = ["DEFAULT_SHAPE", "OLD_DEFAULT_SHAPE", "old_default_shape"]

#: The default shape of every function that takes one: the 15-puzzle.
DEFAULT_SHAPE = (4, 4)


class _Omitted(tuple):  # type: ignore[type-arg]
    """(3, 3), standing for a shape the caller did not give (its repr is the tuple's)."""

    __slots__ = ()


#: The default of the functions whose default is still (3, 3), for one more minor release.
OLD_DEFAULT_SHAPE = cast("tuple[int, int]", _Omitted((3, 3)))


def old_default_shape(shape: tuple[int, int], where: str) -> tuple[int, int]:
    """``shape``, after a FutureWarning when it is :data:`OLD_DEFAULT_SHAPE` (the caller gave
    none): the default becomes (4, 4). ``where`` names the function, as its caller writes it.

    Examples
    --------
    >>> old_default_shape((3, 3), "labelled()")
    (3, 3)
    """
    if shape is not OLD_DEFAULT_SHAPE:
        return shape
    warnings.warn(
        f"{where} without shape= is a 3x3 board, and becomes a 4x4 one, the library's default "
        "elsewhere, in the next minor release: pass shape=(3, 3) to keep 3x3 (or shape=(4, 4))",
        FutureWarning,
        # The caller's caller: the line that called the public function.
        stacklevel=3,
    )
    return (3, 3)
