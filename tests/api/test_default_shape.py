"""One default shape (issue 58, item 3): (4, 4); where it was (3, 3), omitting it warns."""

import inspect
import warnings

import pytest

import fastpuzzle as fp
from fastpuzzle._util.default_shape import DEFAULT_SHAPE, OLD_DEFAULT_SHAPE

KEEP_3X3 = r"pass shape=\(3, 3\) to keep 3x3"


def _no_warning(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return make()


def test_board_goal_without_a_shape_warns_and_is_still_3x3():
    with pytest.warns(FutureWarning, match=r"Board.goal\(\) without shape= .*" + KEEP_3X3) as got:
        goal = fp.Board.goal()
    assert goal == fp.Board("1 2 3/4 5 6/7 8 _")
    # The warning points at the line that called Board.goal, not inside the library.
    assert got[0].filename == __file__
    with pytest.warns(FutureWarning):
        assert fp.Board.goal(blank="first") == fp.Board("_ 1 2/3 4 5/6 7 8")
    assert _no_warning(lambda: fp.Board.goal((3, 3))) == goal
    assert _no_warning(lambda: fp.Board.goal(shape=(3, 3))) == goal
    assert _no_warning(lambda: fp.Board.goal([3, 3])) == goal


def test_labelled_without_a_shape_warns_and_is_still_3x3():
    with pytest.warns(FutureWarning, match=r"labelled\(\) without shape=") as got:
        data = fp.labelled(3, rng=1, optimal_mask=False)
    assert data.shape == (3, 3)
    assert got[0].filename == __file__
    explicit = _no_warning(lambda: fp.labelled(3, (3, 3), rng=1, optimal_mask=False))
    assert (explicit.boards == data.boards).all()


def test_write_labelled_without_a_shape_warns_and_is_still_3x3(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    with pytest.warns(FutureWarning, match=r"write_labelled\(\) without shape=") as got:
        fp.write_labelled(tmp_path / "a.parquet", 3, rng=1, optimal_mask=False)
    assert got[0].filename == __file__
    _no_warning(
        lambda: fp.write_labelled(tmp_path / "b.parquet", 3, (3, 3), rng=1, optimal_mask=False)
    )
    first, second = (pq.read_table(tmp_path / name) for name in ("a.parquet", "b.parquet"))
    assert first.schema.metadata[b"fastpuzzle.shape"] == b"3x3"
    assert first.equals(second)


def test_the_environment_without_a_shape_warns_and_is_still_3x3():
    pytest.importorskip("gymnasium")
    from fastpuzzle.env import SlidingPuzzleEnv

    with pytest.warns(FutureWarning, match=r"SlidingPuzzleEnv\(\) without shape="):
        assert SlidingPuzzleEnv(distances=False).shape == (3, 3)
    assert _no_warning(lambda: SlidingPuzzleEnv((3, 3), distances=False)).shape == (3, 3)


def test_random_boards_default_to_4x4_without_a_warning():
    assert _no_warning(lambda: fp.random_board(rng=1)).shape == (4, 4)
    boards = _no_warning(lambda: fp.random_boards(2, rng=1))
    assert len(boards) == 2


def test_every_default_shape_is_the_one_default_or_the_old_one_that_warns():
    # all_boards lists every board, and check_heuristic compares with every board's exact
    # distance, which no 4x4 space allows; depth_study's default is Russell and Norvig's 3x3
    # study, whose breadth-first search no 4x4 space allows at its depths: they stay 3x3.
    exempt = {"all_boards", "check_heuristic", "depth_study"}
    pytest.importorskip("gymnasium")
    from fastpuzzle.env import SlidingPuzzleEnv

    seen = {}
    callables = [getattr(fp, name) for name in fp.__all__] + [SlidingPuzzleEnv, fp.Board.goal]
    for function in callables:
        if not callable(function) or getattr(function, "__name__", "") in exempt:
            continue
        try:
            parameter = inspect.signature(function).parameters.get("shape")
        except (TypeError, ValueError):
            continue
        if parameter is None or parameter.default in (inspect.Parameter.empty, None):
            continue
        seen[function.__qualname__] = parameter.default
        assert parameter.default is DEFAULT_SHAPE or parameter.default is OLD_DEFAULT_SHAPE, (
            function
        )
    assert seen["random_board"] == seen["random_boards"] == (4, 4)
    assert seen["labelled"] == seen["write_labelled"] == seen["Board.goal"] == (3, 3)
    assert repr(seen["labelled"]) == "(3, 3)"  # the signature people read


def test_the_guide_names_every_place_that_keeps_3x3_and_says_why():
    # Before: docs/boards.rst named only the four places whose 3x3 default warns (and
    # all_boards), not check_heuristic, depth_study or ``fastpuzzle study --shape``.
    from pathlib import Path

    text = " ".join((Path(__file__).parents[2] / "docs" / "boards.rst").read_text().split())
    for place in ("all_boards", "check_heuristic", "depth_study", "fastpuzzle study --shape"):
        assert f"``{place}``" in text, place
    assert "Russell and Norvig" in text and "exact distance" in text
