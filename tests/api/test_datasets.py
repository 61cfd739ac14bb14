"""Data sets: vectorised uniform random boards, and boards labelled with exact distances."""

import sys
from collections import Counter

import numpy as np
import pytest

import fastpuzzle as fp
from tests.interrupts import ctrl_c, latency_of
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
    with ctrl_c(), pytest.raises(KeyboardInterrupt):  # interrupt_main does nothing if ignored
        fp.random_boards(n, (3, 3), rng=1)
    assert 0 < sum(seen) <= datasets._BLOCK < n, seen


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_hundred_million_boards_promptly():
    # The case: 15.4 s from Ctrl-C to the prompt, and 93 GB. Now a block (a few ms) at
    # most; the bound leaves room for a loaded machine.
    latency = latency_of(0.3, lambda: fp.random_boards(10**8, (4, 4), rng=1), "draw")
    assert latency < 3.0, latency


# -- data sets without leaks: no repeats, every board, a split by board -----------------------


def test_unique_boards_do_not_repeat():
    # Before: drawn with replacement only; 100,000 draws of 3x3 held 76,854 distinct boards.
    boards = fp.random_boards(100_000, (3, 3), rng=1, unique=True)
    assert len(boards) == len(np.unique(boards)) == 100_000
    assert (fp.random_boards(100_000, (3, 3), rng=1, unique=True) == boards).all()
    assert all(fp.Board.from_packed(int(w), (3, 3)).is_solvable() for w in boards[:2000])
    # The whole space, in random order; past it, an error that says how many there are.
    every = fp.random_boards(fp.space_size((3, 3)), (3, 3), rng=2, unique=True)
    assert sorted(every.tolist()) == fp.all_boards((3, 3)).tolist()
    assert not (np.diff(every.astype(np.int64)) > 0).all()
    with pytest.raises(fp.InvalidOptionError, match="at most 181,440 with unique=True"):
        fp.random_boards(181_441, (3, 3), unique=True)
    big = fp.random_boards(50_000, (4, 4), rng=3, unique=True, goal=fp.random_board((4, 4), rng=4))
    assert len(np.unique(big)) == 50_000
    with pytest.raises(fp.InvalidOptionError, match="unique"):
        fp.random_boards(3, (3, 3), unique=1)


def test_unique_draws_are_uniform_on_2x3():
    # Sampling without replacement: every board is in a draw of 120 of the 360 equally often.
    counts = Counter()
    for seed in range(300):
        counts.update(fp.random_boards(120, (2, 3), rng=seed, unique=True).tolist())
    observed = np.array([counts[w] for w in fp.all_boards((2, 3)).tolist()])
    assert observed.sum() == 36_000 and (observed > 0).all()
    assert float(((observed - 100) ** 2 / 100).sum()) < 452  # chi-square, 359 dof, p = 0.001


@pytest.mark.heavy
@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 3), (2, 4)])
def test_all_boards_are_the_boards_bfs_reaches(shape):
    for goal in (fp.Board.goal(shape), fp.random_board(shape, rng=7)):
        boards = fp.all_boards(shape, goal=goal)
        reached = distances_from(goal.tiles, *shape)
        assert len(boards) == len(reached) == fp.space_size(shape)
        assert (np.diff(boards.astype(np.int64)) > 0).all()  # sorted, no repeat
        assert {fp.Board.from_packed(int(w), shape).tiles for w in boards} == set(reached)


def test_all_boards_refuses_spaces_that_do_not_fit():
    assert len(fp.all_boards((2, 5))) == 1_814_400
    with pytest.raises(fp.BoardTooLargeError, match="239,500,800 boards"):
        fp.all_boards((3, 4))


def test_split_mask_keeps_every_board_on_one_side():
    # Repeats (drawn with replacement) and the states of paths: a row split puts a board on
    # both sides; the board's hash does not.
    data = fp.labelled(3000, (3, 3), rng=1, path=True)
    test = fp.split_mask(data.boards, 0.25)
    states = fp.split_mask(data.states, 0.25)
    train_boards = set(data.boards[~test].tolist()) | set(data.states[~states].tolist())
    test_boards = set(data.boards[test].tolist()) | set(data.states[states].tolist())
    assert not train_boards & test_boards
    share = fp.split_mask(fp.all_boards((3, 3)), 0.25).mean()
    assert 0.24 < share < 0.26
    assert (fp.split_mask(data.boards, 0.25, seed=1) != test).any()
    assert not fp.split_mask(data.boards, 0.0).any() and fp.split_mask(data.boards, 1.0).all()
    with pytest.raises(fp.InvalidOptionError, match="test_size"):
        fp.split_mask(data.boards, 1.5)
    with pytest.raises(fp.InvalidOptionError, match="uint64"):
        fp.split_mask([1, 2, 3], 0.5)


def _expected_masks(boards, lengths, distance, shape):
    out = []
    for word, length in zip(boards.tolist(), lengths.tolist()):
        board = fp.Board.from_packed(word, shape)
        out.append(
            [int(m in board.moves() and distance(board.move(m)) == length - 1) for m in "UDLR"]
        )
    return out


def test_every_optimal_first_move_is_marked():
    truth = distances_3x3()
    data = fp.labelled(2000, (3, 3), rng=4)
    assert data.optimal_mask.dtype == np.uint8 and data.optimal_mask.shape == (2000, 4)
    assert data.optimal_mask.tolist() == _expected_masks(
        data.boards, data.lengths, lambda b: truth[b.tiles], (3, 3)
    )
    several = (data.optimal_mask.sum(axis=1) > 1).sum()
    assert several > 100  # many boards have more than one optimal first move
    goal = fp.Board("1 2 3 4/5 6 _ 7")
    rect = distances_from(goal.tiles, 2, 4)
    data = fp.labelled(300, (2, 4), rng=5, goal=goal)
    expected = _expected_masks(data.boards, data.lengths, lambda b: rect[b.tiles], (2, 4))
    assert data.optimal_mask.tolist() == expected


def test_optimal_first_moves_of_4x4_are_those_of_bfs():
    # Past 9 cells each neighbour is searched (with a depth bound); near the goal BFS says.
    boards = np.array(
        [fp.scramble(fp.Board.goal((4, 4)), 12, rng=s).packed for s in range(8)], dtype=np.uint64
    )
    from fastpuzzle import datasets

    result = fp.solve_many(boards, shape=(4, 4))
    mask = datasets._optimal_mask(boards, result, fp.Board.goal((4, 4)), None, None)
    expected = _expected_masks(
        boards, result.lengths, lambda b: len(fp.solve(b, algorithm="bfs")), (4, 4)
    )
    assert mask.tolist() == expected


def test_labelled_data_show_as_a_frame_and_a_short_repr():
    # Before (issue 47, item 8): Labelled had no to_pandas() and no HTML view, and its repr
    # printed every array.
    pd = pytest.importorskip("pandas")
    data = fp.labelled(40, (3, 3), rng=6, path=True)
    frame = data.to_pandas()
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(data) == 40
    assert list(frame.columns) == [
        "board", "packed", "length", "first_move",
        "optimal_U", "optimal_D", "optimal_L", "optimal_R",
    ]  # fmt: skip
    assert frame["board"].tolist() == [
        fp.Board.from_packed(int(w), (3, 3)).to_string() for w in data.boards
    ]
    assert (frame["length"].to_numpy() == data.lengths).all()
    states = data.to_pandas(states=True)
    assert len(states) == len(data.states) and list(states.columns[2:]) == ["distance", "origin"]
    assert repr(data).startswith("<Labelled: 40 boards of 3x3, lengths ")
    page = data._repr_html_()
    assert "<caption>Labelled</caption>" in page and frame["board"][0] in page
    with pytest.raises(fp.InvalidOptionError, match="path=True"):
        fp.labelled(5, (2, 3), rng=1).to_pandas(states=True)


def test_board_texts_of_packed_words_are_those_of_board():
    from fastpuzzle.datasets import _texts

    words = fp.random_boards(200, (4, 4), rng=8)
    assert _texts(words, (4, 4)) == [
        fp.Board.from_packed(int(w), (4, 4)).to_string() for w in words
    ]


def test_every_drawing_function_takes_seed_and_rng(tmp_path):
    # Issue 58, item 3: seed= was taken by random_board, scramble and compare only, rng= by
    # random_boards, labelled and write_labelled only.
    assert np.array_equal(fp.random_boards(5, (3, 3), seed=4), fp.random_boards(5, (3, 3), rng=4))
    by_seed = fp.labelled(5, (3, 3), seed=4)
    assert np.array_equal(by_seed.boards, fp.labelled(5, (3, 3), rng=4).boards)
    pq = pytest.importorskip("pyarrow.parquet")
    paths = [tmp_path / "seed.parquet", tmp_path / "rng.parquet"]
    fp.write_labelled(paths[0], 5, (3, 3), seed=4)
    fp.write_labelled(paths[1], 5, (3, 3), rng=4)
    assert pq.read_table(paths[0]).equals(pq.read_table(paths[1]))
    board = "5 2 3/4 1 8/_ 7 6"
    runs = [fp.compare([board], ["random"], min_seconds=0, **option) for option in
            ({"seed": 3}, {"rng": 3})]  # fmt: skip
    assert [r.rows[0].expanded for r in runs] == [runs[0].rows[0].expanded] * 2
    with pytest.raises(fp.errors.InvalidOptionError, match="not both"):
        fp.random_boards(5, (3, 3), rng=1, seed=1)


def test_a_shape_too_large_for_packed_boards_names_random_board():
    with pytest.raises(fp.errors.BoardTooLargeError, match=r"random_board\(\(5, 5\)\)"):
        fp.random_boards(2, (5, 5))
    assert fp.random_board((5, 5), seed=1).shape == (5, 5)
