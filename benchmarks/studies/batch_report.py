"""Batch figures measured in one run: per-board time on 3x3, thread scaling and Dask overhead;
with ``--files``, ``fastpuzzle batch IN --out OUT`` (file to file) against ``solve_many`` then
``to_csv`` (API to file) on the same boards.

Usage: ``python -m benchmarks.studies.batch_report [--boards-4x4 N] [--files [--baseline TREE]]``.
Prints one table; every figure it prints was measured by this run on this machine.

``--files`` writes 200,000 3x3 and 20,000 4x4 boards (``--files-3x3``, ``--files-4x4``) one a line
(``1 2 3/4 5 6/7 8 _``) and times, in one process per source tree and size, rounds that alternate
the two: the API from packed words already in memory to a CSV file, and the command (its
``main``, in process, so that neither pays for starting Python) from the text file to a CSV
file. Each command round is split into reading, solving (with the chunk files that make
``--resume`` possible) and writing. ``--baseline TREE`` names another checkout (built in place)
measured the same way in the same run, each process importing its own tree's ``src``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import fastpuzzle as fp
from benchmarks.harness import ROOT, best_of
from benchmarks.harness import child as child_process
from tests.oracle import distances_3x3


def _fields(path: str, count: int) -> list[list[str]]:
    """The first ``count`` fields of each line of a CSV file (index to generated)."""
    with open(path) as stream:
        return [line.split(",")[:count] for line in stream]


def child(source: str, folder: str, side: int, rounds: int) -> None:
    """Time API to file and the command, file to file, alternating; print JSON (the process
    runs with ``source`` first on its path)."""
    from fastpuzzle import cli

    try:
        from fastpuzzle.cli import batch as steps
    except ImportError:  # a tree from before the command became a package
        steps = cli

    shape = (side, side)
    text_path = f"{folder}/boards{side}.txt"
    words = np.load(f"{folder}/boards{side}.npy")
    phases: dict[str, float] = {}

    def timed(name: str, run):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            try:
                return run(*args, **kwargs)
            finally:
                phases[name] = phases.get(name, 0.0) + time.perf_counter() - started

        return wrapper

    # The command's three steps, by the names both trees give them.
    steps._batch_input = timed("read", steps._batch_input)
    steps._solve_batch = timed("solve", steps._solve_batch)
    steps._write_batch = timed("write", steps._write_batch)
    fp.solve_many(words[:10], shape=shape)  # tables read and threads started before timing
    api, command, steps = [], [], []
    for _ in range(rounds):
        out_api, out_cli = f"{folder}/api{side}.csv", f"{folder}/cli{side}.csv"
        started = time.perf_counter()
        result = fp.solve_many(words, shape=shape)
        result.to_csv(out_api)
        api.append(time.perf_counter() - started)
        phases.clear()
        started = time.perf_counter()
        code = cli.main(["batch", text_path, "--out", out_cli, "--no-progress"])
        command.append(time.perf_counter() - started)
        steps.append(dict(phases))
        assert code == 0
        assert _fields(out_api, 6) == _fields(out_cli, 6), "the command's rows differ"
    lengths = np.asarray(result.lengths)
    if side == 3:
        dist = distances_3x3()
        tiles = ((words[:, None] >> (4 * np.arange(9, dtype=np.uint64))) & np.uint64(15)).tolist()
        assert lengths.tolist() == [dist[tuple(t)] for t in tiles]
    print(json.dumps({"api": api, "command": command, "steps": steps}))


def files_section(args: argparse.Namespace) -> None:
    trees = [("this tree", ROOT)]
    if args.baseline:
        trees.insert(0, ("baseline", Path(args.baseline).resolve()))
    with tempfile.TemporaryDirectory() as folder:
        sizes = [(3, args.files_3x3), (4, args.files_4x4)]
        for side, count in sizes:
            words = fp.random_boards(count, (side, side), rng=side)
            np.save(f"{folder}/boards{side}.npy", words)
            with open(f"{folder}/boards{side}.txt", "w") as stream:
                for word in words.tolist():
                    stream.write(fp.Board.from_packed(word, (side, side)).to_string() + "\n")
        print(
            f"file to file (fastpuzzle batch IN --out OUT.csv) against API to file "
            f"(solve_many + to_csv), best of {args.rounds}, {os.cpu_count()} cores"
        )
        print(
            f"{'boards':>16} {'tree':>10} {'API s':>7} {'batch s':>8} {'ratio':>6}   "
            "batch: read / solve / write s"
        )
        for side, count in sizes:
            for name, tree in trees:
                # A measuring process imports the tree it was asked for.
                found = child_process(
                    "benchmarks.studies.batch_report",
                    ["--child", str(tree / "src"), folder, str(side), str(args.rounds)],
                    source=tree / "src",
                )
                data = json.loads(found.stdout.strip().splitlines()[-1])
                api, command = min(data["api"]), min(data["command"])
                best = data["steps"][data["command"].index(command)]
                split = " / ".join(f"{best.get(k, 0.0):.2f}" for k in ("read", "solve", "write"))
                print(
                    f"{count:>10,} {side}x{side} {name:>10} {api:7.2f} {command:8.2f} "
                    f"{command / api:6.2f}   {split}"
                )


def main() -> None:
    if "--child" in sys.argv:
        at = sys.argv.index("--child")
        source, folder, side, rounds = sys.argv[at + 1 : at + 5]
        child(source, folder, int(side), int(rounds))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards-3x3", type=int, default=10_000)
    parser.add_argument("--boards-4x4", type=int, default=1_000)
    parser.add_argument("--dask", action="store_true", help="also time a 2-process LocalCluster")
    parser.add_argument("--files", action="store_true", help="only the file-to-file table")
    parser.add_argument("--files-3x3", type=int, default=200_000)
    parser.add_argument("--files-4x4", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="another checkout, built in place, for --files")
    args = parser.parse_args()
    if args.files:
        files_section(args)
        return

    small = [fp.random_board((3, 3), rng=s) for s in range(args.boards_3x3)]
    packed3 = np.array([b.packed for b in small], dtype=np.uint64)
    fp.solve_many(packed3[:10], shape=(3, 3))
    seconds3, result3 = best_of(5, lambda: fp.solve_many(packed3, shape=(3, 3)))
    dist = distances_3x3()
    assert result3.lengths.tolist() == [dist[b.tiles] for b in small]
    print(
        f"3x3: {args.boards_3x3} boards in {seconds3:.3f} s = "
        f"{seconds3 / args.boards_3x3 * 1e6:.2f} us a board (all optimal, checked by BFS)"
    )

    big = [fp.random_board((4, 4), rng=10_000 + s) for s in range(args.boards_4x4)]
    packed4 = np.array([b.packed for b in big], dtype=np.uint64)
    fp.solve(big[0])
    one, r1 = best_of(1, lambda: fp.solve_many(packed4, shape=(4, 4), workers=1))
    two, r2 = best_of(1, lambda: fp.solve_many(packed4, shape=(4, 4), workers=2))
    assert (r1.lengths == r2.lengths).all() and r1.solved.all()
    print(
        f"4x4: {args.boards_4x4} boards, 1 thread {one:.2f} s, 2 threads {two:.2f} s: "
        f"{one / two:.2f}x (mean length {r1.lengths.mean():.1f})"
    )

    if args.dask:
        from distributed import Client, LocalCluster

        with (
            LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
            Client(cluster) as client,
        ):
            fp.solve_many(packed4[:20], shape=(4, 4), client=client, chunk_size=10)  # warm up
            dask_s, r3 = best_of(
                1, lambda: fp.solve_many(packed4, shape=(4, 4), client=client, chunk_size=50)
            )
        assert (r3.lengths == r1.lengths).all()
        print(
            f"4x4 on a 2-process LocalCluster: {dask_s:.2f} s = {dask_s / two:.2f}x the "
            "2-thread time"
        )


if __name__ == "__main__":
    main()
