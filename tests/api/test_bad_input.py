"""Bad input and bad arguments: a typed error that quotes them, raised before any work.

Never a crash, a plain ValueError or TypeError, or a wrong board. One section each for boards,
any argument to any public function, the arguments of the fault audit (item 2), the input of
the hostile-input review (issue 14), arguments checked before any input is read (issue 37) and
inputs read within bounds (issue 43).
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle import InvalidBoardError, datasets, generate
from fastpuzzle._core import _board
from fastpuzzle._util.checks import MAX_LISTED, MAX_NAMES, shown
from fastpuzzle.board import MAX_TILES
from fastpuzzle.cli import main
from fastpuzzle.cli.boards import MAX_LINE
from fastpuzzle.moves import parse_moves
from fastpuzzle.render import board_rgb, board_svg

# -----------------------------------------------------------------------------------------------
# Boards: every bad input form raises InvalidBoardError quoting it.


@pytest.mark.parametrize(
    ("data", "kwargs", "message"),
    [
        ("1 2 3 4 5 6 7 8", {}, r"expected a square number of tiles .*got 8: '1 2 3 4 5 6 7 8'"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 8], {}, r"tile 8 appears twice"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 1], {}, r"tile 1 appears twice"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9], {}, r"expected tiles 0..8 \(0 = blank\), got 9"),
        ("1 2 3/4 5 6/7 8 _ _", {}, r"rows of equal length"),
        ("_ 1 2/3 _ 4/5 6 7", {}, r"the blank appears twice"),
        ("1 2 3/4 x 6/7 8 _", {}, r"got 'x'"),
        ("1 2 3/4 -5 6/7 8 _", {}, r"got '-5'"),
        ([1.0, 2, 3, 0], {}, r"expected integer tiles, got 1.0"),
        ([True, 2, 3, 0], {}, r"expected integer tiles, got True"),
        (["1", "2", "3", "0"], {}, r"expected integer tiles, got '1'"),
        (np.array([1.0, 2, 3, 0]), {}, r"integer array, got dtype float64"),
        (np.zeros((2, 2, 2), dtype=int), {}, r"1-D or 2-D"),
        ([[1, 2], [3]], {}, r"rows of equal length"),
        ([[1, 2], 3, 0], {}, r"not a mix"),
        ([], {}, r"empty board"),
        ("", {}, r"empty board"),
        (None, {}, r"expected a board"),
        (12, {}, r"got the integer 12: a packed board .* needs its shape"),
        (b"1 2 3 0", {}, r"expected a board"),
        (list(range(101 * 101)), {}, r"at most 10,000 tiles \(100x100\)"),
        (list(range(202)), {"shape": (2, 101)}, r"at most 100 rows and 100 columns"),
        (list(range(202)), {"shape": (101, 2)}, r"at most 100 rows and 100 columns"),
        (list(range(26)), {}, r"expected a square number of tiles .*got 26"),
        (list(range(101)), {"shape": (1, 101)}, r"at least 2 rows and 2 columns"),
        (list(range(6)), {"shape": (2, 2)}, r"expected 4 tiles for shape \(2, 2\), got 6"),
        (list(range(6)), {"shape": (1, 6)}, r"at least 2 rows and 2 columns"),
        (list(range(6)), {"shape": (2, "3")}, r"expected shape as \(rows, cols\)"),
        ("1 2/3 _", {"shape": (1, 4)}, r"at least 2 rows"),
        ("1 2 3/_ 4 5", {"shape": (3, 2)}, r"input has shape \(2, 3\)"),
    ],
)
def test_each_bad_input_raises_its_typed_error(data, kwargs, message):
    with pytest.raises(InvalidBoardError, match=message) as info:
        fp.Board(data, **kwargs)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, fp.FastPuzzleError)


def test_unsolvable_error_carries_the_pair():
    board, goal = fp.Board("1 2 3/4 5 6/8 7 _"), fp.Board.goal((3, 3))
    error = fp.UnsolvableError(board, goal)
    assert error.board == board and error.goal == goal
    assert "not solvable" in str(error) and "'1 2 3/4 5 6/8 7 _'" in str(error)
    assert isinstance(error, ValueError)


tokens = st.one_of(
    st.integers(-3, 20).map(str),
    st.sampled_from(["_", "0", ".", "x", "1.5", "", "-", "__", "٣"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(tokens, max_size=5), max_size=5), st.sampled_from(["/", "\n", " / "]))
def test_random_strings_give_a_valid_board_or_a_typed_error(rows, separator):
    text = separator.join(" ".join(row) for row in rows)
    try:
        board = fp.Board(text)
    except InvalidBoardError:
        return
    # Accepted: it must be exactly what was written.
    written = [t for row in rows for t in row if t]
    assert len(written) == board.size
    assert sorted(board.tiles) == list(range(board.size))
    assert [0 if t in ("_", ".") else int(t) for t in written] == list(board.tiles)


values = st.one_of(
    st.integers(-2, 20),
    st.floats(allow_nan=True),
    st.text(max_size=2),
    st.none(),
    st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(st.lists(values, max_size=20), st.lists(st.lists(values, max_size=5), max_size=5)),
    st.one_of(st.none(), st.tuples(st.integers(-1, 6), st.integers(-1, 6))),
)
def test_random_sequences_give_a_valid_board_or_a_typed_error(data, shape):
    try:
        board = fp.Board(data, shape=shape)
    except InvalidBoardError:
        return
    flat = [v for row in data for v in row] if data and isinstance(data[0], list) else data
    assert list(board.tiles) == flat
    assert all(type(v) is int for v in flat)
    assert sorted(board.tiles) == list(range(board.size))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([(2, 2), (3, 3), (4, 4)]))
def test_random_packed_words_give_a_valid_board_or_a_typed_error(word, shape):
    try:
        board = fp.Board.from_packed(word, shape=shape)
    except InvalidBoardError:
        return
    assert board.packed == word
    assert sorted(board.tiles) == list(range(board.size))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_random_move_strings_apply_or_raise_a_typed_error(text):
    board = fp.Board("1 2 3/4 _ 5/6 7 8")
    try:
        after = board.apply(text)
    except (fp.InvalidMoveError, fp.IllegalMoveError) as error:
        assert isinstance(error, ValueError)
        return
    assert after.apply(fp.inverse(text)) == board


# -----------------------------------------------------------------------------------------------
# Any argument to any public function: a FastPuzzleError or success, never another exception.
#
# Every function of ``fastpuzzle.__all__`` (and Board's methods, and Limits) is called with
# arbitrary values (ints, huge ints, floats, bools, None, strings, bytes, lists, tuples, dicts,
# sets, numpy arrays and scalars, objects, Limits, callables) for up to three of its parameters,
# the others holding valid values. The valid values keep every call cheap: boards of at most 9
# cells (and one 5x5 board) a few moves from their goal, tight limits where a search could run
# long.
#
# A bad argument must raise a FastPuzzleError (its typed errors also derive from ValueError, which
# is fine); a bare ValueError or TypeError, or anything else, fails. Two other errors are allowed:
# IndexError for a well-formed position off the board in ``board[row, col]`` (Python's protocol),
# and solve_many's documented FileExistsError for an ``out=`` directory that holds a batch.

# -- arbitrary values -------------------------------------------------------------------------


class Opaque:
    """An object of no type the library knows."""

    def __repr__(self) -> str:
        return "Opaque()"


#: Ints that are valid for some parameters and too large for others (10**5000 has no str()).
HUGE_INTS = (2**31, 2**63, 2**64, -(2**63), 10**30, 10**5000)

#: Strings that mean something somewhere: names, boards, moves, formats.
WORDS = (
    "",
    " ",
    "x",
    "auto",
    "AUTO",
    "bfs",
    "dfs",
    "iddfs",
    "astar",
    "a*",
    "wastar",
    "greedy",
    "lookahead",
    "random",
    "idastar",
    "bidirectional",
    "manhattan",
    "misplaced",
    "linear_conflict",
    "walking_distance",
    "pdb",
    "table",
    "last",
    "first",
    "csv",
    "jsonl",
    "U",
    "ul",
    "up left",
    "R",
    "1 2/3 _",
    "1 2/_ 3",
    "1 2 3/4 5 6/7 _ 8",
    "٣",
    "²",
    "1" * 5000,
    "-1",
    "2",
    "1.5",
    "nan",
    "None",
)

NUMPY_VALUES = (
    np.array([1, 2, 3, 0]),
    np.array([[1, 2], [3, 0]]),
    np.array([801], dtype=np.uint64),
    np.array([], dtype=np.uint64),
    np.array([1.5, 2.0]),
    np.array(["a", "b"]),
    np.array(5),
    np.zeros((2, 2, 2), dtype=int),
    np.int64(3),
    np.uint64(2),
    np.float64(2.5),
    np.float64("nan"),
    np.bool_(True),
)

OTHER_VALUES = (
    fp.Limits(nodes=1),
    fp.Limits(max_depth=0),
    fp.Limits(seconds=0.01),
    fp.Board("1 2/3 _"),
    fp.Board.goal((3, 3)),
    print,
    lambda *args: None,
    Path("."),
    Ellipsis,
    range(3),
    iter("UL"),
)


def _pick(values: tuple[object, ...]) -> st.SearchStrategy[Any]:
    # By index: hypothesis shows the elements of sampled_from in its messages, and 10**5000 has
    # no repr ("1" * 5000 a long one).
    return st.integers(0, len(values) - 1).map(values.__getitem__)


def anything(*, huge: bool = True) -> st.SearchStrategy[object]:
    """Values of every kind; without ``huge``, no ints past 20 (for counts such as a number of
    random moves, where a huge value is a valid request of great cost, not a mistake)."""
    leaves: list[st.SearchStrategy[Any]] = [
        st.integers(-3, 20),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.none(),
        st.text(max_size=6),
        _pick(WORDS),
        st.binary(max_size=4),
        st.builds(Opaque),
        st.sampled_from(NUMPY_VALUES),
        st.sampled_from(OTHER_VALUES),
    ]
    if huge:
        leaves.append(_pick(HUGE_INTS))
    hashable = st.one_of(st.integers(-3, 20), st.sampled_from(WORDS[:30]), st.booleans())
    # Containers of the leaves, nested.
    return st.recursive(
        st.one_of(leaves),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.tuples(inner, inner),
            st.dictionaries(st.text(max_size=2), inner, max_size=2),
            st.sets(hashable, max_size=3),
            st.frozensets(hashable, max_size=3),
        ),
        max_leaves=6,
    )


# -- valid values, cheap to use ---------------------------------------------------------------

#: Boards a few moves from the default goal (so even an unlimited IDDFS or random walk is fast).
BOARDS = (
    "1 2 3/4 5 6/7 _ 8",
    "1 2 3/4 5 6/_ 7 8",
    [1, 2, 3, 4, 5, 6, 7, 8, 0],
    "1 2/_ 3",
    fp.Board.goal((2, 3)).apply("L"),
    fp.Board.goal((5, 5)).apply("UL"),
)
GOALS = (None, "1 2 3/4 5 6/7 8 _", "1 2/3 _")
TIGHT = fp.Limits(seconds=0.05, nodes=2000)
LIMITS = (None, TIGHT, fp.Limits(max_depth=3))
CALLBACKS = (None, lambda *args: None)
SHAPES = ((2, 2), (2, 3), (3, 3))

board_values = st.sampled_from(BOARDS)
goal_values = st.sampled_from(GOALS)
limit_values = st.sampled_from(LIMITS)
shape_values = st.sampled_from(SHAPES)
move_values = st.sampled_from(("U", "UL", ["U", "L"], "up"))
algorithm_values = st.sampled_from(("auto", "bfs", "astar", "idastar", "wastar", "random"))
heuristic_values = st.sampled_from((None, "auto", "manhattan", "linear_conflict"))


@dataclass(frozen=True)
class Spec:
    """A public callable and a strategy of valid values for each parameter.

    ``costly`` parameters get no huge ints (see :func:`anything`); ``fixed`` parameters are never
    fuzzed, where an arbitrary valid value could make the call run long (their checks are
    fuzzed through the other functions that share them).
    """

    name: str
    call: Callable[..., object]
    params: tuple[tuple[str, st.SearchStrategy[Any]], ...]
    positional: bool = False
    costly: frozenset[str] = field(default_factory=frozenset)
    fixed: frozenset[str] = field(default_factory=frozenset)


def _on_board(method: str) -> Callable[..., object]:
    return lambda *args: getattr(fp.Board("1 2 3/4 5 6/7 _ 8"), method)(*args)


def _position(position: object) -> object:
    return fp.Board("1 2 3/4 5 6/7 _ 8")[position]  # type: ignore[index]


SPECS = (
    Spec("Board", fp.Board, (("data", board_values), ("shape", st.sampled_from((None, *SHAPES))))),
    Spec(
        "Board.from_packed",
        fp.Board.from_packed,
        (("packed", st.just(801)), ("shape", st.just((2, 2)))),
    ),
    Spec(
        "Board.goal",
        fp.Board.goal,
        (("shape", shape_values), ("blank", st.sampled_from(("last", "first")))),
    ),
    Spec("Board.apply", _on_board("apply"), (("moves", move_values),), positional=True),
    Spec("Board.move", _on_board("move"), (("move", move_values),), positional=True),
    Spec("Board.tiles_moved", _on_board("tiles_moved"), (("moves", move_values),), positional=True),
    Spec("Board.is_solvable", _on_board("is_solvable"), (("goal", goal_values),), positional=True),
    Spec(
        "Board.to_string",
        _on_board("to_string"),
        (("row_separator", st.just("/")),),
        positional=True,
    ),
    Spec("Board[]", _position, (("position", st.just((1, 2))),), positional=True),
    Spec(
        "Limits",
        fp.Limits,
        (
            ("seconds", st.sampled_from((None, 1.0))),
            ("nodes", st.sampled_from((None, 10))),
            ("memory_bytes", st.sampled_from((None, 1 << 20))),
            ("max_depth", st.sampled_from((None, 0, 5))),
        ),
    ),
    Spec(
        "solve",
        fp.solve,
        (
            ("board", board_values),
            ("goal", st.just(None)),
            ("algorithm", algorithm_values),
            ("heuristic", heuristic_values),
            ("limits", limit_values),
            ("weight", st.just(None)),
            ("seed", st.just(None)),
            ("progress", st.sampled_from(CALLBACKS)),
            ("optimal", st.booleans()),
            ("workers", st.sampled_from((None, 1, 2))),
        ),
    ),
    Spec(
        "search",
        fp.search,
        (
            ("board", board_values),
            ("goal", st.just(None)),
            ("algorithm", algorithm_values.filter(lambda name: name != "auto")),
            ("heuristic", heuristic_values.filter(lambda name: name != "auto")),
            ("limits", limit_values),
            ("weight", st.sampled_from((None, 1.5))),
            ("seed", st.sampled_from((None, 3))),
            ("progress", st.sampled_from(CALLBACKS)),
            ("workers", st.sampled_from((None, 1))),
        ),
    ),
    Spec(
        "compare",
        fp.compare,
        (
            ("boards", st.lists(board_values, min_size=1, max_size=2)),
            ("algorithms", st.sampled_from(("bfs", ["astar", "idastar"], ("greedy",)))),
            ("heuristics", st.sampled_from(("manhattan", ["misplaced", "linear_conflict"]))),
            ("goal", st.just(None)),
            ("limits", limit_values),
            ("weight", st.sampled_from((None, 2))),
            ("seed", st.sampled_from((None, 1))),
            ("progress", st.sampled_from(CALLBACKS)),
        ),
    ),
    Spec(
        "solve_many",
        fp.solve_many,
        (
            ("boards", st.lists(board_values, max_size=3)),
            ("goal", st.just(None)),
            ("shape", st.just(None)),
            ("algorithm", st.sampled_from(("auto", "astar"))),
            ("heuristic", st.sampled_from(("auto", "manhattan"))),
            ("limits", limit_values),
            ("workers", st.sampled_from((None, 1, 2))),
            ("client", st.just(None)),
            ("chunk_size", st.sampled_from((None, 1, 2))),
            ("progress", st.sampled_from((None, False, *CALLBACKS))),
            ("out", st.just(None)),
            ("out_format", st.sampled_from(("csv", "jsonl"))),
            ("resume", st.just(False)),
            ("optimal", st.booleans()),
            ("keep_rows", st.booleans()),
        ),
    ),
    Spec(
        "random_board",
        fp.random_board,
        (("shape", shape_values), ("rng", st.sampled_from((None, 1))), ("goal", st.just(None))),
    ),
    Spec(
        "random_boards",
        fp.random_boards,
        (
            ("n", st.integers(0, 5)),
            ("shape", shape_values),
            ("rng", st.sampled_from((None, 1))),
            ("goal", st.just(None)),
            ("unique", st.booleans()),
        ),
        costly=frozenset({"n"}),
    ),
    Spec(
        "all_boards",
        fp.all_boards,
        (("shape", st.sampled_from(((2, 2), (2, 3)))), ("goal", st.just(None))),
        costly=frozenset({"shape"}),
    ),
    Spec("space_size", fp.space_size, (("shape", shape_values),)),
    Spec(
        "split_mask",
        fp.split_mask,
        (
            ("boards", st.just(np.array([1, 2, 3], dtype=np.uint64))),
            ("test_size", st.sampled_from((0.0, 0.5, 1))),
            ("seed", st.sampled_from((0, 7))),
        ),
    ),
    Spec(
        "scramble",
        fp.scramble,
        (("board", board_values), ("moves", st.integers(0, 9)), ("rng", st.just(2))),
        costly=frozenset({"moves"}),
    ),
    Spec("parse_moves", fp.parse_moves, (("moves", move_values),)),
    Spec("inverse", fp.inverse, (("moves", move_values),)),
    Spec("to_tile_directions", fp.to_tile_directions, (("moves", move_values),)),
    Spec("is_solvable", fp.is_solvable, (("board", board_values), ("goal", goal_values))),
    Spec(
        "hint",
        fp.hint,
        (("board", board_values), ("goal", goal_values), ("limits", limit_values)),
    ),
    Spec(
        "explain_solvability",
        fp.explain_solvability,
        (("board", board_values), ("goal", goal_values)),
    ),
    Spec("manhattan", fp.manhattan, (("board", board_values), ("goal", goal_values))),
    Spec("misplaced", fp.misplaced, (("board", board_values), ("goal", goal_values))),
    Spec("linear_conflict", fp.linear_conflict, (("board", board_values), ("goal", goal_values))),
    Spec("euclidean", fp.euclidean, (("board", board_values), ("goal", goal_values))),
    Spec(
        "check_heuristic",
        fp.check_heuristic,
        (
            ("function", st.sampled_from((fp.misplaced, lambda tiles: 0, lambda tiles: 1.5))),
            ("shape", st.sampled_from(((2, 2), (2, 3)))),
            ("goal", st.just(None)),
            ("sample", st.sampled_from((None, 1, ["1 2/3 _"]))),
            ("rng", st.sampled_from((None, 0))),
        ),
    ),
    Spec(
        "depth_study",
        fp.depth_study,
        (
            ("shape", st.sampled_from(((2, 2), (2, 3), (3, 3)))),
            ("depths", st.sampled_from(((1, 2), range(0, 3), [3], (), (-1,), (2.5,)))),
            ("per_depth", st.sampled_from((1, 2, 0, -1))),
            ("methods", st.sampled_from((["bfs"], ["astar+manhattan", "idastar"], [], ["nope"]))),
            ("goal", st.just(None)),
            ("limits", st.just(TIGHT)),
            ("rng", st.sampled_from((None, 1))),
        ),
        costly=frozenset({"per_depth"}),
    ),
    Spec(
        "labelled",
        fp.labelled,
        (
            ("n", st.integers(0, 3)),
            ("shape", st.sampled_from(((2, 2), (2, 3)))),
            ("rng", st.just(1)),
            ("goal", st.just(None)),
            ("path", st.booleans()),
            ("limits", st.just(TIGHT)),
            ("workers", st.sampled_from((None, 1))),
            ("unique", st.booleans()),
            ("optimal_mask", st.booleans()),
        ),
        # Without limits a valid shape of 16 cells would build and search for minutes.
        costly=frozenset({"n"}),
        fixed=frozenset({"limits"}),
    ),
    Spec(
        "write_labelled",
        fp.write_labelled,
        (
            ("path", st.sampled_from(("data.parquet", Path("more.parquet")))),
            ("n", st.integers(0, 3)),
            ("shape", st.sampled_from(((2, 2), (2, 3)))),
            ("rng", st.just(1)),
            ("goal", st.just(None)),
            ("chunk_size", st.sampled_from((1, 2, 1000))),
            ("limits", st.just(TIGHT)),
            ("workers", st.sampled_from((None, 1))),
            ("progress", st.sampled_from((None, False, *CALLBACKS))),
            ("unique", st.booleans()),
            ("optimal_mask", st.booleans()),
        ),
        costly=frozenset({"n", "chunk_size"}),
        fixed=frozenset({"limits"}),
    ),
    Spec(
        "build_pdb",
        fp.build_pdb,
        (
            ("partition", st.sampled_from(([[0]], [[0, 1]]))),
            ("shape", st.just((2, 2))),
            ("goal_blank", st.just(None)),
            ("cache_dir", st.just(None)),
            ("progress", st.just(False)),
            ("force", st.booleans()),
            ("deadline", st.sampled_from((None, 0.0))),
        ),
    ),
    Spec("pdb_cache_dir", fp.pdb_cache_dir, (("cache_dir", st.sampled_from((None, "pdbs"))),)),
)


ANYTHING = anything()
SMALL_ANYTHING = anything(huge=False)


def _arguments(spec: Spec) -> st.SearchStrategy[dict[str, object]]:
    """Valid values for every parameter, arbitrary ones for up to three of them."""
    names = [name for name, _ in spec.params if name not in spec.fixed]

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, object]:
        fuzzed = draw(st.sets(st.sampled_from(names), max_size=min(3, len(names))))
        return {
            name: draw(
                (SMALL_ANYTHING if name in spec.costly else ANYTHING) if name in fuzzed else valid
            )
            for name, valid in spec.params
        }

    return build()


def untyped(spec: Spec, arguments: dict[str, object]) -> BaseException | None:
    """The exception the call raised that is not a FastPuzzleError, or None."""
    try:
        if spec.positional:
            spec.call(*arguments.values())
        else:
            spec.call(**arguments)
    except fp.FastPuzzleError:
        return None
    except IndexError as error:
        # board[row, col]: Python's protocol for a well-formed index off the board.
        return None if spec.name == "Board[]" and "is outside" in str(error) else error
    except ImportError as error:
        # write_labelled without pyarrow: the documented error, naming the extra.
        return None if "fastpuzzle[parquet]" in str(error) else error
    except OSError as error:
        # A path the file system refuses (a fuzzed name too long, in a missing folder):
        # write_labelled writes a file there as open() would, and raises what open() raises.
        if spec.name == "write_labelled" and not isinstance(error, FileExistsError):
            return None
        # solve_many's documented error for an out= directory that already holds a batch (a
        # fuzzed path such as "x" is used twice in the sandbox).
        return None if spec.name == "solve_many" and "already holds" in str(error) else error
    except Exception as error:
        return error
    return None


@contextmanager
def sandbox(directory: Path) -> Iterator[None]:
    """Run in ``directory`` with the table cache there: a fuzzed path is written to it."""
    before, cache = Path.cwd(), os.environ.get("FASTPUZZLE_CACHE")
    os.chdir(directory)
    os.environ["FASTPUZZLE_CACHE"] = str(directory / "cache")
    try:
        yield
    finally:
        os.chdir(before)
        if cache is None:
            os.environ.pop("FASTPUZZLE_CACHE", None)
        else:
            os.environ["FASTPUZZLE_CACHE"] = cache


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with sandbox(tmp_path_factory.mktemp("any-arguments")):
        yield


def test_every_public_callable_is_fuzzed():
    # A function added to __all__ must be added here too.
    functions = {name for name in fp.__all__ if inspect.isfunction(getattr(fp, name))}
    assert len(functions) == 26
    assert functions <= {spec.name for spec in SPECS}


@pytest.mark.heavy
@pytest.mark.parametrize("spec", SPECS, ids=[spec.name for spec in SPECS])
def test_any_arguments_raise_a_typed_error_or_succeed(spec, workspace):
    @settings(max_examples=60, deadline=None, database=None)
    @given(_arguments(spec))
    def check(arguments: dict[str, object]) -> None:
        started = time.monotonic()
        error = untyped(spec, arguments)
        call = f"{spec.name}({shown(arguments, 300)})"
        assert error is None, f"{call} raised {shown(error, 300)}"
        assert time.monotonic() - started < 10, f"{call} took too long"

    check()


# -----------------------------------------------------------------------------------------------
# Bad arguments, checked before any work. Each case raised a plain ValueError or TypeError (or
# worse) before its fix: the call sites of the fault audit's item 2, some failing while building
# their own message, some after a batch had started.

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
            r"only wastar and idastar take a weight, got weight=2 for astar",
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
            "solve-fast-with-no-workers",
            lambda tmp: fp.solve(B, optimal=False, workers=0),
            fp.InvalidOptionError,
            r"expected workers as a whole number from 1 to 256 or None, got 0",
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
            r"got the integer 5: a packed board .* needs its shape: pass shape=",
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
            r"expected n as a whole number from 0 to 1,073,741,824 \(.*\), got 2.5",
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
    """Found by test_any_arguments_raise_a_typed_error_or_succeed (above): scalars among rows,
    flags of the wrong type, names and shapes quoting an int too long to print."""
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
            r"up to 64 cells, not <tuple object>",
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


# -----------------------------------------------------------------------------------------------
# Input that must be refused, and requests that must say what to do instead. Each case failed
# before its fix: a raw ValueError or OverflowError, a silently accepted value, or a message that
# did not say what went wrong (the hostile-input review of issue 14).


@pytest.mark.parametrize(
    "text",
    [
        "1 ² 3/4 5 6/7 8 _",  # a superscript: isdigit() but not int()
        "\uff11 2 3/4 5 6/7 8 _",  # a full-width 1: int() would read it as 1
        "1 2 3/4 \u0665 6/7 8 _",  # an Arabic-Indic 5
    ],
)
def test_only_ascii_digits_are_tiles(text):
    with pytest.raises(fp.InvalidBoardError, match="expected integer tiles"):
        fp.Board(text)


@pytest.mark.parametrize(
    "data",
    [
        {1, 2, 3, 0},
        frozenset({1, 2, 3, 0}),
        {1: 0, 2: 0, 3: 0, 0: 0},
        memoryview(bytes([1, 2, 3, 0])),
        bytearray([1, 2, 3, 0]),
        np.ma.array([1, 2, 3, 0], mask=[0, 1, 0, 0]),
    ],
    ids=["set", "frozenset", "dict", "memoryview", "bytearray", "masked"],
)
def test_unordered_and_masked_inputs_are_refused(data):
    with pytest.raises(fp.InvalidBoardError):
        fp.Board(data)


@pytest.mark.parametrize("packed", [801.9, 801.0, "801", b"801", float("inf"), True, None])
def test_from_packed_takes_integers_only(packed):
    with pytest.raises(fp.InvalidBoardError, match="expected an integer packed board"):
        fp.Board.from_packed(packed, shape=(2, 2))


def test_from_packed_still_takes_python_and_numpy_integers():
    assert fp.Board.from_packed(801, shape=(2, 2)) == fp.Board("1 2/3 _")
    assert fp.Board.from_packed(np.uint64(801), shape=(2, 2)) == fp.Board("1 2/3 _")


def test_move_words_parse_alone_and_together():
    assert parse_moves("up") == "U"
    assert parse_moves("Left") == "L"
    assert parse_moves("up left") == "UL"
    assert parse_moves("ULDR") == "ULDR"
    with pytest.raises(fp.InvalidMoveError):
        parse_moves("upp")


@pytest.mark.parametrize("moves", [None, 5, b"UL", 2.5])
def test_parse_moves_refuses_non_text(moves):
    with pytest.raises(fp.InvalidMoveError, match="expected moves"):
        parse_moves(moves)


@pytest.mark.parametrize("progress", [5, "print", [print]])
def test_a_progress_that_cannot_be_called_is_refused_up_front(progress):
    with pytest.raises(fp.InvalidOptionError, match="callable"):
        fp.solve("1 2 3/4 5 6/7 _ 8", algorithm="astar", progress=progress)


def test_optimal_solve_of_a_huge_board_names_the_fast_solver():
    board = fp.random_board((40, 40), rng=1)
    with pytest.raises(fp.DepthLimitError, match=r"optimal=False"):
        fp.solve(board)


def test_scramble_of_millions_of_moves_ends_on_a_solvable_board():
    # The walk runs in a compiled loop (10**7 moves: 0.43 s here, against 47 s for the Python
    # loop it replaced; speed is measured outside the tests).
    board = fp.scramble(fp.Board.goal((4, 4)), 2 * 10**6, rng=1)
    assert board.is_solvable() and board != fp.Board.goal((4, 4))


def test_random_walk_never_undoes_a_move_and_stays_on_the_board():
    rng = np.random.default_rng(5)
    draws = rng.integers(0, 2**64, size=20_000, dtype=np.uint64, endpoint=False)
    codes = np.empty(len(draws), dtype=np.uint8)
    rows, cols = 3, 5
    end, last = _board.random_walk_codes(rows, cols, 7, draws, codes)
    row, col = divmod(7, cols)
    steps = {0: (-1, 0), 1: (1, 0), 2: (0, -1), 3: (0, 1)}
    seen = set()
    for previous, code in zip([-1, *codes[:-1].tolist()], codes.tolist()):
        assert previous < 0 or code != previous ^ 1
        row, col = row + steps[code][0], col + steps[code][1]
        assert 0 <= row < rows and 0 <= col < cols
        seen.add(row * cols + col)
    assert (end, last) == (row * cols + col, int(codes[-1]))
    assert len(seen) == rows * cols  # it wanders over the whole board
    # The same seed gives the same board.
    assert fp.scramble(fp.Board.goal((4, 4)), 500, rng=9) == fp.scramble(
        fp.Board.goal((4, 4)), 500, rng=9
    )


@pytest.mark.parametrize("weight", [float("inf"), float("nan"), 10**9, 0.5])
def test_a_weight_the_queue_cannot_hold_is_refused(weight):
    # inf raised OverflowError inside the search; 10**6 took 800 MB on a 3x3 board.
    with pytest.raises(fp.InvalidOptionError, match="expected a weight from 1 to 1,000"):
        fp.search("8 6 7/2 5 4/3 _ 1", algorithm="wastar", weight=weight)


@pytest.mark.parametrize("optimal", [None, "yes", 0, 1])
def test_optimal_must_be_a_bool(optimal):
    # optimal=None used to give a fast, non-optimal solution.
    with pytest.raises(fp.InvalidOptionError, match="optimal=True or optimal=False"):
        fp.solve("1 2 3/4 5 6/7 _ 8", optimal=optimal)


def test_solve_many_refuses_unknown_names_up_front():
    # Every row used to come back with status 'error'.
    boards = np.array([fp.Board("1 2 3/4 5 6/7 _ 8").packed], dtype=np.uint64)
    with pytest.raises(fp.UnknownNameError, match="unknown algorithm 'nope'"):
        fp.solve_many(boards, shape=(3, 3), algorithm="nope")
    with pytest.raises(fp.UnknownNameError, match="unknown heuristic 'nope'"):
        fp.solve_many(boards, shape=(3, 3), algorithm="astar", heuristic="nope")
    with pytest.raises(fp.InvalidOptionError):
        fp.solve_many(boards, shape=(3, 3), optimal=None)


@pytest.mark.parametrize(
    "moves",
    [{"U", "L", "D"}, frozenset({"U", "L"}), {"U": 1, "L": 2}, memoryview(b"UL")],
    ids=["set", "frozenset", "dict", "memoryview"],
)
def test_moves_from_unordered_containers_are_refused(moves):
    # A set's order (and so the board it led to) changed from process to process.
    board = fp.Board("1 2 3/4 5 6/7 8 _")
    for call in (parse_moves, board.apply, board.tiles_moved, fp.inverse):
        with pytest.raises(fp.InvalidMoveError, match=r"expected moves .* in order, got a "):
            call(moves)
    assert (
        board.apply(["U", "L"]) == board.apply(iter("UL")) == board.apply({"U": 1, "L": 2}.keys())
    )


# -----------------------------------------------------------------------------------------------
# Arguments checked up front, and inputs read within bounds (issue 37, items 5 and 6): ``--shape``
# before any line is read, ``solve_many(out=...)`` before any board is solved, and a batch file
# without line ends refused (``scramble`` in bounded memory: test_generate.py).


def _boards(tmp_path: Path) -> Path:
    source = tmp_path / "boards.txt"
    source.write_text("1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/_ 7 8\n")
    return source


@pytest.mark.parametrize(
    ("shape", "says"),
    [
        (["99999999999999999999", "2"], "at most 100 rows"),
        (["3", "99999999999999999999"], "at most 100 rows"),
        (["0", "3"], "at least 2 rows"),
        (["-3", "3"], "at least 2 rows"),
    ],
)
@pytest.mark.parametrize("command", ["batch", "solve", "compare", "random", "scramble"])
def test_a_shape_out_of_range_is_one_error_before_any_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: list[str], says: str, command: str
) -> None:
    source = str(_boards(tmp_path))
    args = {"batch": [source], "solve": ["1 2 3/4 5 6/7 _ 8"], "compare": ["1 2 3/4 5 6/7 _ 8"]}
    assert main([command, *args.get(command, []), "--shape", *shape]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines == [f"fastpuzzle: error: --shape: {lines[0].split('--shape: ', 1)[1]}"]
    assert says in lines[0] and captured.out == ""


def _run_batch(source: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fastpuzzle", "batch", source],
        input=stdin,
        capture_output=True,
        timeout=60,
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="/dev/zero")
def test_a_batch_file_without_line_ends_is_refused_not_read_forever() -> None:
    started = time.monotonic()
    done = _run_batch("/dev/zero")
    assert done.returncode == 2
    assert b"line 1 is longer than 1,048,576 characters" in done.stderr
    assert b"Traceback" not in done.stderr
    assert time.monotonic() - started < 30
    piped = _run_batch("-", stdin=b"1 2 3/4 5 6/7 _ 8\n" + b"7" * (MAX_LINE + 5))
    assert piped.returncode == 2 and b"line 2 is longer" in piped.stderr


def test_long_lines_up_to_the_bound_are_read(tmp_path: Path) -> None:
    # A 100x100 board on one line is far below the bound.
    board = fp.random_board((100, 100), rng=3)
    assert len(board.to_string()) < MAX_LINE // 10
    source = tmp_path / "wide.txt"
    source.write_text(" " * (MAX_LINE - 20) + "1 2 3/4 5 6/7 _ 8\n")
    assert main(["batch", str(source), "--no-progress"]) == 0


@pytest.mark.parametrize(
    ("out", "error", "says"),
    [
        ("", fp.InvalidOptionError, "non-empty"),
        ("bad\0name", fp.InvalidOptionError, "non-empty"),
        ("afile", fp.BatchFileError, "is a file, not a directory"),
        ("afile/sub", fp.BatchFileError, "cannot create the out= directory"),
        ("fifo", fp.BatchFileError, "is a FIFO, not a directory"),
    ],
)
def test_an_out_that_is_no_directory_is_refused_typed_before_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: str, error: type, says: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    boards = np.array([fp.random_board((3, 3), rng=1).packed], dtype=np.uint64)
    with pytest.raises(error, match=says):
        fp.solve_many(boards, shape=(3, 3), out=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "fifo"]


def test_a_cache_dir_of_no_name_is_refused() -> None:
    with pytest.raises(fp.pdb.PatternDatabaseError, match="non-empty"):
        fp.pdb_cache_dir("")


# -----------------------------------------------------------------------------------------------
# Inputs read within bounds and counts checked before numpy sees them (issue 43, items 1, 2 and
# 5): a board, a goal or a list of boards from an endless iterator or a huge ``range`` ends in the
# library's typed error after a bounded read; counts past a documented bound are refused by name;
# ``write_labelled`` into a folder that does not exist says so before any work.


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
        fp.write_labelled(path, 10, (3, 3), chunk_size=2**40)
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


# -----------------------------------------------------------------------------------------------
# Issue 53, items 5 and 6: names from an endless generator, long move strings and a draw the
# system has no memory for end in typed errors after a bounded read; pictures take any board.


@pytest.mark.parametrize(
    ("what", "call"),
    [
        ("algorithms", lambda names: fp.compare([START], names)),
        ("heuristics", lambda names: fp.compare([START], ["astar"], heuristics=names)),
        ("metric", lambda names: fp.compare([START], ["bfs"]).plot(metric=names)),
    ],
    ids=["algorithms", "heuristics", "plot-metric"],
)
def test_endless_names_are_read_to_their_bound(what: str, call: Callable[[Any], Any]) -> None:
    # Before: read until the process ran out of memory (3.7 GB in 5 s), then a bare MemoryError.
    listed = Endless("expanded" if what == "metric" else "astar", most=MAX_NAMES + 2)
    with pytest.raises(fp.InvalidOptionError, match=f"{what} .*at most {MAX_NAMES:,} items"):
        call(listed)
    assert listed.read == MAX_NAMES + 1


def test_plot_reads_endless_axes_to_one_past_the_metrics() -> None:
    axes = Endless(None, most=3)
    with pytest.raises(fp.InvalidOptionError, match="at most 2 items"):
        fp.compare([START], ["bfs"]).plot(metric=["expanded", "seconds"], ax=axes)
    assert axes.read == 3


def test_a_move_string_past_the_bound_is_refused_in_little_memory() -> None:
    # "LR" * 10**8 peaked at 11.5 times its size (a list of one string a letter), then a bare
    # MemoryError.
    moves = "L" * (MAX_LISTED + 1)
    tracemalloc.start()
    try:
        with pytest.raises(fp.InvalidMoveError, match=f"at most {MAX_LISTED:,} moves"):
            parse_moves(moves)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(moves) // 2, f"{peak:,} bytes for a text of {len(moves):,}"


def test_a_move_string_at_the_bound_is_read() -> None:
    assert parse_moves("lr" * (MAX_LISTED // 2)) == "LR" * (MAX_LISTED // 2)
    assert parse_moves(["up, l", "RIGHT", "du"]) == "ULRDU"
    with pytest.raises(fp.InvalidMoveError, match=f"at most {MAX_LISTED:,} moves"):
        parse_moves(["L" * MAX_LISTED, "R"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS binds on Linux")
def test_random_boards_the_system_has_no_memory_for_is_a_typed_error() -> None:
    # At its bound, 2**30 boards ask numpy for 8 GiB: its bare _ArrayMemoryError said nothing
    # of random_boards. A child process with 3 GiB of address space asks.
    script = (
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "import fastpuzzle as fp\n"
        "try:\n"
        "    fp.random_boards(fp.datasets.MAX_BOARDS, (4, 4), rng=1)\n"
        "except fp.OutOfMemoryError as error:\n"
        "    assert isinstance(error, MemoryError)\n"
        "    print(error)\n"
    )
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "random_boards(n=1,073,741,824) needs 8.00 GiB" in done.stdout


@pytest.mark.parametrize("draw", [board_svg, board_rgb], ids=["svg", "rgb"])
def test_pictures_take_what_board_takes_and_refuse_the_rest_typed(
    draw: Callable[..., Any],
) -> None:
    # Before: AttributeError ('str' object has no attribute 'shape') on anything but a Board.
    as_text = draw("1 2/3 _", cell=16)
    as_board = draw(fp.Board("1 2/3 _"), cell=16)
    assert np.array_equal(np.asarray(as_text), np.asarray(as_board))
    assert np.array_equal(np.asarray(draw([[1, 2], [3, 0]], cell=16)), np.asarray(as_board))
    with pytest.raises(fp.InvalidBoardError, match="got None"):
        draw(None)
    with pytest.raises(fp.InvalidBoardError, match="shape"):
        draw("1 2/3 _", goal="1 2 3/4 5 6/7 8 _")
    with pytest.raises(fp.InvalidOptionError, match="expected cell as a whole number"):
        draw("1 2/3 _", cell="16")


def test_write_labelled_into_a_missing_folder_says_so_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: a bare FileNotFoundError once the file was opened, after the boards were drawn.
    def no_draw(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("boards drawn before the path was checked")

    monkeypatch.setattr(datasets, "random_boards", no_draw)
    path = tmp_path / "missing" / "boards.parquet"
    with pytest.raises(fp.InvalidOptionError, match=r"missing is not a directory, so .* cannot"):
        fp.write_labelled(path, 10, (3, 3), rng=1, unique=True)
    assert not (tmp_path / "missing").exists()
