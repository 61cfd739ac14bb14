"""Sphinx configuration for fastpuzzle's documentation (built with ``-W`` in CI)."""

import fastpuzzle

project = "fastpuzzle"
author = "the fastpuzzle developers"
# The footer's line: furo writes "Copyright ©" and this (left empty, the line was a bare
# "Copyright ©").
copyright = "the fastpuzzle developers, under the MIT License"
release = fastpuzzle.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    # A copy button on every code block; the prompts and the output of examples are not
    # copied, so what is pasted runs.
    "sphinx_copybutton",
]
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"fastpuzzle {release}"
# Dataclass fields are documented in "Attributes" sections: render them as fields, not as
# separate objects (which autodoc would then describe twice).
napoleon_use_ivar = True
# Docstring examples are run by the test suite; the doctest builder runs the pages' own examples.
doctest_test_doctest_blocks = ""
# numpy-style types such as "board or iterable of boards" are prose, not references: an
# ambiguous match (Solution.board, SearchResult.board) is not an error.
suppress_warnings = ["ref.python"]
