"""Print the near-optimal table: ``solve(optimal=False)`` under a budget on DeepCubeA's boards.

Usage: ``python -m benchmarks.studies.near_optimal_report --seconds 5 --size 5x5 [--size 6x6]
[--boards 20] [--nodes N]``. For each size: the mean length of the first (constructive) answer
and of the answer within the budget (``--nodes``: expansions instead of seconds, the same
answers however loaded the machine), their ratio to DeepCubeA's lengths and to the optimum
where the data set has one (5x5), the mean gap (length / certified lower bound), and the time a
board. Boards come from ``tests/data/deepcubea_some.tsv``; every answer is replayed to the goal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import fastpuzzle as fp
from benchmarks.harness import table
from tests.instances import deepcubea


def _size(text: str) -> int:
    rows, _, cols = text.partition("x")
    if rows != cols or rows not in ("5", "6", "7"):
        raise argparse.ArgumentTypeError(f"expected 5x5, 6x6 or 7x7, got {text!r}")
    return int(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="budget a board")
    parser.add_argument(
        "--nodes",
        type=int,
        help="a node budget a board instead of --seconds: the same answers on any machine load",
    )
    parser.add_argument("--size", type=_size, action="append", help="5x5, 6x6 or 7x7")
    parser.add_argument("--boards", type=int, default=20, help="boards of each size (<= 20)")
    args = parser.parse_args()
    rows = []
    for side in args.size or [5]:
        boards = deepcubea(side)[: args.boards]
        firsts, lengths, gaps, seconds, over = [], [], [], [], 0
        for instance in boards:
            board = fp.Board(instance.tiles, shape=instance.shape)
            first = fp.solve(board, optimal=False)
            started = time.perf_counter()
            limits = fp.Limits(nodes=args.nodes) if args.nodes else fp.Limits(seconds=args.seconds)
            solution = fp.solve(board, optimal=False, limits=limits)
            took = time.perf_counter() - started
            assert solution.verify() and len(solution) <= len(first)
            assert solution.lower_bound >= fp.manhattan(board)
            if instance.optimal_length is not None:
                assert solution.lower_bound <= instance.optimal_length <= len(solution)
            over += args.nodes is None and took > 1.2 * args.seconds
            firsts.append(len(first))
            lengths.append(len(solution))
            gaps.append(solution.gap)
            seconds.append(took)
            print(f"{instance.name}: {len(first)} -> {len(solution)} moves "
                  f"(DeepCubeA {instance.deepcubea_moves}, optimal "
                  f"{instance.optimal_length or '-'}), bound {solution.lower_bound}, "
                  f"{took:.2f} s", file=sys.stderr, flush=True)  # fmt: skip
        dca = sum(i.deepcubea_moves for i in boards)
        known = [i.optimal_length for i in boards]
        optimum = sum(known) if all(k is not None for k in known) else None  # type: ignore[misc]
        rows.append((
            f"{side}x{side}",
            len(boards),
            f"{args.nodes:,} nodes" if args.nodes else f"{args.seconds:g} s",
            f"{statistics.fmean(firsts):.1f}",
            f"{statistics.fmean(lengths):.1f}",
            f"{sum(lengths) / dca:.3f}",
            "-" if optimum is None else f"{sum(lengths) / optimum:.3f}",
            f"{statistics.fmean(gaps):.3f}",
            f"{statistics.fmean(seconds):.2f}",
            over,
            f"{statistics.fmean(i.deepcubea_moves for i in boards):.1f}",
        ))  # fmt: skip
    header = ("size", "boards", "budget", "first", "length", "/ DeepCubeA", "/ optimal",
              "gap", "s a board", "over +20%", "DeepCubeA")  # fmt: skip
    print(table(header, rows))


if __name__ == "__main__":
    main()
