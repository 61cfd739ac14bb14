"""The studies under ``benchmarks/studies`` run as the README says: from the repository's root,
with fastpuzzle importable, installed or built in place."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import fastpuzzle

REPOSITORY = Path(__file__).resolve().parents[2]


def test_a_study_runs_against_an_installed_fastpuzzle(tmp_path: Path) -> None:
    # Issue 58, item 7: the studies put the root's src first on their children's path; after
    # `pip install .` that folder holds only sources (the compiled modules are installed), so
    # `python -m benchmarks.studies.course_table_report` crashed on import. Here the checkout's
    # src has no compiled module, and fastpuzzle is importable from elsewhere, as installed.
    root = tmp_path / "checkout"
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c")
    shutil.copytree(REPOSITORY / "benchmarks", root / "benchmarks", ignore=skip)
    shutil.copytree(REPOSITORY / "src", root / "src", ignore=skip)
    (root / "tests").symlink_to(REPOSITORY / "tests")
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "fastpuzzle").symlink_to(Path(fastpuzzle.__file__).parent)
    # The study as its command runs it, on one algorithm (all ten take seconds).
    study = (
        "import sys; import benchmarks.studies.course_table_report as study; "
        "study.ALGORITHMS = 'bfs'; sys.argv = ['course_table_report']; study.main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", study],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "rows within the spreads: " in done.stdout
