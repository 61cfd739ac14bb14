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


def test_api_reference_documents_every_public_name():
    import importlib
    import re

    text = (DOCS / "api.rst").read_text()
    documented = set(re.findall(r"fastpuzzle\.(\w+)\s*$", text, flags=re.MULTILINE))
    # Modules documented whole (``automodule``): their public names count too.
    for module in re.findall(r"^\.\. automodule:: (\S+)", text, flags=re.MULTILINE):
        documented |= set(getattr(importlib.import_module(module), "__all__", ()))
    missing = [name for name in fp.__all__ if name not in documented]
    assert not missing, missing
