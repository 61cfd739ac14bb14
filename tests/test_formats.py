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


def test_start_line_and_goal_line():
    (job,) = read_jobs(
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    )
    assert job.board == fp.Board(MATRIX_4X4)
    assert job.goal == fp.Board.goal((4, 4), blank="first")


def test_single_board_in_any_layout():
    for text in ("1 2 3/4 5 6/7 _ 8", "1 2 3\n4 5 6\n7 0 8", "1,2,3,4,5,6,7,0,8"):
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
