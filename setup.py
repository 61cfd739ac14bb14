"""Build the compiled core: every ``src/fastpuzzle/_core/_*.pyx`` becomes one extension module,
``fastpuzzle._core.<name>``.

Compiler directives live here, not in file headers. ``FASTPUZZLE_DEBUG=1`` turns bounds and
wraparound checks back on (and drops optimisation); ``FASTPUZZLE_NATIVE=1`` adds ``-march=native``.
"""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("FASTPUZZLE_DEBUG", "") == "1"
NATIVE = os.environ.get("FASTPUZZLE_NATIVE", "") == "1"

directives = {
    "language_level": 3,
    "binding": True,
    "embedsignature": True,
    "embedsignature.format": "python",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
}

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
    if NATIVE:
        compile_args.append("-march=native")

sources = sorted(Path("src/fastpuzzle/_core").glob("_*.pyx"))
# While developing, FASTPUZZLE_MODULES=_board,_search limits an in-place build to those modules.
only = {name for name in os.environ.get("FASTPUZZLE_MODULES", "").split(",") if name}
if only:
    sources = [path for path in sources if path.stem in only]
extensions = [
    Extension(
        f"fastpuzzle._core.{path.stem}",
        [str(path)],
        extra_compile_args=compile_args,
    )
    for path in sources
]

# Both steps run one job a core: Cython turns .pyx into C in a process pool, and build_ext compiles
# the C files in threads. `pip install .` gives no -j, so the default lives here; an explicit
# `build_ext -j N` still overrides it.
JOBS = os.cpu_count() or 1

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        build_dir="build/cython",
        include_path=["src"],
        nthreads=JOBS,
    ),
    options={"build_ext": {"parallel": JOBS}},
)
