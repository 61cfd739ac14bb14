"""The anytime solver builds its shape's pattern database on first use when the time limit is
long beside the build's estimate (``_solver/first_use.py``), and only then.

4x5's default tables (2.7 MiB, about 1.4 s on two cores) stand in for 5x5's 6-6-6-6; each test
has a cache directory of its own, empty at first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._problem import Problem, make_problem
from fastpuzzle._solver import first_use
from fastpuzzle.pdb.plan import plan_tables

SHAPE = (4, 5)

pytestmark = pytest.mark.first_use_builds


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    # The estimate divides by the cores: two, as on the machine its rates were measured on.
    monkeypatch.setattr(first_use, "usable_cores", lambda: 2)
    return tmp_path


def _built(cache: Path) -> bool:
    return pdb.load_pdb("auto", SHAPE, cache_dir=cache) is not None


def _board() -> fp.Board:
    return fp.scramble(fp.Board.goal(SHAPE), 30, rng=5)


def _problem(board: fp.Board) -> Problem:
    return make_problem(board)


@pytest.mark.heavy
def test_a_long_time_limit_builds_the_tables_once(empty_cache: Path, caplog) -> None:
    # Before: the anytime solver never built them; 5x5 and 6x6 searched on linear conflict
    # until `fastpuzzle pdb build` was run by hand.
    board = _board()
    with caplog.at_level("INFO", logger="fastpuzzle"):
        solution = fp.solve(board, optimal=False, limits=fp.Limits(seconds=30))
    assert _built(empty_cache)
    assert board.apply(solution.moves) == fp.Board.goal(SHAPE)
    announced = [r.getMessage() for r in caplog.records if r.name == first_use.__name__]
    assert len(announced) == 1 and "MiB on disk" in announced[0] and "about" in announced[0]
    # Read from then on, never built again.
    assert first_use.estimated_build(_problem(board), 36) is None


def test_no_build_when_the_limit_is_short_beside_it(empty_cache: Path) -> None:
    plan = plan_tables("auto", SHAPE).files[0]
    seconds = plan.seconds_on_two * first_use.BUILD_SHARE / 2  # a sixth of the build's time
    fp.solve(_board(), optimal=False, limits=fp.Limits(seconds=seconds))
    assert not _built(empty_cache)


def test_no_build_under_a_node_limit_or_below_its_memory(empty_cache: Path) -> None:
    fp.solve(_board(), optimal=False, limits=fp.Limits(nodes=20_000))
    assert not _built(empty_cache)
    plan = plan_tables("auto", SHAPE).files[0]
    built = first_use.build_for_anytime(
        _problem(_board()),
        started=0.0,
        seconds=float("inf"),
        memory_bytes=plan.build_bytes - 1,
        table_cells=36,
    )
    assert not built and not _built(empty_cache)


def test_no_build_past_the_shapes_that_read_tables(empty_cache: Path) -> None:
    board = fp.random_board((7, 7), rng=1)
    assert first_use.estimated_build(_problem(board), 36) is None
    assert first_use.estimated_build(_problem(fp.random_board((3, 3), rng=1)), 36) is None


def test_a_file_there_is_neither_read_nor_built_again(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: the plan checked the file whole on every solve (6x6's 158 MB: about a second of
    # a 0.05 s limit), and a damaged one was built again.
    path = pdb.pdb_path("auto", SHAPE)
    path.write_bytes(b"not a table")

    def planned(*args: object, **kwargs: object) -> None:
        raise AssertionError("the plan reads every file it lists")

    monkeypatch.setattr(first_use, "plan_tables", planned)
    assert first_use.estimated_build(_problem(_board()), 36) is None
