# Zero-aware pattern-database indexing, shared by the builder (_pdb) and the kernels' lookups
# (_pdbgroups, _wide_pdb). A zero-aware table keeps one entry per placement of the group's tiles
# AND region of free cells the blank is in (the cells the group leaves free split into regions
# where its tiles wall some off); a plain table keeps the least over the regions.
#
# Two parts:
#   first   one entry per placement, by its compact rank (as a plain table, _ranking.pxd): the
#           value with the blank in the placement's largest region (the first by smallest cell
#           where two are as large), its only one for most placements;
#   then    for each map (set of cells the tiles take) of several regions, in map order, a row
#           of k! entries per region but the largest (by smallest cell), each indexed by the
#           order of the slots over the map's cells (slot i's digit: the later slots' cells
#           below its own, weighted (k - 1 - i)!, a Lehmer code). Maps are ranked in the
#           combinatorial number system (sum over its cells c_0 < c_1 < ... of C(c_j, j + 1)).
# So the common case costs what a plain table's lookup does, and the same cache lines, plus a few
# steps of growing the blank's region: one holding most free cells is the largest. Only a blank
# in a small region (or one grown too slowly to tell) ranks the map and reads its record.
# The layout is laid out by _pdb.zero_layout.

from libc.stdint cimport uint8_t, uint32_t, uint64_t

from fastpuzzle._core._prefetch cimport prefetch
from fastpuzzle._core._ranking cimport compact_rank_bits, count_ones, count_ones64, lowest_bit

cdef enum:
    ZERO_CHOOSE = 32            # choose[c * ZERO_CHOOSE + j] = C(c, j)

cdef struct ZeroRecord:
    # A map of several regions.
    uint32_t first              # its first row in the second part
    uint32_t largest            # the cells of its largest region

cdef struct ZeroLayout:
    uint64_t maps               # sets of k cells
    uint64_t placements         # entries of the first part: n! / (n - k)!
    uint64_t orders             # k!
    uint64_t order_weight[32]   # (k - 1 - i)!
    const uint64_t* choose
    const uint64_t* several     # bit m: map m has several regions
    const uint32_t* before      # [m >> 6] -> maps of several regions before word m >> 6
    const ZeroRecord* records   # per map of several regions, in map order
    int n
    int k
    int cols
    unsigned int not_first_col
    unsigned int not_last_col

cdef inline unsigned int grow(const ZeroLayout* z, unsigned int region,
                              unsigned int free_cells) noexcept nogil:
    # region and the free cells next to it.
    return (region | ((region & z.not_last_col) << 1) | ((region & z.not_first_col) >> 1)
            | (region << z.cols) | (region >> z.cols)) & free_cells

cdef inline unsigned int zero_flood(const ZeroLayout* z, int start,
                                    unsigned int free_cells) noexcept nogil:
    # The connected region of free_cells around start.
    cdef unsigned int region = 1u << start, grown
    while True:
        grown = grow(z, region, free_cells)
        if grown == region:
            return region
        region = grown

cdef inline uint64_t map_rank(unsigned int taken, const uint64_t* choose) noexcept nogil:
    cdef uint64_t rank = 0
    cdef int j = 1
    while taken:
        rank += choose[lowest_bit(taken) * ZERO_CHOOSE + j]
        taken &= taken - 1
        j += 1
    return rank

cdef inline uint64_t order_rank(const int* cells, int k, unsigned int taken,
                                const uint64_t* weight) noexcept nogil:
    # The Lehmer code of which slot stands on which of the map's cells; weight[i] = (k-1-i)!.
    cdef uint64_t rank = 0
    cdef unsigned int later = taken
    cdef int i
    for i in range(k):
        later &= ~(1u << cells[i])
        rank += <uint64_t>count_ones(later & ((1u << cells[i]) - 1)) * weight[i]
    return rank

cdef inline int region_number(const ZeroLayout* z, unsigned int others, int cell) noexcept nogil:
    # The number, by smallest cell, of cell's region among the regions of ``others``.
    cdef unsigned int target = zero_flood(z, cell, others), region
    cdef int number = 0
    while True:
        region = zero_flood(z, lowest_bit(others), others)
        if region == target:
            return number
        others &= ~region
        number += 1

cdef inline const ZeroRecord* record_of(const ZeroLayout* z, uint64_t m) noexcept nogil:
    # Map m's record, or NULL when it has one region.
    cdef uint64_t word = z.several[m >> 6]
    if not (word >> (m & 63)) & 1:
        return NULL
    return &z.records[z.before[m >> 6] + count_ones64(word & (((<uint64_t>1) << (m & 63)) - 1))]

cdef inline uint64_t zero_second(const ZeroLayout* z, const int* cells, int k, unsigned int taken,
                                 unsigned int free_cells, int blank,
                                 uint64_t rank) noexcept nogil:
    # The entry once the blank's region was not found to hold most free cells: ``rank`` (the
    # first part's) unless the map has a larger region than the blank's.
    cdef const ZeroRecord* record = record_of(z, map_rank(taken, z.choose))
    if record == NULL or (record.largest >> blank) & 1:
        return rank
    return (z.placements
            + (<uint64_t>record.first + region_number(z, free_cells & ~record.largest, blank))
            * z.orders + order_rank(cells, k, taken, z.order_weight))

cdef inline uint64_t zero_entry(const ZeroLayout* z, uint64_t index, int k, int bits, int blank,
                                const uint64_t* weight, const uint8_t* table,
                                int shift) noexcept nogil:
    # The entry of a placement given by its sparse index (cells ``bits`` bits a slot, ``weight``
    # its compact rank's) with the blank on ``blank`` (a cell the group leaves free).
    # ``table``: the first part's entry is fetched ahead where not NULL (``shift``: 1 for two
    # entries a byte, else 0): nearly always the right one, and then its load overlaps the rest.
    cdef uint64_t rank = compact_rank_bits(index, k, weight, bits)
    cdef int cells[32]
    cdef unsigned int taken = 0, mask = (1u << bits) - 1, free_cells, region
    cdef int i
    if table != NULL:
        prefetch(&table[rank >> shift])
    for i in range(k):
        cells[i] = <int>((index >> (bits * i)) & mask)
        taken |= 1u << cells[i]
    free_cells = ((1u << z.n) - 1) & ~taken
    region = grow(z, grow(z, grow(z, 1u << blank, free_cells), free_cells), free_cells)
    region = grow(z, grow(z, region, free_cells), free_cells)
    if count_ones(region) * 2 > z.n - z.k:
        return rank
    return zero_second(z, cells, k, taken, free_cells, blank, rank)
