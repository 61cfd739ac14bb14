"""A*+IDA* (Bu & Korf 2019): how many nodes its A* part may store.

The kernels (``_idastar`` and ``_wide_pdb``, engine text ``_core/_hybrid.pxi``) run A* from the
start until its store holds a budget of nodes, keyed by board and duplicate-pruning machine
state, then IDA* below each node left open in increasing (f, h), each keeping its backed-up f.
This module owns the budget: what the request asks (:attr:`Request.frontier
<fastpuzzle._solver.request.Request.frontier>`, or :data:`DEFAULT_NODES`), never more than
:data:`MEMORY_FRACTION` of the memory available now nor the request's ``memory_bytes``. The
store takes ``HYBRID_NODE_BYTES`` a node (about 160 bytes): a million nodes, about 160 MB.

A search on several threads or a Dask cluster, and one with dual lookups (whose heuristic is
inconsistent), runs plain IDA*.
"""

from __future__ import annotations

import os

from fastpuzzle._solver.request import Request

__all__ = ["DEFAULT_NODES", "MEMORY_FRACTION", "available_memory", "budget"]

#: The store of a request that asks none (``frontier=None``): 0, plain IDA*. A*+IDA* is an
#: option until it pays on long searches (docs/performance.rst, "A*+IDA*").
DEFAULT_NODES = 0

#: The most of the memory available when a search starts that its store may take.
MEMORY_FRACTION = 0.25


def available_memory() -> int | None:
    """Bytes of memory available now (free physical pages), or None where the system does not
    say."""
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def budget(request: Request, node_bytes: int) -> int:
    """The nodes A*+IDA*'s A* part may store for ``request`` (0: plain IDA*), at ``node_bytes``
    a node: what it asks, within :data:`MEMORY_FRACTION` of the available memory and its
    ``memory_bytes``."""
    nodes = DEFAULT_NODES if request.frontier is None else request.frontier
    if nodes <= 0:
        return 0
    room = available_memory()
    cap = None if room is None else int(room * MEMORY_FRACTION)
    limit = request.limits.memory_bytes
    if limit is not None:
        cap = int(limit) if cap is None else min(cap, int(limit))
    if cap is not None:
        nodes = min(nodes, cap // node_bytes)
    return max(nodes, 0)
