"""Pictures and words of boards and solutions: SVG, a self-contained HTML playback, text.

Three parts: :func:`board_svg` draws a board; the summaries (:func:`solution_text`,
:func:`result_text`, :func:`result_html`) are how a search's outcome reads, ``str()`` and the
notebook card of :class:`~fastpuzzle.SearchResult` and :class:`~fastpuzzle.Solution`: a few
labelled lines (method, boards, moves, nodes, memory, time), long boards and move strings cut
with what was left out said; the playback (:func:`playback_html`) replays a solution in the
browser with :data:`REPLAY_JS`, the one replay text the puzzle page (:mod:`fastpuzzle.gui`)
uses too.

Imported only when a picture or a summary is asked for. Moves are U, D, L, R: the direction the
blank moves.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
from typing import TYPE_CHECKING

import numpy as np

from fastpuzzle._util.checks import whole
from fastpuzzle._util.units import duration, size
from fastpuzzle.board import Board, BoardLike, as_board, as_goal

if TYPE_CHECKING:
    from fastpuzzle.results import AnytimeStats, SearchResult, SearchStats, Solution

__all__ = [
    "COLOURS",
    "MAX_PIXELS",
    "PLAYER_SPEEDS",
    "REPLAY_JS",
    "board_rgb",
    "board_svg",
    "gap_words",
    "playback_fragment",
    "playback_html",
    "result_html",
    "result_repr",
    "result_text",
    "solution_lines",
    "solution_repr",
    "solution_steps_text",
    "solution_text",
    "stats_repr",
]

#: The most pixels a picture of :func:`board_rgb` has (768 MiB of RGB): its largest ``cell`` is
#: 5,461 for 3x3, 4,096 for 4x4, 163 for 100x100.
MAX_PIXELS = 1 << 28

_TILE_FILL = "#f4d58d"
_TILE_HOME_FILL = "#a8d5a2"
_STROKE = "#5b4a2f"
_BACKGROUND = "#3d3a35"

#: The colours of every picture of a board (SVG, RGB, and :mod:`fastpuzzle.pictures`' TikZ).
COLOURS = {"background": _BACKGROUND, "tile": _TILE_FILL, "home": _TILE_HOME_FILL, "ink": _STROKE}


def board_svg(board: BoardLike, *, cell: int = 48, goal: BoardLike | None = None) -> str:
    """An SVG picture of ``board``; tiles already on their ``goal`` cell are drawn green.

    Parameters
    ----------
    board : Board-like
        The board to draw: a :class:`~fastpuzzle.Board` or anything it takes.
    cell : int
        Side of one cell in pixels, at least 1.
    goal : Board-like, optional
        Goal used to colour tiles that are home (default: blank-last goal).

    Raises
    ------
    InvalidBoardError
        If ``board`` or ``goal`` is not a board, or the goal's shape is not the board's.
    InvalidOptionError
        If ``cell`` is not a whole number of at least 1.

    Examples
    --------
    >>> board_svg("1 2/3 _").startswith("<svg")
    True
    """
    board = as_board(board)
    target = as_goal(board, goal)
    cell = whole("cell", cell, low=1)
    gap = max(2, cell // 16)
    width, height = board.cols * cell + gap, board.rows * cell + gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(board.to_string())}">',
        f'<rect width="{width}" height="{height}" rx="{gap * 2}" fill="{_BACKGROUND}"/>',
    ]
    font = int(cell * (0.45 if board.size <= 10 else 0.4))
    for index, tile in enumerate(board.tiles):
        if tile == 0:
            continue
        row, col = divmod(index, board.cols)
        x, y = col * cell + gap, row * cell + gap
        fill = _TILE_HOME_FILL if target.tiles[index] == tile else _TILE_FILL
        size = cell - gap
        parts.append(
            f'<g class="tile"><rect x="{x}" y="{y}" width="{size}" height="{size}" '
            f'rx="{gap * 2}" fill="{fill}" stroke="{_STROKE}" stroke-width="1"/>'
            f'<text x="{x + size / 2:g}" y="{y + size / 2:g}" font-family="sans-serif" '
            f'font-size="{font}" font-weight="bold" fill="{_STROKE}" text-anchor="middle" '
            f'dominant-baseline="central">{tile}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def board_rgb(board: BoardLike, *, cell: int = 48, goal: BoardLike | None = None) -> np.ndarray:
    """An RGB picture of ``board``, drawn as :func:`board_svg` draws it, without a font.

    For video frames (the Gymnasium environment's ``render_mode="rgb_array"``): tiles are
    squares, green where they are home on ``goal``, their numbers drawn in a 3x5 pixel font
    scaled to the cell.

    Parameters
    ----------
    board : Board-like
        The board to draw: a :class:`~fastpuzzle.Board` or anything it takes.
    cell : int
        Side of one cell in pixels: at least 8, and at most what keeps the picture within
        :data:`MAX_PIXELS`.
    goal : Board-like, optional
        Goal used to colour tiles that are home (default: blank-last goal).

    Returns
    -------
    numpy.ndarray
        ``(board.rows * cell, board.cols * cell, 3)``, uint8.

    Raises
    ------
    InvalidBoardError
        If ``board`` or ``goal`` is not a board, or the goal's shape is not the board's.
    InvalidOptionError
        If ``cell`` is not a whole number in that range.

    Examples
    --------
    >>> board_rgb("1 2/3 _", cell=16).shape
    (32, 32, 3)
    """
    board = as_board(board)
    target = as_goal(board, goal)
    # The picture is rows * cols * cell**2 pixels of 3 bytes: bounded, as numpy's allocation
    # would not be.
    most = max(8, math.isqrt(MAX_PIXELS // board.size))
    size = whole("cell", cell, low=8, high=most, why=f"a picture of at most {MAX_PIXELS:,} pixels")
    image = np.empty((board.rows * size, board.cols * size, 3), dtype=np.uint8)
    image[:] = _rgb(_BACKGROUND)
    gap = max(1, size // 16)
    for index, tile in enumerate(board.tiles):
        if tile == 0:
            continue
        row, col = divmod(index, board.cols)
        y, x = row * size, col * size
        home = target.tiles[index] == tile
        image[y + gap : y + size - gap, x + gap : x + size - gap] = _rgb(
            _TILE_HOME_FILL if home else _TILE_FILL
        )
        _draw_number(image[y : y + size, x : x + size], tile, _rgb(_STROKE))
    return image


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


# Digits 0-9 in 3x5 pixels, row by row ("#" = ink).
_DIGITS = [
    np.array([[ch == "#" for ch in line] for line in glyph.split("/")], dtype=bool)
    for glyph in (
        "###/#.#/#.#/#.#/###",
        ".#./##./.#./.#./###",
        "###/..#/###/#../###",
        "###/..#/###/..#/###",
        "#.#/#.#/###/..#/..#",
        "###/#../###/..#/###",
        "###/#../###/#.#/###",
        "###/..#/..#/..#/..#",
        "###/#.#/###/#.#/###",
        "###/#.#/###/..#/###",
    )
]


def _draw_number(cell: np.ndarray, number: int, ink: tuple[int, int, int]) -> None:
    """Draw ``number`` centred in ``cell`` (a square view of the picture), as large as fits."""
    glyphs = [_DIGITS[int(digit)] for digit in str(number)]
    # Each digit 3 pixels and a space of 1, 5 pixels high; the text fills at most 60 % of the cell.
    columns = 4 * len(glyphs) - 1
    scale = max(1, int(0.6 * len(cell) / max(columns, 5)))
    text = np.zeros((5, columns), dtype=bool)
    for place, glyph in enumerate(glyphs):
        text[:, 4 * place : 4 * place + 3] = glyph
    big = np.kron(text, np.ones((scale, scale), dtype=bool))
    top = (len(cell) - big.shape[0]) // 2
    left = (cell.shape[1] - big.shape[1]) // 2
    cell[top : top + big.shape[0], left : left + big.shape[1]][big] = ink


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
    kind = "optimal" if solution.optimal else f"not guaranteed shortest; {gap_words(solution)}"
    return f"{len(solution):,} move{'s' * (len(solution) != 1)} ({kind})"


def gap_words(solution: Solution | AnytimeStats) -> str:
    """``"lower bound 230, gap 2.84x"``: how far from optimal a solution (or the anytime
    solver's best so far) may be."""
    return f"lower bound {solution.lower_bound:,}, gap {solution.gap:.3g}x"


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
    fields = ", ".join(
        f"{field.name}={stats.seconds:.4g}"
        if field.name == "seconds"
        else f"{field.name}={getattr(stats, field.name)!r}"
        for field in dataclasses.fields(stats)
        if field.repr
    )
    return f"{type(stats).__name__}({fields})"


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
    picture = board_svg(result.board, cell=28, goal=result.goal) if result.board.size <= 64 else ""
    return f"<div>{title}<table>{_rows_html(lines)}</table>{picture}</div>"


def solution_steps_text(solution: Solution) -> str:
    """Every board of ``solution`` as text, one step after another, with the move made."""
    boards = solution.boards()
    tiles = solution.tiles_moved()
    out = [f"start\n{boards[0]}"]
    for step, (move, tile, board) in enumerate(zip(solution.moves, tiles, boards[1:]), start=1):
        out.append(f"step {step}/{len(solution)}: blank {_WORDS[move]} (tile {tile})\n{board}")
    return "\n\n".join(out)


_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}

#: ``fastpuzzleReplay(view)``: ``view.moves()`` gives the move string, ``view.slide(move)``
#: plays one move on the board shown, ``view.shown(step)`` is called after every jump and
#: ``view.playing(on)`` when playing starts or stops. Returns ``go(step)``, ``stop()``,
#: ``play(movesPerSecond)`` (a second call pauses), ``reset()``, ``step()`` and ``playing()``.
REPLAY_JS = """
function fastpuzzleReplay(view){
 const back={U:"D",D:"U",L:"R",R:"L"};
 let step=0, timer=null;
 function go(s){
  const moves=view.moves();
  s=Math.max(0,Math.min(moves.length,s));
  while(step<s){view.slide(moves[step]);step++;}
  while(step>s){step--;view.slide(back[moves[step]]);}
  view.shown(step);
 }
 function stop(){
  if(timer){clearInterval(timer);timer=null;}
  view.playing(false);
 }
 function play(perSecond){
  if(timer){stop();return;}
  if(step>=view.moves().length)go(0);
  view.playing(true);
  // Ticks of at least 16 ms, each playing as many moves as the speed asks for.
  const every=Math.max(16,1000/perSecond), perTick=Math.max(1,Math.round(perSecond*every/1000));
  timer=setInterval(function(){
   if(step>=view.moves().length)stop();else go(step+perTick);
  },every);
 }
 return {go:go, stop:stop, play:play,
  reset:function(){stop();step=0;},
  step:function(){return step;},
  playing:function(){return timer!==null;}};
}
"""

_PLAYER_STYLE = """
.fp-player{font-family:sans-serif;display:inline-block;padding:8px;color:#222;max-width:100%}
.fp-grid{display:grid;background:#3d3a35;padding:4px;border-radius:8px;width:max-content}
.fp-cell{border-radius:3px;display:flex;align-items:center;justify-content:center;
 font-weight:bold;color:#5b4a2f;overflow:hidden}
.fp-tile{background:#f4d58d}.fp-home{background:#a8d5a2}
.fp-controls{margin-top:8px;display:flex;gap:4px;align-items:center;flex-wrap:wrap}
.fp-controls button{min-width:2.5em}
.fp-stats{border-collapse:collapse;margin-top:8px;font-size:13px;max-width:60em}
.fp-stats td{padding:1px 8px 1px 0;vertical-align:top}
.fp-moves{font-family:monospace;overflow-wrap:anywhere;word-break:break-all;
 max-height:8em;overflow-y:auto;display:block}
"""

#: Speeds of the player, in moves per second; ``#play`` in the page's address uses the fastest.
PLAYER_SPEEDS = (1, 2.5, 5, 10, 25, 100, 1000, 10000)

# The page carries the start, the goal and the moves; the browser replays the moves, updating
# only the two cells a move changes (a 100x100 solution has millions of moves: embedding every
# board made a 20x20 solution's page 36 MB).
_PLAYER_SCRIPT = """
(function(){
 const root=document.getElementById(%(id)s);
 const data=JSON.parse(root.querySelector('script[type="application/json"]').textContent);
 const grid=root.querySelector('.fp-grid'), label=root.querySelector('.fp-step');
 const slider=root.querySelector('input[type=range]'), speed=root.querySelector('.fp-speed');
 const moves=data.moves, total=moves.length, cols=data.cols, board=data.start.slice();
 const goalKey=data.goal.join(' ');
 const delta={U:-cols,D:cols,L:-1,R:1};
 const size=Math.max(8,Math.min(44,Math.floor(640/cols)));
 let blank=board.indexOf(0);
 grid.style.gridTemplateColumns='repeat('+cols+', '+size+'px)';
 grid.style.gap=(size>=20?4:1)+'px';
 const cells=board.map(function(){
  const c=document.createElement('div');
  c.className='fp-cell';
  c.style.width=c.style.height=size+'px';
  c.style.fontSize=Math.max(5,Math.floor(size*0.45))+'px';
  grid.appendChild(c);
  return c;
 });
 function paint(i){
  const tile=board[i], c=cells[i];
  c.className='fp-cell'+(tile?(tile===data.goal[i]?' fp-tile fp-home':' fp-tile'):'');
  c.textContent=tile?String(tile):'';
  c.dataset.tile=String(tile);
 }
 function slide(m){
  const target=blank+delta[m];
  board[blank]=board[target];board[target]=0;
  paint(blank);paint(target);blank=target;
 }
 function show(step){
  const move=step?moves[step-1]:'';
  label.textContent='step '+step+'/'+total+(move?' ('+move+')':'');
  slider.value=String(step);
  root.dataset.step=String(step);
  root.dataset.atGoal=String(board.join(' ')===goalKey);
 }
 %(replay)s
 const replay=fastpuzzleReplay({
  moves:function(){return moves;},
  slide:slide,
  shown:show,
  playing:function(on){root.querySelector('.fp-play').textContent=on?'pause':'play';}
 });
 function play(){replay.play(parseFloat(speed.value));}
 function jump(to){return function(){replay.stop();replay.go(to());};}
 root.querySelector('.fp-first').onclick=jump(function(){return 0;});
 root.querySelector('.fp-prev').onclick=jump(function(){return replay.step()-1;});
 root.querySelector('.fp-next').onclick=jump(function(){return replay.step()+1;});
 root.querySelector('.fp-last').onclick=jump(function(){return total;});
 root.querySelector('.fp-play').onclick=play;
 speed.onchange=function(){if(replay.playing()){replay.stop();play();}};
 slider.max=String(total);
 slider.oninput=function(){replay.stop();replay.go(parseInt(slider.value,10));};
 root.querySelector('.fp-moves').textContent=total?moves:'(none)';
 board.forEach(function(_,i){paint(i);});
 show(0);
 const hash=window.location.hash;
 if(hash==='#play'){speed.value=speed.options[speed.options.length-1].value;play();}
 else if(hash==='#last'){replay.go(total);}
})();
"""

#: Boards up to this many cells also get small start and goal pictures.
_THUMBNAIL_CELLS = 64


def playback_fragment(
    solution: Solution, *, element_id: str = "fp-player", delay_ms: int = 400
) -> str:
    """An HTML fragment (no network access needed) that steps and plays through ``solution``.

    It carries the start, the goal and the moves; the browser replays them, so its size grows
    by a byte a move (a 100x100 solution's page stays a few megabytes). ``delay_ms`` picks the
    starting speed (the nearest of :data:`PLAYER_SPEEDS`); the page has a speed control.
    """
    data = {
        "cols": solution.board.cols,
        "start": list(solution.board.tiles),
        "moves": solution.moves,
        "goal": list(solution.goal.tiles),
    }
    # The summary's lines (times and sizes in their units) but the boards, drawn above, and the
    # moves, which get their own cell.
    rows = [("length", f"{len(solution):,}{' (optimal)' if solution.optimal else ''}")] + [
        (label, value)
        for label, value in solution_lines(solution)
        if label not in ("board", "goal", "moves")
    ]
    # The moves cell is filled from the data by the script: the page holds the moves once.
    table = '<tr><td>moves</td><td><span class="fp-moves"></span></td></tr>'
    table += "".join(
        f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows
    )
    wanted = 1000 / max(delay_ms, 1)
    chosen = min(PLAYER_SPEEDS, key=lambda speed: abs(speed - wanted))
    options = "".join(
        f'<option value="{speed:g}"{" selected" if speed == chosen else ""}>'
        f"{speed:g} moves/s</option>"
        for speed in PLAYER_SPEEDS
    )
    thumbnails = ""
    if solution.board.size <= _THUMBNAIL_CELLS:
        thumbnails = (
            '<div style="display:flex;gap:16px;align-items:flex-start">'
            f"<div><div>start</div>{board_svg(solution.board, cell=28, goal=solution.goal)}</div>"
            f"<div><div>goal</div>{board_svg(solution.goal, cell=28, goal=solution.goal)}</div>"
            "</div>"
        )
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (
        f'<div class="fp-player" id="{html.escape(element_id)}">'
        f"<style>{_PLAYER_STYLE}</style>"
        f'<script type="application/json">{payload}</script>'
        f"{thumbnails}"
        '<div class="fp-grid"></div>'
        '<div class="fp-controls"><button class="fp-first">|&lt;</button>'
        '<button class="fp-prev">&lt;</button><button class="fp-play">play</button>'
        '<button class="fp-next">&gt;</button><button class="fp-last">&gt;|</button>'
        f'<select class="fp-speed" title="speed">{options}</select>'
        '<input type="range" min="0" value="0"><span class="fp-step"></span></div>'
        f'<table class="fp-stats">{table}</table>'
        f"<script>{_PLAYER_SCRIPT % {'id': json.dumps(element_id), 'replay': REPLAY_JS}}"
        "</script></div>"
    )


def playback_html(solution: Solution, *, title: str | None = None, delay_ms: int = 400) -> str:
    """A complete, self-contained HTML page that plays ``solution`` step by step.

    Opening the page with ``#play`` plays it at once at the fastest speed; ``#last`` jumps to
    the goal.
    """
    heading = title or f"fastpuzzle: {len(solution)} moves"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(heading)}</title></head><body>"
        f'<h1 style="font-family:sans-serif;font-size:18px">{html.escape(heading)}</h1>'
        f"{playback_fragment(solution, delay_ms=delay_ms)}</body></html>"
    )
