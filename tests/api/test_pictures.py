"""Pictures of a solution for reports (issue 57, item 6): GIF, PNG strip, TikZ, ``solve --gif``."""

import itertools
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main
from fastpuzzle.errors import InvalidOptionError
from fastpuzzle.render import board_rgb
from fastpuzzle.results import SearchStats, Solution

Image = pytest.importorskip("PIL.Image")

# 50 blank moves on 4x4 with no move undoing the one before: a 50-move solution back to the goal.
WALK_50 = "LURUULDDRDLUUURDLDLDRULDRRUULURDLDRDLLLUURDLDRRRUU"


def _solution(start: fp.Board, moves: str) -> Solution:
    stats = SearchStats(expanded=1, generated=1, seconds=0.001, depth=len(moves), iterations=1)
    return Solution(start, start.apply(moves), moves, stats, "bfs", None, True)


def _walk_back(goal: fp.Board, walk: str) -> Solution:
    """The solution that undoes ``walk`` from the goal: its moves are ``inverse(walk)``."""
    return _solution(goal.apply(walk), fp.inverse(walk))


def _frames(path):
    with Image.open(path) as gif:
        frames = []
        for index in range(gif.n_frames):
            gif.seek(index)
            frames.append(np.asarray(gif.convert("RGB")))
        return frames


def test_the_walk_is_fifty_moves_that_never_undo_the_one_before():
    assert len(WALK_50) == 50
    assert not any(fp.inverse(a) == b for a, b in itertools.pairwise(WALK_50))
    assert fp.Board.goal((4, 4)).apply(WALK_50) != fp.Board.goal((4, 4))


def test_a_gif_has_a_frame_a_board_the_first_the_start_and_the_last_the_goal(tmp_path):
    solution = fp.solve(fp.Board("8 6 7/2 5 4/3 _ 1"))
    path = tmp_path / "solution.gif"
    assert solution.to_gif(path, cell=24) == path
    frames = _frames(path)
    boards = solution.boards()
    assert len(frames) == len(solution) + 1 == 32
    for index in (0, 1, len(boards) // 2, len(boards) - 1):
        expected = board_rgb(boards[index], cell=24, goal=solution.goal)
        assert np.array_equal(frames[index], expected), index
    assert [p.name for p in tmp_path.iterdir()] == ["solution.gif"]


def test_a_gif_of_the_goal_itself_is_one_frame(tmp_path):
    solution = _solution(fp.Board.goal((3, 3)), "")
    frames = _frames(solution.to_gif(tmp_path / "still.gif"))
    assert len(frames) == 1
    assert np.array_equal(frames[0], board_rgb(fp.Board.goal((3, 3))))


def test_a_fifty_move_4x4_gif_is_small_and_quick(tmp_path, record_property):
    solution = _walk_back(fp.Board.goal((4, 4)), WALK_50)
    assert len(solution) == 50 and solution.verify()
    path = tmp_path / "fifty.gif"
    started = time.perf_counter()
    solution.to_gif(path)
    seconds = time.perf_counter() - started
    size = path.stat().st_size
    # Issue 57's goal is under 1 MB and under 2 s: the size is asserted, the time (which a busy
    # machine stretches) only reported.
    record_property("gif_bytes", size)
    record_property("gif_seconds", round(seconds, 3))
    print(f"50-move 4x4 gif: {size:,} bytes in {seconds:.3f} s")
    assert size < 1_000_000
    frames = _frames(path)
    assert len(frames) == 51
    assert np.array_equal(frames[-1], board_rgb(fp.Board.goal((4, 4))))


def test_a_gif_is_timed_a_frame_a_move_and_holds_its_ends(tmp_path):
    solution = _solution(fp.Board("1 2 3/4 5 6/_ 7 8"), "RR")
    path = solution.to_gif(tmp_path / "timed.gif", ms_per_move=200)
    with Image.open(path) as gif:
        durations = []
        for index in range(gif.n_frames):
            gif.seek(index)
            durations.append(gif.info["duration"])
        assert gif.info.get("loop") == 0
    assert durations == [1000, 200, 1000]
    once = solution.to_gif(tmp_path / "once.gif", loop=False)
    with Image.open(once) as gif:
        assert "loop" not in gif.info


def test_a_failed_write_leaves_the_file_there_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "old.gif"
    path.write_bytes(b"the old picture")

    def half_then_fail(self, stream, *args, **kwargs):
        stream.write(b"GIF89a half")
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", half_then_fail)
    solution = _solution(fp.Board("1 2 3/4 5 6/_ 7 8"), "RR")
    with pytest.raises(OSError, match="disk full"):
        solution.to_gif(path)
    with pytest.raises(OSError, match="disk full"):
        solution.to_png_strip(path)
    assert path.read_bytes() == b"the old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["old.gif"]


@pytest.mark.parametrize("method", ["to_gif", "to_png_strip"])
def test_without_pillow_the_error_names_the_extra(tmp_path, monkeypatch, method):
    # None in sys.modules makes the import fail as if Pillow were not installed.
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    solution = _solution(fp.Board("1 2 3/4 5 6/_ 7 8"), "RR")
    with pytest.raises(ImportError, match=r"needs Pillow: pip install 'fastpuzzle\[pictures\]'"):
        getattr(solution, method)(tmp_path / "x")
    assert not list(tmp_path.iterdir())
    assert "{8}" in solution.to_tikz()  # TikZ is text: no Pillow needed


def test_the_cli_refuses_gif_without_pillow_before_searching(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    path = tmp_path / "x.gif"
    assert main(["solve", "--gif", str(path), "8 6 7/2 5 4/3 _ 1"]) == 2
    captured = capsys.readouterr()
    assert "fastpuzzle[pictures]" in captured.err
    assert captured.out == ""  # no search ran
    assert not path.exists()


def test_pictures_past_the_pixel_bound_are_refused_before_drawing(tmp_path):
    solution = _walk_back(fp.Board.goal((4, 4)), WALK_50)
    with pytest.raises(InvalidOptionError, match=r"a gif of 51 boards .* more than the"):
        solution.to_gif(tmp_path / "big.gif", cell=1024)
    with pytest.raises(InvalidOptionError, match="cell"):
        solution.to_gif(tmp_path / "big.gif", cell=4)
    with pytest.raises(InvalidOptionError, match="ms_per_move"):
        solution.to_gif(tmp_path / "big.gif", ms_per_move=0)
    with pytest.raises(InvalidOptionError, match="loop"):
        solution.to_gif(tmp_path / "big.gif", loop="yes")
    with pytest.raises(InvalidOptionError, match="per_row"):
        solution.to_png_strip(tmp_path / "big.png", per_row=0)
    assert not list(tmp_path.iterdir())


def test_a_png_strip_has_every_board_in_rows(tmp_path):
    solution = _walk_back(fp.Board.goal((3, 3)), "LLUURDRU")  # 8 moves, 9 boards
    path = solution.to_png_strip(tmp_path / "strip.png", cell=16, per_row=4)
    with Image.open(path) as png:
        strip = np.asarray(png.convert("RGB"))
    side, gap = 3 * 16, 8
    # 9 boards, 4 a row: 3 rows, 4 columns.
    assert strip.shape == (3 * side + 2 * gap, 4 * side + 3 * gap, 3)
    boards = solution.boards()
    for index in (0, 5, 8):
        row, col = divmod(index, 4)
        y, x = row * (side + gap), col * (side + gap)
        expected = board_rgb(boards[index], cell=16, goal=solution.goal)
        assert np.array_equal(strip[y : y + side, x : x + side], expected), index
    # The places after the last board are the page's white.
    assert (strip[2 * (side + gap) :, side + gap :] == 255).all()


def test_tikz_draws_every_tile_of_every_board_and_names_each_move():
    solution = fp.solve(fp.Board("1 2 3/4 _ 6/7 5 8"))
    tikz = solution.to_tikz()
    assert tikz.count("\\begin{tikzpicture}") == tikz.count("\\end{tikzpicture}") == 1
    assert tikz.count("{") == tikz.count("}")
    boards = solution.boards()
    drawn = re.findall(r"\\node\[fp (?:tile|home)\] at \([^)]*\) \{(\d+)\};", tikz)
    tiles = [int(t) for t in drawn]
    assert tiles == [t for board in boards for t in board.tiles if t]
    assert "{start}" in tikz
    for step, move in enumerate(solution.moves, start=1):
        assert f"{{{step}: {move} (" in tikz
    assert solution.moves in tikz
    # Tiles on their goal cell are drawn green: the goal board is all home.
    last = tikz.split("\\node[fp step]")[-2]
    assert "fp tile]" not in last


def test_tikz_wraps_rows_and_refuses_a_picture_latex_cannot_set():
    solution = _walk_back(fp.Board.goal((3, 3)), "LLUURDRU")
    wide = solution.to_tikz(per_row=100)
    narrow = solution.to_tikz(per_row=3)
    ys = {float(y) for y in re.findall(r"\\node\[fp step\] at \([^,]+,([^)]+)\)", narrow)}
    assert len(ys) == 3  # 9 boards, 3 a row
    assert len(set(re.findall(r"\\node\[fp step\] at \([^,]+,([^)]+)\)", wide))) == 1
    big = fp.Board.goal((10, 10))
    long_walk = "LR" * 300
    too_long = _solution(big, long_walk)
    with pytest.raises(InvalidOptionError, match="tikz picture of 601 boards"):
        too_long.to_tikz()


def test_solve_gif_writes_the_solution_s_frames(tmp_path, capsys):
    path = tmp_path / "out.gif"
    assert main(["solve", "--gif", str(path), "8 6 7/2 5 4/3 _ 1"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {path} (32 frames)" in out
    frames = _frames(path)
    assert len(frames) == 32
    assert np.array_equal(frames[0], board_rgb(fp.Board("8 6 7/2 5 4/3 _ 1")))


def test_solve_gif_takes_one_board_and_no_json(tmp_path, capsys):
    path = tmp_path / "out.gif"
    assert main(["solve", "--gif", str(path), "8 6 7/2 5 4/3 _ 1", "1 2 3/4 5 6/7 _ 8"]) == 2
    assert "--gif draws one board's solution; got 2 boards" in capsys.readouterr().err
    assert main(["solve", "--gif", str(path), "--json", "8 6 7/2 5 4/3 _ 1"]) == 2
    assert "pass one of them" in capsys.readouterr().err
    assert main(["solve", "--gif", str(tmp_path / "no" / "out.gif"), "1 2 3/4 5 6/7 _ 8"]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_tikz_compiles_with_latex(tmp_path):
    latex = shutil.which("pdflatex")
    if latex is None:
        pytest.skip("no pdflatex (Debian: texlive-latex-base and texlive-pictures)")
    tikz = fp.solve(fp.Board("8 6 7/2 5 4/3 _ 1")).to_tikz(per_row=8)
    document = tmp_path / "solution.tex"
    document.write_text(
        "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
        f"\\resizebox{{\\linewidth}}{{!}}{{%\n{tikz}}}\n\\end{{document}}\n"
    )
    done = subprocess.run(
        [latex, "-interaction=nonstopmode", "-halt-on-error", document.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "solution.pdf").stat().st_size > 0


def test_solve_gif_refused_after_the_search_still_prints_the_moves(tmp_path, capsys):
    path = tmp_path / "big.gif"
    # --fast on 30x30: thousands of moves, far past the pixels a GIF may hold.
    board = fp.random_board((30, 30), rng=1).to_string()
    assert main(["solve", "--fast", "--gif", str(path), board]) == 2
    captured = capsys.readouterr()
    moves = captured.out.splitlines()[0]
    assert fp.Board(board).apply(moves) == fp.Board.goal((30, 30))
    assert "more than the 268,435,456 it may hold" in captured.err
    assert not path.exists()


# /proc takes no new file though the folder exists: the case a folder check alone lets through.
UNWRITABLE = "/proc/fastpuzzle-test.gif"
needs_proc = pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc (not Linux)")


@needs_proc
@pytest.mark.parametrize("method", ["to_gif", "to_png_strip"])
def test_a_picture_that_cannot_be_written_is_refused_before_drawing(monkeypatch, method):
    def no_drawing(*args, **kwargs):
        raise AssertionError("drew a board before checking the path")

    monkeypatch.setattr("fastpuzzle.pictures.board_rgb", no_drawing)
    solution = _solution(fp.Board("1 2 3/4 5 6/_ 7 8"), "RR")
    said = re.escape(f"path: no file can be written at '{UNWRITABLE}'")
    with pytest.raises(InvalidOptionError, match=said):
        getattr(solution, method)(UNWRITABLE)


@pytest.mark.parametrize("method", ["to_gif", "to_png_strip"])
def test_a_picture_path_that_is_no_path_is_refused_typed(method):
    solution = _solution(fp.Board("1 2 3/4 5 6/_ 7 8"), "RR")
    with pytest.raises(InvalidOptionError, match=r"expected path as a path .*, got 123"):
        getattr(solution, method)(123)


@needs_proc
def test_solve_gif_that_cannot_be_written_is_refused_before_searching(capsys):
    assert main(["solve", "--gif", UNWRITABLE, "8 6 7/2 5 4/3 _ 1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no search ran
    assert f"no file can be written at '{UNWRITABLE}'" in captured.err
