"""The compiled core spells the moves as the Python layer does (one home each: ``_packed.pxd``
and :data:`fastpuzzle.moves.MOVES`)."""

import pytest

from fastpuzzle._core import _board, _constructive, _idastar, _search, _wide_pdb
from fastpuzzle.moves import MOVES


@pytest.mark.parametrize("module", [_board, _constructive, _idastar, _search, _wide_pdb])
def test_every_kernel_names_the_codes_as_fastpuzzle_moves(module: object) -> None:
    assert module.DIRECTION_LETTERS == MOVES  # type: ignore[attr-defined]


def test_letters_become_codes_and_back() -> None:
    # Letters to codes and back through the core's tables: an inverse pair is two codes d, d ^ 1.
    assert _constructive.cancel_inverse_pairs("UUDLRL") == "UL"
    assert _constructive.cancel_inverse_pairs("UULLDR") == "UULLDR"
