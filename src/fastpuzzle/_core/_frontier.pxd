# Node stores for the classic searches: a byte budget, an open-addressing hash table keyed by
# the packed board, a FIFO and a bucket priority queue. Everything is inline and nogil.
#
# Memory comes from PyMem_RawMalloc/RawRealloc/RawFree (the PyMem_Raw* family is the one that
# may be called without the GIL). Every block is counted in a Budget: that count, the structures
# at their capacity, is what the memory limit is checked against (reported as allocated_bytes).
# What the searches report as peak_memory_bytes is another count: the entries each structure
# holds times the bytes of one entry (table_stored, fifo_stored, bq_stored). A structure
# that would push the count over the limit refuses to grow (MEM_OVER_LIMIT, the search stops
# with MEMORY_LIMIT); an allocator failure is MEM_FAILED, which the caller turns into
# MemoryError. A table growth that a signal handler interrupted (Ctrl-C) is MEM_INTERRUPTED, with
# the handler's exception set, and one that ran past the budget's deadline (the search's time
# limit) is MEM_TIME_UP. The owner frees every structure in a `finally` block.

from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawRealloc
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memmove, memset

from fastpuzzle._core._control cimport monotonic_seconds
from fastpuzzle._core._interrupt cimport poll_interrupt
from fastpuzzle._core._packed cimport hash_board
from fastpuzzle._core._prefetch cimport prefetch

cdef enum:
    MEM_OK = 0
    MEM_OVER_LIMIT = 1
    MEM_FAILED = 2
    MEM_INTERRUPTED = 3
    MEM_TIME_UP = 4
    NO_MOVE = 255
    TABLE_ADDED = 1
    TABLE_FOUND = 0
    TABLE_MIN_SLOTS = 1024
    TABLE_QUADRUPLE_SLOTS = 1 << 20     # 16 MiB: past this, tables double
    TABLE_GROW_SLICE = 1 << 20          # slots cleared or rehashed between two signal checks


# ---------------------------------------------------------------------------------------------
# Budget: bytes held now, the most ever held, and the limit (0: none).

cdef struct Budget:
    uint64_t bytes
    uint64_t peak
    uint64_t limit
    double deadline     # monotonic_seconds() past which a long growth gives up (0: none)

cdef inline void budget_init(Budget* b, uint64_t limit) noexcept nogil:
    b.bytes = 0
    b.peak = 0
    b.limit = limit
    b.deadline = 0.0

cdef inline uint64_t budget_room(const Budget* b) noexcept nogil:
    # Bytes that may still be allocated (a huge number when there is no limit).
    if not b.limit:
        return <uint64_t>1 << 62
    return b.limit - b.bytes if b.limit > b.bytes else 0

cdef inline int budget_resize(
    Budget* b, void** block, size_t old_bytes, size_t new_bytes
) noexcept nogil:
    cdef void* moved
    if new_bytes > old_bytes and new_bytes - old_bytes > budget_room(b):
        return MEM_OVER_LIMIT
    moved = PyMem_RawRealloc(block[0], new_bytes)
    if moved == NULL:
        return MEM_FAILED
    block[0] = moved
    b.bytes = b.bytes - old_bytes + new_bytes
    if b.bytes > b.peak:
        b.peak = b.bytes
    return MEM_OK

cdef inline int budget_calloc(Budget* b, void** block, size_t num_bytes) noexcept nogil:
    # A fresh zeroed block. Large ones come straight from the OS as zero pages, so a search that
    # touches little of a big array pays for little of it.
    if num_bytes > budget_room(b):
        return MEM_OVER_LIMIT
    block[0] = PyMem_RawCalloc(num_bytes, 1)
    if block[0] == NULL:
        return MEM_FAILED
    b.bytes += num_bytes
    if b.bytes > b.peak:
        b.peak = b.bytes
    return MEM_OK

cdef inline void budget_release(Budget* b, void** block, size_t num_bytes) noexcept nogil:
    if block[0] != NULL:
        PyMem_RawFree(block[0])
        block[0] = NULL
        b.bytes -= num_bytes


# ---------------------------------------------------------------------------------------------
# Table: open addressing with linear probing, keyed by the packed board.
#
# The entry's `move` (the direction the blank moved to reach the board) is the parent link:
# sliding the blank back the opposite way gives the parent's key, so paths are rebuilt by
# looking boards up, and no index has to survive a rehash.

cdef struct Entry:
    uint64_t key        # the packed board; 0 marks an empty slot (no valid board packs to 0)
    uint32_t g          # path length from the search's root
    uint8_t h           # heuristic value (or best-first score)
    uint8_t move        # direction the blank moved to get here; NO_MOVE at the root
    uint8_t blank       # the blank's cell
    uint8_t closed      # expanded already

cdef struct Table:
    Entry* slots
    uint64_t mask       # slots - 1; the slot count is a power of two
    uint64_t count
    uint64_t grow_at    # half the slots (15/16 once at_cap)
    bint at_cap         # growing did not fit the budget: this table fills to 15/16 instead
    # table_grow, called through a pointer (as bq_push calls bq_make_room) so that the compiler
    # keeps it out of the insertions: they stay small enough to be inlined into every search's
    # loop (one search's insertions were left as calls once its module grew, 9% slower).
    int (*grow)(Table*, Budget*) noexcept nogil

cdef inline int table_init(Table* t, Budget* b, uint64_t capacity) noexcept nogil:
    cdef uint64_t size = TABLE_MIN_SLOTS
    cdef int rc
    while size < capacity:
        size <<= 1
    t.slots = NULL
    t.count = 0
    t.at_cap = False
    t.grow = table_grow
    rc = budget_resize(b, <void**>&t.slots, 0, size * sizeof(Entry))
    if rc != MEM_OK:
        return rc
    memset(t.slots, 0, size * sizeof(Entry))
    t.mask = size - 1
    t.grow_at = size // 2
    return MEM_OK

cdef inline void table_free(Table* t, Budget* b) noexcept nogil:
    if t.slots != NULL:
        budget_release(b, <void**>&t.slots, (t.mask + 1) * sizeof(Entry))

cdef inline int growth_stopped(const Budget* b) noexcept nogil:
    # Between slices of a long growth: MEM_TIME_UP past the deadline, MEM_INTERRUPTED when a
    # signal handler raised or the thread's stop event is set (the exception is left set until
    # the search's driver, which can propagate it, returns), else MEM_OK.
    if b.deadline > 0 and monotonic_seconds() >= b.deadline:
        return MEM_TIME_UP
    with gil:
        if poll_interrupt() < 0:
            return MEM_INTERRUPTED
    return MEM_OK

cdef inline int table_grow(Table* t, Budget* b) noexcept nogil:
    # Rehash into four times the slots while the new table stays within TABLE_QUADRUPLE_SLOTS and
    # the budget, else twice. Every rehash moves every entry (each move costs as much as an
    # insertion), and growing by four moves each entry a third as often as doubling does; tables
    # grow at half full, not three quarters: shorter probes for the lookups A* makes
    # (docs/performance.rst, "Where the constants come from"). Old and new arrays coexist for a
    # moment; both are counted.
    cdef uint64_t old_size = t.mask + 1
    cdef int step = 2
    cdef uint64_t new_size, new_mask, i, j
    cdef Entry* fresh = NULL
    cdef Entry* old = t.slots
    cdef int rc
    if old_size * 4 > TABLE_QUADRUPLE_SLOTS or old_size * 4 * sizeof(Entry) > budget_room(b):
        step = 1
    new_size = old_size << step
    new_mask = new_size - 1
    rc = budget_resize(b, <void**>&fresh, 0, new_size * sizeof(Entry))
    if rc == MEM_OVER_LIMIT:
        if not t.at_cap:
            # Linear probing still works at 15/16 load: slower, but it uses what the cap allows.
            t.at_cap = True
            t.grow_at = old_size - old_size // 16
            if t.count < t.grow_at:
                return MEM_OK
        return MEM_OVER_LIMIT
    if rc != MEM_OK:
        return rc
    # Growing a big table takes long (first touches of fresh pages: docs/performance.rst, "Where
    # the constants come from"). So it clears and rehashes in slices and checks for signals and
    # the time limit between them, which keeps Ctrl-C within half a second. Stopped, it leaves
    # the table as it was.
    i = 0
    while i < new_size:
        j = new_size - i if new_size - i < TABLE_GROW_SLICE else TABLE_GROW_SLICE
        memset(&fresh[i], 0, j * sizeof(Entry))
        i += j
        if new_size > TABLE_GROW_SLICE:
            rc = growth_stopped(b)
            if rc != MEM_OK:
                budget_release(b, <void**>&fresh, new_size * sizeof(Entry))
                return rc
    for i in range(old_size):
        if (i & (TABLE_GROW_SLICE - 1)) == TABLE_GROW_SLICE - 1:
            rc = growth_stopped(b)
            if rc != MEM_OK:
                budget_release(b, <void**>&fresh, new_size * sizeof(Entry))
                return rc
        if old[i].key:
            j = hash_board(old[i].key) & new_mask
            while fresh[j].key:
                j = (j + 1) & new_mask
            fresh[j] = old[i]
    t.slots = fresh
    t.mask = new_mask
    t.grow_at = new_size // 2
    budget_release(b, <void**>&old, old_size * sizeof(Entry))
    return MEM_OK

cdef inline uint64_t table_stored(const Table* t) noexcept nogil:
    # Bytes of the boards the table holds (not of its empty slots).
    return t.count * sizeof(Entry) if t.slots != NULL else 0

cdef inline Entry* table_find(const Table* t, uint64_t key) noexcept nogil:
    cdef uint64_t i = hash_board(key) & t.mask
    while True:
        if t.slots[i].key == key:
            return &t.slots[i]
        if t.slots[i].key == 0:
            return NULL
        i = (i + 1) & t.mask

cdef inline void table_prefetch(const Table* t, uint64_t hash) noexcept nogil:
    prefetch(&t.slots[hash & t.mask])

cdef inline int table_insert(Table* t, Budget* b, uint64_t key, Entry** out) noexcept nogil:
    return table_insert_hashed(t, b, key, hash_board(key), out)

cdef inline int table_insert_hashed(
    Table* t, Budget* b, uint64_t key, uint64_t hash, Entry** out
) noexcept nogil:
    # Finds `key` (TABLE_FOUND) or adds it with zeroed fields (TABLE_ADDED); `out` points at its
    # entry until the next insertion. Returns -MEM_OVER_LIMIT or -MEM_FAILED when it cannot add.
    # `hash` is hash_board(key), computed early by callers that prefetch its slot. A growth
    # stopped by a signal or the deadline returns -MEM_INTERRUPTED or -MEM_TIME_UP and leaves
    # the table as it was.
    cdef uint64_t i = hash & t.mask
    cdef int rc
    while t.slots[i].key:
        if t.slots[i].key == key:
            out[0] = &t.slots[i]
            return TABLE_FOUND
        i = (i + 1) & t.mask
    if t.count >= t.grow_at:
        rc = t.grow(t, b)
        if rc != MEM_OK:
            return -rc
        i = hash & t.mask
        while t.slots[i].key:
            i = (i + 1) & t.mask
    t.slots[i].key = key
    t.slots[i].g = 0
    t.slots[i].h = 0
    t.slots[i].move = NO_MOVE
    t.slots[i].blank = 0
    t.slots[i].closed = 0
    t.count += 1
    out[0] = &t.slots[i]
    return TABLE_ADDED


# ---------------------------------------------------------------------------------------------
# States: where a perfect index numbers every board (_permrank.pxd), one byte per board replaces
# a table entry (best-first searches keep a uint32 g per board beside it). A zero byte is a board
# never reached; otherwise STATE_SEEN, the move that reached it (or STATE_ROOT) and STATE_CLOSED
# once expanded. The move is the parent link, as in the table: undoing it gives the parent.

cdef enum:
    STATE_MOVE = 7      # mask of the move (the direction the blank moved) or STATE_ROOT
    STATE_ROOT = 4
    STATE_SEEN = 8
    STATE_CLOSED = 16


# ---------------------------------------------------------------------------------------------
# Fifo: a growable array used as a queue (BFS). It compacts instead of growing when more than
# half of it has been consumed, and grows by doubling, or by what the budget still allows.

cdef struct Item:
    uint64_t board      # the board (perfect-index BFS: its tile sequence, see _permrank.pxd)
    uint32_t rank       # perfect-index BFS: the sequence's rank (else 0)
    uint8_t blank
    uint8_t move        # direction the blank moved to get here; NO_MOVE at the root

cdef struct Fifo:
    Item* items
    uint64_t head
    uint64_t tail
    uint64_t capacity

cdef inline void fifo_init(Fifo* q) noexcept nogil:
    q.items = NULL
    q.head = 0
    q.tail = 0
    q.capacity = 0

cdef inline void fifo_free(Fifo* q, Budget* b) noexcept nogil:
    if q.items != NULL:
        budget_release(b, <void**>&q.items, q.capacity * sizeof(Item))

cdef inline uint64_t fifo_size(const Fifo* q) noexcept nogil:
    return q.tail - q.head

cdef inline uint64_t fifo_stored(const Fifo* q) noexcept nogil:
    # Bytes of the items waiting in the queue (not of its spare capacity).
    return (q.tail - q.head) * sizeof(Item)

cdef inline int fifo_reserve(Fifo* q, Budget* b, uint64_t extra) noexcept nogil:
    # Room for `extra` more items at the tail. The array compacts instead of growing when at
    # least half of it has been consumed, else doubles (or grows by what the budget allows).
    cdef uint64_t want, room
    cdef int rc
    if q.tail + extra <= q.capacity:
        return MEM_OK
    if q.head > 0 and q.head >= extra and q.head >= q.capacity // 2:
        memmove(q.items, q.items + q.head, (q.tail - q.head) * sizeof(Item))
        q.tail -= q.head
        q.head = 0
        return MEM_OK
    want = q.capacity * 2 if q.capacity else 1024
    room = budget_room(b) // sizeof(Item)
    if want - q.capacity > room:
        want = q.capacity + room
    if want < q.tail + extra:
        return MEM_OVER_LIMIT
    rc = budget_resize(b, <void**>&q.items, q.capacity * sizeof(Item), want * sizeof(Item))
    if rc != MEM_OK:
        return rc
    q.capacity = want
    return MEM_OK

cdef inline int fifo_push(
    Fifo* q, Budget* b, uint64_t board, int blank, int move, uint32_t rank
) noexcept nogil:
    cdef int rc = fifo_reserve(q, b, 1)
    if rc != MEM_OK:
        return rc
    q.items[q.tail].board = board
    q.items[q.tail].blank = <uint8_t>blank
    q.items[q.tail].move = <uint8_t>move
    q.items[q.tail].rank = rank
    q.tail += 1
    return MEM_OK

cdef inline Item fifo_pop(Fifo* q) noexcept nogil:
    q.head += 1
    return q.items[q.head - 1]


# ---------------------------------------------------------------------------------------------
# BucketQueue: a priority queue on small integer priorities (f = g + h for A*). Each priority
# level holds one stack per tie key; the pop takes the lowest priority and, within it, the
# highest tie key (A* passes g, so ties go towards larger g; greedy passes 0: plain LIFO).

cdef struct Stack:
    uint64_t* items
    uint64_t size
    uint64_t capacity

cdef struct Level:
    Stack* stacks
    uint32_t nstacks
    uint32_t top        # no stack above this tie key holds anything
    uint64_t count

cdef struct BucketQueue:
    Level* levels
    uint32_t nlevels
    uint32_t low        # no level below this priority holds anything
    uint64_t count
    # bq_make_room, called through a pointer so that the compiler keeps it out of bq_push.
    int (*make_room)(BucketQueue*, Budget*, uint32_t, uint32_t) noexcept nogil

cdef inline void bq_init(BucketQueue* q) noexcept nogil:
    q.levels = NULL
    q.nlevels = 0
    q.low = 0
    q.count = 0
    q.make_room = bq_make_room

cdef inline void bq_free(BucketQueue* q, Budget* b) noexcept nogil:
    cdef uint32_t p, k
    cdef Level* level
    if q.levels == NULL:
        return
    for p in range(q.nlevels):
        level = &q.levels[p]
        if level.stacks != NULL:
            for k in range(level.nstacks):
                if level.stacks[k].items != NULL:
                    budget_release(
                        b,
                        <void**>&level.stacks[k].items,
                        level.stacks[k].capacity * sizeof(uint64_t),
                    )
            budget_release(b, <void**>&level.stacks, level.nstacks * sizeof(Stack))
    budget_release(b, <void**>&q.levels, q.nlevels * sizeof(Level))
    q.nlevels = 0

cdef inline uint32_t grown(uint32_t have, uint32_t need) noexcept nogil:
    cdef uint32_t size = have * 2 if have else 16
    while size <= need:
        size *= 2
    return size

cdef inline int bq_make_room(
    BucketQueue* q, Budget* b, uint32_t priority, uint32_t tie
) noexcept nogil:
    # Grows whatever bq_push needs for one more item at (priority, tie).
    cdef uint32_t size
    cdef uint64_t capacity
    cdef int rc
    cdef Level* level
    cdef Stack* stack
    if priority >= q.nlevels:
        size = grown(q.nlevels, priority)
        rc = budget_resize(
            b, <void**>&q.levels, q.nlevels * sizeof(Level), size * sizeof(Level)
        )
        if rc != MEM_OK:
            return rc
        memset(&q.levels[q.nlevels], 0, (size - q.nlevels) * sizeof(Level))
        q.nlevels = size
    level = &q.levels[priority]
    if tie >= level.nstacks:
        size = grown(level.nstacks, tie)
        rc = budget_resize(
            b, <void**>&level.stacks, level.nstacks * sizeof(Stack), size * sizeof(Stack)
        )
        if rc != MEM_OK:
            return rc
        memset(&level.stacks[level.nstacks], 0, (size - level.nstacks) * sizeof(Stack))
        level.nstacks = size
    stack = &level.stacks[tie]
    if stack.size == stack.capacity:
        capacity = stack.capacity * 2 if stack.capacity else 64
        rc = budget_resize(
            b,
            <void**>&stack.items,
            stack.capacity * sizeof(uint64_t),
            capacity * sizeof(uint64_t),
        )
        if rc != MEM_OK:
            return rc
        stack.capacity = capacity
    return MEM_OK

cdef inline int bq_push(
    BucketQueue* q, Budget* b, uint32_t priority, uint32_t tie, uint64_t board
) noexcept nogil:
    # The common case (room in an existing stack) stays short: growing goes through
    # q.make_room, a pointer, so that its code is never inlined here.
    cdef int rc
    cdef Level* level
    cdef Stack* stack
    if (
        priority >= q.nlevels
        or tie >= q.levels[priority].nstacks
        or q.levels[priority].stacks[tie].size == q.levels[priority].stacks[tie].capacity
    ):
        rc = q.make_room(q, b, priority, tie)
        if rc != MEM_OK:
            return rc
    level = &q.levels[priority]
    stack = &level.stacks[tie]
    stack.items[stack.size] = board
    stack.size += 1
    level.count += 1
    if tie > level.top:
        level.top = tie
    q.count += 1
    if priority < q.low:
        q.low = priority
    return MEM_OK

cdef inline uint64_t bq_stored(const BucketQueue* q) noexcept nogil:
    # Bytes of the items in the queue (stale copies included: they are stored until popped).
    return q.count * sizeof(uint64_t)

cdef inline bint bq_pop(
    BucketQueue* q, uint32_t* priority, uint32_t* tie, uint64_t* board
) noexcept nogil:
    cdef Level* level
    if q.count == 0:
        return False
    while q.levels[q.low].count == 0:
        q.low += 1
    level = &q.levels[q.low]
    while level.stacks[level.top].size == 0:
        level.top -= 1
    level.stacks[level.top].size -= 1
    board[0] = level.stacks[level.top].items[level.stacks[level.top].size]
    priority[0] = q.low
    tie[0] = level.top
    level.count -= 1
    q.count -= 1
    return True
