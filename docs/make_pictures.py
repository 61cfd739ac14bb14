"""Make the pictures of docs/pictures.rst (the player's screenshot needs chromium and selenium).

Run from the repository root: ``PYTHONPATH=src python docs/make_pictures.py``. It writes, under
``docs/_static``, the SVG pictures of two boards exactly as a notebook shows them
(:func:`fastpuzzle.render.board_svg`), and ``player.png``, a screenshot of the solution player
(:meth:`fastpuzzle.Solution.to_html`) ten moves into an optimal solution. Everything is drawn
from fixed boards: running it again gives the same pictures unless the rendering changed.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import fastpuzzle as fp
from fastpuzzle.render import board_svg

STATIC = Path(__file__).parent / "_static"

#: The boards of docs/pictures.rst: a hard 3x3 board, and a 4x4 one 12 moves from the goal.
HARD_3X3 = fp.Board("8 6 7/2 5 4/3 _ 1")
NEAR_4X4 = fp.scramble(fp.Board.goal((4, 4)), 12, rng=4)


def svgs() -> None:
    for name, board in (("board-3x3.svg", HARD_3X3), ("board-4x4.svg", NEAR_4X4)):
        out = STATIC / name
        out.write_text(board_svg(board) + "\n", encoding="utf-8")
        print(f"wrote {out} ({out.stat().st_size:,} bytes)")


def player() -> None:
    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)
    with tempfile.TemporaryDirectory() as folder:
        page = fp.solve(HARD_3X3).to_html(Path(folder) / "player.html")
        try:
            driver.get(Path(page).as_uri())
            for _ in range(10):
                driver.find_element("css selector", ".fp-next").click()
            time.sleep(0.3)
            out = STATIC / "player.png"
            driver.find_element("css selector", ".fp-player").screenshot(str(out))
        finally:
            driver.quit()
    with Image.open(out) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    reduced.save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    svgs()
    player()
