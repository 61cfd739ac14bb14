"""The test session's own pattern-database cache: tests never write into the user's.

Before any test runs, ``$FASTPUZZLE_CACHE`` is pointed at a temporary folder for the session (and
the processes tests start inherit it). The small tables already built in the user's cache (up
to :data:`SMALL_TABLE` bytes each: 6-6-3, the rectangles') are copied into it, so that a session
does not rebuild them (copies, not links: a test that damages a table file must not reach the
user's); the large ones (7-8, the 5x5 tables: about 3 GB in all) only for a run that selects the
slow tests, the only ones that read them (the default run's tests that would use one where it is
built skip, or take a smaller table). Whatever the tests build or break stays in the temporary
folder, which goes at the end of the session.
"""

from __future__ import annotations

import inspect
import os
import shutil
import tempfile
from pathlib import Path

import pytest

#: The cache the user had before the session (``$FASTPUZZLE_CACHE`` or the default), and the
#: session's own.
USER_CACHE: Path | None = None
SESSION_CACHE: Path | None = None

#: The largest table file copied into a session that runs no slow test (6-6-3 takes 16 MiB).
SMALL_TABLE = 32 << 20


def _slow_tests_run(config: pytest.Config) -> bool:
    """Whether the run may select tests marked slow (the default run says ``-m 'not slow'``)."""
    selected = " ".join((config.getoption("markexpr", default="") or "").split())
    # A quick test is in no other tier, slow included.
    return "not slow" not in selected and selected != "quick"


def copy_tables(user: Path, session: Path, *, large: bool) -> None:
    """Copy the table files of ``user`` into ``session``: those of at most :data:`SMALL_TABLE`
    bytes, and the larger ones too with ``large``."""
    if not user.is_dir():
        return
    for table in sorted(user.glob("pdb-*.fpdb")):
        wanted = large or table.stat().st_size <= SMALL_TABLE
        if wanted and table.is_file() and not table.is_symlink():
            shutil.copy2(table, session / table.name)


def pytest_configure(config: pytest.Config) -> None:
    global USER_CACHE, SESSION_CACHE
    from fastpuzzle.pdb import pdb_cache_dir

    USER_CACHE = pdb_cache_dir()
    SESSION_CACHE = Path(tempfile.mkdtemp(prefix="fastpuzzle-test-cache-"))
    copy_tables(USER_CACHE, SESSION_CACHE, large=_slow_tests_run(config))
    os.environ["FASTPUZZLE_CACHE"] = str(SESSION_CACHE)


def pytest_unconfigure(config: pytest.Config) -> None:
    if SESSION_CACHE is not None:
        shutil.rmtree(SESSION_CACHE, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Test tiers: markers given from what a test uses, so that no test file has to remember them.
# A test in none of slow, heavy (a second or more, marked in its file), cluster, subprocess and
# browser is marked quick: ``python -m pytest -m quick`` is the inner loop (README,
# Development); the default run is every tier but ``slow``.

#: The tiers a quick test is in none of.
_NOT_QUICK = ("slow", "heavy", "cluster", "subprocess", "browser")

#: Fixtures that start a Dask cluster, and the headless browser.
_CLUSTER_FIXTURES = frozenset({"client", "cluster", "dask_client"})
_BROWSER_FIXTURES = frozenset({"browser"})

#: What a test's code (or a helper of its module that it calls) says when it starts a process.
_STARTS_A_PROCESS = ("subprocess.", "sys.executable", "multiprocessing", "Popen(")


def _starts_a_process(function: object, module: object, seen: set[int]) -> bool:
    code = getattr(function, "__code__", None)
    if code is None or id(code) in seen:
        return False
    seen.add(id(code))
    try:
        source = inspect.getsource(function)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return False
    if any(sign in source for sign in _STARTS_A_PROCESS):
        return True
    # One level of helpers: the module's own functions this one names.
    names = vars(module) if module is not None else {}
    return any(
        _starts_a_process(names[name], None, seen)
        for name in code.co_names
        if inspect.isfunction(names.get(name))
        and getattr(names[name], "__module__", None) == getattr(module, "__name__", None)
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & _CLUSTER_FIXTURES:
            item.add_marker(pytest.mark.cluster)
        if fixtures & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        function = getattr(item, "function", None)
        module = getattr(item, "module", None)
        if function is not None and _starts_a_process(function, module, set()):
            item.add_marker(pytest.mark.subprocess)
        if not any(item.get_closest_marker(tier) for tier in _NOT_QUICK):
            item.add_marker(pytest.mark.quick)


@pytest.fixture(autouse=True)
def _no_first_use_builds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test's anytime solve builds the shape's pattern database (5x5's 6-6-6-6: 1.3 GB of
    memory and minutes) on first use, unless marked ``first_use_builds``: on a machine of many
    cores a limit of a minute would allow the build."""
    if request.node.get_closest_marker("first_use_builds") is None:
        monkeypatch.setattr("fastpuzzle._solver.first_use.BUILD_SHARE", 0.0)
