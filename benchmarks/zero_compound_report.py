"""An experiment the catalogue lacks: the ``6-6-6-6x7`` compound with zero-aware tables.

Usage: ``python benchmarks/zero_compound_report.py [--korf 1,25,32,38,40] [--workers 2]``. Needs
``fastpuzzle pdb build 6-6-6-6x7`` and ``fastpuzzle pdb build 6-6-6-6z``; builds the compound's
ten other groups zero-aware (about 45 s each on two cores) into ``zero-compound/`` under the
cache directory, as ``.npy`` files written whole or not at all, and reads them from there on
later runs. For each board, in turn in one run: the compound (``pdb24``) and the same partitions
zero-aware, nodes generated and wall seconds, with Korf and Felner's published count.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastpuzzle._core import _pdb, _wide_pdb
from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle._solver import pruning
from fastpuzzle.pdb import compound, load_pdb, partitions, pdb_cache_dir
from tests.instances import korf24

SHAPE = (5, 5)
BLANK = 24
NAME = "6-6-6-6x7"

Group = tuple[tuple[int, ...], bool, bool, np.ndarray]


def _zero_group(cells: tuple[int, ...], directory: Path) -> Group:
    """One group's zero-aware table, from ``directory`` or built there."""
    tiles = tuple(c + 1 for c in cells)  # goal blank on the last cell: cell c holds tile c + 1
    path = directory / ("zero-" + "-".join(map(str, cells)) + ".npy")
    if path.exists():
        return tiles, False, True, np.load(path)
    started = time.perf_counter()
    levels = _pdb.build_levels(5, 5, BLANK, list(tiles), False, zero=True)
    table, nibble = _pdb.pack_table(levels, 5, 5, BLANK, list(tiles), False, zero=True)
    if not nibble:
        raise SystemExit(f"group {cells}: values past 4 bits (not expected for six tiles)")
    directory.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            np.save(out, table)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    print(f"built {cells} in {time.perf_counter() - started:.1f} s", flush=True)
    return tiles, False, True, table


def zero_compound() -> LoadedPatterns | None:
    """The compound's partitions with zero-aware tables, laid out; None where 6-6-6-6z is
    missing."""
    base = load_pdb("6-6-6-6z", SHAPE, BLANK)
    if base is None:
        print("6-6-6-6z is not built: `fastpuzzle pdb build 6-6-6-6z`")
        return None
    table_of = {tuple(sorted(c)): g for c, g in zip(base.cells, base.groups)}
    directory = pdb_cache_dir() / "zero-compound"
    groups = partitions.compound_groups(NAME, SHAPE, BLANK)
    for cells in (tuple(sorted(c)) for part in groups for c in part):
        if cells not in table_of:
            table_of[cells] = _zero_group(cells, directory)
    laid = [[table_of[tuple(sorted(c))] for c in part] for part in groups]
    megabytes = sum(int(g[3].nbytes) for g in table_of.values()) / 2**20
    print(f"zero-aware {NAME}: {len(table_of)} tables, {megabytes:.0f} MiB")
    reflect = partitions.reflection(SHAPE, BLANK)
    return LoadedPatterns(laid[0], reflect, 25, 5, BLANK, extra=laid[1:], zero=SHAPE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--korf", default="1,25,32,38,40")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if not compound.compound_built(NAME, SHAPE, BLANK):
        print(f"the {NAME} tables are not built: `fastpuzzle pdb build {NAME}`")
        return 1
    zero = zero_compound()
    if zero is None:
        return 1
    plain = compound.compound_for(NAME, SHAPE, BLANK, build=False).loaded()
    machine = pruning.machine(SHAPE, "fsm")
    wanted = {f"korf24-{k}" for k in args.korf.split(",")}
    totals = {"compound": [0, 0.0], "zero-aware": [0, 0.0]}
    published = 0
    print(f"{args.workers} threads, duplicate pruning by the machine: nodes generated, wall s")
    for instance in korf24():
        if instance.name not in wanted:
            continue
        cells = np.array(instance.tiles, dtype=np.uint8)
        row = {}
        for label, layout in (("compound", plain), ("zero-aware", zero)):
            started = time.perf_counter()
            core = _wide_pdb.idastar(
                cells, instance.tiles.index(0), 5, 5, BLANK, tables=layout,
                workers=args.workers, machine=machine,
            )  # fmt: skip
            seconds = time.perf_counter() - started
            assert core.depth == instance.optimal_length
            row[label] = (core.generated, seconds)
            totals[label][0] += core.generated
            totals[label][1] += seconds
        known = instance.published_nodes or 0
        published += known
        (n1, s1), (n2, s2) = row["compound"], row["zero-aware"]
        print(
            f"  {instance.name:>10} ({instance.optimal_length}): published {known:>14,}  "
            f"compound {n1:>13,} {s1:6.1f} s {n1 / s1 / 1e6:4.1f} M/s   "
            f"zero-aware {n2:>13,} {s2:6.1f} s {n2 / s2 / 1e6:4.1f} M/s   "
            f"nodes {n2 / n1:.3f}x time {s2 / s1:.2f}x"
        )
    (n1, s1), (n2, s2) = totals["compound"], totals["zero-aware"]
    print(
        f"  total: published {published:,}; compound {n1:,} ({n1 / published:.3f}x) in "
        f"{s1:.1f} s; zero-aware {n2:,} ({n2 / published:.3f}x) in {s2:.1f} s; "
        f"nodes {n2 / n1:.3f}x, time {s2 / s1:.2f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
