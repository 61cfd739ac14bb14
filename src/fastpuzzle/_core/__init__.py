"""The compiled foundation: every Cython kernel of fastpuzzle and the headers they share.

Nothing here is public API. The Python layers above (``board.py``, ``heuristics.py``,
``idastar.py``, ``pdb/``, ``batch/`` ...) validate input, pick a kernel and turn what it returns
into result objects; the modules here run the per-node loops without the GIL. See
``docs/internals.rst`` for who owns what.
"""
