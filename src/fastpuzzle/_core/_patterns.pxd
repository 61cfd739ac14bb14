# A pattern database's groups laid out once for the IDA* kernels (see _patterns.pyx).

from fastpuzzle._core._pdbgroups cimport EXTRA_MAX_COUNT, Duals, Patterns


cdef class LoadedPatterns:
    cdef Patterns pat
    cdef Duals duals
    cdef readonly int cells
    cdef readonly int bits
    cdef readonly int goal_blank
    cdef readonly bint dual         # dual lookups laid out (``duals``)
    cdef readonly bint zero         # the tables are zero-aware
    cdef readonly list arrays       # the tables pat's pointers read, kept alive
    cdef readonly int n_extra       # a compound heuristic's other partitions (``extra``)
    cdef Patterns extra[EXTRA_MAX_COUNT]


cdef LoadedPatterns patterns_for(tables, int cells, int bits, int goal_blank)

cdef void copy_patterns(Patterns* out, const Patterns* loaded) noexcept nogil

cdef void copy_duals(Duals* out, const Duals* loaded, int n_groups) noexcept nogil
