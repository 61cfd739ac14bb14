"""The engine room: between the registry (:mod:`fastpuzzle.algorithms`) and the compiled kernels.

No user imports it; :func:`fastpuzzle.solve`, :func:`fastpuzzle.search` and the batches do.
``request`` (what every driver takes), ``idastar`` (IDA* for every board size: which kernel,
and the calls into it), ``heuristic_tables`` (the tables a heuristic reads: the one place that
maps a heuristic to its partition), ``two_phase`` (a search that switches to stronger tables once it
is large), ``cluster`` (the Dask plumbing of one search) and ``cluster_tasks`` (its tasks on
the workers, whose public names :mod:`fastpuzzle.distributed` shows), ``policy`` (what ``auto``
runs for a shape and goal), ``pruning`` (the duplicate-pruning machine IDA* carries),
``parallel`` (the threads of a parallel IDA*, which the compiled kernels call back into) and
``constructive`` (the fast solver for boards up to 100x100).
"""
