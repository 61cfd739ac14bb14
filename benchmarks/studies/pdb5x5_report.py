"""5x5 optimal solving: the 6-6-6-6 pattern database against linear conflict, in the same run.

Usage::

    python -m benchmarks.studies.pdb5x5_report [--build] [--moves 40 60 80 100] [--seeds 2]
        [--pdb-seconds 600] [--lc-seconds 60] [--random 1]

``--build`` rebuilds the database first (``force=True``) and reports its build time and the
process's peak memory; otherwise the database must already be in the cache. Each board is a
random walk of ``--moves`` moves (its optimal length is found by the search, usually shorter),
plus ``--random`` uniformly random boards. Every board is solved with the pattern database
(``--pdb-seconds`` cap) and with linear conflict (``--lc-seconds`` cap, the baseline); a search
that hits its cap is shown as ``>cap``. Both solvers are optimal, so where both finish their
lengths must agree (checked).
"""

from __future__ import annotations

import argparse
import resource
import time

import fastpuzzle as fp
from fastpuzzle import pdb


def _solve(board: fp.Board, heuristic: str, seconds: float) -> tuple[str, str, str, float]:
    result = fp.search(
        board,
        algorithm="idastar",
        heuristic=heuristic,
        limits=fp.Limits(seconds=seconds),
        workers=1,
    )
    if result.solution is None:
        return "-", f">{seconds:g}", f"{result.stats.generated:,}", float("nan")
    assert result.solution.verify()
    return (
        str(len(result.solution)),
        f"{result.stats.seconds:.3f}",
        f"{result.stats.generated:,}",
        result.stats.generated / max(result.stats.seconds, 1e-9),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--moves", type=int, nargs="+", default=[40, 60, 80, 100])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--random", type=int, default=1)
    parser.add_argument("--pdb-seconds", type=float, default=600.0)
    parser.add_argument("--lc-seconds", type=float, default=60.0)
    args = parser.parse_args()
    if args.build:
        started = time.perf_counter()
        pdb.build_pdb("6-6-6-6", force=True)
        built = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"6-6-6-6 build: {built:.1f} s, peak resident memory {peak:.0f} MiB")
    database = pdb.load_pdb("6-6-6-6")
    if database is None:
        raise SystemExit("build the database first: fastpuzzle pdb build 6-6-6-6 (or --build)")
    print(f"6-6-6-6 tables: {database.nbytes / 2**20:.0f} MiB ({database.path})")
    boards = []
    for moves in args.moves:
        for seed in range(args.seeds):
            boards.append(
                (f"walk {moves} #{seed}", fp.scramble(fp.Board.goal((5, 5)), moves, rng=seed))
            )
    for seed in range(args.random):
        boards.append((f"random #{seed}", fp.random_board((5, 5), rng=seed)))
    header = (
        f"{'board':>14} {'MD':>4} {'optimal':>7} {'pdb s':>9} {'pdb nodes':>15} "
        f"{'pdb M/s':>8} {'lc s':>8} {'lc nodes':>15} {'speed-up':>8}"
    )
    print(header)
    for label, board in boards:
        length, seconds, nodes, rate = _solve(board, "pdb6666", args.pdb_seconds)
        lc_length, lc_seconds, lc_nodes, _ = _solve(board, "linear_conflict", args.lc_seconds)
        if length != "-" and lc_length != "-":
            assert length == lc_length, (label, length, lc_length)
        speedup = "-"
        if length != "-" and lc_length != "-":
            speedup = f"{float(lc_seconds) / max(float(seconds), 1e-6):.0f}x"
        elif length != "-" and float(seconds) < args.lc_seconds:
            speedup = f">{args.lc_seconds / max(float(seconds), 1e-6):.0f}x"
        print(
            f"{label:>14} {fp.manhattan(board):>4} {length:>7} {seconds:>9} {nodes:>15} "
            f"{rate / 1e6:8.1f} {lc_seconds:>8} {lc_nodes:>15} {speedup:>8}"
        )


if __name__ == "__main__":
    main()
