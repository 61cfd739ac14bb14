"""Pictures of boards and solutions: SVG, a self-contained HTML playback, terminal text.

Imported only when a picture is asked for. Moves are U, D, L, R: the direction the blank moves.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING

# Public here too (it is in __all__): render owned it before _files took over atomic writes.
from fastpuzzle._files import write_text_atomically
from fastpuzzle.board import Board

if TYPE_CHECKING:
    from fastpuzzle.results import Solution

__all__ = ["board_svg", "playback_html", "solution_steps_text", "write_text_atomically"]

_TILE_FILL = "#f4d58d"
_TILE_HOME_FILL = "#a8d5a2"
_STROKE = "#5b4a2f"
_BACKGROUND = "#3d3a35"


def board_svg(board: Board, *, cell: int = 48, goal: Board | None = None) -> str:
    """An SVG picture of ``board``; tiles already on their ``goal`` cell are drawn green.

    Parameters
    ----------
    board : Board
        The board to draw.
    cell : int
        Side of one cell in pixels.
    goal : Board, optional
        Goal used to colour tiles that are home (default: blank-last goal).
    """
    target = goal if goal is not None else Board.goal(board.shape)
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


def solution_steps_text(solution: Solution) -> str:
    """Every board of ``solution`` as text, one step after another, with the move made."""
    boards = solution.boards()
    tiles = solution.tiles_moved()
    out = [f"start\n{boards[0]}"]
    for step, (move, tile, board) in enumerate(zip(solution.moves, tiles, boards[1:]), start=1):
        out.append(f"step {step}/{len(solution)}: blank {_WORDS[move]} (tile {tile})\n{board}")
    return "\n\n".join(out)


_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}

_PLAYER_STYLE = """
.fp-player{font-family:sans-serif;display:inline-block;padding:8px;color:#222}
.fp-grid{display:grid;gap:4px;background:#3d3a35;padding:4px;border-radius:8px;width:max-content}
.fp-cell{width:44px;height:44px;border-radius:6px;display:flex;align-items:center;
 justify-content:center;font-weight:bold;font-size:20px;color:#5b4a2f}
.fp-tile{background:#f4d58d}.fp-home{background:#a8d5a2}
.fp-controls{margin-top:8px;display:flex;gap:4px;align-items:center}
.fp-controls button{min-width:2.5em}
.fp-stats{border-collapse:collapse;margin-top:8px;font-size:13px}
.fp-stats td{padding:1px 8px 1px 0}
"""

_PLAYER_SCRIPT = """
(function(){
 const root=document.getElementById(%(id)s);
 const data=JSON.parse(root.querySelector('script[type="application/json"]').textContent);
 const grid=root.querySelector('.fp-grid'), label=root.querySelector('.fp-step');
 const slider=root.querySelector('input[type=range]');
 let step=0, timer=null;
 grid.style.gridTemplateColumns='repeat('+data.cols+', 44px)';
 function draw(){
  grid.textContent='';
  data.boards[step].forEach(function(tile,i){
   const c=document.createElement('div');
   c.className='fp-cell'+(tile?(tile===data.goal[i]?' fp-tile fp-home':' fp-tile'):'');
   c.textContent=tile?String(tile):'';
   c.dataset.tile=String(tile);
   grid.appendChild(c);
  });
  const move=step?data.moves[step-1]:'';
  label.textContent='step '+step+'/'+data.moves.length+(move?' ('+move+')':'');
  slider.value=String(step);
  root.dataset.step=String(step);
  root.dataset.atGoal=String(data.boards[step].join(' ')===data.goal.join(' '));
 }
 function go(s){step=Math.max(0,Math.min(data.moves.length,s));draw();}
 function stop(){
  if(timer){clearInterval(timer);timer=null;}
  root.querySelector('.fp-play').textContent='play';
 }
 function play(){
  if(timer){stop();return;}
  if(step>=data.moves.length)go(0);
  root.querySelector('.fp-play').textContent='pause';
  timer=setInterval(function(){
   if(step>=data.moves.length){stop();}else{go(step+1);}
  },data.delay);
 }
 root.querySelector('.fp-first').onclick=function(){stop();go(0);};
 root.querySelector('.fp-prev').onclick=function(){stop();go(step-1);};
 root.querySelector('.fp-next').onclick=function(){stop();go(step+1);};
 root.querySelector('.fp-last').onclick=function(){stop();go(data.moves.length);};
 root.querySelector('.fp-play').onclick=play;
 slider.max=String(data.moves.length);
 slider.oninput=function(){stop();go(parseInt(slider.value,10));};
 draw();
 const hash=window.location.hash;
 if(hash==='#play'){data.delay=20;play();}
 else if(hash==='#last'){go(data.moves.length);}
})();
"""


def playback_fragment(
    solution: Solution, *, element_id: str = "fp-player", delay_ms: int = 400
) -> str:
    """An HTML fragment (no network access needed) that steps and plays through ``solution``."""
    stats = solution.stats
    data = {
        "cols": solution.board.cols,
        "boards": [list(board.tiles) for board in solution.boards()],
        "moves": solution.moves,
        "goal": list(solution.goal.tiles),
        "delay": delay_ms,
    }
    rows = [
        ("moves", solution.moves or "(none)"),
        ("length", f"{len(solution)}{' (optimal)' if solution.optimal else ''}"),
        ("method", solution.algorithm + (f" + {solution.heuristic}" if solution.heuristic else "")),
        ("expanded", f"{stats.expanded:,}"),
        ("generated", f"{stats.generated:,}"),
        ("peak memory", f"{stats.peak_memory_bytes:,} bytes"),
        ("time", f"{stats.seconds:.4f} s"),
    ]
    table = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows)
    payload = json.dumps(data).replace("</", "<\\/")
    return (
        f'<div class="fp-player" id="{html.escape(element_id)}">'
        f"<style>{_PLAYER_STYLE}</style>"
        f'<script type="application/json">{payload}</script>'
        '<div style="display:flex;gap:16px;align-items:flex-start">'
        f"<div><div>start</div>{board_svg(solution.board, cell=28, goal=solution.goal)}</div>"
        f"<div><div>goal</div>{board_svg(solution.goal, cell=28, goal=solution.goal)}</div></div>"
        '<div class="fp-grid"></div>'
        '<div class="fp-controls"><button class="fp-first">|&lt;</button>'
        '<button class="fp-prev">&lt;</button><button class="fp-play">play</button>'
        '<button class="fp-next">&gt;</button><button class="fp-last">&gt;|</button>'
        '<input type="range" min="0" value="0"><span class="fp-step"></span></div>'
        f'<table class="fp-stats">{table}</table>'
        f"<script>{_PLAYER_SCRIPT % {'id': json.dumps(element_id)}}</script></div>"
    )


def playback_html(solution: Solution, *, title: str | None = None, delay_ms: int = 400) -> str:
    """A complete, self-contained HTML page that plays ``solution`` step by step.

    Opening the page with ``#play`` plays it at once; ``#last`` jumps to the goal.
    """
    heading = title or f"fastpuzzle: {len(solution)} moves"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(heading)}</title></head><body>"
        f'<h1 style="font-family:sans-serif;font-size:18px">{html.escape(heading)}</h1>'
        f"{playback_fragment(solution, delay_ms=delay_ms)}</body></html>"
    )
