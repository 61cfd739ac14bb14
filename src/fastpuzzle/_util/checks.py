"""Checks of call arguments: one helper per kind of check, shared by every public function.

Each check raises a typed error (:class:`~fastpuzzle.errors.InvalidOptionError` unless the caller
names the error its function documents) whose message says what was expected and quotes the
value, shortened by :func:`shown`. Public functions run them before any work, so that a bad
argument never surfaces as a plain ``ValueError`` or ``TypeError`` from inside a search, a batch's
worker or numpy.
"""

from __future__ import annotations

import difflib
import itertools
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, TypeGuard, overload

import numpy as np

from fastpuzzle.errors import FastPuzzleError, InvalidOptionError

__all__ = [
    "MAX_LISTED",
    "MAX_NAMES",
    "MAX_WEIGHT",
    "UNORDERED",
    "callback",
    "check_seed",
    "check_weight",
    "choice",
    "flag",
    "is_whole",
    "names",
    "optional_path",
    "ordered",
    "random_generator",
    "real",
    "rng_or_seed",
    "shown",
    "whole",
]

ErrorType = type[FastPuzzleError]

#: Iterables whose items are no sequence in order: bytes (their items are byte values), sets (no
#: order: the same call would give different results in different processes), mappings (their
#: keys), memoryviews (raw buffers).
UNORDERED = (bytes, bytearray, memoryview, set, frozenset, Mapping)


def did_you_mean(name: object, spellings: Iterable[tuple[str, str]]) -> str:
    """``"did you mean 'astar'? "`` when ``name`` is close to a spelling of
    ``(spelling, canonical name)`` pairs (case ignored), else ``""``: the lead of an unknown
    name's message before it lists the valid ones."""
    if not isinstance(name, str) or not name.strip():
        return ""
    table: dict[str, str] = {}
    for spelling, canonical in spellings:
        table.setdefault(spelling.lower(), canonical)
    close = difflib.get_close_matches(name.strip().lower(), list(table), n=3, cutoff=0.7)
    names = list(dict.fromkeys(table[spelling] for spelling in close))
    return f"did you mean {' or '.join(map(repr, names))}? " if names else ""


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, for a message; never raises.

    An int past Python's limit on digits (4,300 unless set) has no ``repr``: it is shown by its
    size, and anything else whose ``repr`` fails by its type.

    Examples
    --------
    >>> shown(10**5000)
    '<an integer of 16,610 bits>'
    >>> shown("x" * 100, limit=10)
    "'xxxxxx..."
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4096:
        return f"<an integer of {value.bit_length():,} bits>"
    if isinstance(value, (str, bytes)) and len(value) > limit:
        value = value[:limit]  # the repr of a string of 200 MB would take as much again
    try:
        text = repr(value)
    # Any exception: a message about a bad value must be built whatever its repr does.
    except Exception:
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_whole(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``value`` is an int or a numpy integer and not a bool: a float or a string that
    ``int()`` would take is a mistake, not a number."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low:,} to {high:,}"
    if low is not None:
        return f" of at least {low:,}"
    return ""


@overload
def whole(
    name: str,
    value: object,
    *,
    low: int | None = ...,
    high: int | None = ...,
    none: Literal[False] = ...,
    error: ErrorType = ...,
    why: str = ...,
) -> int: ...
@overload
def whole(
    name: str,
    value: object,
    *,
    low: int | None = ...,
    high: int | None = ...,
    none: Literal[True],
    error: ErrorType = ...,
    why: str = ...,
) -> int | None: ...
def whole(
    name: str,
    value: object,
    *,
    low: int | None = None,
    high: int | None = None,
    none: bool = False,
    error: ErrorType = InvalidOptionError,
    why: str = "",
) -> int | None:
    """``value`` as an int: a whole number from ``low`` to ``high`` (None when ``none`` allows);
    ``why`` says in the message where a bound comes from.

    Examples
    --------
    >>> whole("workers", 3, low=1)
    3
    >>> whole("workers", None, low=1, none=True) is None
    True
    """
    if value is None and none:
        return None
    if is_whole(value):
        number = int(value)
        if (low is None or number >= low) and (high is None or number <= high):
            return number
    either = " or None" if none else ""
    reason = f" ({why})" if why else ""
    raise error(
        f"expected {name} as a whole number{_range(low, high)}{reason}{either}, got {shown(value)}"
    )


#: The largest weight of ``wastar`` (and weighted IDA*): its bucket queue has a level per priority
#: ``den*g + num*h`` (a weight of 10**6 took 800 MB on a 3x3 board; 1,000 takes 2 MB).
MAX_WEIGHT = 1_000


def check_weight(weight: object) -> float | None:
    """``weight`` checked: None, or a number from 1 to :data:`MAX_WEIGHT`."""
    if weight is None:
        return None
    if (
        isinstance(weight, bool)
        or not isinstance(weight, (int, float))
        or not 1 <= weight <= MAX_WEIGHT
    ):
        raise InvalidOptionError(
            f"expected a weight from 1 to {MAX_WEIGHT:,} (past that, weighted A* is greedy "
            f"in all but name: use algorithm='greedy'), got {shown(weight)}"
        )
    return float(weight)


def check_seed(seed: object) -> int | None:
    """``seed`` checked: None, or a whole number (any, taken modulo 2**64)."""
    return whole("seed", seed, none=True)


def real(name: str, value: object, *, error: ErrorType = InvalidOptionError) -> float:
    """``value`` as a float: an int, a float or a numpy number, not a bool, not NaN."""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    ):
        try:
            number = float(value)
        except OverflowError:  # an int past the largest float is no time or weight either
            number = float("nan")
        if number == number:
            return number
    raise error(f"expected {name} as a number, got {shown(value)}")


def flag(name: str, value: object, *, error: ErrorType = InvalidOptionError) -> bool:
    """``value``, which must be True or False: ``None`` or ``"no"`` would read as a choice."""
    if isinstance(value, bool):
        return value
    raise error(f"expected {name}=True or {name}=False, got {shown(value)}")


def _either(options: tuple[str, ...]) -> str:
    quoted = [repr(option) for option in options]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def choice(
    name: str, value: object, options: tuple[str, ...], *, error: ErrorType = InvalidOptionError
) -> str:
    """``value``, which must be one of the strings ``options``.

    >>> choice("out_format", "csv", ("csv", "jsonl"))
    'csv'
    """
    # Only a str is compared: == on an array would compare each element.
    if isinstance(value, str) and value in options:
        return value
    raise error(f"expected {name}={_either(options)}, got {shown(value)}")


#: The most items read from an iterable of boards (or of moves) that is not a numpy array: a
#: list of ten million boards takes a few GB as Python objects, and an endless generator must
#: end in an error, not in the system's out-of-memory killer. A numpy array of packed boards
#: (8 bytes a board) or of rows of tiles is read as it is.
MAX_LISTED = 10_000_000


def ordered(
    what: str, value: object, *, error: ErrorType = InvalidOptionError, most: int | None = None
) -> list[Any]:
    """The items of ``value``, an iterable in a fixed order, as a list; ``what`` names what was
    expected in the message (``"a collection of boards"``). With ``most``, no more than
    ``most + 1`` items are read: more than ``most`` is refused (an endless iterator included).
    """
    if isinstance(value, UNORDERED):
        raise error(f"expected {what} in order, got a {type(value).__name__} {shown(value)}")
    # A 0-d array says it is iterable, and then refuses to be iterated.
    if not isinstance(value, Iterable) or (isinstance(value, np.ndarray) and value.ndim == 0):
        raise error(f"expected {what}, got {shown(value)}")
    if most is None:
        return list(value)
    items = list(itertools.islice(value, most + 1))
    if len(items) > most:
        raise error(f"expected {what} of at most {most:,} items, got more: {shown(value)}")
    return items


#: The most items read from an iterable of names (algorithms, heuristics, metrics): there are 11
#: algorithms and 18 heuristics, so a longer list is a mistake, and an endless generator must end
#: in an error, not fill the memory (it took 3.7 GB in 5 s).
MAX_NAMES = 1_000


def names(name: str, value: object) -> list[Any]:
    """A name, or an iterable of names (at most :data:`MAX_NAMES`), as a list (each item still
    to be resolved by name)."""
    if isinstance(value, str):
        return [value]
    return ordered(f"{name} as a name or a list of names", value, most=MAX_NAMES)


def callback(value: object, call: str) -> None:
    """Refuse a ``value`` that is neither None nor callable; ``call`` shows how it is called
    (``"progress(done, total)"``)."""
    if value is not None and not callable(value):
        raise InvalidOptionError(f"expected a callable {call} or None, got {shown(value)}")


def optional_path(
    name: str, value: object, *, error: ErrorType = InvalidOptionError
) -> Path | None:
    """``value`` as a Path (None stays None): a str or an ``os.PathLike``, not empty (``""``
    would name the current directory) and without a NUL character (no system takes one)."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        try:
            text = os.fspath(value)
        except TypeError:  # an os.PathLike whose __fspath__ fails
            text = None
        if isinstance(text, str) and text and "\0" not in text:
            return Path(text)
    raise error(
        f"expected {name} as a path (a non-empty str or os.PathLike) or None, got {shown(value)}"
    )


def random_generator(rng: object) -> np.random.Generator:
    """``numpy.random.default_rng(rng)``; what it cannot take is refused here, typed.

    A bool is refused too: ``rng=True`` is a mistake, not the seed 1.
    """
    if not isinstance(rng, (bool, np.bool_)):
        try:
            return np.random.default_rng(rng)  # type: ignore[arg-type]
        # numpy's own refusals of a seed it cannot use, nothing else: only rng is passed.
        except (TypeError, ValueError, OverflowError):
            pass
    raise InvalidOptionError(
        "expected rng as a seed (a non-negative integer), a numpy.random.Generator or None, "
        f"got {shown(rng)}"
    )


def rng_or_seed(rng: Any, seed: object) -> Any:
    """``rng``, or ``seed`` given in its place: every function that draws at random takes both
    names (``random_board(seed=7) == random_board(rng=7)``); both at once are refused."""
    if seed is None:
        return rng
    if rng is not None:
        raise InvalidOptionError(
            f"expected rng= or seed=, not both: got rng={shown(rng)} and seed={shown(seed)}"
        )
    if isinstance(seed, np.random.Generator):
        raise InvalidOptionError(
            f"expected seed as a non-negative integer (a Generator goes to rng=), got {shown(seed)}"
        )
    return seed


def dask_client(value: object) -> Any:
    """``client=``: None or something a Dask client does (duck-typed, so that ``distributed`` is
    imported only for a real client)."""
    if value is not None and not all(
        callable(getattr(value, name, None)) for name in ("submit", "cancel", "nthreads")
    ):
        raise InvalidOptionError(
            f"expected client=dask.distributed.Client(...) or None, got {shown(value)}"
        )
    return value
