"""Random boards and scrambles: solvable, reproducible, uniform; a long scramble in bounded
memory."""

import tracemalloc
from collections import Counter

import numpy as np
import pytest

import fastpuzzle as fp
from tests.oracle import distances_from


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (4, 4), (2, 5), (4, 3), (2, 8)])
def test_random_board_is_solvable_and_reproducible(shape):
    boards = [fp.random_board(shape, rng=seed) for seed in range(50)]
    assert all(b.is_solvable() and b.shape == shape for b in boards)
    assert boards == [fp.random_board(shape, rng=seed) for seed in range(50)]
    # A 2x2 has only 12 solvable boards; larger shapes should rarely repeat.
    assert len(set(boards)) == 12 if shape == (2, 2) else len(set(boards)) > 40
    generator = np.random.default_rng(5)
    assert fp.random_board(shape, rng=generator) != fp.random_board(shape, rng=generator)


def test_random_board_respects_any_goal():
    goal = fp.Board("3 _ 1/8 2 4/6 7 5")
    for seed in range(30):
        assert fp.random_board((3, 3), rng=seed, goal=goal).is_solvable(goal)


def test_random_board_is_uniform_on_2x3():
    # 360 solvable 2x3 boards; 36,000 draws: each should appear about 100 times.
    reachable = distances_from((1, 2, 3, 4, 5, 0), 2, 3)
    rng = np.random.default_rng(11)
    counts = Counter(fp.random_board((2, 3), rng=rng).tiles for _ in range(36000))
    assert set(counts) == set(reachable)
    observed = np.array(list(counts.values()))
    chi2 = float(((observed - 100) ** 2 / 100).sum())
    # 359 degrees of freedom: the 99.9th percentile is about 452.
    assert chi2 < 452


def test_scramble_is_a_reproducible_walk_without_reversals():
    goal = fp.Board.goal((4, 4))
    for seed in range(20):
        board = fp.scramble(goal, 30, rng=seed)
        assert board == fp.scramble(goal, 30, rng=seed)
        assert board.is_solvable()
    # Without immediate reversals, a 2-move walk never returns to the start.
    assert all(fp.scramble(goal, 2, rng=seed) != goal for seed in range(50))
    # And an odd number of moves always changes the blank's parity cell colour.
    for seed in range(20):
        board = fp.scramble(goal, 7, rng=seed)
        r, c = board.blank_position
        assert (r + c) % 2 != (3 + 3) % 2


def test_scramble_reaches_distance_at_most_its_length():
    dist = distances_from((1, 2, 3, 4, 5, 6, 7, 8, 0), 3, 3)
    for seed in range(100):
        board = fp.scramble("1 2 3/4 5 6/7 8 _", 12, rng=seed)
        assert dist[board.tiles] <= 12 and dist[board.tiles] % 2 == 0


def test_scramble_rejects_bad_counts():
    # A count is an option, as random_boards' n is (issue 43: InvalidBoardError before).
    for bad in (-1, 2.5, "3", True):
        with pytest.raises(fp.InvalidOptionError, match="expected moves as a whole number"):
            fp.scramble(fp.Board.goal((3, 3)), bad)  # type: ignore[arg-type]
    assert fp.scramble(fp.Board.goal((3, 3)), 0) == fp.Board.goal((3, 3))


# -----------------------------------------------------------------------------------------------
# Arguments checked up front, and inputs read within bounds (issue 37, items 5 and 6): ``--shape``
# before any line is read, ``solve_many(out=...)`` before any board is solved, ``scramble`` in
# bounded memory, and a batch file without line ends refused.


def test_a_long_scramble_takes_bounded_memory() -> None:
    # It held about 4.4 bytes a move: 10**9 moves ran out of memory (an untyped MemoryError).
    moves = 20_000_000
    tracemalloc.start()
    try:
        walked = fp.scramble(fp.Board.goal((4, 4)), moves, rng=5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, peak
    assert walked.is_solvable()


def test_a_scramble_in_chunks_is_the_walk_drawn_in_one_piece() -> None:
    from fastpuzzle import _walk
    from fastpuzzle._core import _board

    start, count, chunk = fp.Board.goal((4, 4)), 3 * 2**20 + 7, 1 << 20
    generator = np.random.default_rng(5)
    codes = np.empty(count, dtype=np.uint8)
    blank, last = start.blank, -1
    for first in range(0, count, chunk):
        part = codes[first : first + chunk]
        draws = generator.integers(0, 2**64, size=len(part), dtype=np.uint64, endpoint=False)
        blank, last = _board.random_walk_codes(4, 4, blank, draws, part, last)
    whole = start.apply(codes.tobytes().translate(_walk._LETTERS).decode("ascii"))
    assert fp.scramble(start, count, rng=5) == whole
