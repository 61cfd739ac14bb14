# A*+IDA* (Bu & Korf 2019), part of the engine text (_engine.pxi): A* from the root until its
# store holds ``budget`` nodes, then IDA* below each node left on its open list (the frontier),
# all in one loop over bounds.
#
# A node is keyed by its board and the duplicate-pruning machine's state: two paths that reach
# one board in one state have the same subtree under the machine, so the longer is dropped (and
# a shorter one found later reopens the node). That is IDA*'s own tree with its duplicates
# merged: it prunes at least what IDA* with the machine prunes, and every optimal solution
# keeps a path the machine allows (the earliest of the shortest strings), so the search stays
# exact. Each node's f is the largest f on its path (path-max: an admissible heuristic makes it
# a lower bound on any solution through the node).
#
# The A* part expands the best open node (smallest f, then smallest h: deepest towards the
# goal; among equals the latest queued, from buckets by f and h); a goal stays on the open
# list until it is the best node, so the first goal taken is optimal. The IDA* part
# searches, at bound B, every frontier node whose f is at most B, in increasing (f, h), and
# keeps for each the smallest f its subtree had over B (its backed-up f): a node whose
# subtree has nothing within the next bound is not entered again. The next bound is the
# smallest f on the frontier. In the last iteration the nodes nearest the goal
# come first, which is where IDA*'s last iteration loses most of its work.
#
# Stored nodes are small (board bytes, path, state, depth, h, f); a node is made again from its
# board when it is expanded or searched (node_from_board: one evaluation of the heuristic), or
# where the host cannot, re-entered from the root along its path (Collect mode, guided: one
# child a level), the path's expansions taken back from the counts.

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcmp, memcpy, memset

cdef enum:
    BOARD_BYTES = 32        # the largest board_bytes() of a host (25 cells a byte)
    HYBRID_MIN_BUDGET = 16  # the fewest stored nodes a budget allows
    QUEUE_LEVELS = 128      # values of f above the start's h that A* queues
    QUEUE_H = 256           # values of h it queues


cdef struct Stored:
    # A node of the A* part: its board, the path to it, the machine's state, g, h and f.
    uint8_t board[BOARD_BYTES]
    uint8_t path[MAX_CUT]
    int32_t state
    int blank
    int depth
    int h
    int f                   # path-max f; on the frontier, the backed-up f
    int open                # on the open list (the frontier, once A* stops)


cdef struct Ranked:
    # A node's place in the order A* takes its nodes and IDA* searches its frontier.
    int f
    int h
    int depth               # the node's depth when it was queued (older entries are stale)
    uint32_t index


cdef struct Bucket:
    # Entries (index | depth << 32) of one (f, h), a stack.
    uint64_t* items
    uint32_t count
    uint32_t capacity


cdef struct Queue:
    # A*'s open list: a bucket per (f - base_f, h); no entry lies before (level, h). A binary
    # heap over millions of nodes missed the cache at every level of each push and pop.
    Bucket* buckets
    int base_f
    int level
    int h
    uint64_t count
    uint64_t bytes


cdef struct Hybrid:
    Stored* nodes
    uint32_t count
    uint32_t budget
    uint32_t* slots         # open addressing: index + 1, 0 free
    uint64_t mask
    Queue queue             # the open list (A*)
    Ranked* order           # the frontier in the order IDA* searches it
    size_t order_capacity
    Collector children
    Node scratch            # the node being expanded or searched
    uint64_t bytes          # what the structures take at their capacity


#: The bytes one stored node of A*+IDA* takes (node, hash slots, queue entries, its place in
#: IDA*'s order): what a memory budget is divided by.
HYBRID_NODE_BYTES = sizeof(Stored) + 2 * sizeof(uint32_t) + 2 * sizeof(uint64_t) + sizeof(Ranked)


cdef inline bint ranked_before(const Ranked* a, const Ranked* b) noexcept nogil:
    if a.f != b.f:
        return a.f < b.f
    if a.h != b.h:
        return a.h < b.h
    return a.index < b.index


cdef int ranked_order(const void* a, const void* b) noexcept nogil:
    # qsort's comparator: ranked_before, a total order (the index breaks ties).
    if ranked_before(<const Ranked*>a, <const Ranked*>b):
        return -1
    if ranked_before(<const Ranked*>b, <const Ranked*>a):
        return 1
    return 0


cdef int queue_push(Queue* q, const Stored* e, uint32_t index) noexcept nogil:
    # 0; -1 when the bucket cannot grow. A node whose f or h the buckets do not reach stays
    # open unqueued: the frontier holds it, A* never expands it.
    cdef int level = e.f - q.base_f
    cdef Bucket* b
    cdef uint64_t* grown
    cdef uint32_t capacity
    if level < 0 or level >= QUEUE_LEVELS or e.h < 0 or e.h >= QUEUE_H:
        return 0
    b = &q.buckets[level * QUEUE_H + e.h]
    if b.count == b.capacity:
        capacity = 2 * b.capacity if b.capacity else 16
        grown = <uint64_t*>realloc(b.items, capacity * sizeof(uint64_t))
        if grown == NULL:
            return -1
        q.bytes += (capacity - b.capacity) * sizeof(uint64_t)
        b.items = grown
        b.capacity = capacity
    b.items[b.count] = index | (<uint64_t>e.depth << 32)
    b.count += 1
    q.count += 1
    if level < q.level or (level == q.level and e.h < q.h):
        q.level = level
        q.h = e.h
    return 0


cdef uint64_t queue_pop(Queue* q) noexcept nogil:
    # The entry of smallest (f, h), the latest queued first among equals; q.count > 0.
    cdef Bucket* b
    while True:
        b = &q.buckets[q.level * QUEUE_H + q.h]
        if b.count:
            b.count -= 1
            q.count -= 1
            return b.items[b.count]
        q.h += 1
        if q.h == QUEUE_H:
            q.h = 0
            q.level += 1


cdef inline uint64_t stored_hash(const uint8_t* board, int32_t state) noexcept nogil:
    # FNV-1a over the board's bytes, then the state; equal keys are told apart by the bytes.
    cdef uint64_t key = <uint64_t>14695981039346656037ULL
    cdef int i
    for i in range(BOARD_BYTES):
        key = (key ^ board[i]) * <uint64_t>1099511628211ULL
    key = (key ^ <uint32_t>state) * <uint64_t>1099511628211ULL
    return key ^ (key >> 29)


cdef uint32_t* find_slot(Hybrid* y, const uint8_t* board, int32_t state) noexcept nogil:
    # The slot holding the node of this board and state, or the free slot where it would go.
    cdef uint64_t i = stored_hash(board, state) & y.mask
    cdef const Stored* e
    while y.slots[i] != 0:
        e = &y.nodes[y.slots[i] - 1]
        if e.state == state and memcmp(e.board, board, BOARD_BYTES) == 0:
            break
        i = (i + 1) & y.mask
    return &y.slots[i]


cdef int hybrid_init(Hybrid* y, uint64_t budget) noexcept nogil:
    # 0, or -1 out of memory (what was allocated is freed by hybrid_free).
    cdef uint64_t capacity = 1
    if budget < HYBRID_MIN_BUDGET:
        budget = HYBRID_MIN_BUDGET
    if budget > 0x7FFFFFFF:
        budget = 0x7FFFFFFF
    while capacity < 2 * budget:
        capacity *= 2
    y.budget = <uint32_t>budget
    y.count = 0
    y.mask = capacity - 1
    y.queue.count = 0
    y.queue.level = y.queue.h = y.queue.base_f = 0
    y.order = NULL
    y.order_capacity = 0
    y.nodes = <Stored*>malloc(budget * sizeof(Stored))
    y.slots = <uint32_t*>malloc(capacity * sizeof(uint32_t))
    y.queue.buckets = <Bucket*>calloc(QUEUE_LEVELS * QUEUE_H, sizeof(Bucket))
    y.children.count = 0
    y.children.capacity = 4
    y.children.nodes = <Node*>malloc(4 * sizeof(Node))
    y.children.guided = 0
    y.children.guide = NULL
    y.children.keep_goals = 0
    y.bytes = (budget * sizeof(Stored) + capacity * sizeof(uint32_t)
               + QUEUE_LEVELS * QUEUE_H * sizeof(Bucket) + 4 * sizeof(Node))
    y.queue.bytes = 0
    if (y.nodes == NULL or y.slots == NULL or y.queue.buckets == NULL
            or y.children.nodes == NULL):
        return -1
    memset(y.slots, 0, capacity * sizeof(uint32_t))
    return 0


cdef void hybrid_free(Hybrid* y) noexcept nogil:
    free(y.nodes)
    free(y.slots)
    cdef int i
    if y.queue.buckets != NULL:
        for i in range(QUEUE_LEVELS * QUEUE_H):
            free(y.queue.buckets[i].items)
    free(y.queue.buckets)
    free(y.order)
    free(y.children.nodes)


cdef void store_node(const Search* s, Stored* e, const Node* node, int f) noexcept nogil:
    cdef int i
    memset(e.board, 0, BOARD_BYTES)
    board_bytes(s, node, e.board)
    for i in range(node.depth):
        e.path[i] = node.path[i]
    e.state = node.state
    e.blank = node.blank
    e.depth = node.depth
    e.h = node.h
    e.f = f
    e.open = 1


cdef int load_stored(Search* s, const Node* root, Hybrid* y, const Stored* e,
                     Node* node) except -2 nogil:
    # e as a node in *node: made from its board where the host can (node_from_board), else
    # re-entered from the root down its path (Collect mode, guided, no bound), the path's
    # expansions and generations taken back (they were counted when it was first reached, as a
    # stolen unit's are). SEARCHED; FOUND when e is the goal and was re-entered (s.path holds
    # the path); STOPPED at a limit.
    cdef Collector* c = &y.children
    cdef int r, i, bound = s.bound, next_bound = s.next_bound
    if e.depth == 0:
        memcpy(node, root, sizeof(Node))
        return SEARCHED
    if node_from_board(s, node, e.board, e.blank):
        node.depth = e.depth
        node.state = e.state
        for i in range(e.depth):
            node.path[i] = e.path[i]
        return SEARCHED
    c.count = 0
    c.cut = e.depth
    c.guided = e.depth
    c.guide = e.path
    c.keep_goals = 0
    s.collector = c
    s.bound = INFINITE - 1
    r = descend(s, root, COLLECT)
    s.collector = NULL
    c.guided = 0
    s.bound = bound
    s.next_bound = next_bound
    s.counters.expanded -= e.depth
    s.counters.generated -= e.depth
    s.control.next_check -= e.depth
    if r == SEARCHED:
        memcpy(node, &c.nodes[0], sizeof(Node))
    return r


cdef int expand_stored(Search* s, Hybrid* y, const Node* node) except -2 nogil:
    # A* expands node: its children (a goal among them too) into y.children. Descend's code:
    # FOUND when node is the goal.
    cdef Collector* c = &y.children
    cdef int r, bound = s.bound, next_bound = s.next_bound
    c.count = 0
    c.cut = node.depth + 1
    c.guided = 0
    c.keep_goals = 1
    s.collector = c
    s.bound = INFINITE - 1
    r = descend(s, node, COLLECT)
    s.collector = NULL
    c.keep_goals = 0
    s.bound = bound
    s.next_bound = next_bound
    return r


cdef int astar_part(Search* s, const Node* root, Hybrid* y) except -2 nogil:
    # A* until the store is full (or nothing is open): SEARCHED, FOUND (s.counters.depth the
    # length) or STOPPED; -1 out of memory.
    cdef uint64_t best
    cdef Stored* e
    cdef Stored* old
    cdef const Node* child
    cdef uint8_t board[BOARD_BYTES]
    cdef uint32_t* slot
    cdef size_t i
    cdef int r, f
    store_node(s, &y.nodes[0], root, root.h)
    y.count = 1
    slot = find_slot(y, y.nodes[0].board, y.nodes[0].state)
    slot[0] = 1
    y.queue.base_f = root.h
    if queue_push(&y.queue, &y.nodes[0], 0) < 0:
        return -1
    while y.queue.count:
        best = queue_pop(&y.queue)
        e = &y.nodes[<uint32_t>best]
        if not e.open or e.depth != <int>(best >> 32):
            continue
        if e.depth >= MAX_CUT - 1:
            # A path too long to store a child's: the node stays on the frontier unexpanded.
            continue
        if y.count + 4 > y.budget:
            # Full: what is open is the frontier.
            return SEARCHED
        e.open = 0
        r = load_stored(s, root, y, e, &y.scratch)
        if r == SEARCHED:
            r = expand_stored(s, y, &y.scratch)
        if r == FOUND:
            s.counters.depth = e.depth
            return FOUND
        if r != SEARCHED:
            return r
        for i in range(y.children.count):
            child = &y.children.nodes[i]
            memset(board, 0, BOARD_BYTES)
            board_bytes(s, child, board)
            f = child.depth + child.h
            if f < e.f:
                f = e.f
            slot = find_slot(y, board, child.state)
            if slot[0] != 0:
                old = &y.nodes[slot[0] - 1]
                if old.depth <= child.depth:
                    continue
                # A shorter path to a node already stored: the node again, reopened.
                store_node(s, old, child, f)
                if queue_push(&y.queue, old, slot[0] - 1) < 0:
                    return -1
                continue
            store_node(s, &y.nodes[y.count], child, f)
            slot[0] = y.count + 1
            y.count += 1
            if queue_push(&y.queue, &y.nodes[y.count - 1], y.count - 1) < 0:
                return -1
    return SEARCHED


cdef int idastar_part(Search* s, const Node* root, Hybrid* y, int max_depth,
                      int min_bound) except -2 nogil:
    # IDA* below the frontier (the open nodes), bound after bound: a status.
    cdef Ranked* order
    cdef Stored* e
    cdef size_t count, i, searched
    cdef uint32_t j
    cdef int r, bound = INFINITE
    # The frontier, once: the open nodes (the queue's entries may repeat or be stale).
    count = 0
    for j in range(y.count):
        e = &y.nodes[j]
        if e.open:
            if e.f < bound:
                bound = e.f
            count += 1
    if count == 0:
        return STATUS_EXHAUSTED
    if min_bound > bound:
        # Rounded down to the parity of every f, as run_search does.
        bound = min_bound - ((min_bound - bound) & 1)
    y.order = <Ranked*>malloc(count * sizeof(Ranked))
    if y.order == NULL:
        return STATUS_MEMORY_LIMIT
    y.order_capacity = count
    y.bytes += count * sizeof(Ranked)
    order = y.order
    while True:
        if bound > max_depth:
            s.counters.depth = bound
            s.bound = bound
            return STATUS_DEPTH_LIMIT
        s.bound = bound
        s.counters.iterations += 1
        s.counters.depth = bound
        s.study.solutions = 0
        searched = 0
        for j in range(y.count):
            e = &y.nodes[j]
            if e.open and e.f <= bound:
                order[searched].f = e.f
                order[searched].h = e.h
                order[searched].depth = e.depth
                order[searched].index = j
                searched += 1
        qsort(order, searched, sizeof(Ranked), ranked_order)
        for i in range(searched):
            e = &y.nodes[order[i].index]
            r = load_stored(s, root, y, e, &y.scratch)
            if r == FOUND:
                # e is a goal (taken off A*'s open list unexpanded): its path is s.path.
                if s.study.complete:
                    note_solution(s)
                    e.f = INFINITE
                    continue
                s.counters.depth = e.depth
                return STATUS_SOLVED
            if r != SEARCHED:
                return s.status
            s.next_bound = INFINITE
            r = descend_iteration(s, &y.scratch)
            if r == FOUND:
                s.counters.depth = bound
                if s.study.trace != NULL:
                    trace_iteration(s, bound, i + 1, True)
                return STATUS_SOLVED
            if r != SEARCHED:
                return s.status
            e.f = s.next_bound
        if s.study.trace != NULL:
            trace_iteration(s, bound, searched, False)
        if s.study.solutions:
            return STATUS_SOLVED
        bound = INFINITE
        for j in range(y.count):
            e = &y.nodes[j]
            if e.open and e.f < bound:
                bound = e.f
        if bound >= INFINITE:
            return STATUS_EXHAUSTED


cdef int run_hybrid(Search* s, const Node* root, int max_depth, int min_bound,
                    uint64_t budget, uint64_t* memory) except -2 nogil:
    # A*+IDA* from the root with at most ``budget`` stored nodes: the status; the path and
    # counters in s, what the store took in *memory.
    cdef Hybrid y
    cdef int r
    y.nodes = NULL
    y.slots = NULL
    y.queue.buckets = NULL
    y.order = NULL
    y.children.nodes = NULL
    try:
        if hybrid_init(&y, budget) < 0:
            memory[0] = y.bytes
            return STATUS_MEMORY_LIMIT
        memory[0] = y.bytes
        s.bound = root.h
        s.counters.depth = root.h
        r = astar_part(s, root, &y)
        memory[0] = y.bytes + y.queue.bytes
        if s.study.trace != NULL and r != STOPPED:
            trace_iteration(s, -1, y.count, False)
        if r == FOUND:
            return STATUS_SOLVED
        if r == STOPPED:
            return s.status
        if r < 0:
            return STATUS_MEMORY_LIMIT
        r = idastar_part(s, root, &y, max_depth, min_bound)
        memory[0] = y.bytes + y.queue.bytes
        return r
    finally:
        hybrid_free(&y)


cdef int trace_iteration(Search* s, int bound, uint64_t units, bint found) except -2 nogil:
    # A study's record of an iteration just ended: (bound, expanded, generated, expanded and
    # generated at the first solution or -1, units), counts from the search's start; bound -1:
    # A*+IDA*'s A* part, whose units are the nodes it stored. ``found``: it ends at the goal.
    cdef long long first_expanded = -1, first_generated = -1
    if found:
        first_expanded = s.counters.expanded
        first_generated = s.counters.generated
    elif s.study.solutions:
        first_expanded = s.study.first_expanded
        first_generated = s.study.first_generated
    with gil:
        row = (bound, s.counters.expanded, s.counters.generated, first_expanded,
               first_generated, units)
        (<object>s.study.trace).append(row)
    return 0
