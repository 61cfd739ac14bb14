"""The one formatter of times and sizes (fastpuzzle._util.units): the rules its docstring states,
which the puzzle page's JavaScript follows too.

Before: times were printed with a fixed number of decimals, so 23 of the 30 rows of the
source documents' comparison read ``0.0000`` seconds.
"""

from __future__ import annotations

import math

import pytest

from fastpuzzle._util.units import duration, size, spread


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0, "0 s"),
        (4.2e-10, "0.42 ns"),
        (1e-9, "1.00 ns"),
        (8.5e-7, "850 ns"),
        (9.996e-7, "1.00 µs"),  # rounds to 1000 ns: the next unit
        (1e-6, "1.00 µs"),
        (4.5e-5, "45.0 µs"),
        (1.234e-4, "123 µs"),
        (9.9996e-4, "1.00 ms"),
        (0.0052, "5.20 ms"),
        (0.0099996, "10.0 ms"),  # three significant digits, never four
        (0.0999, "99.9 ms"),
        (0.09996, "100 ms"),
        (0.9996, "1.00 s"),
        (2.5, "2.50 s"),
        (59.94, "59.9 s"),
        (999.4, "999 s"),
        (999.6, "1,000 s"),
        (4321.0, "4,321 s"),  # the integer part is never cut
        (math.inf, "-"),
        (math.nan, "-"),
        (-1.0, "-"),
    ],
)
def test_duration(seconds, text):
    assert duration(seconds) == text


@pytest.mark.parametrize(
    ("num_bytes", "text"),
    [
        (0, "0 B"),
        (8, "8 B"),
        (1023, "1023 B"),
        (1024, "1.00 KiB"),
        (197_825, "193 KiB"),
        (1023 * 1024 + 1000, "1.00 MiB"),
        (5 << 30, "5.00 GiB"),
        (3 << 40, "3.00 TiB"),
        (2000 << 40, "2,000 TiB"),
    ],
)
def test_size(num_bytes, text):
    assert size(num_bytes) == text


def test_every_time_has_three_significant_digits_and_a_known_unit():
    for exponent in range(-9, 2):  # 1 ns to 999 s (past that, whole seconds)
        for mantissa in (1.0, 1.5, 2.345, 4.999, 9.9949, 9.9951):
            value = mantissa * 10.0**exponent
            number, unit = duration(value).split()
            assert unit in ("ns", "µs", "ms", "s")
            digits = number.replace(".", "").lstrip("0")
            assert len(digits) == 3, (value, number)
            assert 1 <= float(number) < 1000
            scale = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
            assert float(number) * scale == pytest.approx(value, rel=6e-3)


def test_spread():
    assert spread(0.002, 0.00005) == "±2.5%"
    assert spread(0.002, 0.0003) == "±15%"
    assert spread(0.002, 0.0) == "±0.0%"
    assert spread(0.0, 0.001) == ""
