"""Duplicate pruning by a finite-state machine (``_core._fsm`` and the IDA* kernels).

The machine is checked against a plain-Python reference written from the rule
(``tests/fsm_reference.py``): the same forbidden strings, an earlier twin with a box inside for
each, an automaton that forbids exactly the strings holding one. The kernels are checked against
outside answers: every 3x3 and 2x4 board's breadth-first distance, and the reference IDA*'s node
counts, node for node.
"""

from __future__ import annotations

import functools
import random
import threading

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._core import _fsm, _heuristics, _idastar, _interrupt, _wide_idastar
from fastpuzzle._solver import pruning
from tests import fsm_reference as ref
from tests.oracle import distances_3x3, distances_from, pack

MANHATTAN = _heuristics.HeuristicCode.H_MANHATTAN
SOLVED = 0


def _decode(code: int) -> str:
    moves = []
    while code > 1:
        moves.append("UDLR"[code & 3])
        code >>= 2
    return "".join(reversed(moves))


def _order(moves: str) -> tuple[int, list[int]]:
    # Strings by length, then by moves, U < D < L < R (the builder's order).
    return len(moves), ["UDLR".index(m) for m in moves]


def _machine(rows: int, cols: int, depth: int) -> np.ndarray:
    codes, _levels = _fsm.build(rows, cols, depth)
    return _fsm.compile(codes)


@pytest.mark.parametrize("box", [(3, 3), (2, 4), (4, 2), (2, 3), (1, 5)])
def test_forbidden_strings_equal_the_reference(box: tuple[int, int]) -> None:
    codes, levels = _fsm.build(*box, 11)
    assert [_decode(int(c)) for c in codes] == ref.forbidden_strings(*box, 11)
    assert levels[0] == 1 and len(levels) == 12


def test_parent_pruning_is_the_two_move_machine() -> None:
    codes, _ = _fsm.build(4, 4, 2)
    assert sorted(_decode(int(c)) for c in codes) == ["DU", "LR", "RL", "UD"]
    assert _machine(4, 4, 2).shape == (5, 4)


@pytest.mark.heavy
@pytest.mark.parametrize("box, depth", [((3, 3), 10), ((2, 4), 10), ((4, 4), 10)])
def test_every_forbidden_string_has_an_earlier_twin_inside_its_box(
    box: tuple[int, int], depth: int
) -> None:
    codes, _ = _fsm.build(*box, depth)
    forbidden = [_decode(int(c)) for c in codes]
    assert forbidden
    earlier: dict[object, list[str]] = {}
    by_length: dict[int, list[str]] = {}
    for moves in forbidden:
        by_length.setdefault(len(moves), []).append(moves)
    for length in range(depth + 1):
        for moves in ref.strings(length):
            earlier.setdefault(ref.effect(moves), []).append(moves)
    for moves in forbidden:
        twins = [
            t
            for t in earlier[ref.effect(moves)]
            if _order(t) < _order(moves) and ref.inside(ref.box(t), ref.box(moves))
        ]
        assert twins, moves


def test_the_automaton_forbids_exactly_the_strings_that_hold_a_forbidden_one() -> None:
    codes, _ = _fsm.build(3, 3, 10)
    forbidden = {_decode(int(c)) for c in codes}
    machine = _machine(3, 3, 10).tolist()
    checked = 0
    rng = random.Random(3)
    for length in range(1, 11):
        for moves in ref.strings(length):
            if length >= 9 and rng.random() > 0.2:
                continue
            assert ref.allowed(machine, moves) == (not ref.holds_forbidden(moves, forbidden))
            checked += 1
    assert checked > 20_000


def test_refuses_a_box_or_depth_out_of_range() -> None:
    with pytest.raises(ValueError, match="box"):
        _fsm.build(0, 3, 4)
    with pytest.raises(ValueError, match="depth"):
        _fsm.build(3, 3, 31)
    with pytest.raises(ValueError, match="at least one move"):
        _fsm.compile(np.array([1], dtype=np.uint64))


@pytest.mark.heavy
def test_every_3x3_board_optimal_with_the_machine() -> None:
    machine = _machine(3, 3, 14)
    for tiles, distance in distances_3x3().items():
        core = _idastar.idastar(pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN, machine=machine)
        assert core.status == SOLVED and core.depth == distance, tiles


@pytest.mark.parametrize("shape", [(2, 4), (4, 2)])
def test_every_rectangle_board_optimal_with_the_machine(shape: tuple[int, int]) -> None:
    rows, cols = shape
    goal = (*range(1, rows * cols), 0)
    machine = _machine(rows, cols, 16)
    for tiles, distance in distances_from(goal, rows, cols).items():
        core = _idastar.idastar(
            pack(tiles), tiles.index(0), rows, cols, rows * cols - 1, MANHATTAN, machine=machine
        )
        assert core.status == SOLVED and core.depth == distance, tiles


@pytest.mark.parametrize("box, depth", [((3, 3), 2), ((3, 3), 8), ((3, 3), 12)])
def test_kernel_counts_equal_the_reference_node_for_node(box: tuple[int, int], depth: int) -> None:
    codes, _ = _fsm.build(*box, depth)
    forbidden = frozenset(_decode(int(c)) for c in codes)
    machine = _fsm.compile(codes)
    boards = random.Random(depth).sample(sorted(distances_3x3()), 40)
    for tiles in boards:
        moves, counts = ref.ida_star(tiles, 3, 3, forbidden)
        core = _idastar.idastar(pack(tiles), tiles.index(0), 3, 3, 8, MANHATTAN, machine=machine)
        assert (core.moves, core.expanded, core.generated, core.iterations) == (
            moves,
            counts.expanded,
            counts.generated,
            counts.iterations,
        ), tiles


def test_wide_kernel_counts_equal_the_reference() -> None:
    # 5x5 boards a few dozen moves from the goal: the wide kernel (one uint16 a cell).
    codes, _ = _fsm.build(5, 5, 10)
    forbidden = frozenset(_decode(int(c)) for c in codes)
    machine = _fsm.compile(codes)
    rng = random.Random(11)
    goal = (*range(1, 25), 0)
    for _ in range(6):
        board = list(goal)
        for _step in range(24):
            blank = board.index(0)
            options = [t for t in (blank - 5, blank + 5) if 0 <= t < 25]
            options += [t for t in (blank - 1, blank + 1) if 0 <= t < 25 and t // 5 == blank // 5]
            target = rng.choice(options)
            board[blank], board[target] = board[target], 0
        tiles = tuple(board)
        moves, counts = ref.ida_star(tiles, 5, 5, forbidden)
        core = _wide_idastar.idastar(
            np.array(tiles, dtype=np.uint16),
            tiles.index(0),
            5,
            5,
            24,
            heuristic=MANHATTAN,
            machine=machine,
        )
        assert (len(core.moves), core.expanded, core.generated) == (
            len(moves),
            counts.expanded,
            counts.generated,
        ), tiles


def test_the_machine_prunes_nodes_on_random50_boards() -> None:
    # Not a speed claim: the same lengths with fewer nodes than parent pruning, board by board.
    from tests.instances import random50

    machine = _machine(4, 4, 12)
    easy = [i for i in random50() if i.manhattan_ida_nodes < 400_000][:5]
    assert easy
    for instance in easy:
        packed, blank = pack(instance.tiles), instance.tiles.index(0)
        parent = _idastar.idastar(packed, blank, 4, 4, 15, MANHATTAN)
        pruned = _idastar.idastar(packed, blank, 4, 4, 15, MANHATTAN, machine=machine)
        assert parent.generated == instance.manhattan_ida_nodes
        assert pruned.depth == parent.depth == instance.optimal_length
        assert pruned.generated < parent.generated


def _branching_factor(machine: np.ndarray, rows: int, cols: int, steps: int) -> float:
    # The brute-force tree's growth per level on a rows x cols board, averaged over the blank's
    # start cells: paths counted by (cell, machine state), level after level.
    cells = rows * cols
    counts = np.zeros((cells, machine.shape[0]))
    counts[:, 0] = 1.0
    totals = []
    for _ in range(steps):
        grown = np.zeros_like(counts)
        for direction, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            following = machine[:, direction]
            allowed = following >= 0
            for cell in range(cells):
                r, c = divmod(cell, cols)
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    target = (r + dr) * cols + c + dc
                    grown[target] += np.bincount(
                        following[allowed], counts[cell, allowed], minlength=machine.shape[0]
                    )
        counts = grown
        totals.append(counts.sum())
    # Odd and even levels alternate slightly: the mean growth over the last two.
    return float(np.sqrt(totals[-1] / totals[-3]))


@pytest.mark.heavy
def test_24_puzzle_branching_factors_are_taylor_and_korfs() -> None:
    # Taylor and Korf (1993): 2.368 with parent pruning, 2.249 with the duplicates up to 14
    # moves (a machine of 65,558 states; theirs counts its states otherwise).
    parent = _fsm.compile(_fsm.build(5, 5, 2)[0])
    fourteen = _machine(5, 5, 14)
    assert round(_branching_factor(parent, 5, 5, 30), 3) == 2.368
    assert round(_branching_factor(fourteen, 5, 5, 30), 3) == 2.249
    assert 60_000 < fourteen.shape[0] < 66_000


@pytest.mark.parametrize("shape", [(3, 9), (2, 13), (9, 3), (6, 5)])
def test_boards_larger_than_their_box_keep_their_lengths(shape: tuple[int, int]) -> None:
    # Past 25 cells (and on 6x5) the machine is a smaller box's: a string whose box fits it
    # fits the board too. Lengths are checked against parent pruning, the textbook search.
    assert pruning.box_of(shape) != shape
    for seed in range(3):
        board = fp.scramble(fp.Board.goal(shape), 40, rng=seed)
        found = {}
        for prune in ("parent", "fsm"):
            result = fp.search(board, algorithm="idastar", heuristic="linear_conflict", prune=prune)
            assert board.apply(result.unwrap().moves) == fp.Board.goal(shape)
            found[prune] = (len(result.unwrap()), result.stats.generated)
        assert found["fsm"][0] == found["parent"][0]
        assert found["fsm"][1] <= found["parent"][1]


def _code(moves: str) -> int:
    code = 1
    for move in moves:
        code = code * 4 + "UDLR".index(move)
    return code


@pytest.mark.parametrize("box, depth", [((3, 3), 10), ((2, 4), 10), ((4, 4), 9)])
def test_each_twin_the_builder_gives_proves_its_string_by_the_reference(
    box: tuple[int, int], depth: int
) -> None:
    # What a machine file carries so that it can be checked without a build (issue 53).
    codes, levels, twins = _fsm.build(*box, depth, twins=True)
    assert levels == _fsm.build(*box, depth)[1]
    for code, twin in zip(codes.tolist(), twins.tolist()):
        string, earlier = _decode(code), _decode(twin)
        assert _order(earlier) < _order(string)
        assert ref.effect(earlier) == ref.effect(string)
        assert ref.inside(ref.box(earlier), ref.box(string))
    assert _fsm.verify(*box, depth, codes, twins) == -1


@functools.cache
def _twin_outside_the_box() -> tuple[str, str]:
    # The first pair of strings of up to 10 moves (within a 3x3 box) of one effect, the earlier
    # one's box not inside the later one's (by the reference, not by the builder).
    seen: dict[object, list[str]] = {}
    for length in range(11):
        for moves in ref.strings(length):
            box = ref.box(moves)
            if box[1] - box[0] > 2 or box[3] - box[2] > 2:
                continue
            for earlier in seen.get(ref.effect(moves), []):
                if not ref.inside(ref.box(earlier), box):
                    return moves, earlier
            seen.setdefault(ref.effect(moves), []).append(moves)
    raise AssertionError("no such pair within 10 moves")


def test_verify_refuses_every_string_its_twin_does_not_prove() -> None:
    codes, _, twins = _fsm.build(3, 3, 10, twins=True)
    outside, earlier = _twin_outside_the_box()
    refused = {
        "another effect": ("RRDD", "DDRR"),
        "a later twin": ("DDRR", "RRDD"),
        "the twin's box outside": (outside, earlier),
        "wider than the box": ("RRRRLLLL", ""),
        "deeper than the machine": ("RDLURDLURDL", "RDLURDLURDU"),
        "no move": ("", ""),
    }
    for why, (string, twin) in refused.items():
        at = len(codes) // 2
        crafted = np.insert(codes, at, np.uint64(_code(string)))
        crafted_twins = np.insert(twins, at, np.uint64(_code(twin)))
        assert _fsm.verify(3, 3, 10, crafted, crafted_twins) == at, why
    assert ref.effect(outside) == ref.effect(earlier) and _order(earlier) < _order(outside)
    assert _fsm.verify(3, 3, 10, codes[:0], twins[:0]) == -1
    with pytest.raises(ValueError, match="a twin for each"):
        _fsm.verify(3, 3, 10, codes, twins[1:])


class _CountingEvent(threading.Event):
    # A stop event never set that counts how often a build looks at it.
    looks = 0

    def is_set(self) -> bool:
        self.looks += 1
        return False


def test_a_deep_build_looks_for_ctrl_c_while_its_table_grows() -> None:
    # Issue 53, item 7: the table of effects doubles when half full; on 16 moves of 5x5 its last
    # growth moves 32 million slots (1.3 to 4 s on a busy machine) with no look at Ctrl-C or
    # the deadline: only a look every 65,536 strings was made (now every 16,384, and every 2**20
    # slots of a growth). 4x4's 15-move machine grows it to 4 M slots.
    event = _CountingEvent()
    _, levels = _interrupt.run_stoppable(event, _fsm.build, 4, 4, 15)
    per_strings = sum(-(-count // 16_384) for count in levels[:-1])
    assert event.looks > per_strings
