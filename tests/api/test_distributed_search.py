"""One IDA* search on a Dask cluster (fastpuzzle.distributed): optimal lengths from tests/data
and from a local search, a worker killed mid-search, the limits. Every iteration goes to the
cluster here (``REMOTE_FROM`` 0), so that searches of milliseconds take the cluster's path."""

from __future__ import annotations

import functools
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import fastpuzzle as fp
from fastpuzzle import distributed as fd
from fastpuzzle import pdb
from fastpuzzle._core import _idastar, _wide_pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import cluster, cluster_tasks, idastar
from fastpuzzle._solver.parallel import run_team, tracing
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from fastpuzzle.pdb import partitions
from fastpuzzle.pdb.search_tables import exact_table
from tests.instances import random50
from tests.interrupts import latency_of
from tests.pdbcache import small_5x5_compound, small_5x5_database, wide_pdb_search

distributed = pytest.importorskip("distributed")

SOLVED, TIME_LIMIT = 0, 2


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Set before the cluster starts: its worker processes read their tables from it.
    directory = tmp_path_factory.mktemp("cluster-cache")
    before = os.environ.get("FASTPUZZLE_CACHE")
    os.environ["FASTPUZZLE_CACHE"] = str(directory)
    pdb.build_pdb("6-6-3", progress=False)
    yield directory
    if before is None:
        os.environ.pop("FASTPUZZLE_CACHE", None)
    else:
        os.environ["FASTPUZZLE_CACHE"] = before


def _cluster() -> Any:
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )


@pytest.fixture(scope="module")
def client(cache: Path) -> Iterator[Any]:
    with _cluster() as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(autouse=True)
def _every_iteration_remote(monkeypatch: pytest.MonkeyPatch) -> None:
    # The default a search takes without remote_from (solve() and search() give none).
    monkeypatch.setattr(cluster_tasks, "REMOTE_FROM", 0)


def test_a_search_sends_the_iterations_its_remote_from_says(client: Any) -> None:
    # The threshold is the search's own (a request's remote_from), not a module setting that
    # only a swapped module class carried to the engine's copy: given 0, iterations go to the
    # cluster; given more than any iteration expands, none does; given none, the default.
    instance = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[-1]
    problem = make_problem(list(instance.tiles))
    tasks = []
    for remote_from in (None, 0, 1 << 62):
        request = Request(problem, "pdb663", Limits(), client=client, remote_from=remote_from)
        with distributed.get_task_stream(client) as stream:
            core = idastar.run(request)
        assert core.status == SOLVED and core.depth == instance.optimal_length
        tasks.append(sum(task["key"].startswith("search_units") for task in stream.data))
    default, every, none = tasks
    assert default and every and not none


def _solve_on(client: Any, tiles: tuple[int, ...], heuristic: str, limits: Limits) -> Any:
    problem = make_problem(list(tiles))
    return idastar.run(Request(problem, heuristic, limits, workers=1, client=client))


def test_random50_lengths_on_the_cluster(client: Any) -> None:
    boards = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[-12:]
    for instance in boards:
        with tracing() as trace:
            core = _solve_on(client, instance.tiles, "pdb663", Limits())
        assert core.status == SOLVED
        assert core.depth == len(core.moves) == instance.optimal_length, instance.name
        assert fp.Board(list(instance.tiles)).apply(core.moves) == fp.Board.goal((4, 4))
        assert trace, "no iteration went to the cluster"
    # Each worker process read 6-6-3 once, whatever number of tasks it ran.
    loaded = client.run(lambda: sorted(cluster_tasks._TABLES))
    assert loaded and all(keys == [next(iter(loaded.values()))[0]] for keys in loaded.values())


def test_the_cluster_counts_what_the_threads_count(client: Any) -> None:
    # Searched to its end (no goal within the cap), every node is counted once, as serially.
    instance = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[10]
    limits = Limits(max_depth=instance.optimal_length - 1)
    serial = idastar.run(Request(make_problem(list(instance.tiles)), "pdb663", limits))
    remote = _solve_on(client, instance.tiles, "pdb663", limits)
    assert (remote.status, remote.expanded, remote.generated) == (
        serial.status,
        serial.expanded,
        serial.generated,
    )


@pytest.mark.parametrize("zero", [False, True], ids=["plain", "zero-aware"])
def test_a_5x5_board_on_the_cluster(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zero: bool
) -> None:
    monkeypatch.setattr(_wide_pdb, "PARALLEL_FROM", 0)
    database = small_5x5_database(tmp_path, zero=zero)
    assert database.zero_aware == zero == database.loaded().zero
    board = fp.scramble(fp.Board.goal((5, 5)), 40, rng=3)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    problem = make_problem(board)
    call = fd.KernelCall(
        "wide_pdb",
        (problem.wide_cells().astype("uint8"), problem.blank, 5, 5, problem.goal_blank),
        400,
        functools.partial(pdb.Database.loaded, database),
        database.name,
        "parent",
    )
    with tracing() as trace:
        core = wide_pdb_search(
            database,
            board,
            runner=functools.partial(run_team, share=fd.share_with(client, call, remote_from=0)),
        )
    assert trace
    assert core.status == SOLVED and core.depth == len(core.moves) == optimum
    assert board.apply(core.moves) == fp.Board.goal((5, 5))


@pytest.mark.heavy
def test_a_lost_worker_costs_only_its_tasks(cache: Path) -> None:
    # A worker process killed while it searches: Dask runs its tasks again on the other (or
    # on the worker its nanny restarts), and the length stays optimal.
    instance = next(i for i in random50() if i.name == "random50-31")
    with _cluster() as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        victim = next(iter(pids.values()))

        def kill_soon() -> None:
            time.sleep(0.5)
            os.kill(victim, signal.SIGKILL)

        killer = threading.Thread(target=kill_soon)
        killer.start()
        core = _solve_on(client, instance.tiles, "manhattan", Limits())
        killer.join()
        assert victim not in client.run(os.getpid).values()
    assert core.status == SOLVED
    assert core.depth == len(core.moves) == instance.optimal_length
    assert fp.Board(list(instance.tiles)).apply(core.moves) == fp.Board.goal((4, 4))


def test_a_time_limit_stops_the_cluster(client: Any) -> None:
    instance = next(i for i in random50() if i.name == "random50-17")
    started = time.monotonic()
    core = _solve_on(client, instance.tiles, "manhattan", Limits(seconds=1.0))
    assert core.status == TIME_LIMIT and core.moves == ""
    # Far below the search's own length (2.9 billion nodes, minutes on two cores).
    assert time.monotonic() - started < 30


def test_solve_and_search_take_the_client(client: Any) -> None:
    instance = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[-1]
    solution = fp.solve(list(instance.tiles), client=client, workers=1)
    assert len(solution) == instance.optimal_length and solution.verify()
    result = fp.search(
        list(instance.tiles), algorithm="idastar", heuristic="pdb663", client=client, workers=1
    )
    assert len(result.solution) == instance.optimal_length


@pytest.mark.parametrize(
    "call",
    [
        lambda c: fp.search("1 2 3/4 5 6/_ 7 8", algorithm="bfs", client=c),
        lambda c: fp.solve("1 2 3/4 5 6/_ 7 8", optimal=False, client=c),
        lambda c: fp.solve(fp.random_board((5, 5), rng=1), heuristic="linear_conflict", client=c),
        lambda c: fp.solve("1 2 3/4 5 6/_ 7 8", client="tcp://127.0.0.1:8786"),
    ],
)
def test_a_client_where_none_applies_is_refused_before_any_work(client: Any, call: Any) -> None:
    with pytest.raises(fp.errors.InvalidOptionError):
        call(client)


def test_the_command_line_reaches_a_scheduler(
    client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from fastpuzzle.cli import main

    instance = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[-2]
    board = " ".join(str(t) for t in instance.tiles)
    address = client.scheduler.address
    assert main(["solve", "--json", "--workers", "1", "--scheduler", address, board]) == 0
    assert f'"length": {instance.optimal_length}' in capsys.readouterr().out


@pytest.mark.heavy
def test_a_scheduler_that_does_not_answer_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fastpuzzle.cli import main

    assert main(["solve", "--scheduler", "tcp://127.0.0.1:9", "1 2 3/4 5 6/_ 7 8"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("fastpuzzle: error: --scheduler tcp://127.0.0.1:9") and err.count("\n") == 1
    )


def test_ctrl_c_stops_the_cluster_search(client: Any) -> None:
    # The driver cancels the tasks and tells the running ones to stop; the workers are free
    # for the next search at once (it finds its optimum as usual).
    instance = next(i for i in random50() if i.name == "random50-17")
    latency = latency_of(1.0, lambda: _solve_on(client, instance.tiles, "manhattan", Limits()))
    # Far below the search's own length (2.9 billion nodes, minutes on two cores).
    assert latency < 10
    after = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[-3]
    core = _solve_on(client, after.tiles, "pdb663", Limits(seconds=60))
    assert core.status == SOLVED and core.depth == after.optimal_length


@pytest.mark.parametrize("zero", [False, True], ids=["plain", "zero-aware"])
def test_a_compound_on_the_cluster(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zero: bool
) -> None:
    # A compound's units carry every partition's group indices and sums; each worker lays out
    # the same tables (shared groups once, zero-aware ones as such) and searches them.
    monkeypatch.setattr(_wide_pdb, "PARALLEL_FROM", 0)
    tables = small_5x5_compound(tmp_path, "test-x3z" if zero else "test-x3", zero=zero)
    assert tables.zero_aware == zero == tables.loaded().zero
    board = fp.scramble(fp.Board.goal((5, 5)), 44, rng=5)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    problem = make_problem(board)
    args = (problem.wide_cells().astype("uint8"), problem.blank, 5, 5, problem.goal_blank)
    call = fd.KernelCall(
        "wide_pdb", args, 400, functools.partial(pdb.Compound.loaded, tables), tables.name, "parent"
    )
    with tracing() as trace:
        core = _wide_pdb.idastar(
            *args,
            tables=tables.loaded(),
            runner=functools.partial(run_team, share=fd.share_with(client, call, remote_from=0)),
        )
    assert trace
    assert core.status == SOLVED and core.depth == len(core.moves) == optimum
    assert board.apply(core.moves) == fp.Board.goal((5, 5))


def test_a_worker_reads_exactly_the_tables_of_the_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The units carry the groups of the tables they were collected with: a worker never
    # builds or substitutes another table (6-6-3 for a missing 7-8, say).
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    with pytest.raises(pdb.PatternDatabaseError, match="pdb build 7-8"):
        cluster.load_exactly((partitions.resolve("7-8"),))
    assert not list(tmp_path.iterdir())
    exact = cluster.load_exactly((partitions.partition_of(exact_table(3, 3, 8)),))
    assert exact is not None
    # A named zero-aware partition (as pdb6666z's 6-6-6-6z) loads as one.
    groups = tuple(tuple(range(i, i + 3)) for i in range(0, 24, 3))
    monkeypatch.setitem(partitions.PARTITIONS_5X5, "test-z", groups)
    monkeypatch.setattr(partitions, "ZERO_AWARE", frozenset({"test-z"}))
    with pytest.raises(pdb.PatternDatabaseError, match="pdb build test-z"):
        cluster.load_exactly((partitions.resolve("test-z", (5, 5)),))
    pdb.build_pdb("test-z", cache_dir=tmp_path, progress=False)
    layout = cluster.load_exactly((partitions.resolve("test-z", (5, 5)),))
    assert layout.zero and layout.mirror  # type: ignore[attr-defined]


def test_a_worker_reads_the_tables_of_a_partition_of_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A partition of groups of goal cells (3x4's pdb: auto's blocks) went to the workers as
    # its groups' tiles, which they resolved as goal cells again: another partition, refused
    # (or another table read). A worker is sent the resolved partition itself.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    problem = make_problem(fp.scramble(fp.Board.goal((3, 4)), 30, rng=1))
    prepared = idastar.prepare(Request(problem, "pdb", Limits()))
    (database,) = prepared.databases
    assert database.name.startswith("custom-")
    loader, _ = cluster._worker_tables(prepared.entry, problem, prepared.databases, dual=False)
    assert loader() is database.loaded()


def test_a_partition_of_groups_on_the_cluster(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_idastar, "PARALLEL_FROM", 0)
    pdb.build_pdb("auto", (3, 4), progress=False)
    for seed in (1, 2, 3):
        board = fp.random_board((3, 4), rng=seed)
        optimum = len(fp.solve(board, algorithm="idastar", heuristic="manhattan", workers=1))
        with tracing() as trace:
            core = idastar.run(Request(make_problem(board), "pdb", Limits(), client=client))
        assert trace, "no iteration went to the cluster"
        assert core.status == SOLVED and core.depth == len(core.moves) == optimum
        assert board.apply(core.moves) == fp.Board.goal((3, 4))


def test_dual_lookups_on_the_cluster(client: Any) -> None:
    # The workers lay out the same tables with their dual lookups (the extra table the driver
    # built on first use is in their cache; they never build one).
    for instance in sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[-4:]:
        with tracing() as trace:
            core = _solve_on(client, instance.tiles, "pdb663_dual", Limits())
        assert core.status == SOLVED and core.depth == instance.optimal_length, instance.name
        assert fp.Board(list(instance.tiles)).apply(core.moves) == fp.Board.goal((4, 4))
        assert trace, "no iteration went to the cluster"


@pytest.mark.parametrize(("name", "nodes"), [("random50-17", 300_000), ("random50-5", 3_000_000)])
def test_a_node_limit_on_the_cluster_spends_the_budget(client: Any, name: str, nodes: int) -> None:
    # Each task searched to its share of the budget, and the first one to reach it cancelled
    # the others, whose work was not counted: NODE_LIMIT at 29-72 % of the budget. Now a chunk
    # that ends early leaves its share to the others, and the chunks cut short run again while
    # what is left takes them further (measured: 90-100 % of the budget).
    instance = next(i for i in random50() if i.name == name)
    core = _solve_on(client, instance.tiles, "manhattan", Limits(nodes=nodes))
    assert core.status == 3 and core.moves == ""  # NODE_LIMIT
    assert 0.85 * nodes <= core.expanded <= nodes, core.expanded / nodes


def test_a_node_limit_on_the_cluster_counts_every_task(client: Any) -> None:
    # A budget the search does not need: solved within it, every expansion counted (the same
    # as a search with no limit, whose chunks all go at once).
    instance = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)[10]
    limits = Limits(max_depth=instance.optimal_length - 1, nodes=10**9)
    serial = idastar.run(Request(make_problem(list(instance.tiles)), "manhattan", limits))
    remote = _solve_on(client, instance.tiles, "manhattan", limits)
    assert (remote.status, remote.expanded) == (serial.status, serial.expanded)


def test_no_task_is_left_running_once_the_search_returns(client: Any) -> None:
    # Before (issue 47, item 8): the futures were cancelled and the search returned while the
    # tasks searching other units were still running on the workers, so closing the client
    # or the cluster then logged each as a cancelled task. The search waits for them to see
    # its stop event now; tasks queued past the answer end at once.
    for instance in random50()[:4]:
        solution = fp.solve(
            list(instance.tiles), algorithm="idastar", heuristic="manhattan", client=client
        )
        assert len(solution) == instance.optimal_length
        assert client.run(fd.running_tasks) == dict.fromkeys(client.run(fd.running_tasks), 0)
