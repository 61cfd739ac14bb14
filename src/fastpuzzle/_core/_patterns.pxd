# A pattern database's groups laid out once for the IDA* kernels (see _patterns.pyx).

from fastpuzzle._core._pdbgroups cimport Patterns


cdef class LoadedPatterns:
    cdef Patterns pat
    cdef readonly int cells
    cdef readonly int bits
    cdef readonly int goal_blank
    cdef readonly list arrays       # the tables pat's pointers read, kept alive


cdef LoadedPatterns patterns_for(tables, int cells, int bits, int goal_blank)

cdef void copy_patterns(Patterns* out, const Patterns* loaded) noexcept nogil
