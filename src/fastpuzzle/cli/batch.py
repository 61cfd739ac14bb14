"""``fastpuzzle batch``: a file of boards solved on every core, one row per board."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

import numpy as np

from fastpuzzle._util.files import atomic_writer, unwritable_file
from fastpuzzle._util.optional import require
from fastpuzzle._util.progress import on_terminal
from fastpuzzle.batch import BatchInterrupted, solve_many
from fastpuzzle.batch.export import arrow_table
from fastpuzzle.batch.store import batch_lock, foreign_entries, join_chunks, remove_batch_files
from fastpuzzle.board import Board
from fastpuzzle.cli.arguments import (
    INPUT_RULES,
    Subcommands,
    UsageError,
    add_anytime,
    add_reading_options,
    anytime_options,
    epilog,
    limits_option,
    shape_option,
    whole_arg,
)
from fastpuzzle.cli.boards import file_text, read_boards, report_bad_lines, stdin_text
from fastpuzzle.errors import (
    InvalidBoardError,
)
from fastpuzzle.formats import FORMATS, read_packed
from fastpuzzle.limits import Limits

__all__ = ["BATCH_FORMATS", "add_batch_parser"]

#: Output formats of ``fastpuzzle batch --out``, by file name ending.
BATCH_FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}


def _batch_input(args: argparse.Namespace) -> tuple[Any, tuple[int, int] | None]:
    """The boards of the batch's input and their shape (None: several): packed words where
    every board is a line of one shape of at most 16 cells (read by compiled code), else
    Boards."""
    args.bad_lines = 0
    text = stdin_text("batch input '-'") if args.input == "-" else file_text(args.input)
    bad: list[tuple[int, str]] = []
    packed = read_packed(text, shape=shape_option(args), fmt=args.format, bad_lines=bad)
    if packed is not None:
        report_bad_lines(bad, args)
        return packed.words, packed.shape
    jobs = read_boards(text, args)
    if any(job.goal is not None for job in jobs):
        raise UsageError("batch solves boards towards one goal: give it with --goal")
    boards = [job.board for job in jobs]
    shapes = {board.shape for board in boards}
    shape = next(iter(shapes)) if len(shapes) == 1 else None
    if shape is not None and shape[0] * shape[1] <= 16:
        # One shape of up to 16 cells: packed words take the batch's fast path.
        return np.array([board.packed for board in boards], dtype=np.uint64), shape
    return boards, shape


def _batch_out_format(path: str) -> str:
    for ending, fmt in BATCH_FORMATS.items():
        if path.lower().endswith(ending):
            return fmt
    raise UsageError(f"--out must end in {', '.join(BATCH_FORMATS)}, got {path!r}")


def _write_batch(result: Any, path: str | None, fmt: str, chunks: str | None) -> None:
    """The batch's rows to ``path`` (stdout when None) as ``fmt``; CSV and JSON lines are the
    chunk files in ``chunks`` joined, which hold those very rows."""
    if path is None:
        sys.stdout.write(result.to_csv())
    elif fmt in ("csv", "jsonl"):
        assert chunks is not None
        join_chunks(chunks, path)
    else:
        pa = require("pyarrow", "batch --out *.parquet", "parquet")
        parquet = require("pyarrow.parquet", "batch --out *.parquet", "parquet")
        table = arrow_table(result, pa)
        with atomic_writer(path) as stream:
            parquet.write_table(table, stream)


def _out_file(path: str) -> None:
    """Refuse, before solving, an ``--out`` that no file can be written to: a directory, or a
    path in a directory that does not exist (which the chunk folder would have created)."""
    problem = unwritable_file(path)
    if problem is not None:
        raise UsageError(f"--out: {problem}")


def _chunks_folder(path: str) -> None:
    """Refuse a ``--out``'s chunk folder that is not a batch's: a link (its target would get
    the chunks), something else than a directory, or a directory holding other files (the
    folder goes when the batch is done)."""
    why = "the batch keeps its chunks there and removes them when it is done"
    if os.path.islink(path):
        raise UsageError(
            f"{path} is a symbolic link; {why}: remove the link or choose another --out"
        )
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UsageError(f"{path} is not a directory; {why}: remove it or choose another --out")
    foreign = foreign_entries(path)
    if foreign:
        named = ", ".join(repr(name) for name in foreign[:3]) + (", ..." if foreign[3:] else "")
        raise UsageError(
            f"{path} holds files that are not a batch's ({named}); {why}: move them or choose "
            "another --out"
        )


def _cmd_batch(args: argparse.Namespace) -> int:
    anytime_options(args)
    out_format = "csv" if args.out is None else _batch_out_format(args.out)
    if args.resume and args.out is None:
        raise UsageError("--resume needs --out: the finished chunks are kept beside that file")
    boards, shape = _batch_input(args)
    goal = None
    if args.goal is not None:  # an empty --goal '' is refused, not taken for the default goal
        try:
            # The first board's shape, where the boards have several (each row is then checked).
            first = shape if shape is not None or not len(boards) else boards[0].shape
            goal = Board(args.goal, shape=first)
        except InvalidBoardError as error:
            raise UsageError(f"--goal: {error}") from None
    limits = limits_option(args)
    # With --out, chunks are kept in OUT.chunks/ as they finish, so an interrupted batch can go
    # on with --resume; the folder goes once the output file is written. Its lock is held until
    # then, so that a second batch on the same --out is refused at once, not left solving
    # beside this one to find the folder removed under it.
    chunks = None if args.out is None else f"{args.out}.chunks"
    if chunks is not None:
        _out_file(args.out)
        _chunks_folder(chunks)
    with contextlib.nullcontext() if chunks is None else batch_lock(chunks):
        result = _solve_batch(args, boards, shape, goal, limits, chunks, out_format)
        _write_batch(result, args.out, out_format, chunks)
        if chunks is not None:
            # Only what the batch wrote: the folder goes if nothing else was put there since.
            remove_batch_files(chunks)
    solved = int(result.solved.sum())
    if args.out is not None:
        print(f"{solved:,} of {len(result):,} boards solved; rows in {args.out}", file=sys.stderr)
    if args.bad_lines:
        return 2
    return 0 if solved == len(result) else 1


def _solve_batch(
    args: argparse.Namespace,
    boards: Any,
    shape: tuple[int, int] | None,
    goal: Board | None,
    limits: Limits | None,
    chunks: str | None,
    out_format: str,
) -> Any:
    """``solve_many`` of ``boards`` (packed words of ``shape``, or Boards), with the command's
    options; the chunk files in ``chunks`` are written as ``out_format`` (CSV for Parquet).

    On Ctrl-C the rows finished are kept: in ``chunks`` for ``--resume``, or without ``--out``
    written to standard output (the others marked ``interrupted``); the interrupt goes on to
    :func:`~fastpuzzle.cli.command.main` with a note of what was kept."""
    try:
        return solve_many(
            boards,
            goal,
            shape=shape,
            limits=limits,
            workers=args.workers,
            progress=args.progress or (args.progress is None and on_terminal()),
            out=chunks,
            out_format="jsonl" if out_format == "jsonl" else "csv",
            resume=args.resume,
            # The counts (and Parquet's rows) come from memory, not read back from the chunks.
            keep_rows=True,
            optimal=not args.fast,
        )
    except FileExistsError:
        raise UsageError(
            f"{chunks} holds the chunks of an earlier batch: add --resume to go on with it, or "
            "remove it"
        ) from None
    except BatchInterrupted as stop:
        kept = f"{stop.finished:,} of {len(stop.result):,} boards"
        if chunks is not None:
            note = (
                f"{kept} were solved and kept in {chunks}/; run the same command with --resume "
                "to go on from them"
            )
        else:
            sys.stdout.write(stop.result.to_csv())
            note = (
                f"{kept} were solved (the rows above; the others are marked interrupted); "
                "give --out FILE to keep finished chunks and go on with --resume"
            )
        setattr(stop, "cli_note", note)  # noqa: B010 (read by main, whatever the exception)
        raise


def add_batch_parser(sub: Subcommands) -> None:
    """The ``batch`` subcommand."""
    batch = sub.add_parser(
        "batch",
        help="solve a file of boards on every core, one row per board",
        epilog=epilog("batch", INPUT_RULES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    batch.add_argument("input", help="a file of boards, or - for standard input")
    batch.add_argument(
        "--out",
        help=f"write the rows here ({', '.join(BATCH_FORMATS)}); default: CSV on stdout. Rows "
        "carry the board, its length and lower bound, status, node counts, seconds, moves and "
        "message",
    )
    batch.add_argument(
        "--resume",
        action="store_true",
        help="go on with an interrupted batch of the same boards into the same --out",
    )
    batch.add_argument(
        "--workers", type=whole_arg(1), default=None, help="threads (default: every core)"
    )
    add_anytime(
        batch,
        "fast answers, not guaranteed shortest (any size up to 100x100); with --time-limit or "
        "--node-limit, past 16 cells, shorter ones until each board's limit runs out",
    )
    batch.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="one progress bar on stderr (default: when stderr is a terminal)",
    )
    add_reading_options(
        batch,
        formats=[f for f in FORMATS if f != "pair"],
        format_help="input layout (see below); pair is not allowed: give one --goal",
    )
    batch.set_defaults(run=_cmd_batch)
