"""Inputs read within bounds and counts checked before numpy sees them (issue 43, items 1, 2
and 5): a board, a goal or a list of boards from an endless iterator or a huge ``range`` ends in
the library's typed error after a bounded read; counts past a documented bound are refused by
name; ``write_labelled`` into a folder that does not exist says so before any work."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import datasets, generate
from fastpuzzle._util.checks import MAX_LISTED
from fastpuzzle.board import MAX_TILES
from fastpuzzle.cli import main
from fastpuzzle.render import board_rgb

START = "1 2 3/4 5 6/7 _ 8"


class Endless:
    """An iterator of ``item`` that counts its reads and fails the test past ``most`` of them
    (before the bound, ``list()`` read on until the process ran out of memory)."""

    def __init__(self, item: Any, most: int) -> None:
        self.item, self.most, self.read = item, most, 0

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        self.read += 1
        if self.read > self.most:
            raise AssertionError(f"read past {self.most:,} items")
        return self.item(self.read) if callable(self.item) else self.item


@pytest.mark.parametrize(
    "call",
    [
        lambda tiles: fp.Board(tiles),
        lambda tiles: fp.solve(START, goal=tiles),
        lambda tiles: fp.is_solvable(START, tiles),
    ],
    ids=["board", "solve-goal", "is_solvable-goal"],
)
def test_an_endless_iterator_of_tiles_is_read_to_one_past_the_largest_board(
    call: Callable[[Any], Any],
) -> None:
    tiles = Endless(lambda k: k - 1, most=2 * MAX_TILES)
    with pytest.raises(fp.InvalidBoardError, match=r"at most 10,000 tiles \(100x100\)"):
        call(tiles)
    assert tiles.read == MAX_TILES + 1


@pytest.mark.parametrize(
    "tiles",
    [
        range(10**12),
        np.zeros(MAX_TILES + 1, dtype=np.int64),
        [[0] * (MAX_TILES + 1)],
        "1 " * (MAX_TILES + 1),
    ],
    ids=["range", "array", "one-row", "text"],
)
def test_more_tiles_than_the_largest_board_is_a_typed_error(tiles: Any) -> None:
    # range(10**12) raised a bare MemoryError (its list was asked for whole).
    with pytest.raises(fp.InvalidBoardError, match="at most 10,000 tiles"):
        fp.Board(tiles)
    with pytest.raises(fp.InvalidBoardError, match="at most 10,000 tiles"):
        fp.solve(START, goal=tiles)


def test_the_largest_board_still_reads_from_an_iterator() -> None:
    tiles = [*range(1, MAX_TILES), 0]
    assert fp.Board(iter(tiles)) == fp.Board.goal((100, 100))
    assert fp.Board(" ".join(map(str, tiles)), shape=(100, 100)) == fp.Board.goal((100, 100))


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda boards: fp.solve_many(boards, workers=1), fp.InvalidBoardError),
        (lambda boards: fp.compare(boards, ["bfs"]), fp.InvalidBoardError),
        (lambda moves: fp.Board(START).apply(moves), fp.InvalidMoveError),
    ],
    ids=["solve_many", "compare", "apply"],
)
def test_an_endless_collection_of_boards_or_moves_is_read_to_its_bound(
    call: Callable[[Any], Any], error: type[Exception]
) -> None:
    items = Endless(START if error is fp.InvalidBoardError else "R", most=MAX_LISTED + 2)
    with pytest.raises(error, match=f"at most {MAX_LISTED:,} items"):
        call(items)
    assert items.read == MAX_LISTED + 1


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda: fp.random_boards(2**40, (3, 3)), "n as a whole number from 0 to 1,073,741,824"),
        (
            lambda: fp.random_boards(datasets.MAX_BOARDS + 1, (3, 3)),
            "n as a whole number from 0 to 1,073,741,824",
        ),
        (lambda: fp.labelled(2**63, (3, 3)), "n as a whole number from 0 to 10,000,000"),
        (
            lambda: fp.labelled(datasets.MAX_LABELLED_PATHS + 1, (3, 3), path=True),
            "n as a whole number from 0 to 1,000,000",
        ),
        (
            lambda: fp.scramble(fp.Board.goal((3, 3)), 2**63),
            "moves as a whole number from 0 to 1,000,000,000",
        ),
        (
            lambda: fp.scramble(fp.Board.goal((3, 3)), generate.MAX_SCRAMBLE + 1),
            "moves as a whole number from 0 to 1,000,000,000",
        ),
        (
            lambda: board_rgb(fp.Board.goal((4, 4)), cell=2**40),
            "cell as a whole number from 8 to 4,096",
        ),
    ],
    ids=[
        "random_boards-2**40",
        "random_boards-bound",
        "labelled",
        "labelled-path",
        "scramble-2**63",
        "scramble-bound",
        "board_rgb",
    ],
)
def test_a_count_past_its_bound_is_refused_by_name(call: Callable[[], Any], says: str) -> None:
    # Before: numpy's _ArrayMemoryError (8 TiB asked for), numpy's ValueError "Maximum allowed
    # dimension exceeded", or a walk that never ended.
    with pytest.raises(fp.InvalidOptionError, match=says):
        call()


def test_write_labelled_refuses_a_chunk_past_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "boards.parquet"
    with pytest.raises(fp.InvalidOptionError, match="chunk_size as a whole number from 1 to 10,"):
        fp.write_labelled(path, 10, chunk_size=2**40)
    assert not path.exists()


def test_counts_at_their_bounds_pass_the_check() -> None:
    # The bound itself is allowed (not drawn here: 8 GiB), one past it is not.
    assert generate.MAX_SCRAMBLE == 10**9
    assert fp.scramble(fp.Board.goal((3, 3)), 0) == fp.Board.goal((3, 3))
    assert board_rgb(fp.Board.goal((2, 2)), cell=8).shape == (16, 16, 3)
    assert fp.random_boards(0, (3, 3)).shape == (0,)


@pytest.mark.parametrize("command", [["scramble", "--moves"], ["compare", START, "--random"]])
def test_the_commands_refuse_a_count_past_its_bound(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # compare --random N built N random boards in a list before the first search.
    with pytest.raises(SystemExit) as stopped:
        main([*command, str(2**63)])
    assert stopped.value.code == 2
    assert "expected a whole number from 0 to" in capsys.readouterr().err


def test_write_labelled_into_a_missing_folder_says_so_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: a bare FileNotFoundError once the file was opened, after the boards were drawn.
    def no_draw(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("boards drawn before the path was checked")

    monkeypatch.setattr(datasets, "random_boards", no_draw)
    path = tmp_path / "missing" / "boards.parquet"
    with pytest.raises(fp.InvalidOptionError, match=r"missing is not a directory, so .* cannot"):
        fp.write_labelled(path, 10, rng=1, unique=True)
    assert not (tmp_path / "missing").exists()
