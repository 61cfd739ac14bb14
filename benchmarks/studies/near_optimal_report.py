"""Print the near-optimal table: ``solve(optimal=False)`` under a budget on DeepCubeA's boards.

Usage: ``python -m benchmarks.studies.near_optimal_report --seconds 5 --size 5x5 [--size 6x6]
[--boards 20] [--nodes N] [--fresh] [--workers 1]``. For each size: the mean length of the first
(constructive) answer and of the answer within the budget (``--nodes``: expansions instead of
seconds, the same answers however loaded the machine), their ratio to DeepCubeA's lengths and
to the optimum where the data set has one (5x5), the mean lower bound and gap (length /
certified lower bound), and the time a board. Boards of 5x5, 6x6 and 7x7 come from
``tests/data/deepcubea_some.tsv``; other square sizes (``--size 10x10``) are
``fp.random_board((n, n), rng=k)`` for k = 0, 1, ... Every answer is replayed to the goal.

``--fresh`` solves each board in a fresh Python process, as the issue measures it (each board
in a fresh process: the pattern database read again by every board); the time a board is the
solve's own, counted in that process (its start-up and imports left out).
``--workers 1`` keeps each solve on one thread (default: every core, of which it uses two).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time

import fastpuzzle as fp
from benchmarks.harness import child, table
from tests.instances import deepcubea


def _size(text: str) -> int:
    rows, _, cols = text.partition("x")
    if rows != cols or not rows.isdigit() or not 5 <= int(rows) <= 100:
        raise argparse.ArgumentTypeError(
            f"expected a square size from 5x5 to 100x100, got {text!r}"
        )
    return int(rows)


@dataclasses.dataclass
class _Random:
    """A random board of a size DeepCubeA's data set does not have."""

    name: str
    tiles: tuple[int, ...]
    shape: tuple[int, int]
    deepcubea_moves: int | None = None
    optimal_length: int | None = None


def _boards(side: int, count: int) -> list:  # type: ignore[type-arg]
    if side in (5, 6, 7):
        return deepcubea(side)[:count]
    return [
        _Random(
            f"random{side}x{side}-{k}", fp.random_board((side, side), rng=k).tiles, (side, side)
        )
        for k in range(count)
    ]


def _limits(seconds: float, nodes: int | None) -> fp.Limits:
    return fp.Limits(nodes=nodes) if nodes else fp.Limits(seconds=seconds)


def _solve(board: fp.Board, goal: fp.Board, args: argparse.Namespace) -> tuple[fp.Solution, float]:
    """The answer within the budget and the seconds the solve took: in this process, or with
    ``--fresh`` in a fresh one (:func:`_solve_one` there)."""
    if not args.fresh:
        started = time.perf_counter()
        limits = _limits(args.seconds, args.nodes)
        solution = fp.solve(board, optimal=False, limits=limits, workers=args.workers)
        return solution, time.perf_counter() - started
    budget = ["--nodes", str(args.nodes)] if args.nodes else ["--seconds", str(args.seconds)]
    if args.workers is not None:
        budget += ["--workers", str(args.workers)]
    done = child(__spec__.name, [*budget, "--solve-one", board.to_string()])
    answer = json.loads(done.stdout.splitlines()[-1])
    solution = fp.Solution(
        board=board,
        goal=goal,
        moves=answer["moves"],
        stats=fp.SearchStats(depth=len(answer["moves"])),
        algorithm="anytime",
        heuristic=answer["heuristic"],
        optimal=answer["optimal"],
        lower_bound=answer["lower_bound"],
    )
    return solution, answer["seconds"]


def _solve_one(text: str, seconds: float, nodes: int | None, workers: int | None) -> None:
    """Solve one board (``--solve-one``, what ``--fresh`` runs in a fresh process) and print
    its answer and the seconds the solve took as JSON."""
    board = fp.Board(text)
    started = time.perf_counter()
    solution = fp.solve(board, optimal=False, limits=_limits(seconds, nodes), workers=workers)
    took = time.perf_counter() - started
    print(json.dumps({
        "moves": solution.moves,
        "lower_bound": solution.lower_bound,
        "optimal": solution.optimal,
        "heuristic": solution.heuristic,
        "seconds": took,
    }))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="budget a board")
    parser.add_argument(
        "--nodes",
        type=int,
        help="a node budget a board instead of --seconds: the same answers on any machine load",
    )
    parser.add_argument(
        "--size", type=_size, action="append", help="5x5, 6x6, 7x7 (DeepCubeA's) or NxN (random)"
    )
    parser.add_argument(
        "--boards", type=int, default=20, help="boards of each size (<= 20 of DeepCubeA's)"
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="each board in a fresh process (its tables read again), timed there",
    )
    parser.add_argument("--solve-one", metavar="BOARD", help=argparse.SUPPRESS)
    parser.add_argument(
        "--workers", type=int, default=None, help="threads a solve (default: every core)"
    )
    args = parser.parse_args()
    if args.solve_one:
        _solve_one(args.solve_one, args.seconds, args.nodes, args.workers)
        return
    rows = []
    for side in args.size or [5]:
        boards = _boards(side, args.boards)
        firsts, lengths, bounds, gaps, seconds, over = [], [], [], [], [], 0
        for instance in boards:
            board = fp.Board(instance.tiles, shape=instance.shape)
            first = fp.solve(board, optimal=False)
            solution, took = _solve(board, first.goal, args)
            assert solution.verify() and len(solution) <= len(first)
            assert solution.lower_bound >= fp.manhattan(board)
            if instance.optimal_length is not None:
                assert solution.lower_bound <= instance.optimal_length <= len(solution)
            over += args.nodes is None and took > 1.2 * args.seconds
            firsts.append(len(first))
            lengths.append(len(solution))
            bounds.append(solution.lower_bound)
            gaps.append(solution.gap)
            seconds.append(took)
            print(f"{instance.name}: {len(first)} -> {len(solution)} moves "
                  f"(DeepCubeA {instance.deepcubea_moves}, optimal "
                  f"{instance.optimal_length or '-'}), bound {solution.lower_bound}, "
                  f"{took:.2f} s", file=sys.stderr, flush=True)  # fmt: skip
        reported = [i.deepcubea_moves for i in boards]
        dca = sum(reported) if all(r is not None for r in reported) else None  # type: ignore[misc]
        known = [i.optimal_length for i in boards]
        optimum = sum(known) if all(k is not None for k in known) else None  # type: ignore[misc]
        rows.append((
            f"{side}x{side}",
            len(boards),
            f"{args.nodes:,} nodes" if args.nodes else f"{args.seconds:g} s",
            f"{statistics.fmean(firsts):.1f}",
            f"{statistics.fmean(lengths):.1f}",
            "-" if dca is None else f"{sum(lengths) / dca:.3f}",
            "-" if optimum is None else f"{sum(lengths) / optimum:.3f}",
            f"{statistics.fmean(bounds):.1f}",
            f"{statistics.fmean(gaps):.3f}",
            f"{statistics.fmean(seconds):.2f}",
            over,
            "-" if dca is None else f"{dca / len(boards):.1f}",
        ))  # fmt: skip
    header = ("size", "boards", "budget", "first", "length", "/ DeepCubeA", "/ optimal",
              "bound", "gap", "s a board", "over +20%", "DeepCubeA")  # fmt: skip
    print(table(header, rows))


if __name__ == "__main__":
    main()
