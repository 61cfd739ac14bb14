"""The examples in README.md and in the docstrings run as written."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import fastpuzzle

README = Path(__file__).resolve().parents[2] / "README.md"

#: Every Python module of the package, private ones included (their examples run too), but
#: the compiled core's and ``__main__`` (importing it runs the command line).
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(fastpuzzle.__path__, "fastpuzzle.")
    if not info.name.startswith("fastpuzzle._core") and info.name != "fastpuzzle.__main__"
)


@pytest.mark.parametrize("name", ["fastpuzzle", *MODULES])
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        if "pip install 'fastpuzzle[" not in str(error):
            raise
        pytest.skip(str(error))  # a module of an optional extra that is not installed
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_readme_examples():
    result = doctest.testfile(
        str(README),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 0
    assert result.failed == 0
