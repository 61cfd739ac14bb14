"""Batch weighted A* with a closed set on boards of 17 to 256 cells (5x5 to 16x16).

Each step takes the ``batch`` open boards of least ``f = g + w*h`` (ties: least h) and expands
them (DeepCubeA's search, with ``f = 0.6 g + h``, is this one at ``w = 1/0.6`` and a batch of
10,000); every board generated is kept with its parent, found again through a hash of the board
(Zobrist keys, the cells compared on a match), and opened again when reached by a shorter path.
The answer is at most ``w`` times optimal for ``batch = 1`` (weighted A* with re-opening); with
a batch it is not bounded, but, as a beam, it spreads the search. ``h`` is linear conflict, or
with ``tables`` (up to 64 cells) one partition's pattern databases, plain and mirrored about the
diagonal, as ``_wide_pdb`` reads them (Manhattan distance plus twice the larger sum).

The boards stored, their hash and the open list take at most ``memory_bytes`` (about 100 bytes
a 6x6 board): past it the search ends with STATUS_MEMORY_LIMIT. ``max_f`` prunes boards whose
unweighted ``g + h`` passes it (an anytime caller's best length less two: nothing there can be
shorter). Cells hold tiles
relabelled so the goal is canonical (see ``_wide.pxd``); moves are directions of the **blank**.
"""

from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from fastpuzzle._core._control cimport (
    Control,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
)
from fastpuzzle._core._packed cimport DIR_D, DIR_U, NO_CELL, move_letters
from fastpuzzle._core._patterns cimport LoadedPatterns, patterns_for
from fastpuzzle._core._pdbgroups cimport (
    GROUP_MAX_COUNT,
    Patterns,
    entry_address,
    group_entry,
    read_entry,
)
from fastpuzzle._core._prefetch cimport prefetch
from fastpuzzle._core._result cimport (
    STATUS_EXHAUSTED,
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    core_result,
)
from fastpuzzle._core._wide cimport (
    wide_distance,
    wide_goal_lines,
    wide_line_extra,
    wide_neighbour,
)

cdef enum:
    MIN_CELLS = 17
    MAX_CELLS = 256
    PDB_MAX_CELLS = 64
    NO_MOVE = 4
    SCALE = 1000            # weights in thousandths
    FIRST_NODES = 1 << 12   # the store's and the heap's first capacity; each doubles
    MAX_G = 32767           # g is 16 bits: deeper boards are left out


cdef struct Heap:
    uint64_t* key           # (f in thousandths << 16) | h: least f, then least h
    int32_t* node
    int32_t* g              # the node's g when pushed: an entry whose node has a smaller g now
    size_t count            # is stale
    size_t capacity


cdef struct Store:
    int n
    int rows
    int cols
    int goal_blank
    int lines               # rows + cols (linear conflict)
    int values              # 2 * groups: the databases' values a node keeps (0: linear conflict)
    int weight              # in thousandths
    int max_f
    size_t count
    size_t capacity
    size_t max_bytes        # what the store, its hash and the heap may take together
    uint8_t* cells          # [i * n + cell] -> tile
    uint8_t* blank
    uint8_t* last           # the move that made the board (NO_MOVE at the start)
    int32_t* parent
    int16_t* g
    int16_t* h
    uint64_t* key
    uint8_t* value          # [i * values + grp]: plain groups, then mirrored
    # The hash: per slot the key's high 32 bits and the node's index + 1 (0: empty), so that
    # a probe reads one word, not the node's key too (the profile: two cache misses a child).
    uint64_t* slots
    size_t mask
    Heap heap
    # the databases (values > 0)
    Patterns* pat
    int n_tiles[GROUP_MAX_COUNT]
    int tiles[GROUP_MAX_COUNT][PDB_MAX_CELLS]
    int m_tiles[GROUP_MAX_COUNT]
    int mtiles[GROUP_MAX_COUNT][PDB_MAX_CELLS]
    uint8_t* distance       # [tile * n + cell] -> Manhattan distance (the blank's: 0)
    # linear conflict
    int16_t* goal_row
    int16_t* goal_col


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    # splitmix64's finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t board_key(const Store* s, const uint8_t* cells) noexcept nogil:
    cdef uint64_t key = 0
    cdef int cell
    for cell in range(s.n):
        key ^= mix((<uint64_t>cells[cell] << 16 | <uint64_t>cell) * 0x9E3779B97F4A7C15ULL + 1)
    return key


cdef inline uint64_t move_key(int tile, int source, int target) noexcept nogil:
    # The key's change when ``tile`` slides from ``source`` to ``target`` (the blank's key is
    # part of the board's: its moves change it the other way).
    return (mix((<uint64_t>tile << 16 | <uint64_t>source) * 0x9E3779B97F4A7C15ULL + 1)
            ^ mix((<uint64_t>tile << 16 | <uint64_t>target) * 0x9E3779B97F4A7C15ULL + 1)
            ^ mix(<uint64_t>source * 0x9E3779B97F4A7C15ULL + 1)
            ^ mix(<uint64_t>target * 0x9E3779B97F4A7C15ULL + 1))


cdef inline int line_extra(const Store* s, const uint16_t* cells, int line) noexcept nogil:
    # Linear conflict's extra moves on ``line``: rows 0 .. rows - 1, then the columns.
    if line < s.rows:
        return wide_line_extra(cells + line * s.cols, 1, s.cols, s.goal_row, s.goal_col, line)
    line -= s.rows
    return wide_line_extra(cells + line, s.cols, s.rows, s.goal_col, s.goal_row, line)


cdef int lc_value(const Store* s, const uint16_t* cells) noexcept nogil:
    cdef int cell, line, h = 0
    for cell in range(s.n):
        if cells[cell] != 0:
            h += wide_distance(cells[cell], cell, s.cols, s.goal_blank)
    for line in range(s.lines):
        h += line_extra(s, cells, line)
    return h


cdef inline uint64_t group_index(const Store* s, int grp, const int* where) noexcept nogil:
    # Group grp's sparse index on the board whose tile t stands on where[t].
    cdef uint64_t index = 0
    cdef int j, tile
    for j in range(s.n_tiles[grp]):
        tile = s.tiles[grp][j]
        index |= (<uint64_t>where[tile]) << s.pat.shift_of[tile]
    return index


cdef inline uint64_t mirrored_index(const Store* s, int grp, const int* where) noexcept nogil:
    cdef uint64_t index = 0
    cdef int j, tile
    for j in range(s.m_tiles[grp]):
        tile = s.mtiles[grp][j]
        index |= (<uint64_t>s.pat.reflect_cell[where[tile]]) << s.pat.mshift_of[tile]
    return index


cdef inline int plain_value(const Store* s, int grp, const int* where) noexcept nogil:
    # Group grp's table value on the board whose tile t stands on where[t].
    return read_entry(&s.pat.groups[grp],
                      group_entry(&s.pat.groups[grp], group_index(s, grp, where)))


cdef inline int mirrored_value(const Store* s, int grp, const int* where) noexcept nogil:
    # The same on the board mirrored about the diagonal.
    return read_entry(&s.pat.groups[grp],
                      group_entry(&s.pat.groups[grp], mirrored_index(s, grp, where)))


cdef inline int pdb_h(const Store* s, int md, const uint8_t* value) noexcept nogil:
    cdef int grp, plain = 0, mirrored = 0, groups = s.values // 2
    for grp in range(groups):
        plain += value[grp]
        mirrored += value[groups + grp]
    if s.pat.mirror == 0:
        mirrored = 0
    return md + 2 * (plain if plain >= mirrored else mirrored)


cdef inline size_t node_size(const Store* s) noexcept nogil:
    # A stored board's arrays (the hash and the heap apart).
    return s.n + 2 + 4 + 4 + 8 + s.values


cdef inline size_t hash_slots(size_t capacity) noexcept nogil:
    # At most half full.
    cdef size_t slots = 1
    while slots < 2 * capacity:
        slots <<= 1
    return slots


cdef inline size_t store_bytes(const Store* s) noexcept nogil:
    return s.capacity * node_size(s) + (s.mask + 1 if s.slots != NULL else 0) * 8 + (
        s.heap.capacity * 16)


cdef inline uint64_t slot_word(uint64_t key, size_t node) noexcept nogil:
    return (key & 0xFFFFFFFF00000000ULL) | (node + 1)


cdef inline bint resized(void** block, size_t size) noexcept nogil:
    # realloc in place of the pointer: on failure the old block stays (freed with the store).
    cdef void* p = realloc(block[0], size)
    if p == NULL:
        return False
    block[0] = p
    return True


cdef int grow(Store* s) noexcept nogil:
    # Doubles the store and rehashes; -1 out of memory or past max_bytes.
    cdef size_t capacity = 2 * s.capacity if s.capacity else FIRST_NODES, i, slot
    if (capacity >= (1ULL << 31) or capacity * node_size(s) + hash_slots(capacity) * 8
            + s.heap.capacity * 16 > s.max_bytes):
        return -1
    if not (
        resized(<void**>&s.cells, capacity * s.n)
        and resized(<void**>&s.blank, capacity)
        and resized(<void**>&s.last, capacity)
        and resized(<void**>&s.parent, capacity * sizeof(int32_t))
        and resized(<void**>&s.g, capacity * sizeof(int16_t))
        and resized(<void**>&s.h, capacity * sizeof(int16_t))
        and resized(<void**>&s.key, capacity * sizeof(uint64_t))
        and (not s.values or resized(<void**>&s.value, capacity * s.values))
    ):
        return -1
    free(s.slots)
    s.mask = hash_slots(capacity)
    s.slots = <uint64_t*>malloc(s.mask * sizeof(uint64_t))
    if s.slots == NULL:
        return -1
    s.mask -= 1
    memset(s.slots, 0, (s.mask + 1) * sizeof(uint64_t))
    for i in range(s.count):
        slot = s.key[i] & s.mask
        while s.slots[slot]:
            slot = (slot + 1) & s.mask
        s.slots[slot] = slot_word(s.key[i], i)
    s.capacity = capacity
    return 0


cdef int push(Store* s, uint64_t key, int32_t node, int32_t g) noexcept nogil:
    # -1 out of memory or past max_bytes.
    cdef Heap* heap = &s.heap
    cdef size_t i, up
    cdef void* p
    if heap.count == heap.capacity:
        if store_bytes(s) + (heap.capacity if heap.capacity else FIRST_NODES) * 16 > s.max_bytes:
            return -1
        heap.capacity = 2 * heap.capacity if heap.capacity else FIRST_NODES
        p = realloc(heap.key, heap.capacity * sizeof(uint64_t))
        if p == NULL:
            return -1
        heap.key = <uint64_t*>p
        p = realloc(heap.node, heap.capacity * sizeof(int32_t))
        if p == NULL:
            return -1
        heap.node = <int32_t*>p
        p = realloc(heap.g, heap.capacity * sizeof(int32_t))
        if p == NULL:
            return -1
        heap.g = <int32_t*>p
    i = heap.count
    heap.count += 1
    while i > 0:
        up = (i - 1) >> 1
        if heap.key[up] <= key:
            break
        heap.key[i] = heap.key[up]
        heap.node[i] = heap.node[up]
        heap.g[i] = heap.g[up]
        i = up
    heap.key[i] = key
    heap.node[i] = node
    heap.g[i] = g
    return 0


cdef void pop(Heap* heap, int32_t* node, int32_t* g) noexcept nogil:
    cdef size_t i = 0, child, count
    cdef uint64_t key
    node[0] = heap.node[0]
    g[0] = heap.g[0]
    heap.count -= 1
    count = heap.count
    if count == 0:
        return
    key = heap.key[count]
    while True:
        child = 2 * i + 1
        if child >= count:
            break
        if child + 1 < count and heap.key[child + 1] < heap.key[child]:
            child += 1
        if heap.key[child] >= key:
            break
        heap.key[i] = heap.key[child]
        heap.node[i] = heap.node[child]
        heap.g[i] = heap.g[child]
        i = child
    heap.key[i] = key
    heap.node[i] = heap.node[count]
    heap.g[i] = heap.g[count]


cdef inline uint64_t priority(const Store* s, int g, int h) noexcept nogil:
    return ((<uint64_t>(SCALE * g + s.weight * h)) << 16) | <uint64_t>h


cdef int add(Store* s, const uint8_t* cells, int blank, int last, int32_t parent, int g, int h,
             uint64_t key, const uint8_t* value) noexcept nogil:
    # Stores a board not seen before, or re-opens one reached again by a shorter path; 0 when
    # it was seen as short, 1 when added or re-opened, -1 past max_bytes or out of memory.
    cdef size_t slot = key & s.mask
    cdef uint64_t tag = key >> 32
    cdef int32_t i
    while s.slots[slot]:
        i = <int32_t>((s.slots[slot] & 0xFFFFFFFFULL) - 1)
        if ((s.slots[slot] >> 32) == tag and s.key[i] == key
                and memcmp(s.cells + <size_t>i * s.n, cells, s.n) == 0):
            if g >= s.g[i]:
                return 0
            s.g[i] = g
            s.parent[i] = parent
            s.last[i] = last
            return 1 if push(s, priority(s, g, s.h[i]), i, g) == 0 else -1
        slot = (slot + 1) & s.mask
    if s.count == s.capacity:
        if grow(s) < 0:
            return -1
        slot = key & s.mask
        while s.slots[slot]:
            slot = (slot + 1) & s.mask
    i = <int32_t>s.count
    s.count += 1
    s.slots[slot] = slot_word(key, i)
    memcpy(s.cells + <size_t>i * s.n, cells, s.n)
    s.blank[i] = blank
    s.last[i] = last
    s.parent[i] = parent
    s.g[i] = g
    s.h[i] = h
    s.key[i] = key
    if s.values:
        memcpy(s.value + <size_t>i * s.values, value, s.values)
    return 1 if push(s, priority(s, g, h), i, g) == 0 else -1


cdef int expand(Store* s, int32_t i, int32_t* found, int* found_move,
                SearchCounters* counters) noexcept nogil:
    # Generates node i's children; 1 when one is the goal (found, found_move: its parent and
    # the move), -1 past max_bytes or out of memory, else 0. Every child's hash slot and table
    # entries are found and prefetched first, then read: each is a cache miss (the profile:
    # most of the time), and issued together they overlap.
    cdef uint8_t cells[MAX_CELLS]
    cdef uint16_t wide[MAX_CELLS]
    cdef int where[MAX_CELLS]
    cdef uint8_t value[2 * GROUP_MAX_COUNT]
    cdef int moves[4]
    cdef int targets[4]
    cdef uint64_t keys[4]
    cdef int plain[4]
    cdef int mirrored[4]
    cdef uint64_t entries[4][2]
    cdef int n = s.n, blank = s.blank[i], g = s.g[i], h = s.h[i], d, target, tile, cell, k
    cdef int count = 0, child_h, md = 0, one, two, grp, groups = s.values // 2, result
    cdef int extra_one, extra_two
    memcpy(cells, s.cells + <size_t>i * n, n)
    if s.values:
        for cell in range(n):
            where[cells[cell]] = cell
            md += s.distance[cells[cell] * n + cell]
    else:
        for cell in range(n):
            wide[cell] = cells[cell]
    for d in range(4):
        if s.last[i] != NO_MOVE and d == (s.last[i] ^ 1):
            continue
        target = wide_neighbour(blank, d, s.rows, s.cols)
        if target == NO_CELL:
            continue
        tile = cells[target]
        moves[count], targets[count] = d, target
        keys[count] = s.key[i] ^ move_key(tile, target, blank)
        prefetch(&s.slots[keys[count] & s.mask])
        if s.values:
            where[tile] = blank
            grp = s.pat.group_of[tile]
            plain[count] = grp
            if grp >= 0:
                entries[count][0] = group_entry(&s.pat.groups[grp], group_index(s, grp, where))
                prefetch(entry_address(&s.pat.groups[grp], entries[count][0]))
            grp = s.pat.mgroup_of[tile] if s.pat.mirror else -1
            mirrored[count] = grp
            if grp >= 0:
                entries[count][1] = group_entry(&s.pat.groups[grp], mirrored_index(s, grp, where))
                prefetch(entry_address(&s.pat.groups[grp], entries[count][1]))
            where[tile] = target
        count += 1
    counters.generated += count
    for k in range(count):
        d, target = moves[k], targets[k]
        tile = cells[target]
        child_h = h + s.distance[tile * n + blank] - s.distance[tile * n + target]
        if s.values:
            memcpy(value, s.value + <size_t>i * s.values, s.values)
            if plain[k] >= 0:
                value[plain[k]] = read_entry(&s.pat.groups[plain[k]], entries[k][0])
            if mirrored[k] >= 0:
                value[groups + mirrored[k]] = read_entry(&s.pat.groups[mirrored[k]],
                                                         entries[k][1])
            child_h = pdb_h(s, md + child_h - h, value)
        else:
            # The two lines the tile leaves and enters: rows for a vertical move (its column
            # keeps its order), else columns.
            if d == DIR_U or d == DIR_D:
                one, two = target // s.cols, blank // s.cols
            else:
                one, two = s.rows + target % s.cols, s.rows + blank % s.cols
            extra_one = line_extra(s, wide, one)
            extra_two = line_extra(s, wide, two)
            wide[blank] = tile
            wide[target] = 0
            child_h += line_extra(s, wide, one) + line_extra(s, wide, two) - extra_one - extra_two
            wide[target] = tile
            wide[blank] = 0
        if child_h == 0:
            found[0] = i
            found_move[0] = d
            return 1
        if (s.max_f >= 0 and g + 1 + child_h > s.max_f) or g + 1 > MAX_G:
            continue
        cells[blank] = tile
        cells[target] = 0
        result = add(s, cells, target, d, i, g + 1, child_h, keys[k], value)
        cells[target] = tile
        cells[blank] = 0
        if result < 0:
            return -1
    return 0


cdef int run(Store* s, int batch, Control* control, SearchCounters* counters,
             int32_t* found, int* found_move) except -2 nogil:
    cdef int32_t* chosen = <int32_t*>malloc(batch * sizeof(int32_t))
    cdef int taken, j, status = STATUS_RUNNING, result
    cdef int32_t node, g
    if chosen == NULL:
        return -1
    try:
        while status == STATUS_RUNNING:
            taken = 0
            while taken < batch and s.heap.count:
                pop(&s.heap, &node, &g)
                if g == s.g[node]:
                    chosen[taken] = node
                    taken += 1
            if taken == 0:
                return STATUS_EXHAUSTED
            for j in range(taken):
                if counters.expanded >= control.next_check:
                    status = checkpoint(control, counters, store_bytes(s))
                    if status != STATUS_RUNNING:
                        return status
                counters.expanded += 1
                result = expand(s, chosen[j], found, found_move, counters)
                if result == 1:
                    return STATUS_SOLVED
                if result < 0:
                    return STATUS_MEMORY_LIMIT
            if s.heap.count > counters.max_frontier:
                counters.max_frontier = s.heap.count
        return status
    finally:
        free(chosen)


def wastar(
    const uint16_t[::1] cells,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    *,
    double weight,
    int batch=1,
    tables=None,
    unsigned long long node_limit=0,
    double time_limit=0.0,
    unsigned long long memory_bytes=1 << 30,
    int max_f=-1,
):
    """Batch weighted A* (``f = g + weight * h``) from a canonical board.

    Parameters
    ----------
    cells, blank, rows, cols, goal_blank
        The start (canonical labels; not changed), its blank's cell, the shape, the goal's
        blank cell.
    weight : float
        From 1 to 100.
    batch : int
        Boards expanded a step (1: weighted A*).
    tables : LoadedPatterns or Database, optional
        One partition's pattern databases for this shape and goal (up to 64 cells); None:
        linear conflict.
    node_limit, time_limit
        Expansions and seconds (0: none).
    memory_bytes : int
        The most bytes the boards stored, their hash and the open list may take: past it,
        STATUS_MEMORY_LIMIT.
    max_f : int
        Boards whose ``g + h`` passes it are left out (-1: none).

    Returns
    -------
    CoreResult
        ``STATUS_SOLVED`` with the moves (blank directions), else the limit that stopped it
        or ``STATUS_EXHAUSTED`` (nothing left open within ``max_f``).
    """
    cdef Store s
    cdef Control control
    cdef SearchCounters counters
    cdef LoadedPatterns loaded
    cdef int n, cell, tile, grp, status, h, md = 0, found_move = 0, length, i
    cdef int32_t found = -1, node
    cdef uint8_t start[MAX_CELLS]
    cdef uint16_t wide[MAX_CELLS]
    cdef int where[MAX_CELLS]
    cdef uint8_t value[2 * GROUP_MAX_COUNT]
    cdef bytearray path
    # Each side checked before the product, which could wrap in a C int.
    if not (2 <= rows <= MAX_CELLS and 2 <= cols <= MAX_CELLS):
        raise ValueError(f"expected a board of {MIN_CELLS} to {MAX_CELLS} cells, got {rows}x{cols}")
    n = rows * cols
    if not MIN_CELLS <= n <= MAX_CELLS:
        raise ValueError(f"expected a board of {MIN_CELLS} to {MAX_CELLS} cells, got {rows}x{cols}")
    if cells.shape[0] != n or not 0 <= blank < n or cells[blank] != 0 or not 0 <= goal_blank < n:
        raise ValueError("cells do not describe the board")
    if not 1.0 <= weight <= 100.0:
        raise ValueError(f"expected a weight from 1 to 100, got {weight!r}")
    if batch < 1:
        raise ValueError(f"expected a batch of at least 1, got {batch}")
    memset(&s, 0, sizeof(Store))
    memset(where, 0, sizeof(where))
    for cell in range(n):
        if cells[cell] >= n or where[cells[cell]]:
            raise ValueError("cells must hold every tile 0..n-1 once")
        where[cells[cell]] = 1
        start[cell] = <uint8_t>cells[cell]
        wide[cell] = cells[cell]
    s.n, s.rows, s.cols, s.goal_blank, s.lines = n, rows, cols, goal_blank, rows + cols
    s.weight = <int>(weight * SCALE + 1e-9)
    s.max_f = max_f
    s.max_bytes = memory_bytes
    if tables is not None:
        if n > PDB_MAX_CELLS:
            raise ValueError(f"pattern databases are read on boards of up to {PDB_MAX_CELLS} cells")
        loaded = patterns_for(tables, n, 5 if n <= 32 else 6, goal_blank)
        if loaded.n_extra or loaded.zero or loaded.dual:
            raise ValueError("batch weighted A* reads one partition of plain tables")
        s.pat = &loaded.pat
        s.values = 2 * loaded.pat.n_groups
        for tile in range(1, n):
            grp = loaded.pat.group_of[tile]
            if grp >= 0:
                s.tiles[grp][s.n_tiles[grp]] = tile
                s.n_tiles[grp] += 1
            grp = loaded.pat.mgroup_of[tile] if loaded.pat.mirror else -1
            if grp >= 0:
                s.mtiles[grp][s.m_tiles[grp]] = tile
                s.m_tiles[grp] += 1
    init_control(&control, node_limit, time_limit, 0, None)
    init_counters(&counters)
    try:
        s.goal_row = <int16_t*>malloc(2 * n * sizeof(int16_t))
        if s.goal_row == NULL:
            raise MemoryError()
        s.goal_col = s.goal_row + n
        s.distance = <uint8_t*>malloc(n * n)
        if s.distance == NULL:
            raise MemoryError()
        for tile in range(n):
            for cell in range(n):
                s.distance[tile * n + cell] = (
                    wide_distance(tile, cell, cols, goal_blank) if tile else 0
                )
        wide_goal_lines(n, cols, goal_blank, s.goal_row, s.goal_col)
        if s.values:
            for cell in range(n):
                where[start[cell]] = cell
                if start[cell] != 0:
                    md += wide_distance(start[cell], cell, cols, goal_blank)
            for grp in range(s.values // 2):
                value[grp] = plain_value(&s, grp, where)
                value[s.values // 2 + grp] = mirrored_value(&s, grp, where) if s.pat.mirror else 0
            h = pdb_h(&s, md, value)
        else:
            h = lc_value(&s, wide)
        if h == 0:
            return core_result(STATUS_SOLVED, "", 0, 0, 0, 0, elapsed(&control), 0, 1)
        if grow(&s) < 0 or add(&s, start, blank, NO_MOVE, -1, 0, h, board_key(&s, start),
                               value) < 0:
            status = STATUS_MEMORY_LIMIT
        else:
            with nogil:
                status = run(&s, batch, &control, &counters, &found, &found_move)
        if status == -1:
            raise MemoryError()
        moves = ""
        if status == STATUS_SOLVED:
            # The chain's own length, not s.g[found]: a board reopened by a shorter path
            # leaves the boards below it with their old g until it is expanded again, and one
            # of them may be the goal's parent.
            length = 1
            node = found
            while s.parent[node] >= 0:
                length += 1
                node = s.parent[node]
            path = bytearray(length)
            path[length - 1] = found_move
            node = found
            for i in range(length - 2, -1, -1):
                path[i] = s.last[node]
                node = s.parent[node]
            moves = bytes(path).translate(_LETTERS).decode("ascii")
            counters.depth = length
        return core_result(
            status,
            moves,
            counters.expanded,
            counters.generated,
            counters.max_frontier,
            store_bytes(&s),
            elapsed(&control),
            counters.depth,
            1,
            store_bytes(&s),
        )
    finally:
        free(s.cells)
        free(s.blank)
        free(s.last)
        free(s.parent)
        free(s.g)
        free(s.h)
        free(s.key)
        free(s.value)
        free(s.slots)
        free(s.heap.key)
        free(s.heap.node)
        free(s.heap.g)
        free(s.goal_row)
        free(s.distance)


_LETTERS = bytes.maketrans(bytes(range(4)), move_letters()[:4])
