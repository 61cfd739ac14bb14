"""Any argument to any public function: a FastPuzzleError or success, never another exception.

Every function of ``fastpuzzle.__all__`` (and Board's methods, and Limits) is called with
arbitrary values (ints, huge ints, floats, bools, None, strings, bytes, lists, tuples, dicts,
sets, numpy arrays and scalars, objects, Limits, callables) for up to three of its parameters,
the others holding valid values. The valid values keep every call cheap: boards of at most 9
cells (and one 5x5 board) a few moves from their goal, tight limits where a search could run
long.

A bad argument must raise a FastPuzzleError (its typed errors also derive from ValueError, which
is fine); a bare ValueError or TypeError, or anything else, fails. Two other errors are allowed:
IndexError for a well-formed position off the board in ``board[row, col]`` (Python's protocol),
and solve_many's documented FileExistsError for an ``out=`` directory that holds a batch.
"""

from __future__ import annotations

import inspect
import os
import time
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
from fastpuzzle._checks import shown

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
    Spec("manhattan", fp.manhattan, (("board", board_values), ("goal", goal_values))),
    Spec("misplaced", fp.misplaced, (("board", board_values), ("goal", goal_values))),
    Spec("linear_conflict", fp.linear_conflict, (("board", board_values), ("goal", goal_values))),
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
    assert len(functions) == 21
    assert functions <= {spec.name for spec in SPECS}


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
