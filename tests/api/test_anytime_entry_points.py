"""The anytime near-optimal solver everywhere a user meets it (issue 55, item 1): ``search()``,
``solve_many``, the command line, the page.

Every budget is a node limit, so that no assertion depends on the machine's speed. Each answer
must replay to the goal, be no longer than the constructive answer, and carry a lower bound at
least the start's Manhattan distance (computed here, not by the library).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle._solver.constructive import solve_fast
from fastpuzzle._solver.search_line import SearchLine
from fastpuzzle.cli import main
from fastpuzzle.errors import InvalidOptionError
from fastpuzzle.results import AnytimeStats
from tests.fsm_reference import manhattan

#: Expansions a board: enough for the schedule to shorten the first answer of a 6x6 board.
NODES = 100_000
#: Enough for several reports on that board, the bound rising among them (0.1 s).
PROGRESS_NODES = 1_000_000


def _board() -> fp.Board:
    return fp.random_board((6, 6), rng=2)


def _manhattan(board: fp.Board) -> int:
    """Manhattan distance to the standard goal, counted here from the tiles."""
    return manhattan(board.tiles, board.shape[1])


def _check(board: fp.Board, moves: str, lower_bound: int) -> None:
    assert board.apply(moves) == fp.Board.goal(board.shape)
    assert _manhattan(board) <= lower_bound <= len(moves)
    assert len(moves) <= len(solve_fast(board))


def test_search_anytime_gives_the_anytime_answer_with_its_bound():
    board = _board()
    result = fp.search(board, algorithm="anytime", limits=fp.Limits(nodes=NODES))
    assert result.status is fp.Status.SOLVED and result.algorithm == "anytime"
    solution = result.solution
    assert solution is not None
    _check(board, solution.moves, solution.lower_bound)
    assert len(solution) < len(solve_fast(board))
    assert solution.gap == len(solution) / solution.lower_bound
    # The same answer as solve(optimal=False): a node limit makes the schedule repeatable.
    same = fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES))
    assert (same.moves, same.lower_bound) == (solution.moves, solution.lower_bound)


def test_search_anytime_without_limits_is_the_constructive_answer():
    board = _board()
    result = fp.search(board, algorithm="Anytime")
    assert result.solved and result.solution is not None
    assert result.solution.moves == solve_fast(board).moves


def test_search_anytime_refuses_method_options():
    for option in ({"heuristic": "manhattan"}, {"weight": 2.0}, {"prune": "fsm"}):
        with pytest.raises(InvalidOptionError, match="algorithm='anytime' picks its own"):
            fp.search(_board(), algorithm="anytime", **option)


def test_progress_reports_carry_the_solvers_own_bound():
    board = _board()
    reports: list[AnytimeStats] = []
    solution = fp.solve(
        board,
        optimal=False,
        limits=fp.Limits(nodes=PROGRESS_NODES),
        progress=reports.append,
        # The schedule's own nodes, none given to a second thread.
        workers=1,
    )
    assert len(reports) >= 2 and all(isinstance(report, AnytimeStats) for report in reports)
    bounds = [report.lower_bound for report in reports]
    assert bounds == sorted(bounds) and _manhattan(board) <= bounds[0] < bounds[-1]
    assert bounds[-1] <= solution.lower_bound
    assert [report.depth for report in reports] == sorted(
        (report.depth for report in reports), reverse=True
    )
    assert reports[-1].depth == len(solution)


def test_the_progress_line_shows_best_length_bound_and_gap(capsys):
    # A fake clock: the reports' own seconds decide when a line is due (once a second off a
    # terminal).
    line = SearchLine((6, 6), 35, hint=False, terminal=False)
    line.show(AnytimeStats(expanded=1_234, seconds=0.0, depth=150, lower_bound=100))
    line.show(AnytimeStats(expanded=5_000, seconds=0.5, depth=140, lower_bound=101))
    line.show(AnytimeStats(expanded=90_000, seconds=1.5, depth=130, lower_bound=104))
    line.close()
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "  best 150 moves (lower bound 100, gap 1.5x), 1,234 expanded, 0 s",
        "  best 130 moves (lower bound 104, gap 1.25x), 90,000 expanded, 1.50 s",
    ]


_LINE = re.compile(
    r"^  best (?P<length>[\d,]+) moves \(lower bound (?P<bound>[\d,]+), gap (?P<gap>[\d.]+)x\), "
    r"[\d,]+ expanded, "
)


def test_cli_fast_with_a_node_limit_shows_the_best_and_its_gap(capsys):
    board = _board()
    code = main(["solve", "--fast", "--node-limit", str(NODES), "--progress", board.to_string()])
    assert code == 0
    captured = capsys.readouterr()
    shown = [_LINE.match(text) for text in captured.err.splitlines()]
    assert shown and all(shown), captured.err
    moves, figures = captured.out.splitlines()[:2]
    solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES))
    assert moves == solution.moves
    _check(board, moves, solution.lower_bound)
    assert f"lower bound {solution.lower_bound}," in figures and "anytime" in figures
    for match in shown:
        assert match is not None
        length, bound = int(match["length"].replace(",", "")), int(match["bound"])
        assert len(moves) <= length and _manhattan(board) <= bound <= solution.lower_bound
        assert float(match["gap"]) == pytest.approx(length / bound, rel=1e-2)


def test_cli_seconds_is_fast_with_a_time_limit(capsys):
    board = _board()
    assert main(["solve", "--seconds", "0.2", board.to_string()]) == 0
    moves, figures = capsys.readouterr().out.splitlines()[:2]
    assert board.apply(moves) == fp.Board.goal((6, 6)) and "lower bound" in figures
    assert len(moves) <= len(solve_fast(board))
    assert main(["solve", "--seconds", "1", "--time-limit", "2", board.to_string()]) == 2
    assert "--seconds is --fast --time-limit: pass one of them" in capsys.readouterr().err


def test_solve_many_gives_each_board_the_anytime_answer_with_its_bound(tmp_path):
    boards = [fp.random_board((6, 6), rng=seed) for seed in (2, 3)]
    limits = fp.Limits(nodes=NODES)
    batch = fp.solve_many(boards, optimal=False, limits=limits, workers=2, out=tmp_path / "rows")
    # Each board of a batch on one thread.
    alone = [fp.solve(board, optimal=False, limits=limits, workers=1) for board in boards]
    for board, solution, moves, bound, gap in zip(
        boards, alone, batch.moves, batch.lower_bounds, batch.gaps
    ):
        # Each board its own budget: the same answer as alone under the same limits.
        assert (moves, int(bound)) == (solution.moves, solution.lower_bound)
        _check(board, moves, int(bound))
        assert gap == pytest.approx(solution.gap)
    records = batch.to_records()
    assert [record["lower_bound"] for record in records] == [s.lower_bound for s in alone]
    written = []
    for part in sorted((tmp_path / "rows").glob("part-*.csv")):
        header, *rows = part.read_text().splitlines()
        assert header.startswith("index,board,length,lower_bound,status,")
        written += [int(row.split(",")[3]) for row in rows]
    assert written == [s.lower_bound for s in alone]


def test_an_optimal_batch_bounds_each_row_by_its_length():
    batch = fp.solve_many(["1 2 3/4 5 6/_ 7 8", "1 2 3/4 5 6/8 7 _"], shape=(3, 3))
    assert batch.lower_bounds.tolist() == [2, -1] and batch.gaps[0] == 1.0
    assert np.isnan(batch.gaps[1])
    assert [record["lower_bound"] for record in batch.to_records()] == [2, None]


def test_cli_batch_fast_gives_each_board_the_anytime_answer(tmp_path, capsys):
    boards = [fp.random_board((6, 6), rng=seed) for seed in (2, 3)]
    source = tmp_path / "boards.txt"
    source.write_text("".join(board.to_string() + "\n" for board in boards))
    assert main(["batch", "--fast", "--node-limit", str(NODES), str(source)]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.startswith("index,board,length,lower_bound,status,")
    for board, row in zip(boards, rows):
        fields = row.split(",")
        solution = fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES), workers=1)
        assert (fields[8], int(fields[3])) == (solution.moves, solution.lower_bound)
        _check(board, fields[8], int(fields[3]))


def test_max_depth_bounds_the_answer_of_every_entry_point(tmp_path):
    # Limits(max_depth=) was dropped without a word by optimal=False, search(algorithm=
    # "anytime"), `fastpuzzle solve --fast` and `fastpuzzle batch --fast`: each answered 380
    # moves under max_depth=3.
    board = _board()
    below = fp.Limits(nodes=NODES, max_depth=_manhattan(board) - 1)
    for limits in (fp.Limits(max_depth=3), below):
        with pytest.raises(fp.DepthLimitError, match=r"max_depth=\d+"):
            fp.solve(board, optimal=False, limits=limits)
        assert fp.search(board, algorithm="anytime", limits=limits).status is fp.Status.DEPTH_LIMIT
    # A bound at the answer's own length keeps it.
    free = fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES))
    kept = fp.solve(board, optimal=False, limits=fp.Limits(nodes=NODES, max_depth=len(free)))
    assert kept.moves == free.moves
    assert main(["solve", "--fast", "--max-depth", "3", board.to_string()]) == 1
    source = tmp_path / "one.txt"
    source.write_text(board.to_string() + "\n")
    out = tmp_path / "out.csv"
    main(["batch", "--fast", "--node-limit", str(NODES), "--max-depth", "3", str(source),
          "--out", str(out)])  # fmt: skip
    assert ",depth_limit," in out.read_text()
