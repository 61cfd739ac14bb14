"""The package: public names, stubs, no side effects on import."""

import importlib
import inspect
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

import fastpuzzle as fp


def test_every_public_name_exists():
    for name in fp.__all__:
        assert hasattr(fp, name), name


def test_version_matches_metadata():
    from importlib.metadata import version

    assert fp.__version__ == version("fastpuzzle")


COMPILED_SUFFIXES = (".so", ".pyd", ".pyx", ".pxd", ".pxi")


def test_compiled_core_lives_in_one_folder():
    package = Path(fp.__file__).parent
    beside_layers = [p.name for p in package.iterdir() if p.suffix in COMPILED_SUFFIXES]
    assert not beside_layers, f"compiled files outside _core/: {beside_layers}"
    core = package / "_core"
    assert {"_board", "_idastar", "_wide_pdb", "_pdb"} <= {
        p.name.split(".")[0] for p in core.glob("_*.so")
    }
    # The core is compiled code only; the Python layers stay above it.
    assert sorted(p.name for p in core.glob("*.py")) == ["__init__.py"]


def test_compiled_modules_have_stubs_naming_their_public_functions():
    package = Path(fp.__file__).parent / "_core"
    modules = sorted(p.name.split(".")[0] for p in package.glob("_*.so"))
    assert "_board" in modules
    for module_name in modules:
        stub = package / f"{module_name}.pyi"
        assert stub.exists(), f"{module_name} has no .pyi stub"
        module = importlib.import_module(f"fastpuzzle._core.{module_name}")
        public = {
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and (inspect.isroutine(value) or inspect.isclass(value))
            and getattr(value, "__module__", module.__name__) == module.__name__
        }
        text = stub.read_text()
        missing = [
            name for name in public if f"def {name}(" not in text and f"class {name}" not in text
        ]
        assert not missing, f"{module_name}.pyi lacks {missing}"
    assert (package.parent / "py.typed").exists()


#: What ``import fastpuzzle`` must not load: the pictures and the optional extras, which the
#: modules that need them import inside the function that draws or runs (each such import says
#: so on its line).
NOT_ON_IMPORT = (
    "fastpuzzle.render",
    "fastpuzzle.pictures",
    "PIL",
    "matplotlib",
    "pandas",
    "pyarrow",
    "dask",
    "distributed",
    "gymnasium",
    "tqdm",
)


def test_import_has_no_side_effects():
    code = (
        "import logging, sys; import fastpuzzle; "
        "assert not logging.getLogger().handlers; "
        f"loaded = [m for m in {NOT_ON_IMPORT!r} if m in sys.modules]; "
        "assert not loaded, loaded; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "ok"
    assert not logging.getLogger("fastpuzzle").handlers


ROOT = Path(__file__).resolve().parents[2]


def test_setup_compiles_in_parallel(monkeypatch):
    # setup.py is run with stand-ins for Cython and setuptools (the test environment need not
    # have either), so no compiler runs: what matters is that `pip install .`, which passes no
    # -j, still gets one job a core in both steps.
    import runpy
    import types

    seen: dict[str, dict] = {}
    cython = types.ModuleType("Cython")
    build = types.ModuleType("Cython.Build")
    build.cythonize = lambda ext, **kw: seen.setdefault("cy", kw)  # type: ignore[attr-defined]
    cython.Build = build  # type: ignore[attr-defined]
    tools = types.ModuleType("setuptools")
    tools.Extension = lambda *args, **kw: (args, kw)  # type: ignore[attr-defined]
    tools.setup = lambda **kw: seen.setdefault("setup", kw)  # type: ignore[attr-defined]
    for name, module in (("Cython", cython), ("Cython.Build", build), ("setuptools", tools)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"))
    jobs = os.cpu_count() or 1
    assert seen["cy"]["nthreads"] == jobs
    assert seen["setup"]["options"]["build_ext"]["parallel"] == jobs


def test_setup_reuses_the_generated_c_while_the_sources_stay_the_same(monkeypatch, tmp_path):
    # README's second command builds in a fresh pip environment, whose Cython files are newer
    # than the C the first command generated: by Cython's timestamps every module is stale.
    # setup.py keeps a fingerprint of what the C depends on and hands build_ext that C instead.
    import runpy
    import shutil
    import types

    calls: list[list[str]] = []
    found: list[bool] = []  # per call, whether _a's C was there when cythonize began

    def cythonize(extensions, **kw):
        c_file = Path(kw["build_dir"]) / "src" / "fastpuzzle" / "_core" / "_a.c"
        found.append(c_file.is_file())
        for ext in extensions:
            c_file = Path(kw["build_dir"]) / Path(ext[0][1][0]).with_suffix(".c")
            c_file.parent.mkdir(parents=True, exist_ok=True)
            c_file.write_text("/* generated */")
        calls.append([ext[0][0] for ext in extensions])
        return ["cythonized"]

    cython = types.ModuleType("Cython")
    cython.__version__ = "3.9.9"  # type: ignore[attr-defined]
    build = types.ModuleType("Cython.Build")
    build.cythonize = cythonize  # type: ignore[attr-defined]
    cython.Build = build  # type: ignore[attr-defined]
    tools = types.ModuleType("setuptools")
    tools.Extension = lambda *args, **kw: (args, kw)  # type: ignore[attr-defined]
    seen: list[dict] = []
    tools.setup = lambda **kw: seen.append(kw)  # type: ignore[attr-defined]
    for name, module in (("Cython", cython), ("Cython.Build", build), ("setuptools", tools)):
        monkeypatch.setitem(sys.modules, name, module)
    shutil.copy(ROOT / "setup.py", tmp_path)
    core = tmp_path / "src" / "fastpuzzle" / "_core"
    core.mkdir(parents=True)
    (core / "_a.pyx").write_text("x = 1\n")
    (core / "_a.pxd").write_text("")
    monkeypatch.chdir(tmp_path)

    def build_sources() -> list:
        runpy.run_path(str(tmp_path / "setup.py"))
        return seen[-1]["ext_modules"]

    assert build_sources() == ["cythonized"] and len(calls) == 1
    reused = build_sources()
    assert len(calls) == 1  # nothing regenerated
    assert reused[0][0] == ("fastpuzzle._core._a", ["build/cython/src/fastpuzzle/_core/_a.c"])
    (core / "_a.pxd").write_text("cdef int y\n")  # a declaration changed: the C is stale
    assert build_sources() == ["cythonized"] and len(calls) == 2
    cython.__version__ = "3.9.10"  # type: ignore[attr-defined]
    assert build_sources() == ["cythonized"] and len(calls) == 3
    assert build_sources() != ["cythonized"] and len(calls) == 3
    # A partial build (FASTPUZZLE_MODULES) of changed sources, which are then put back: the C
    # now holds the change, so the next build generates it again although the stamp's sources
    # are back, and from nothing (its C removed first), whatever the timestamps of a source put
    # back with an older one (cp -p) would tell Cython.
    (core / "_a.pyx").write_text("x = 2\n")
    monkeypatch.setenv("FASTPUZZLE_MODULES", "_a")
    assert build_sources() == ["cythonized"] and len(calls) == 4
    monkeypatch.delenv("FASTPUZZLE_MODULES")
    (core / "_a.pyx").write_text("x = 1\n")
    assert build_sources() == ["cythonized"] and len(calls) == 5 and not found[-1]
    assert build_sources() != ["cythonized"] and len(calls) == 5


def test_license_is_mit_and_ships_in_the_sdist():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Copyright (c) fastpuzzle developers" in text
    assert "include README.md LICENSE" in (ROOT / "MANIFEST.in").read_text()
    assert 'license-files = ["LICENSE"]' in (ROOT / "pyproject.toml").read_text()


_TYPE_HINTS = """
import inspect, sys, typing
import fastpuzzle, fastpuzzle.pdb, fastpuzzle.batch, fastpuzzle.errors
failed = []
for module in (fastpuzzle, fastpuzzle.pdb, fastpuzzle.batch, fastpuzzle.errors):
    for name in module.__all__:
        value = getattr(module, name)
        if not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        members = [value]
        if inspect.isclass(value):
            members += [f for f in vars(value).values() if inspect.isfunction(f)]
        for member in members:
            try:
                typing.get_type_hints(member)
            except Exception as error:
                failed.append(f"{module.__name__}.{name}: {error!r}")
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_type_hints_resolve_at_run_time():
    # Before (issue 47, item 8): typing.get_type_hints(fp.search) raised NameError: the hints
    # named Board through a string that only board.py could resolve, and errors.py named types
    # it imported for type checkers only; beartype, pydantic and sphinx-autodoc-typehints read
    # hints so. A fresh interpreter, with fp.search first: a hint resolved once is cached.
    code = "import typing, fastpuzzle as fp; typing.get_type_hints(fp.search)\n" + _TYPE_HINTS
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_algorithm_and_heuristic_parameters_are_typed_by_their_names():
    # Before (issue 47, item 8): typed str, so an editor offered no names and a type checker
    # let "astr" through. The Literal types list the catalogues' names, no more, no fewer.
    import typing

    from fastpuzzle.algorithms import ALGORITHMS, AlgorithmName
    from fastpuzzle.heuristics import CATALOGUE, HeuristicName

    def names(hint: object) -> set[object]:
        # The strings of a Literal, or of a union of Literals.
        args = typing.get_args(hint)
        if typing.get_origin(hint) is typing.Literal:
            return set(args)
        return set().union(*(names(arg) for arg in args))

    heuristics = {h.name for h in CATALOGUE}
    assert names(AlgorithmName) == set(ALGORITHMS) and names(HeuristicName) == heuristics
    hints = typing.get_type_hints(fp.search)
    # search() also takes the anytime solver, which is no entry of ALGORITHMS.
    assert names(hints["algorithm"]) == {*ALGORITHMS, "anytime"}
    for function in (fp.solve, fp.solve_many):
        hints = typing.get_type_hints(function)
        assert names(hints["algorithm"]) == {*ALGORITHMS, "auto"}
        assert names(hints["heuristic"]) == heuristics | {"auto"}


def test_the_metadata_says_where_it_runs_and_has_an_all_extra():
    # Issue 58, item 8: no [all] extra, and no Python-version, OS or status classifiers.
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    user_extras = set(extras) - {"all", "test", "docs", "lint"}
    (everything,) = extras["all"]
    assert everything == f"fastpuzzle[{','.join(sorted(user_extras, key=list(extras).index))}]"
    classifiers = set(project["classifiers"])
    # The CPython versions the wheels are built for (cibuildwheel's build line).
    built = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]["build"]
    tags = built.split()
    # Issue 57: CPython 3.14 and its free-threaded build (cp314t) were not built.
    assert {"cp314-*", "cp314t-*"} <= set(tags)
    for tag in tags:
        minor = tag.removeprefix("cp3").removesuffix("-*").removesuffix("t")
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
        assert f"cp3{minor}-*" in tags  # a free-threaded build beside its usual one
    assert "Programming Language :: Python :: Implementation :: CPython" in classifiers
    assert {c.split(" :: ")[0] for c in classifiers} >= {"Development Status", "Operating System"}
    assert not any(c.startswith("License ::") for c in classifiers)  # the SPDX expression says it
