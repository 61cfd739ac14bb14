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


def test_lines_that_read_two_ways_take_the_reading_that_gives_boards():
    # Four lines of four numbers are one 4x4 board or four 2x2 boards: only one reading holds
    # valid tiles (a 2x2 board has no tile 15; a 4x4 board no tile twice).
    (job,) = read_jobs(MATRIX_4X4)
    assert job.board == fp.Board(MATRIX_4X4, shape=(4, 4))
    two_by_two = "1 2 3 0\n0 1 2 3\n3 1 2 0\n1 0 2 3"
    assert [job.board.shape for job in read_jobs(two_by_two)] == [(2, 2)] * 4
    assert read_jobs(two_by_two) == read_jobs(two_by_two, fmt="lines")
    (job,) = read_jobs(MATRIX_4X4, shape=(4, 4))  # a shape decides too
    assert job.board.shape == (4, 4)


def test_input_that_reads_neither_way_is_refused_with_the_flag_to_add():
    broken = MATRIX_4X4.replace(" 0 ", " 14 ")  # tile 14 twice: no 4x4 board, no 2x2 boards
    with pytest.raises(fp.InvalidBoardError, match=r"ambiguous input: .*neither") as caught:
        read_jobs(broken)
    assert "--format rows" in str(caught.value) and "--format lines" in str(caught.value)
    (job,) = read_jobs(MATRIX_4X4, fmt="rows")
    assert job.board == fp.Board(MATRIX_4X4, shape=(4, 4))


def test_a_line_that_is_no_board_says_so():
    with pytest.raises(fp.InvalidBoardError, match="line 2 has 5 numbers"):
        read_jobs("1 2 3/4 5 6/7 8 _\n1 2 3 4 5")


LONG = "1" * 5000  # past Python's 4,300-digit limit on int()


def test_a_token_of_thousands_of_digits_is_refused_quoting_it_shortened():
    with pytest.raises(fp.InvalidBoardError, match=r"got a number of 5,000 digits: '1111") as info:
        fp.Board(f"{LONG} 2 3 _")
    assert len(str(info.value)) < 300
    with pytest.raises(fp.InvalidBoardError, match=r"got 'xxxx.*\.\.\. in") as info:
        fp.Board(f"{'x' * 5000} 2 3 _")  # any token is quoted shortened
    assert len(str(info.value)) < 300
    # In a stream of boards it costs only its own line, which is named.
    bad: list[tuple[int, str]] = []
    jobs = read_jobs(f"1 2 3/4 5 6/7 _ 8\n{LONG} 2 3 _\n1 2/3 _", bad_lines=bad)
    assert [job.board.shape for job in jobs] == [(3, 3), (2, 2)]
    assert [number for number, _ in bad] == [2] and "5,000 digits" in bad[0][1]
    # Boards after a count are read from the numbers, not the lines: the line is named too.
    with pytest.raises(fp.InvalidBoardError, match=r"^line 3: .*5,000 digits"):
        read_jobs(f"2\n1 2 3 _\n{LONG} 2 3 _", fmt="count")
    with pytest.raises(fp.InvalidBoardError, match=r"expected 1{16}\.\.\. boards after the count"):
        read_jobs(f"{LONG}\n1 2 3 _", fmt="count")


@pytest.mark.parametrize("head", ["//", "٣", "³", "-1", "2.0"])
def test_a_count_is_ascii_digits_on_the_first_line(head):
    # '//' raised IndexError; '٣' (an Arabic-Indic 3) was read as 3; '³' raised int()'s ValueError.
    boards = "1 2 3 _\n1 2 _ 3\n_ 1 2 3"
    with pytest.raises(fp.InvalidBoardError, match=r"expected a count of boards on the first line"):
        read_jobs(f"{head}\n{boards}", fmt="count")
    assert len(read_jobs(f"3\n{boards}", fmt="count")) == 3


def test_a_stream_of_one_line_boards_stays_a_stream_whatever_its_length():
    # 16 one-line 4x4 boards were refused as ambiguous, though no 16x16 board has tiles of 0..15
    # only; 9 one-line 3x3 boards likewise, and a 17th line left 16 to refuse.
    for shape, counts in (((4, 4), (16, 17, 32)), ((3, 3), (9, 18, 10)), ((2, 2), (4, 5))):
        boards = [fp.random_board(shape, rng=seed) for seed in range(max(counts))]
        for count in counts:
            text = "\n".join(" ".join(map(str, b.tiles)) for b in boards[:count])
            assert [job.board for job in read_jobs(text)] == boards[:count], (shape, count)
