# splitmix64 (Steele, Lea and Flood, 2014): a good 64-bit generator from one word of state, for
# the kernels that draw numbers without the GIL (the machine's Zobrist keys, the table check's
# sample of placements).

from libc.stdint cimport uint64_t


cdef inline uint64_t splitmix(uint64_t* state) noexcept nogil:
    # The next number; the state advances by the golden gamma.
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)
