"""What fastpuzzle is measured against: a plain C IDA* (``ida_manhattan.c``, built and run by
:mod:`~benchmarks.baselines.yardstick`) and plain-Python searches."""
