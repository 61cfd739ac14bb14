"""Pictures: SVG boards parse as XML; the HTML playback works in a real headless browser."""

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

import fastpuzzle as fp
from fastpuzzle.results import SearchStats, Solution
from tests.oracle import distances_3x3

SVG = "{http://www.w3.org/2000/svg}"


def _solution(board: fp.Board, moves: str) -> Solution:
    stats = SearchStats(
        expanded=3,
        generated=7,
        max_frontier=4,
        peak_memory_bytes=64,
        seconds=0.001,
        depth=len(moves),
        iterations=1,
    )
    return Solution(board, board.apply(moves), moves, stats, "bfs", None, True)


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (4, 4), (2, 8), (3, 5)])
def test_board_svg_is_xml_with_one_labelled_tile_per_tile(shape):
    board = fp.random_board(shape, rng=1)
    root = ET.fromstring(board._repr_svg_())
    assert root.tag == f"{SVG}svg"
    labels = [int(t.text) for t in root.iter(f"{SVG}text")]
    assert sorted(labels) == list(range(1, board.size))
    assert root.get("aria-label") == board.to_string()


def test_svg_colours_tiles_at_home():
    board = fp.Board("1 2 3/4 5 6/7 _ 8")
    root = ET.fromstring(board._repr_svg_())
    fills = {
        int(g.find(f"{SVG}text").text): g.find(f"{SVG}rect").get("fill")
        for g in root.iter(f"{SVG}g")
    }
    assert len({fills[t] for t in range(1, 8)}) == 1
    assert fills[8] != fills[1]


def test_steps_text_shows_every_board():
    solution = _solution(fp.Board("1 2 3/4 5 6/_ 7 8"), "RR")
    text = solution.steps()
    assert text.count("step ") == 2
    assert "step 2/2: blank right (tile 8)" in text
    assert text.strip().endswith(str(fp.Board.goal((3, 3))))


def test_to_html_writes_the_page_atomically(tmp_path):
    solution = _solution(fp.Board.goal((3, 3)).apply("ULDLUR"), fp.inverse("ULDLUR"))
    path = tmp_path / "play.html"
    assert solution.to_html(path) == path  # the path, not the page
    page = solution.to_html()
    assert path.read_text() == page
    assert "<script" in page and "http" not in page.replace("http://www.w3.org/2000/svg", "")
    assert [p.name for p in tmp_path.iterdir()] == ["play.html"]
    assert 'id="fp-player-' in solution._repr_html_()


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no headless chromium installed (.ci/run installs Debian's chromium)")


def _dump_dom(browser, url, tmp_path):
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=20000",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def _grid_tiles(dom):
    # Only the player's grid cells carry data-tile (the start/goal SVGs do not).
    return [int(t) for t in re.findall(r'data-tile="(\d+)"', dom)]


@pytest.mark.parametrize("fragment", ["#play", "#last"])
def test_playback_page_reaches_the_goal_in_a_real_browser(tmp_path, fragment):
    browser = _chromium()
    board = fp.scramble(fp.Board.goal((3, 3)), 12, rng=4)
    # A shortest path down the oracle's distances is enough to test the page itself.
    moves = ""
    current = board
    goal = fp.Board.goal((3, 3))
    dist = distances_3x3()
    while current != goal:
        move, current = min(current.successors(), key=lambda pair: dist[pair[1].tiles])
        moves += move
    solution = _solution(board, moves)
    path = tmp_path / "play.html"
    solution.to_html(path)
    dom, log = _dump_dom(browser, path.as_uri() + fragment, tmp_path)
    assert "Uncaught" not in log and "SyntaxError" not in log, log[-2000:]
    assert f'data-step="{len(moves)}"' in dom
    assert 'data-at-goal="true"' in dom
    assert _grid_tiles(dom) == list(goal.tiles)
    assert f"step {len(moves)}/{len(moves)}" in dom


def test_playback_page_starts_at_the_start_board(tmp_path):
    browser = _chromium()
    board = fp.Board("1 2 3/4 5 6/_ 7 8")
    solution = _solution(board, "RR")
    path = tmp_path / "play.html"
    solution.to_html(path)
    dom, _ = _dump_dom(browser, path.as_uri(), tmp_path)
    assert 'data-step="0"' in dom and 'data-at-goal="false"' in dom
    assert _grid_tiles(dom) == list(board.tiles)


def test_a_30x30_page_holds_the_moves_and_replays_them_to_the_goal(tmp_path):
    browser = _chromium()
    board = fp.random_board((30, 30), rng=1)
    solution = fp.solve(board, optimal=False)
    assert len(solution) > 10_000
    path = solution.to_html(tmp_path / "play.html")
    # A byte a move and a few kilobytes: every board (900 tiles, tens of thousands of steps)
    # would be hundreds of megabytes.
    size = path.stat().st_size
    assert size < len(solution) + 20_000, size
    goal = fp.Board.goal((30, 30))
    for fragment in ("#last", "#play"):
        dom, log = _dump_dom(browser, path.as_uri() + fragment, tmp_path)
        assert "Uncaught" not in log and "SyntaxError" not in log, log[-2000:]
        assert f'data-step="{len(solution)}"' in dom and 'data-at-goal="true"' in dom
        assert _grid_tiles(dom) == list(goal.tiles)
    # The moves are shown once, wrapping, by the script.
    assert 'class="fp-moves">' + solution.moves[:50] in dom


def test_a_100x100_page_stays_small():
    solution = fp.solve(fp.random_board((100, 100), rng=2), optimal=False)
    page = solution.to_html()
    # The moves, the start and goal tiles (about 50 kB each) and the player.
    assert len(page) < len(solution) + 120_000 + 10_000
    assert '<option value="1000">' in page  # a speed control


def test_comparison_html_is_a_table_with_a_row_per_method():
    table = fp.compare(["1 2 3/4 5 6/_ 7 8", "1 2 3/4 5 6/7 _ 8"], ["bfs", "astar"])
    root = ET.fromstring(table._repr_html_())
    assert root.tag == "table"
    rows = root.findall("./tbody/tr")
    assert len(rows) == 4
    assert [td.text for td in rows[1].findall("td")][:4] == [
        "1 2 3/4 5 6/_ 7 8",
        "astar+manhattan",
        "solved",
        "2",
    ]
