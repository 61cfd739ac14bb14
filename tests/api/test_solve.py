"""search() and solve(): names and aliases, option checks, errors before searching, statistics,
and the same API past 16 cells (solve_many's too), where the wide core runs underneath.
"""

from __future__ import annotations

import types

import pytest

import fastpuzzle as fp
from fastpuzzle import algorithms
from fastpuzzle._solver import idastar, policy, pruning
from fastpuzzle.algorithms import resolve_algorithm, weight_fraction
from fastpuzzle.heuristics import resolve_heuristic

EASY = "1 2 3/4 5 6/_ 7 8"  # "RR"
MEDIUM = (5, 2, 3, 4, 1, 8, 0, 7, 6)  # 14 moves
UNSOLVABLE = "1 2 3/4 5 6/8 7 _"


def test_registry_lists_every_algorithm():
    assert set(fp.ALGORITHMS) == {
        "bfs",
        "ucs",
        "dfs",
        "dfs_visited",
        "iddfs",
        "greedy",
        "lookahead",
        "random",
        "astar",
        "wastar",
        "bidirectional",
        "idastar",
    }
    for name, algorithm in fp.ALGORITHMS.items():
        assert algorithm.name == name == name.lower()
        assert algorithm.doc
        assert algorithm.memory in ("nodes", "path")
    optimal = {name for name, a in fp.ALGORITHMS.items() if a.optimal}
    assert optimal == {"bfs", "ucs", "iddfs", "astar", "bidirectional", "idastar"}
    informed = {name for name, a in fp.ALGORITHMS.items() if a.informed}
    assert informed == {"greedy", "lookahead", "astar", "wastar", "idastar"}
    with pytest.raises(TypeError):
        fp.ALGORITHMS["x"] = fp.ALGORITHMS["bfs"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("A*", "astar"),
        ("a-star", "astar"),
        ("ASTAR", "astar"),
        ("bidi", "bidirectional"),
        ("Breadth-First", "bfs"),
        ("breadth_first", "bfs"),
        ("IDA*", "idastar"),
        ("wA*", "wastar"),
        ("weighted-a*", "wastar"),
        ("depth-first", "dfs"),
        ("iterative deepening", "iddfs"),
        ("random-walk", "random"),
        ("greedy-two-level", "lookahead"),
        ("best-first", "greedy"),
    ],
)
def test_aliases_resolve_case_insensitively(alias, name):
    assert resolve_algorithm(alias).name == name


@pytest.mark.parametrize(
    ("alias", "name"),
    [("Manhattan", "manhattan"), ("LC", "linear_conflict"), ("hamming", "misplaced")],
)
def test_heuristic_aliases(alias, name):
    assert resolve_heuristic(alias).name == name


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(fp.UnknownNameError) as caught:
        fp.search(EASY, algorithm="dijkstra-ish")
    message = str(caught.value)
    assert "dijkstra-ish" in message
    for name in fp.ALGORITHMS:
        assert name in message
    with pytest.raises(fp.UnknownNameError) as caught:
        fp.search(EASY, algorithm="astar", heuristic="euclid")
    assert "manhattan" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_every_catalogued_heuristic_resolves_where_it_is_supported():
    from fastpuzzle._core._heuristics import HeuristicCode
    from fastpuzzle.heuristics import CATALOGUE

    # Each compiled code is known to the catalogue, and each entry names a compiled code.
    assert {h.code for h in CATALOGUE} == set(HeuristicCode) - {HeuristicCode.H_NONE}
    for entry in CATALOGUE:
        for spelling in (entry.name, *entry.aliases, entry.name.upper().replace("_", " ")):
            assert resolve_heuristic(spelling) is entry
        for algorithm in fp.ALGORITHMS.values():
            # IDA* computes the whole-board heuristics its kernel lacks in the textbook loop;
            # inadmissible ones are taken everywhere (without the promise of shortest).
            computed = (algorithm.kernel == "best_first" and entry.classic) or (
                algorithm.kernel == "idastar" and ("packed" in entry.idastar or entry.classic)
            )
            if computed:
                assert resolve_heuristic(entry.name, algorithm) is entry
            else:
                with pytest.raises(fp.UnknownNameError, match="expected one of") as caught:
                    resolve_heuristic(entry.name, algorithm)
                assert f"for {algorithm.name}" in str(caught.value)


def test_unsupported_heuristics_say_what_is_supported():
    with pytest.raises(fp.UnknownNameError) as caught:
        fp.search(EASY, algorithm="astar", heuristic="walking_distance")
    message = str(caught.value)
    assert "astar does not compute it" in message
    assert "misplaced, manhattan, linear_conflict" in message
    with pytest.raises(fp.UnknownNameError, match="only 4x4"):
        fp.search(EASY, algorithm="idastar", heuristic="pdb663")
    with pytest.raises(fp.UnknownNameError, match="at most 9 cells"):
        fp.search(fp.Board.goal((3, 4)).apply("UL"), algorithm="idastar", heuristic="table")
    with pytest.raises(fp.UnknownNameError, match="does not use a heuristic"):
        resolve_heuristic("manhattan", resolve_algorithm("bfs"))


def test_option_checks():
    with pytest.raises(fp.InvalidOptionError, match="does not use a heuristic"):
        fp.search(EASY, algorithm="bfs", heuristic="manhattan")
    with pytest.raises(fp.InvalidOptionError, match="weight"):
        fp.search(EASY, algorithm="astar", weight=2)
    with pytest.raises(fp.InvalidOptionError, match="weight from 1 to"):
        fp.search(EASY, algorithm="wastar", weight=0.5)
    with pytest.raises(fp.InvalidOptionError, match="seed"):
        fp.search(EASY, algorithm="bfs", seed=1)
    with pytest.raises(TypeError):
        fp.search(EASY, "bfs")  # type: ignore[misc]
    with pytest.raises(TypeError):
        fp.search(EASY)  # type: ignore[call-arg]


def test_weight_fraction_never_exceeds_the_weight():
    assert weight_fraction(1.0) == (1, 1)
    assert weight_fraction(2.0) == (2, 1)
    assert weight_fraction(1.5) == (3, 2)
    for weight in (1.01, 1.1, 1.3, 1.7, 2.5, 3.14159, 10.0):
        num, den = weight_fraction(weight)
        assert den <= 16
        assert num / den <= weight + 1e-12
        assert weight - num / den < 1 / 16


def test_invalid_input_raises():
    with pytest.raises(fp.InvalidBoardError):
        fp.search("1 2 3/4 5 6/7 8 8", algorithm="bfs")
    with pytest.raises(fp.InvalidBoardError):
        fp.search(EASY, "1 2/3 _", algorithm="bfs")
    with pytest.raises(fp.InvalidBoardError):
        fp.solve([1, 2, 3], algorithm="astar")


@pytest.fixture
def no_search(monkeypatch):
    """Make every compiled driver (IDA*'s kernels included) fail if it is reached."""

    class Boom(types.ModuleType):
        def __getattr__(self, name):
            raise AssertionError(f"the search started ({name})")

    monkeypatch.setattr(algorithms, "_search", Boom("boom"))
    for kernel in ("_idastar", "_wide", "_wide_pdb"):
        monkeypatch.setattr(idastar, kernel, Boom(kernel))


@pytest.mark.parametrize("algorithm", sorted(fp.ALGORITHMS))
def test_unsolvable_raises_before_searching(no_search, algorithm):
    with pytest.raises(fp.UnsolvableError) as caught:
        fp.search(UNSOLVABLE, algorithm=algorithm)
    assert caught.value.board == fp.Board(UNSOLVABLE)
    with pytest.raises(fp.UnsolvableError):
        fp.solve(UNSOLVABLE, algorithm=algorithm)


def test_solve_auto_raises_unsolvable_before_searching(no_search):
    with pytest.raises(fp.UnsolvableError):
        fp.solve(UNSOLVABLE)
    with pytest.raises(fp.UnsolvableError):
        fp.solve("1 2 3/4 5 6/7 8 _", "1 2 3/4 5 6/8 7 _")


def test_search_and_solve_results():
    result = fp.search(MEDIUM, algorithm="a*", heuristic="Manhattan")
    assert result.solved
    assert result.algorithm == "astar"
    assert result.heuristic == "manhattan"
    solution = result.solution
    assert solution.algorithm == "astar"
    assert solution.heuristic == "manhattan"
    assert solution.optimal
    assert len(solution) == 14
    assert solution.boards()[0] == fp.Board(MEDIUM)
    assert solution.boards()[-1] == fp.Board.goal((3, 3))
    solved = fp.solve(MEDIUM, algorithm="bfs")
    assert len(solved) == 14
    assert solved.heuristic is None
    assert fp.solve(MEDIUM, algorithm="astar").heuristic == "manhattan"


def test_informed_default_heuristic_is_manhattan():
    assert fp.search(EASY, algorithm="greedy").heuristic == "manhattan"


def test_any_goal():
    goal = "_ 1 2/3 4 5/6 7 8"
    board = fp.scramble(goal, moves=30, rng=4)
    for algorithm in ("bfs", "astar", "bidirectional", "greedy", "iddfs"):
        solution = fp.solve(board, goal, algorithm=algorithm)
        assert solution.goal == fp.Board(goal)
        assert solution.verify()


@pytest.mark.parametrize("algorithm", sorted(set(fp.ALGORITHMS) - {"idastar"}))
@pytest.mark.parametrize("board", [MEDIUM, (8, 6, 7, 2, 5, 4, 3, 0, 1)])
def test_stats_are_consistent(algorithm, board):
    informed = fp.ALGORITHMS[algorithm].informed
    result = fp.search(
        board,
        algorithm=algorithm,
        heuristic="manhattan" if informed else None,
        seed=5 if algorithm == "random" else None,
        # dfs's own bound (misplaced + Manhattan) is below both boards' optimal lengths.
        limits=fp.Limits(max_depth=31) if algorithm == "dfs" else None,
    )
    stats = result.stats
    assert result.solved
    assert stats.depth == len(result.solution)
    assert 0 < stats.expanded <= stats.generated + 1
    assert stats.generated <= 4 * stats.expanded
    assert stats.max_frontier <= stats.generated + 1
    assert stats.seconds >= 0
    assert stats.peak_memory_bytes > 0
    assert stats.iterations >= 1
    if algorithm == "iddfs":
        assert stats.iterations == len(result.solution)


def test_iterations_of_iddfs_count_the_bounds():
    result = fp.search(MEDIUM, algorithm="iddfs")
    assert result.stats.iterations == 14
    assert result.stats.peak_memory_bytes < 1000  # only the path


def test_solve_auto_is_optimal():
    solution = fp.solve(MEDIUM)
    assert len(solution) == 14
    assert solution.optimal
    assert solution.verify()


def test_idastar_through_the_registry():
    for heuristic in ("misplaced", "manhattan", "linear_conflict"):
        solution = fp.solve(MEDIUM, algorithm="ida*", heuristic=heuristic)
        assert len(solution) == 14
        assert solution.algorithm == "idastar"
        assert solution.heuristic == heuristic


# -----------------------------------------------------------------------------------------------
# Past 16 cells: the same API, the wide core underneath.

# fastpuzzle.solve is the function; the module behind it:


@pytest.fixture(scope="module")
def scrambled_5x5():
    return [fp.scramble(fp.Board.goal((5, 5)), 36, rng=seed) for seed in range(4)]


def test_solve_is_optimal_past_16_cells(scrambled_5x5, tmp_path, monkeypatch):
    # An empty cache: without the 5x5 pattern database solve() uses linear conflict.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    for board in scrambled_5x5:
        solution = fp.solve(board)
        assert solution.verify() and solution.optimal
        assert solution.algorithm == "idastar" and solution.heuristic == "linear_conflict"
        # Cross-check against the Manhattan search: both are optimal, so the lengths agree.
        manhattan = fp.search(board, algorithm="idastar", heuristic="manhattan")
        assert len(manhattan.solution) == len(solution)
        assert len(solution) <= 36 and len(solution) % 2 == 0


def test_solve_with_another_goal_on_a_rectangle():
    goal = fp.random_board((3, 7), rng=5)
    board = fp.scramble(goal, 30, rng=2)
    solution = fp.solve(board, goal)
    assert solution.board.apply(solution.moves) == goal
    assert len(solution) <= 30


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (5, 5), (7, 3), (10, 10), (30, 30)])
def test_fast_mode_replays_for_every_size(shape):
    board = fp.random_board(shape, rng=7)
    solution = fp.solve(board, optimal=False)
    assert solution.verify() and not solution.optimal
    assert len(solution) >= fp.manhattan(board)


def test_fast_mode_refuses_method_options():
    with pytest.raises(fp.InvalidOptionError, match="optimal=False"):
        fp.solve(fp.Board.goal((3, 3)), optimal=False, algorithm="astar")


def test_classic_algorithms_name_themselves_when_the_board_is_too_big(scrambled_5x5):
    with pytest.raises(fp.BoardTooLargeError, match=r"bfs works on boards of at most 16 cells"):
        fp.search(scrambled_5x5[0], algorithm="bfs")
    with pytest.raises(fp.BoardTooLargeError, match="astar"):
        fp.solve(scrambled_5x5[0], algorithm="astar")


def test_optimal_solve_of_a_hard_big_board_stops_with_a_hint(monkeypatch):
    # The pruning machine first, outside the 0.3 s cap: on a busy machine (or a fresh cache)
    # its build alone can take longer, and the cap would then stop the build instead.
    pruning.machine((6, 6), "fsm")
    monkeypatch.setattr(policy, "WIDE_DEFAULT_SECONDS", 0.3)
    board = fp.random_board((6, 6), rng=1)
    with pytest.raises(fp.TimeLimitError, match="optimal=False") as info:
        fp.solve(board)
    assert info.value.stats.expanded > 0
    with pytest.raises(fp.NodeLimitError):
        fp.solve(board, limits=fp.Limits(nodes=1000))


def test_solve_many_on_big_boards(scrambled_5x5):
    result = fp.solve_many(scrambled_5x5)
    assert result.solved.all()
    assert result.lengths.tolist() == [len(fp.solve(b)) for b in scrambled_5x5]
    fast = fp.solve_many([fp.random_board((8, 8), rng=s) for s in range(3)], optimal=False)
    assert fast.solved.all() and (fast.lengths > 0).all()


def test_results_print_short_in_a_terminal():
    # Before: the dataclasses' reprs, 340 characters for an 8-puzzle's solution (661 for a
    # SearchResult, 900 for a 4x4's) and 68,000 for a 30x30's, seconds=2.994599981320789e-05.
    solution = fp.solve("8 6 7/2 5 4/3 _ 1")
    text = repr(solution)
    assert text.startswith("<Solution: 31 moves RULLDRRUULD") and len(text) < 160, text
    assert "from '8 6 7/2 5 4/3 _ 1'; 31 expanded, " in text
    result = fp.search("8 6 7/2 5 4/3 _ 1", algorithm="bfs", limits=fp.Limits(nodes=1000))
    assert repr(result).startswith("<SearchResult: node_limit (bfs) from '8 6 7/2 5 4/3 _ 1'; 1,0")
    solved = fp.search("5 2 3/4 1 8/_ 7 6", algorithm="bfs")
    assert repr(solved).startswith("<SearchResult: solved, 14 moves (bfs) from ")
    big = fp.solve(fp.random_board((30, 30), rng=1), optimal=False)
    assert len(repr(big)) < 200 and "…" in repr(big)
    # SearchStats stays pasteable, its time to 4 significant digits.
    stats = fp.SearchStats(expanded=31, generated=40, seconds=2.994599981320789e-05, depth=31)
    assert "seconds=2.995e-05" in repr(stats)
    assert eval(repr(stats), {"SearchStats": fp.SearchStats}) == fp.SearchStats(
        expanded=31, generated=40, seconds=2.995e-05, depth=31
    )


def test_solve_and_search_take_shape():
    # Issue 58, item 3: solve([...8 tiles]) said "pass shape=(rows, cols)", and shape= was a
    # TypeError.
    tiles, goal = [1, 2, 3, 4, 5, 6, 0, 7], [1, 2, 3, 4, 5, 6, 7, 0]
    solution = fp.solve(tiles, shape=(2, 4))
    assert solution.board.shape == (2, 4) and solution.moves == "R"
    result = fp.search(tiles, goal, algorithm="bfs", shape=(2, 4))
    assert result.solution is not None and result.solution.moves == "R"
    assert fp.solve(tiles, goal, shape=(4, 2)).board.shape == (4, 2)


@pytest.mark.parametrize("shape", [(5, 5), (4, 5), (6, 6)])
def test_the_too_large_error_names_only_heuristics_that_run_there(shape):
    # Issue 58, item 6: astar on 5x5 suggested walking_distance, which idastar then refused as
    # unknown on 5x5.
    import re

    with pytest.raises(fp.errors.BoardTooLargeError) as refused:
        fp.solve(fp.Board.goal(shape).apply("UL"), algorithm="astar")
    named = re.search(r"use idastar with (.*?) \(", str(refused.value))
    assert named is not None
    board = fp.Board.goal(shape).apply("UL")
    idastar = algorithms.ALGORITHMS["idastar"]
    for name in named.group(1).split(", "):
        # Each one is taken on the shape; those without tables to build run there.
        entry = resolve_heuristic(name, idastar, shape=shape)
        if entry.tables != "pdb":
            assert fp.search(board, algorithm="idastar", heuristic=name, workers=1).solved
