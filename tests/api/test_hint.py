"""hint: every optimal first move, judged by breadth-first distances (3x3) and by the random50
table's lengths with a cross-checking search (4x4)."""

from __future__ import annotations

import random

import pytest

import fastpuzzle as fp
from tests.instances import random50
from tests.oracle import distances_3x3, distances_from, neighbours

MOVE_STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def _moved(tiles, move, cols):
    """The tiles after one blank move, or None off the board."""
    blank = tiles.index(0)
    row, col = divmod(blank, cols)
    dr, dc = MOVE_STEPS[move]
    r, c = row + dr, col + dc
    if not (0 <= r < len(tiles) // cols and 0 <= c < cols):
        return None
    cells = list(tiles)
    other = r * cols + c
    cells[blank], cells[other] = cells[other], 0
    return tuple(cells)


def test_three_hundred_3x3_boards_match_bfs():
    oracle = distances_3x3()
    boards = random.Random(57).sample(sorted(oracle), 300)
    # The hardest boards, where several first moves tie, are in too.
    boards += [tiles for tiles, distance in oracle.items() if distance == 31]
    for tiles in boards:
        # The helper's moves make the oracle's own neighbours.
        assert {_moved(tiles, m, 3) for m in "UDLR"} - {None} == set(neighbours(tiles, 3, 3))
        expected = tuple(
            move
            for move in "UDLR"
            if (after := _moved(tiles, move, 3)) is not None and oracle[after] == oracle[tiles] - 1
        )
        assert fp.hint(tiles) == expected, tiles
        assert expected  # every board but the goal has one


def test_the_goal_has_no_hint():
    assert fp.hint("1 2 3/4 5 6/7 8 _") == ()
    assert fp.hint("_ 1/2 3", "_ 1/2 3") == ()


def test_every_2x3_board_towards_another_goal_matches_bfs():
    goal = (0, 1, 2, 3, 4, 5)
    oracle = distances_from(goal, 2, 3)
    for tiles, distance in oracle.items():
        expected = tuple(
            move
            for move in "UDLR"
            if (after := _moved(tiles, move, 3)) is not None and oracle[after] == distance - 1
        )
        assert fp.hint(fp.Board(tiles, (2, 3)), fp.Board(goal, (2, 3))) == expected, tiles


def test_an_unsolvable_board_is_refused():
    with pytest.raises(fp.UnsolvableError, match="1 inversion"):
        fp.hint("1 2 3/4 5 6/8 7 _")


@pytest.mark.parametrize(
    "case",
    sorted(random50(), key=lambda case: case.manhattan_ida_nodes)[:3],
    ids=lambda case: case.name,
)
def test_easy_4x4_boards_of_random50(case):
    length = case.optimal_length
    expected = []
    for move in "UDLR":
        after = _moved(case.tiles, move, 4)
        if after is None:
            continue
        # IDA* with Manhattan distance, not solve's default: a second opinion on each
        # neighbour, bounded at the depth that decides it (one nearer than the table's length).
        found = fp.search(
            after,
            algorithm="idastar",
            heuristic="manhattan",
            limits=fp.Limits(max_depth=length - 1),
        )
        if found.status is fp.Status.SOLVED:
            assert len(found.solution) == length - 1 and found.solution.verify()
            expected.append(move)
        else:
            assert found.status is fp.Status.DEPTH_LIMIT
    assert expected
    assert fp.hint(case.tiles) == tuple(expected)
