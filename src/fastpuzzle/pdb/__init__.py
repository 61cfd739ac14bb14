"""Pattern databases: partitions, building, the on-disk cache, loading into memory.

An additive pattern database splits the tiles into disjoint groups; for each group a table holds,
for every placement of its tiles, the fewest moves *of those tiles* that bring them home (built
tracking the blank: moving the blank over other cells is free). The sum over groups is admissible,
and so is the same sum on the board reflected about the main diagonal when the goal's blank lies
on it; IDA* takes the larger.

Files live in a cache directory: the ``cache_dir`` argument, else ``$FASTPUZZLE_CACHE``, else
the user's cache directory as the platform has it (``$XDG_CACHE_HOME/fastpuzzle``, else
``~/.cache/fastpuzzle`` on Linux; ``~/Library/Caches/fastpuzzle`` on macOS;
``%LOCALAPPDATA%\\fastpuzzle\\Cache`` on Windows). Each file is written to a temporary
name and renamed into place, so concurrent builders end with one good file. Its header records
the format version, shape, goal blank cell, partition and a checksum of the tables; every size
and offset is checked against the file's real length, and a file that fails any check is never
used (it is rebuilt, or reported missing). Only regular files are opened. Tables are read into
memory once per process and checked there, so threads share one read-only copy and a file
changed afterwards cannot change what a search reads; the checksum (XXH64 from format 2 on) is
taken of each MiB as it is read (format 1's BLAKE2b, still read, on a second thread). The cache
directory is checked before a build starts; a build given a ``deadline`` stops when it passes
(:class:`BuildTimeLimitError`).

4x4 partitions are named ``"5-5-5"``, ``"6-6-3"`` and ``"7-8"``; 7-8 is a one-time build of about 80
s on two cores (1.5 GiB while building, 275 MiB on disk), with ``fastpuzzle pdb build 7-8`` or
:func:`build_pdb`, never started by ``solve()``. The 5x5 partition ``"6-6-6-6"`` (four groups of
127.5 M placements) is built the same way, once: about 2 minutes on two cores (1.35 GiB while
building, 243 MiB on disk; ``fastpuzzle pdb build`` adds the 64 MiB table of its dual lookups,
:mod:`~fastpuzzle.pdb.dual`). Which tables ``solve()`` builds on first use and which it reads only
once built is the solver's policy (:mod:`fastpuzzle._solver.policy`); :func:`database_for` builds
what it is asked for unless ``build=False``.

One module per job: :mod:`~fastpuzzle.pdb.partitions` (which cells each table covers),
:mod:`~fastpuzzle.pdb.database` (the loaded tables), :mod:`~fastpuzzle.pdb.fileformat` (the
file and its checks), :mod:`~fastpuzzle.pdb.store` (the cache: building, loading, listing),
:mod:`~fastpuzzle.pdb.compound` (several partitions at once, sharing their tables),
:mod:`~fastpuzzle.pdb.plan` (the files a table set's name stands for, what building them takes,
and building them as one job),
:mod:`~fastpuzzle.pdb.search_tables` (what a search asks for) and :mod:`~fastpuzzle.pdb.walking`
(walking-distance tables).
"""

from fastpuzzle.pdb.compound import Compound, build_compound, compound_built, compound_for
from fastpuzzle.pdb.database import (
    BuildTimeLimitError,
    Database,
    NotEnoughSpaceError,
    PatternDatabaseError,
)
from fastpuzzle.pdb.fileformat import FORMAT_VERSION, NAME_VERSION, READ_VERSIONS
from fastpuzzle.pdb.partitions import PARTITIONS, PARTITIONS_5X5, default_partition
from fastpuzzle.pdb.search_tables import (
    database_for,
    exact_table,
    second_database_built,
    second_database_for,
)
from fastpuzzle.pdb.store import (
    build_pdb,
    clear_cache,
    load_pdb,
    pdb_cache_dir,
    pdb_info,
    pdb_path,
)
from fastpuzzle.pdb.walking import (
    WalkingSide,
    WalkingTables,
    walking_args,
    walking_args_for_cells,
    walking_tables,
)

__all__ = [
    "FORMAT_VERSION",
    "NAME_VERSION",
    "PARTITIONS",
    "PARTITIONS_5X5",
    "READ_VERSIONS",
    "BuildTimeLimitError",
    "Compound",
    "Database",
    "NotEnoughSpaceError",
    "PatternDatabaseError",
    "WalkingSide",
    "WalkingTables",
    "build_compound",
    "build_pdb",
    "clear_cache",
    "compound_built",
    "compound_for",
    "database_for",
    "default_partition",
    "exact_table",
    "load_pdb",
    "pdb_cache_dir",
    "pdb_info",
    "pdb_path",
    "second_database_built",
    "second_database_for",
    "walking_args",
    "walking_args_for_cells",
    "walking_tables",
]
