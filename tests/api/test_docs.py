"""The documentation stays true to the code."""

from pathlib import Path

import fastpuzzle as fp

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_algorithm_page_lists_every_algorithm():
    text = (DOCS / "algorithms.rst").read_text()
    for name in fp.ALGORITHMS:
        assert f"``{name}``" in text, name


def test_every_page_is_in_the_table_of_contents():
    index = (DOCS / "index.rst").read_text()
    for page in DOCS.glob("*.rst"):
        if page.stem != "index":
            assert f"   {page.stem}\n" in index, page.name
