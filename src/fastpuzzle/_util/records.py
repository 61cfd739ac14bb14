"""Frozen records built without their ``__init__``: the one fast constructor of result records.

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__``; every search
builds four records (its problem, statistics, solution and result), which on a short search was a
tenth of its time. Filling the instance dict directly gives an equal object.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["record"]

_Record = TypeVar("_Record")


def record(cls: type[_Record], **fields: Any) -> _Record:
    """A frozen dataclass of ``fields`` (every field named), built without its ``__init__``.

    Only for dataclasses without a ``__post_init__`` (it would not run): the records of
    :mod:`fastpuzzle.results` and :class:`fastpuzzle._problem.Problem`.
    """
    built = object.__new__(cls)
    built.__dict__.update(fields)
    return built
