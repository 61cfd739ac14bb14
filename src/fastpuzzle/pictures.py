"""Pictures of a solution for a report or a slide: an animated GIF, a PNG strip, TikZ.

The GIF and the strip draw each board with :func:`fastpuzzle.render.board_rgb` (tiles home on
the goal in green) and are written by Pillow, the ``pictures`` extra
(``pip install 'fastpuzzle[pictures]'``); the TikZ picture is text and needs nothing. Files are
written atomically: a temporary file renamed into place, so that no reader sees half a picture.

Imported only when a picture is asked for (:meth:`Solution.to_gif
<fastpuzzle.Solution.to_gif>`, :meth:`~fastpuzzle.Solution.to_png_strip`,
:meth:`~fastpuzzle.Solution.to_tikz`, ``fastpuzzle solve --gif``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from fastpuzzle._util.checks import flag, whole
from fastpuzzle._util.files import atomic_writer, writable_file
from fastpuzzle._util.optional import require
from fastpuzzle.errors import InvalidOptionError
from fastpuzzle.render import COLOURS, MAX_PIXELS, board_rgb

if TYPE_CHECKING:
    from fastpuzzle.board import Board
    from fastpuzzle.results import Solution

__all__ = ["MAX_TIKZ_CELLS", "solution_gif", "solution_png_strip", "solution_tikz"]

#: The most cells (boards times cells a board) a TikZ picture draws: past this, LaTeX runs out
#: of its memory long before the picture is set.
MAX_TIKZ_CELLS = 50_000

#: The first and last frames of a GIF are shown at least this long, so that a looping GIF
#: shows where it starts and ends.
_HOLD_MS = 1000


def _pillow(feature: str) -> ModuleType:
    """``PIL.Image``, or an ImportError naming the ``pictures`` extra."""
    return require("PIL.Image", feature, "pictures", package="Pillow")


def _checked(
    solution: Solution, path: object, cell: object, feature: str, what: str
) -> tuple[ModuleType, int, Path]:
    """What a GIF and a strip check before drawing a board: Pillow, ``cell``, the pixels of
    every board (a picture of the whole solution), and that a file can be written at ``path``;
    returns ``PIL.Image``, the cell's side and the path."""
    image = _pillow(feature)
    side = whole("cell", cell, low=8)
    # All of a GIF's frames are in memory while Pillow writes them.
    pixels = (len(solution) + 1) * solution.board.size * side * side
    if pixels > MAX_PIXELS:
        raise InvalidOptionError(
            f"{what} of {len(solution) + 1:,} boards of {solution.board.rows}x"
            f"{solution.board.cols} cells of {side} pixels is {pixels:,} pixels, more than the "
            f"{MAX_PIXELS:,} it may hold: pass a smaller cell, or draw a shorter solution"
        )
    return image, side, writable_file("path", path)


def _frames(solution: Solution, cell: int) -> Iterator[np.ndarray]:
    for board in solution.boards():
        yield board_rgb(board, cell=cell, goal=solution.goal)


def solution_gif(
    solution: Solution,
    path: str | os.PathLike[str],
    *,
    cell: int = 48,
    ms_per_move: int = 400,
    loop: bool = True,
) -> Path:
    """Write ``solution`` as an animated GIF: one frame a board, ``len(solution) + 1`` frames.

    See :meth:`fastpuzzle.Solution.to_gif`.
    """
    delay = whole("ms_per_move", ms_per_move, low=10, high=60_000)
    loop = flag("loop", loop)
    image, cell, target = _checked(solution, path, cell, "Solution.to_gif", "a gif")
    frames = [image.fromarray(rgb) for rgb in _frames(solution, cell)]
    durations = [delay] * len(frames)
    durations[0] = durations[-1] = max(delay, _HOLD_MS)
    options = {"loop": 0} if loop else {}
    with atomic_writer(target) as stream:
        frames[0].save(
            stream,
            format="GIF",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            **options,
        )
    return target


def solution_png_strip(
    solution: Solution,
    path: str | os.PathLike[str],
    *,
    cell: int = 32,
    per_row: int = 10,
) -> Path:
    """Write every board of ``solution`` side by side in a PNG, ``per_row`` boards a row.

    See :meth:`fastpuzzle.Solution.to_png_strip`.
    """
    per_row = whole("per_row", per_row, low=1)
    image, cell, target = _checked(solution, path, cell, "Solution.to_png_strip", "a strip")
    count = len(solution) + 1
    height, width = solution.board.rows * cell, solution.board.cols * cell
    gap = max(4, cell // 2)
    across = min(per_row, count)
    down = -(-count // across)
    strip = np.full(
        (down * (height + gap) - gap, across * (width + gap) - gap, 3), 255, dtype=np.uint8
    )
    for index, rgb in enumerate(_frames(solution, cell)):
        row, col = divmod(index, across)
        y, x = row * (height + gap), col * (width + gap)
        strip[y : y + height, x : x + width] = rgb
    with atomic_writer(target) as stream:
        image.fromarray(strip).save(stream, format="PNG", optimize=True)
    return target


def _tikz_colour(colour: str) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"{{rgb,255:red,{red};green,{green};blue,{blue}}}"


_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}


def _tikz_board(board: Board, goal: Board, x: int, y: int, label: str) -> list[str]:
    lines = [
        f"\\fill[fill={_tikz_colour(COLOURS['background'])}] ({x},{y}) rectangle +({board.cols},"
        f"{board.rows});"
    ]
    for index, tile in enumerate(board.tiles):
        if tile == 0:
            continue
        row, col = divmod(index, board.cols)
        style = "fp home" if goal.tiles[index] == tile else "fp tile"
        lines.append(f"\\node[{style}] at ({x + col + 0.5},{y + row + 0.5}) {{{tile}}};")
    lines.append(f"\\node[fp step] at ({x + board.cols / 2:g},{y + board.rows + 0.5}) {{{label}}};")
    return lines


def solution_tikz(solution: Solution, *, per_row: int = 10) -> str:
    """``solution`` as one ``tikzpicture``: every board, ``per_row`` a row, each labelled with
    its step and the blank's move.

    See :meth:`fastpuzzle.Solution.to_tikz`.
    """
    per_row = whole("per_row", per_row, low=1)
    board = solution.board
    count = len(solution) + 1
    if count * board.size > MAX_TIKZ_CELLS:
        raise InvalidOptionError(
            f"a tikz picture of {count:,} boards of {board.size:,} cells draws "
            f"{count * board.size:,} cells, more than the {MAX_TIKZ_CELLS:,} LaTeX can set: "
            "draw a shorter solution"
        )
    ink, fill, home = (_tikz_colour(COLOURS[name]) for name in ("ink", "tile", "home"))
    lines = [
        f"% fastpuzzle: {len(solution)} moves (the blank's directions): {solution.moves}",
        "% needs \\usepackage{tikz}",
        "\\begin{tikzpicture}[x=0.6cm, y=-0.6cm,",
        f"  fp tile/.style={{draw={ink}, fill={fill}, minimum size=0.55cm,",
        f"    inner sep=0pt, text={ink}, font=\\sffamily\\bfseries\\small}},",
        f"  fp home/.style={{fp tile, fill={home}}},",
        "  fp step/.style={font=\\sffamily\\footnotesize}]",
    ]
    across = min(per_row, count)
    for index, shown in enumerate(solution.boards()):
        row, col = divmod(index, across)
        x, y = col * (board.cols + 1), row * (board.rows + 2)
        if index == 0:
            label = "start"
        else:
            move = solution.moves[index - 1]
            label = f"{index}: {move} ({_WORDS[move]})"
        lines.extend(_tikz_board(shown, solution.goal, x, y, label))
    lines.append("\\end{tikzpicture}")
    return "\n".join(lines) + "\n"
