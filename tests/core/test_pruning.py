"""Which machine a search carries (``fastpuzzle._solver.pruning``): checked names, boxes, and a
cache that never trusts a file that is not a whole, valid machine."""

from __future__ import annotations

import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _fsm, _interrupt, _pdb
from fastpuzzle._problem import make_problem
from fastpuzzle._solver import idastar, pruning
from fastpuzzle._solver.request import Request
from fastpuzzle.errors import InternalError, InvalidOptionError
from fastpuzzle.limits import Limits
from tests.interrupts import latency_of
from tests.oracle import distances_3x3


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    pruning._kept.cache_clear()
    yield tmp_path
    pruning._kept.cache_clear()


def _expected(rows: int, cols: int, depth: int) -> np.ndarray:
    # The machine as the builder gives it, outside the cache.
    return _fsm.compile(_fsm.build(rows, cols, depth, 0)[0])


@pytest.mark.parametrize(
    "prune", ["fsm", "FSM", "parent", "Parent", 6, 8, 9, np.int64(12), pruning.MAX_DEPTH]
)
def test_accepted_prunes(prune: object) -> None:
    assert pruning.check_prune(prune) in ("fsm", "parent", prune)


def test_the_api_takes_a_depth_as_the_command_line_gives_it() -> None:
    # Before (issue 47, item 7): prune="12" was refused where --prune 12 was accepted.
    assert pruning.check_prune("12") == 12 == pruning.check_prune(" 12 ")


@pytest.mark.parametrize(
    "prune", ["", "dupes", 1, pruning.MAX_DEPTH + 1, 20, True, 2.0, None, [12], -3, "1" * 40]
)
def test_refused_prunes_name_the_choices(prune: object) -> None:
    with pytest.raises(InvalidOptionError, match=f"a depth of 6 or 8 to {pruning.MAX_DEPTH}"):
        pruning.check_prune(prune)


@pytest.mark.parametrize("depth", [2, 3, 4, 5, 7, "4"])
def test_depths_whose_machine_is_another_are_refused_saying_which(depth: object) -> None:
    # Before: depths 2 to 5 were accepted and did what "parent" does, 7 what 6 does.
    with pytest.raises(InvalidOptionError, match=r"prune='parent' does|be 6's"):
        pruning.check_prune(depth)


def test_the_accepted_depths_are_those_that_mean_something() -> None:
    # What the refusals rest on: below 6 the machine forbids only parent pruning's strings, 7's
    # is 6's, and from 8 on each depth forbids more (on a 4x4 box).
    parent = _expected(4, 4, 2)
    assert all(np.array_equal(_expected(4, 4, d), parent) for d in (3, 4, 5))
    assert not np.array_equal(_expected(4, 4, 6), parent)
    assert np.array_equal(_expected(4, 4, 7), _expected(4, 4, 6))
    sizes = [len(_expected(4, 4, d)) for d in pruning.DEPTHS if d <= 13]
    assert sizes == sorted(set(sizes))


@pytest.mark.heavy
@pytest.mark.parametrize("shape", [(4, 4), (3, 3), (2, 8)])
def test_the_default_machine_is_one_a_depth_names(cache: Path, shape: tuple[int, int]) -> None:
    # Before: the default looked 20 moves deep (3x3 and two-row boxes reached 17 to 19) while
    # 16 was the deepest a caller could name. It is the machine of one of the depths now.
    default = pruning.machine(shape, "fsm")
    assert default is not None
    named = [d for d in pruning.DEPTHS if np.array_equal(_expected(*shape, d), default)]
    assert named == [{(4, 4): 13, (3, 3): 16, (2, 8): 16}[shape]]


def test_what_each_prune_does() -> None:
    assert pruning.in_effect(2) == "parent"
    assert pruning.in_effect("fsm", exact=True) == "parent"
    assert pruning.in_effect(12, exact=True) == 12
    assert pruning.machine((4, 4), "parent") is None
    assert pruning.machine((4, 4), 2) is None


def test_boxes_fit_the_board_and_25_cells() -> None:
    assert pruning.box_of((3, 3)) == (3, 3)
    assert pruning.box_of((5, 5)) == (5, 5)
    for shape in [(2, 20), (10, 10), (3, 30), (100, 2)]:
        rows, cols = pruning.box_of(shape)
        assert rows <= shape[0] and cols <= shape[1] and rows * cols <= 25


def test_a_machine_is_written_once_and_read_back(cache: Path) -> None:
    first = pruning.machine((3, 3), 8)
    assert np.array_equal(first, _expected(3, 3, 8)) and not first.flags.writeable
    (written,) = cache.glob("fsm-*.npy")
    pruning._kept.cache_clear()
    before = written.stat().st_mtime_ns
    assert np.array_equal(pruning.machine((3, 3), 8), first)
    assert written.stat().st_mtime_ns == before  # read, not rebuilt


HEADER = pruning._HEADER_ROWS


def _damage_in_range(path: Path) -> None:
    # One word of a string's row changed, the checksum left as it was: only the checksum tells.
    stored = np.load(path)
    stored[HEADER, 0] ^= 1
    np.save(path, stored)


def _out_of_range(path: Path) -> None:
    stored = np.load(path)
    stored[HEADER, 0] = stored.shape[0] + 7
    np.save(path, stored)


def _as_npz(path: Path) -> None:
    table = np.load(path)
    with open(path, "wb") as stream:
        np.savez(stream, table=table)
    assert zipfile.is_zipfile(path)


def _truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _floats(path: Path) -> None:
    np.save(path, np.load(path).astype(np.float64))


def _signed(path: Path, header: np.ndarray, strings: np.ndarray) -> None:
    # What a crafted file does: its checksum recomputed over what it holds.
    body = np.vstack([header, strings]).astype(np.int32)
    np.save(path, np.vstack([body, pruning._digest_row(body)]))


Strings = tuple[list[int], list[int]]


def _code(moves: str) -> int:
    code = 1
    for move in moves:
        code = code * 4 + "UDLR".index(move)
    return code


def _crafted(change):  # type: ignore[no-untyped-def]
    # ``change(header, forbidden, twins)`` lies about the machine in a file's terms; the file
    # is signed as the cache signs it, with the count of strings it now holds.
    def craft(path: Path) -> None:
        stored = np.load(path)
        header = stored[:HEADER].copy()
        forbidden, twins = pruning._unpaired(stored[HEADER:-1])
        forbidden, twins = change(header, list(map(int, forbidden)), list(map(int, twins)))
        header[2, 0] = len(forbidden)
        strings = pruning._pairs(np.array(forbidden, np.uint64), np.array(twins, np.uint64))
        _signed(path, header, strings)

    craft.__name__ = change.__name__
    return craft


def forbid_every_move(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    # Issue 43 ("exhausted after 1 expansions" on every board), as a file of strings: each
    # one-move string forbidden, "proven" by the empty string.
    return [_code(m) for m in "UDLR"] + forbidden, [1] * 4 + twins


def a_twin_of_another_effect(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    # A string that is no twin's, "proven" by an earlier one of the same length.
    return [*forbidden, _code("RRDD")], [*twins, _code("DDRR")]


def a_later_twin(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    # A pair turned round: the earlier string forbidden, the later one its "twin".
    return [twins[-1], *forbidden[:-1]], [forbidden[-1], *twins[:-1]]


def a_string_wider_than_the_box(
    header: np.ndarray, forbidden: list[int], twins: list[int]
) -> Strings:
    # Its replay would leave the box (and the board it is replayed on).
    return [*forbidden, _code("RRRRLLLL")], [*twins, 1]


def a_string_deeper_than_the_machine(
    header: np.ndarray, forbidden: list[int], twins: list[int]
) -> Strings:
    deep = "RDLU" * 2 + "R"
    return [*forbidden, _code(deep)], [*twins, _code(deep) - 1]


def a_short_string_left_out(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    # Every string left is proven, but parent pruning's "UD" is gone: the strings of up to
    # VERIFIED_LENGTH moves are compared with a fresh machine.
    at = forbidden.index(_code("UD"))
    return forbidden[:at] + forbidden[at + 1 :], twins[:at] + twins[at + 1 :]


def another_box(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    # A valid machine, under the name of another box: the header tells.
    header[0, 2:] = (2, 2)
    return forbidden, twins


def another_depth(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    header[1, 0] += 1
    return forbidden, twins


def states_miscounted(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    header[1, 3] += 1
    return forbidden, twins


def stopped_short(header: np.ndarray, forbidden: list[int], twins: list[int]) -> Strings:
    # A machine of fewer moves than it was asked for (and no state limit to stop it).
    header[1, 2] -= 1
    return forbidden, twins


CRAFTED = [
    forbid_every_move,
    a_twin_of_another_effect,
    a_later_twin,
    a_string_wider_than_the_box,
    a_string_deeper_than_the_machine,
    a_short_string_left_out,
    another_box,
    another_depth,
    states_miscounted,
    stopped_short,
]


@pytest.mark.parametrize(
    "damage",
    [_damage_in_range, _out_of_range, _as_npz, _truncated, _floats]
    + [_crafted(change) for change in CRAFTED],
    ids=lambda damage: damage.__name__.strip("_"),
)
def test_a_damaged_file_is_rebuilt_never_trusted(cache: Path, damage) -> None:  # type: ignore[no-untyped-def]
    pruning.machine((3, 3), 8)
    (written,) = cache.glob("fsm-*.npy")
    damage(written)
    pruning._kept.cache_clear()
    assert np.array_equal(pruning.machine((3, 3), 8), _expected(3, 3, 8))
    pruning._kept.cache_clear()
    assert np.array_equal(pruning.machine((3, 3), 8), _expected(3, 3, 8))  # and rewritten


def test_the_header_names_what_the_machine_is_for(cache: Path) -> None:
    machine = pruning.machine((3, 3), 8)
    (written,) = cache.glob("fsm-v4-*.npy")
    stored = np.load(written)
    magic = int.from_bytes(b"FSM4", "little")
    codes, _, twins = _fsm.build(3, 3, 8, twins=True)
    header = [[magic, 4, 3, 3], [8, 0, 8, len(machine)], [len(codes), 0, 0, 0]]
    assert stored[:HEADER].tolist() == header
    assert np.array_equal(pruning._unpaired(stored[HEADER:-1])[0], codes)
    assert np.array_equal(pruning._unpaired(stored[HEADER:-1])[1], twins)


def test_a_file_moved_to_another_machines_name_is_rebuilt(cache: Path) -> None:
    # The checksum holds (the file is whole), but it was written for another depth.
    pruning.machine((3, 3), 8)
    (written,) = cache.glob("fsm-*.npy")
    written.rename(cache / written.name.replace("-d8-", "-d9-"))
    pruning._kept.cache_clear()
    assert np.array_equal(pruning.machine((3, 3), 9), _expected(3, 3, 9))


def test_a_crafted_default_machine_no_longer_ends_a_search(cache: Path) -> None:
    # Issue 43 as it was found: the default 4x4 machine with every move forbidden, its
    # checksum recomputed, made solve() answer "exhausted after 1 expansions".
    board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15"
    pruning.machine((4, 4), "fsm")
    (written,) = cache.glob("fsm-*.npy")
    _crafted(forbid_every_move)(written)
    pruning._kept.cache_clear()
    assert fp.solve(board).moves == "R"
    assert np.array_equal(pruning.machine((4, 4), "fsm"), _fsm.compile(
        _fsm.build(4, 4, 20, pruning.MAX_STATES)[0]))  # fmt: skip


def _every_move_forbidden(table: np.ndarray) -> None:
    # Issue 43: "exhausted after 1 expansions" on every board.
    table[:] = -1


def _a_column_forbidden(table: np.ndarray) -> None:
    # Issue 43: a board one such move from its goal ran to the time limit.
    table[:, 3] = -1


@pytest.mark.parametrize(
    "change", [_every_move_forbidden, _a_column_forbidden], ids=lambda c: c.__name__.strip("_")
)
def test_a_search_that_runs_out_of_paths_on_a_solvable_board_is_a_defect(
    cache: Path, monkeypatch: pytest.MonkeyPatch, change
) -> None:  # type: ignore[no-untyped-def]
    # A crafted machine that got past the checks: a search must say it is broken, not that the
    # board has no solution ("exhausted"), whatever its limits, and a batch stops on it rather
    # than writing the row as exhausted. Before: SearchLimitError "stopped without a solution
    # (exhausted)", and the batch's row said "exhausted".
    crafted = pruning.machine((2, 5), "fsm").copy()
    change(crafted)
    pruning._kept.cache_clear()
    monkeypatch.setattr(pruning, "_read", lambda *args: crafted)
    board = fp.Board("1 2 3 4 5/6 7 8 _ 9")
    for limits in (None, fp.Limits(max_depth=30)):
        with pytest.raises(InternalError, match="internal defect: idastar tried every path"):
            fp.solve(board, limits=limits)
    with pytest.raises(InternalError, match="internal defect"):
        fp.search(board, algorithm="idastar", heuristic="manhattan")
    for boards in ([board], np.array([board.packed], dtype=np.uint64)):
        with pytest.raises(InternalError):
            fp.solve_many(boards, shape=(2, 5), workers=1)


def test_a_cache_that_cannot_be_written_costs_only_a_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A regular file where the directory should be: nothing can be written under it.
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("FASTPUZZLE_CACHE", str(blocked))
    pruning._kept.cache_clear()
    try:
        assert np.array_equal(pruning.machine((3, 3), 8), _expected(3, 3, 8))
    finally:
        pruning._kept.cache_clear()
    assert blocked.read_text() == ""


def test_no_cache_directory_keeps_the_machine_in_memory(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def nowhere(*args: object) -> str:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(pruning, "cache_root", nowhere)
    assert np.array_equal(pruning.machine((3, 3), 8), _expected(3, 3, 8))
    assert not list(cache.glob("fsm-*"))


@pytest.mark.parametrize(
    ("shape", "heuristic", "options"),
    [
        ((4, 4), "manhattan", {}),
        ((2, 5), "pdb", {"workers": 2}),
        ((5, 5), "linear_conflict", {}),
    ],
)
def test_a_search_fetches_its_machine_once(
    shape: tuple[int, int],
    heuristic: str,
    options: dict[str, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The machine is resolved as the search starts and travels with it to every kernel call.
    fetched: list[tuple[tuple[int, int], object]] = []
    fetch = pruning.machine

    def counted(
        box: tuple[int, int], prune: str | int, deadline: float | None = None
    ) -> np.ndarray | None:
        fetched.append((box, prune))
        return fetch(box, prune, deadline=deadline)

    monkeypatch.setattr(pruning, "machine", counted)
    board = fp.scramble(fp.Board.goal(shape), 30, rng=3)
    solution = fp.solve(board, algorithm="idastar", heuristic=heuristic, **options)
    assert board.apply(solution.moves) == fp.Board.goal(shape)
    assert fetched == [(shape, "fsm")]


def test_a_search_prepared_once_prunes_every_board_as_it_asks() -> None:
    # One preparation run on several boards (as a batch chunk runs it) carries the machine it
    # fetched: each board the same nodes as its own run(), and fewer than parent pruning's.
    boards = [fp.scramble(fp.Board.goal((4, 4)), 40, rng=seed) for seed in (8, 9, 10)]
    generated: dict[str, int] = {}
    for prune in ("fsm", "parent"):
        first = Request(make_problem(list(boards[0].tiles)), "manhattan", Limits(), prune=prune)
        prepared = idastar.prepare(first)
        assert (prepared.machine is None) == (prune == "parent")
        generated[prune] = 0
        for board in boards:
            problem = make_problem(list(board.tiles))
            alone = idastar.search(prepared, problem)
            started = idastar.run(first._replace(problem=problem))
            assert alone.depth == started.depth
            assert (alone.expanded, alone.generated) == (started.expanded, started.generated)
            generated[prune] += alone.generated
    assert generated["fsm"] < generated["parent"]


def test_a_deep_machine_is_built_within_the_search_time_limit_and_said(
    cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # 16 moves on 5x5 take about 11 s to build: a search with a 0.3 s limit stops building at
    # its deadline (a time-limit result, no file left), and the build is announced as it starts.
    board = fp.scramble(fp.Board.goal((5, 5)), 30, rng=2)
    with caplog.at_level("INFO", logger="fastpuzzle"):
        result = fp.search(
            board,
            algorithm="idastar",
            heuristic="linear_conflict",
            prune=16,
            limits=Limits(seconds=0.3),
        )
    assert result.status == fp.Status.TIME_LIMIT and result.solution is None
    assert "building the 16-move pruning machine of the 5x5 box" in caplog.text
    assert not list(cache.glob("fsm-*"))


def test_ctrl_c_stops_a_deep_machine_build(cache: Path) -> None:
    # The 16-move machine of the 5x5 box takes about 11 s to build, in a loop without the GIL:
    # Ctrl-C 0.3 s in used to wait for its end; the builder now looks every 16,384 strings.
    board = fp.scramble(fp.Board.goal((5, 5)), 30, rng=2)
    latency = latency_of(
        0.3,
        lambda: fp.search(board, algorithm="idastar", heuristic="linear_conflict", prune=16),
        "machine build",
    )
    assert latency < 5.0
    assert not list(cache.glob("fsm-*"))


def test_a_batch_threads_stop_event_stops_a_machine_build(cache: Path) -> None:
    # A batch stops its worker threads through an event (their Ctrl-C, see _interrupt.pyx).
    stop = threading.Event()
    stop.set()
    with pytest.raises(KeyboardInterrupt):
        _interrupt.run_stoppable(stop, pruning.machine, (5, 5), 16)
    assert not list(cache.glob("fsm-*"))
    # Unset, the same build (a shallow one here) runs to its end.
    stop.clear()
    codes, levels = _interrupt.run_stoppable(stop, _fsm.build, 3, 3, 10)
    fresh_codes, fresh_levels = _fsm.build(3, 3, 10)
    assert levels == fresh_levels and np.array_equal(codes, fresh_codes)


def test_a_deadline_already_past_stops_a_build_before_it_starts(cache: Path) -> None:
    with pytest.raises(_pdb.DeadlinePassed):
        _fsm.build(3, 3, 10, 0, time.monotonic() - 1)
    with pytest.raises(fp.pdb.BuildTimeLimitError, match="12-move pruning machine of the 3x3 box"):
        pruning.machine((3, 3), 12, deadline=time.monotonic() - 1)
    with pytest.raises(fp.pdb.BuildTimeLimitError, match="the pruning machine of the 3x3 box"):
        pruning.machine((3, 3), "fsm", deadline=time.monotonic() - 1)
    assert not list(cache.glob("fsm-*"))
    assert _fsm.build(3, 3, 10, 0, time.monotonic() + 600)[1] == _fsm.build(3, 3, 10)[1]


def _deep_redirected(table: np.ndarray, from_depth: int = 10) -> np.ndarray:
    # Issue 53, item 1: every move from a state first reached after ``from_depth`` or more moves
    # goes to the state of another first move instead: the same strings up to ``from_depth``
    # moves as the real machine, other ones past it.
    depth = np.full(len(table), -1)
    depth[0] = 0
    level = [0]
    while level:
        reached = {int(t) for s in level for t in table[s] if t >= 0 and depth[t] < 0}
        for state in reached:
            depth[state] = depth[level[0]] + 1
        level = sorted(reached)
    crafted = table.copy()
    for state in np.nonzero(depth >= from_depth)[0]:
        for move in range(4):
            if crafted[state, move] >= 0:
                crafted[state, move] = table[0, (move + 1) % 4]
    return crafted


def test_a_machine_wrong_only_past_ten_moves_is_not_trusted(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 53, item 1: the default 3x3 machine, its moves from states ten or more moves deep
    # redirected and the file signed as the cache signs it, was trusted (only strings of up to
    # 10 moves were compared): solve() answered 22 moves, optimal, for a 20-move board.
    genuine = _fsm.compile
    monkeypatch.setattr(_fsm, "compile", lambda codes: _deep_redirected(genuine(codes)))
    lying = pruning.machine((3, 3), "fsm")
    assert lying is not None and list(cache.glob("fsm-*.npy"))
    monkeypatch.setattr(_fsm, "compile", genuine)
    pruning._kept.cache_clear()
    board = fp.Board("7 4 5/8 _ 1/3 6 2")
    solution = fp.solve(board, heuristic="manhattan")
    assert solution.optimal and len(solution.moves) == distances_3x3()[board.tiles] == 20
    assert np.array_equal(pruning.machine((3, 3), "fsm"), _expected(3, 3, 16))
