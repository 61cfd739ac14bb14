"""Times and sizes as people read them: the one formatter of every figure shown.

The command line, ``str()`` of results, :class:`~fastpuzzle.Comparison` tables, batch
summaries and the notebook displays all write times and bytes through these functions, so a
figure reads the same everywhere. The puzzle page's JavaScript follows the same rules:

Times (:func:`duration`):

1. The unit is the largest of ns, µs (U+00B5, in Latin-1 too), ms and s in which the value,
   rounded to three significant digits, is at least 1: 0.000045 s is ``45.0 µs``, and
   0.00099996 s rounds to 1.00 ms, so it is ``1.00 ms``, never ``1000 µs``.
2. Three significant digits: two decimals below 10 (``4.56 ms``), one below 100
   (``45.6 ms``), none from 100 (``456 ms``). From 1000 s up, whole seconds with thousands
   separators (``1,234 s``): no digit of the integer part is dropped.
3. A number and its unit are separated by one space. Zero is ``0 s``; a value that is not a
   finite number, or is negative, is ``-``.

Sizes (:func:`size`): the same rules with the units B, KiB, MiB, GiB, TiB (powers of 1024);
below 1 KiB, whole bytes (``512 B``).

Spreads (:func:`spread`): ``±`` then the spread as a percentage of the value it is around, one
decimal below 10 % (``±2.5%``), none from 10 % (``±12%``).
"""

from __future__ import annotations

import math

__all__ = ["duration", "size", "spread"]

_TIME_UNITS = (("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0))
_SIZE_UNITS = (("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40))


def _digits(value: float) -> str:
    """``value`` (at least 1 once rounded, below 1000) with three significant digits."""
    if value < 9.995:
        return f"{value:.2f}"
    if value < 99.95:
        return f"{value:.1f}"
    return f"{value:.0f}"


def _scaled(value: float, units: tuple[tuple[str, float], ...]) -> str:
    # The last unit whose scaled value, rounded to three significant digits, is at least 1.
    chosen, scale = units[0]
    for name, factor in units:
        if float(f"{value / factor:.3g}") >= 1:
            chosen, scale = name, factor
    return f"{_digits(value / scale)} {chosen}"


def duration(seconds: float) -> str:
    """``seconds`` in the unit that fits, with three significant digits.

    Examples
    --------
    >>> duration(0.000045), duration(0.0123), duration(2.5), duration(4321.0)
    ('45.0 µs', '12.3 ms', '2.50 s', '4,321 s')
    >>> duration(0.00099996), duration(0.0)
    ('1.00 ms', '0 s')
    """
    value = float(seconds)
    if not math.isfinite(value) or value < 0:
        return "-"
    if value == 0:
        return "0 s"
    if value >= 999.5:
        return f"{value:,.0f} s"
    return _scaled(value, _TIME_UNITS)


def size(num_bytes: float) -> str:
    """``num_bytes`` in B, KiB, MiB, GiB or TiB, with three significant digits.

    Examples
    --------
    >>> size(512), size(2048), size(197_825), size(5 << 30)
    ('512 B', '2.00 KiB', '193 KiB', '5.00 GiB')
    """
    value = float(num_bytes)
    if not math.isfinite(value) or value < 0:
        return "-"
    if value < 1023.5:
        return f"{value:.0f} B"
    if value >= 999.5 * (1 << 40):
        return f"{value / (1 << 40):,.0f} TiB"
    return _scaled(value, _SIZE_UNITS)


def spread(around: float, deviation: float) -> str:
    """``deviation`` as a percentage of ``around``, after ``±``; empty when ``around`` is 0.

    Examples
    --------
    >>> spread(0.002, 0.00005), spread(0.002, 0.0003)
    ('±2.5%', '±15%')
    """
    if not around or not math.isfinite(around) or not math.isfinite(deviation):
        return ""
    percent = 100 * abs(deviation) / abs(around)
    return f"±{percent:.1f}%" if percent < 9.95 else f"±{percent:.0f}%"
