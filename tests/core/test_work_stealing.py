"""Work stealing inside an IDA* iteration, and threads in lockstep (virtual cores).

Steals are invited: every iteration shared from the first, over a frontier of one or a few nodes
per thread, busy threads polling at every expansion (``STEAL_QUANTUM``), and, in the ``eager``
variant, giving work away every 32 (``SHARE_AFTER``) while the queue is short. Running freely,
whether a thread ever waits for work while another has some depends on how the machine schedules
them (on a busy two-core machine, none did: issue 43), so only what must hold with or without
steals is asserted there. Steals are forced in lockstep (``parallel.tracing(lockstep=True)``): a
thread out of work waits at each quantum's barrier, which every busy thread reaches too, and a
busy one gives it work at the next child; those runs assert that steals happened. Optimal
lengths come from tests/data and tests/oracle.py; node counts from the serial search or
random50's published Manhattan counts.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _idastar, _wide_pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import crew, idastar, parallel, pruning
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from fastpuzzle.pdb import dual
from tests.api.test_limits import HARD_4X4
from tests.instances import Instance, random50
from tests.interrupts import interrupt_latency, latency_of
from tests.oracle import distances_3x3
from tests.pdbcache import small_5x5_database, wide_pdb_search

SOLVED, EXHAUSTED, TIME_LIMIT, NODE_LIMIT, MEMORY_LIMIT, DEPTH_LIMIT = range(6)

BY_NODES = sorted(random50(), key=lambda i: i.manhattan_ida_nodes or 0)
EASY = BY_NODES[:6]

#: random50 boards that take each heuristic 0.2-2 M nodes: units of thousands of nodes, so
#: that threads wait for one another whatever the machine's load.
BOARDS = {
    "manhattan": BY_NODES[2:6],
    "linear_conflict": BY_NODES[7:11],
    "walking_distance": BY_NODES[7:11],
    "pdb663": BY_NODES[-4:],
    "pdb663_dual": BY_NODES[-4:],
}

#: Settings that make threads run out of work and take it from others at once.
STEALING = {
    # A frontier of one node a thread: every thread but one soon waits for work.
    "idle": {"FRONTIER_PER_WORKER": 1, "STEAL_QUANTUM": 1, "SHARE_AFTER": 0},
    # Busy threads give work away every few polls, and it is taken before frontier units.
    "eager": {"FRONTIER_PER_WORKER": 3, "STEAL_QUANTUM": 1, "SHARE_AFTER": 32},
}


#: Expansions between the barriers of the lockstep runs that force steals: a thread out of work
#: waits at most this long for a busy one to give it some.
LOCKSTEP_QUANTUM = 64


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # test_idastar.py's temporary cache: a test process builds 6-6-3 once for these files.
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path_factory.getbasetemp() / "pdb-idastar"))


@pytest.fixture(params=sorted(STEALING))
def stealing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every iteration shared, with steals forced (both kernels)."""
    for kernel in (_idastar, _wide_pdb):
        monkeypatch.setattr(kernel, "PARALLEL_FROM", 0)
        for name, value in STEALING[request.param].items():
            monkeypatch.setattr(kernel, name, value)
    return str(request.param)


@pytest.fixture(scope="module")
def small_5x5(tmp_path_factory: pytest.TempPathFactory) -> pdb.Database:
    return small_5x5_database(tmp_path_factory.mktemp("steal5x5"))


@pytest.fixture(params=[*sorted(STEALING), "lockstep"])
def steal_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The settings of :func:`stealing` running freely, or ``"lockstep"``: idle's settings on
    threads in lockstep, where steals are certain (:func:`_steal_tracing`)."""
    settings = STEALING["idle" if request.param == "lockstep" else request.param]
    for kernel in (_idastar, _wide_pdb):
        monkeypatch.setattr(kernel, "PARALLEL_FROM", 0)
        for name, value in settings.items():
            monkeypatch.setattr(kernel, name, value)
    return str(request.param)


def _steal_tracing(lockstep: bool, quantum: int = LOCKSTEP_QUANTUM) -> Any:
    """``parallel.tracing()``, in lockstep when asked: then a thread that runs out of units waits
    at the barrier each quantum, which every busy thread reaches too, and the first busy one
    that sees it waiting gives it the untried children of its path, whatever the machine's load.
    Free-running threads may never wait while another has work (a busy machine runs one, then
    the others)."""
    return parallel.tracing(lockstep=lockstep, quantum=quantum)


def _steals(trace: list[parallel.SharedIteration]) -> int:
    return sum(iteration.steals for iteration in trace)


def _pool_threads() -> int:
    return crew.running()


@pytest.mark.heavy
@pytest.mark.parametrize("heuristic", ["manhattan", "linear_conflict", "pdb663", "pdb663_dual"])
def test_lengths_stay_optimal_with_steals_on_4x4(steal_mode: str, heuristic: str) -> None:
    with _steal_tracing(steal_mode == "lockstep") as trace:
        for instance in BOARDS[heuristic]:
            result = fp.search(instance.tiles, algorithm="idastar", heuristic=heuristic, workers=3)
            assert len(result.unwrap()) == instance.optimal_length, instance.name
            assert result.solution.verify()
            assert result.stats.depth == instance.optimal_length
    if steal_mode == "lockstep":
        assert _steals(trace) > 0


@pytest.mark.parametrize("lockstep", [False, True], ids=["free", "lockstep"])
@pytest.mark.parametrize(
    "heuristic", ["misplaced", "manhattan", "linear_conflict", "walking_distance", "pdb"]
)
def test_lengths_stay_optimal_with_steals_on_3x3(
    heuristic: str, lockstep: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Units of a few to tens of nodes, done before another thread could wait for work: busy
    # threads give every two expansions instead.
    for name, value in (("PARALLEL_FROM", 0), ("FRONTIER_PER_WORKER", 1), ("STEAL_QUANTUM", 1),
                        ("SHARE_AFTER", 2)):  # fmt: skip
        monkeypatch.setattr(_idastar, name, value)
    distances = distances_3x3()
    boards = random.Random(24).sample(sorted(distances), 30)
    if heuristic == "misplaced":
        # Misplaced tiles take millions of nodes past 20 moves.
        boards = [board for board in boards if distances[board] <= 20]
    with _steal_tracing(lockstep, quantum=8) as trace:
        for board in boards:
            result = fp.search(board, algorithm="idastar", heuristic=heuristic, workers=3)
            assert len(result.unwrap()) == distances[board], board
            assert result.solution.verify()
    if lockstep:
        assert _steals(trace) > 0


@pytest.mark.parametrize(
    "heuristic", ["manhattan", "linear_conflict", "walking_distance", "pdb663", "misplaced"]
)
def test_exhausted_iterations_count_the_serial_nodes_with_steals(
    steal_mode: str, heuristic: str
) -> None:
    # A taker re-enters the giver's path and gives the ancestors' counts back: searched to their
    # end, the shared iterations generate and expand exactly the serial nodes, however the
    # work moved between threads.
    cases = [(i.tiles, i.optimal_length) for i in BOARDS.get(heuristic, [])[:3]]
    if heuristic == "misplaced":
        cases = [((8, 6, 7, 2, 5, 4, 3, 0, 1), 31)]
    with _steal_tracing(steal_mode == "lockstep") as trace:
        for tiles, length in cases:
            problem = make_problem(list(tiles))
            limits = Limits(max_depth=length - 1)
            serial = idastar.run(Request(problem, heuristic, limits))
            shared = idastar.run(Request(problem, heuristic, limits, workers=3))
            assert serial.status == shared.status == DEPTH_LIMIT
            assert (shared.expanded, shared.generated) == (serial.expanded, serial.generated)
            assert shared.iterations == serial.iterations
    if steal_mode == "lockstep":
        assert _steals(trace) > 0
    # Work given away still counts for the frontier unit it came from.
    assert all(sum(iteration.units) > 0 for iteration in trace)


@pytest.mark.parametrize("lockstep", [False, True], ids=["free", "lockstep"])
@pytest.mark.parametrize("prune", ["parent", "fsm"])
@pytest.mark.parametrize("seed", range(3))
def test_5x5_pattern_databases_with_steals(
    small_5x5: pdb.Database, seed: int, prune: str, lockstep: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Units of hundreds of nodes: busy threads give every eight expansions.
    for name, value in (("PARALLEL_FROM", 0), ("FRONTIER_PER_WORKER", 1), ("STEAL_QUANTUM", 1),
                        ("SHARE_AFTER", 8)):  # fmt: skip
        monkeypatch.setattr(_wide_pdb, name, value)
    board = fp.scramble(fp.Board.goal((5, 5)), 36, rng=seed)
    optimum = len(fp.solve(board, algorithm="idastar", heuristic="linear_conflict", workers=1))
    machine = pruning.machine((5, 5), prune)
    with _steal_tracing(lockstep) as trace:
        core = wide_pdb_search(small_5x5, board, workers=3, machine=machine)
        serial = wide_pdb_search(small_5x5, board, max_depth=optimum - 1, machine=machine)
        shared = wide_pdb_search(
            small_5x5, board, max_depth=optimum - 1, workers=3, machine=machine
        )
    assert core.status == SOLVED
    assert len(core.moves) == core.depth == optimum
    assert board.apply(core.moves) == fp.Board.goal((5, 5))
    assert serial.status == shared.status == DEPTH_LIMIT
    assert (shared.expanded, shared.generated) == (serial.expanded, serial.generated)
    if lockstep:
        assert _steals(trace) > 0


@pytest.mark.parametrize("lockstep", [False, True], ids=["free", "lockstep"])
@pytest.mark.parametrize("prune", ["parent", "fsm"])
def test_5x5_dual_lookups_with_steals(
    small_5x5: pdb.Database,
    prune: str,
    lockstep: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The dual driver (four lookups and BPMX) hands work over as the two-lookup one does; BPMX
    # lifts seen by one thread are not seen by another, so only the lengths are compared.
    for name, value in (("PARALLEL_FROM", 0), ("FRONTIER_PER_WORKER", 1), ("STEAL_QUANTUM", 1),
                        ("SHARE_AFTER", 8)):  # fmt: skip
        monkeypatch.setattr(_wide_pdb, name, value)
    layout = dual.dual_layout(small_5x5, tmp_path)
    machine = pruning.machine((5, 5), prune)
    rng = random.Random(3)
    with _steal_tracing(lockstep) as trace:
        for _ in range(3):
            board = fp.scramble(fp.Board.goal((5, 5)), 36, rng=rng.randrange(1 << 30))
            tiles = [int(t) for t in np.asarray(board).ravel()]
            cells = np.array(tiles, dtype=np.uint8)
            start = (cells, tiles.index(0), 5, 5, 24)
            serial = _wide_pdb.idastar(*start, tables=layout, machine=machine)
            shared = _wide_pdb.idastar(
                *start, tables=layout, workers=3, machine=machine, runner=parallel.run_team
            )
            assert serial.status == shared.status == SOLVED
            assert shared.depth == len(shared.moves) == serial.depth
            assert board.apply(shared.moves) == fp.Board.goal((5, 5))
    if lockstep:
        assert _steals(trace) > 0


def test_one_worker_keeps_the_published_counts(stealing: str) -> None:
    # workers=1 is the serial search: the team, its polls and steals never run.
    for instance in EASY[:4]:
        for stats in (
            fp.search(instance.tiles, algorithm="idastar", heuristic="manhattan", workers=1,
                      prune="parent").stats,
            idastar.run(Request(make_problem(list(instance.tiles)), "manhattan", Limits(),
                                prune="parent")),
        ):  # fmt: skip
            assert stats.generated == instance.manhattan_ida_nodes


@pytest.mark.parametrize("instance", BY_NODES[20:24], ids=lambda i: i.name)
def test_node_counts_stay_near_the_serial_ones(instance: Instance) -> None:
    # Default settings, free-running threads. What they may change is what the algorithm leaves
    # open. Every iteration but the last is searched to its end: it counts exactly the serial
    # search's nodes, and hands out the same units with the same work, however the threads
    # shared them. The last ends at the first goal any thread claims, so its count depends on
    # which thread gets there first and on what the others searched meanwhile (on a busy
    # machine 10.9 % of the whole search's nodes more or fewer than serial: issue 43); it is
    # at least one node, and at most the whole last iteration, which no search counts.
    serial = instance.manhattan_ida_nodes
    assert serial is not None
    problem = make_problem(list(instance.tiles))
    earlier = Limits(max_depth=instance.optimal_length - 1)
    alone = idastar.run(Request(problem, "manhattan", earlier, prune="parent"))
    assert alone.status == DEPTH_LIMIT
    for workers in (2, 3):
        with parallel.tracing() as whole:
            result = fp.search(instance.tiles, algorithm="idastar", heuristic="manhattan",
                               workers=workers, prune="parent")  # fmt: skip
        with parallel.tracing() as before:
            shared = idastar.run(Request(problem, "manhattan", earlier, workers=workers,
                                         prune="parent"))  # fmt: skip
        assert len(result.unwrap()) == instance.optimal_length
        assert result.stats.iterations == alone.iterations + 1
        assert (shared.expanded, shared.generated) == (alone.expanded, alone.generated)
        # The whole search's iterations before its last are those of the search that stops
        # before the last one, unit by unit.
        assert [(it.bound, it.units) for it in whole[:-1]] == [
            (it.bound, it.units) for it in before
        ]
        assert whole[-1].bound == instance.optimal_length
        last_expanded = result.stats.expanded - alone.expanded
        assert last_expanded >= sum(whole[-1].units) > 0
        assert result.stats.generated > alone.generated
    # The published serial count is the same earlier iterations and a last one.
    assert alone.generated < serial


@pytest.mark.parametrize("nodes", [1000, 100_003, 1_000_000])
def test_node_limit_stops_every_thread_with_steals(stealing: str, nodes: int) -> None:
    result = fp.search(
        HARD_4X4, algorithm="idastar", heuristic="manhattan", limits=fp.Limits(nodes=nodes),
        workers=3,
    )  # fmt: skip
    assert result.status is fp.Status.NODE_LIMIT
    # Never past the limit (a taker's re-entered ancestors are not counted, nor drawn from
    # the budget), and short of it by at most each thread's unspent grant.
    assert nodes - 3 * 65536 < result.stats.expanded <= nodes
    assert not _pool_threads()


@pytest.mark.parametrize("lockstep", [False, True])
def test_time_limit_stops_every_thread_with_steals(stealing: str, lockstep: bool) -> None:
    started = time.perf_counter()
    with parallel.tracing(lockstep=lockstep, quantum=64):
        result = fp.search(
            HARD_4X4, algorithm="idastar", heuristic="manhattan", limits=fp.Limits(seconds=0.2),
            workers=4,
        )  # fmt: skip
    assert result.status is fp.Status.TIME_LIMIT
    assert time.perf_counter() - started < 2.0
    assert not _pool_threads()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("lockstep", [False, True])
def test_ctrl_c_stops_every_thread_with_steals(stealing: str, lockstep: bool) -> None:
    def search() -> object:
        with parallel.tracing(lockstep=lockstep, quantum=64):
            return fp.search(
                HARD_4X4, algorithm="idastar", heuristic="manhattan",
                limits=fp.Limits(seconds=30), workers=4,
            )  # fmt: skip

    assert latency_of(0.3, search) < 0.5
    assert not _pool_threads()
    # And without tracing, through the interrupt helper every parallel test uses.
    assert interrupt_latency(0.3, HARD_4X4, algorithm="idastar", heuristic="linear_conflict",
                             limits=fp.Limits(seconds=30), workers=3) < 0.5  # fmt: skip
    assert not _pool_threads()


@pytest.mark.parametrize("workers", [2, 5])
def test_lockstep_records_each_iterations_critical_path(workers: int) -> None:
    # Searched to their end, on ``workers`` virtual cores: no iteration's critical path is
    # shorter than its work shared evenly, and the speed-up is at most the thread count.
    instance = BY_NODES[12]
    problem = make_problem(list(instance.tiles))
    limits = Limits(max_depth=instance.optimal_length - 1)
    serial = idastar.run(Request(problem, "manhattan", limits))
    with parallel.tracing(lockstep=True) as trace:
        shared = idastar.run(Request(problem, "manhattan", limits, workers=workers))
    assert (shared.expanded, shared.generated) == (serial.expanded, serial.generated)
    assert trace
    for iteration in trace:
        assert iteration.threads == workers
        assert iteration.span is not None
        assert iteration.span * workers >= sum(iteration.units)
    speedup = parallel.simulated_speedup(shared.expanded, trace, workers)
    assert 1.0 < speedup <= workers
    with pytest.raises(ValueError, match="lockstep on"):
        parallel.simulated_speedup(shared.expanded, trace, workers + 1)


def test_lockstep_solves_on_many_virtual_cores() -> None:
    # More threads than this machine has cores, kept together by the barrier: the same
    # lengths, the goal's unit named, every iteration's span recorded.
    for instance in BOARDS["pdb663"][:2]:
        with parallel.tracing(lockstep=True, quantum=128) as trace:
            result = fp.search(instance.tiles, algorithm="idastar", heuristic="pdb663",
                               workers=16)  # fmt: skip
        assert len(result.unwrap()) == instance.optimal_length
        assert trace
        assert all(it.span is not None and it.threads == 16 for it in trace)
        assert trace[-1].solver is not None
    assert not _pool_threads()


def test_simulated_speedup_adds_the_spans_of_lockstep_iterations() -> None:
    span = parallel.SharedIteration(10, [4, 4, 4, 4], span=5, threads=4)
    # The work outside the units (20 - 16) on one thread, then the measured span.
    assert parallel.simulated_speedup(20, [span], 4) == 20 / (4 + 5)
    assert parallel.simulated_speedup(20, [span], 4, serial=18) == 18 / 9
    # Replayed and measured iterations together: 8 expansions in order on 2 threads take 4.
    replayed = parallel.SharedIteration(12, [1, 1, 3, 3])
    span2 = parallel.SharedIteration(10, [4, 4, 4, 4], span=9, threads=2)
    assert parallel.simulated_speedup(26, [replayed, span2], 2) == 26 / (2 + 4 + 9)
    with pytest.raises(ValueError, match="on 2 threads"):
        parallel.simulated_speedup(26, [replayed, span2], 4)
    with pytest.raises(ValueError, match="quantum"), parallel.tracing(lockstep=True, quantum=0):
        pass
