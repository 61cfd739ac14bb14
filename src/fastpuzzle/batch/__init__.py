"""Batch solving: :func:`solve_many` over a thread pool (default) or a Dask cluster.

Rows are solved independently: a bad or unsolvable row gets an error status and its message,
and the batch goes on. With ``out=`` every chunk is written to its own file as soon as it is
done (atomically), and ``resume=True`` reuses the chunks already written, so an interrupted run
loses nothing it had finished.

One module per job: :mod:`~fastpuzzle.batch.result` (the columns), :mod:`~fastpuzzle.batch.chunk`
(solving one chunk), :mod:`~fastpuzzle.batch.store` (chunk files and resuming) and
:mod:`~fastpuzzle.batch.run` (:func:`solve_many`: chunks on threads or Dask, progress).

Moves are U, D, L, R: the direction the blank moves.
"""

from fastpuzzle.batch.result import BatchInterrupted, BatchResult
from fastpuzzle.batch.run import solve_many

__all__ = ["BatchInterrupted", "BatchResult", "solve_many"]
