"""``fastpuzzle bench``: a quick benchmark on boards generated from fixed seeds.

It needs no data files: the boards are random walks and random boards drawn from fixed seeds, so
every run measures the same work. It prints nodes per second and times; the full benchmarks
(pytest-benchmark, with baselines measured in the same run) live in the repository's
``benchmarks/`` folder.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from fastpuzzle._util.units import duration
from fastpuzzle.algorithms import AlgorithmName
from fastpuzzle.board import Board
from fastpuzzle.generate import random_board, scramble
from fastpuzzle.heuristics import HeuristicName
from fastpuzzle.limits import Limits
from fastpuzzle.results import SearchResult, Status
from fastpuzzle.solve import search, solve

__all__ = ["BenchRow", "format_rows", "run"]

#: Each search of the quick benchmark stops after this many expansions.
NODE_CAP = 50_000_000


@dataclass(frozen=True)
class BenchRow:
    """One line of the quick benchmark.

    ``seconds`` is the wall-clock time of the solved boards' calls, loading (or building) the
    tables a search reads included; ``search_seconds`` the searches' own clocks, which the
    rate counts: a row whose first call loads a 275 MiB table would otherwise show a rate of a
    few thousand nodes a second.
    """

    task: str
    boards: int
    solved: int
    generated: int
    seconds: float
    #: Why the other boards were not solved: how many stopped at each limit (``"node_limit"``).
    stopped: dict[str, int] = field(default_factory=dict)
    search_seconds: float = 0.0

    @property
    def why_not_solved(self) -> str:
        """The boards not solved and why, e.g. ``"2 at node_limit"`` (empty when all were)."""
        return ", ".join(f"{count} at {status}" for status, count in sorted(self.stopped.items()))

    @property
    def nodes_per_second(self) -> float:
        """Generated nodes per second of search (the searches' own time, no table loading)."""
        return self.generated / self.search_seconds if self.search_seconds > 0 else 0.0


def _measure(task: str, boards: list[Board], run_one: Callable[[Board], SearchResult]) -> BenchRow:
    generated, seconds, searching, solved = 0, 0.0, 0.0, 0
    stopped: Counter[str] = Counter()
    for board in boards:
        started = time.perf_counter()
        result = run_one(board)
        elapsed = time.perf_counter() - started
        if result.solved:
            solved += 1
            generated += result.stats.generated
            seconds += elapsed
            searching += result.stats.seconds
        else:
            stopped[str(result.status)] += 1
    return BenchRow(task, len(boards), solved, generated, seconds, dict(stopped), searching)


def run(*, quick: bool = False) -> list[BenchRow]:
    """Run the quick benchmark; ``quick`` uses fewer boards (for tests)."""
    count = 3 if quick else 10
    hard = [scramble(Board.goal((4, 4)), 150, rng=seed) for seed in range(count)]
    easy3 = [random_board((3, 3), rng=seed) for seed in range(count * 10)]
    cap = Limits(nodes=NODE_CAP)

    def searched(
        algorithm: AlgorithmName, heuristic: HeuristicName | None
    ) -> Callable[[Board], SearchResult]:
        def one(board: Board) -> SearchResult:
            return search(board, algorithm=algorithm, heuristic=heuristic, limits=cap)

        return one

    def solved_default(board: Board) -> SearchResult:
        solution = solve(board)
        return SearchResult(board, solution.goal, Status.SOLVED, solution, solution.stats, "auto")

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
        f"{'task':30} {'boards':>6} {'solved':>6} {'generated':>13} {'time':>9} {'M nodes/s':>9}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.task:30} {row.boards:6d} {row.solved:6d} {row.generated:13,d} "
            f"{duration(row.seconds):>9} {row.nodes_per_second / 1e6:9.2f}"
            + (f"  not solved: {row.why_not_solved}" if row.stopped else "")
        )
    lines.append(
        "(time: wall clock, loading tables included; M nodes/s: on the searches' own clock)"
    )
    limited = [row for row in rows if row.stopped]
    if limited:
        lines.append(
            f"(searches stop at {NODE_CAP:,} expanded nodes; nodes and seconds count the "
            "solved boards only)"
        )
    return "\n".join(lines)
