"""``fastpuzzle pdb build|info|clear``: table sets by one name, planned before they are built.

A name is a table set's wherever it is given: a partition (``7-8``, ``6-6-6-6``), a compound
(``6-6-6-6x7``), ``auto`` (the default partition of ``--shape``), the heuristic that reads the
set (``pdb78``, ``pdb24``), or for ``info`` and ``clear`` also a file's partition name as
``pdb info`` lists it (``custom-<digest>``). A name that is none of these is answered with the
names it is closest to. ``build`` prints the set's plan (files, disk, memory and time on this
machine's cores) before building, and ``--dry-run`` prints only the plan.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import textwrap
from pathlib import Path
from typing import Any

from fastpuzzle import pdb
from fastpuzzle._solver import policy
from fastpuzzle._util.units import size
from fastpuzzle.cli.arguments import Parser, Subcommands, epilog, integer_arg, shape_option
from fastpuzzle.heuristics import CATALOGUE, lookup_heuristic
from fastpuzzle.pdb.database import PatternDatabaseError
from fastpuzzle.pdb.partitions import (
    COMPOUNDS,
    CUSTOM_NAME,
    NAMED_PARTITIONS,
    auto_partition,
    compound_groups,
    is_zero_aware,
    is_zero_compound,
)
from fastpuzzle.pdb.plan import Plan, build_plan, plan_tables

__all__ = ["add_pdb_parser", "resolve_set"]


class TableSetError(PatternDatabaseError):
    """A name that no table set has; the message names the closest ones."""


class _UsageError(ValueError):
    """Options that do not go together: one line on stderr, exit status 2."""


def _set_names() -> tuple[list[str], list[str]]:
    """The names of table sets: partitions, compounds and ``auto``; and the heuristics that
    read one (canonical names, then every alias)."""
    sets = [name for named in NAMED_PARTITIONS.values() for name in named]
    sets += [name for named in COMPOUNDS.values() for name in named]
    sets.append("auto")
    readers = [h for h in CATALOGUE if h.tables == "pdb"]
    heuristics = [h.name for h in readers] + [alias for h in readers for alias in h.aliases]
    return sets, heuristics


def _unknown(name: str, *, files: bool) -> TableSetError:
    sets, _ = _set_names()
    readers = [h.name for h in CATALOGUE if h.tables == "pdb"]
    # Only names the message lists (an alias such as pdb_6_6_3 is in no list).
    close = difflib.get_close_matches(name, sets + readers, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    also = "; or a file's name as pdb info lists it (custom-...)" if files else ""
    return TableSetError(
        f"unknown table set {name!r}; {hint}expected a partition or compound "
        f"({', '.join(sets)}) or the heuristic that reads it ({', '.join(readers)}){also}"
    )


def resolve_set(
    name: str, shape: tuple[int, int] | None, goal_blank: int | None, *, files: bool = False
) -> tuple[str, tuple[int, int] | None]:
    """``(partition or compound name, shape)`` of the table set ``name`` names (a partition,
    a compound, ``auto`` or a heuristic's name), with the shape it belongs to when it has one.

    Raises
    ------
    TableSetError
        If no table set has that name (the message names the closest), or a heuristic's set
        does not fit ``shape``.
    """
    if name in _set_names()[0]:
        return name, shape
    heuristic = lookup_heuristic(name)
    if heuristic is None or heuristic.tables != "pdb":
        raise _unknown(name, files=files)
    if heuristic.shapes is not None and shape is not None and shape not in heuristic.shapes:
        fits = ", ".join(f"{r}x{c}" for r, c in heuristic.shapes)
        raise TableSetError(
            f"heuristic {heuristic.name!r} reads tables of {fits} boards, not of "
            f"{shape[0]}x{shape[1]}"
        )
    if heuristic.compound is not None:
        return heuristic.compound, shape
    if heuristic.partition is not None:
        return heuristic.partition, shape
    # "pdb" (and its dual lookups): the table the solver's policy builds (or reads) on the shape.
    rows, cols = shape if shape is not None else (4, 4)
    blank = rows * cols - 1 if goal_blank is None else goal_blank
    tables = policy.tables_of((rows, cols), blank)
    chosen = tables.build if tables.build is not None else tables.read[0]
    return (chosen if isinstance(chosen, str) else "auto"), (rows, cols)


def _plan(args: argparse.Namespace, shape: tuple[int, int] | None) -> Plan:
    partition, shape = resolve_set(args.name, shape, args.goal_blank, files=args.action != "build")
    return plan_tables(
        partition, shape, args.goal_blank, args.cache_dir, name=args.name, force=args.force
    )


# ---------------------------------------------------------------------------------------------
# The subcommands.


def _build(args: argparse.Namespace) -> int:
    plan = _plan(args, shape_option(args))
    directory = pdb.pdb_cache_dir(args.cache_dir)
    print("\n".join(plan.lines(directory)), flush=True)
    if args.dry_run:
        return 0
    for path in build_plan(plan, args.cache_dir):
        print(path)
    return 0


def _info(args: argparse.Namespace) -> int:
    directory = pdb.pdb_cache_dir(args.cache_dir)
    print(f"cache directory: {directory}")
    entries = pdb.pdb_info(args.cache_dir)
    if args.name is not None:
        if CUSTOM_NAME.fullmatch(args.name):
            entries = [e for e in entries if e.get("partition") == args.name]
            if not entries:
                print(f"no file of {args.name} is in {directory}")
                return 0
        else:
            plan = _plan(args, shape_option(args))
            print("\n".join(plan.lines(directory, building=False)))
            paths = {str(file.path) for file in plan.files}
            entries = [e for e in entries if e["path"] in paths]
    for entry in entries:
        state = "ok" if entry["valid"] else f"INVALID ({entry.get('problem', '')})"
        if entry["valid"] and entry.get("format") != pdb.FORMAT_VERSION:
            # Read as it is, its slower checksum paid by every process that loads it.
            state = f"ok, format {entry.get('format')} (--force rebuilds it to load faster)"
        if entry.get("temporary"):
            state = f"TEMPORARY ({entry['problem']})"
        print(f"{entry['path']}  {size(entry['bytes'])}  {state}")
        if "partition" in entry:
            print(f"  {_table_use(entry)}")
    if args.name is None:
        print(_buildable(entries))
    return 0


def _clear(args: argparse.Namespace) -> int:
    """``pdb clear``: one table set's files, or with --all (or a yes at a terminal) every one."""
    if args.name is not None and args.all:
        raise _UsageError("pdb clear takes a NAME or --all, not both")
    shape = shape_option(args)
    if args.name is None and (shape is not None or args.goal_blank is not None):
        raise _UsageError("pdb clear: --shape and --goal-blank narrow a NAME; name one")
    options: dict[str, Any] = {"all": args.name is None}
    partition = None
    if args.name is not None:
        partition = args.name
        if not CUSTOM_NAME.fullmatch(args.name):
            partition, shape = resolve_set(args.name, shape, args.goal_blank, files=True)
        options.update(partition=partition, shape=shape, goal_blank=args.goal_blank)
    planned = pdb.clear_cache(args.cache_dir, dry_run=True, **options)
    where = pdb.pdb_cache_dir(args.cache_dir)
    if not planned:
        what = "table" if args.name is None else f"{args.name} table"
        if args.name == "auto" and shape is None:
            # "auto" is a table per shape: without --shape, 4x4's (a 2x8 one may be built).
            what = "auto table for 4x4 (the shape without --shape; give --shape R C for another)"
        print(f"no {what} is built in {where}; nothing removed")
        return 0
    # Sizes are taken before anything is removed (after, every file measured 0 bytes).
    sizes = {path: _file_bytes(path) for path in planned}
    lines = {path: _cache_line(path, sizes[path], partition) for path in planned}
    total = f"{len(planned)} file(s), {size(sum(sizes.values()))}"
    if args.dry_run:
        print("\n".join(f"would remove {lines[path]}" for path in planned))
        print(f"would remove {total}")
        return 0
    if args.name is None and not args.all:
        if not (sys.stdin is not None and sys.stdin.isatty()):
            raise _UsageError(
                f"pdb clear removes the table set you name (e.g. `fastpuzzle pdb clear 6-6-3`); "
                f"give --all to remove every table in {where} ({total}), --dry-run to list them"
            )
        print("\n".join(lines[path] for path in planned))
        try:
            answer = input(f"remove these {total} from {where}? [y/N] ")
        except EOFError:  # Ctrl-D
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing removed")
            return 0
    removed = pdb.clear_cache(args.cache_dir, **options)
    for path in removed:
        print(f"removed {lines.get(path) or _cache_line(path, 0, partition)}")
    freed = sum(sizes.get(path, 0) for path in removed)
    print(f"removed {len(removed)} file(s), {size(freed)}")
    return 0


def _file_bytes(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def _cache_line(path: Path, count: int, partition: object) -> str:
    """A file ``pdb clear`` lists: its path and size, and what it is when it is not the named
    set's own table."""
    shown = size(count)
    if path.name.startswith("."):
        return f"{path} ({shown}; left by a build that stopped)"
    if path.name.startswith("fsm-"):
        return f"{path} ({shown}; IDA*'s duplicate-pruning machine, rebuilt when next needed)"
    if isinstance(partition, str):
        if any(partition in named for named in COMPOUNDS.values()):
            return f"{path} ({shown}; a table of compound {partition})"
        if "-custom-" in path.name and partition != "auto" and not partition.startswith("custom-"):
            return f"{path} ({shown}; a dual-lookup table of {partition})"
    return f"{path} ({shown})"


def _table_use(entry: dict[str, Any]) -> str:
    """What the table of ``pdb info``'s ``entry`` is for, in words: its partition, its boards,
    and the heuristic that reads it."""
    name, (rows, cols), blank = entry["partition"], entry["shape"], entry["goal_blank"]
    boards = f"{rows}x{cols} boards whose goal has the blank on cell {blank}"
    readers = [h.name for h in CATALOGUE if h.partition == name and h.fits((rows, cols))]
    if readers:
        return f"{name} for {boards}: heuristic {' or '.join(map(repr, readers))}"
    if not name.startswith("custom-"):  # 7-8b: no heuristic of its own
        return f"{name} for {boards}: solve() reads it beside 7-8 on long searches"
    groups = tuple(tuple(group) for group in entry["groups"])
    cells = " | ".join(" ".join(map(str, group)) for group in groups)
    if groups == auto_partition((rows, cols), blank):
        return (
            f"{name}: heuristic 'pdb' (the default partition) for {boards}; groups of goal "
            f"cells {cells}"
        )
    for compound_name in COMPOUNDS.get((rows, cols), {}):
        if is_zero_compound(compound_name) != is_zero_aware(name):
            continue  # the other compound of the same groups
        members = compound_groups(compound_name, (rows, cols), blank)
        if len(groups) == 1 and tuple(sorted(groups[0])) in {g for p in members for g in p}:
            reader = next((h.name for h in CATALOGUE if h.compound == compound_name), None)
            return (
                f"{name}: a table of compound {compound_name} (heuristic {reader!r}) for "
                f"{boards}; goal cells {cells}"
            )
    return f"{name}: a partition given to build_pdb, for {boards}; groups of goal cells {cells}"


def _buildable(entries: list[dict[str, Any]]) -> str:
    """The line of ``pdb info`` on what can be built, the named sets not built yet first."""
    built = {(entry["partition"], tuple(entry["shape"])) for entry in entries if entry.get("valid")}
    missing = [
        f"{name} ({rows}x{cols})"
        for (rows, cols), named in NAMED_PARTITIONS.items()
        for name in named
        if (name, (rows, cols)) not in built
    ]
    lead = f"not built yet: {', '.join(missing)}; " if missing else ""
    return (
        f"{lead}fastpuzzle pdb build NAME builds a table set (a partition, a compound such as "
        "6-6-6-6x7, or the heuristic that reads it, such as pdb78 or pdb24; --goal-blank N for "
        "goals with the blank elsewhere; --dry-run: only its plan), pdb build auto --shape "
        "ROWS COLS the table of a shape of up to 64 cells (heuristic 'pdb' reads up to 25; 6x6: "
        "5-5-5-5-5-5-5, read by solve(optimal=False) under a limit), and pdb info "
        "NAME its files"
    )


# ---------------------------------------------------------------------------------------------
# The parser.

_NAME_HELP = (
    "a table set: a partition (4x4: 5-5-5, 6-6-3, 7-8, 7-8b; 5x5: 6-6-6-6, 6-6-6-6z), a "
    "compound (5x5: 6-6-6-6x7, 6-6-6-6x7z), auto (the default partition of --shape), or the "
    "heuristic that reads it (pdb555, pdb663, pdb78, pdb6666, pdb6666z, pdb24, pdb24z, pdb)"
)


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=96)


def add_pdb_parser(sub: Subcommands) -> None:
    """Add ``pdb`` and its subcommands ``build``, ``info`` and ``clear`` (each with its own
    ``--help``) to the subparsers ``sub``."""
    tables = sub.add_parser(
        "pdb",
        help="pattern databases: build, info, clear",
        description=_wrapped(
            "Pattern databases (the tables of the pdb heuristics), by table set: build "
            "one (its plan first), list those built, remove one."
        ),
        epilog=epilog("pdb"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = tables.add_subparsers(
        dest="action",
        required=True,
        metavar="{build,info,clear}",
        parser_class=Parser,
        help="what to do (each has its own --help)",
    )

    def common(cmd: argparse.ArgumentParser) -> None:
        cmd.add_argument(
            "--shape",
            nargs=2,
            type=integer_arg,
            metavar=("ROWS", "COLS"),
            help="up to 64 cells (default: the set's shape, else 4x4)",
        )
        cmd.add_argument(
            "--goal-blank", type=integer_arg, help="goal blank cell (default: the last)"
        )
        cmd.add_argument(
            "--cache-dir",
            help="default: $FASTPUZZLE_CACHE, else the user's cache directory "
            "(~/.cache/fastpuzzle on Linux)",
        )
        cmd.set_defaults(run=_run)

    build = actions.add_parser(
        "build",
        help="build a table set (its plan first)",
        description=_wrapped(
            "Build a table set into the cache. Its plan comes first: its files, the "
            "disk, memory and time the build takes (estimated for this machine's cores from builds "
            "measured on two), and the free space there; the free space is checked once for the "
            "whole set before any file is built."
        ),
        epilog=epilog("pdb"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    build.add_argument(
        "name", metavar="NAME", nargs="?", default="6-6-3", help=_NAME_HELP + " (default: 6-6-3)"
    )
    common(build)
    build.add_argument("--force", action="store_true", help="rebuild the files already built")
    build.add_argument("--dry-run", action="store_true", help="print the plan, build nothing")
    build.set_defaults(all=False)

    info = actions.add_parser(
        "info",
        help="list the tables built (with NAME: that set's files and plan)",
        description=_wrapped(
            "List the files of the cache, what each is for, and whether it passes its "
            "checks; with NAME, only that table set's (its plan too) or that file name's."
        ),
        epilog=epilog("pdb"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    info.add_argument(
        "name", metavar="NAME", nargs="?", help=_NAME_HELP + "; or a name pdb info lists"
    )
    common(info)
    info.set_defaults(force=False, dry_run=False, all=False)

    clear = actions.add_parser(
        "clear",
        help="remove a table set's files (every table with --all)",
        description=_wrapped(
            "Remove a table set's files: for a partition, its file for every goal blank "
            "(or --goal-blank's) and its dual lookups' tables; for a compound, its own one-group "
            "files (its base partition's file stays); a name pdb info lists removes the files of "
            "that name. Without NAME, --all removes every table (a terminal is asked first)."
        ),
        epilog=epilog("pdb"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    clear.add_argument(
        "name", metavar="NAME", nargs="?", help=_NAME_HELP + "; or a name pdb info lists"
    )
    common(clear)
    clear.add_argument(
        "--all",
        action="store_true",
        help="remove every table in the cache (without it, a bare clear asks at a terminal "
        "and refuses elsewhere)",
    )
    clear.add_argument(
        "--dry-run", action="store_true", help="list what would be removed, remove nothing"
    )
    clear.set_defaults(force=False)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.action == "build":
            return _build(args)
        if args.action == "info":
            return _info(args)
        return _clear(args)
    except argparse.ArgumentTypeError as error:
        raise ValueError(str(error)) from None
