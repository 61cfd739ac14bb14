"""Benchmarks: the pytest-benchmark suite (``suite/``), one-off studies (``studies/``), the
baselines they measure against (``baselines/``) and what the studies share
(:mod:`benchmarks.harness`).

Everything runs from the repository root: ``python -m pytest benchmarks/suite``, and
``python -m benchmarks.studies.<name>`` for a study (fastpuzzle importable: installed, or
``PYTHONPATH=src``).
"""
