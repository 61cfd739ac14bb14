"""Pattern-database construction (0-1 BFS tracking the blank) and walking-distance tables.

A group's abstract state is the cells of its k tiles plus the blank's cell. Moving the blank onto a
cell no group tile holds costs 0; sliding a group tile costs 1. States that differ only by where
the blank sits in one connected region of free cells are therefore the same, so the builder keys a
state by (placement, lowest cell of the blank's region) and runs a plain BFS on unit-cost moves.
The value of a placement is the least over blank cells: the level at which BFS first reaches it.

Tables store ``(value - Manhattan distance of the group's tiles) / 2`` (always a whole number:
every tile move changes that Manhattan distance by one), 4 bits per entry where every entry fits,
else one byte. See ``_ranking.pxd`` for sparse and compact indexing. Boards of up to 25 cells are
built (5x5 and rectangles such as 4x6 or 3x8); past 16 cells a group's cells are packed 5 bits per
slot and only compact tables are made (a sparse 32**k range would be mostly empty).
"""

from time import monotonic

import numpy as np

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from fastpuzzle._interrupt cimport check_interrupt
from fastpuzzle._packed cimport DIR_D, DIR_L, DIR_R, DIR_U, NO_CELL
from fastpuzzle._ranking cimport compact_rank_bits, init_weights, lowest_bit

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) nogil

cdef enum:
    UNSEEN = 255
    SLICE = 1 << 18             # states expanded between two checks for Ctrl-C
    BUILD_MAX_CELLS = 25
    MAX_CHILDREN = 4 * BUILD_MAX_CELLS
    WALKING_SLICE = 4096        # walking-distance states between two looks at the deadline


class DeadlinePassed(Exception):
    """A build was given a deadline (``time.monotonic()`` seconds) and it passed first."""


cdef struct Builder:
    int rows
    int cols
    int n
    int k
    int bits                    # bits per slot of a sparse index: 4 up to 16 cells, else 5
    uint64_t slot_mask
    int8_t neighbour[BUILD_MAX_CELLS][4]
    int8_t row_of[BUILD_MAX_CELLS]
    int8_t col_of[BUILD_MAX_CELLS]
    int home[BUILD_MAX_CELLS]   # [slot] -> goal cell of the slot's tile
    unsigned int not_first_col  # cells not in the first column
    unsigned int not_last_col
    int sparse                  # 1: states keyed by sparse index (k <= 6), 0: by compact rank
    uint64_t weight[BUILD_MAX_CELLS]
    uint64_t placements
    uint64_t filled             # placements reached so far (what progress reports)
    # [key] -> blank cells of the regions queued so far: 16-bit masks up to 16 cells (half the
    # memory of the 7-8 build), 32-bit ones past that
    uint16_t* seen16
    uint32_t* seen32
    uint8_t* level              # [placement] -> BFS level first reached (UNSEEN: not yet)
    uint64_t* now
    uint64_t now_len
    uint64_t* nxt
    uint64_t nxt_len
    uint64_t nxt_cap


cdef inline unsigned int flood(const Builder* b, int start, unsigned int free_cells) noexcept nogil:
    # The connected region of free cells around start (start is free: it holds the blank).
    cdef unsigned int region = 1u << start, grown
    while True:
        grown = (region | ((region & b.not_last_col) << 1) | ((region & b.not_first_col) >> 1)
                 | (region << b.cols) | (region >> b.cols)) & free_cells
        if grown == region:
            return region
        region = grown


cdef inline uint64_t unrank(const Builder* b, uint64_t rank, int* pos) noexcept nogil:
    # The cells of each slot for a compact rank; returns the sparse index.
    cdef unsigned int used = 0
    cdef uint64_t index = 0, digit
    cdef int slot, cell, count
    for slot in range(b.k):
        digit = rank // b.weight[slot]
        rank -= digit * b.weight[slot]
        count = -1
        for cell in range(b.n):
            if not (used >> cell) & 1:
                count += 1
                if count == <int>digit:
                    break
        pos[slot] = cell
        used |= 1u << cell
        index |= (<uint64_t>cell) << (b.bits * slot)
    return index


cdef int push(Builder* b, uint64_t state) except -1 nogil:
    cdef uint64_t* grown
    if b.nxt_len == b.nxt_cap:
        b.nxt_cap = b.nxt_cap * 2 if b.nxt_cap else 1 << 16
        grown = <uint64_t*>realloc(b.nxt, b.nxt_cap * sizeof(uint64_t))
        if grown == NULL:
            with gil:
                raise MemoryError()
        b.nxt = grown
    b.nxt[b.nxt_len] = state
    b.nxt_len += 1
    return 0


cdef inline uint64_t key_of(const Builder* b, uint64_t index) noexcept nogil:
    return index if b.sparse else compact_rank_bits(index, b.k, b.weight, b.bits)


cdef inline void prefetch_seen(const Builder* b, uint64_t key) noexcept nogil:
    if b.seen16 != NULL:
        prefetch(&b.seen16[key])
    else:
        prefetch(&b.seen32[key])


cdef inline unsigned int seen_of(const Builder* b, uint64_t key) noexcept nogil:
    return b.seen16[key] if b.seen16 != NULL else b.seen32[key]


cdef inline void mark_seen(Builder* b, uint64_t key, unsigned int region) noexcept nogil:
    if b.seen16 != NULL:
        b.seen16[key] |= <uint16_t>region
    else:
        b.seen32[key] |= region


cdef int expand(Builder* b, uint64_t state, int next_level) except -1 nogil:
    # state = sparse index * 32 + the lowest cell of the blank's region.
    cdef int slot_at[BUILD_MAX_CELLS]
    cdef uint64_t keys[MAX_CHILDREN]
    cdef uint64_t indices[MAX_CHILDREN]
    cdef unsigned int frees[MAX_CHILDREN]
    cdef int targets[MAX_CHILDREN]
    cdef uint64_t index = state >> 5, child_key
    cdef int start = state & 31, cell, d, q, slot, n = 0, i
    cdef unsigned int occupied = 0, full = (1u << b.n) - 1, region, bits, child_region
    for cell in range(b.n):
        slot_at[cell] = -1
    for slot in range(b.k):
        cell = (index >> (b.bits * slot)) & b.slot_mask
        occupied |= 1u << cell
        slot_at[cell] = slot
    region = flood(b, start, full & ~occupied)
    bits = region
    # First every child's key, with its seen entry prefetched: the table lookups are cache misses,
    # and issuing them together lets them overlap.
    while bits:
        cell = lowest_bit(bits)
        bits &= bits - 1
        for d in range(4):
            q = b.neighbour[cell][d]
            if q == NO_CELL or slot_at[q] < 0:
                continue
            # The group tile on q slides onto the blank's cell; the blank lands on q.
            slot = slot_at[q]
            indices[n] = (index + ((<uint64_t>cell) << (b.bits * slot))
                          - ((<uint64_t>q) << (b.bits * slot)))
            keys[n] = key_of(b, indices[n])
            frees[n] = full & ~(occupied ^ (1u << q) ^ (1u << cell))
            targets[n] = q
            prefetch_seen(b, keys[n])
            n += 1
    for i in range(n):
        child_key = keys[i]
        q = targets[i]
        # seen[key] has a bit for every blank cell of every region already queued, so a repeat
        # costs one test and only a new region is flooded.
        if (seen_of(b, child_key) >> q) & 1:
            continue
        child_region = flood(b, q, frees[i])
        mark_seen(b, child_key, child_region)
        if b.level[child_key] == UNSEEN:
            b.level[child_key] = next_level
            b.filled += 1
        push(b, indices[i] * 32 + lowest_bit(child_region))
    return 0


cdef void init_builder(Builder* b, int rows, int cols, int goal_blank, tiles, bint sparse):
    cdef int slot, cell, d
    if rows < 1 or cols < 1 or rows * cols > BUILD_MAX_CELLS:
        raise ValueError(f"pattern databases are built for up to 25 cells, not {rows}x{cols}")
    b.rows = rows
    b.cols = cols
    b.n = rows * cols
    b.k = len(tiles)
    b.bits = 4 if b.n <= 16 else 5
    b.slot_mask = (1u << b.bits) - 1
    if not 1 <= b.k < b.n:
        raise ValueError(f"expected 1 to {b.n - 1} tiles in a group, got {b.k}")
    if b.k * b.bits > 58:
        # A state is the sparse index times 32 plus a cell: it must fit 64 bits.
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
        for d in range(4):
            b.neighbour[cell][d] = NO_CELL
        if cell >= cols:
            b.neighbour[cell][DIR_U] = cell - cols
        if cell + cols < b.n:
            b.neighbour[cell][DIR_D] = cell + cols
        if cell % cols != 0:
            b.neighbour[cell][DIR_L] = cell - 1
            b.not_first_col |= 1u << cell
        if cell % cols != cols - 1:
            b.neighbour[cell][DIR_R] = cell + 1
            b.not_last_col |= 1u << cell
    init_weights(b.weight, b.k, b.n)
    b.placements = b.weight[0] * b.n
    b.sparse = 1 if sparse else 0


def level_length(int cells, int k, bint sparse):
    """Entries of ``build_levels`` output: 16**k when sparse, else the number of placements."""
    cdef uint64_t entries = 1, i
    if sparse:
        return 1 << (4 * k)
    for i in range(k):
        entries *= cells - i
    return int(entries)


def build_levels(
    int rows, int cols, int goal_blank, tiles, bint sparse, progress=None, deadline=None
):
    """Exact blank-tracking distances of every placement of ``tiles`` (canonical labels).

    Returns a uint8 array indexed by sparse index (when ``sparse``; entries that are no placement
    hold 255) or by compact rank (see ``_ranking.pxd``): the fewest moves of the group's tiles
    that bring them home, whatever the other tiles do. ``progress(level, reached, total)``
    (placements reached so far, of ``total``) is called after each BFS level; Ctrl-C is honoured,
    and ``deadline`` (``time.monotonic()`` seconds; None: none) checked, every 2**18 states:
    DeadlinePassed is raised once it has passed.
    """
    cdef Builder b
    cdef int slot, level = 0
    cdef uint64_t i, start_key, start_index = 0, seen_bytes, now_cap = 0, entries, first, last
    cdef uint64_t* swap
    cdef unsigned int occupied = 0, region
    cdef uint8_t[::1] levels
    cdef void* seen = NULL
    init_builder(&b, rows, cols, goal_blank, tiles, sparse)
    result = np.full(level_length(b.n, b.k, sparse), UNSEEN, dtype=np.uint8)
    levels = result
    b.level = &levels[0]
    entries = <uint64_t>levels.shape[0]
    b.seen16 = NULL
    b.seen32 = NULL
    b.now = NULL
    b.nxt = NULL
    b.now_len = b.nxt_len = b.nxt_cap = 0
    if b.n <= 16:
        seen_bytes = entries * sizeof(uint16_t)
        b.seen16 = <uint16_t*>malloc(seen_bytes)
        seen = <void*>b.seen16
    else:
        seen_bytes = entries * sizeof(uint32_t)
        b.seen32 = <uint32_t*>malloc(seen_bytes)
        seen = <void*>b.seen32
    if seen == NULL:
        raise MemoryError()
    try:
        memset(seen, 0, seen_bytes)
        for slot in range(b.k):
            start_index |= (<uint64_t>b.home[slot]) << (b.bits * slot)
            occupied |= 1u << b.home[slot]
        start_key = key_of(&b, start_index)
        region = flood(&b, goal_blank, ((1u << b.n) - 1) & ~occupied)
        b.level[start_key] = 0
        b.filled = 1
        mark_seen(&b, start_key, region)
        push(&b, start_index * 32 + lowest_bit(region))
        while b.nxt_len:
            # The next level becomes the current one; the old buffer is reused for the next.
            swap = b.now
            b.now = b.nxt
            b.now_len = b.nxt_len
            b.nxt = swap
            b.nxt_len = 0
            b.nxt_cap, now_cap = now_cap, b.nxt_cap
            # In slices, so Ctrl-C is honoured within a fraction of a second even when one
            # level of a 5x5 group takes tens of seconds.
            first = 0
            while first < b.now_len:
                last = min(first + SLICE, b.now_len)
                with nogil:
                    for i in range(first, last):
                        expand(&b, b.now[i], level + 1)
                check_interrupt()
                if deadline is not None and monotonic() >= deadline:
                    raise DeadlinePassed()
                first = last
            level += 1
            if level >= UNSEEN:
                raise ValueError("pattern database values exceed 254 moves")
            if progress is not None:
                progress(level, b.filled, b.placements)
    finally:
        free(seen)
        free(b.now)
        free(b.nxt)
    return result


def pack_table(levels, int rows, int cols, int goal_blank, tiles, bint sparse):
    """Turn ``build_levels`` output (built with the same ``sparse``) into the stored table.

    Returns ``(table, nibble)``: a uint8 array holding ``(value - group Manhattan) / 2`` per entry,
    two entries per byte (low nibble first) when ``nibble``; sparse tables are indexed by the
    4-bit-per-slot cell index, compact ones by rank.
    """
    cdef Builder b
    cdef const uint8_t[::1] lv = levels
    cdef uint8_t[::1] out
    cdef int pos[BUILD_MAX_CELLS]
    cdef int slot, md, value, largest = 0
    cdef uint64_t rank, index, entries, entry
    cdef bint nibble
    init_builder(&b, rows, cols, goal_blank, tiles, sparse)
    if <uint64_t>lv.shape[0] != <uint64_t>level_length(b.n, b.k, sparse):
        raise ValueError("levels do not match the group")
    # Extras per rank first, to learn whether every entry fits 4 bits.
    extra = np.empty(b.placements, dtype=np.uint8)
    cdef uint8_t[::1] ex = extra
    if sparse:
        return _pack_sparse(&b, lv)
    with nogil:
        for rank in range(b.placements):
            index = unrank(&b, rank, pos)
            md = 0
            for slot in range(b.k):
                md += (abs(b.row_of[pos[slot]] - b.row_of[b.home[slot]])
                       + abs(b.col_of[pos[slot]] - b.col_of[b.home[slot]]))
            value = lv[key_of(&b, index)]
            if value == UNSEEN:
                # Only when the group is every tile: the placements of the other parity.
                ex[rank] = 0
                continue
            if value < md or (value - md) & 1:
                largest = -1
                break
            ex[rank] = (value - md) >> 1
            if ex[rank] > largest:
                largest = ex[rank]
    if largest < 0:
        raise ValueError("pattern database levels are inconsistent with Manhattan distance")
    nibble = largest <= 15
    entries = level_length(b.n, b.k, sparse)
    table = np.zeros((entries + 1) // 2 if nibble else entries, dtype=np.uint8)
    out = table
    with nogil:
        for rank in range(b.placements):
            index = unrank(&b, rank, pos)
            entry = index if sparse else rank
            if nibble:
                out[entry >> 1] |= ex[rank] << ((entry & 1) << 2)
            else:
                out[entry] = ex[rank]
    return table, bool(nibble)


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
            distance[slot][cell] = (abs(b.row_of[cell] - b.row_of[b.home[slot]])
                                    + abs(b.col_of[cell] - b.col_of[b.home[slot]]))
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
