"""solve_many's faults of issue 14: Ctrl-C on worker threads, resume integrity, bounded memory."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest

import fastpuzzle as fp
from tests.instances import hard
from tests.oracle import distances_3x3
from tests.test_limits import _interrupt_after

# -- Ctrl-C -----------------------------------------------------------------------------------


def batch_interrupt_latency(delay: float, boards, **options) -> float:
    """Seconds from a SIGINT sent ``delay`` s into ``fp.solve_many(boards, **options)`` to the
    KeyboardInterrupt it raises (as ``interrupt_latency`` of test_limits, for a batch)."""
    sent: list[float] = []
    timer = _interrupt_after(delay, sent)
    try:
        with pytest.raises(KeyboardInterrupt):
            fp.solve_many(boards, **options)
        stopped = time.perf_counter()
    finally:
        timer.cancel()
    assert sent, "the batch ended before the signal"
    return stopped - sent[0]


HARD = [fp.Board(case.tiles) for case in hard()]  # 70 and 80 moves: tens of seconds each


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("packed", [False, True])
def test_ctrl_c_stops_the_searches_running_on_worker_threads(packed):
    # Before: the pool's shutdown waited for both running searches, 17.7 s after the signal.
    boards = HARD * 2
    data = np.array([b.packed for b in boards], dtype=np.uint64) if packed else boards
    latency = batch_interrupt_latency(0.5, data, shape=(4, 4), workers=2, chunk_size=1)
    assert latency < 0.5


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_chunk_of_short_searches():
    # Every BFS here stops before its first check (under 65,536 expansions, about 0.5 ms each):
    # a search started on a stopped thread must stop anyway, or each chunk runs on to its end.
    dist = distances_3x3()
    boards = [b for b, d in dist.items() if d == 20][:8000]
    latency = batch_interrupt_latency(0.3, boards, algorithm="bfs", workers=2, chunk_size=4000)
    assert latency < 0.5
