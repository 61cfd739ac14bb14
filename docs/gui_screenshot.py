"""Take the puzzle page's screenshots for the docs (needs chromium, chromedriver, selenium, Pillow).

Run from the repository root: ``PYTHONPATH=src python docs/gui_screenshot.py [FOLDER]``. It
starts the server and writes, under ``docs/_static`` (or ``FOLDER``: CI takes them into a
temporary folder, so that the script keeps working with the page it pictures):

- ``gui.png``: a 3x3 board shuffled from a fixed seed, solved with A* + Manhattan, stepped on,
  and three methods compared;
- ``gui-4x4.png``: a 4x4 board solved by the default solver, halfway through its solution;
- ``gui-20x20.png`` and ``gui-100x100.png``: random boards of those sizes, the whole board in its
  panel; ``gui-100x100-numbers.png``: the same board with its numbers shown, in its scroll box;
- ``gui-trace.png`` and ``gui-trace-path.png``: BFS against A* + Manhattan on one 3x3 board,
  a few expansions in, and at the end with the paths found.

Boards and seeds are fixed; the random 20x20 and 100x100 boards are not (the page draws them).
Screenshots are reduced to a 256-colour palette: flat colours and text stay sharp, and the
files are a third of the size.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import Select, WebDriverWait

import fastpuzzle as fp
from fastpuzzle.gui import PuzzleServer

STATIC = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "_static"
WIDTH = 1280


def _driver(height: int) -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={WIDTH},{height}")
    service = Service(shutil.which("chromedriver") or "")
    return webdriver.Chrome(service=service, options=options)


def _open(driver: Any, server: PuzzleServer) -> None:
    driver.get(server.url)
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true"
    )


def _wait_status(driver: Any, word: str, seconds: float = 60) -> None:
    WebDriverWait(driver, seconds).until(lambda d: word in d.find_element("id", "status").text)


def _set_board(driver: Any, board: fp.Board) -> None:
    field = driver.find_element("id", "board-text")
    field.clear()
    field.send_keys(board.to_string())
    driver.find_element("id", "set-board").click()
    _wait_status(driver, "Board set")


def _set_shape(driver: Any, rows: int, cols: int) -> None:
    for name, value in (("rows", rows), ("cols", cols)):
        field = driver.find_element("id", name)
        field.clear()
        field.send_keys(str(value))


def _save(driver: Any, name: str, element: str | None = None) -> None:
    out = STATIC / name
    if element is None:
        driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.2)
        driver.save_screenshot(str(out))
    else:
        driver.find_element("id", element).screenshot(str(out))
    with Image.open(out) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    reduced.save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")


def _solve(driver: Any, algorithm: str, heuristic: str | None = None) -> None:
    Select(driver.find_element("id", "algorithm")).select_by_value(algorithm)
    if heuristic:
        Select(driver.find_element("id", "heuristic")).select_by_value(heuristic)
    driver.find_element("id", "solve").click()
    _wait_status(driver, "Solved")


def small_boards(server: PuzzleServer) -> None:
    driver = _driver(1500)  # down to the comparison's table and chart
    try:
        _open(driver, server)
        _set_board(driver, fp.scramble(fp.Board.goal((3, 3)), 40, rng=7))
        _solve(driver, "astar", "manhattan")
        driver.find_element("id", "compare").click()
        _wait_status(driver, "Compared")
        for _ in range(6):
            driver.find_element("id", "next").click()
        time.sleep(0.3)
        _save(driver, "gui.png")
        _open(driver, server)  # a fresh page: no comparison left from the 3x3 board
        _set_board(driver, fp.scramble(fp.Board.goal((4, 4)), 60, rng=3))
        _solve(driver, "auto")
        for _ in range(12):
            driver.find_element("id", "next").click()
        time.sleep(0.3)
        _save(driver, "gui-4x4.png")
    finally:
        driver.quit()


def big_boards(server: PuzzleServer) -> None:
    driver = _driver(1000)
    try:
        _open(driver, server)
        for side in (20, 100):
            _set_shape(driver, side, side)
            driver.find_element("id", "random").click()
            _wait_status(driver, "uniformly random")
            time.sleep(0.3)
            _save(driver, f"gui-{side}x{side}.png")
        driver.find_element("id", "zoom").click()
        time.sleep(0.3)
        _save(driver, "gui-100x100-numbers.png")
    finally:
        driver.quit()


def traces(server: PuzzleServer) -> None:
    driver = _driver(2200)  # the whole section in the window: element shots stop at its edge
    try:
        _open(driver, server)
        _set_board(driver, fp.scramble(fp.Board.goal((3, 3)), 16, rng=3))
        driver.find_element("id", "trace-bfs-astar").click()
        _wait_status(driver, "Traced")
        for _ in range(9):
            driver.find_element("id", "trace-next").click()
        time.sleep(0.3)
        _save(driver, "gui-trace.png", element="watch")
        driver.find_element("id", "trace-last").click()
        time.sleep(0.3)
        _save(driver, "gui-trace-path.png", element="watch")
    finally:
        driver.quit()


def main() -> None:
    STATIC.mkdir(parents=True, exist_ok=True)
    server = PuzzleServer()
    server.serve_in_thread()
    try:
        small_boards(server)
        big_boards(server)
        traces(server)
    finally:
        server.shutdown()
        server.close()


if __name__ == "__main__":
    main()
