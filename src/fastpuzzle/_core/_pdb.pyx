"""Pattern-database construction (a breadth-first search tracking the blank) and walking-distance
tables.

A group's abstract state is the cells of its k tiles plus the blank's cell. Moving the blank onto a
cell no group tile holds costs 0; sliding a group tile costs 1. States that differ only by where
the blank sits in one connected region of free cells are therefore the same, so the builder's
states are (placement, region of free cells) and it runs a plain BFS on unit-cost moves. The value
of a placement is the least over its regions: the level at which BFS first reaches it.

The BFS keeps no queue: one word per placement (by compact rank) is the frontier. It holds 2 bits
per free cell (the cells the group leaves free, in order), each cell of a region holding its
region's code: 0 not reached yet, 3 reached at an earlier level, 1 or 2 (alternately) reached at
the current level or at the next one. Each level scans the words in order. Forward, a word holding
current cells expands those regions and marks each unreached neighbouring region with the next
code; once the placements left unreached are under a quarter of the regions just reached,
backward, a word holding unreached regions marks those with a neighbour holding the current code.
Forward scans skip blocks that the previous level marked nothing in, so early levels cost little.

Blocks of words are shared out to threads (Python threads, each running with the GIL released)
as they come free. Marks are atomic ORs of the same code into cells that held 0, so they commute:
the interleaving changes nothing, and the levels are exactly those of a one-thread BFS. Threads
started by the interpreter need no OpenMP (no compile flags, and no runtime that breaks in a
forked child); the main thread checks for Ctrl-C between blocks. Compilers without GCC-style
atomics build a one-thread builder.

Tables store ``(value - Manhattan distance of the group's tiles) / 2`` (always a whole number:
every tile move changes that Manhattan distance by one), 4 bits per entry where every entry fits,
else one byte. See ``_ranking.pxd`` for sparse and compact indexing. Boards of up to 64 cells are
built (5x5, 6x6, 7x7 and rectangles such as 4x6 or 3x8); past 16 cells a group's cells are packed
5 bits per slot (6 past 32 cells) and only compact tables are made (a sparse 32**k range would be
mostly empty). A placement's word holds 2 bits per free cell, in 16 to 128 bits (two 64-bit
halves past 32 free cells), so a group leaves at most 64 cells free (zero-aware tables stop at
25 cells).
"""

import os
import threading
from time import monotonic, sleep

import numpy as np

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t

from fastpuzzle._core._ranking cimport (
    compact_rank_bits,
    count_ones64,
    init_weights,
    lowest_bit64,
)
from fastpuzzle._core._zero cimport (
    ZERO_CHOOSE,
    ZeroLayout,
    ZeroRecord,
    map_rank,
    order_rank,
    record_of,
    region_number,
    zero_entry,
    zero_flood,
)

from fastpuzzle._core._control cimport monotonic_seconds
from fastpuzzle._core._prefetch cimport prefetch
from fastpuzzle._core._splitmix cimport splitmix
from fastpuzzle._core._interrupt cimport poll_interrupt

cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #if defined(__GNUC__) || defined(__clang__)
    #define FP_THREADS 1
    #define FP_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define FP_OR(p, v) __atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
    #define FP_PREFETCH(p) __builtin_prefetch(p)
    static inline uint64_t fp_take(uint64_t* p, uint64_t v) {
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    }
    static inline int fp_flag(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void fp_raise(int* p) { __atomic_store_n(p, 1, __ATOMIC_RELAXED); }
    static inline void fp_set_byte(uint8_t* p) { __atomic_store_n(p, 1, __ATOMIC_RELAXED); }
    static inline void fp_max(int* p, int v) {
        int seen = __atomic_load_n(p, __ATOMIC_RELAXED);
        while (v > seen && !__atomic_compare_exchange_n(p, &seen, v, 1, __ATOMIC_RELAXED,
                                                        __ATOMIC_RELAXED)) {}
    }
    #else
    /* No atomics known: the builder runs on one thread, where plain accesses do. */
    #define FP_THREADS 0
    #define FP_LOAD(p) (*(p))
    #define FP_PREFETCH(p) ((void)(p))
    static inline uint64_t fp_take(uint64_t* p, uint64_t v) {
        uint64_t old = *p;
        *p = old + v;
        return old;
    }
    static inline int fp_flag(const int* p) { return *p; }
    static inline void fp_raise(int* p) { *p = 1; }
    static inline void fp_set_byte(uint8_t* p) { *p = 1; }
    static inline void fp_max(int* p, int v) { if (v > *p) *p = v; }
    #endif

    /* A word of the state array, 16, 32 or 64 bits wide. */
    static inline uint64_t fp_word(const void* s, int width, uint64_t i) {
        if (width == 16) return FP_LOAD((const uint16_t*)s + i);
        if (width == 32) return FP_LOAD((const uint32_t*)s + i);
        return FP_LOAD((const uint64_t*)s + i);
    }

    /* ORs bits into a word; returns the word before. */
    static inline uint64_t fp_mark(void* s, int width, uint64_t i, uint64_t bits) {
    #if FP_THREADS
        if (width == 16) return FP_OR((uint16_t*)s + i, (uint16_t)bits);
        if (width == 32) return FP_OR((uint32_t*)s + i, (uint32_t)bits);
        return FP_OR((uint64_t*)s + i, bits);
    #else
        uint64_t old = fp_word(s, width, i);
        if (width == 16) ((uint16_t*)s)[i] = (uint16_t)(old | bits);
        else if (width == 32) ((uint32_t*)s)[i] = (uint32_t)(old | bits);
        else ((uint64_t*)s)[i] = old | bits;
        return old;
    #endif
    }

    /* Eight bytes of the state array at once, to skip words with nothing to do. A stale
       value only costs a word-by-word look: what decides is read word by word, atomically. */
    static inline uint64_t fp_eight(const void* s, uint64_t byte) {
        uint64_t out;
        memcpy(&out, (const char*)s + byte, 8);
        return out;
    }

    static inline void fp_prefetch_word(const void* s, int width, uint64_t i) {
        FP_PREFETCH((const char*)s + i * (uint64_t)(width / 8));
    }

    /* Zeroed memory for the state array, on 2 MiB huge pages where the system has them: its
       reads and writes land anywhere in up to a gigabyte, and with 4 KiB pages nearly every one
       would also miss the TLB. */
    #if defined(__unix__) || defined(__APPLE__)
    #include <sys/mman.h>
    #define FP_HUGE ((uint64_t)2 << 20)
    static void* fp_map(uint64_t bytes, void** base, uint64_t* mapped) {
        char* p = (char*)mmap(NULL, bytes + FP_HUGE, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char* aligned;
        if (p == MAP_FAILED) return NULL;
        *base = p;
        *mapped = bytes + FP_HUGE;
        aligned = (char*)(((uintptr_t)p + FP_HUGE - 1) & ~(uintptr_t)(FP_HUGE - 1));
    #ifdef MADV_HUGEPAGE
        madvise(aligned, bytes, MADV_HUGEPAGE);
    #endif
        return aligned;
    }
    static void fp_unmap(void* base, uint64_t mapped) { if (base) munmap(base, mapped); }
    #else
    static void* fp_map(uint64_t bytes, void** base, uint64_t* mapped) {
        *base = calloc(bytes, 1);
        *mapped = bytes;
        return *base;
    }
    static void fp_unmap(void* base, uint64_t mapped) { free(base); }
    #endif
    """
    enum: FP_THREADS
    uint64_t fp_take(uint64_t* p, uint64_t v) noexcept nogil
    int fp_flag(const int* p) noexcept nogil
    void fp_raise(int* p) noexcept nogil
    void fp_set_byte(uint8_t* p) noexcept nogil
    void fp_max(int* p, int v) noexcept nogil
    uint64_t fp_word(const void* s, int width, uint64_t i) noexcept nogil
    uint64_t fp_mark(void* s, int width, uint64_t i, uint64_t bits) noexcept nogil
    uint64_t fp_eight(const void* s, uint64_t byte) noexcept nogil
    void fp_prefetch_word(const void* s, int width, uint64_t i) noexcept nogil
    void* fp_map(uint64_t bytes, void** base, uint64_t* mapped) noexcept nogil
    void fp_unmap(void* base, uint64_t mapped) noexcept nogil

cdef extern from *:
    """
    /* Words of 128 bits, for groups that leave 33 to 64 cells free: two 64-bit halves, each
       read and marked atomically on its own. A thread counts a region when it set any of its
       bits (settle), so a region two threads mark at once is counted once or twice, never
       missed; the count of placements reached for the first time may be off by such a
       region (it chooses when scans run backward and what progress shows, not the levels). */
    #if defined(__SIZEOF_INT128__)
    #define FP_WIDE 1
    typedef unsigned __int128 fp_u128;
    static inline fp_u128 fp_word128(const void* s, uint64_t i) {
        const uint64_t* p = (const uint64_t*)s + 2 * i;
        return ((fp_u128)FP_LOAD(p + 1) << 64) | FP_LOAD(p);
    }
    static inline fp_u128 fp_mark128(void* s, uint64_t i, fp_u128 bits) {
        uint64_t* p = (uint64_t*)s + 2 * i;
        uint64_t low = (uint64_t)bits, high = (uint64_t)(bits >> 64), old_low, old_high;
    #if FP_THREADS
        old_low = low ? FP_OR(p, low) : FP_LOAD(p);
        old_high = high ? FP_OR(p + 1, high) : FP_LOAD(p + 1);
    #else
        old_low = p[0];
        old_high = p[1];
        p[0] = old_low | low;
        p[1] = old_high | high;
    #endif
        return ((fp_u128)old_high << 64) | old_low;
    }
    #else
    /* No 128-bit integers: build_levels refuses groups that would need them. */
    #define FP_WIDE 0
    typedef uint64_t fp_u128;
    static inline fp_u128 fp_word128(const void* s, uint64_t i) { return 0; }
    static inline fp_u128 fp_mark128(void* s, uint64_t i, fp_u128 bits) { return 0; }
    #endif
    """
    # Declared to Cython as another integer type than uint64_t (unsigned long long), so that
    # the fused Bits keeps two specializations; the C code names the real type.
    ctypedef unsigned long fp_u128
    enum: FP_WIDE
    fp_u128 fp_word128(const void* s, uint64_t i) noexcept nogil
    fp_u128 fp_mark128(void* s, uint64_t i, fp_u128 bits) noexcept nogil

# A word of the state array as the scans hold it: 16 to 64 bits in a uint64_t, or 128 bits.
ctypedef fused Bits:
    uint64_t
    fp_u128

# A set of cells, one bit each: boards of up to 64 cells.
ctypedef uint64_t cellset

cdef enum:
    UNSEEN = 255
    BUILD_MAX_CELLS = 64
    # A placement's word holds 2 bits per cell the group leaves free, in at most 128 bits.
    BUILD_MAX_FREE = 64
    # Zero-aware layouts keep their cell sets in 32 bits (_zero.pxd).
    ZERO_MAX_CELLS = 25
    MAX_CHILDREN = 4 * BUILD_MAX_CELLS
    BLOCK_BITS = 12             # placements per block: the unit of work a thread takes
    BLOCK = 1 << BLOCK_BITS
    CHECK_EVERY = 32            # blocks the main thread runs between two checks for Ctrl-C
    # A level runs backward once the placements left unreached are fewer than a quarter of the
    # regions reached at the previous one: from then on, looking for a neighbour holding the
    # current code from each unreached region costs less than expanding the frontier. (Earlier,
    # most unreached regions find none, level after level: on 7-8's groups switching where the
    # two counts meet cost 10% more than never switching.)
    BACKWARD_UNREACHED = 4
    BACKWARD_FRONTIER = 1
    WALKING_SLICE = 4096        # walking-distance states between two looks at the deadline


class DeadlinePassed(Exception):
    """A build was given a deadline (``time.monotonic()`` seconds) and it passed first."""


cdef enum Pass:
    FORWARD = 0
    BACKWARD = 1
    PACK = 2


cdef struct Builder:
    int rows
    int cols
    int n
    int k
    int bits                    # bits per slot of a sparse index: 4 up to 16 cells, else 5
    int8_t row_of[BUILD_MAX_CELLS]
    int8_t col_of[BUILD_MAX_CELLS]
    int home[BUILD_MAX_CELLS]   # [slot] -> goal cell of the slot's tile
    cellset not_first_col  # cells not in the first column
    cellset not_last_col
    int sparse                  # 1: tables indexed by sparse index (k <= 6), 0: by compact rank
    uint64_t weight[BUILD_MAX_CELLS]
    uint64_t placements


cdef struct Decoder:
    # A placement decoded from its compact rank. It is kept from one rank to the next: ranks met
    # in increasing order mostly differ in their last slots, and only those are worked out again.
    uint64_t quotient[BUILD_MAX_CELLS]          # [slot] -> rank // weight[slot]
    int pos[BUILD_MAX_CELLS]                    # [slot] -> cell
    cellset before[BUILD_MAX_CELLS + 1]    # [slot] -> cells of the slots before it
    int8_t slot_at[BUILD_MAX_CELLS]             # [cell] -> slot, -1: none


cdef struct Job:
    # What the threads of one pass share.
    Builder b
    void* state                 # [rank] -> word of 2-bit codes, one per free cell
    int width                   # bits per word: 16, 32 or 64
    uint64_t low                # 01 repeated over the free cells of a word (up to 64 bits)
    fp_u128 low_wide            # the same in a word of 128 bits
    uint8_t* levels             # [rank] -> BFS level first reached, UNSEEN: not yet
    uint8_t* dirty              # [block] -> 1 where the current level's regions may lie
    uint8_t* dirty_next
    uint64_t blocks
    int kind                    # a Pass
    int level
    int current                 # code of the current level's regions: 1 or 2
    uint64_t next_block
    uint64_t new_regions
    uint64_t new_placements
    int stop
    double deadline             # CLOCK_MONOTONIC seconds (time.monotonic()); 0: none
    int deadline_passed
    # zero-aware levels (see _zero.pxd): [entry] -> BFS level, UNSEEN: not yet
    int zero
    uint8_t* zlevels
    const ZeroLayout* layout
    # pack_table's pass
    const uint8_t* values
    uint8_t* extra
    int largest
    int bad
    int distance[BUILD_MAX_CELLS][BUILD_MAX_CELLS]  # [slot][cell] -> Manhattan distance home


cdef inline int home_distance(const Builder* b, int slot, int cell) noexcept nogil:
    # Manhattan distance from cell to the goal cell of the slot's tile.
    return (abs(b.row_of[cell] - b.row_of[b.home[slot]])
            + abs(b.col_of[cell] - b.col_of[b.home[slot]]))


cdef inline cellset all_cells(int n) noexcept nogil:
    # The cells of an n-cell board, 1 <= n <= 64 (a shift by 64 would be undefined).
    return (~(<cellset>0)) >> (64 - n)


cdef inline cellset flood(const Builder* b, int start, cellset free_cells) noexcept nogil:
    # The connected region of free cells around start (start is free: it holds the blank).
    cdef cellset region = (<cellset>1) << start, grown
    while True:
        grown = (region | ((region & b.not_last_col) << 1) | ((region & b.not_first_col) >> 1)
                 | (region << b.cols) | (region >> b.cols)) & free_cells
        if grown == region:
            return region
        region = grown


cdef inline int nth_bit(cellset bits, int nth) noexcept nogil:
    while nth > 0:
        bits &= bits - 1
        nth -= 1
    return lowest_bit64(bits)


cdef inline void reset_decoder(const Builder* b, Decoder* dec) noexcept nogil:
    cdef int slot, cell
    for slot in range(b.k):
        dec.quotient[slot] = <uint64_t>-1     # no rank: the first decode works out every slot
        dec.pos[slot] = 0
    for cell in range(BUILD_MAX_CELLS):
        dec.slot_at[cell] = -1
    dec.before[0] = 0


cdef inline void decode(const Builder* b, Decoder* dec, uint64_t rank) noexcept nogil:
    # Slot s's digit is quotient[s] - quotient[s - 1] * (n - s): the cell it picks among those
    # the earlier slots left free. Quotients are compared from the last slot up, and the first
    # that is unchanged leaves every earlier slot as it was.
    cdef int slot = b.k - 1, first, digit
    cdef uint64_t quotient = rank
    cdef cellset full = all_cells(b.n)
    while slot >= 0 and dec.quotient[slot] != quotient:
        dec.quotient[slot] = quotient
        if quotient <= 0xffffffffu:
            # A 32-bit division takes a fraction of the time of a 64-bit one.
            quotient = <unsigned int>quotient // <unsigned int>(b.n - slot)
        else:
            quotient //= <uint64_t>(b.n - slot)
        slot -= 1
    first = slot + 1
    for slot in range(first, b.k):
        dec.slot_at[dec.pos[slot]] = -1
    for slot in range(first, b.k):
        digit = <int>(dec.quotient[slot]
                      - (dec.quotient[slot - 1] * <uint64_t>(b.n - slot) if slot else 0))
        dec.pos[slot] = nth_bit(full & ~dec.before[slot], digit)
        dec.before[slot + 1] = dec.before[slot] | ((<cellset>1) << dec.pos[slot])
        dec.slot_at[dec.pos[slot]] = slot


cdef struct Word:
    # What expanding a placement needs beyond its decoded cells.
    cellset occupied
    cellset free_cells
    int below[BUILD_MAX_CELLS]  # [cell] -> free cells below it: a free cell's index among them


cdef inline void describe(const Builder* b, const Decoder* dec, Word* w) noexcept nogil:
    cdef int cell, count = 0
    w.occupied = dec.before[b.k]
    w.free_cells = (all_cells(b.n)) & ~w.occupied
    for cell in range(b.n):
        w.below[cell] = count
        count += (w.free_cells >> cell) & 1


cdef inline uint64_t vertical_rank(const Builder* b, const Decoder* dec, const Word* w,
                                   uint64_t rank, int source, int target) noexcept nogil:
    # The rank once the tile on source slides to target, a row away. Its slot's digit moves by
    # the cells between them less those the earlier slots hold; each later slot whose cell lies
    # between gains or loses one used cell below it. (A sideways move has no cell between: the
    # digit moves by one.)
    cdef int slot = dec.slot_at[source], other
    cdef int64_t weight = <int64_t>b.weight[slot]
    cdef int64_t change = (target - source) * weight
    cdef cellset between
    if target > source:
        between = (((<cellset>1) << target) - ((<cellset>2) << source)) & w.occupied
        while between:
            other = dec.slot_at[lowest_bit64(between)]
            change += -weight if other < slot else <int64_t>b.weight[other]
            between &= between - 1
    else:
        between = (((<cellset>1) << source) - ((<cellset>2) << target)) & w.occupied
        while between:
            other = dec.slot_at[lowest_bit64(between)]
            change += weight if other < slot else -<int64_t>b.weight[other]
            between &= between - 1
    return rank + <uint64_t>change


cdef inline int child_index(const Word* w, int cell, int source, int target) noexcept nogil:
    # Index of cell among the free cells once the tile on source has slid to target.
    return w.below[cell] + (source < cell) - (target < cell)


cdef inline Bits load_word(const Job* job, uint64_t rank, Bits low) noexcept nogil:
    # The word of placement ``rank`` (``low`` picks the width: job.low or job.low_wide).
    if Bits is fp_u128:
        return fp_word128(job.state, rank)
    else:
        return fp_word(job.state, job.width, rank)


cdef inline Bits mark_word(Job* job, uint64_t rank, Bits bits) noexcept nogil:
    # ORs bits into the word of placement ``rank``; returns the word before.
    if Bits is fp_u128:
        return fp_mark128(job.state, rank, bits)
    else:
        return fp_mark(job.state, job.width, rank, bits)


cdef inline Bits child_marks(const Word* w, cellset region, int source, int target,
                             Bits low) noexcept nogil:
    # A bit at 2 * (index among the child's free cells) for each cell of region.
    cdef Bits out = 0
    cdef int cell
    if region == (w.free_cells ^ ((<cellset>1) << source) ^ ((<cellset>1) << target)):
        return low
    while region:
        cell = lowest_bit64(region)
        region &= region - 1
        out |= (<Bits>1) << (2 * child_index(w, cell, source, target))
    return out


cdef inline Bits own_marks(const Word* w, cellset region, Bits low) noexcept nogil:
    cdef Bits out = 0
    cdef int cell
    if region == w.free_cells:
        return low
    while region:
        cell = lowest_bit64(region)
        region &= region - 1
        out |= (<Bits>1) << (2 * w.below[cell])
    return out


cdef inline cellset gather(cellset free_cells, Bits marks) noexcept nogil:
    # The cells whose bit is set in marks (one bit at 2 * index among the free cells).
    cdef cellset out = 0
    cdef int cell
    while free_cells:
        cell = lowest_bit64(free_cells)
        free_cells &= free_cells - 1
        if marks & 1:
            out |= (<cellset>1) << cell
        marks >>= 2
    return out


cdef inline Bits cells_with(Bits word, Bits pattern, Bits low) noexcept nogil:
    # A bit at 2 * i for each free cell i whose code in word is the one repeated in pattern.
    cdef Bits x = word ^ pattern
    return ~(x | (x >> 1)) & low


cdef inline int children(const Job* job, const Decoder* dec, const Word* w, uint64_t rank,
                         cellset region, uint64_t* ranks, int8_t* sources, int8_t* targets,
                         int8_t* shifts, int n) noexcept nogil:
    # Appends the placements one tile move away with the blank in region (the tile on a cell
    # next to the region slides onto it; the blank lands where the tile was), their words
    # fetched ahead: those reads miss the cache, and issuing them together lets them overlap.
    # One mask per direction keeps the branches few and predictable. shifts: 2 * the index of
    # the tile's old cell among the child's free cells, where the child's region code sits.
    cdef const Builder* b = &job.b
    cdef cellset m
    cdef int c, q
    m = region & (w.occupied >> 1) & b.not_last_col
    while m:
        c = lowest_bit64(m)
        m &= m - 1
        q = c + 1
        ranks[n] = rank - b.weight[dec.slot_at[q]]
        sources[n] = q
        targets[n] = c
        shifts[n] = 2 * w.below[c]
        fp_prefetch_word(job.state, job.width, ranks[n])
        n += 1
    m = region & (w.occupied << 1) & b.not_first_col
    while m:
        c = lowest_bit64(m)
        m &= m - 1
        q = c - 1
        ranks[n] = rank + b.weight[dec.slot_at[q]]
        sources[n] = q
        targets[n] = c
        shifts[n] = 2 * w.below[c]
        fp_prefetch_word(job.state, job.width, ranks[n])
        n += 1
    m = region & (w.occupied >> b.cols)
    while m:
        c = lowest_bit64(m)
        m &= m - 1
        q = c + b.cols
        ranks[n] = vertical_rank(b, dec, w, rank, q, c)
        sources[n] = q
        targets[n] = c
        shifts[n] = 2 * (w.below[q] - 1)
        fp_prefetch_word(job.state, job.width, ranks[n])
        n += 1
    m = region & (w.occupied << b.cols)
    while m:
        c = lowest_bit64(m)
        m &= m - 1
        q = c - b.cols
        ranks[n] = vertical_rank(b, dec, w, rank, q, c)
        sources[n] = q
        targets[n] = c
        shifts[n] = 2 * w.below[q]
        fp_prefetch_word(job.state, job.width, ranks[n])
        n += 1
    return n


cdef struct Batch:
    # A word's children, their words fetched ahead; settled after the next word's are fetched,
    # so the fetches have that long to arrive.
    Word w
    int n
    uint64_t ranks[MAX_CHILDREN]
    int8_t sources[MAX_CHILDREN]
    int8_t targets[MAX_CHILDREN]
    int8_t shifts[MAX_CHILDREN]


cdef void collect(Job* job, Decoder* dec, uint64_t rank, Bits current, Batch* batch,
                  Bits low) noexcept nogil:
    # Forward: the children of the word's current regions, all at once (their children are
    # those of each region), into batch; the regions then become 3, so the code can be reused
    # two levels on.
    decode(&job.b, dec, rank)
    describe(&job.b, dec, &batch.w)
    batch.n = children(
        job, dec, &batch.w, rank,
        batch.w.free_cells if current == low else gather[Bits](batch.w.free_cells, current),
        batch.ranks, batch.sources, batch.targets, batch.shifts, 0,
    )
    mark_word[Bits](job, rank, current * <Bits>(job.current ^ 3))


cdef void settle(Job* job, const Batch* batch, uint64_t* counts, Bits low) noexcept nogil:
    # Forward: marks the batch's unreached children with the next code.
    cdef const Word* w = &batch.w
    cdef cellset region
    cdef uint64_t rank
    cdef Bits old, marks, code = 3 - job.current
    cdef int i, q, c, shift
    for i in range(batch.n):
        rank = batch.ranks[i]
        shift = batch.shifts[i]
        # A repeat costs one test: only a new region is flooded.
        if (load_word[Bits](job, rank, low) >> shift) & 3:
            continue
        q = batch.sources[i]
        c = batch.targets[i]
        region = flood(&job.b, q, w.free_cells ^ ((<cellset>1) << q) ^ ((<cellset>1) << c))
        marks = child_marks[Bits](w, region, q, c, low) * code
        old = mark_word[Bits](job, rank, marks)
        if (old & marks) != marks:
            # This thread set some of the region's bits, so it counts it. Asking whether it
            # set the bits at its own cell (shift) is not enough for words of two halves: two
            # threads from different parents, each marking one half first, could each find
            # the other's code at its own cell, and neither counted the region nor marked its
            # block to scan (its entries would have come two levels late). Here the first to
            # mark a half counts: the region once or twice, never not at all.
            counts[0] += 1
            counts[1] += old == 0
            if not job.dirty_next[rank >> BLOCK_BITS]:
                # Read first: writing a line other threads read and write costs far more.
                fp_set_byte(&job.dirty_next[rank >> BLOCK_BITS])


cdef Bits reach(Job* job, Decoder* dec, uint64_t rank, Bits unseen, uint64_t* counts,
                Bits low) noexcept nogil:
    # Backward: the bits that mark the word's unreached regions that have a neighbour holding
    # the current code with the next code.
    cdef uint64_t ranks[MAX_CHILDREN]
    cdef int8_t sources[MAX_CHILDREN]
    cdef int8_t targets[MAX_CHILDREN]
    cdef int8_t shifts[MAX_CHILDREN]
    cdef Word w
    cdef const Builder* b = &job.b
    cdef cellset pending, region
    cdef Bits out = 0, code = 3 - job.current
    cdef int n, i
    decode(b, dec, rank)
    describe(b, dec, &w)
    pending = w.free_cells if unseen == low else gather[Bits](w.free_cells, unseen)
    while pending:
        region = flood(b, lowest_bit64(pending), w.free_cells)
        pending &= ~region
        n = children(job, dec, &w, rank, region, ranks, sources, targets, shifts, 0)
        for i in range(n):
            if <int>((load_word[Bits](job, ranks[i], low) >> shifts[i]) & 3) == job.current:
                out |= own_marks[Bits](&w, region, low) * code
                counts[0] += 1
                break
    return out


cdef void record_regions(Job* job, Decoder* dec, uint64_t rank, uint64_t marks) noexcept nogil:
    # Zero-aware: the level of each region of the placement that holds the current code (one
    # thread scans a word, so no other writes these entries).
    cdef const Builder* b = &job.b
    cdef const ZeroLayout* z = job.layout
    cdef const ZeroRecord* record
    cdef cellset taken, marked, free_cells, region
    cdef uint64_t entry
    cdef int cell
    decode(b, dec, rank)
    taken = dec.before[b.k]
    record = record_of(z, map_rank(taken, z.choose))
    if record == NULL:
        job.zlevels[rank] = job.level
        return
    free_cells = (all_cells(b.n)) & ~taken
    marked = gather[uint64_t](free_cells, marks)
    while marked:
        cell = lowest_bit64(marked)
        region = zero_flood(z, cell, free_cells)
        marked &= ~region
        if region & record.largest:
            entry = rank
        else:
            entry = z.placements + (
                <uint64_t>record.first + region_number(z, free_cells & ~record.largest, cell)
            ) * z.orders + order_rank(dec.pos, b.k, taken, z.order_weight)
        job.zlevels[entry] = job.level


cdef inline uint64_t frontier_in(const void* state, uint64_t byte, uint64_t current8,
                                 uint64_t low8) noexcept nogil:
    # Whether 64 bytes of the state array hold a cell with the current code (a fixed count of
    # steps without branches, which the compiler can turn into wide instructions).
    cdef uint64_t found = 0
    cdef int i
    for i in range(8):
        found |= cells_with[uint64_t](fp_eight(state, byte + 8 * i), current8, low8)
    return found


cdef void scan_block(Job* job, uint64_t block, uint64_t* counts, Bits low) noexcept nogil:
    # ``low``: job.low, or job.low_wide for words of 128 bits (which skip no 64 bytes at once).
    cdef Decoder dec
    cdef Batch batches[2]
    cdef int filling = 0, waiting = 0
    cdef uint64_t rank, first = block << BLOCK_BITS, last, eight
    cdef Bits word, marks, unseen, add
    cdef Bits current = job.current * low, nxt = (3 - job.current) * low
    cdef uint64_t low8 = 0, current8 = 0, nxt8 = 0
    cdef int per = 1, i, j
    if Bits is uint64_t:
        per = 64 // job.width
        for i in range(per):
            low8 |= low << (i * job.width)
        current8 = job.current * low8
        nxt8 = (3 - job.current) * low8
    last = min(first + BLOCK, job.b.placements)
    reset_decoder(&job.b, &dec)
    rank = first
    while rank < last:
        if Bits is uint64_t:
            if job.kind == FORWARD and (rank & (8 * per - 1)) == 0 and not frontier_in(
                job.state, rank * <uint64_t>(job.width // 8), current8, low8
            ):
                # Most words hold no current region: 64 bytes at once pass them by.
                rank += 8 * per
                continue
            eight = fp_eight(job.state, rank * <uint64_t>(job.width // 8))
            if job.kind == FORWARD:
                if not cells_with[uint64_t](eight, current8, low8):
                    rank += per
                    continue
            elif not (cells_with[uint64_t](eight, current8, low8)
                      | cells_with[uint64_t](eight, 0, low8)
                      | cells_with[uint64_t](eight, nxt8, low8)):
                rank += per
                continue
        for j in range(per):
            if rank + j >= last:
                break
            word = load_word[Bits](job, rank + j, low)
            marks = cells_with[Bits](word, current, low)
            if marks:
                if job.levels[rank + j] == UNSEEN:
                    job.levels[rank + j] = job.level
                if job.zero:
                    # Zero-aware tables stop at 25 cells: their words are 64 bits at most.
                    record_regions(job, &dec, rank + j, <uint64_t>marks)
            if job.kind == FORWARD:
                if marks:
                    collect[Bits](job, &dec, rank + j, marks, &batches[filling], low)
                    if waiting:
                        settle[Bits](job, &batches[1 - filling], counts, low)
                    waiting = 1
                    filling = 1 - filling
                continue
            # The previous level's regions become 3 (next code ^ 3 is the current one)
            # before this level's marks reuse their code.
            add = cells_with[Bits](word, nxt, low) * <Bits>job.current
            unseen = cells_with[Bits](word, <Bits>0, low)
            if unseen:
                marks = reach[Bits](job, &dec, rank + j, unseen, counts, low)
                if marks:
                    counts[1] += word == 0
                    add |= marks
            if add:
                mark_word[Bits](job, rank + j, add)
        rank += per
    if waiting:
        settle[Bits](job, &batches[1 - filling], counts, low)


cdef int pack_block(Job* job, uint64_t block) noexcept nogil:
    # Extras of one block of ranks; returns the largest, or -1 when a level is inconsistent.
    cdef Decoder dec
    cdef const Builder* b = &job.b
    cdef uint64_t rank, first = block << BLOCK_BITS, last = min(first + BLOCK, b.placements)
    cdef int slot, md, value, largest = 0, extra
    reset_decoder(b, &dec)
    for rank in range(first, last):
        value = job.values[rank]
        if value == UNSEEN:
            # Only when the group is every tile: the placements of the other parity.
            job.extra[rank] = 0
            continue
        decode(b, &dec, rank)
        md = 0
        for slot in range(b.k):
            md += job.distance[slot][dec.pos[slot]]
        if value < md or (value - md) & 1:
            return -1
        extra = (value - md) >> 1
        job.extra[rank] = extra
        if extra > largest:
            largest = extra
    return largest


cdef int run_blocks(Job* job, bint main) except -1 nogil:
    # Takes blocks until none is left; the main thread also checks for Ctrl-C between blocks.
    cdef uint64_t counts[2]
    cdef uint64_t block
    cdef int largest = 0, found, since = 0, interrupted = 0
    counts[0] = counts[1] = 0
    while not fp_flag(&job.stop):
        block = fp_take(&job.next_block, 1)
        if block >= job.blocks:
            break
        if job.kind == FORWARD and not job.dirty[block]:
            continue
        if job.kind == PACK:
            found = pack_block(job, block)
            if found < 0:
                fp_raise(&job.bad)
                fp_raise(&job.stop)
                break
            largest = max(largest, found)
        elif job.width == 128:
            scan_block[fp_u128](job, block, counts, job.low_wide)
        else:
            scan_block[uint64_t](job, block, counts, job.low)
        if main:
            since += 1
            if since == CHECK_EVERY:
                since = 0
                # Ctrl-C, and a batch thread's stop event, as at every checkpoint.
                with gil:
                    interrupted = poll_interrupt() < 0
                if interrupted:
                    fp_raise(&job.stop)
                    break
                if job.deadline > 0 and monotonic_seconds() >= job.deadline:
                    job.deadline_passed = 1
                    fp_raise(&job.stop)
                    break
    fp_take(&job.new_regions, counts[0])
    fp_take(&job.new_placements, counts[1])
    fp_max(&job.largest, largest)
    return -1 if interrupted else 0


def _usable_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


cdef class _Run:
    # A Job and the memory it points into; runs passes over its blocks on several threads.
    cdef Job job
    cdef int threads
    cdef void* base
    cdef uint64_t mapped
    # Which pool threads are inside run_blocks, under ``gate``: a Ctrl-C can land inside a
    # Thread.start() whose thread then runs unjoined, so a pass ends only when none is inside
    # (the memory is released after), and a thread that comes late finds the pass closed.
    cdef object gate
    cdef int active
    cdef bint closed

    def __cinit__(self):
        self.base = NULL
        self.mapped = 0
        self.gate = threading.Lock()
        self.active = 0
        self.closed = True

    def __dealloc__(self):
        fp_unmap(self.base, self.mapped)

    cdef void release(self):
        fp_unmap(self.base, self.mapped)
        self.base = NULL
        self.job.state = NULL

    def _work(self):
        with self.gate:
            if self.closed:
                return
            self.active += 1
        try:
            with nogil:
                run_blocks(&self.job, False)
        finally:
            with self.gate:
                self.active -= 1

    cdef int run(self, int kind) except -1:
        cdef int count = <int>min(<uint64_t>self.threads, self.job.blocks)
        self.job.kind = kind
        self.job.next_block = 0
        self.job.new_regions = 0
        self.job.new_placements = 0
        self.job.stop = 0
        self.closed = False
        workers = []
        try:
            for _ in range(count - 1):
                worker = threading.Thread(target=self._work, daemon=True)
                workers.append(worker)
                try:
                    worker.start()
                except RuntimeError:  # no more threads to be had: those started do
                    workers.pop()
                    break
            with nogil:
                run_blocks(&self.job, True)
        finally:
            fp_raise(&self.job.stop)
            # The workers read the arrays until they return: wait, even through a second Ctrl-C.
            pending = None
            while not self._closed_and_idle(workers):
                try:
                    alive = [worker for worker in workers if worker.is_alive()]
                    for worker in alive:
                        worker.join()
                    if not alive:
                        sleep(0.001)  # a thread whose start() Ctrl-C cut short is inside
                except BaseException as error:
                    pending = error
            if pending is not None:
                raise pending
        return 0

    def _closed_and_idle(self, workers):
        # Closes the pass; True once no pool thread is inside it and the listed ones ended.
        with self.gate:
            self.closed = True
            if self.active:
                return False
        return not any(worker.is_alive() for worker in workers)


cdef _Run new_run(threads):
    cdef _Run run = _Run()
    if threads is None:
        threads = _usable_cores()
    run.threads = max(1, min(int(threads), 256)) if FP_THREADS else 1
    run.job.deadline = 0.0
    run.job.deadline_passed = 0
    return run


cdef void init_builder(Builder* b, int rows, int cols, int goal_blank, tiles, bint sparse):
    cdef int slot, cell
    if rows < 1 or cols < 1 or rows * cols > BUILD_MAX_CELLS:
        raise ValueError(f"pattern databases are built for up to 64 cells, not {rows}x{cols}")
    b.rows = rows
    b.cols = cols
    b.n = rows * cols
    b.k = len(tiles)
    b.bits = slot_bits(b.n)
    if not 1 <= b.k < b.n:
        raise ValueError(f"expected 1 to {b.n - 1} tiles in a group, got {b.k}")
    if b.k * b.bits > 58:
        # Its sparse index must fit 64 bits (with room to spare, as before); no table of
        # such a group would fit memory anyway.
        raise ValueError(f"a group of {b.k} tiles is too large to build")
    if sparse and b.n > 16:
        raise ValueError("sparse tables are only made for boards of up to 16 cells")
    if not 0 <= goal_blank < b.n:
        raise ValueError(f"goal blank {goal_blank} is not a cell of {rows}x{cols}")
    for slot, tile in enumerate(tiles):
        if not 1 <= tile < b.n:
            raise ValueError(f"tile {tile} is not on a {rows}x{cols} board")
        b.home[slot] = tile - 1 if tile - 1 < goal_blank else tile
    b.not_first_col = 0
    b.not_last_col = 0
    for cell in range(BUILD_MAX_CELLS):
        b.row_of[cell] = 0
        b.col_of[cell] = 0
    for cell in range(b.n):
        b.row_of[cell] = cell // cols
        b.col_of[cell] = cell % cols
        if cell % cols != 0:
            b.not_first_col |= (<cellset>1) << cell
        if cell % cols != cols - 1:
            b.not_last_col |= (<cellset>1) << cell
    init_weights(b.weight, b.k, b.n)
    b.placements = b.weight[0] * b.n
    b.sparse = 1 if sparse else 0


cdef inline int slot_bits(int n) noexcept nogil:
    # Bits a slot of a sparse index takes on an n-cell board: a cell number.
    return 4 if n <= 16 else 5 if n <= 32 else 6


def level_length(int cells, int k, bint sparse):
    """Entries of ``build_levels`` output: 16**k when sparse, else the number of placements."""
    cdef uint64_t entries = 1, i
    if sparse:
        return 1 << (4 * k)
    for i in range(k):
        entries *= cells - i
    return int(entries)


def placement_rank(cells, int n):
    """The compact rank the tables use (see ``_ranking.pxd``) of a placement of distinct cells
    of an ``n``-cell board, packed 4 bits a slot up to 16 cells, 5 bits up to 32 and 6 bits
    up to 64."""
    cdef uint64_t weight[BUILD_MAX_CELLS]
    cdef uint64_t index = 0
    cdef int bits = slot_bits(n), k = len(cells), slot
    if not 1 <= n <= BUILD_MAX_CELLS or not 1 <= k <= n or bits * k > 64 or len(set(cells)) != k:
        raise ValueError("expected distinct cells (at most 64 bits of them) of at most 64")
    for slot in range(k):
        if not 0 <= cells[slot] < n:
            raise ValueError(f"cell {cells[slot]} is not on a board of {n} cells")
        index |= (<uint64_t>cells[slot]) << (bits * slot)
    init_weights(weight, k, n)
    return int(compact_rank_bits(index, k, weight, bits))


# ---------------------------------------------------------------------------------------------
# Zero-aware layout (see _zero.pxd).

_ZERO_LAYOUTS = {}


def zero_layout(int rows, int cols, int k):
    """The layout of zero-aware tables of ``k``-tile groups on ``rows`` x ``cols`` (see
    ``_zero.pxd``).

    Returns ``(layout, arrays, entries)``: ``layout`` a read-only uint8 array holding the
    ``ZeroLayout`` struct the index reads, whose pointers point into ``arrays`` (the binomial
    coefficients, which maps have several regions, a count of those per 64 maps, a record per
    such map); ``entries`` the number of entries of a table. Kept per shape and k for the life
    of the process: every table of that size shares them.
    """
    key = (rows, cols, k)
    found = _ZERO_LAYOUTS.get(key)
    if found is None:
        found = _make_zero_layout(rows, cols, k)
        _ZERO_LAYOUTS[key] = found
    return found


cdef object _make_zero_layout(int rows, int cols, int k):
    cdef Builder b
    cdef int n = rows * cols, c, j, regions
    cdef uint64_t count, rank = 0, several = 0, extra_rows = 0
    cdef cellset taken, low, ripple, free_cells, pending, region, largest
    cdef int size, largest_size
    cdef uint64_t[::1] ch
    cdef uint64_t[::1] bits
    cdef uint32_t[::1] before
    cdef uint32_t[::1] recs
    cdef ZeroLayout* z
    cdef uint8_t[::1] raw
    if rows < 1 or cols < 1 or n > ZERO_MAX_CELLS or not 1 <= k < n:
        raise ValueError(
            f"expected 1 to {n - 1} tiles on at most 25 cells, got {k} on {rows}x{cols}")
    init_builder(&b, rows, cols, n - 1, list(range(1, k + 1)), False)
    choose = np.zeros(ZERO_CHOOSE * ZERO_CHOOSE, dtype=np.uint64)
    ch = choose
    for c in range(ZERO_CHOOSE):
        ch[c * ZERO_CHOOSE] = 1
        for j in range(1, c + 1):
            ch[c * ZERO_CHOOSE + j] = ch[(c - 1) * ZERO_CHOOSE + j - 1] + (
                ch[(c - 1) * ZERO_CHOOSE + j] if j < c else 0)
    count = ch[n * ZERO_CHOOSE + k]
    several_bits = np.zeros((count + 63) // 64 + 1, dtype=np.uint64)
    bits = several_bits
    several_before = np.zeros((count + 63) // 64 + 1, dtype=np.uint32)
    before = several_before
    # Two words a record (first, largest); at most one per map, trimmed after.
    records = np.zeros(2 * count + 2, dtype=np.uint32)
    recs = records
    # Sets of k cells in increasing numeric order (Gosper's step) are in rank order.
    taken = ((<cellset>1) << k) - 1
    with nogil:
        while rank < count:
            if rank & 63 == 0:
                before[rank >> 6] = <uint32_t>several
            free_cells = (all_cells(n)) & ~taken
            pending = free_cells
            regions = 0
            largest = 0
            largest_size = 0
            while pending:
                region = flood(&b, lowest_bit64(pending), free_cells)
                pending &= ~region
                size = count_ones64(region)
                if size > largest_size:
                    largest = region
                    largest_size = size
                regions += 1
            if regions > 1:
                bits[rank >> 6] |= (<uint64_t>1) << (rank & 63)
                recs[2 * several] = <uint32_t>extra_rows
                recs[2 * several + 1] = largest
                several += 1
                extra_rows += regions - 1
            rank += 1
            low = taken & -taken
            ripple = taken + low
            taken = ripple | (((taken ^ ripple) >> 2) // low)
    if extra_rows >= 1 << 32:
        raise ValueError("too many regions for a zero-aware table")
    records = records[: 2 * several + 2].copy()
    recs = records
    layout = np.zeros(sizeof(ZeroLayout), dtype=np.uint8)
    raw = layout
    z = <ZeroLayout*>&raw[0]
    z.maps = count
    z.placements = b.weight[0] * n
    z.orders = _factorial(k)
    init_weights(z.order_weight, k, k)
    z.choose = &ch[0]
    z.several = &bits[0]
    z.before = &before[0]
    z.records = <const ZeroRecord*>&recs[0]
    z.n = n
    z.k = k
    z.cols = cols
    z.not_first_col = b.not_first_col
    z.not_last_col = b.not_last_col
    arrays = (choose, several_bits, several_before, records)
    for array in (layout, *arrays):
        array.setflags(write=False)
    return layout, arrays, int(z.placements + extra_rows * z.orders)


cdef inline const ZeroLayout* layout_of(object layout):
    cdef const uint8_t[::1] raw = layout
    return <const ZeroLayout*>&raw[0]


def zero_table_length(int rows, int cols, int k, bint nibble):
    """Bytes a zero-aware table of a ``k``-tile group on ``rows`` x ``cols`` takes."""
    entries = zero_layout(rows, cols, k)[2]
    return (entries + 1) // 2 if nibble else entries


cdef uint64_t _factorial(int k) noexcept nogil:
    cdef uint64_t out = 1
    cdef int i
    for i in range(2, k + 1):
        out *= i
    return out


def build_levels(int rows, int cols, int goal_blank, tiles, bint sparse, progress=None,
                 threads=None, backward_from=None, deadline=None, bint zero=False):
    """Exact blank-tracking distances of every placement of ``tiles`` (canonical labels).

    Returns a uint8 array indexed by sparse index (when ``sparse``; entries that are no placement
    hold 255) or by compact rank (see ``_ranking.pxd``): the fewest moves of the group's tiles
    that bring them home, whatever the other tiles do. ``progress(level, reached, total)``
    (placements reached so far, of ``total``) is called after each BFS level; Ctrl-C is honoured
    within a fraction of a second. ``threads``: how many share the work (default: every usable
    core). ``backward_from``: the level from which scans run backward (default: once the
    placements left unreached are under a quarter of the regions just reached; tests force either
    way). ``deadline`` (``time.monotonic()`` seconds; None: none) is looked at with Ctrl-C:
    DeadlinePassed is raised once it has passed. ``zero``: zero-aware levels instead (one
    per placement and region of free cells the blank is in, indexed as ``_zero.pxd`` says; a
    compact table only), 255 where BFS never reached.
    """
    cdef _Run run = new_run(threads)
    cdef Job* job = &run.job
    cdef Builder* b = &job.b
    cdef int slot, level = 0, backward = 0, switch = -1 if backward_from is None else backward_from
    cdef uint64_t start_index = 0, start_rank, filled = 1, frontier = 1, bytes_
    cdef cellset free_cells, region
    cdef Decoder dec
    cdef Word w
    cdef uint8_t[::1] lv
    cdef uint8_t[::1] dirty
    cdef uint8_t[::1] dirty_next
    cdef uint8_t[::1] zl
    init_builder(b, rows, cols, goal_blank, tiles, sparse)
    job.zero = 0
    if zero:
        if sparse:
            raise ValueError("zero-aware tables are compact, not sparse")
        layout, _, entries = zero_layout(rows, cols, b.k)
        job.zero = 1
        job.layout = layout_of(layout)
        zero_levels = np.full(entries, UNSEEN, dtype=np.uint8)
        zl = zero_levels
        job.zlevels = &zl[0]
    job.deadline = 0.0 if deadline is None else float(deadline)
    job.deadline_passed = 0
    if deadline is not None and monotonic() >= deadline:
        raise DeadlinePassed()
    most = BUILD_MAX_FREE if FP_WIDE else BUILD_MAX_FREE // 2
    if b.n - b.k > most:
        raise ValueError(
            f"a group of {b.k} tiles on {rows}x{cols} leaves {b.n - b.k} cells free; the "
            f"builder tracks at most {most} (groups of at least {b.n - most} tiles on this "
            "board)"
        )
    job.width = (16 if b.n - b.k <= 8 else 32 if b.n - b.k <= 16
                 else 64 if b.n - b.k <= 32 else 128)
    job.low = 0
    job.low_wide = 0
    for slot in range(b.n - b.k):
        if slot < 32:
            job.low |= (<uint64_t>1) << (2 * slot)
        job.low_wide |= (<fp_u128>1) << (2 * slot)
    job.blocks = (b.placements + BLOCK - 1) >> BLOCK_BITS
    levels = np.full(b.placements, UNSEEN, dtype=np.uint8)
    lv = levels
    job.levels = &lv[0]
    dirty = np.zeros(job.blocks, dtype=np.uint8)
    dirty_next = np.zeros(job.blocks, dtype=np.uint8)
    bytes_ = job.blocks * BLOCK * (job.width // 8)
    job.state = fp_map(bytes_, &run.base, &run.mapped)
    if job.state == NULL:
        raise MemoryError()
    try:
        free_cells = all_cells(b.n)
        for slot in range(b.k):
            start_index |= (<uint64_t>b.home[slot]) << (b.bits * slot)
            free_cells &= ~((<cellset>1) << b.home[slot])
        start_rank = compact_rank_bits(start_index, b.k, b.weight, b.bits)
        reset_decoder(b, &dec)
        decode(b, &dec, start_rank)
        describe(b, &dec, &w)
        region = flood(b, goal_blank, free_cells)
        if job.width == 128:
            mark_word[fp_u128](job, start_rank, own_marks[fp_u128](&w, region, job.low_wide))
        else:
            mark_word[uint64_t](job, start_rank, own_marks[uint64_t](&w, region, job.low))
        job.current = 1
        dirty[start_rank >> BLOCK_BITS] = 1
        while True:
            if switch < 0:
                backward = backward or ((b.placements - filled) * BACKWARD_UNREACHED
                                        < frontier * BACKWARD_FRONTIER)
            else:
                backward = level >= switch
            job.level = level
            job.dirty = &dirty[0]
            job.dirty_next = &dirty_next[0]
            run.run(BACKWARD if backward else FORWARD)
            if job.deadline_passed:
                raise DeadlinePassed()
            filled += job.new_placements
            if job.new_regions == 0:
                break
            frontier = job.new_regions
            level += 1
            if level >= UNSEEN:
                raise ValueError("pattern database values exceed 254 moves")
            dirty, dirty_next = dirty_next, dirty
            dirty_next[:] = 0
            job.current = 3 - job.current
            if progress is not None:
                progress(level, filled, b.placements)
    finally:
        run.release()
    if zero:
        return zero_levels
    if not sparse:
        return levels
    out = np.full(level_length(b.n, b.k, True), UNSEEN, dtype=np.uint8)
    _to_sparse(b, lv, out)
    return out


cdef void _to_sparse(const Builder* b, const uint8_t[::1] lv, uint8_t[::1] out):
    cdef Decoder dec
    cdef uint64_t rank, index
    cdef int slot
    reset_decoder(b, &dec)
    with nogil:
        for rank in range(b.placements):
            decode(b, &dec, rank)
            index = 0
            for slot in range(b.k):
                index |= (<uint64_t>dec.pos[slot]) << (4 * slot)
            out[index] = lv[rank]


def pack_table(levels, int rows, int cols, int goal_blank, tiles, bint sparse, threads=None,
               bint zero=False):
    """Turn ``build_levels`` output (built with the same ``sparse`` and ``zero``) into the
    stored table.

    Returns ``(table, nibble)``: a uint8 array holding ``(value - group Manhattan) / 2`` per entry,
    two entries per byte (low nibble first) when ``nibble``; sparse tables are indexed by the
    4-bit-per-slot cell index, compact ones by rank, zero-aware ones as ``_zero.pxd`` says
    (entries BFS never reached hold 0). ``threads`` as for ``build_levels``.
    """
    cdef _Run run = new_run(threads)
    cdef Job* job = &run.job
    cdef Builder* b = &job.b
    cdef const uint8_t[::1] lv = levels
    cdef uint8_t[::1] ex
    cdef uint8_t[::1] out
    cdef uint64_t i, half
    cdef int slot, cell
    init_builder(b, rows, cols, goal_blank, tiles, sparse)
    if zero and sparse:
        raise ValueError("zero-aware tables are compact, not sparse")
    expected = zero_layout(rows, cols, b.k)[2] if zero else level_length(b.n, b.k, sparse)
    if <uint64_t>lv.shape[0] != <uint64_t>expected:
        raise ValueError("levels do not match the group")
    if zero:
        return _pack_zero(b, lv)
    if sparse:
        return _pack_sparse(b, lv)
    for slot in range(b.k):
        for cell in range(b.n):
            job.distance[slot][cell] = home_distance(b, slot, cell)
    extra = np.empty(b.placements, dtype=np.uint8)
    ex = extra
    job.values = &lv[0]
    job.extra = &ex[0]
    job.largest = 0
    job.bad = 0
    job.blocks = (b.placements + BLOCK - 1) >> BLOCK_BITS
    run.run(PACK)
    if job.bad:
        raise ValueError("pattern database levels are inconsistent with Manhattan distance")
    if job.largest > 15:
        return extra, False
    table = np.empty((b.placements + 1) // 2, dtype=np.uint8)
    out = table
    half = b.placements // 2
    with nogil:
        for i in range(half):
            out[i] = ex[2 * i] | (ex[2 * i + 1] << 4)
        if b.placements & 1:
            out[half] = ex[2 * half]
    return table, True


cdef object _pack_sparse(const Builder* b, const uint8_t[::1] lv):
    # Sparse tables: every 16**k index, those that are no placement left 0.
    cdef uint64_t index, entries = lv.shape[0]
    cdef int slot, cell, md, value, largest = 0, bad = 0
    cdef int distance[16][16]
    cdef uint8_t[::1] ex
    cdef uint8_t[::1] out
    cdef bint nibble
    for slot in range(b.k):
        for cell in range(16):
            distance[slot][cell] = home_distance(b, slot, cell)
    extra = np.zeros(entries, dtype=np.uint8)
    ex = extra
    with nogil:
        for index in range(entries):
            value = lv[index]
            if value == UNSEEN:
                continue
            md = 0
            for slot in range(b.k):
                md += distance[slot][(index >> (4 * slot)) & 15]
            if value < md or (value - md) & 1:
                bad = 1
                break
            ex[index] = (value - md) >> 1
            if ex[index] > largest:
                largest = ex[index]
    if bad:
        raise ValueError("pattern database levels are inconsistent with Manhattan distance")
    nibble = largest <= 15
    if not nibble:
        return extra, False
    table = np.zeros((entries + 1) // 2, dtype=np.uint8)
    out = table
    with nogil:
        for index in range(entries):
            out[index >> 1] |= ex[index] << ((index & 1) << 2)
    return table, True


cdef object _pack_zero(const Builder* b, const uint8_t[::1] lv):
    # Zero-aware tables: the first part by compact rank, then each row of the second part,
    # every entry decoded to its cells.
    cdef const ZeroLayout* z
    cdef const ZeroRecord* record
    cdef Decoder dec
    cdef uint64_t entries = lv.shape[0], rank, order, entry, half, digit, rest, m
    cdef cellset taken, left, low, ripple, others, region
    cdef int slot, cell, md, number, largest = 0, bad = 0
    cdef int distance[BUILD_MAX_CELLS][BUILD_MAX_CELLS]
    cdef uint8_t[::1] ex
    cdef uint8_t[::1] out
    layout, _, _ = zero_layout(b.rows, b.cols, b.k)
    z = layout_of(layout)
    for slot in range(b.k):
        for cell in range(b.n):
            distance[slot][cell] = home_distance(b, slot, cell)
    extra = np.zeros(entries, dtype=np.uint8)
    ex = extra
    reset_decoder(b, &dec)
    with nogil:
        for rank in range(z.placements):
            decode(b, &dec, rank)
            md = 0
            for slot in range(b.k):
                md += distance[slot][dec.pos[slot]]
            if not pack_entry(lv, ex, rank, md, &largest):
                bad = 1
                break
        taken = ((<cellset>1) << b.k) - 1
        m = 0
        while not bad and m < z.maps:
            record = record_of(z, m)
            if record != NULL:
                others = (all_cells(b.n)) & ~taken & ~record.largest
                number = 0
                while others:
                    region = zero_flood(z, lowest_bit64(others), others)
                    others &= ~region
                    for order in range(z.orders):
                        # Slot i's digit picks its cell among those the earlier slots left.
                        left = taken
                        rest = order
                        md = 0
                        for slot in range(b.k):
                            digit = rest // z.order_weight[slot]
                            rest -= digit * z.order_weight[slot]
                            cell = nth_bit(left, <int>digit)
                            left &= ~((<cellset>1) << cell)
                            md += distance[slot][cell]
                        entry = z.placements + (<uint64_t>record.first + number) * z.orders + order
                        if not pack_entry(lv, ex, entry, md, &largest):
                            bad = 1
                            break
                    if bad:
                        break
                    number += 1
            m += 1
            low = taken & -taken
            ripple = taken + low
            taken = ripple | (((taken ^ ripple) >> 2) // low)
    if bad:
        raise ValueError("pattern database levels are inconsistent with Manhattan distance")
    if largest > 15:
        return extra, False
    table = np.empty((entries + 1) // 2, dtype=np.uint8)
    out = table
    half = entries // 2
    with nogil:
        for entry in range(half):
            out[entry] = ex[2 * entry] | (ex[2 * entry + 1] << 4)
        if entries & 1:
            out[half] = ex[2 * half]
    return table, True


cdef inline bint pack_entry(const uint8_t[::1] lv, uint8_t[::1] ex, uint64_t entry, int md,
                            int* largest) noexcept nogil:
    # One zero-aware entry's stored value; False when its level is inconsistent (entries BFS
    # never reached keep 0).
    cdef int value = lv[entry]
    if value == UNSEEN:
        return True
    if value < md or (value - md) & 1:
        return False
    ex[entry] = (value - md) >> 1
    if ex[entry] > largest[0]:
        largest[0] = ex[entry]
    return True


def table_length(int cells, int k, bint sparse, bint nibble):
    """Bytes a table of a ``k``-tile group on ``cells`` cells takes (to check files against)."""
    entries = level_length(cells, k, sparse)
    return (entries + 1) // 2 if nibble else entries


# ---------------------------------------------------------------------------------------------
# Walking distance (Takahashi): the abstraction that keeps, for each row, how many of its tiles
# belong to each goal row, and the blank's row. Its exact distances are admissible for vertical
# moves; the same on columns counts horizontal moves, and the two add up.

def walking_table(
    int lines, int width, int goal_line, int max_states=2_000_000, deadline=None
):
    """Exact distances of the walking-distance abstraction with ``lines`` lines of ``width``.

    The goal's blank is on line ``goal_line``. Returns ``(states, next, dist)``: ``states`` maps
    each state (a tuple of ``lines * lines`` counts, then the blank's line) to its number,
    ``next[(state * 2 + d) * lines + cls]`` is the state after the blank moves to the previous
    (d = 0) or next (d = 1) line swapping with a tile whose goal line is ``cls`` (-1: no such
    move), and ``dist[state]`` is the exact distance to the goal state. ValueError past
    ``max_states`` states; DeadlinePassed once ``deadline`` (``time.monotonic()`` seconds; None:
    none) has passed, looked at every few thousand states.
    """
    cdef int i, d, cls, blank, target, count
    goal = [0] * (lines * lines)
    for i in range(lines):
        goal[i * lines + i] = width - (1 if i == goal_line else 0)
    start = tuple(goal) + (goal_line,)
    states = {start: 0}
    order = [start]
    dist = [0]
    transitions = []
    head = 0
    while head < len(order):
        state = order[head]
        head += 1
        if deadline is not None and head % WALKING_SLICE == 0 and monotonic() >= deadline:
            raise DeadlinePassed()
        blank = state[lines * lines]
        row = [-1] * (2 * lines)
        for d in range(2):
            target = blank - 1 if d == 0 else blank + 1
            if target < 0 or target >= lines:
                continue
            for cls in range(lines):
                count = state[target * lines + cls]
                if count == 0:
                    continue
                moved = list(state)
                moved[target * lines + cls] -= 1
                moved[blank * lines + cls] += 1
                moved[lines * lines] = target
                key = tuple(moved)
                number = states.get(key)
                if number is None:
                    number = len(order)
                    if number >= max_states:
                        raise ValueError(
                            f"walking-distance abstraction of {lines} lines of {width} has "
                            f"over {max_states:,} states"
                        )
                    states[key] = number
                    order.append(key)
                    dist.append(dist[head - 1] + 1)
                row[d * lines + cls] = number
        transitions.append(row)
    nxt = np.asarray(transitions, dtype=np.int32).reshape(-1)
    distances = np.asarray(dist, dtype=np.uint8)
    return states, nxt, distances


# ---------------------------------------------------------------------------------------------
# Checking a table read from a file: is it a breadth-first distance?

cdef enum:
    CHECK_PASSED = 0
    CHECK_GOAL = 1          # the goal placement's value is not 0
    CHECK_STEP = 2          # a move changes the value by more than one where it cannot
    CHECK_NO_LOWER = 3      # a value with no neighbour below it


cdef inline int stored_entry(const uint8_t* table, uint64_t entry, bint nibble) noexcept nogil:
    if nibble:
        return (table[entry >> 1] >> ((entry & 1) << 2)) & 15
    return table[entry]


cdef inline uint64_t entry_at(const Builder* b, const int* cells, const int* distance,
                              int* md) noexcept nogil:
    # The entry of the placement ``cells`` in a plain table, and (``md``) its Manhattan distance.
    cdef uint64_t packed = 0
    cdef int slot
    md[0] = 0
    for slot in range(b.k):
        packed |= (<uint64_t>cells[slot]) << (b.bits * slot)
        md[0] += distance[slot * BUILD_MAX_CELLS + cells[slot]]
    return packed if b.sparse else compact_rank_bits(packed, b.k, b.weight, b.bits)


cdef inline int value_at(const Builder* b, const int* cells, const uint8_t* table, bint nibble,
                         const int* distance) noexcept nogil:
    # The value the table gives the placement ``cells`` (stored: (value - Manhattan) / 2).
    cdef int md
    cdef uint64_t entry = entry_at(b, cells, distance, &md)
    return 2 * stored_entry(table, entry, nibble) + md


cdef inline int zero_value_at(const Builder* b, const ZeroLayout* z, const int* cells, int blank,
                              const uint8_t* table, bint nibble,
                              const int* distance) noexcept nogil:
    # The value a zero-aware table gives the placement ``cells`` with the blank on ``blank``.
    cdef uint64_t packed = 0
    cdef int slot, md = 0
    for slot in range(b.k):
        packed |= (<uint64_t>cells[slot]) << (b.bits * slot)
        md += distance[slot * BUILD_MAX_CELLS + cells[slot]]
    return 2 * stored_entry(
        table, zero_entry(z, packed, b.k, b.bits, blank, b.weight, NULL, 0), nibble) + md


cdef inline bint one_region(const Builder* b, cellset occupied) noexcept nogil:
    # Whether the cells the group leaves free are one region: the blank's cell is then no
    # matter, and the table's value (least over regions) is the state's distance.
    cdef cellset free_cells = (all_cells(b.n)) & ~occupied
    return free_cells == 0 or flood(b, lowest_bit64(free_cells), free_cells) == free_cells


cdef bint reachable(const Builder* b, const int* cells, int goal_blank) noexcept nogil:
    # Whether BFS reaches the placement: always but where the group holds every tile, and then
    # for half of them (the board's permutation, blank included, as odd as the blank's distance
    # from its goal cell). Tables hold 0 for the others, which no search looks up.
    cdef int where[BUILD_MAX_CELLS]
    cdef uint8_t seen[BUILD_MAX_CELLS]
    cdef int slot, cell, at, blank = -1, swaps = 0, length
    cdef cellset occupied = 0
    if b.k != b.n - 1:
        return True
    for cell in range(b.n):
        where[cell] = -1
        seen[cell] = 0
    for slot in range(b.k):
        where[b.home[slot]] = cells[slot]
        occupied |= (<cellset>1) << cells[slot]
    blank = lowest_bit64((all_cells(b.n)) & ~occupied)
    where[goal_blank] = blank
    for cell in range(b.n):
        # A cycle of ``length`` cells is length - 1 swaps.
        if seen[cell]:
            continue
        length = 0
        at = cell
        while not seen[at]:
            seen[at] = 1
            at = where[at]
            length += 1
        swaps += length - 1
    return (swaps & 1) == ((abs(b.row_of[blank] - b.row_of[goal_blank])
                            + abs(b.col_of[blank] - b.col_of[goal_blank])) & 1)


cdef inline int neighbour(const Builder* b, int cell, int move) noexcept nogil:
    # The cell next to ``cell`` one step up, down, left or right (move 0 to 3), or -1 off the
    # board: where a tile of a placement may slide in the table check.
    cdef int row = b.row_of[cell] + (-1 if move == 0 else 1 if move == 1 else 0)
    cdef int col = b.col_of[cell] + (-1 if move == 2 else 1 if move == 3 else 0)
    if row < 0 or row >= b.rows or col < 0 or col >= b.cols:
        return -1
    return row * b.cols + col


cdef int check_placement(const Builder* b, int* cells, const uint8_t* table, bint nibble,
                         const int* distance) noexcept nogil:
    # One placement of a plain table against its neighbours (the same placement with one tile
    # slid onto a free cell next to it): see check_table. The neighbours' entries are fetched
    # ahead, all at once, so that their cache misses overlap (7-8's tables: 3x faster).
    cdef uint64_t entry[MAX_CHILDREN]
    cdef int md[MAX_CHILDREN]
    cdef bint other_single[MAX_CHILDREN]
    cdef int value = value_at(b, cells, table, nibble, distance), other, lowest = 1 << 20
    cdef int slot, move, cell, target, count = 0, i
    cdef cellset occupied = 0
    cdef bint single
    for slot in range(b.k):
        occupied |= (<cellset>1) << cells[slot]
    single = one_region(b, occupied)
    for slot in range(b.k):
        cell = cells[slot]
        for move in range(4):
            target = neighbour(b, cell, move)
            if target < 0:
                continue
            if (occupied >> target) & 1:
                continue
            cells[slot] = target
            entry[count] = entry_at(b, cells, distance, &md[count])
            cells[slot] = cell
            prefetch(&table[entry[count] >> 1] if nibble else &table[entry[count]])
            other_single[count] = one_region(
                b, (occupied & ~((<cellset>1) << cell)) | ((<cellset>1) << target))
            count += 1
    for i in range(count):
        other = 2 * stored_entry(table, entry[i], nibble) + md[i]
        if other < lowest:
            lowest = other
        # The state (this placement, the blank on the cell the tile moves to) reaches (the
        # other, the blank on the cell it left) in one move: distance(this) <= 1 +
        # distance(other) where other's value is its distance (one region), and the same the
        # other way round.
        if (other_single[i] and value > other + 1) or (single and other > value + 1):
            return CHECK_STEP
    if value > 0 and lowest > value - 1:
        # Every state but the goal's is one move from a state one closer.
        return CHECK_NO_LOWER
    return CHECK_PASSED


cdef int check_zero_placement(const Builder* b, const ZeroLayout* z, int* cells,
                              const uint8_t* table, bint nibble,
                              const int* distance) noexcept nogil:
    # Every state of one placement of a zero-aware table (a value per region of free cells the
    # blank is in: exact distances) against its neighbours: a move changes a distance by at
    # most one, and every state but the goal's is one move from a state one closer.
    cdef cellset occupied = 0, free_cells, pending, region
    cdef int slot, move, cell, target, value, other, lowest
    for slot in range(b.k):
        occupied |= (<cellset>1) << cells[slot]
    free_cells = (all_cells(b.n)) & ~occupied
    pending = free_cells
    while pending:
        region = flood(b, lowest_bit64(pending), free_cells)
        pending &= ~region
        value = zero_value_at(b, z, cells, lowest_bit64(region), table, nibble, distance)
        lowest = 1 << 20
        for slot in range(b.k):
            cell = cells[slot]
            for move in range(4):
                target = neighbour(b, cell, move)
                if target < 0:
                    continue
                if not (region >> target) & 1:
                    continue  # the blank is not there to let the tile in
                cells[slot] = target
                # The blank ends where the tile was.
                other = zero_value_at(b, z, cells, cell, table, nibble, distance)
                cells[slot] = cell
                if value > other + 1 or other > value + 1:
                    return CHECK_STEP
                if other < lowest:
                    lowest = other
        if value > 0 and lowest > value - 1:
            return CHECK_NO_LOWER
    return CHECK_PASSED


def check_table(const uint8_t[::1] table, int rows, int cols, int goal_blank, tiles,
                bint sparse, bint nibble, bint zero=False, uint64_t samples=0,
                uint64_t seed=0):
    """Whether a stored table (as :func:`pack_table` makes it) can be the breadth-first distance
    of its group: ``(0, 0)`` if so, else ``(why, rank)`` of the first placement that fails.

    A state is a placement of the group's tiles and the region of free cells the blank is in.
    Distances are 0 at the goal, change by at most one along every move of a group tile (the
    blank on the cell it slides to), and every state but the goal's is one move from a state one
    closer. A zero-aware table stores every state's value, and is held to exactly that (an
    entry raised by a move is then refused whenever its placement is looked at: the state one
    closer on its shortest path is its neighbour). A plain table stores the least over a
    placement's regions, which only a placement of one region ties to its states: a move into
    such a placement raises the value by at most one, out of one by at most one, and every
    non-zero value has a neighbour at most one below it. A raised entry of a placement of
    several regions is then found only where a neighbour of one region is close enough; no rule
    on the least over regions alone can find every one (on 4x4, 71 % of a six-tile group's
    placements have several regions).

    Parameters
    ----------
    table : numpy.ndarray
        The stored table.
    rows, cols, goal_blank, tiles, sparse, nibble, zero
        As the table was built and packed.
    samples : int
        0 or at least the placements: every placement (of a zero-aware table: every region of
        each); else this many placements, drawn by ``seed``.

    Returns
    -------
    tuple of int
        ``(why, rank)``: why 0 when every placement looked at passes; 1 the goal's value is
        not 0, 2 a move changes it by more than one where it cannot, 3 a value with no
        neighbour below it; rank the placement's compact rank.

    Raises
    ------
    ValueError
        For a group or board out of range, or a table shorter than its group's.
    """
    cdef Builder b
    cdef Decoder dec
    cdef const ZeroLayout* z = NULL
    cdef int distance[BUILD_MAX_CELLS * BUILD_MAX_CELLS]
    cdef int cells[BUILD_MAX_CELLS]
    cdef int slot, cell, why = CHECK_PASSED, goal
    cdef uint64_t rank = 0, i, count, state = seed, needed
    init_builder(&b, rows, cols, goal_blank, tiles, sparse)
    if zero:
        if sparse:
            raise ValueError("zero-aware tables are compact, not sparse")
        layout, _, needed = zero_layout(rows, cols, b.k)
        z = layout_of(layout)
    else:
        needed = level_length(b.n, b.k, sparse)
    if <uint64_t>table.shape[0] < ((needed + 1) // 2 if nibble else needed):
        raise ValueError("the table is shorter than its group's")
    for slot in range(b.k):
        for cell in range(BUILD_MAX_CELLS):
            distance[slot * BUILD_MAX_CELLS + cell] = (home_distance(&b, slot, cell)
                                                       if cell < b.n else 0)
    for slot in range(b.k):
        cells[slot] = b.home[slot]
    count = b.placements if samples == 0 or samples >= b.placements else samples
    reset_decoder(&b, &dec)
    with nogil:
        if zero:
            goal = zero_value_at(&b, z, cells, goal_blank, &table[0], nibble, distance)
        else:
            goal = value_at(&b, cells, &table[0], nibble, distance)
        if goal != 0:
            why = CHECK_GOAL
        else:
            for i in range(count):
                rank = i if count == b.placements else splitmix(&state) % b.placements
                decode(&b, &dec, rank)
                for slot in range(b.k):
                    cells[slot] = dec.pos[slot]
                if not reachable(&b, cells, goal_blank):
                    continue
                if zero:
                    why = check_zero_placement(&b, z, cells, &table[0], nibble, distance)
                else:
                    why = check_placement(&b, cells, &table[0], nibble, distance)
                if why != CHECK_PASSED:
                    break
    return why, (0 if why == CHECK_GOAL else rank) if why else 0
