"""Vectorised checks and relabelling of packed boards for the batch fast path.

Given a 1-D ``uint64`` array of packed boards, find in a few numpy passes which rows are valid
boards, which can reach the goal, their blank cells and their canonical relabelling — the work
:func:`fastpuzzle._problem.make_problem` does one board at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fastpuzzle._problem import canonical_labels
from fastpuzzle.board import Board

__all__ = ["Prepared", "prepare_packed"]


@dataclass(frozen=True)
class Prepared:
    """Packed rows checked and relabelled.

    Attributes
    ----------
    valid : numpy.ndarray
        Rows that are permutations of 0..n-1 (bool).
    solvable : numpy.ndarray
        Valid rows that can reach the goal (bool).
    canonical : numpy.ndarray
        Rows relabelled so the goal is canonical (uint64; meaningful where valid).
    blanks : numpy.ndarray
        Blank cell per row (int8; meaningful where valid).
    goal_blank : int
        The goal's blank cell.
    """

    valid: np.ndarray
    solvable: np.ndarray
    canonical: np.ndarray
    blanks: np.ndarray
    goal_blank: int


def prepare_packed(words: np.ndarray, goal: Board) -> Prepared:
    """Check and relabel packed boards of ``goal``'s shape towards ``goal``."""
    rows, cols = goal.shape
    n = rows * cols
    words = np.ascontiguousarray(words, dtype=np.uint64)
    shifts = (4 * np.arange(n, dtype=np.uint64))[None, :]
    cells = ((words[:, None] >> shifts) & np.uint64(15)).astype(np.int64)
    high = words >> np.uint64(4 * n) if n < 16 else np.zeros_like(words)
    valid = (np.sort(cells, axis=1) == np.arange(n)[None, :]).all(axis=1) & (high == 0)

    labels = np.array(canonical_labels(goal), dtype=np.int64)
    relabelled = np.where(valid[:, None], labels[np.minimum(cells, n - 1)], 0)
    canonical = (relabelled.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)
    blanks = np.argmin(np.where(valid[:, None], cells, 1), axis=1).astype(np.int8)

    # Solvable when the parity of the cell mapping equals the parity of the blank's displacement.
    # Canonical goal: tile t lives at cell t-1, shifted past the goal's blank cell.
    gap = goal.blank
    home = np.where(relabelled == 0, gap, relabelled - 1 + (relabelled - 1 >= gap))
    upper = np.triu_indices(n, 1)
    inversions = (home[:, upper[0]] > home[:, upper[1]]).sum(axis=1)
    b_row, b_col = np.divmod(blanks.astype(np.int64), cols)
    g_row, g_col = divmod(gap, cols)
    displacement = np.abs(b_row - g_row) + np.abs(b_col - g_col)
    solvable = valid & ((inversions & 1) == (displacement & 1))
    return Prepared(valid, solvable, canonical, blanks, gap)
