"""The anytime solver's second thread: its strongest search beside the rest of the schedule.

Node limits keep the answers deterministic (each thread spends a fixed share of them); small
stand-in tables take the place of 6x6's 5-5-5-5-5-5-5.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import anytime, crew
from tests.interrupts import latency_of
from tests.pdbcache import small_6x6_database, stand_in_6x6_tables

#: A few beams of each thread on 7x7 (a fraction of a second).
NODES = 300_000


def _seeds(
    monkeypatch: pytest.MonkeyPatch, fail: bool = False, started: threading.Event | None = None
) -> list[int]:
    """The first tie-break of every beam phase that runs; ``fail``: the side's raises;
    ``started``: set once the side's beams start."""
    seeds: list[int] = []
    phase = anytime.beam.beam_phase

    def watched(problem, best, budget, report, *, first_seed=0):
        seeds.append(first_seed)
        if started is not None and first_seed == anytime.SIDE_SEED:
            started.set()
        if fail and first_seed == anytime.SIDE_SEED:
            raise RuntimeError("the side's beams failed")
        return phase(problem, best, budget, report, first_seed=first_seed)

    monkeypatch.setattr(anytime.beam, "beam_phase", watched)
    return seeds


def test_two_threads_under_a_node_limit_give_the_same_answer_each_time(monkeypatch):
    seeds = _seeds(monkeypatch)
    board = fp.random_board((7, 7), rng=3)
    limits = fp.Limits(nodes=NODES)
    first = fp.solve(board, optimal=False, limits=limits, workers=2)
    again = fp.solve(board, optimal=False, limits=limits, workers=2)
    assert sorted(seeds) == [0, 0, anytime.SIDE_SEED, anytime.SIDE_SEED]
    assert first.moves == again.moves and first.lower_bound == again.lower_bound
    assert first.verify()
    assert fp.manhattan(board) <= first.lower_bound <= len(first)
    assert crew.running() == 0


def test_one_worker_keeps_one_thread(monkeypatch):
    seeds = _seeds(monkeypatch)
    board = fp.random_board((7, 7), rng=3)
    assert fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES), workers=1).verify()
    assert seeds == [0]


def test_the_search_entry_point_takes_workers(monkeypatch):
    seeds = _seeds(monkeypatch)
    board = fp.random_board((7, 7), rng=3)
    result = fp.search(board, algorithm="anytime", limits=fp.Limits(nodes=NODES), workers=2)
    assert result.solved and result.solution is not None and result.solution.verify()
    assert sorted(seeds) == [0, anytime.SIDE_SEED]


def test_a_failure_on_the_second_thread_surfaces(monkeypatch):
    _seeds(monkeypatch, fail=True)
    board = fp.random_board((7, 7), rng=3)
    with pytest.raises(RuntimeError, match="the side's beams failed"):
        fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES), workers=2)
    assert crew.running() == 0


def _ctrl_c_latency(board: fp.Board, started: threading.Event) -> float:
    """Seconds from a Ctrl-C sent 0.2 s after ``started`` is set to the end of a two-thread
    solve of ``board`` under a minute's limit."""
    limits = fp.Limits(seconds=60)
    return latency_of(
        0.2,
        lambda: fp.solve(board, optimal=False, limits=limits, workers=2),
        "anytime solve",
        after=started,
    )


def test_ctrl_c_stops_both_threads(monkeypatch):
    # The signal comes once the side's beams run (before: 0.5 s into the call, which on a busy
    # machine could be before the side had started, its pruning machine still being built).
    started = threading.Event()
    seeds = _seeds(monkeypatch, started=started)
    latency = _ctrl_c_latency(fp.random_board((7, 7), rng=3), started)
    assert anytime.SIDE_SEED in seeds
    # The side's beams stop at their next check of the limits, not at the end of their share.
    assert latency < 10.0, latency
    assert crew.running() == 0


@pytest.fixture(scope="module")
def small_cache_6x6(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("side6x6")
    small_6x6_database(directory)
    return directory


def _tables_6x6(directory: Path, monkeypatch: pytest.MonkeyPatch) -> anytime.Tables:
    return stand_in_6x6_tables(directory, monkeypatch)


def test_batch_astar_runs_on_the_second_thread_on_6x6_tables(small_cache_6x6, monkeypatch):
    _tables_6x6(small_cache_6x6, monkeypatch)
    threads: list[bool] = []
    phase = anytime.batch_astar.astar_phase

    def watched(*args, **options):
        threads.append(threading.current_thread() is threading.main_thread())
        return phase(*args, **options)

    monkeypatch.setattr(anytime.batch_astar, "astar_phase", watched)
    board = fp.random_board((6, 6), rng=5)
    limits = fp.Limits(nodes=1_000_000)
    solution = fp.solve(board, optimal=False, limits=limits, workers=2)
    assert threads == [False]
    assert solution.verify() and solution.heuristic == "pdb"
    assert fp.manhattan(board) <= solution.lower_bound <= len(solution)
    assert fp.solve(board, optimal=False, limits=limits, workers=2).moves == solution.moves
    # Its nodes are the answer's too, within the limit.
    assert solution.stats.expanded <= 1_000_000 + fp.solve(board, optimal=False).stats.expanded


def test_a_failure_of_batch_astar_on_the_second_thread_surfaces(small_cache_6x6, monkeypatch):
    _tables_6x6(small_cache_6x6, monkeypatch)

    def failing(*args, **options):
        raise MemoryError("no memory for the side's store")

    monkeypatch.setattr(anytime.batch_astar, "astar_phase", failing)
    board = fp.random_board((6, 6), rng=5)
    with pytest.raises(MemoryError, match="the side's store"):
        fp.solve(board, optimal=False, limits=fp.Limits(nodes=200_000), workers=2)
    assert crew.running() == 0


def test_ctrl_c_stops_batch_astar_on_the_second_thread(small_cache_6x6, monkeypatch):
    _tables_6x6(small_cache_6x6, monkeypatch)
    sides: list[bool] = []
    phase = anytime.batch_astar.astar_phase
    started = threading.Event()

    def watched(*args, **options):
        sides.append(threading.current_thread() is not threading.main_thread())
        started.set()
        return phase(*args, **options)

    monkeypatch.setattr(anytime.batch_astar, "astar_phase", watched)
    latency = _ctrl_c_latency(fp.random_board((6, 6), rng=5), started)
    assert sides == [True]
    assert latency < 10.0, latency
    assert crew.running() == 0


def test_two_threads_spend_the_whole_node_limit(monkeypatch):
    # Before: the side's share left a quarter of its beams' nodes unspent, never handed back
    # (7x7, 4 M nodes: 3.3 M expanded with two threads, 4.0 M with one).
    _seeds(monkeypatch)
    board = fp.random_board((7, 7), rng=3)
    first = fp.solve(board, optimal=False)
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES), workers=2)
    spent = solution.stats.expanded - first.stats.expanded
    assert 0.97 * NODES <= spent <= 1.1 * NODES, spent


def test_no_second_beam_under_a_memory_limit(monkeypatch):
    # Two beams hold their boards at once and neither checks the limit (before: 7x7, 28 MB
    # allocated under a limit of 16 MB).
    seeds = _seeds(monkeypatch)
    board = fp.random_board((7, 7), rng=3)
    limits = fp.Limits(nodes=NODES, memory_bytes=2 * anytime.SIDE_BEAM_BYTES - 1)
    assert fp.solve(board, optimal=False, limits=limits, workers=2).verify()
    assert seeds == [0]
    # A limit that holds two beams (the page's 1 GiB) keeps the second.
    limits = fp.Limits(nodes=NODES, memory_bytes=2 * anytime.SIDE_BEAM_BYTES)
    assert fp.solve(board, optimal=False, limits=limits, workers=2).verify()
    assert sorted(seeds) == [0, 0, anytime.SIDE_SEED]


def test_no_side_astar_with_little_time_left(small_cache_6x6, monkeypatch):
    tables = _tables_6x6(small_cache_6x6, monkeypatch)
    tables.ready()
    board = fp.random_board((6, 6), rng=5)
    budget = anytime.Budget(deadline=time.monotonic() + anytime.SIDE_MIN_SECONDS / 2, nodes=None)
    problem = make_problem(board)
    assert anytime.side_search(problem, "", budget, tables, None) is None
    budget = anytime.Budget(deadline=time.monotonic() + 60.0, nodes=None)
    side = anytime.side_search(problem, fp.solve(board, optimal=False).moves, budget, tables, None)
    assert side is not None and side.kind == "astar"
    side.close()
    assert crew.running() == 0
