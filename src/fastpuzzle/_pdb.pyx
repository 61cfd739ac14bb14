"""Pattern-database construction (0-1 BFS tracking the blank) and walking-distance tables.

A group's abstract state is the cells of its k tiles plus the blank's cell. Moving the blank onto a
cell no group tile holds costs 0; sliding a group tile costs 1. States that differ only by where
the blank sits in one connected region of free cells are therefore the same, so the builder keys a
state by (placement, lowest cell of the blank's region) and runs a plain BFS on unit-cost moves.
The value of a placement is the least over blank cells: the level at which BFS first reaches it.

Tables store ``(value - Manhattan distance of the group's tiles) / 2`` (always a whole number:
every tile move changes that Manhattan distance by one), 4 bits per entry where every entry fits,
else one byte. See ``_ranking.pxd`` for sparse and compact indexing.
"""

import numpy as np

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from fastpuzzle._packed cimport Geometry, NO_CELL, init_geometry
from fastpuzzle._ranking cimport compact_rank, init_weights, lowest_bit

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) nogil

cdef enum:
    UNSEEN = 255


cdef struct Builder:
    Geometry g
    int n
    int k
    int home[16]                # [slot] -> goal cell of the slot's tile
    unsigned int not_first_col  # cells not in the first column
    unsigned int not_last_col
    int sparse                  # 1: states keyed by sparse index (k <= 6), 0: by compact rank
    uint64_t weight[16]
    uint64_t placements
    uint16_t* seen              # [key] -> blank cells of the regions queued so far
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
                 | (region << b.g.cols) | (region >> b.g.cols)) & free_cells
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
        index |= (<uint64_t>cell) << (4 * slot)
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
    return index if b.sparse else compact_rank(index, b.k, b.weight)


cdef int expand(Builder* b, uint64_t state, int next_level) except -1 nogil:
    # state = sparse index * 16 + the lowest cell of the blank's region.
    cdef int slot_at[16]
    cdef uint64_t keys[64]
    cdef uint64_t indices[64]
    cdef unsigned int frees[64]
    cdef int targets[64]
    cdef uint64_t index = state >> 4, child_key
    cdef int start = state & 15, cell, d, q, slot, n = 0, i
    cdef unsigned int occupied = 0, full = (1u << b.n) - 1, region, bits, child_region
    for cell in range(b.n):
        slot_at[cell] = -1
    for slot in range(b.k):
        cell = (index >> (4 * slot)) & 15
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
            q = b.g.neighbour[cell][d]
            if q == NO_CELL or slot_at[q] < 0:
                continue
            # The group tile on q slides onto the blank's cell; the blank lands on q.
            slot = slot_at[q]
            indices[n] = (index + ((<uint64_t>cell) << (4 * slot))
                          - ((<uint64_t>q) << (4 * slot)))
            keys[n] = key_of(b, indices[n])
            frees[n] = full & ~(occupied ^ (1u << q) ^ (1u << cell))
            targets[n] = q
            prefetch(&b.seen[keys[n]])
            n += 1
    for i in range(n):
        child_key = keys[i]
        q = targets[i]
        # seen[key] has a bit for every blank cell of every region already queued, so a repeat
        # costs one test and only a new region is flooded.
        if (b.seen[child_key] >> q) & 1:
            continue
        child_region = flood(b, q, frees[i])
        b.seen[child_key] |= child_region
        if b.level[child_key] == UNSEEN:
            b.level[child_key] = next_level
        push(b, indices[i] * 16 + lowest_bit(child_region))
    return 0


cdef void init_builder(Builder* b, int rows, int cols, int goal_blank, tiles, bint sparse):
    cdef int slot, cell
    init_geometry(&b.g, rows, cols)
    b.n = rows * cols
    b.k = len(tiles)
    if not 1 <= b.k < b.n:
        raise ValueError(f"expected 1 to {b.n - 1} tiles in a group, got {b.k}")
    for slot, tile in enumerate(tiles):
        if not 1 <= tile < b.n:
            raise ValueError(f"tile {tile} is not on a {rows}x{cols} board")
        b.home[slot] = tile - 1 if tile - 1 < goal_blank else tile
    b.not_first_col = 0
    b.not_last_col = 0
    for cell in range(b.n):
        if b.g.col_of[cell] != 0:
            b.not_first_col |= 1u << cell
        if b.g.col_of[cell] != cols - 1:
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


def build_levels(int rows, int cols, int goal_blank, tiles, bint sparse, progress=None):
    """Exact blank-tracking distances of every placement of ``tiles`` (canonical labels).

    Returns a uint8 array indexed by sparse index (when ``sparse``; entries that are no placement
    hold 255) or by compact rank (see ``_ranking.pxd``): the fewest moves of the group's tiles
    that bring them home, whatever the other tiles do. ``progress(level, reached, total)`` is
    called after each BFS level; Ctrl-C is honoured between levels.
    """
    cdef Builder b
    cdef int slot, level = 0
    cdef uint64_t i, start_key, start_index = 0, reached = 1, seen_bytes, now_cap = 0
    cdef uint64_t* swap
    cdef unsigned int occupied = 0, region
    cdef uint8_t[::1] levels
    init_builder(&b, rows, cols, goal_blank, tiles, sparse)
    result = np.full(level_length(b.n, b.k, sparse), UNSEEN, dtype=np.uint8)
    levels = result
    b.level = &levels[0]
    seen_bytes = <uint64_t>levels.shape[0] * sizeof(uint16_t)
    b.seen = <uint16_t*>malloc(seen_bytes)
    b.now = NULL
    b.nxt = NULL
    b.now_len = b.nxt_len = b.nxt_cap = 0
    if b.seen == NULL:
        raise MemoryError()
    try:
        memset(b.seen, 0, seen_bytes)
        for slot in range(b.k):
            start_index |= (<uint64_t>b.home[slot]) << (4 * slot)
            occupied |= 1u << b.home[slot]
        start_key = key_of(&b, start_index)
        region = flood(&b, goal_blank, ((1u << b.n) - 1) & ~occupied)
        b.level[start_key] = 0
        b.seen[start_key] = region
        push(&b, start_index * 16 + lowest_bit(region))
        while b.nxt_len:
            # The next level becomes the current one; the old buffer is reused for the next.
            swap = b.now
            b.now = b.nxt
            b.now_len = b.nxt_len
            b.nxt = swap
            b.nxt_len = 0
            b.nxt_cap, now_cap = now_cap, b.nxt_cap
            with nogil:
                for i in range(b.now_len):
                    expand(&b, b.now[i], level + 1)
            level += 1
            if level >= UNSEEN:
                raise ValueError("pattern database values exceed 254 moves")
            reached += b.nxt_len
            PyErr_CheckSignals()
            if progress is not None:
                progress(level, reached, b.placements)
    finally:
        free(b.seen)
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
    cdef int pos[16]
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
                md += (abs(b.g.row_of[pos[slot]] - b.g.row_of[b.home[slot]])
                       + abs(b.g.col_of[pos[slot]] - b.g.col_of[b.home[slot]]))
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
            distance[slot][cell] = (abs(b.g.row_of[cell] - b.g.row_of[b.home[slot]])
                                    + abs(b.g.col_of[cell] - b.g.col_of[b.home[slot]]))
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

def walking_table(int lines, int width, int goal_line, int max_states=2_000_000):
    """Exact distances of the walking-distance abstraction with ``lines`` lines of ``width``.

    The goal's blank is on line ``goal_line``. Returns ``(states, next, dist)``: ``states`` maps
    each state (a tuple of ``lines * lines`` counts, then the blank's line) to its number,
    ``next[(state * 2 + d) * lines + cls]`` is the state after the blank moves to the previous
    (d = 0) or next (d = 1) line swapping with a tile whose goal line is ``cls`` (-1: no such
    move), and ``dist[state]`` is the exact distance to the goal state.
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
