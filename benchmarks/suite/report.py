"""Print node rates and fastpuzzle/pure-Python ratios from a pytest-benchmark JSON file.

Usage: ``python -m benchmarks.suite.report results.json``

For every benchmark group: nodes (children generated per round), the best round's seconds, the
node rate, and for fastpuzzle the ratio to the pure-Python rate of the same group (same run,
same machine). ``core M/s`` uses the time spent inside the compiled loops (SearchStats.seconds)
rather than the whole call, which also builds boards and result objects in Python.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def rows_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One dict per benchmark with its group, implementation, nodes and timings."""
    rows = []
    for bench in data["benchmarks"]:
        info = bench.get("extra_info", {})
        if "nodes" not in info:
            continue
        seconds = bench["stats"]["min"]
        core = info.get("core_seconds")
        rows.append(
            {
                "group": bench.get("group") or bench["name"],
                "name": bench["name"],
                "impl": info.get("impl", "?"),
                "nodes": int(info["nodes"]),
                "expanded": int(info.get("expanded", 0)),
                "seconds": seconds,
                "rate": info["nodes"] / seconds if seconds > 0 else 0.0,
                "core_rate": info["nodes"] / core if core else None,
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The fixed-width report."""
    python_rate = {row["group"]: row["rate"] for row in rows if row["impl"] == "python"}
    header = ("group", "impl", "nodes", "best s", "M nodes/s", "core M/s", "x python")
    lines = []
    for row in sorted(rows, key=lambda r: (r["group"], r["impl"] != "fastpuzzle")):
        base = python_rate.get(row["group"])
        ratio = "" if row["impl"] == "python" or not base else f"{row['rate'] / base:.1f}"
        core = "" if row["core_rate"] is None else f"{row['core_rate'] / 1e6:.2f}"
        lines.append(
            (
                row["group"],
                row["impl"],
                f"{row['nodes']:,}",
                f"{row['seconds']:.5f}",
                f"{row['rate'] / 1e6:.2f}",
                core,
                ratio,
            )
        )
    widths = [max(len(cells[i]) for cells in [header, *lines]) for i in range(len(header))]

    def fmt(cells: tuple[str, ...]) -> str:
        pairs = enumerate(zip(cells, widths))
        return "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in pairs)

    return "\n".join([fmt(header), "  ".join("-" * w for w in widths), *map(fmt, lines)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", type=Path, help="file written by --benchmark-json")
    args = parser.parse_args(argv)
    data = json.loads(args.json.read_text())
    machine = data.get("machine_info", {})
    print(f"{machine.get('cpu', {}).get('brand_raw', 'unknown CPU')}, {data.get('datetime', '')}")
    print(table(rows_of(data)))


if __name__ == "__main__":
    main()
