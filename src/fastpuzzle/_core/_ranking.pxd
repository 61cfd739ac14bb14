# Pattern-database indexing shared by the builder (_pdb) and the search (_idastar).
#
# A group of k tiles is placed on k distinct cells of an n-cell board. Its "sparse" index packs
# the cells 4 bits per slot (slot i at bits 4i..4i+3): 16**k entries, updated on a move by one add.
# Past 16 cells the cells are packed 5 bits per slot instead, and past 32 cells 6 bits (only
# compact ranks are stored there).
# Its "compact" rank numbers the n!/(n-k)! placements densely: slot i picks among the cells the
# earlier slots left free, rank = sum over slots of (cell's order among free cells) * weight[i].

from libc.stdint cimport uint64_t

cdef extern from *:
    int lowest_bit "__builtin_ctz"(unsigned int x) nogil
    int lowest_bit64 "__builtin_ctzll"(unsigned long long x) nogil

cdef inline void init_weights(uint64_t* weight, int k, int n) noexcept nogil:
    # weight[i] = (n - i - 1) * (n - i - 2) * ... * (n - k + 1)
    cdef int slot, i
    for slot in range(k):
        weight[slot] = 1
        for i in range(slot + 1, k):
            weight[slot] *= n - i

cdef inline int count_ones(unsigned int x) noexcept nogil:
    # Set bits of x, in plain arithmetic: __builtin_popcount is a library call (a fifth of a 7-8
    # search's time) unless the build targets a CPU with a popcount instruction.
    x = x - ((x >> 1) & 0x55555555u)
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u)
    x = (x + (x >> 4)) & 0x0F0F0F0Fu
    return <int>((x * 0x01010101u) >> 24)

cdef inline int count_ones64(uint64_t x) noexcept nogil:
    return count_ones(<unsigned int>x) + count_ones(<unsigned int>(x >> 32))

cdef inline uint64_t compact_rank_nibbles(
    uint64_t index, int k, const uint64_t* weight
) noexcept nogil:
    # compact_rank_bits for 4 bits per slot: nibble c of ``below`` counts the cells below c taken
    # by earlier slots, so each slot costs a shift and an add.
    cdef uint64_t rank = 0, below = 0, cell
    cdef int i
    for i in range(k):
        cell = (index >> (4 * i)) & 15
        rank += (cell - ((below >> (4 * cell)) & 15)) * weight[i]
        # two shifts: one of 64 bits (cell 15) would be undefined
        below += (0x1111111111111111ULL << (4 * cell)) << 4
    return rank

cdef extern from *:
    """
    #include <stdint.h>
    /* The compact rank of six slots of 5 bits: each digit is the slot's cell less the earlier
       slots' cells below it, one comparison a pair, with no chain of dependent steps (the 5x5
       tables' groups; a popcount without the instruction costs a dozen steps a slot). */
    static inline uint64_t fp_rank_six(uint64_t index, const uint64_t* w) {
        int c0 = (int)(index & 31), c1 = (int)((index >> 5) & 31),
            c2 = (int)((index >> 10) & 31), c3 = (int)((index >> 15) & 31),
            c4 = (int)((index >> 20) & 31), c5 = (int)((index >> 25) & 31);
        int d1 = c1 - (c0 < c1);
        int d2 = c2 - (c0 < c2) - (c1 < c2);
        int d3 = c3 - (c0 < c3) - (c1 < c3) - (c2 < c3);
        int d4 = c4 - (c0 < c4) - (c1 < c4) - (c2 < c4) - (c3 < c4);
        int d5 = c5 - (c0 < c5) - (c1 < c5) - (c2 < c5) - (c3 < c5) - (c4 < c5);
        return (uint64_t)c0 * w[0] + (uint64_t)d1 * w[1] + (uint64_t)d2 * w[2]
               + (uint64_t)d3 * w[3] + (uint64_t)d4 * w[4] + (uint64_t)d5 * w[5];
    }
    """
    uint64_t fp_rank_six(uint64_t index, const uint64_t* weight) nogil

cdef inline uint64_t compact_rank_wide(uint64_t index, int k, const uint64_t* weight,
                                       int bits) noexcept nogil:
    # The compact rank past 32 cells (cells of up to 6 bits, beyond a 32-bit set of used
    # cells): each digit is the slot's cell less the earlier slots' cells below it, as
    # fp_rank_six counts them.
    cdef uint64_t rank = 0, mask = ((<uint64_t>1) << bits) - 1
    cdef int i, j, cell, digit
    for i in range(k):
        cell = <int>((index >> (bits * i)) & mask)
        digit = cell
        for j in range(i):
            digit -= <int>((index >> (bits * j)) & mask) < cell
        rank += <uint64_t>digit * weight[i]
    return rank

cdef inline uint64_t compact_rank_bits(
    uint64_t index, int k, const uint64_t* weight, int bits
) noexcept nogil:
    # The compact rank of a placement whose cells are packed ``bits`` bits per slot (4 on boards
    # of up to 16 cells, 5 on boards of up to 32, 6 on boards of up to 64).
    cdef uint64_t rank = 0
    cdef unsigned int used = 0
    cdef unsigned int mask = (1u << bits) - 1
    cdef int i, cell
    if bits == 4:
        return compact_rank_nibbles(index, k, weight)
    if bits == 6:
        return compact_rank_wide(index, k, weight, bits)
    if k == 6:
        return fp_rank_six(index, weight)
    for i in range(k):
        cell = (index >> (bits * i)) & mask
        rank += (cell - count_ones(used & ((1u << cell) - 1))) * weight[i]
        used |= 1u << cell
    return rank

cdef inline uint64_t compact_rank(uint64_t index, int k, const uint64_t* weight) noexcept nogil:
    # The compact rank of a placement given by its sparse index (4 bits per slot).
    return compact_rank_bits(index, k, weight, 4)
