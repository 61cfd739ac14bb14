"""The engine room: between the registry (:mod:`fastpuzzle.algorithms`) and the compiled kernels.

No user imports it; :func:`fastpuzzle.solve`, :func:`fastpuzzle.search` and the batches do.
``idastar`` (IDA* for every board size: which kernel, which tables), ``policy`` (what ``auto``
runs for a shape and goal) and ``constructive`` (the fast solver for boards up to 100x100).
"""
