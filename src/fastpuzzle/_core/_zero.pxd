# Zero-aware pattern-database indexing, shared by the builder (_pdb) and the kernels' lookups
# (_pdbgroups, _wide_pdb). A zero-aware table keeps one entry per placement of the group's tiles
# AND region of free cells the blank is in (the cells the group leaves free split into regions
# where its tiles wall some off); a plain table keeps the least over the regions.
#
# Its index is order * rows + row (rows: every map's, one per (map, region) pair), so that a
# tile's move that keeps the tiles' order (every sideways one) moves the entry by a few rows:
#   map     the set of cells the k tiles take, ranked in the combinatorial number system
#           (sum over its cells c_0 < c_1 < ... of C(c_j, j + 1)): the order of a k-bit mask's
#           numeric value; there are M of them;
#   order   which tile stands on which of the map's cells: slot i's digit is the number of later
#           slots' cells below its own, weighted (k - 1 - i)! (a Lehmer code);
#   row     the map's rank when the blank is in its largest region (the first region by
#           smallest cell where two are as large), else M + the map's first row past M (the
#           other regions of the maps before it) + the region's number among its other
#           regions (by smallest cell).
# So the common case, a map of one region or the blank in its largest, reads one bit of a
# small bitmap (which maps have several regions) besides the table: the layout is laid out by
# _pdb.zero_layout, and the index reads no per-map record unless the map has several regions.

from libc.stdint cimport uint8_t, uint32_t, uint64_t

from fastpuzzle._core._ranking cimport count_ones, lowest_bit

cdef enum:
    ZERO_CHOOSE = 32            # choose[c * ZERO_CHOOSE + j] = C(c, j)

cdef struct ZeroRecord:
    # A map of several regions.
    uint32_t first              # its first row past M, less M
    uint32_t largest            # the cells of its largest region

cdef struct ZeroLayout:
    uint64_t maps               # M
    uint64_t rows               # every map's rows: (map, region) pairs
    const uint64_t* choose
    const uint64_t* several     # bit m: map m has several regions
    const uint32_t* before      # [m >> 6] -> maps of several regions before word m >> 6
    const ZeroRecord* records   # per map of several regions, in map order
    int n
    int k
    int cols
    unsigned int not_first_col
    unsigned int not_last_col

cdef inline int count_ones64(uint64_t x) noexcept nogil:
    return count_ones(<unsigned int>x) + count_ones(<unsigned int>(x >> 32))

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
        grown = (region | ((region & z.not_last_col) << 1) | ((region & z.not_first_col) >> 1)
                 | (region << z.cols) | (region >> z.cols)) & free_cells
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

cdef inline uint64_t zero_row(const ZeroLayout* z, uint64_t m, unsigned int taken,
                              int blank) noexcept nogil:
    # The row of map m (its cells ``taken``) with the blank on the free cell ``blank``.
    cdef uint64_t word, below
    cdef const ZeroRecord* record
    cdef unsigned int others, region, target
    cdef unsigned int free_cells = ((1u << z.n) - 1) & ~taken
    cdef int number = 0
    # A region holding most free cells is the largest: three steps from the blank most often
    # reach that many, which settles it without the bitmap's cache miss.
    region = grow(z, grow(z, grow(z, 1u << blank, free_cells), free_cells), free_cells)
    if count_ones(region) * 2 > z.n - z.k:
        return m
    word = z.several[m >> 6]
    if not (word >> (m & 63)) & 1:
        return m
    below = word & (((<uint64_t>1) << (m & 63)) - 1)
    record = &z.records[z.before[m >> 6] + count_ones64(below)]
    if (record.largest >> blank) & 1:
        return m
    # The blank is in one of the smaller regions: its number among them by smallest cell.
    others = free_cells & ~record.largest
    target = zero_flood(z, blank, others)
    while True:
        region = zero_flood(z, lowest_bit(others), others)
        if region == target:
            return z.maps + record.first + number
        others &= ~region
        number += 1

cdef extern from *:
    void zero_prefetch "__builtin_prefetch"(const void* address) nogil

cdef extern from *:
    """
    #include <stdint.h>
    /* Both ranks of a placement of six tiles (see _zero.pxd), unrolled: the compiler keeps it
       in registers. */
    #define FP_LT(a, b) ((uint64_t)((a) < (b)))
    static inline void fp_zero_six(const int* c, const uint64_t* choose, const uint64_t* w,
                                   uint64_t* map_out, uint64_t* order_out) {
        uint64_t l01 = FP_LT(c[1], c[0]), l02 = FP_LT(c[2], c[0]), l03 = FP_LT(c[3], c[0]),
                 l04 = FP_LT(c[4], c[0]), l05 = FP_LT(c[5], c[0]), l12 = FP_LT(c[2], c[1]),
                 l13 = FP_LT(c[3], c[1]), l14 = FP_LT(c[4], c[1]), l15 = FP_LT(c[5], c[1]),
                 l23 = FP_LT(c[3], c[2]), l24 = FP_LT(c[4], c[2]), l25 = FP_LT(c[5], c[2]),
                 l34 = FP_LT(c[4], c[3]), l35 = FP_LT(c[5], c[3]), l45 = FP_LT(c[5], c[4]);
        uint64_t b0 = l01 + l02 + l03 + l04 + l05, b1 = l12 + l13 + l14 + l15,
                 b2 = l23 + l24 + l25, b3 = l34 + l35, b4 = l45;
        uint64_t p0 = b0, p1 = b1 + (1 - l01), p2 = b2 + (2 - l02 - l12),
                 p3 = b3 + (3 - l03 - l13 - l23), p4 = b4 + (4 - l04 - l14 - l24 - l34),
                 p5 = 5 - l05 - l15 - l25 - l35 - l45;
        *map_out = choose[c[0] * 32 + p0 + 1] + choose[c[1] * 32 + p1 + 1]
                   + choose[c[2] * 32 + p2 + 1] + choose[c[3] * 32 + p3 + 1]
                   + choose[c[4] * 32 + p4 + 1] + choose[c[5] * 32 + p5 + 1];
        *order_out = b0 * w[0] + b1 * w[1] + b2 * w[2] + b3 * w[3] + b4 * w[4];
    }
    """
    void fp_zero_six(const int* c, const uint64_t* choose, const uint64_t* w, uint64_t* map_out,
                     uint64_t* order_out) noexcept nogil

cdef inline uint64_t zero_entry(const ZeroLayout* z, uint64_t index, int k, int bits, int blank,
                                const uint64_t* weight, uint64_t orders, const uint8_t* table,
                                int shift) noexcept nogil:
    # The entry of a placement given by its sparse index (cells ``bits`` bits a slot) with the
    # blank on ``blank`` (a cell the group leaves free); ``orders`` = k!. ``table``: fetched
    # ahead where not NULL (``shift``: 1 for two entries a byte, else 0).
    cdef int cells[32]
    cdef unsigned int taken = 0, mask = (1u << bits) - 1
    cdef int i
    cdef uint64_t m, order
    for i in range(k):
        cells[i] = <int>((index >> (bits * i)) & mask)
        taken |= 1u << cells[i]
    if k == 6:
        fp_zero_six(cells, z.choose, weight, &m, &order)
    else:
        m = map_rank(taken, z.choose)
        order = order_rank(cells, k, taken, weight)
    if table != NULL:
        # The entry of the blank in the map's largest region, fetched while the row is found:
        # nearly always the right one, and the two loads then overlap.
        zero_prefetch(&table[(order * z.rows + m) >> shift])
    return order * z.rows + zero_row(z, m, taken, blank)
