"""Data sets: vectorised uniform random boards, and boards labelled with exact distances."""

import sys
from collections import Counter

import numpy as np
import pytest

import fastpuzzle as fp
from tests.interrupts import latency_of
from tests.oracle import distances_3x3, distances_from


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (4, 4), (2, 5), (3, 4)])
def test_random_boards_are_valid_solvable_and_reproducible(shape):
    words = fp.random_boards(500, shape, rng=3)
    assert words.dtype == np.uint64 and words.shape == (500,)
    boards = [fp.Board.from_packed(int(w), shape=shape) for w in words]
    assert all(b.is_solvable() for b in boards)
    assert (fp.random_boards(500, shape, rng=3) == words).all()
    goal = fp.random_board(shape, rng=9)
    assert all(
        fp.Board.from_packed(int(w), shape=shape).is_solvable(goal)
        for w in fp.random_boards(200, shape, rng=4, goal=goal)
    )


def test_random_boards_are_uniform_on_2x3():
    reachable = distances_from((1, 2, 3, 4, 5, 0), 2, 3)
    words = fp.random_boards(36_000, (2, 3), rng=12)
    counts = Counter(fp.Board.from_packed(int(w), shape=(2, 3)).tiles for w in words)
    assert set(counts) == set(reachable)
    observed = np.array(list(counts.values()))
    assert float(((observed - 100) ** 2 / 100).sum()) < 452  # chi-square, 359 dof, p = 0.001


def test_labelled_lengths_first_moves_and_paths_match_bfs():
    dist = distances_3x3()
    data = fp.labelled(300, (3, 3), rng=5, path=True)
    boards = [fp.Board.from_packed(int(w), shape=(3, 3)) for w in data.boards]
    assert data.lengths.tolist() == [dist[b.tiles] for b in boards]
    for board, move, length in zip(boards, data.first_moves, data.lengths):
        if length:
            assert dist[board.move(str(move)).tiles] == length - 1
    states = [fp.Board.from_packed(int(w), shape=(3, 3)) for w in data.states]
    assert [dist[s.tiles] for s in states] == data.distances.tolist()
    assert len(states) == int((data.lengths + 1).sum())
    assert (np.bincount(data.origins) == data.lengths + 1).all()


def test_labelled_without_paths_and_too_big_shapes():
    data = fp.labelled(20, (2, 4), rng=1)
    assert data.states is None and len(data.lengths) == 20
    with pytest.raises(fp.BoardTooLargeError):
        fp.random_boards(3, (5, 5))


# -- many boards: in blocks -------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 999, 1000, 4321])
def test_boards_drawn_in_blocks_are_those_of_one_draw(monkeypatch, n):
    from fastpuzzle import datasets

    monkeypatch.setattr(datasets, "_BLOCK", 1 << 30)
    whole = datasets.random_boards(n, (3, 4), rng=8)
    monkeypatch.setattr(datasets, "_BLOCK", 1000)
    assert datasets.random_boards(n, (3, 4), rng=8).tolist() == whole.tolist()


def test_memory_is_the_boards_and_at_most_16_bytes_a_board_more():
    # Before: 2.6 kB a board at once on 4x4 (773 MB here), then a numpy block of 16,384 boards
    # (42 MB, 140 bytes a board here); now the compiled shuffle writes into the result only.
    import gc
    import tracemalloc

    n = 300_000
    gc.collect()
    tracemalloc.start()
    try:
        boards = fp.random_boards(n, (4, 4), rng=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(boards) == n
    assert peak - 8 * n <= 16 * n, peak


def test_ctrl_c_is_honoured_between_blocks(monkeypatch):
    # A Ctrl-C that comes while a block is drawn stops the draw before the next block. Before,
    # one numpy call drew every board, and the signal waited for it (15.4 s for 10**8 boards).
    import _thread

    from fastpuzzle import datasets

    seen: list[int] = []
    real = datasets.random_packed

    def interrupted(out, *args):
        seen.append(len(out))
        if len(seen) == 1:
            _thread.interrupt_main()  # as if Ctrl-C came now; Python raises it soon after
        return real(out, *args)

    monkeypatch.setattr(datasets, "random_packed", interrupted)
    n = 4 * datasets._BLOCK
    with pytest.raises(KeyboardInterrupt):
        fp.random_boards(n, (3, 3), rng=1)
    assert 0 < sum(seen) <= datasets._BLOCK < n, seen


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_hundred_million_boards_promptly():
    # The case: 15.4 s from Ctrl-C to the prompt, and 93 GB. Now a block (a few ms) at
    # most; the bound leaves room for a loaded machine.
    latency = latency_of(0.3, lambda: fp.random_boards(10**8, (4, 4), rng=1), "draw")
    assert latency < 3.0, latency
