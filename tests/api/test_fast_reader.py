"""The compiled reader of board lines (formats.read_packed) against read_jobs, the reader it
speeds up: the same boards, the same bad lines and messages, or None (then read_jobs reads)."""

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import example, given, settings

import fastpuzzle as fp
from fastpuzzle.formats import read_jobs, read_packed


def _slow(text, shape, fmt, collect):
    """What read_jobs gives: ('ok', packed words, bad lines) or ('error', message)."""
    bad = [] if collect else None
    try:
        jobs = read_jobs(text, shape=shape, fmt=fmt, bad_lines=bad)
    except fp.InvalidBoardError as error:
        return ("error", str(error))
    return ("ok", [job.board.packed for job in jobs], bad, [job.board.shape for job in jobs])


def _fast(text, shape, fmt, collect):
    bad = [] if collect else None
    try:
        found = read_packed(text, shape=shape, fmt=fmt, bad_lines=bad)
    except fp.InvalidBoardError as error:
        return ("error", str(error))
    if found is None:
        return None
    return ("ok", found.words.tolist(), bad, [found.shape] * len(found.words))


def _agree(text, shape=None, fmt="auto", collect=True):
    fast = _fast(text, shape, fmt, collect)
    if fast is not None:
        assert fast == _slow(text, shape, fmt, collect), text
    return fast


def _line(rng_board, style):
    """One board's text in one of the styles a file holds."""
    text = rng_board.to_string()
    if style == "flat":
        return text.replace("/", " ")
    if style == "zeros":
        return text.replace("_", "0")
    if style == "commas":
        return text.replace(" ", ",")
    return text


def test_a_file_of_boards_in_every_style_is_read_compiled():
    boards = [fp.random_board((3, 3), rng=s) for s in range(40)]
    styles = ["slash", "flat", "zeros", "commas"]
    text = "\r\n".join(_line(b, styles[k % 4]) for k, b in enumerate(boards)) + "\n\n  \n"
    found = _agree(text)
    assert found is not None and found[1] == [b.packed for b in boards]
    assert _agree(text, fmt="lines") is not None
    rect = [fp.random_board((2, 4), rng=s) for s in range(10)]
    found = _agree("\n".join(b.to_string().replace("/", " ") for b in rect), shape=(2, 4))
    assert found is not None and found[1] == [b.packed for b in rect]


def test_bad_slash_lines_are_explained_as_read_jobs_explains_them():
    good = "1 2 3/4 5 6/7 _ 8"
    text = "\n".join([good, "1 2 3/4 5 6/7 8 8", good, "1 2/3 4 5/6 7 8 _", "a b/c d", good])
    found = _agree(text)
    assert found is not None and len(found[1]) == 3 and [n for n, _ in found[2]] == [2, 4, 5]
    with pytest.raises(fp.InvalidBoardError, match="tile 8 appears twice"):
        read_packed(text)


@pytest.mark.parametrize(
    "text",
    [
        "2\n1 2\n3 _\n_ 1\n3 2",  # a count
        "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 _ 15\n",  # one board written as rows
        "1 2 3/4 5 6/7 . 8",  # '.' is a blank to Board
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 _",  # 25 cells
        "1 2 3/4 5 6/7 _ 8\n1 2 3 _",  # two shapes
        "1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/7 _ 8\x0b",  # a vertical tab breaks lines
        "1 2 3/4 5 6/7 _ 8\r1 2 3/4 5 6/7 8 _",  # so does a lone carriage return
        "1 2 3/4 5 6/7 _ 8\n1 2 3 4 5",  # a line that may be a board's first row
        "1 2 3/4 5 6/7 _ 8/",  # a trailing '/': Board drops it
        "\u0661 2 3/4 5 6/7 _ 8",  # another script's digit (ARABIC-INDIC DIGIT ONE)
    ],
)
def test_what_the_compiled_reader_leaves_to_read_jobs(text):
    assert read_packed(text) is None or _agree(text)


_TOKENS = ["1", "2", "3", "0", "_", "8", "15", "007", "16", "__", "_1", "x", ".", "99", "12"]
_GAPS = [" ", " ", " ", "  ", "\t", ",", ";", "/", " / ", "//", "\n", "\r\n", "\r", "\x0c"]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(st.sampled_from(_TOKENS), st.sampled_from(_GAPS)).map("".join),
            st.integers(0, 2**32).map(
                lambda seed: fp.random_board((2, 2), rng=seed).to_string() + "\n"
            ),
            st.integers(0, 2**32).map(
                lambda seed: fp.random_board((3, 3), rng=seed).to_string().replace("/", " ") + "\n"
            ),
        ),
        max_size=30,
    ),
    st.sampled_from([None, (3, 3), (2, 2), (2, 3)]),
    st.sampled_from(["auto", "lines"]),
    st.booleans(),
)
@example(["1 2/3 _\n", "1 2/3 3\n"], None, "auto", False)
def test_any_text_reads_as_read_jobs_reads_it(parts, shape, fmt, collect):
    _agree("".join(parts), shape, fmt, collect)


_NASTY = ["_0", "0_", "00", "_", "0", "016", "1x", ".", ",", ";", "/", "//", "", " ", "ab"]


@st.composite
def _files_with_slips(draw):
    """Lines of valid boards (2x2, 3x3, 2x3) in several styles, each with a slip or two: a
    token replaced, a separator inserted, a line of punctuation alone."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        shape = draw(st.sampled_from([(2, 2), (3, 3), (2, 3)]))
        board = fp.random_board(shape, rng=draw(st.integers(0, 2**32)))
        tokens = board.to_string().replace("/", " / ").split(" ")
        for _ in range(draw(st.integers(0, 2))):
            k = draw(st.integers(0, len(tokens) - 1))
            tokens[k] = draw(st.sampled_from(_NASTY))
        sep = draw(st.sampled_from([" ", ",", " ,", "\t"]))
        text = sep.join(tokens)
        if draw(st.booleans()):
            text = text.replace(f"{sep}/{sep}", sep)
        lines.append(text)
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from([",", " ;", "  ", "/", ""])))
    return "\n".join(lines)


@pytest.mark.heavy
@settings(max_examples=400, deadline=None)
@given(
    _files_with_slips(),
    st.sampled_from([None, (3, 3), (2, 3)]),
    st.sampled_from(["auto", "lines"]),
    st.booleans(),
)
def test_boards_with_slips_read_as_read_jobs_reads_them(text, shape, fmt, collect):
    _agree(text, shape, fmt, collect)


def test_words_are_the_packed_boards():
    boards = fp.datasets.random_boards(1000, (4, 4), rng=3)
    text = "\n".join(fp.Board.from_packed(int(w), (4, 4)).to_string() for w in boards)
    found = read_packed(text)
    assert found is not None and found.shape == (4, 4)
    assert np.array_equal(found.words, boards)
