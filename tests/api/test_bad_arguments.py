"""Bad arguments raise a typed error, checked before any work, whose message quotes them.

Each case raised a plain ValueError or TypeError (or worse) before its fix: the call sites of the
fault audit's item 2, some failing while building their own message, some after a batch had
started.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fastpuzzle as fp

B = "1 2 3/4 5 6/7 _ 8"
HUGE = 10**5000  # str() refuses ints past 4,300 digits: a message quoting one cannot be built
FIVE = fp.Board.goal((5, 5))

#: ``(id, call, error, message pattern)``; the call gets a fresh directory.
Case = tuple[str, Callable[[Path], Any], type[Exception], str]


def _search_cases() -> list[Case]:
    """search() and solve(): options that do not apply, or of the wrong type."""
    return [
        (
            "search-heuristic-for-bfs",
            lambda tmp: fp.search(B, algorithm="bfs", heuristic="manhattan"),
            fp.InvalidOptionError,
            r"bfs does not use a heuristic, got heuristic='manhattan'",
        ),
        (
            "search-seed-text",
            lambda tmp: fp.search(B, algorithm="random", seed="x"),
            fp.InvalidOptionError,
            r"expected seed as a whole number.*got 'x'",
        ),
        (
            "search-workers-bool",
            lambda tmp: fp.search(B, algorithm="idastar", workers=True),
            fp.InvalidOptionError,
            r"expected workers as a whole number from 1 to .*got True",
        ),
        (
            "search-workers-past-the-kernel",
            lambda tmp: fp.search(B, algorithm="idastar", workers=2**63),
            fp.InvalidOptionError,
            r"expected workers as a whole number from 1 to 256 \(the most threads",
        ),
        (
            "search-heuristic-int-on-5x5",
            lambda tmp: fp.search(FIVE, algorithm="bfs", heuristic=5),
            fp.BoardTooLargeError,
            r"^bfs works on boards of at most 16 cells",
        ),
        (
            "search-weight-for-astar",
            lambda tmp: fp.search(B, algorithm="astar", weight=2),
            fp.InvalidOptionError,
            r"only wastar takes a weight, got weight=2 for astar",
        ),
        (
            "search-seed-for-bfs",
            lambda tmp: fp.search(B, algorithm="bfs", seed=1),
            fp.InvalidOptionError,
            r"only random takes a seed, got seed=1 for bfs",
        ),
        (
            "search-threads-for-astar",
            lambda tmp: fp.search(B, algorithm="astar", workers=2),
            fp.InvalidOptionError,
            r"only idastar runs on several threads, got workers=2 for astar",
        ),
        (
            "solve-weight-for-auto",
            lambda tmp: fp.solve(B, weight=2),
            fp.InvalidOptionError,
            r"algorithm='auto' takes no weight or seed",
        ),
        (
            "solve-fast-with-workers",
            lambda tmp: fp.solve(B, optimal=False, workers=2),
            fp.InvalidOptionError,
            r"optimal=False runs on one thread",
        ),
        (
            "solve-fast-with-algorithm",
            lambda tmp: fp.solve(B, optimal=False, algorithm="astar"),
            fp.InvalidOptionError,
            r"optimal=False picks its own method",
        ),
        (
            "solve-algorithm-array",
            lambda tmp: fp.solve(B, algorithm=np.array([1, 2])),
            fp.UnknownNameError,
            r"unknown algorithm array\(\[1, 2\]\)",
        ),
        (
            "solve-heuristic-array",
            lambda tmp: fp.solve(B, heuristic=np.array([1, 2])),
            fp.UnknownNameError,
            r"unknown heuristic array\(\[1, 2\]\)",
        ),
        (
            "solve-workers-zero",
            lambda tmp: fp.solve(B, workers=0),
            fp.InvalidOptionError,
            r"expected workers as a whole number from 1 to .*got 0",
        ),
        (
            "solve-workers-text",
            lambda tmp: fp.solve(B, workers="2"),
            fp.InvalidOptionError,
            r"got '2'",
        ),
        (
            "solve-workers-huge",
            lambda tmp: fp.solve(B, workers=HUGE),
            fp.InvalidOptionError,
            r"got <an integer of 16,610 bits>",
        ),
    ]


def _compare_cases() -> list[Case]:
    """compare(): boards and names that are no collections, a callback that cannot be called."""
    return [
        (
            "compare-boards-int",
            lambda tmp: fp.compare(5, "bfs"),
            fp.InvalidBoardError,
            r"expected a board or a collection of boards, got 5",
        ),
        (
            "compare-boards-set",
            lambda tmp: fp.compare({B}, "bfs"),
            fp.InvalidBoardError,
            r"expected a board or a collection of boards in order, got a set",
        ),
        (
            "compare-heuristics-int",
            lambda tmp: fp.compare([B], "bfs", heuristics=5),
            fp.InvalidOptionError,
            r"expected heuristics as a name or a list of names, got 5",
        ),
        (
            "compare-algorithms-int",
            lambda tmp: fp.compare([B], 5),
            fp.InvalidOptionError,
            r"expected algorithms as a name or a list of names, got 5",
        ),
        (
            "compare-progress-text",
            lambda tmp: fp.compare([B], ["bfs"], progress="x"),
            fp.InvalidOptionError,
            r"expected a callable progress\(done, total\) or None, got 'x'",
        ),
        (
            "compare-seed-text",
            lambda tmp: fp.compare([B], ["bfs", "random"], seed="x"),
            fp.InvalidOptionError,
            r"expected seed as a whole number",
        ),
        (
            "compare-weight-below-one",
            lambda tmp: fp.compare([B], ["bfs", "wastar"], weight=0.5),
            fp.InvalidOptionError,
            r"expected a weight from 1 to 1,000",
        ),
        (
            "compare-plot-metric",
            lambda tmp: fp.Comparison(()).plot(metric="board"),
            fp.InvalidOptionError,
            r"expected metric='expanded', 'generated', 'peak_memory_bytes', 'seconds' or 'length', "
            r"got 'board'",
        ),
    ]


def _batch_cases() -> list[Case]:
    """solve_many(): every option checked before the batch starts."""
    return [
        (
            "batch-boards-int",
            lambda tmp: fp.solve_many(5),
            fp.InvalidBoardError,
            r"expected a collection of boards, got 5",
        ),
        (
            "batch-boards-bytes",
            lambda tmp: fp.solve_many(b"12"),
            fp.InvalidBoardError,
            r"expected a collection of boards in order, got a bytes",
        ),
        (
            "batch-boards-set",
            lambda tmp: fp.solve_many({B}),
            fp.InvalidBoardError,
            r"expected a collection of boards in order, got a set",
        ),
        (
            "batch-workers-text",
            lambda tmp: fp.solve_many([B], workers="2"),
            fp.InvalidOptionError,
            r"expected workers as a whole number from 1 to .*got '2'",
        ),
        (
            "batch-workers-zero",
            lambda tmp: fp.solve_many([B], workers=0),
            fp.InvalidOptionError,
            r"got 0",
        ),
        (
            "batch-workers-float",
            lambda tmp: fp.solve_many([B], workers=1.5),
            fp.InvalidOptionError,
            r"got 1.5",
        ),
        (
            "batch-chunk-float",
            lambda tmp: fp.solve_many([B], chunk_size=2.5),
            fp.InvalidOptionError,
            r"expected chunk_size as a whole number of at least 1 or None, got 2.5",
        ),
        (
            "batch-chunk-zero",
            lambda tmp: fp.solve_many([B], chunk_size=0),
            fp.InvalidOptionError,
            r"got 0",
        ),
        (
            "batch-fast-with-algorithm",
            lambda tmp: fp.solve_many([B], optimal=False, algorithm="astar"),
            fp.InvalidOptionError,
            r"optimal=False picks its own method",
        ),
        (
            "batch-shape-text",
            lambda tmp: fp.solve_many([B], shape="x"),
            fp.InvalidBoardError,
            r"expected shape as \(rows, cols\), got 'x'",
        ),
        (
            "batch-out-number",
            lambda tmp: fp.solve_many([B], out=5),
            fp.InvalidOptionError,
            r"expected out as a path .* or None, got 5",
        ),
        (
            "batch-out-format",
            lambda tmp: fp.solve_many([B], out_format="xml"),
            fp.InvalidOptionError,
            r"expected out_format='csv', 'jsonl' or 'parquet', got 'xml'",
        ),
        (
            "batch-client",
            lambda tmp: fp.solve_many([B], client=5),
            fp.InvalidOptionError,
            r"expected client=dask.distributed.Client\(...\) or None, got 5",
        ),
        (
            "batch-progress-text",
            lambda tmp: fp.solve_many([B], progress="yes"),
            fp.InvalidOptionError,
            r"expected progress=True, False, None or a callable progress\(done, total\)",
        ),
    ]


def _random_cases() -> list[Case]:
    """Random boards and data sets: numpy's refusals of a seed or a count, typed."""
    return [
        (
            "random-board-rng-text",
            lambda tmp: fp.random_board((3, 3), rng="x"),
            fp.InvalidOptionError,
            r"expected rng as a seed .*got 'x'",
        ),
        (
            "scramble-rng-float",
            lambda tmp: fp.scramble(B, 3, rng=1.5),
            fp.InvalidOptionError,
            r"expected rng as a seed .*got 1.5",
        ),
        (
            "random-boards-count-float",
            lambda tmp: fp.random_boards(2.5, (3, 3)),
            fp.InvalidOptionError,
            r"expected n as a whole number of at least 0, got 2.5",
        ),
        (
            "random-boards-count-negative",
            lambda tmp: fp.random_boards(-1, (3, 3)),
            fp.InvalidOptionError,
            r"got -1",
        ),
        (
            "labelled-unsolved-row",
            lambda tmp: fp.labelled(3, (2, 2), rng=1, limits=fp.Limits(max_depth=0)),
            fp.DepthLimitError,
            r"board \d was not solved \(depth_limit\)",
        ),
    ]


def _board_cases() -> list[Case]:
    """Board methods and Limits, and messages quoting an int too long to print."""
    return [
        (
            "goal-blank-array",
            lambda tmp: fp.Board.goal((3, 3), blank=np.array([1, 2])),
            fp.InvalidBoardError,
            r"expected blank='last' or 'first', got array\(\[1, 2\]\)",
        ),
        (
            "to-string-separator-number",
            lambda tmp: fp.Board(B).to_string(5),
            fp.InvalidOptionError,
            r"expected row_separator as a string, got 5",
        ),
        (
            "position-not-a-pair",
            lambda tmp: fp.Board(B)[5],
            fp.InvalidOptionError,
            r"expected a \(row, col\) position of integers, got 5",
        ),
        (
            "position-of-text",
            lambda tmp: fp.Board(B)[0, "a"],
            fp.InvalidOptionError,
            r"got \(0, 'a'\)",
        ),
        (
            "board-huge-tile",
            lambda tmp: fp.Board([HUGE, 1, 2, 0]),
            fp.InvalidBoardError,
            r"expected tiles 0..3 \(0 = blank\), got <an integer of 16,610 bits>",
        ),
        (
            "limits-huge",
            lambda tmp: fp.Limits(nodes=HUGE),
            fp.InvalidLimitsError,
            r"Limits.nodes expected .*got <an integer of 16,610 bits>",
        ),
    ]


def _pdb_cases() -> list[Case]:
    """Pattern databases: their documented error is PatternDatabaseError."""
    return [
        (
            "cache-dir-number",
            lambda tmp: fp.pdb_cache_dir(1.5),
            fp.pdb.PatternDatabaseError,
            r"expected cache_dir as a path .* or None, got 1.5",
        ),
        (
            "partition-none",
            lambda tmp: fp.build_pdb(None, (2, 2), cache_dir=tmp, progress=False),
            fp.pdb.PatternDatabaseError,
            r"expected disjoint non-empty groups of goal cells .*got None",
        ),
        (
            "partition-cell-text",
            lambda tmp: fp.build_pdb([["a"]], (2, 2), cache_dir=tmp, progress=False),
            fp.pdb.PatternDatabaseError,
            r"expected disjoint non-empty groups of goal cells .*got \[\['a'\]\]",
        ),
        (
            "partition-cell-float",
            lambda tmp: fp.build_pdb([[0, 1.0]], (2, 2), cache_dir=tmp, progress=False),
            fp.pdb.PatternDatabaseError,
            r"got \[\[0, 1.0\]\]",
        ),
        (
            "partition-array",
            lambda tmp: fp.build_pdb(np.array([[0], [1.5]]), (2, 2), cache_dir=tmp, progress=False),
            fp.pdb.PatternDatabaseError,
            r"expected disjoint non-empty groups of goal cells",
        ),
        (
            "deadline-text",
            lambda tmp: fp.build_pdb([[0]], (2, 2), cache_dir=tmp, progress=False, deadline="soon"),
            fp.pdb.PatternDatabaseError,
            r"expected deadline as a number, got 'soon'",
        ),
        (
            "build-cache-dir-number",
            lambda tmp: fp.build_pdb([[0]], (2, 2), cache_dir=1.5, progress=False),
            fp.pdb.PatternDatabaseError,
            r"expected cache_dir as a path",
        ),
    ]


def _property_cases() -> list[Case]:
    """Found by the property test of test_any_arguments.py: scalars among rows, flags of the
    wrong type, names and shapes quoting an int too long to print."""
    return [
        (
            "board-row-of-a-0d-array",
            lambda tmp: fp.Board((np.array(5), np.array(1))),
            fp.InvalidBoardError,
            r"expected integer tiles, got array\(5\)",
        ),
        (
            "board-shape-huge",
            lambda tmp: fp.Board([1, 2, 3, 0], shape=(HUGE, 2)),
            fp.InvalidBoardError,
            r"expected at most 100 rows and 100 columns",
        ),
        (
            "algorithm-huge",
            lambda tmp: fp.search(B, algorithm=HUGE),
            fp.UnknownNameError,
            r"unknown algorithm <an integer of 16,610 bits>",
        ),
        (
            "heuristic-huge",
            lambda tmp: fp.search(B, algorithm="astar", heuristic=HUGE),
            fp.UnknownNameError,
            r"unknown heuristic <an integer of 16,610 bits> for astar",
        ),
        (
            "progress-of-a-huge-int",
            lambda tmp: fp.solve(B, algorithm="astar", progress=[HUGE]),
            fp.InvalidOptionError,
            r"expected a callable progress\(stats\) or None, got <list object>",
        ),
        (
            "labelled-path-array",
            lambda tmp: fp.labelled(1, (2, 2), path=np.array([1, 2])),
            fp.InvalidOptionError,
            r"expected path=True or path=False, got array\(\[1, 2\]\)",
        ),
        (
            "batch-resume-array",
            lambda tmp: fp.solve_many([B], out=tmp / "out", resume=np.array([1, 2])),
            fp.InvalidOptionError,
            r"expected resume=True or resume=False",
        ),
        (
            "build-force-array",
            lambda tmp: fp.build_pdb([[0]], (2, 2), cache_dir=tmp, force=np.array([1, 2])),
            fp.pdb.PatternDatabaseError,
            r"expected force=True or force=False",
        ),
        (
            "pdb-shape-huge",
            lambda tmp: fp.build_pdb([[0]], (HUGE, 2), cache_dir=tmp, progress=False),
            fp.pdb.PatternDatabaseError,
            r"up to 25 cells, not <tuple object>",
        ),
    ]


CASES = [
    *_search_cases(),
    *_compare_cases(),
    *_batch_cases(),
    *_random_cases(),
    *_board_cases(),
    *_pdb_cases(),
    *_property_cases(),
]


@pytest.mark.parametrize(
    ("call", "error", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_bad_argument_raises_its_typed_error(call, error, message, tmp_path):
    with pytest.raises(error, match=message) as caught:
        call(tmp_path)
    assert isinstance(caught.value, fp.FastPuzzleError)


def test_compare_checks_its_options_before_any_search():
    done: list[tuple[int, int]] = []
    progress = lambda *args: done.append(args)  # noqa: E731
    for options in ({"seed": "x"}, {"weight": 0}):
        with pytest.raises(fp.InvalidOptionError):
            fp.compare([B, B], ["bfs", "random", "wastar"], progress=progress, **options)
    with pytest.raises(fp.InvalidOptionError):
        fp.compare([B], ["bfs"], heuristics=5, progress=progress)
    with pytest.raises(fp.InvalidBoardError, match="'1 2 3'"):  # the second board
        fp.compare([B, "1 2 3"], ["bfs"], progress=progress)
    assert done == []


def test_solve_many_checks_its_options_before_the_batch_starts(monkeypatch):
    from fastpuzzle.batch import run

    solved: list[int] = []
    monkeypatch.setattr(run, "solve_chunk", lambda first, rows, spec: solved.append(first))
    for options in (
        {"optimal": False, "algorithm": "astar"},
        {"optimal": False, "heuristic": "manhattan"},
        {"workers": 0},
        {"chunk_size": 0},
        {"out_format": "xml"},
        {"progress": "yes"},
    ):
        with pytest.raises(fp.InvalidOptionError):
            fp.solve_many([B, B], **options)
    assert solved == []


def test_an_off_board_position_stays_an_index_error():
    # Indexing keeps Python's protocol: a well-formed position off the board is an IndexError.
    with pytest.raises(IndexError, match=r"position \(3, 0\) is outside a 3x3 board"):
        fp.Board(B)[3, 0]
    assert fp.Board(B)[np.int64(2), 1] == 0
