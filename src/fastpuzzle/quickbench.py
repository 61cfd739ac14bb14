"""``fastpuzzle bench``: a quick benchmark on boards generated from fixed seeds.

It needs no data files: the boards are random walks and random boards drawn from fixed seeds, so
every run measures the same work. It prints nodes per second and times; the full benchmarks
(pytest-benchmark, with baselines measured in the same run) live in the repository's
``benchmarks/`` folder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from fastpuzzle.board import Board
from fastpuzzle.generate import random_board, scramble
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchStats

__all__ = ["BenchRow", "format_rows", "run"]


@dataclass(frozen=True)
class BenchRow:
    """One line of the quick benchmark."""

    task: str
    boards: int
    solved: int
    generated: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        """Generated nodes per second of search."""
        return self.generated / self.seconds if self.seconds > 0 else 0.0


def _measure(
    task: str, boards: list[Board], run_one: Callable[[Board], SearchStats | None]
) -> BenchRow:
    generated, seconds, solved = 0, 0.0, 0
    for board in boards:
        started = time.perf_counter()
        stats = run_one(board)
        elapsed = time.perf_counter() - started
        if stats is not None:
            solved += 1
            generated += stats.generated
        seconds += elapsed
    return BenchRow(task, len(boards), solved, generated, seconds)


def run(*, quick: bool = False) -> list[BenchRow]:
    """Run the quick benchmark; ``quick`` uses fewer boards (for tests)."""
    from fastpuzzle.solve import search, solve

    count = 3 if quick else 10
    hard = [scramble(Board.goal((4, 4)), 150, rng=seed) for seed in range(count)]
    easy3 = [random_board((3, 3), rng=seed) for seed in range(count * 10)]
    cap = Limits(nodes=50_000_000)

    def searched(algorithm: str, heuristic: str | None) -> Callable[[Board], SearchStats | None]:
        def one(board: Board) -> SearchStats | None:
            result = search(board, algorithm=algorithm, heuristic=heuristic, limits=cap)
            return result.stats if result.solved else None

        return one

    def solved_default(board: Board) -> SearchStats | None:
        return solve(board).stats

    rows = [
        _measure("3x3 bfs", easy3[:count], searched("bfs", None)),
        _measure("3x3 astar+manhattan", easy3, searched("astar", "manhattan")),
        _measure("3x3 solve() default", easy3, solved_default),
        _measure("4x4 idastar+manhattan", hard, searched("idastar", "manhattan")),
        _measure("4x4 idastar+linear_conflict", hard, searched("idastar", "linear_conflict")),
        _measure("4x4 solve() default", hard, solved_default),
    ]
    return rows


def format_rows(rows: list[BenchRow]) -> str:
    """The rows as a fixed-width table."""
    header = (
        f"{'task':30} {'boards':>6} {'solved':>6} {'generated':>13} {'seconds':>9} {'M nodes/s':>9}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.task:30} {row.boards:6d} {row.solved:6d} {row.generated:13,d} "
            f"{row.seconds:9.3f} {row.nodes_per_second / 1e6:9.2f}"
        )
    return "\n".join(lines)
