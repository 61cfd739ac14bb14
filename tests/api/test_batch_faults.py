"""solve_many's faults of issue 14: Ctrl-C on worker threads, resume integrity, bounded memory."""

from __future__ import annotations

import itertools
import shutil
import sys
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    rule,
    run_state_machine_as_test,
)

import fastpuzzle as fp
from tests.instances import hard
from tests.interrupts import latency_of
from tests.oracle import distances_3x3

# -- Ctrl-C -----------------------------------------------------------------------------------


def batch_interrupt_latency(delay: float, boards, **options) -> float:
    """Seconds from a SIGINT sent ``delay`` s into ``fp.solve_many(boards, **options)`` to the
    KeyboardInterrupt it raises."""
    return latency_of(delay, lambda: fp.solve_many(boards, **options), "batch")


HARD = [fp.Board(case.tiles) for case in hard()]  # 70 and 80 moves: tens of seconds each


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("packed", [False, True])
def test_ctrl_c_stops_the_searches_running_on_worker_threads(packed):
    # Before: the pool's shutdown waited for both running searches, 17.7 s after the signal.
    boards = HARD * 2
    data = np.array([b.packed for b in boards], dtype=np.uint64) if packed else boards
    latency = batch_interrupt_latency(0.5, data, shape=(4, 4), workers=2, chunk_size=1)
    # Milliseconds on a quiet machine; the bound leaves room for a loaded one (1.6 s was seen
    # while another test suite held both cores), far below the 17.7 s of waiting for the pool.
    assert latency < 5.0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_chunk_of_short_searches():
    # Every BFS here stops before its first check (under 65,536 expansions, about 0.5 ms each):
    # a search started on a stopped thread must stop anyway, or each chunk runs on to its end.
    dist = distances_3x3()
    boards = [b for b, d in dist.items() if d == 20][:8000]
    latency = batch_interrupt_latency(0.3, boards, algorithm="bfs", workers=2, chunk_size=4000)
    # A chunk takes about 2 s: run to its end, the stop would come 1.7 s after the signal.
    assert latency < 1.0


# -- resume -----------------------------------------------------------------------------------


def _words(boards) -> np.ndarray:
    return np.array([b.packed for b in boards], dtype=np.uint64)


def _truth(words: np.ndarray) -> np.ndarray:
    dist = distances_3x3()
    out = []
    for word in words.tolist():
        tiles = tuple((word >> (4 * i)) & 15 for i in range(9))
        out.append(dist.get(tiles, -1) if word >> 36 == 0 else -1)
    return np.array(out)


A = _words([fp.random_board((3, 3), rng=seed) for seed in range(40)])
B = _words([fp.random_board((3, 3), rng=1000 + seed) for seed in range(40)])


def _files(directory) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*.*")}


def _resolved_chunks(monkeypatch) -> list[int]:
    """The first rows of the chunks that solve_many solves from now on."""
    from fastpuzzle import batch

    seen: list[int] = []
    real = batch.run.solve_chunk

    def counting(first, rows, spec):
        seen.append(first)
        return real(first, rows, spec)

    monkeypatch.setattr(batch.run, "solve_chunk", counting)
    return seen


@pytest.mark.parametrize("lose_manifest", [False, True])
def test_resume_with_other_boards_is_refused_and_leaves_the_directory(tmp_path, lose_manifest):
    # Before: B's resume returned A's lengths as B's, with or without the manifest.
    out = tmp_path / "run"
    first = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    assert (first.lengths == _truth(A)).all()
    if lose_manifest:
        (out / "manifest.json").unlink()
    before = _files(out)
    with pytest.raises(fp.BatchFileError, match="another batch") as caught:
        fp.solve_many(B, shape=(3, 3), out=out, chunk_size=10, resume=True)
    named = caught.value.path
    assert named.parent == out and named.exists()
    assert str(named) in str(caught.value)
    assert _files(out) == before
    assert (first.lengths == _truth(A)).all()


@pytest.mark.parametrize(
    "change",
    [
        {"goal": "_ 1 2/3 4 5/6 7 8"},
        {"algorithm": "astar", "heuristic": "manhattan"},
        {"limits": fp.Limits(max_depth=20)},
        {"optimal": False},
        {"out_format": "jsonl"},
    ],
)
def test_resume_with_other_options_is_refused(tmp_path, change):
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    with pytest.raises(fp.BatchFileError, match="another batch") as caught:
        fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True, **change)
    assert caught.value.path == out / "manifest.json"


def test_a_damaged_manifest_is_refused_naming_it(tmp_path):
    # Before: a bare JSONDecodeError.
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    (out / "manifest.json").write_text('{"layout": 2, "finger')
    with pytest.raises(fp.BatchFileError, match="manifest") as caught:
        fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert caught.value.path == out / "manifest.json"


def _edit_csv(path, row: int, column: str, value) -> None:
    import csv
    import io

    table = list(csv.reader(io.StringIO(path.read_text())))
    table[1 + row][table[0].index(column)] = str(value)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(table)
    path.write_text(buffer.getvalue())


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("length", 3),  # before: accepted
        ("status", "unsolvable"),  # before: accepted
        ("index", 9999),  # before: a raw IndexError
        ("index", -1),  # before: the row landed on the last board
        ("moves", "UUUU"),
        ("seconds", 1.5),  # harmless, but an edited chunk is never trusted
    ],
)
def test_an_edited_chunk_is_solved_again(tmp_path, monkeypatch, column, value):
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    _edit_csv(out / "part-000002.csv", 4, column, value)
    resolved = _resolved_chunks(monkeypatch)
    again = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert resolved == [20]
    assert (again.lengths == _truth(A)).all()
    assert again.solved.all()
    assert again.to_records()[24]["index"] == 24


@pytest.mark.parametrize("with_check_file", [False, True])
def test_a_chunk_copied_over_another_is_solved_again(tmp_path, monkeypatch, with_check_file):
    # Before: the rows of chunk 1 got status '' and length -1.
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    (out / "part-000001.csv").write_bytes((out / "part-000003.csv").read_bytes())
    if with_check_file:
        check = out / "checks"
        (check / "part-000001.json").write_bytes((check / "part-000003.json").read_bytes())
    resolved = _resolved_chunks(monkeypatch)
    again = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert resolved == [10]
    assert (again.lengths == _truth(A)).all()
    assert set(again.status.tolist()) == {"solved"}


def test_a_lost_manifest_costs_nothing(tmp_path, monkeypatch):
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    (out / "manifest.json").unlink()
    resolved = _resolved_chunks(monkeypatch)
    again = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert resolved == []
    assert (again.lengths == _truth(A)).all()
    assert (out / "manifest.json").exists()


def test_chunks_do_not_depend_on_the_workers(tmp_path, monkeypatch):
    # Before: the default chunk size came from the thread count, so a resume with other
    # workers was refused as another batch.
    out = tmp_path / "run"
    words = _words([fp.random_board((3, 3), rng=seed) for seed in range(500)])
    fp.solve_many(words, shape=(3, 3), out=out, workers=1)
    resolved = _resolved_chunks(monkeypatch)
    again = fp.solve_many(words, shape=(3, 3), out=out, workers=2, resume=True)
    assert resolved == []
    assert (again.lengths == _truth(words)).all()
    assert fp.solve_many(words, shape=(3, 3), workers=1, chunk_size=None).lengths.tolist() == (
        again.lengths.tolist()
    )


def test_resume_takes_the_manifest_chunk_size_and_refuses_another(tmp_path, monkeypatch):
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=7)
    resolved = _resolved_chunks(monkeypatch)
    again = fp.solve_many(A, shape=(3, 3), out=out, resume=True)
    assert resolved == [] and (again.lengths == _truth(A)).all()
    with pytest.raises(fp.BatchFileError, match="chunk_size=7"):
        fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)


def test_a_result_read_back_refuses_a_file_edited_since(tmp_path):
    out = tmp_path / "run"
    result = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    _edit_csv(out / "part-000001.csv", 0, "length", 5)
    with pytest.raises(fp.BatchFileError, match="changed") as caught:
        result.lengths  # noqa: B018
    assert caught.value.path == out / "part-000001.csv"
    # Solved again by a resume, the chunk is this batch's again and reads back.
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert (result.lengths == _truth(A)).all()


def test_stale_chunk_files_without_a_manifest_are_not_overwritten(tmp_path):
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    (out / "manifest.json").unlink()
    with pytest.raises(FileExistsError):
        fp.solve_many(B, shape=(3, 3), out=out, chunk_size=10)


# -- memory -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def many_words() -> np.ndarray:
    return fp.random_boards(100_000, (3, 3), rng=5)


def _traced_peak(call) -> tuple[int, int, object]:
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        kept = call()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, current, kept


def test_rows_in_memory_take_under_100_bytes_a_board(many_words):
    # Before: about 950 bytes a board (a str object per row and column).
    fp.solve_many(many_words[:10], shape=(3, 3))  # loads the exact table outside the count
    peak, current, result = _traced_peak(
        lambda: fp.solve_many(many_words, shape=(3, 3), workers=2, chunk_size=500)
    )
    n = len(many_words)
    assert current / n < 64 and peak / n < 100, (current / n, peak / n)
    assert (result.lengths[:1000] == _truth(many_words[:1000])).all()


@pytest.mark.heavy
def test_rows_under_out_are_not_kept_in_memory(many_words, tmp_path):
    # Before: the same 950 bytes a board as without out=. Kept columns would take at least 29
    # bytes a board (2.6 MB more for the larger batch); what a few chunks in flight hold varies
    # by several hundred kB from run to run (615 kB once on a busy machine), so the margin is
    # 1.5 MB, under two thirds of what keeping the rows would add.
    fp.solve_many(many_words[:10], shape=(3, 3))
    peaks = []
    for n in (10_000, 100_000):
        out = tmp_path / f"run{n}"
        peak, current, _ = _traced_peak(
            lambda n=n, out=out: fp.solve_many(
                many_words[:n], shape=(3, 3), workers=2, chunk_size=1000, out=out
            )
        )
        peaks.append(peak)
        assert current / n < 4, current / n
    assert peaks[1] < peaks[0] + 1_500_000, peaks


_RSS_SCRIPT = """
import resource, sys
import numpy as np
import fastpuzzle as fp
# Drawn in blocks: random_boards itself peaks near 930 bytes a board.
words = np.concatenate([fp.random_boards(10_000, (3, 3), rng=s) for s in range(100)])
fp.solve_many(words[:10], shape=(3, 3))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = sys.argv[1] or None
result = fp.solve_many(words, shape=(3, 3), workers=2, out=out)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
assert result.solved.all()
print(before, peak)
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kB")
@pytest.mark.parametrize("out", [False, True])
def test_peak_resident_memory_of_a_million_boards(tmp_path, out):
    # Measured: 67 bytes a board without out=, 8 MB in all with it (before: 260 bytes a board,
    # either way).
    import subprocess

    target = str(tmp_path / "run") if out else ""
    done = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, target], capture_output=True, text=True, check=True
    )
    before, peak = map(int, done.stdout.split())
    grown = (peak - before) * 1024
    if out:
        assert grown < 30 << 20, grown
    else:
        assert grown / 1_000_000 < 100, grown


@pytest.mark.parametrize("out", [None, "csv", "jsonl"])
def test_moves_index_iterate_and_compare_like_the_array_they_were(tmp_path, out):
    words = np.concatenate([A, np.array([0], dtype=np.uint64)])  # the last row is invalid
    kwargs = {} if out is None else {"out": tmp_path / "run", "out_format": out}
    result = fp.solve_many(words, shape=(3, 3), chunk_size=7, **kwargs)
    moves = result.moves
    plain = list(moves)
    n = len(words)
    assert len(moves) == n == len(plain) and plain[-1] == ""
    goal = fp.Board.goal((3, 3))
    for word, text, length in zip(words[:-1].tolist(), plain, result.lengths):
        assert len(text) == length
        assert fp.Board.from_packed(word, shape=(3, 3)).apply(text) == goal
    assert moves[0] == plain[0] and moves[-1] == "" and moves[np.int64(8)] == plain[8]
    assert isinstance(moves[3], str)
    with pytest.raises(IndexError):
        moves[n]
    with pytest.raises(IndexError):
        moves[-n - 1]
    assert isinstance(moves[2:9], np.ndarray) and moves[2:9].tolist() == plain[2:9]
    assert moves[::-3].tolist() == plain[::-3]
    mask = result.lengths > 20
    assert moves[mask].tolist() == [m for m, keep in zip(plain, mask) if keep]
    assert moves[[0, -1, 5]].tolist() == [plain[0], plain[-1], plain[5]]
    assert (moves == plain).all() and not (moves != plain).any()
    assert ((moves == "") == (result.lengths <= 0)).all()
    assert moves.tolist() == plain and np.asarray(moves).dtype == object
    assert plain[4] in moves
    records = result.to_records()
    assert [r["moves"] for r in records] == plain
    assert records[-1]["status"] == "invalid" and records[-1]["message"]
    assert result.to_csv().count("\n") == n + 1


# -- interruptions and damage, at random --------------------------------------------------------

# 60 boards, one invalid word and one unsolvable board, in 9 chunks of 7 (the last of 6).
GOAL = fp.Board.goal((3, 3))
WORDS = np.concatenate(
    [
        _words([fp.random_board((3, 3), rng=500 + seed) for seed in range(60)]),
        np.array([0, fp.Board("1 2 3/4 5 6/8 7 _").packed], dtype=np.uint64),
    ]
)
TRUTH = _truth(WORDS)
CHUNK = 7
CHUNKS = -(-len(WORDS) // CHUNK)


class Crash(Exception):
    pass


def _edit_rows(path, fmt: str, row: int, column: str) -> None:
    """Change one field of one row of a chunk file, whatever its value was (a file too damaged
    to parse, by an earlier truncation, is left as it is)."""
    import csv
    import io
    import json

    text = path.read_text(errors="replace")
    try:
        if fmt == "csv":
            table = list(csv.reader(io.StringIO(text)))
            header = table[0]
            records = [dict(zip(header, line)) for line in table[1:] if len(line) == len(header)]
        else:
            records = [json.loads(line) for line in text.splitlines()]
            header = list(records[0])
        record = records[row % len(records)]
        old = record[column]
        new = {
            "index": lambda: int(old) + 1 if int(old) % 2 else -1,
            "length": lambda: int(old) + 2,
            "status": lambda: "solved" if old != "solved" else "exhausted",
            "moves": lambda: (old or "") + "UD",
            "seconds": lambda: float(old) + 1.0,
        }[column]()
    except (ValueError, KeyError, IndexError, TypeError, ZeroDivisionError):
        return
    record[column] = new if fmt == "jsonl" else str(new)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([r[name] for name in header] for r in records)
        path.write_text(buffer.getvalue())
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in records))


class ResumeMachine(RuleBasedStateMachine):
    """Runs interrupted after k chunks, and damage between runs; every run that finishes must
    give every row's exact length (3x3 BFS), status and a solving move list."""

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="fp-resume-"))
        self.out = self.root / "run"
        self.fmt = "csv"

    @initialize(fmt=st.sampled_from(["csv", "jsonl"]))
    def choose_format(self, fmt: str) -> None:
        self.fmt = fmt

    def _run(self, stop_after: int | None, workers: int) -> fp.BatchResult | None:
        from fastpuzzle import batch

        real = batch.run.solve_chunk
        calls = itertools.count()

        def crashing(first, rows, spec):
            if stop_after is not None and next(calls) >= stop_after:
                raise Crash
            return real(first, rows, spec)

        with mock.patch.object(batch.run, "solve_chunk", crashing):
            try:
                return fp.solve_many(
                    WORDS,
                    shape=(3, 3),
                    out=self.out,
                    out_format=self.fmt,
                    chunk_size=CHUNK,
                    workers=workers,
                    resume=True,
                )
            except Crash:
                return None

    def _check(self, result: fp.BatchResult) -> None:
        assert result.lengths.tolist() == TRUTH.tolist()
        status = result.status.tolist()
        assert status[:-2] == ["solved"] * 60 and status[-2:] == ["invalid", "unsolvable"]
        for word, moves in zip(WORDS[:-2].tolist(), result.moves):
            assert fp.Board.from_packed(word, shape=(3, 3)).apply(moves) == GOAL

    @rule(stop_after=st.integers(0, CHUNKS), workers=st.sampled_from([1, 2]))
    def run(self, stop_after: int, workers: int) -> None:
        result = self._run(stop_after if stop_after < CHUNKS else None, workers)
        if result is not None:
            self._check(result)

    def _part(self, chunk: int) -> Path:
        return self.out / f"part-{chunk:06d}.{self.fmt}"

    @rule(chunk=st.integers(0, CHUNKS - 1), keep=st.floats(0, 0.99))
    def truncate(self, chunk: int, keep: float) -> None:
        path = self._part(chunk)
        if path.exists():
            body = path.read_bytes()
            path.write_bytes(body[: int(len(body) * keep)])

    @rule(
        chunk=st.integers(0, CHUNKS - 1),
        row=st.integers(0, CHUNK - 1),
        column=st.sampled_from(["index", "length", "status", "moves", "seconds"]),
    )
    def edit_a_field(self, chunk: int, row: int, column: str) -> None:
        path = self._part(chunk)
        if path.exists():
            _edit_rows(path, self.fmt, row, column)

    @rule(origin=st.integers(0, CHUNKS - 1), onto=st.integers(0, CHUNKS - 1), both=st.booleans())
    def copy_a_chunk_over_another(self, origin: int, onto: int, both: bool) -> None:
        if origin == onto:
            return
        pairs = [(self._part(origin), self._part(onto))]
        if both:
            checks = self.out / "checks"
            pairs.append((checks / f"part-{origin:06d}.json", checks / f"part-{onto:06d}.json"))
        for source, destination in pairs:
            if source.exists() and destination.parent.exists():
                shutil.copyfile(source, destination)

    @rule()
    def delete_the_manifest(self) -> None:
        (self.out / "manifest.json").unlink(missing_ok=True)

    def teardown(self) -> None:
        try:
            result = self._run(None, 2)
            assert result is not None
            self._check(result)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def no_fsync():
    # Durability against power loss is not what these tests can see; fsync is most of their
    # time on a virtual disk.
    with mock.patch("os.fsync"):
        yield


def test_resume_survives_interruptions_and_damage(no_fsync):
    machine = settings(max_examples=25, stateful_step_count=10, deadline=None, derandomize=True)(
        ResumeMachine
    )
    run_state_machine_as_test(machine)


@pytest.mark.slow
def test_resume_survives_interruptions_and_damage_at_length(no_fsync):
    machine = settings(max_examples=400, stateful_step_count=30, deadline=None)(ResumeMachine)
    run_state_machine_as_test(machine)


# -- things other than regular files under out= ---------------------------------------------


@pytest.fixture
def fifo_watchdog(tmp_path):
    """From 5 s on, opens every FIFO under ``tmp_path`` for writing and closes it, twice a second,
    so that a reader blocked on one gets an end of file instead of hanging the test run; yields
    the list of the FIFOs it had to unblock (a reader that never blocks leaves it empty)."""
    import os
    import stat
    import threading

    unblocked: list[str] = []
    done = threading.Event()

    def watch() -> None:
        if done.wait(5.0):
            return
        while not done.wait(0.5):
            unblock()

    def unblock() -> None:
        for path in tmp_path.rglob("*"):
            if stat.S_ISFIFO(path.lstat().st_mode):
                try:
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:  # ENXIO: nobody reading it
                    continue
                unblocked.append(path.name)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    yield unblocked
    done.set()
    thread.join()


def _solved_once(tmp_path):
    out = tmp_path / "run"
    fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    return out


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_manifest_that_is_no_file_is_refused_without_hanging(tmp_path, fifo_watchdog, kind):
    # Before: a FIFO blocked the resume forever; a directory gave "[Errno 21] Is a directory".
    import os

    out = _solved_once(tmp_path)
    manifest = out / "manifest.json"
    manifest.unlink()
    os.mkfifo(manifest) if kind == "fifo" else manifest.mkdir()
    with pytest.raises(fp.BatchFileError, match="not a regular file") as caught:
        fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert fifo_watchdog == []
    assert caught.value.path == manifest
    assert ("a FIFO" if kind == "fifo" else "a directory") in str(caught.value)


@pytest.mark.parametrize("manifest", [True, False])
@pytest.mark.parametrize("which", ["chunk", "check"])
def test_a_fifo_at_a_chunk_or_check_file_is_solved_again(
    tmp_path, monkeypatch, fifo_watchdog, which, manifest
):
    # Before: the resume blocked on the FIFO forever (without a manifest, every check file is
    # read first, to refuse another batch's).
    import os
    import stat

    out = _solved_once(tmp_path)
    path = out / "part-000002.csv" if which == "chunk" else out / "checks" / "part-000002.json"
    path.unlink()
    os.mkfifo(path)
    if not manifest:
        (out / "manifest.json").unlink()
    resolved = _resolved_chunks(monkeypatch)
    again = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert fifo_watchdog == []
    assert resolved == [20]
    assert (again.lengths == _truth(A)).all()
    assert stat.S_ISREG(path.stat().st_mode)


@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("part-000002.csv", "is a directory"),
        ("part-000003.csv", "is a directory"),
        ("checks/part-000002.json", "is a directory"),
        ("checks", "not a directory"),  # a file where the check files' folder goes
    ],
)
def test_a_directory_where_a_file_goes_is_refused_before_solving(
    tmp_path, monkeypatch, name, match
):
    # Before: after solving every chunk, "[Errno 21] Is a directory" (an untyped
    # IsADirectoryError) on renaming the chunk or its check file into place; a file at checks/
    # gave a FileExistsError, which the command line reads as an earlier batch's chunks.
    out = _solved_once(tmp_path)
    path = out / name
    if path.is_dir():
        shutil.rmtree(path)
        path.write_text("")
    else:
        path.unlink()
        path.mkdir()
    resolved = _resolved_chunks(monkeypatch)
    with pytest.raises(fp.BatchFileError, match=match) as caught:
        fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert resolved == []
    assert caught.value.path == path


def test_the_command_line_refuses_a_fifo_manifest_in_one_line(tmp_path, fifo_watchdog, capsys):
    # The case: mkdir -p rows.csv.chunks && mkfifo rows.csv.chunks/manifest.json &&
    # fastpuzzle batch in.txt --out rows.csv --resume blocked for ever.
    import os

    from fastpuzzle.cli import main

    boards = tmp_path / "in.txt"
    boards.write_text("".join(fp.random_board((3, 3), rng=s).to_string() + "\n" for s in range(5)))
    chunks = tmp_path / "rows.csv.chunks"
    chunks.mkdir()
    os.mkfifo(chunks / "manifest.json")
    status = main(["batch", str(boards), "--out", str(tmp_path / "rows.csv"), "--resume"])
    err = capsys.readouterr().err
    assert fifo_watchdog == []
    assert status == 2
    assert err.count("\n") == 1 and str(chunks / "manifest.json") in err and "FIFO" in err


# -- two batches on one out= ------------------------------------------------------------------

_HOLD_LOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.write(fd, str(os.getpid()).encode())
print("held", flush=True)
time.sleep(120)
"""


def _holder(lock_file):
    """A child process holding ``lock_file``'s flock, its process id written there (as a batch
    writing there does)."""
    import subprocess

    child = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(lock_file)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


def test_a_second_batch_on_one_out_is_refused_until_the_first_is_killed(tmp_path, monkeypatch):
    import signal

    out = _solved_once(tmp_path)
    before = _files(out)
    child = _holder(out / "lock")
    try:
        resolved = _resolved_chunks(monkeypatch)
        with pytest.raises(fp.BatchInUseError, match="another batch is writing here") as caught:
            fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
        assert isinstance(caught.value, fp.BatchFileError)
        assert caught.value.path == out and str(out) in str(caught.value)
        assert f"process {child.pid}" in str(caught.value)
        assert resolved == [] and _files(out) == before
    finally:
        child.send_signal(signal.SIGKILL)  # flock's locks go with the process, even so
        child.wait()
    again = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
    assert (again.lengths == _truth(A)).all()


def test_a_thread_of_this_process_is_refused_too(tmp_path):
    import threading

    from fastpuzzle.batch.store import batch_lock

    out = tmp_path / "run"
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with batch_lock(out):
            held.set()
            release.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert held.wait(30)
        with pytest.raises(fp.BatchInUseError):
            fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    finally:
        release.set()
        thread.join()
    # The same thread may take it again inside its own hold (the command line does).
    with batch_lock(out):
        result = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10)
    assert (result.lengths == _truth(A)).all()


_SLOW_BATCH = """
import sys, time
from fastpuzzle.batch import run
from fastpuzzle.cli import main
real = run.solve_chunk
def slow(*args):
    time.sleep(60)
    return real(*args)
run.solve_chunk = slow
sys.exit(main(sys.argv[1:]))
"""


def test_two_command_line_batches_on_one_out(tmp_path, capsys):
    # Before: the second solved every board beside the first, then removed the folder the first
    # was writing into (the first then failed on its next chunk).
    import subprocess
    import time

    from fastpuzzle.cli import main

    boards = tmp_path / "in.txt"
    boards.write_text("".join(fp.random_board((3, 3), rng=s).to_string() + "\n" for s in range(5)))
    args = ["batch", str(boards), "--out", str(tmp_path / "rows.csv"), "--resume"]
    chunks = tmp_path / "rows.csv.chunks"
    first = subprocess.Popen([sys.executable, "-c", _SLOW_BATCH, *args])
    try:
        deadline = time.monotonic() + 60
        while not (chunks / "manifest.json").exists():  # written under the lock
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "another batch is writing here" in err
        assert str(chunks) in err and f"process {first.pid}" in err
        assert chunks.is_dir() and first.poll() is None
    finally:
        first.kill()
        first.wait()


def _chattr(flag: str, paths) -> bool:
    import subprocess

    # Every path, even after one fails: "-i" must undo every "+i".
    done = [subprocess.run(["chattr", flag, str(p)], capture_output=True) for p in paths]
    return all(d.returncode == 0 for d in done)


def test_a_finished_batch_in_a_read_only_directory_still_resumes(tmp_path, monkeypatch):
    # The lock file cannot be written there (nor created, had it gone): a resume that only
    # reads the chunks back needs no lock, as before there was one.
    out = _solved_once(tmp_path)
    frozen = [out / "lock", out / "checks", out]
    try:
        if not _chattr("+i", frozen):
            pytest.skip("chattr +i is not available")
        resolved = _resolved_chunks(monkeypatch)
        again = fp.solve_many(A, shape=(3, 3), out=out, chunk_size=10, resume=True)
        assert resolved == [] and (again.lengths == _truth(A)).all()
    finally:
        _chattr("-i", frozen)
