"""SearchStats.ebf: the effective branching factor b* of AIMA (N + 1 = 1 + b* + ... + b*^d)."""

from __future__ import annotations

import math

import pytest

import fastpuzzle as fp


def _tree(branching: float, depth: int) -> float:
    """b + b^2 + ... + b^d summed term by term: no closed form, nothing of the library's."""
    total, term = 0.0, 1.0
    for _ in range(depth):
        term *= branching
        total += term
        if total == math.inf:
            break
    return total


def _stats(generated: int, depth: int) -> fp.SearchStats:
    return fp.SearchStats(expanded=generated, generated=generated, depth=depth)


def test_aima_example_52_nodes_at_depth_5_give_1_92():
    assert round(_stats(52, 5).ebf, 2) == 1.92


@pytest.mark.parametrize("generated", [1, 2, 7, 1000, 10**12])
def test_depth_one_gives_the_node_count(generated):
    assert _stats(generated, 1).ebf == generated


@pytest.mark.parametrize(("generated", "expected"), [(6, 2.0), (12, 3.0), (2, 1.0)])
def test_depth_two_solves_the_quadratic(generated, expected):
    # b + b^2 = N
    assert _stats(generated, 2).ebf == pytest.approx(expected, abs=1e-8)


@pytest.mark.parametrize(("generated", "depth"), [(3, 3), (40, 31), (30, 60), (10**15, 4)])
def test_root_to_1e_9(generated, depth):
    ebf = _stats(generated, depth).ebf
    assert _tree(ebf - 2e-9, depth) < generated < _tree(ebf + 2e-9, depth)


@pytest.mark.parametrize(("generated", "depth"), [(0, 5), (10, 0), (10, -1), (0, 0)])
def test_undefined_without_depth_or_nodes(generated, depth):
    assert _stats(generated, depth).ebf is None


def test_a_very_deep_solution_does_not_overflow():
    # A random walk's thousands of moves over few nodes: b* just below 1.
    ebf = _stats(100_000, 200_000).ebf
    assert 0.5 < ebf < 1
    assert _tree(ebf * 0.99, 200_000) < 100_000 < _tree(ebf * 1.01, 200_000)


@pytest.mark.parametrize("algorithm", sorted(fp.ALGORITHMS))
def test_every_algorithm_within_1_percent_of_its_own_counts(algorithm):
    seed = {"seed": 1} if algorithm == "random" else {}
    result = fp.search("4 1 3/7 2 6/_ 5 8", algorithm=algorithm, **seed)
    assert result.status is fp.Status.SOLVED
    stats = result.stats
    ebf = stats.ebf
    assert ebf is not None and stats.depth == len(result.solution)
    assert _tree(ebf * 0.99, stats.depth) < stats.generated < _tree(ebf * 1.01, stats.depth)


def test_the_start_at_the_goal_has_none():
    assert fp.search("1 2 3/4 5 6/7 8 _", algorithm="astar").stats.ebf is None
