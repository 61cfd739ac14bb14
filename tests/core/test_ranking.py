"""The compact rank that indexes pattern-database tables, against the plain definition."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastpuzzle._core._pdb import placement_rank
from tests.oracle import compact_rank


@st.composite
def placements(draw: st.DrawFn) -> tuple[tuple[int, ...], int]:
    """Distinct cells of a board of 2 to 25 cells, as many as fit 64 bits packed."""
    n = draw(st.integers(2, 25))
    most = min(n, 16 if n <= 16 else 12)
    cells = draw(st.permutations(range(n)))[: draw(st.integers(1, most))]
    return tuple(cells), n


@given(placements())
def test_rank_matches_the_definition(case: tuple[tuple[int, ...], int]) -> None:
    cells, n = case
    assert placement_rank(cells, n) == compact_rank(cells, n)


@pytest.mark.parametrize("k", [1, 2, 7, 8, 16])
def test_every_rank_of_the_last_cells_on_4x4(k: int) -> None:
    # The highest cells (15 above all) are the edge of the 4-bit counters.
    cells = tuple(range(15, 15 - k, -1))
    assert placement_rank(cells, 16) == compact_rank(cells, 16)
    assert placement_rank(cells[::-1], 16) == compact_rank(cells[::-1], 16)


def test_ranks_are_dense_and_distinct_for_three_of_five() -> None:
    from itertools import permutations

    ranks = sorted(placement_rank(p, 5) for p in permutations(range(5), 3))
    assert ranks == list(range(5 * 4 * 3))


@pytest.mark.parametrize("cells", [(0, 0), (16,), (-1,), ()])
def test_bad_placements_are_refused(cells: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        placement_rank(cells, 16)
