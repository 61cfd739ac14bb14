"""The pytest-benchmark suite: ``python -m pytest benchmarks/suite --benchmark-json=r.json``,
then ``python -m benchmarks.suite.report r.json``."""
