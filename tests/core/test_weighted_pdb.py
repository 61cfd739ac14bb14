"""Weighted IDA* on the pattern-database kernel past 16 cells (``_wide_pdb.idastar(weight=)``):
answers at most ``weight`` times optimal, and ``weight=1`` the unweighted search unchanged.

Optimal lengths come from outside the kernel: linear-conflict IDA* (``_wide_idastar``) on short
scrambles, and the published optima of Korf's and DeepCubeA's 5x5 boards.
"""

from __future__ import annotations

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from tests import instances
from tests.pdbcache import search_5x5, small_5x5_compound, small_5x5_database, wide_pdb_search

SOLVED = 0


@pytest.fixture(scope="module")
def small_5x5(tmp_path_factory: pytest.TempPathFactory) -> pdb.Database:
    return small_5x5_database(tmp_path_factory.mktemp("weighted5x5"))


def _scrambles() -> list[fp.Board]:
    return [fp.scramble(fp.Board.goal((5, 5)), 40, rng=200 + seed) for seed in range(6)]


@pytest.mark.parametrize("weight", [1.2, 1.5, 2.0, 3.0])
def test_weighted_answers_are_within_the_weight_of_the_optimum_on_scrambles(small_5x5, weight):
    for board in _scrambles():
        optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
        core = wide_pdb_search(small_5x5, board, weight=weight)
        assert core.status == SOLVED
        assert board.apply(core.moves) == fp.Board.goal((5, 5))
        assert optimum <= len(core.moves) <= weight * optimum


@pytest.mark.parametrize("weight", [2.0, 3.0])
def test_weighted_answers_on_published_5x5_optima(small_5x5, weight):
    boards = [(i.tiles, i.optimal_length) for i in instances.korf24()]
    boards += [(i.tiles, i.optimal_length) for i in instances.deepcubea(5)[:6]]
    solved = 0
    for tiles, optimum in boards:
        board = fp.Board(tiles, shape=(5, 5))
        core = wide_pdb_search(small_5x5, board, weight=weight, node_limit=2_000_000)
        if core.status == SOLVED:
            solved += 1
            assert board.apply(core.moves) == fp.Board.goal((5, 5))
            assert optimum <= len(core.moves) <= weight * optimum
    # Eight 3-tile groups are weak, but these weights answer most of these boards at once.
    assert solved >= len(boards) // 2


def test_weight_one_is_the_unweighted_search(small_5x5):
    for board in _scrambles():
        plain = wide_pdb_search(small_5x5, board)
        one = wide_pdb_search(small_5x5, board, weight=1.0)
        assert (one.status, one.moves, one.expanded, one.generated) == (
            plain.status,
            plain.moves,
            plain.expanded,
            plain.generated,
        )


def test_larger_weights_expand_fewer_nodes_on_a_long_board(small_5x5):
    board = fp.Board(instances.deepcubea(5)[0].tiles, shape=(5, 5))
    heavy = wide_pdb_search(small_5x5, board, weight=3.0)
    light = wide_pdb_search(small_5x5, board, weight=1.5, node_limit=heavy.expanded * 50)
    assert heavy.status == SOLVED
    assert light.status != SOLVED or light.expanded > heavy.expanded


def test_weighted_search_refuses_what_it_cannot_do(small_5x5):
    board = _scrambles()[0]
    with pytest.raises(ValueError, match="weight from 1 to 1000"):
        wide_pdb_search(small_5x5, board, weight=0.5)
    with pytest.raises(ValueError, match="weight from 1 to 1000"):
        wide_pdb_search(small_5x5, board, weight=float("nan"))
    for options in ({"workers": 2}, {"min_bound": 10}, {"frontier": 1000}, {"trace": []}):
        with pytest.raises(ValueError, match="one thread"):
            wide_pdb_search(small_5x5, board, weight=1.5, **options)


@pytest.mark.heavy
def test_weighted_search_reads_one_partition_only(tmp_path):
    compound = small_5x5_compound(tmp_path)
    tiles = tuple(int(t) for t in np.asarray(_scrambles()[0]).ravel())
    assert search_5x5(tiles, compound.loaded()).status == SOLVED
    with pytest.raises(ValueError, match="one partition"):
        search_5x5(tiles, compound.loaded(), weight=1.5)


def test_a_large_weight_answers_or_says_it_is_too_large(small_5x5):
    # The weighted f caps the path: a weight whose start value passes it must say so rather
    # than stop at once with no answer, and weights of 16 and 25 (paths of 1,100 and 1,760
    # moves here) must answer.
    board = fp.random_board((5, 5), rng=11)
    for weight in (16.0, 25.0):
        core = wide_pdb_search(small_5x5, board, weight=weight, node_limit=2_000_000)
        assert core.status == SOLVED
        assert board.apply(core.moves) == fp.Board.goal((5, 5))
    with pytest.raises(ValueError, match="too large for this board"):
        wide_pdb_search(small_5x5, board, weight=1000.0)
