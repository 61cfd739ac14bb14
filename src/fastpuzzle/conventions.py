"""Textbook conventions of a search, as options: move order, tie-breaking, when BFS tests for the
goal, and a heuristic that is a Python function.

A course's reference answers count nodes under its own conventions; these options let a search
count the same way. The defaults are what the compiled searches do, named:

- ``order="UDLR"``: children are generated with the blank moving up, down, left, right (any
  permutation of the four letters is taken; ColumbiaX's driver uses UDLR too).
- ``ties="lowest_h"``: among open nodes of equal priority, greedy, A*, weighted A* and
  uniform-cost search take the lowest h first, then the newest (in A*, the same f with the
  lowest h is the deepest node). ``"lifo"`` takes the newest, ``"fifo"`` the oldest.
- ``goal_test="generation"``: BFS stops as soon as it generates the goal; ``"expansion"`` tests
  a board when it leaves the queue, as uniform-cost search and A* do (more nodes: the whole
  last layer before the goal is expanded, and part of the goal's own).

A search given anything else (or a heuristic function) runs the textbook loop
(``fastpuzzle._core._textbook``) instead of its compiled driver: Python containers and the GIL,
about 10 to 40 times slower with a built-in heuristic and 50 to 100 times with a Python
function (docs/algorithms.rst has the figures), with the same node counts as the compiled
driver under the default conventions. An option that an algorithm does not take raises
:class:`~fastpuzzle.errors.InvalidOptionError` naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from fastpuzzle._util.checks import choice, shown
from fastpuzzle.errors import InvalidOptionError

__all__ = [
    "DEFAULT_GOAL_TEST",
    "DEFAULT_ORDER",
    "DEFAULT_TIES",
    "GOAL_TESTS",
    "TAKERS",
    "TIES",
    "Conventions",
    "HeuristicFunction",
    "conventions",
]

#: A heuristic written in Python: it receives the board's tiles as a tuple, row by row, in the
#: caller's own labels with 0 for the blank (``(1, 2, 3, 4, 5, 6, 7, 8, 0)`` is the 3x3 goal),
#: and returns a number at least 0.
HeuristicFunction = Callable[[tuple[int, ...]], float]

Ties = Literal["lowest_h", "lifo", "fifo"]
GoalTest = Literal["generation", "expansion"]

#: Today's order: the blank moves up, down, left, right.
DEFAULT_ORDER = "UDLR"
#: Today's tie-breaking: lowest h first, then the newest.
DEFAULT_TIES: Ties = "lowest_h"
#: Today's BFS: the goal is tested when generated.
DEFAULT_GOAL_TEST: GoalTest = "generation"

TIES: tuple[str, ...] = ("lowest_h", "lifo", "fifo")
GOAL_TESTS: tuple[str, ...] = ("generation", "expansion")

#: Which algorithms take each option (a heuristic function: ``heuristic=`` a callable).
TAKERS: dict[str, tuple[str, ...]] = {
    "order": ("bfs", "ucs", "greedy", "astar", "wastar", "idastar"),
    "ties": ("ucs", "greedy", "astar", "wastar"),
    "goal_test": ("bfs",),
    "heuristic": ("greedy", "astar", "wastar", "idastar"),
}


@dataclass(frozen=True)
class Conventions:
    """A search's conventions, checked.

    Attributes
    ----------
    order : str
        The move order, a permutation of ``"UDLR"``.
    ties : {"lowest_h", "lifo", "fifo"}
        Tie-breaking among open nodes of equal priority.
    goal_test : {"generation", "expansion"}
        When BFS tests a board for the goal.
    function : callable or None
        A heuristic function (see :data:`HeuristicFunction`).
    """

    order: str = DEFAULT_ORDER
    ties: str = DEFAULT_TIES
    goal_test: str = DEFAULT_GOAL_TEST
    function: HeuristicFunction | None = None

    @property
    def directions(self) -> tuple[int, ...]:
        """The order as direction codes (0..3 for U, D, L, R)."""
        return tuple("UDLR".index(letter) for letter in self.order)

    @property
    def compiled(self) -> bool:
        """Whether the compiled drivers run these (the defaults, and no function)."""
        return self == _DEFAULTS


_DEFAULTS = Conventions()


def _order(value: object) -> str:
    if isinstance(value, str) and sorted(value.upper()) == sorted("UDLR"):
        return value.upper()
    raise InvalidOptionError(
        f"expected order= a permutation of 'UDLR' (the blank's moves, in the order children are "
        f"generated), got {shown(value)}"
    )


def conventions(
    algorithm: str,
    *,
    order: object = None,
    ties: object = None,
    goal_test: object = None,
    function: object = None,
) -> Conventions | None:
    """The conventions asked of ``algorithm`` (a canonical name), checked; None when nothing was
    asked (the compiled driver's own).

    Raises
    ------
    InvalidOptionError
        If an option is not valid, or ``algorithm`` does not take it (naming the option and the
        algorithms that do).
    """
    given = {
        name: value
        for name, value in (
            ("order", order),
            ("ties", ties),
            ("goal_test", goal_test),
            ("heuristic", function),
        )
        if value is not None
    }
    if not given:
        return None
    for name, value in given.items():
        if algorithm not in TAKERS[name]:
            what = "a heuristic function" if name == "heuristic" else f"{name}={shown(value)}"
            raise InvalidOptionError(
                f"{algorithm} does not take {what}; {', '.join(TAKERS[name])} do"
            )
    if function is not None and not callable(function):
        raise InvalidOptionError(f"expected heuristic= a name or a function, got {shown(function)}")
    return Conventions(
        DEFAULT_ORDER if order is None else _order(order),
        DEFAULT_TIES if ties is None else choice("ties", ties, TIES),
        DEFAULT_GOAL_TEST if goal_test is None else choice("goal_test", goal_test, GOAL_TESTS),
        cast("HeuristicFunction | None", function),
    )


def labels_for(goal_tiles: Sequence[int], canonical: Sequence[int]) -> tuple[int, ...]:
    """``out[label]``: the caller's tile that canonical ``label`` stands for (0: the blank)."""
    out = [0] * len(goal_tiles)
    for tile in goal_tiles:
        out[canonical[tile]] = tile
    return tuple(out)
