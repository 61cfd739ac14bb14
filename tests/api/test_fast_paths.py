"""The per-call fast paths agree with the general ones they skip.

Each fast path (plain tuples and lists of ints, plain shapes, shared goals, cached labels,
parities and names, records built without ``__init__``) must give what the general path gives,
and hand every input it does not accept, bad ones included, to that path unchanged.
"""

import dataclasses
import pickle
import random
from contextlib import contextmanager, nullcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastpuzzle as fp
from fastpuzzle import Board
from fastpuzzle import board as board_module
from fastpuzzle._core import _board
from fastpuzzle._core._result import CoreResult
from fastpuzzle._problem import Problem, canonical_labels, make_problem
from fastpuzzle.algorithms import resolve_algorithm
from fastpuzzle.heuristics import resolve_heuristic
from fastpuzzle.results import SearchResult, SearchStats, Solution, Status, result_from_core


@contextmanager
def general_path():
    """Every board and shape through the general per-tile path, as before the fast paths."""
    saved = board_module._plain_board, board_module._plain_shape
    board_module._plain_board = lambda data, shape: None
    board_module._plain_shape = lambda shape: None
    try:
        yield
    finally:
        board_module._plain_board, board_module._plain_shape = saved


def outcome(data, shape=None):
    """What ``Board(data, shape)`` gives: the board's state, or the error's type and message."""
    try:
        board = Board(data, shape=shape)
    except Exception as error:
        return type(error), str(error)
    return board.shape, board.tiles, board.blank, board._packed


def both_paths(data, shape=None):
    fast = outcome(data, shape)
    with general_path():
        general = outcome(data, shape)
    return fast, general


class Tile(int):
    """An int subclass: valid tiles, but not the plain ints the fast path takes."""


SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (3, 4), (4, 4), (5, 5), (4, 6), (10, 10)]


@pytest.mark.parametrize("shape", SHAPES)
def test_random_valid_boards_give_the_same_board_on_both_paths(shape):
    rng = random.Random(hash(shape))
    rows, cols = shape
    for _ in range(20):
        tiles = list(range(rows * cols))
        rng.shuffle(tiles)
        given_shape = None if rows == cols else shape
        for data in (tuple(tiles), tiles):
            fast, general = both_paths(data, given_shape)
            assert fast == general
            assert fast[:2] == (shape, tuple(tiles))
        assert both_paths(tiles, list(shape)) == both_paths(tiles, shape)


def test_the_fast_path_takes_plain_ints_only():
    plain = [1, 2, 3, 0]
    assert board_module._plain_board(plain, None) == ((2, 2), (1, 2, 3, 0))
    assert board_module._plain_board(tuple(plain), [2, 2]) == ((2, 2), (1, 2, 3, 0))
    for data in (
        [True, 2, 3, 0],
        [1.0, 2, 3, 0],
        [np.int64(1), 2, 3, 0],
        [Tile(1), 2, 3, 0],
        ["1", 2, 3, 0],
        [[1, 2], [3, 0]],
        [1, 2, 3, 3],
        [1, 2, 3, 4],
        [1, 2, 3, -1],
        [1, 2, 3, 0, 4, 5],
        [1, 2, 0],
        [0],
        [],
        np.array([1, 2, 3, 0]),
        "1 2/3 _",
        range(4),
    ):
        assert board_module._plain_board(data, None) is None, data
    for shape in ((2.0, 2), (True, 4), (np.int64(2), 2), (1, 4), (2, 101), (2, 2, 1), "22", None):
        assert board_module._plain_shape(shape) is None, shape


BAD_INPUTS = [
    ([1, 2, 3, 4, 5, 6, 7, 8, 8], None),
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), None),
    ([1, 2, 3, 0, 4], None),
    ([1.0, 2, 3, 0], None),
    ((True, 2, 3, 0), None),
    ([np.bool_(True), 2, 3, 0], None),
    (["1", "2", "3", "0"], None),
    ([[1, 2], [3]], None),
    ([[1, 2], 3, 0], None),
    ([], None),
    ((), None),
    (list(range(101 * 101)), None),
    (list(range(6)), (2, 2)),
    (list(range(6)), (1, 6)),
    (list(range(6)), (2, "3")),
    (list(range(6)), (2.0, 3)),
    (list(range(6)), (True, 6)),
    (list(range(6)), [2, 3, 1]),
    (list(range(202)), (2, 101)),
    ([[1, 2, 3], [0, 4, 5]], (3, 2)),
    ((1, 2, 3, 0), (2, 2, 2)),
]


@pytest.mark.parametrize(("data", "shape"), BAD_INPUTS)
def test_bad_input_raises_the_same_error_on_both_paths(data, shape):
    fast, general = both_paths(data, shape)
    assert fast == general
    assert issubclass(fast[0], fp.InvalidBoardError)


values = st.one_of(
    st.integers(-2, 17),
    st.booleans(),
    st.floats(-1, 17),
    st.integers(0, 16).map(float),
    st.integers(0, 16).map(np.int64),
    st.integers(0, 16).map(Tile),
    st.sampled_from(["1", None]),
)
shapes = st.one_of(
    st.none(),
    st.tuples(st.integers(0, 6), st.integers(0, 6)),
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    st.tuples(st.sampled_from([2.0, True, np.int64(2), 2]), st.integers(2, 4)),
)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.lists(values, max_size=17),
        st.integers(2, 4).flatmap(lambda n: st.permutations(range(n * n))),
        st.permutations(range(6)),
    ),
    st.booleans(),
    shapes,
)
def test_any_sequence_gives_the_same_outcome_on_both_paths(data, as_tuple, shape):
    data = tuple(data) if as_tuple else list(data)
    fast, general = both_paths(data, shape)
    assert fast == general


def test_shape_checks_agree_on_both_paths():
    for shape in [(2, 2), [3, 4], (100, 100), (np.int64(3), 3), (1, 2), (101, 2), (2,), "ab"]:
        results = []
        for context in (nullcontext(), general_path()):
            with context:
                try:
                    results.append(board_module.check_shape(shape))
                except fp.InvalidBoardError as error:
                    results.append(str(error))
        assert results[0] == results[1], shape


def test_goal_boards_are_shared_and_equal_to_built_ones():
    for rows, cols in SHAPES:
        n = rows * cols
        goal = Board.goal((rows, cols))
        assert goal is Board.goal([rows, cols])
        assert goal == Board([*range(1, n), 0], shape=(rows, cols))
        assert Board.goal((rows, cols), blank="first") == Board(list(range(n)), shape=(rows, cols))
    with pytest.raises(fp.InvalidBoardError, match="expected blank='last' or 'first'"):
        Board.goal((3, 3), blank="middle")
    with pytest.raises(fp.InvalidBoardError, match=r"expected shape as \(rows, cols\)"):
        Board.goal((3.0, 3))


def reference_solvable(board, goal):
    """The parity rule as first written: cycles of the cell-to-goal-cell map, blank included."""
    home = [0] * board.size
    for cell, tile in enumerate(goal.tiles):
        home[tile] = cell
    mapping = [home[tile] for tile in board.tiles]
    seen, cycles = [False] * len(mapping), 0
    for start in range(len(mapping)):
        if not seen[start]:
            cycles += 1
            cell = start
            while not seen[cell]:
                seen[cell] = True
                cell = mapping[cell]
    (r1, c1), (r2, c2) = board.blank_position, goal.blank_position
    return (len(mapping) - cycles) % 2 == (abs(r1 - r2) + abs(c1 - c2)) % 2


@pytest.mark.parametrize("shape", SHAPES)
def test_solvability_matches_the_reference_for_random_boards_and_goals(shape):
    rng = random.Random(repr(shape))
    rows, cols = shape
    for _ in range(40):
        tiles, goal_tiles = list(range(rows * cols)), list(range(rows * cols))
        rng.shuffle(tiles)
        rng.shuffle(goal_tiles)
        board = Board(tiles, shape=shape)
        for goal in (Board(goal_tiles, shape=shape), Board.goal(shape)):
            assert fp.is_solvable(board, goal) == reference_solvable(board, goal)
            assert board.is_solvable(goal) == reference_solvable(board, goal)


def reference_labels(goal):
    labels = [0] * goal.size
    for cell, tile in enumerate(goal.tiles):
        if tile:
            labels[tile] = cell + 1 if cell < goal.blank else cell
    return labels


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 3), (4, 4), (5, 5)])
def test_problems_match_the_relabelled_reference(shape):
    rng = random.Random(repr(shape))
    n = shape[0] * shape[1]
    for _ in range(30):
        tiles, goal_tiles = list(range(n)), list(range(n))
        rng.shuffle(tiles)
        rng.shuffle(goal_tiles)
        board = Board(tiles, shape=shape)
        for goal in (Board(goal_tiles, shape=shape), Board.goal(shape)):
            labels = reference_labels(goal)
            assert canonical_labels(goal) == labels
            problem = make_problem(board, goal, check_solvable=False)
            if n <= 16:
                expected = _board.pack([labels[t] for t in tiles])
                assert problem.packed == expected
                assert problem == Problem(board, goal, expected, board.blank, goal.blank)
                assert repr(problem) == repr(
                    Problem(board, goal, expected, board.blank, goal.blank)
                )
            else:
                assert problem.cells.tolist() == [labels[t] for t in tiles]
            assert problem.wide_cells().tolist() == [labels[t] for t in tiles]


def test_canonical_labels_are_a_fresh_list_each_time():
    goal = Board("1 2 3/4 _ 5/6 7 8")
    labels = canonical_labels(goal)
    labels[1] = 99
    assert canonical_labels(goal) == reference_labels(goal)


@pytest.mark.parametrize("shape", [(2, 3), (3, 3), (4, 4)])
@pytest.mark.parametrize("algorithm", ["astar", "wastar", "greedy", "bidirectional", "iddfs"])
def test_searches_give_the_same_results_on_both_paths(shape, algorithm):
    rng = random.Random(repr((shape, algorithm)))
    goals = [None, fp.random_board(shape, rng=rng.randrange(1 << 30))]
    for goal in goals:
        target = Board.goal(shape) if goal is None else goal
        board = fp.scramble(target, 14, rng=rng.randrange(1 << 30))
        data = board.tiles if shape[0] == shape[1] else list(board.tiles)
        found = []
        for context in (nullcontext(), general_path()):
            with context:
                start = data if shape[0] == shape[1] else Board(data, shape=shape)
                goal_data = None if goal is None else list(goal.tiles)
                if goal_data is not None and shape[0] != shape[1]:
                    goal_data = Board(goal_data, shape=shape)
                result = fp.search(start, goal_data, algorithm=algorithm)
            found.append(
                (
                    result.status,
                    result.solution and result.solution.moves,
                    dataclasses.replace(result.stats, seconds=0.0),
                    result.board,
                    result.goal,
                    result.algorithm,
                    result.heuristic,
                    result.solution and result.solution.optimal,
                )
            )
        assert found[0] == found[1]


def test_names_resolve_the_same_when_repeated():
    for spelling in ["astar", "A*", " a-star ", "BIDI", "ida*"]:
        first = resolve_algorithm(spelling)
        assert resolve_algorithm(spelling) is first
    for name, algorithm in [("md", "astar"), ("LC", "astar"), ("pdb", "idastar")]:
        first = resolve_heuristic(name, resolve_algorithm(algorithm))
        assert resolve_heuristic(name, resolve_algorithm(algorithm)) is first


def test_name_caches_keep_each_algorithms_restrictions():
    assert resolve_heuristic("pdb", resolve_algorithm("idastar")).name == "pdb"
    for _ in range(2):
        with pytest.raises(fp.UnknownNameError, match="unknown heuristic 'pdb' for astar"):
            resolve_heuristic("pdb", resolve_algorithm("astar"))
        with pytest.raises(fp.UnknownNameError, match="unknown algorithm 'astarr'"):
            resolve_algorithm("astarr")
    assert resolve_heuristic("pdb").name == "pdb"


class Name(str):
    """A str subclass: resolved like its text."""


def test_str_subclasses_resolve_like_their_text():
    assert resolve_algorithm(Name("A*")).name == "astar"
    assert resolve_heuristic(Name("md")).name == "manhattan"


def test_records_built_from_the_core_equal_constructed_ones():
    board, goal = Board("1 2 3/4 5 6/7 _ 8"), Board.goal((3, 3))
    for code in range(6):
        core = CoreResult(code, "R" if code == 0 else "", 1, 2, 3, 400, 0.5, 1, 1)
        result = result_from_core(board, goal, core, "astar", "manhattan", True)
        stats = SearchStats(
            expanded=1,
            generated=2,
            max_frontier=3,
            peak_memory_bytes=400,
            seconds=0.5,
            depth=1,
            iterations=1,
        )
        solution = (
            Solution(board, goal, "R", stats, "astar", "manhattan", True, 1) if code == 0 else None
        )
        expected = SearchResult(
            board, goal, Status.from_code(code), solution, stats, "astar", "manhattan"
        )
        assert result == expected
        assert repr(result) == repr(expected)
        assert hash(result.stats) == hash(stats)
        assert vars(result) == vars(expected)
        assert vars(result.stats) == vars(stats)
        assert pickle.loads(pickle.dumps(result)) == expected
        assert dataclasses.replace(result.stats, depth=5).depth == 5
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.stats.depth = 3  # type: ignore[misc]


def test_records_have_no_post_init_to_skip():
    # Built without __init__: a __post_init__ added later would silently not run.
    for cls in (SearchStats, Solution, SearchResult, Problem):
        assert not hasattr(cls, "__post_init__"), cls
