"""Build the compiled core: every ``src/fastpuzzle/_core/_*.pyx`` becomes one extension module,
``fastpuzzle._core.<name>``.

Compiler directives live here, not in file headers. ``FASTPUZZLE_DEBUG=1`` turns bounds and
wraparound checks back on (and drops optimisation); ``FASTPUZZLE_NATIVE=1`` adds ``-march=native``.
"""

import hashlib
import os
import sys
from pathlib import Path

import Cython
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


def extension(path: Path, source: Path) -> Extension:
    """The module ``path`` builds, compiled from ``source`` (the .pyx, or the C made from it)."""
    return Extension(
        f"fastpuzzle._core.{path.stem}", [str(source)], extra_compile_args=compile_args
    )


extensions = [extension(path, path) for path in sources]

# Both steps run one job a core: Cython turns .pyx into C in a process pool, and build_ext compiles
# the C files in threads. `pip install .` gives no -j, so the default lives here; an explicit
# `build_ext -j N` still overrides it.
JOBS = os.cpu_count() or 1

CYTHON_DIR = Path("build/cython")
FINGERPRINT = CYTHON_DIR / "fingerprint"
# The C files a build limited by FASTPUZZLE_MODULES generated since the last full build: from
# sources that may since have been put back, perhaps with timestamps older than the C (cp -p,
# tar), so the next build generates them again whatever Cython's timestamp check would say.
PARTIAL = CYTHON_DIR / "partial"


def fingerprint() -> str:
    """What the generated C depends on: our Cython sources, Cython's version and the directives.

    pip builds each install in a fresh environment whose Cython files are newer than our C, so
    Cython's own timestamp check regenerates every module (and the C compiler then rebuilds
    them all) for README's second command, though nothing changed.
    """
    digest = hashlib.sha256()
    core = Path("src/fastpuzzle/_core")
    for path in sorted(p for p in core.iterdir() if p.suffix in (".pyx", ".pxd", ".pxi")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(repr((Cython.__version__, sorted(directives.items()), compile_args)).encode())
    return digest.hexdigest()


def generated_c(path: Path) -> Path:
    return CYTHON_DIR / path.with_suffix(".c")


def compiled_core() -> list:
    """The extensions: from the C generated last time when its fingerprint still holds (so that
    build_ext finds its objects up to date), else cythonized anew."""
    real_cython = hasattr(Cython, "__version__")  # not a test's stand-in
    current = fingerprint() if real_cython else ""
    if (
        real_cython
        and FINGERPRINT.is_file()
        and FINGERPRINT.read_text() == current
        and not PARTIAL.exists()
        and all(generated_c(path).is_file() for path in sources)
    ):
        return [extension(path, generated_c(path)) for path in sources]
    partial = PARTIAL.read_text().split() if real_cython and PARTIAL.is_file() else []
    for name in partial:
        Path(name).unlink(missing_ok=True)
    modules = cythonize(
        extensions,
        compiler_directives=directives,
        build_dir=str(CYTHON_DIR),
        include_path=["src"],
        nthreads=JOBS,
    )
    if real_cython:
        # Each written whole or not at all: a stamp that lies would skip a needed regeneration.
        if only:
            _write_whole(
                PARTIAL, "\n".join(sorted({*partial, *map(str, map(generated_c, sources))}))
            )
        else:
            _write_whole(FINGERPRINT, current)
            PARTIAL.unlink(missing_ok=True)
    return modules


def _write_whole(path: Path, text: str) -> None:
    written = path.with_suffix(".partial-write")
    written.write_text(text)
    written.replace(path)


setup(
    ext_modules=compiled_core(),
    options={"build_ext": {"parallel": JOBS}},
)
