"""How a search's outcome reads: ``str()`` and the notebook card of SearchResult and Solution.

A few labelled lines (method, boards, moves, nodes, memory, time) rather than the dataclass's
one nested line; long boards and move strings are cut, with what was left out said. Moves are
U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from fastpuzzle._units import duration, size

if TYPE_CHECKING:
    from fastpuzzle.board import Board
    from fastpuzzle.results import SearchResult, SearchStats, Solution

__all__ = [
    "result_html",
    "result_repr",
    "result_text",
    "solution_lines",
    "solution_repr",
    "solution_text",
    "stats_repr",
]

#: Boards and moves longer than this are cut in a one-line ``repr``.
REPR_CHARS = 32


def _short(text: str) -> str:
    return text if len(text) <= REPR_CHARS else f"{text[: REPR_CHARS - 1]}…"


def _brief(stats: SearchStats) -> str:
    return f"{stats.expanded:,} expanded, {duration(stats.seconds)}"


def solution_repr(solution: Solution) -> str:
    """One short line for a terminal: ``<Solution: 31 moves RULL… (optimal, idastar +
    manhattan) from '8 6 7/2 5 4/3 _ 1'; 31 expanded, 30.0 µs>``."""
    kind = "optimal" if solution.optimal else "not guaranteed optimal"
    return (
        f"<Solution: {len(solution):,} moves {_short(solution.moves) or '(none)'} ({kind}, "
        f"{_method(solution.algorithm, solution.heuristic)}) from "
        f"{_short(solution.board.to_string())!r}; {_brief(solution.stats)}>"
    )


def result_repr(result: SearchResult) -> str:
    """One short line: ``<SearchResult: solved, 14 moves (bfs) from '5 2 3/4 1 8/_ 7 6';
    178 expanded, 61.0 µs>``, or the status that stopped it."""
    found = "" if result.solution is None else f", {len(result.solution):,} moves"
    return (
        f"<SearchResult: {result.status.value}{found} "
        f"({_method(result.algorithm, result.heuristic)}) from "
        f"{_short(result.board.to_string())!r}; {_brief(result.stats)}>"
    )


def stats_repr(stats: SearchStats) -> str:
    """The dataclass's line with the time to 4 significant digits (the clock's own precision
    is no finer): ``seconds=2.995e-05``, not ``seconds=2.994599981320789e-05``."""
    return (
        f"SearchStats(expanded={stats.expanded}, generated={stats.generated}, "
        f"max_frontier={stats.max_frontier}, peak_memory_bytes={stats.peak_memory_bytes}, "
        f"seconds={stats.seconds:.4g}, depth={stats.depth}, iterations={stats.iterations}, "
        f"peak_allocated_bytes={stats.peak_allocated_bytes})"
    )


#: Boards and move strings longer than this are cut in a summary.
SHOWN_CHARS = 64


def _cut(text: str, what: str) -> str:
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[:SHOWN_CHARS]}… ({len(text) - SHOWN_CHARS:,} more {what})"


def _board(board: Board) -> str:
    text = board.to_string()
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[:SHOWN_CHARS]}… ({board.rows}x{board.cols})"


def _method(algorithm: str, heuristic: str | None) -> str:
    return f"{algorithm} + {heuristic}" if heuristic else algorithm


def _figures(stats: SearchStats) -> list[tuple[str, str]]:
    return [
        ("nodes", f"{stats.expanded:,} expanded, {stats.generated:,} generated"),
        ("memory", f"{size(stats.peak_memory_bytes)} of nodes stored"),
        ("time", duration(stats.seconds)),
    ]


def _length(solution: Solution) -> str:
    kind = "optimal" if solution.optimal else "not guaranteed shortest"
    return f"{len(solution):,} move{'s' * (len(solution) != 1)} ({kind})"


def solution_lines(solution: Solution) -> list[tuple[str, str]]:
    """The labelled lines of a solution: method, boards, moves and what the search did."""
    return [
        ("method", _method(solution.algorithm, solution.heuristic)),
        ("board", _board(solution.board)),
        ("goal", _board(solution.goal)),
        ("moves", _cut(solution.moves, "moves") or "(none: the board is the goal)"),
        *_figures(solution.stats),
    ]


def _lines(result: SearchResult) -> tuple[str, list[tuple[str, str]]]:
    """The heading and labelled lines of a search's outcome."""
    if result.solution is not None:
        return f"solved: {_length(result.solution)}", solution_lines(result.solution)
    stats = result.stats
    lines = [
        ("method", _method(result.algorithm, result.heuristic)),
        ("board", _board(result.board)),
        ("goal", _board(result.goal)),
        ("reached", f"depth {stats.depth}" if stats.depth >= 0 else "-"),
        *_figures(stats),
    ]
    return f"no solution: stopped by {result.status}", lines


def _text(title: str, lines: list[tuple[str, str]]) -> str:
    width = max(len(label) for label, _ in lines)
    return "\n".join([title, *(f"  {label.ljust(width)}  {value}" for label, value in lines)])


def result_text(result: SearchResult) -> str:
    """``str()`` of a :class:`~fastpuzzle.SearchResult`."""
    heading, lines = _lines(result)
    return _text(f"SearchResult, {heading}", lines)


def solution_text(solution: Solution) -> str:
    """``str()`` of a :class:`~fastpuzzle.Solution`."""
    return _text(f"Solution: {_length(solution)}", solution_lines(solution))


def _rows_html(lines: list[tuple[str, str]]) -> str:
    return "".join(
        f'<tr><th style="text-align:left;padding-right:1em">{html.escape(label)}</th>'
        f'<td style="text-align:left">{html.escape(value)}</td></tr>'
        for label, value in lines
    )


def result_html(result: SearchResult) -> str:
    """The notebook card of a :class:`~fastpuzzle.SearchResult`: its heading, then the
    solution's player (which lists its figures) or, unsolved, its lines and start board."""
    heading, lines = _lines(result)
    title = f"<div><b>SearchResult</b>, {html.escape(heading)}</div>"
    if result.solution is not None:
        return f"<div>{title}{result.solution._repr_html_()}</div>"
    from fastpuzzle.render import board_svg

    picture = board_svg(result.board, cell=28, goal=result.goal) if result.board.size <= 64 else ""
    return f"<div>{title}<table>{_rows_html(lines)}</table>{picture}</div>"
