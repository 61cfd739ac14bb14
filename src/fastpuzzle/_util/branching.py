"""The effective branching factor b* of a search (:attr:`SearchStats.ebf
<fastpuzzle.SearchStats.ebf>`)."""

from __future__ import annotations

import math

__all__ = ["effective_branching_factor", "uniform_tree_size"]

#: Bisection stops once the bracket is this narrow.
TOLERANCE = 1e-9


def uniform_tree_size(branching: float, depth: int) -> float:
    """``b + b^2 + ... + b^d``: the nodes below the root of a uniform tree (inf past floats)."""
    if branching == 1.0:
        return float(depth)
    if branching == 0.0:
        return 0.0
    try:
        # b (b^d - 1) / (b - 1), with expm1 and log1p: near b = 1 the plain form loses every
        # digit to cancellation.
        return branching * math.expm1(depth * math.log1p(branching - 1.0)) / (branching - 1.0)
    except OverflowError:
        return math.inf


def effective_branching_factor(generated: float, depth: int) -> float | None:
    """The b* solving ``N + 1 = 1 + b* + ... + b*^d`` for ``N = generated`` (a count, or a mean
    of counts), by bisection to :data:`TOLERANCE`; None where ``depth < 1`` or
    ``generated < 1``."""
    if depth < 1 or generated < 1:
        return None
    if depth == 1:
        return float(generated)
    # b^d <= N bounds the root from above, and the tree size grows with b.
    low, high = 0.0, math.pow(generated, 1.0 / depth) + TOLERANCE
    while high - low > TOLERANCE:
        middle = (low + high) / 2
        if uniform_tree_size(middle, depth) < generated:
            low = middle
        else:
            high = middle
    return (low + high) / 2
