"""Input layouts of the source documents."""

import pytest

import fastpuzzle as fp
from fastpuzzle.formats import read_jobs

MATRIX_4X4 = "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n"


def test_count_followed_by_matrices():
    jobs = read_jobs("2\n" + MATRIX_4X4 + "\n" + "0 1 3 4\n5 2 6 8\n9 10 7 11\n13 14 15 12\n")
    assert [j.board.to_string() for j in jobs] == [
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15",
        "_ 1 3 4/5 2 6 8/9 10 7 11/13 14 15 12",
    ]
    assert all(j.goal is None for j in jobs)


def test_start_line_and_goal_line_only_when_asked_for():
    text = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    (job,) = read_jobs(text, fmt="pair")
    assert job.board == fp.Board(MATRIX_4X4, shape=(4, 4))
    assert job.goal == fp.Board.goal((4, 4), blank="first")
    # Without the flag two lines are two boards, never a board and its goal.
    jobs = read_jobs(text)
    assert [j.goal for j in jobs] == [None, None]
    assert jobs[1].board == fp.Board.goal((4, 4), blank="first")


def test_single_board_in_any_layout():
    for text in (
        "1 2 3/4 5 6/7 _ 8",
        "1 2 3\n4 5 6\n7 0 8",
        "1,2,3,4,5,6,7,0,8",
        "1 2 3 4 5 6 7 0 8",
    ):
        (job,) = read_jobs(text)
        assert job.board == fp.Board("1 2 3/4 5 6/7 _ 8") and job.goal is None


def test_one_board_per_line_and_rectangles():
    jobs = read_jobs("1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/_ 7 8\n1 2 3/4 5 6/7 8 _")
    assert len(jobs) == 3
    (job,) = read_jobs("1 2 3 4 5 6 7 _", shape=(2, 4))
    assert job.board.shape == (2, 4)
    assert len(read_jobs("2\n1 2 3 4\n5 6 7 _\n_ 1 2 3\n4 5 6 7", shape=(2, 4))) == 2


def test_explicit_formats_and_errors():
    with pytest.raises(fp.InvalidBoardError, match="expected 3 boards after the count"):
        read_jobs("3\n" + MATRIX_4X4, fmt="count")
    with pytest.raises(fp.InvalidBoardError, match="no numbers"):
        read_jobs("  \n")
    with pytest.raises(fp.InvalidBoardError):
        read_jobs("1 2 3 4 5", fmt="pair")
    with pytest.raises(fp.InvalidBoardError):
        read_jobs("1 2 3 4 5")


def test_a_stream_of_boards_stays_a_stream():
    # Printed by `fastpuzzle random`: with '/' or as flat lines, never merged into one board.
    boards = [fp.random_board((4, 4), rng=seed) for seed in range(4)]
    for text in (
        "\n".join(b.to_string() for b in boards),
        "\n".join(" ".join(map(str, b.tiles)) for b in boards),
    ):
        assert [job.board for job in read_jobs(text)] == boards
    three = [fp.random_board((3, 3), rng=seed) for seed in range(4)]
    text = "\n".join(" ".join(map(str, b.tiles)) for b in three)  # was read as one 6x6 board
    assert [job.board for job in read_jobs(text)] == three


def test_boards_written_as_rows_follow_each_other():
    text = "1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n0 7 8\n"
    assert [job.board.to_string() for job in read_jobs(text)] == [
        "1 2 3/4 5 6/7 _ 8",
        "1 2 3/4 5 6/_ 7 8",
    ]


def test_input_that_reads_two_ways_is_refused_with_the_flag_to_add():
    with pytest.raises(fp.InvalidBoardError, match="--format rows") as caught:
        read_jobs(MATRIX_4X4)
    assert "--format lines" in str(caught.value)
    (job,) = read_jobs(MATRIX_4X4, fmt="rows")
    assert job.board == fp.Board(MATRIX_4X4, shape=(4, 4))
    two_by_two = "1 2 3 0\n0 1 2 3\n3 1 2 0\n1 0 2 3"
    with pytest.raises(fp.InvalidBoardError, match="ambiguous"):
        read_jobs(two_by_two)
    assert [job.board.shape for job in read_jobs(two_by_two, fmt="lines")] == [(2, 2)] * 4
    (job,) = read_jobs(MATRIX_4X4, shape=(4, 4))  # a shape decides too
    assert job.board.shape == (4, 4)


def test_a_line_that_is_no_board_says_so():
    with pytest.raises(fp.InvalidBoardError, match="line 2 has 5 numbers"):
        read_jobs("1 2 3/4 5 6/7 8 _\n1 2 3 4 5")
