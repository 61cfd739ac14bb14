"""Pattern databases: values never above BFS distances, and a cache that trusts nothing.

Everything builds into temporary cache directories, on boards small enough to take milliseconds.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle import pdb
from fastpuzzle._core import _board, _heuristics, _idastar
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._core._patterns import LoadedPatterns
from fastpuzzle._core._result import CoreResult
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import idastar, pruning, two_phase
from fastpuzzle._solver.prepared import Prepared, deadline_from_now
from fastpuzzle._solver.request import Request
from fastpuzzle.limits import Limits
from fastpuzzle.pdb import partitions
from tests.oracle import distances_from
from tests.pdbcache import threaded
from tests.xxh64_reference import xxh64

SOLVED = 0

# 2x4 with the goal blank in the last cell: two groups of goal cells.
SHAPE = (2, 4)
PARTITION = ((0, 1, 4), (2, 3, 5, 6))


def _h(
    database: pdb.Database, tiles: tuple[int, ...], rows: int, cols: int, goal_blank: int
) -> int:
    core = _idastar.idastar(
        int(_board.pack(tiles)),
        tiles.index(0),
        rows,
        cols,
        goal_blank,
        HeuristicCode.H_PDB,
        max_depth=0,
        tables=database,
    )
    return 0 if core.status == SOLVED else int(core.depth)


def _manhattan(tiles: tuple[int, ...], rows: int, cols: int, goal_blank: int) -> int:
    return int(
        _heuristics.evaluate(HeuristicCode.H_MANHATTAN, _board.pack(tiles), rows, cols, goal_blank)
    )


@pytest.mark.heavy
@pytest.mark.parametrize(
    ("shape", "partition", "goal_blank"),
    [
        ((2, 4), ((0, 1, 4), (2, 3, 5, 6)), 7),
        ((2, 4), ((0, 1, 2, 3), (5, 6, 7)), 4),
        ((3, 3), ((0, 1, 3, 4), (2, 5, 6, 7)), 8),  # reflected lookups too
        ((3, 3), ((0, 1, 2), (3, 5), (6, 7, 8)), 4),  # blank in the centre, reflected
        ((3, 3), ((1, 2, 3, 4, 5, 6, 7, 8),), 0),  # one group: the exact distance
    ],
)
def test_values_never_above_bfs_distance(
    tmp_path: Path,
    shape: tuple[int, int],
    partition: tuple[tuple[int, ...], ...],
    goal_blank: int,
) -> None:
    rows, cols = shape
    pdb.build_pdb(partition, shape, goal_blank, tmp_path, progress=False)
    database = pdb.load_pdb(partition, shape, goal_blank, tmp_path)
    assert database is not None
    assert (database.reflect is not None) == (rows == cols and goal_blank in (0, 4, 8))
    # The canonical goal: tiles 1..n-1 in reading order around the blank.
    goal = [0] * (rows * cols)
    for cell in range(rows * cols):
        if cell != goal_blank:
            goal[cell] = cell + 1 if cell < goal_blank else cell
    distances = distances_from(tuple(goal), rows, cols)
    exact = len(partition) == 1
    above_manhattan = 0
    for tiles, distance in distances.items():
        h = _h(database, tiles, rows, cols, goal_blank)
        if exact:
            assert h == distance, tiles
        else:
            assert h <= distance, tiles
        md = _manhattan(tiles, rows, cols, goal_blank)
        assert h >= md
        above_manhattan += h > md
    assert above_manhattan > 0


def test_cache_dir_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FASTPUZZLE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pdb.pdb_cache_dir() == tmp_path / "xdg" / "fastpuzzle"
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path / "env"))
    assert pdb.pdb_cache_dir() == tmp_path / "env"
    assert pdb.pdb_cache_dir(tmp_path / "arg") == tmp_path / "arg"
    path = pdb.build_pdb(PARTITION, SHAPE, progress=False)
    assert path.parent == tmp_path / "env"


def _fresh(tmp_path: Path) -> Path:
    path = pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is not None
    return path


def _payload_offset(path: Path) -> int:
    raw = path.read_bytes()
    length = int.from_bytes(raw[8:12], "little")
    return int(json.loads(raw[12 : 12 + length])["payload_offset"])


def _rebuilds(tmp_path: Path, path: Path) -> None:
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is None
    pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is not None


def test_truncated_file_is_rejected_and_rebuilt(tmp_path: Path) -> None:
    path = _fresh(tmp_path)
    data = path.read_bytes()
    for keep in (0, 5, 40, _payload_offset(path), len(data) - 1):
        path.write_bytes(data[:keep])
        _rebuilds(tmp_path, path)
        assert path.read_bytes() == data


def test_flipped_byte_is_rejected(tmp_path: Path) -> None:
    path = _fresh(tmp_path)
    data = bytearray(path.read_bytes())
    for where in (_payload_offset(path), len(data) - 1, 10, 20):
        broken = bytearray(data)
        broken[where] ^= 0x10
        path.write_bytes(bytes(broken))
        _rebuilds(tmp_path, path)


def _header(path: Path) -> tuple[dict[str, object], bytes]:
    raw = path.read_bytes()
    length = int.from_bytes(raw[8:12], "little")
    header = json.loads(raw[12 : 12 + length])
    return header, raw[int(header["payload_offset"]) :]


def _rewrite_header_in_place(path: Path, change: dict[str, object]) -> None:
    # The tables stay where the header says they are: the header padded with spaces (JSON's
    # whitespace) up to them.
    header, payload = _header(path)
    header.update(change)
    room = int(header["payload_offset"]) - 12
    encoded = json.dumps(header).encode()
    assert len(encoded) <= room
    raw = path.read_bytes()
    path.write_bytes(raw[:8] + room.to_bytes(4, "little") + encoded.ljust(room) + payload)


def test_files_are_written_as_version_2_with_an_xxh64_checksum(tmp_path: Path) -> None:
    # Version 1 took BLAKE2b, 0.28 s of CPU for 5x5's 255 MB in every process that reads it.
    path = _fresh(tmp_path)
    header, payload = _header(path)
    assert header["version"] == pdb.FORMAT_VERSION == 2
    assert header["checksum"] == f"{xxh64(payload):016x}"
    assert path.name.startswith(f"pdb-v{pdb.NAME_VERSION}-")


def test_a_version_1_file_is_still_read_and_checked_with_blake2b(tmp_path: Path) -> None:
    # A table built before version 2 (6-6-6-6: minutes) is read as it is, not built again.
    path = _fresh(tmp_path)
    header, payload = _header(path)
    blake = hashlib.blake2b(payload, digest_size=16).hexdigest()
    _rewrite_header_in_place(path, {"version": 1, "checksum": blake})
    written = path.read_bytes()
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is not None
    assert path.read_bytes() == written
    # Its checksum is BLAKE2b's: a version 1 header with version 2's checksum is refused,
    # and so is a version 1 file whose tables changed.
    _rewrite_header_in_place(path, {"version": 1, "checksum": header["checksum"]})
    _rebuilds(tmp_path, path)
    _rewrite_header_in_place(path, {"version": 1, "checksum": blake})
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is not None
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x10
    path.write_bytes(bytes(data))
    _rebuilds(tmp_path, path)


def test_a_version_of_true_is_refused_even_with_version_1s_checksum(tmp_path: Path) -> None:
    # JSON's true equals 1 in Python: with version 1's own checksum, only the version's type
    # tells such a header apart from a version 1 file's.
    path = _fresh(tmp_path)
    _, payload = _header(path)
    blake = hashlib.blake2b(payload, digest_size=16).hexdigest()
    _rewrite_header_in_place(path, {"version": True, "checksum": blake})
    _rebuilds(tmp_path, path)


def test_a_damaged_file_is_read_once_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastpuzzle.pdb import store

    path = _fresh(tmp_path)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x10
    path.write_bytes(bytes(data))
    reads: list[Path] = []
    read_valid = store.read_valid

    def counted(file: Path, *args: object, **kwargs: object) -> object:
        reads.append(file)
        return read_valid(file, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "read_valid", counted)
    for _ in range(3):
        assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is None
    assert len(reads) == 1
    # Rebuilt (a new file in its place), it is read and used again.
    pdb.build_pdb(PARTITION, SHAPE, cache_dir=tmp_path, progress=False)
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is not None
    assert len(reads) == 2


def _rewrite_header(path: Path, change: dict[str, object]) -> None:
    raw = path.read_bytes()
    length = int.from_bytes(raw[8:12], "little")
    header = json.loads(raw[12 : 12 + length])
    header.update(change)
    encoded = json.dumps(header).encode()
    payload = raw[header["payload_offset"] if "payload_offset" not in change else 12 + length :]
    head = raw[:8] + len(encoded).to_bytes(4, "little") + encoded
    path.write_bytes(head + payload)


@pytest.mark.parametrize(
    "change",
    [
        {"version": 999},
        {"version": 0},
        {"version": True},
        {"goal_blank": 3},
        {"rows": 4, "cols": 2},
        {"cells": [[0, 1], [2, 3, 4, 5, 6]]},
        {"payload_offset": 1 << 40},
        {"file_length": 1 << 40},
        {
            "groups": [
                {"tiles": [1, 2, 5], "sparse": True, "nibble": True, "offset": 0, "length": 8}
            ]
        },
        {"checksum": "0" * 32},
    ],
    ids=lambda c: next(iter(c)),
)
def test_wrong_header_is_rejected(tmp_path: Path, change: dict[str, object]) -> None:
    path = _fresh(tmp_path)
    _rewrite_header(path, change)
    _rebuilds(tmp_path, path)


def test_huge_or_garbage_header_is_rejected(tmp_path: Path) -> None:
    path = _fresh(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:8] + (1 << 31).to_bytes(4, "little") + data[12:])
    _rebuilds(tmp_path, path)
    path.write_bytes(data[:12] + b"\xff\xfe not json" + data[25:])
    _rebuilds(tmp_path, path)
    path.write_bytes(os.urandom(len(data)))
    _rebuilds(tmp_path, path)


def test_foreign_file_is_rejected(tmp_path: Path) -> None:
    other = pdb.build_pdb(((0, 1), (2, 3, 4, 5, 6)), SHAPE, cache_dir=tmp_path, progress=False)
    path = pdb.pdb_path(PARTITION, SHAPE, cache_dir=tmp_path)
    path.write_bytes(other.read_bytes())
    _rebuilds(tmp_path, path)


def test_loaded_tables_are_read_only_private_copies(tmp_path: Path) -> None:
    # Not memory maps: a file truncated under a map kills the process with SIGBUS on the next
    # read (tests/api/test_pdb_faults.py), so the tables are read into this process's memory.
    _fresh(tmp_path)
    database = pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path)
    assert database is not None
    for _, _, _, table in database.groups:
        assert not isinstance(table, np.memmap)
        assert not table.flags.writeable
        assert table.ctypes.data % 64 == 0  # the file's alignment is kept
    # Loading again in this process reuses the same copy.
    assert pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path) is database


def _build_in_child(cache_dir: str) -> None:
    pdb.build_pdb("5-5-5", (4, 4), cache_dir=cache_dir, progress=False, force=True)


def test_concurrent_builders_end_with_one_good_file(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_build_in_child, args=(str(tmp_path),)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [pdb.pdb_path("5-5-5", (4, 4), cache_dir=tmp_path).name]
    assert pdb.load_pdb("5-5-5", (4, 4), cache_dir=tmp_path) is not None


def test_info_and_clear(tmp_path: Path) -> None:
    path = _fresh(tmp_path)
    (tmp_path / "pdb-v1-junk.fpdb").write_bytes(b"junk")
    info = {Path(entry["path"]).name: entry for entry in pdb.pdb_info(tmp_path)}
    assert info[path.name]["valid"] is True
    assert info["pdb-v1-junk.fpdb"]["valid"] is False
    assert len(pdb.clear_cache(tmp_path, all=True)) == 2
    assert pdb.pdb_info(tmp_path) == []


def test_bad_partitions_are_refused(tmp_path: Path) -> None:
    for partition in (((0, 1), (1, 2)), ((0, 7),), ((),), "6-6-3"):
        with pytest.raises(pdb.PatternDatabaseError):
            pdb.build_pdb(partition, SHAPE, cache_dir=tmp_path, progress=False)


def test_named_partitions_follow_the_goal_blank() -> None:
    resolved = partitions.resolve("6-6-3", (4, 4), 0)
    name, cells = resolved.name, resolved.groups
    assert name == "6-6-3"
    flat = sorted(c for group in cells for c in group)
    assert flat == list(range(1, 16))
    assert [len(group) for group in cells] == [6, 6, 3]


def test_cli_pdb_build_info_clear(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from fastpuzzle.cli import main

    assert main(["pdb", "build", "5-5-5", "--cache-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "5-5-5" in out and "building pattern database 5-5-5" in err
    assert main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["pdb", "clear", "5-5-5", "--cache-dir", str(tmp_path)]) == 0
    assert "removed 1" in capsys.readouterr().out


def test_first_use_build_reports_to_the_library_logger(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Before (issue 47, item 2): a table built on first use wrote its lines on stderr, where a
    # notebook or a service could neither silence nor route them. They are records of the
    # "fastpuzzle" logger now (INFO: the start, each group, the end), and stderr stays empty.
    import logging

    import fastpuzzle as fp

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    board = fp.random_board((3, 4), rng=4)
    with caplog.at_level(logging.INFO, logger="fastpuzzle"):
        first = fp.solve(board, heuristic="pdb")
    assert capsys.readouterr().err == ""
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("fastpuzzle.")]
    assert messages[0].startswith("building pattern database custom-")
    assert messages[-1].endswith(" s") and " ready in " in messages[-1]
    assert all(r.levelno == logging.INFO for r in caplog.records if r.name.startswith("fastpuzzle"))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="fastpuzzle"):
        second = fp.solve(board, heuristic="pdb")
    assert capsys.readouterr().err == "" and caplog.records == []
    assert len(first) == len(second) and first.verify()


def test_the_command_line_shows_the_library_log_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command is the program: it shows the library's INFO records as its own lines, and
    # leaves the logger as it found it.
    import logging

    from fastpuzzle.cli import main

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    logger = logging.getLogger("fastpuzzle")
    handlers, level = list(logger.handlers), logger.level
    argv = ["solve", "--algorithm", "idastar", "--heuristic", "pdb", "8 6 7/2 5 4/3 _ 1"]
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("fastpuzzle: building pattern database custom-")
    assert " ready in " in err[-1]
    assert logger.handlers == handlers and logger.level == level


def test_threads_share_one_mapping(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    _fresh(tmp_path)
    with ThreadPoolExecutor(4) as pool:
        loaded = list(
            pool.map(lambda _: pdb.load_pdb(PARTITION, SHAPE, cache_dir=tmp_path), range(16))
        )
    assert all(database is loaded[0] for database in loaded)


def test_threads_needing_a_missing_table_build_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from fastpuzzle.pdb import store

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    built: list[str] = []
    original = store.build_file

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append("x")
        return original(*args, **kwargs)

    # The build on first use calls build_file of the module that owns the cache.
    monkeypatch.setattr(store, "build_file", counting)
    partition = pdb.default_partition((2, 5), 9)
    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(lambda _: pdb.database_for(partition, (2, 5), 9), range(8)))
    assert len(built) == 1
    assert all(database is found[0] for database in found)


@pytest.mark.parametrize("sparse", [True, False])
def test_entries_over_four_bits_fall_back_to_bytes(sparse: bool) -> None:
    from fastpuzzle._core import _pdb

    tiles = [1, 2, 5]
    levels = _pdb.build_levels(2, 4, 7, tiles, sparse)
    small, nibble = _pdb.pack_table(levels, 2, 4, 7, tiles, sparse)
    assert nibble
    raised = levels.copy()
    raised[raised != 255] += 40  # keeps parity: every extra grows by 20, past 4 bits
    large, nibble = _pdb.pack_table(raised, 2, 4, 7, tiles, sparse)
    assert not nibble
    assert large.nbytes == _pdb.table_length(8, 3, sparse, False)
    unpacked = np.stack([small & 15, small >> 4], axis=1).reshape(-1)[: large.shape[0]]
    valid = large != 0
    assert np.array_equal(large[valid], unpacked[valid] + 20)
    # The search reads byte tables the same way: every value 2 * 20 higher.
    rows, cols = 2, 4
    goal = (1, 2, 3, 4, 5, 6, 7, 0)
    for board in list(distances_from(goal, rows, cols))[1:200]:
        values = []
        for table, small_entries in ((small, True), (large, False)):
            core = _idastar.idastar(
                int(_board.pack(board)),
                board.index(0),
                rows,
                cols,
                7,
                HeuristicCode.H_PDB,
                max_depth=0,
                tables=SimpleNamespace(
                    groups=[(tuple(tiles), sparse, small_entries, table)], reflect=None
                ),
            )
            values.append(core.depth)
        assert values[1] == values[0] + 40


def test_laid_out_tables_search_like_the_database(tmp_path: Path) -> None:
    # Database.loaded() is made once and kept; every search then copies it instead of reading
    # the Python objects again. It must give the same value on every board as the database
    # itself, refuse a board it was not laid out for, and stay out of pickles.
    import pickle

    shape, partition, goal_blank = (3, 3), ((0, 1, 3, 4), (2, 5, 6, 7)), 8
    pdb.build_pdb(partition, shape, goal_blank, tmp_path, progress=False)
    database = pdb.load_pdb(partition, shape, goal_blank, tmp_path)
    assert database is not None
    loaded = database.loaded()
    assert database.loaded() is loaded
    assert (loaded.n_groups, loaded.mirror) == (2, True)
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    for tiles in list(distances_from(goal, 3, 3))[::97]:
        assert _h(loaded, tiles, 3, 3, 8) == _h(database, tiles, 3, 3, 8), tiles  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="goal blank 8"):
        _h(loaded, (1, 2, 3, 4, 0, 5, 6, 7, 8), 3, 3, 4)  # type: ignore[arg-type]
    copy = pickle.loads(pickle.dumps(database))
    assert "_loaded" not in vars(copy)
    board = (4, 1, 3, 7, 2, 6, 0, 5, 8)
    assert _h(copy.loaded(), board, 3, 3, 8) == _h(database, board, 3, 3, 8)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pickle the Database"):
        pickle.dumps(loaded)


def _ida_counts(
    start: tuple[int, ...], h: Callable[[tuple[int, ...]], int], rows: int, cols: int
) -> tuple[int, int]:
    """Nodes a plain IDA* expands and generates before it reaches the goal (h == 0 there), over
    every iteration: the kernel's definitions, with children in its order (the blank moves D,
    R, L, U, never straight back)."""
    steps = (cols, 1, -1, -cols)
    expanded = generated = 0

    def search(tiles: tuple[int, ...], g: int, bound: int, previous: int) -> int | None:
        # None: found; else the least f over the bound below this node
        nonlocal expanded, generated
        value = h(tiles)
        if g + value > bound:
            return g + value
        if value == 0:
            return None
        expanded += 1
        blank, least = tiles.index(0), 1 << 30
        row = blank // cols
        for step in steps:
            cell = blank + step
            if cell == previous or not (0 <= cell < rows * cols):
                continue
            if abs(step) == 1 and cell // cols != row:
                continue
            child = list(tiles)
            child[blank], child[cell] = child[cell], 0
            generated += 1
            found = search(tuple(child), g + 1, bound, blank)
            if found is None:
                return None
            least = min(least, found)
        return least

    bound = h(start)
    while (bound := search(start, 0, bound, -1)) is not None:  # type: ignore[assignment]
        pass
    return expanded, generated


@pytest.mark.parametrize("workers", [1, 2])
def test_two_partitions_take_the_larger_sum_and_stay_optimal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    # The kernel's pair of databases (solve() on 4x4 with 7-8 and 7-8b) on 3x3 partitions: h
    # is the larger of the two, never above the BFS distance, and searches stay optimal, on one
    # thread and on two sharing every iteration (frontier nodes carry both states).
    shape, goal_blank = (3, 3), 8
    first, second = ((0, 1, 3, 4), (2, 5, 6, 7)), ((0, 1, 2), (3, 4, 5, 6, 7))
    stored: list[pdb.Database] = []
    for partition in (first, second):
        pdb.build_pdb(partition, shape, goal_blank, tmp_path, progress=False)
        database = pdb.load_pdb(partition, shape, goal_blank, tmp_path)
        assert database is not None
        stored.append(database)
    # The first partition is mirrored about the diagonal, the second is not: each keeps its own.
    pair = stored[0].loaded_with(stored[1])
    assert pair.mirror and pair.n_extra == 1
    databases = [database.loaded() for database in stored]
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    distances = distances_from(goal, 3, 3)
    boards = list(distances)[::211]
    for tiles in boards:
        one, two = (_h(db, tiles, 3, 3, goal_blank) for db in databases)  # type: ignore[arg-type]
        both = _h(pair, tiles, 3, 3, goal_blank)  # type: ignore[arg-type]
        assert both == max(one, two) <= distances[tiles], tiles
    if workers > 1:
        monkeypatch.setattr(_idastar, "PARALLEL_FROM", 0)
        monkeypatch.setattr(_idastar, "FRONTIER_PER_WORKER", 3)
    totals = [0, 0, 0]
    far = [tiles for tiles, d in distances.items() if d >= 24][::500][:8]
    for tiles in boards[:40] + far:
        for k, tables in enumerate((databases[0], databases[1], pair)):
            core = _idastar.idastar(
                int(_board.pack(tiles)), tiles.index(0), 3, 3, goal_blank,
                HeuristicCode.H_PDB, tables=tables, **threaded({"workers": workers}),
            )  # fmt: skip
            assert core.status == SOLVED and len(core.moves) == distances[tiles], tiles
            totals[k] += core.expanded
        if workers == 1:
            # The kernel looks up the second partition only for the children it could change;
            # the counts must still be those of a search that evaluates every child in full.
            oracle = _ida_counts(tiles, lambda t: _h(pair, t, 3, 3, goal_blank), 3, 3)  # type: ignore[arg-type]
            assert (core.expanded, core.generated) == oracle, tiles
    if workers == 1:
        # Shared iterations end when a thread finds the goal, at a moment that varies from run
        # to run: their counts are not compared (they differed by one node in a run).
        assert totals[2] <= min(totals[0], totals[1])
    with pytest.raises(ValueError, match="at most 2 partitions, not 3"):
        _h(stored[0].loaded_with(*stored), boards[0], 3, 3, goal_blank)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Database\.loaded_with"):
        _h((databases[0], databases[1]), boards[0], 3, 3, goal_blank)  # type: ignore[arg-type]


GOAL_3X3 = (1, 2, 3, 4, 5, 6, 7, 8, 0)
STATUS_CODES = list(fp.Status)


@pytest.fixture(scope="module")
def pair_3x3(tmp_path_factory: pytest.TempPathFactory) -> tuple[pdb.Database, pdb.Database]:
    """Two partitions of 3x3 (the second with the goal blank's neighbours in one group)."""
    directory = tmp_path_factory.mktemp("pair")
    databases = []
    for partition in (((0, 1, 3, 4), (2, 5, 6, 7)), ((0, 1, 2), (3, 4, 5, 6, 7))):
        pdb.build_pdb(partition, (3, 3), 8, directory, progress=False)
        database = pdb.load_pdb(partition, (3, 3), 8, directory)
        assert database is not None
        databases.append(database)
    return databases[0], databases[1]


def _kernel(tiles: tuple[int, ...], tables: object, **options: object) -> CoreResult:
    problem = make_problem(tiles)
    return _idastar.idastar(
        problem.packed,
        problem.blank,
        3,
        3,
        8,
        HeuristicCode.H_PDB,
        tables=tables,
        **threaded(options),
    )  # type: ignore[arg-type]


def _then_pair(request: Request, database: pdb.Database, switch: int) -> CoreResult:
    """The two-part search of 7-8 then the pair, prepared as solve() prepares it, with
    ``database`` as the first table and a switch after ``switch`` expansions."""
    machine = pruning.machine(request.problem.board.shape, request.prune)
    deadline = deadline_from_now(request.limits.seconds)
    prepared = Prepared(
        request, request.entry, "packed", request.prune, machine, deadline,
        request.limits.core(stores_nodes=False), database.loaded(), (database,), switch,
    )  # fmt: skip
    return idastar._run_then_pair(prepared, request.problem)


def test_a_group_shared_by_partitions_mirrored_differently_is_looked_up_in_each(
    pair_3x3: tuple[pdb.Database, pdb.Database],
) -> None:
    # Two partitions that share their tables read one lookup for both, the mirrored one too:
    # only right when both mirror the board the same way. Here the first is not mirrored and the
    # second is: the second's mirrored lookups were taken from the first's, never made, and h
    # came out wrong.
    database = pair_3x3[0]
    assert database.reflect is not None
    both = LoadedPatterns(
        database.groups, None, 9, 4, 8, extra=[database.groups],
        extra_reflect=[database.reflect],
    )  # fmt: skip
    assert both.shared == ((-1, -1),)
    alike = LoadedPatterns(database.groups, database.reflect, 9, 4, 8, extra=[database.groups])
    assert alike.shared == ((0, 0),)
    # h is that of the mirrored partition alone, at the start and at every child: the searches
    # count the same nodes (children take the kernel's incremental lookups).
    distances = distances_from(GOAL_3X3, 3, 3)
    for tiles in [t for t, d in distances.items() if d >= 20][::997]:
        counts = [
            (core.expanded, core.generated, core.moves)
            for core in (_kernel(tiles, tables) for tables in (database, both, alike))
        ]
        assert counts[0] == counts[1] == counts[2], tiles
        assert len(counts[0][2]) == distances[tiles]


@pytest.mark.parametrize("workers", [1, 2])
def test_large_searches_go_on_with_the_second_partition(
    pair_3x3: tuple[pdb.Database, pdb.Database], monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    # What solve() runs on 4x4 with 7-8 and 7-8b built, on 3x3 partitions: the first alone for
    # SECOND_FROM expansions, then the pair from the bound reached. Lengths from BFS.
    switch = 40
    first, both = pair_3x3[0].loaded(), pair_3x3[0].loaded_with(pair_3x3[1])
    monkeypatch.setattr(idastar, "partner_of", lambda *where: pair_3x3[1])
    if workers > 1:
        monkeypatch.setattr(_idastar, "PARALLEL_FROM", 0)
        monkeypatch.setattr(_idastar, "FRONTIER_PER_WORKER", 3)
    distances = distances_from(GOAL_3X3, 3, 3)
    boards = [tiles for tiles, d in distances.items() if d >= 22][::400][:30]
    switched = skipped = 0
    for tiles in boards:
        # Parent pruning: the kernel calls below count with it.
        request = Request(make_problem(tiles), "pdb", Limits(), workers=workers, prune="parent")
        result = _then_pair(request, pair_3x3[0], switch)
        assert result.status == SOLVED and result.depth == distances[tiles], tiles
        assert fp.Board(tiles, shape=(3, 3)).apply(result.moves) == fp.Board.goal((3, 3))
        alone = _kernel(tiles, first, workers=workers)
        if alone.expanded < switch:
            assert (result.expanded, result.iterations) == (alone.expanded, alone.iterations)
            continue
        switched += 1
        if workers > 1:
            continue
        # Serial: exactly the first's nodes up to the switch, then the pair's from the bound
        # the first was searching (which skips the pair's earlier iterations).
        reached = _kernel(tiles, first, node_limit=switch).depth
        pair, pair_from = (_kernel(tiles, both, min_bound=bound) for bound in (0, reached))
        assert result.expanded == switch + pair_from.expanded
        assert result.iterations == _kernel(tiles, first, node_limit=switch).iterations + (
            pair_from.iterations
        )
        skipped += pair_from.iterations < pair.iterations
    assert switched >= 10
    assert workers > 1 or skipped >= 5


@pytest.mark.heavy
def test_the_switch_keeps_the_limits(
    pair_3x3: tuple[pdb.Database, pdb.Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    switch, first = 40, pair_3x3[0].loaded()
    reads: list[int] = []

    def partner_of(*where: object) -> pdb.Database | None:
        reads.append(1)
        return pair_3x3[1]

    monkeypatch.setattr(idastar, "partner_of", partner_of)
    monkeypatch.setattr(_idastar, "PARALLEL_FROM", 0)
    monkeypatch.setattr(_idastar, "FRONTIER_PER_WORKER", 3)
    distances = distances_from(GOAL_3X3, 3, 3)
    tiles = next(t for t, d in distances.items() if d == 31)
    problem = make_problem(tiles)
    node_limit = STATUS_CODES.index(fp.Status.NODE_LIMIT)
    # A node limit at or below the switch ends the search there, on one thread or two (threads
    # may stop short of the limit), without reading the second table.
    for workers in (1, 2):
        for nodes in (switch // 2, switch):
            request = Request(problem, "pdb", Limits(nodes=nodes), workers=workers)
            core = _then_pair(request, pair_3x3[0], switch)
            assert core.status == node_limit and core.expanded <= nodes
    assert reads == []
    # One above it spans both parts.
    core = _then_pair(Request(problem, "pdb", Limits(nodes=switch + 5)), pair_3x3[0], switch)
    assert (core.status, core.expanded, len(reads)) == (node_limit, switch + 5, 1)
    # The second table missing after all: the first goes on alone, still optimal.
    monkeypatch.setattr(idastar, "partner_of", lambda *where: None)
    core = _then_pair(Request(problem, "pdb", Limits()), pair_3x3[0], switch)
    assert (core.status, core.depth) == (SOLVED, 31)
    # Out of time while reading it: a time-limit stop at the bound the first had reached.
    reached = _kernel(tiles, first, node_limit=switch).depth

    def slow_read(*where: object) -> pdb.Database:
        time.sleep(0.3)
        return pair_3x3[1]

    monkeypatch.setattr(idastar, "partner_of", slow_read)
    core = _then_pair(Request(problem, "pdb", Limits(seconds=0.1)), pair_3x3[0], switch)
    assert core.status == STATUS_CODES.index(fp.Status.TIME_LIMIT)
    assert (core.depth, core.expanded, core.moves) == (reached, switch, "")


def test_progress_counts_on_across_the_switch() -> None:
    calls: list[tuple[int, int, float, int]] = []
    before = CoreResult(3, "", 100, 250, 7, 64, 1.5, 20, 4)
    relay = two_phase.shifted(lambda *report: calls.append(report), before)
    assert relay is not None and two_phase.shifted(None, before) is None
    relay(10, 20, 0.25, 22)
    assert calls == [(110, 270, 1.75, 22)]


def test_min_bound_starts_the_iterations_there(pair_3x3: tuple[pdb.Database, pdb.Database]) -> None:
    # A bound known to be at most the optimal length skips the iterations below it; one of the
    # other parity is rounded down, so the solution found is still shortest (and playable).
    first = pair_3x3[0].loaded()
    distances = distances_from(GOAL_3X3, 3, 3)
    tiles = next(t for t, d in distances.items() if d == 24)
    plain = _kernel(tiles, first)
    for bound in (24, 25):
        core = _kernel(tiles, first, min_bound=bound)
        assert (core.status, core.depth, core.iterations) == (SOLVED, 24, 1)
        assert fp.Board(tiles, shape=(3, 3)).apply(core.moves) == fp.Board.goal((3, 3))
        assert core.expanded <= plain.expanded
    assert plain.iterations > 1
