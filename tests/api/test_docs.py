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


def _course_block():
    """The command of the course table in docs/algorithms.rst and the table's lines."""
    lines = (DOCS / "algorithms.rst").read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("    $ fastpuzzle compare"))
    table = []
    for line in lines[first + 1 :]:
        if not line.startswith("    "):
            break
        table.append(line[4:])
    return lines[first][len("    $ fastpuzzle ") :], table


def _columns(line):
    import re

    return re.split(r"\s{2,}", line.strip())


def test_the_course_table_is_what_the_command_prints(capsys):
    # Before: the page's dfs rows were those of an older dfs (solved, 50 moves) while the
    # command printed depth_limit; nothing compared them. Every column but the time is checked.
    import shlex

    from fastpuzzle.cli import main

    command, table = _course_block()
    assert main(shlex.split(command)) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(table) > 10
    assert _columns(printed[0]) == _columns(table[0])  # the header
    for shown, got in zip(table[2:], printed[2:]):
        assert _columns(got)[:-1] == _columns(shown)[:-1], got
    assert any("depth_limit (13)" in line for line in table)
