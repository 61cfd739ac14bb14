"""One IDA* search on a Dask cluster: the large iterations' units of work as tasks.

The calling process runs the search as the parallel IDA* does (``fastpuzzle._solver.parallel``): the
small iterations on its own threads, and for each large one the frontier of units (subtree
roots, with the heuristic state each goes on from), split where the last iteration found the
work. Here those units go to the cluster instead, in chunks, as Dask futures: each task searches
its units to the iteration's bound with the worker's compiled kernel and returns the expansions
per unit, the next bound and the path if it reached the goal. The first path claimed is kept (every
path found within the bound is optimal) and the other tasks are cancelled; a worker lost
mid-search costs only its tasks, which Dask runs again elsewhere, so the result stays optimal.

Tables are read once per worker process, from that machine's cache as ``fastpuzzle pdb build``
left it: exactly the tables the calling process searches with (a worker without them fails the
task with a message saying what to build; it never builds or substitutes another). Threads
inside a worker are Dask's: a worker with ``nthreads=4`` searches four chunks at once, each
without the GIL.

Limits hold: the deadline travels with every task, and a task that reaches it ends the search.
Under a node limit, at most one chunk a thread is out at a time, each granted its part of the
budget left when it starts (what a chunk does not spend goes to the chunks after it); a chunk
that reaches its grant leaves the iteration unfinished, but the others go on to theirs, and it
runs again from its start while what is left would take it further. So the search spends the
budget (but for what no chunk cut short could use: 90-100 % of it, measured) and ``expanded``
counts every expansion of every task, those run again included. Ctrl-C in the
calling process cancels the futures and tells running tasks to stop (a Dask ``Event`` they look
at about four times a second).

The code lives in the engine room (:mod:`fastpuzzle._solver.cluster_tasks`); these are its
public names.
"""

from fastpuzzle._solver import cluster_tasks
from fastpuzzle._solver.cluster_tasks import KernelCall, running_tasks, search_units, share_with

__all__ = ["REMOTE_FROM", "STOP_WAIT", "KernelCall", "running_tasks", "search_units", "share_with"]

#: Iterations expected (from the growth of the last two) to expand at least this many nodes go
#: to the cluster; smaller ones stay on the calling process's threads, where a task's round trip
#: would cost more than the iteration. The default of :func:`share_with`'s ``remote_from`` (and
#: of a search request's): a constant, given per search, not a setting.
REMOTE_FROM = cluster_tasks.REMOTE_FROM

#: Seconds the calling process waits, once it has its answer, for the tasks still running to see
#: the stop event and end: the default of :func:`share_with`'s ``stop_wait``.
STOP_WAIT = cluster_tasks.STOP_WAIT
