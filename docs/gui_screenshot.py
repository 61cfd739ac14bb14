"""Take the puzzle page's screenshot for docs/gui.rst (needs chromium, chromedriver, selenium).

Run from the repository root: ``PYTHONPATH=src python docs/gui_screenshot.py``. It starts the
server, shuffles a 3x3 board from a fixed seed, solves it with A* + Manhattan, steps halfway,
compares three methods and saves ``docs/_static/gui.png``.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import Select, WebDriverWait

import fastpuzzle as fp
from fastpuzzle.gui import PuzzleServer


def main() -> None:
    server = PuzzleServer()
    server.serve_in_thread()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1400"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)
    try:
        driver.get(server.url)
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true"
        )
        board = fp.scramble(fp.Board.goal((3, 3)), 40, rng=7)
        driver.find_element("id", "board-text").send_keys(board.to_string())
        driver.find_element("id", "set-board").click()
        Select(driver.find_element("id", "algorithm")).select_by_value("astar")
        Select(driver.find_element("id", "heuristic")).select_by_value("manhattan")
        driver.find_element("id", "solve").click()
        WebDriverWait(driver, 30).until(lambda d: "Solved" in d.find_element("id", "status").text)
        for _ in range(6):
            driver.find_element("id", "next").click()
        driver.find_element("id", "first").click()
        driver.find_element("id", "compare").click()
        WebDriverWait(driver, 30).until(lambda d: "Compared" in d.find_element("id", "status").text)
        for _ in range(6):
            driver.find_element("id", "next").click()
        time.sleep(0.5)
        out = Path(__file__).parent / "_static" / "gui.png"
        driver.save_screenshot(str(out))
        print(f"wrote {out}")
    finally:
        driver.quit()
        server.shutdown()
        server.close()


if __name__ == "__main__":
    main()
