"""The default optimal solver (``auto``): solve() on 3x3 (exact table), 4x4 (pattern databases),
other shapes, and 4x4 goals whose table is not built yet.

The 6-6-3 database is built once per test session into a temporary cache (seconds), so the default
run solves every random50 board, most of them 50+ moves, with the default solver.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core._result import CoreResult
from fastpuzzle._problem import Problem, make_problem
from fastpuzzle._solver import heuristic_tables, idastar, policy, pruning
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from fastpuzzle.pdb import partitions, store
from fastpuzzle.pdb.partitions import ResolvedPartition
from tests.instances import hard, random50, seed_cases
from tests.oracle import distances_3x3, distances_from
from tests.pdbcache import cache_holding

# fastpuzzle.solve is the function; the module behind it:
solve_module = importlib.import_module("fastpuzzle.solve")


def run_idastar(problem: Problem, heuristic: str, limits: Limits) -> CoreResult:
    """The serial IDA* of the registry's driver, on one request."""
    return idastar.run(Request(problem, heuristic, limits))


@pytest.fixture(scope="module")
def cache_663(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache directory holding the 6-6-3 database, set as ``$FASTPUZZLE_CACHE``."""
    with cache_holding("6-6-3", tmp_path_factory.mktemp("pdb-optimal")) as directory:
        yield directory


def test_random50_all_optimal_with_default_solver(cache_663: Path) -> None:
    cases = random50()
    assert sum(case.optimal_length >= 50 for case in cases) >= 10
    for case in cases:
        solution = fp.solve(list(case.tiles))
        assert len(solution) == case.optimal_length, case.name
        assert solution.verify()
        assert solution.optimal
        assert solution.algorithm == "idastar"
        assert solution.heuristic == "pdb"


def test_seed_4x4_cases_with_default_solver(cache_663: Path) -> None:
    for case in seed_cases():
        if case.size != 4 or case.optimal_length is None or case.optimal_length > 60:
            continue
        solution = fp.solve(list(case.tiles))
        assert len(solution) == case.optimal_length, case.name
        assert solution.verify()


@pytest.mark.slow
def test_seed_4x4_long_cases_with_default_solver(cache_663: Path) -> None:
    for case in seed_cases():
        if case.size == 4 and case.optimal_length is not None and case.optimal_length > 60:
            assert len(fp.solve(list(case.tiles))) == case.optimal_length, case.name


def test_4x4_database_root_never_above_optimal(cache_663: Path) -> None:
    for case in random50():
        core = run_idastar(make_problem(list(case.tiles)), "pdb", Limits(max_depth=0))
        assert core.depth <= case.optimal_length


def test_3x3_default_walks_the_exact_table() -> None:
    distances = distances_3x3()
    rng = random.Random(3)
    for tiles in rng.sample(sorted(distances), 300):
        solution = fp.solve(list(tiles))
        assert len(solution) == distances[tiles]
        assert solution.verify()
        assert (solution.algorithm, solution.heuristic) == ("idastar", "table")
        # The names it reports ask for the same search.
        if len(solution) % 50 == 0:
            again = fp.solve(list(tiles), algorithm=solution.algorithm, heuristic="table")
            assert again.stats.expanded == solution.stats.expanded
        # A walk down the table: every expanded node lies on the solution path.
        assert solution.stats.expanded == len(solution)


def test_3x3_other_goals() -> None:
    rng = random.Random(5)
    for blank in range(9):
        tiles = list(range(1, 9))
        rng.shuffle(tiles)
        goal = [*tiles[:blank], 0, *tiles[blank:]]
        board = fp.scramble(fp.Board(goal, shape=(3, 3)), 40, rng=blank)
        solution = fp.solve(board, goal)
        assert solution.verify()
        by_search = fp.search(board, goal, algorithm="idastar", heuristic="manhattan")
        assert by_search.solution is not None
        assert len(solution) == len(by_search.solution)


@pytest.mark.parametrize("shape", [(2, 4), (4, 2), (2, 3)])
def test_other_shapes_default_matches_bfs(shape: tuple[int, int]) -> None:
    rows, cols = shape
    goal = (*range(1, rows * cols), 0)
    distances = distances_from(goal, rows, cols)
    rng = random.Random(11)
    for tiles in rng.sample(sorted(distances), 60):
        solution = fp.solve(fp.Board(list(tiles), shape=shape))
        assert len(solution) == distances[tiles]
        assert solution.verify()
        # Boards of up to 9 cells walk down their exact distance table, as 3x3 does.
        assert solution.heuristic == "table"


@pytest.mark.heavy
def test_larger_shapes_agree_across_heuristics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    for shape in ((3, 4), (2, 6)):
        board = fp.random_board(shape, rng=2)
        problem = make_problem(board)
        lengths = {
            h: run_idastar(problem, h, Limits(seconds=60)).depth
            for h in ("linear_conflict", "walking_distance", "pdb")
        }
        assert len(set(lengths.values())) == 1, (shape, lengths)
        assert len(fp.solve(board)) == lengths["pdb"]


@pytest.mark.heavy
def test_4x4_other_goals_with_555(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Goal blank on the diagonal (reflection used) and off it (not used).
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    rng = random.Random(1)
    for blank in (0, 5, 1, 14):
        tiles = list(range(1, 16))
        rng.shuffle(tiles)
        goal = fp.Board([*tiles[:blank], 0, *tiles[blank:]], shape=(4, 4))
        board = fp.scramble(goal, 36, rng=blank)
        problem = make_problem(board, goal)
        database = heuristic_tables.database(Request(problem, "pdb555", Limits()))
        assert (database.reflect is not None) == (blank in (0, 5))
        by_pdb = run_idastar(problem, "pdb555", Limits())
        by_lc = run_idastar(problem, "linear_conflict", Limits())
        assert by_pdb.depth == by_lc.depth
        assert board.apply(by_pdb.moves) == goal


def test_78_is_never_built_silently(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    problem = make_problem(list(random50()[1].tiles))
    with pytest.raises(pdb.PatternDatabaseError, match="pdb build 7-8"):
        run_idastar(problem, "pdb78", Limits())
    assert not list(tmp_path.glob("*7-8*"))


def test_limit_errors_without_78_name_its_build(cache_663: Path) -> None:
    hard = max(random50(), key=lambda case: case.optimal_length)
    with pytest.raises(fp.NodeLimitError, match="fastpuzzle pdb build 7-8"):
        fp.solve(list(hard.tiles), limits=Limits(nodes=1_000), workers=1)
    # Another heuristic, or another shape: nothing to build would help.
    with pytest.raises(fp.NodeLimitError) as raised:
        fp.solve(list(hard.tiles), heuristic="manhattan", limits=Limits(nodes=1_000), workers=1)
    assert "7-8" not in str(raised.value)
    assert policy.faster_table_hint((3, 3), 8) is None
    assert policy.faster_table_hint((4, 4), 15) is not None
    assert "pdb build 7-8`" in (policy.faster_table_hint((4, 4), 15) or "")
    # With 7-8 on disk, the hint names 7-8b; with both, there is nothing left to build.
    paths = [pdb.pdb_path(name, (4, 4), 15) for name in ("7-8", "7-8b")]
    try:
        paths[0].write_bytes(b"")
        assert "pdb build 7-8b`" in (policy.faster_table_hint((4, 4), 15) or "")
        paths[1].write_bytes(b"")
        assert policy.faster_table_hint((4, 4), 15) is None
    finally:
        for path in paths:
            path.unlink(missing_ok=True)


def test_auto_obeys_limits(cache_663: Path) -> None:
    hard = max(random50(), key=lambda case: case.manhattan_ida_nodes)
    with pytest.raises(fp.NodeLimitError):
        fp.solve(list(hard.tiles), limits=Limits(nodes=10))
    with pytest.raises(fp.DepthLimitError):
        fp.solve(list(hard.tiles), limits=Limits(max_depth=hard.optimal_length - 2))


def test_auto_choices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))  # no table on disk

    def choice(shape: tuple[int, int]) -> tuple[str, str]:
        chosen = policy.auto_choice(shape, shape[0] * shape[1] - 1)
        return chosen.algorithm, chosen.heuristic

    assert choice((3, 3)) == ("idastar", "table")
    assert choice((2, 4)) == ("idastar", "table")
    # Searches of milliseconds without a table: no table to build or read.
    assert choice((3, 4)) == ("idastar", "walking_distance")
    assert choice((4, 3)) == ("idastar", "walking_distance")
    assert choice((2, 5)) == ("idastar", "linear_conflict")
    assert choice((2, 6)) == ("idastar", "linear_conflict")
    # The table built on first use (after a first search without it), either way round.
    for shape in ((4, 4), (2, 7), (2, 8), (8, 2), (3, 5), (5, 3), (3, 6), (4, 5), (5, 4)):
        assert choice(shape) == ("idastar", "pdb"), shape
        assert policy.builds_first(shape)
    assert policy.probe((4, 4)).heuristic == "walking_distance"
    assert policy.probe((2, 8)).heuristic == "linear_conflict"
    assert policy.probe((4, 5)).heuristic == "linear_conflict"
    # Tables read only once built: linear conflict without them.
    for shape in ((4, 6), (5, 5), (2, 9), (6, 6)):
        assert choice(shape) == ("idastar", "linear_conflict"), shape
        assert not policy.builds_first(shape)
    assert policy.tables_of((4, 4), 15) == policy.Tables(("7-8", "6-6-3"), "6-6-3")
    assert policy.tables_of((2, 8), 15) == policy.Tables(("auto",), "auto")
    assert policy.tables_of((5, 5), 24) == policy.Tables(("6-6-6-6",), None)
    assert policy.tables_of((3, 6), 17) == policy.Tables(("auto",), "auto")
    assert policy.tables_of((4, 6), 23) == policy.Tables(("auto",), None)


#: The user's cache, read before any fixture points $FASTPUZZLE_CACHE elsewhere.
USER_CACHE = pdb.pdb_cache_dir()


@pytest.mark.slow
def test_random50_with_78_if_built(monkeypatch: pytest.MonkeyPatch) -> None:
    # 7-8 is a one-time build of minutes (fastpuzzle pdb build 7-8): only checked where it exists.
    if pdb.load_pdb("7-8", cache_dir=USER_CACHE) is None:
        pytest.skip(f"7-8 not built in {USER_CACHE}")
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(USER_CACHE))
    for case in random50():
        problem = make_problem(list(case.tiles))
        core = run_idastar(problem, "pdb78", Limits())
        assert core.depth == case.optimal_length, case.name
        assert run_idastar(problem, "pdb78", Limits(max_depth=0)).depth <= case.optimal_length


@pytest.mark.parametrize(
    "partition, shape, goal_blank",
    [
        ("exact", (3, 3), 8),
        ("6-6-6-6x7", (5, 5), 24),
        ("no-such", (4, 4), 15),
        ("6-6-3", (4, 4), 15),
    ],
)
def test_a_partition_without_a_partner_has_no_second_database(
    partition: str, shape: tuple[int, int], goal_blank: int, tmp_path: Path
) -> None:
    # None, as second_database_built says False: only SECOND_PARTITION's names have a partner.
    assert pdb.second_database_for(partition, shape, goal_blank, tmp_path) is None
    assert not pdb.second_database_built(partition, shape, goal_blank, tmp_path)


@pytest.mark.slow
def test_hard_boards_with_78_and_78b_if_built(monkeypatch: pytest.MonkeyPatch) -> None:
    # With 7-8b built beside 7-8 (each a one-time build of about 80 s), solve() takes the larger
    # of the two partitions' sums once 7-8 alone has expanded policy.SECOND_FROM nodes: still
    # optimal on random50 and hard.tsv, and never more nodes than 7-8 alone on them.
    for partition in ("7-8", "7-8b"):
        if pdb.load_pdb(partition, cache_dir=USER_CACHE) is None:
            pytest.skip(f"{partition} not built in {USER_CACHE}")
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(USER_CACHE))
    assert pdb.second_database_for("7-8", (4, 4), 15) is not None
    for case in [*random50(), *hard()]:
        solution = fp.solve(list(case.tiles), workers=1)
        assert len(solution) == case.optimal_length, case.name
        assert solution.heuristic == "pdb"
        # Below the switch, 7-8 alone; past it, the pair expands a subset of 7-8's nodes in
        # each iteration, the one cut short by the switch searched again.
        alone = run_idastar(make_problem(list(case.tiles)), "pdb78", Limits())
        if alone.expanded < policy.SECOND_FROM:
            assert solution.stats.expanded == alone.expanded, case.name
        else:
            assert solution.stats.expanded <= alone.expanded + policy.SECOND_FROM, case.name


def _named_database(name: str, shape: tuple[int, int], goal_blank: int) -> pdb.Database:
    # A database's identity without its tables: what table_switch looks at.
    cells = partitions.resolve(name, shape, goal_blank).groups
    return pdb.Database(shape, goal_blank, name, cells, [], None, None)


def test_only_the_best_tables_switch_and_only_once_the_files_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One answer to "when does a search switch tables": 4x4's pdb with 7-8 takes 7-8b's sums
    # past SECOND_FROM (packed kernel), 5x5's pdb reads the dual lookups past DUAL_FROM (wide
    # kernel), each only where the files are on disk; a partition named outright never does.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    seven_eight = _named_database("7-8", (4, 4), 15)
    pinwheel = _named_database("6-6-6-6", (5, 5), 24)
    assert policy.table_switch("pdb", seven_eight, wide=False) is None
    for name in ("7-8", "7-8b"):
        pdb.pdb_path(name, (4, 4), 15).touch()
    assert policy.table_switch("pdb", seven_eight, wide=False) == policy.Switch(
        policy.SECOND_FROM, "pair"
    )
    assert policy.table_switch("pdb78", seven_eight, wide=False) is None
    assert policy.table_switch("pdb", seven_eight, wide=True) is None
    assert policy.table_switch("pdb", pinwheel, wide=True) is None
    walled = (12, 17, 18, 19, 22, 23)
    pdb.pdb_path((walled,), (5, 5), 0).touch()
    assert policy.table_switch("pdb", pinwheel, wide=True) == policy.Switch(
        policy.DUAL_FROM, "dual"
    )
    assert policy.table_switch("pdb6666", pinwheel, wide=True) is None
    assert policy.table_switch("pdb", pinwheel, wide=False) is None


# -----------------------------------------------------------------------------------------------
# Custom goals on 4x4 without waiting: an easy board with any goal is solved with walking
# distance, no pattern database built; a hard one gets the table, and an optimal answer.


@pytest.fixture
def no_table_built(tmp_path, monkeypatch):
    """An empty table cache, and any pattern-database build an error."""
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))

    def refused(*args, **kwargs):
        raise AssertionError("a pattern database was built")

    monkeypatch.setattr(store, "build_pdb", refused)
    return tmp_path


def _tables_in(cache: Path) -> list[Path]:
    # Pattern databases and their temporary files; the duplicate-pruning machine (a few hundred
    # KiB built in a fraction of a second, kept beside them) is no table.
    return [path for path in cache.iterdir() if not path.name.startswith("fsm-")]


def test_a_one_move_board_with_any_goal_builds_no_table(no_table_built):
    # Before: 7 s, most of it building the 16 MB 6-6-3 table of the goal's blank cell.
    goal = fp.Board("_ 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15")
    solution = fp.solve(goal.apply("R"), goal)
    assert solution.moves == "L" and solution.optimal
    assert _tables_in(no_table_built) == []


def test_easy_boards_with_random_goals_are_solved_optimally_without_a_table(no_table_built):
    rng = np.random.default_rng(7)
    for _ in range(8):
        goal = fp.random_board((4, 4), rng=rng)
        board = fp.scramble(goal, 24, rng=rng)
        solution = fp.solve(board, goal)
        # An optimal length from another heuristic: IDA* with linear conflict.
        other = fp.solve(board, goal, algorithm="idastar", heuristic="linear_conflict")
        assert solution.verify() and len(solution) == len(other)
        assert solution.heuristic == "walking_distance"
    assert _tables_in(no_table_built) == []


def test_a_hard_board_gets_the_table_and_an_optimal_answer(monkeypatch):
    # A custom goal (tiles 1 and 2 swapped; the blank last, whose tables the test cache has or
    # builds) treated as if it had no table on disk, and a search budget too small for it: the
    # walk is abandoned, the table is announced (a warning, which the command line shows on
    # stderr) and used, and the length is random50's.
    case = random50()[1]  # 45 moves
    swap = {1: 2, 2: 1}
    board = fp.Board([swap.get(t, t) for t in case.tiles])
    goal = fp.Board([swap.get(t, t) for t in fp.Board.goal((4, 4)).tiles])
    monkeypatch.setattr(idastar, "prepare_if_built", lambda request: None)
    monkeypatch.setattr(policy, "PROBE_NODES", 1000)
    announced = "no solution within 1,000 nodes of walking distance; building the 6-6-3"
    with pytest.warns(fp.errors.FastPuzzleWarning, match=announced) as caught:
        solution = fp.solve(board, goal)
    assert solution.verify() and len(solution) == case.optimal_length == 45
    assert solution.heuristic == "pdb"
    assert caught[0].filename == __file__  # the caller's line, not the library's


def test_the_command_line_shows_the_warning_as_its_own_line(monkeypatch, capsys):
    from fastpuzzle.cli import main

    case = random50()[1]
    monkeypatch.setattr(idastar, "prepare_if_built", lambda request: None)
    monkeypatch.setattr(policy, "PROBE_NODES", 1000)
    assert main(["solve", fp.Board(list(case.tiles)).to_string()]) == 0
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: no solution within 1,000 nodes of walking distance; ")
    assert "Warning" not in err


def test_the_callers_limits_hold_for_the_first_search(no_table_built):
    goal = fp.Board("1 2 3 4/5 _ 6 7/8 9 10 11/12 13 14 15")
    board = fp.scramble(goal, 30, rng=3)
    with pytest.raises(fp.NodeLimitError):
        fp.solve(board, goal, limits=fp.Limits(nodes=10))
    with pytest.raises(fp.DepthLimitError):
        fp.solve(board, goal, limits=fp.Limits(max_depth=2))
    assert _tables_in(no_table_built) == []


# -----------------------------------------------------------------------------------------------
# Rectangles (issue 34): the shapes of policy.FIRST_USE build their table on first use, once,
# with one warning; the others say how to build theirs when a limit stops a search.


def _counting_builds(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every table file the searches build, recorded by the name it was asked by (the build
    itself goes on)."""
    built: list[object] = []
    original = store.build_file

    def counting(partition: ResolvedPartition, *args: object, **kwargs: object) -> Path:
        built.append(partition.asked)
        return original(partition, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "build_file", counting)
    return built


def test_a_rectangle_builds_its_table_once_with_one_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 3x5: 0.2 s to build. A first search of 1,000 nodes (instead of 2 M) cannot solve these
    # boards, so the first solve() builds the table, and the second reads it.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    monkeypatch.setattr(policy, "PROBE_NODES", 1000)
    built = _counting_builds(monkeypatch)
    first, second = (fp.random_board((3, 5), rng=seed) for seed in (1002, 1005))
    with pytest.warns(fp.errors.FastPuzzleWarning) as caught:
        solution = fp.solve(first, workers=1)
    # The cost is the plan's, as `fastpuzzle pdb build auto --shape 3 5 --dry-run` prints it.
    cost = fp.pdb.plan.plan_tables("auto", (3, 5), 14).cost()
    assert cost.startswith("under a second on this machine's ") and cost.endswith(" on disk")
    assert [str(w.message) for w in caught] == [
        "no solution within 1,000 nodes of linear conflict; building the 3x5 pattern database "
        f"for goals with the blank on cell 14 ({cost}, once: it is kept in the cache)"
    ]
    assert capsys.readouterr().err == ""  # the build's lines go to the library's logger
    assert built == ["auto"] and len(list(tmp_path.glob("pdb-*3x5*.fpdb"))) == 1
    assert solution.heuristic == "pdb" and solution.optimal and solution.verify()
    # The optimal length from another search: IDA* with linear conflict, no table.
    reference = fp.solve(first, algorithm="idastar", heuristic="linear_conflict", workers=1)
    assert len(solution) == len(reference)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = fp.solve(second, workers=1)
    assert built == ["auto"] and "building" not in capsys.readouterr().err
    assert again.heuristic == "pdb" and again.stats.expanded < 1_000_000
    reference = fp.solve(second, algorithm="idastar", heuristic="linear_conflict", workers=1)
    assert len(again) == len(reference)


def test_an_easy_rectangle_builds_no_table(no_table_built: Path) -> None:
    goal = fp.Board.goal((2, 8))
    board = fp.scramble(goal, 30, rng=4)
    solution = fp.solve(board, workers=1)
    assert solution.heuristic == "linear_conflict" and solution.verify()
    other = fp.solve(board, algorithm="astar", heuristic="manhattan")
    assert len(solution) == len(other)
    assert _tables_in(no_table_built) == []


@pytest.mark.heavy
@pytest.mark.parametrize(
    "seed",
    [
        # A random 2x8 board of 61 moves: linear conflict takes 0.6 s, the table (built on first
        # use, 1 s) 2 ms.
        270,
        # 61 moves too, which linear conflict takes 7 s for.
        pytest.param(74, marks=pytest.mark.slow),
    ],
)
def test_a_random_2x8_board_is_solved_by_default(seed: int) -> None:
    board = fp.random_board((2, 8), rng=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fp.errors.FastPuzzleWarning)  # the table's first build
        solution = fp.solve(board, limits=fp.Limits(seconds=60))
    assert solution.heuristic == "pdb" and solution.optimal and solution.verify()
    # The optimal length from another search: IDA* with linear conflict, no table.
    reference = fp.solve(board, algorithm="idastar", heuristic="linear_conflict")
    assert len(solution) == len(reference) == 61


def test_limit_errors_name_the_remedy_of_the_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    few = fp.Limits(nodes=1000)
    # Stopped by the caller's limit before the table was built.
    with pytest.raises(fp.NodeLimitError, match=r"`fastpuzzle pdb build auto --shape 2 8`"):
        fp.solve(fp.random_board((2, 8), rng=1), limits=few, workers=1)
    with pytest.raises(fp.NodeLimitError, match=r"--shape 8 2 --goal-blank 0`.*heuristic='pdb'"):
        goal = fp.Board([0, *range(1, 16)], shape=(8, 2))
        fp.solve(fp.random_board((8, 2), rng=1, goal=goal), goal, limits=few, workers=1)
    # Shapes whose table solve() never builds.
    with pytest.raises(fp.NodeLimitError, match=r"`fastpuzzle pdb build auto --shape 2 6`"):
        fp.solve(fp.random_board((2, 6), rng=1), limits=few, workers=1)
    # Issue 58, item 6: the hint said "about 90 s, 307.0 MiB" where the plan of the build it
    # names (`--dry-run`) said 2.6 minutes and 304 MiB: it quotes the plan now.
    plan = fp.pdb.plan.plan_tables("6-6-6-6", (5, 5), 24)
    with pytest.raises(fp.NodeLimitError) as stopped:
        fp.solve(fp.random_board((5, 5), rng=1), limits=few, workers=1)
    assert f"`fastpuzzle pdb build 6-6-6-6` ({plan.cost()})" in str(stopped.value)
    forced = dataclasses.replace(plan, force=True)  # every file to build, as for the cost
    assert "304 MiB on disk" in plan.cost() and plan.cost().split(", ")[0] in forced.lines()[-1]
    # solve()'s own time cap past 16 cells (the pruning machine, which the cap covers too,
    # built beforehand: about 0.5 s for the 4x6 box).
    pruning.machine((4, 6), "fsm")
    monkeypatch.setattr(policy, "WIDE_DEFAULT_SECONDS", 0.2)
    with pytest.raises(fp.TimeLimitError, match=r"optimal=False.*pdb build auto --shape 4 6"):
        fp.solve(fp.random_board((4, 6), rng=1), workers=1)
    # Nothing to build past 25 cells, nor for a 3x3.
    assert policy.limit_hint((6, 6), 35, "linear_conflict") is None
    assert policy.limit_hint((3, 3), 8, "table") is None
    # With the table: on 4x4 the stronger ones (7-8), elsewhere nothing.
    assert "pdb build 7-8`" in (policy.limit_hint((4, 4), 15, "pdb") or "")
    assert policy.limit_hint((2, 8), 15, "pdb") is None


def test_a_time_limit_covers_the_first_search_and_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What is left of the caller's limits after the first search goes to the build and the
    # search with the table; a build stopped by it names the command that builds it.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    monkeypatch.setattr(policy, "PROBE_NODES", 1000)
    spent = fp.SearchStats(expanded=700, seconds=0.25)
    left = solve_module._left(fp.Limits(seconds=1.0, nodes=5000, max_depth=90), spent)
    assert left == fp.Limits(seconds=0.75, nodes=4300, max_depth=90)
    assert solve_module._left(fp.Limits(seconds=0.1, nodes=500), spent) == fp.Limits(
        seconds=1e-3, nodes=1
    )
    assert solve_module._left(None, spent) is None
    # The limit also covers building the duplicate-pruning machine of a new shape (0.5-0.65 s
    # for 4x5 on a 2-core VM): built beforehand, so that 0.5 s is left for what is tested here.
    pruning.machine((4, 5), "fsm")
    with (
        pytest.warns(fp.errors.FastPuzzleWarning, match="building the 4x5 pattern database"),
        pytest.raises(fp.TimeLimitError, match="pdb build auto --shape 4 5"),
    ):
        fp.solve(fp.random_board((4, 5), rng=1), limits=fp.Limits(seconds=0.5), workers=1)
    assert not list(tmp_path.glob("pdb-*.fpdb"))
