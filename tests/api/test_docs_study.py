"""docs/depth_study.rst shows what ``fastpuzzle study`` prints (issue 57, item 1)."""

import shlex
from pathlib import Path

import pytest

from fastpuzzle.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.slow
def test_the_depth_study_table_is_what_the_command_prints(capsys):
    page = (DOCS / "depth_study.rst").read_text()
    start = page.index("``fastpuzzle study ") + len("``fastpuzzle ")
    command = " ".join(page[start : page.index("``", start)].split())
    assert main(shlex.split(command)) == 0
    printed = capsys.readouterr().out
    assert printed == (DOCS / "_static" / "depth-study-3x3.txt").read_text()


def test_the_page_includes_its_table_and_picture():
    page = (DOCS / "depth_study.rst").read_text()
    for name in ("depth-study-3x3.txt", "depth-study-3x3.png"):
        assert f"_static/{name}" in page
        assert (DOCS / "_static" / name).stat().st_size > 0
