"""Compiled drivers of the classic searches: BFS, DFS, IDDFS, best-first (A*, weighted A*, greedy,
lookahead greedy), optimal bidirectional BFS and the random walk.

Every entry takes a canonical packed start (see ``_packed.pxd``), its blank cell, the shape and
the goal's blank cell, runs its loop without the GIL, and returns the ``CoreResult`` tuple
``(status, moves, expanded, generated, max_frontier, peak_memory_bytes, seconds, depth,
iterations)``. Moves are U, D, L, R: the direction the blank moves. The Python layer validates
input (``fastpuzzle.solve``); these functions trust it.

Counting conventions, the same in every driver: a node is *expanded* when its children are
generated (the goal, once reached, is not expanded); *generated* counts children, where the move
that undoes the one that led to a node is never generated; checkpoints (limits, Ctrl-C,
progress) run every 2**16 expansions and exactly at the node limit.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t

from fastpuzzle._control cimport (
    Control,
    SearchCounters,
    STATUS_DEPTH_LIMIT,
    STATUS_EXHAUSTED,
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
    note_memory,
)
from fastpuzzle._frontier cimport (
    Budget,
    BucketQueue,
    Entry,
    Fifo,
    Item,
    MEM_FAILED,
    MEM_OK,
    NO_MOVE,
    TABLE_ADDED,
    Table,
    bq_free,
    bq_init,
    bq_pop,
    bq_push,
    budget_init,
    budget_release,
    budget_resize,
    fifo_free,
    fifo_init,
    fifo_pop,
    fifo_push,
    fifo_size,
    table_find,
    table_free,
    table_init,
    table_insert,
    table_insert_hashed,
    table_prefetch,
)
from fastpuzzle._heuristics cimport (
    GoalTables,
    init_goal_tables,
    linear_conflict_of,
    manhattan_of,
    misplaced_of,
)
from fastpuzzle._packed cimport (
    Geometry,
    NO_CELL,
    get_tile,
    goal_cell_of,
    hash_board,
    init_geometry,
    slide,
)

DIRECTION_LETTERS = "UDLR"
cdef const char* DIRECTION_CHARS = b"UDLR"
# Random-walk moves are stored as codes 0..3; this turns them into letters in one call.
_CODE_TO_LETTER = bytes.maketrans(b"\x00\x01\x02\x03", b"UDLR")

cdef enum:
    H_NONE = -1
    H_MISPLACED = 0
    H_MANHATTAN = 1
    H_LINEAR_CONFLICT = 2

#: Codes of the heuristics the drivers compute (``heuristic=`` argument).
HEURISTIC_CODES = {
    "misplaced": H_MISPLACED,
    "manhattan": H_MANHATTAN,
    "linear_conflict": H_LINEAR_CONFLICT,
}


cdef struct Puzzle:
    Geometry geo
    GoalTables tables
    uint64_t start
    int start_blank
    uint64_t goal
    int goal_blank
    int heuristic
    int max_depth               # -1: none


cdef struct Run:
    # Everything a driver reads and writes, so that one `finally` can free it all.
    Puzzle p
    Control ctl
    SearchCounters cnt
    Budget budget
    int status
    bint pruned                 # some child was cut off by max_depth
    uint64_t end                # the board the path ends at (goal, or the meeting board)
    uint8_t* walk               # random walk: its moves
    uint64_t walk_capacity


cdef void init_run(
    Run* r, uint64_t start, int blank, int rows, int cols, int goal_blank, int heuristic,
    uint64_t node_limit, double time_limit, uint64_t memory_limit, int max_depth, object progress,
):
    cdef int tile
    init_geometry(&r.p.geo, rows, cols)
    init_goal_tables(&r.p.tables, &r.p.geo, goal_blank)
    r.p.start = start
    r.p.start_blank = blank
    r.p.goal = 0
    for tile in range(1, rows * cols):
        r.p.goal |= (<uint64_t>tile) << (4 * goal_cell_of(tile, goal_blank))
    r.p.goal_blank = goal_blank
    r.p.heuristic = heuristic
    r.p.max_depth = max_depth
    init_control(&r.ctl, node_limit, time_limit, memory_limit, progress)
    init_counters(&r.cnt)
    r.cnt.iterations = 1
    budget_init(&r.budget, memory_limit)
    r.status = STATUS_RUNNING
    r.pruned = False
    r.end = 0
    r.walk = NULL
    r.walk_capacity = 0


cdef inline int h_full(const Puzzle* p, uint64_t board) noexcept nogil:
    if p.heuristic == H_MANHATTAN:
        return manhattan_of(board, &p.geo, &p.tables)
    if p.heuristic == H_MISPLACED:
        return misplaced_of(board, &p.geo, &p.tables)
    if p.heuristic == H_LINEAR_CONFLICT:
        return linear_conflict_of(board, &p.geo, &p.tables)
    return 0


cdef inline int h_step(
    const Puzzle* p, int h, uint64_t child, int tile, int blank, int target
) noexcept nogil:
    # `tile` slid from `target` into the old blank cell `blank`; Manhattan and misplaced are
    # updated from that one tile, linear conflict is recomputed (its lines all change together).
    if p.heuristic == H_MANHATTAN:
        return h - p.tables.distance[tile][target] + p.tables.distance[tile][blank]
    if p.heuristic == H_MISPLACED:
        return (
            h - (p.tables.goal_cell[tile] != target) + (p.tables.goal_cell[tile] != blank)
        )
    if p.heuristic == H_LINEAR_CONFLICT:
        return linear_conflict_of(child, &p.geo, &p.tables)
    return 0


cdef inline int memory_status(Run* r, int rc) except -1 nogil:
    # MEM_OVER_LIMIT stops the search with MEMORY_LIMIT; an allocator failure raises.
    if rc == MEM_FAILED:
        with gil:
            raise MemoryError("fastpuzzle search: out of memory")
    r.status = STATUS_MEMORY_LIMIT
    return 0


cdef inline int at_checkpoint(Run* r, uint64_t memory_bytes) except -1 nogil:
    # 1 when the search must stop (r.status set), 0 to go on; -1 with an exception set.
    cdef int rc = checkpoint(&r.ctl, &r.cnt, memory_bytes)
    if rc == -2:
        return -1
    if rc != STATUS_RUNNING:
        r.status = rc
        return 1
    return 0


cdef str path_to(const Table* t, const Geometry* geo, uint64_t board):
    # Moves from the table's root to `board`, following each entry's move back to its parent.
    cdef list letters = []
    cdef const Entry* e = table_find(t, board)
    while e != NULL and e.move != NO_MOVE:
        letters.append(DIRECTION_LETTERS[e.move])
        board = slide(board, e.blank, geo.neighbour[e.blank][e.move ^ 1])
        e = table_find(t, board)
    letters.reverse()
    return "".join(letters)


cdef str path_from(const Table* t, const Geometry* geo, uint64_t board):
    # Moves from `board` to the root of a table grown backwards from the goal.
    cdef list letters = []
    cdef const Entry* e = table_find(t, board)
    while e != NULL and e.move != NO_MOVE:
        letters.append(DIRECTION_LETTERS[e.move ^ 1])
        board = slide(board, e.blank, geo.neighbour[e.blank][e.move ^ 1])
        e = table_find(t, board)
    return "".join(letters)


cdef tuple result(Run* r, str moves):
    note_memory(&r.cnt, r.budget.peak)
    if r.status == STATUS_SOLVED:
        r.cnt.depth = len(moves)
    return (
        r.status, moves if r.status == STATUS_SOLVED else "", r.cnt.expanded, r.cnt.generated,
        r.cnt.max_frontier, r.cnt.peak_memory_bytes, elapsed(&r.ctl), r.cnt.depth,
        r.cnt.iterations,
    )


# ---------------------------------------------------------------------------------------------
# Breadth-first search: FIFO + table, layer by layer, goal test when a child is generated.

cdef int run_bfs(Run* r, Table* t, Fifo* q) except -1 nogil:
    cdef const Puzzle* p = &r.p
    cdef Entry* e
    cdef Item item
    cdef uint64_t child, layer_left = 1
    cdef uint64_t children[4]
    cdef uint64_t hashes[4]
    cdef int targets[4]
    cdef int dirs[4]
    cdef int depth = 0, d, target, rc, n, k
    if p.start == p.goal:
        r.status = STATUS_SOLVED
        r.end = p.start
        return 0
    rc = table_insert(t, &r.budget, p.start, &e)
    if rc < 0:
        return memory_status(r, -rc)
    e.blank = p.start_blank
    rc = fifo_push(q, &r.budget, p.start, p.start_blank, NO_MOVE)
    if rc != MEM_OK:
        return memory_status(r, rc)
    r.cnt.depth = 0
    while True:
        if layer_left == 0:
            layer_left = fifo_size(q)
            if layer_left == 0:
                r.status = STATUS_EXHAUSTED
                return 0
            depth += 1
            r.cnt.depth = depth
        if p.max_depth >= 0 and depth >= p.max_depth:
            # Every board within max_depth has been generated, and none is the goal.
            r.status = STATUS_DEPTH_LIMIT
            return 0
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            return 0
        item = fifo_pop(q)
        layer_left -= 1
        r.cnt.expanded += 1
        # All children first, their slots prefetched, so that their cache misses overlap.
        n = 0
        for d in range(4):
            target = p.geo.neighbour[item.blank][d]
            if target == NO_CELL or d == (item.move ^ 1):
                continue
            children[n] = slide(item.board, item.blank, target)
            hashes[n] = hash_board(children[n])
            table_prefetch(t, hashes[n])
            targets[n] = target
            dirs[n] = d
            n += 1
        r.cnt.generated += n
        for k in range(n):
            child = children[k]
            rc = table_insert_hashed(t, &r.budget, child, hashes[k], &e)
            if rc < 0:
                return memory_status(r, -rc)
            if rc != TABLE_ADDED:
                continue
            e.g = depth + 1
            e.move = dirs[k]
            e.blank = targets[k]
            if child == p.goal:
                r.status = STATUS_SOLVED
                r.end = child
                return 0
            rc = fifo_push(q, &r.budget, child, targets[k], dirs[k])
            if rc != MEM_OK:
                return memory_status(r, rc)
        if fifo_size(q) > r.cnt.max_frontier:
            r.cnt.max_frontier = fifo_size(q)


def bfs(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0, int max_depth=-1,
    object progress=None,
):
    """Breadth-first search with a FIFO and a table of seen boards (optimal)."""
    cdef Run r
    cdef Table t
    cdef Fifo q
    t.slots = NULL
    fifo_init(&q)
    init_run(&r, start, blank, rows, cols, goal_blank, H_NONE, node_limit, time_limit,
             memory_limit, max_depth, progress)
    try:
        rc = table_init(&t, &r.budget, 0)
        if rc != MEM_OK:
            memory_status(&r, rc)
        else:
            with nogil:
                run_bfs(&r, &t, &q)
        return result(&r, path_to(&t, &r.p.geo, r.end) if r.status == STATUS_SOLVED else "")
    finally:
        fifo_free(&q, &r.budget)
        table_free(&t, &r.budget)


# ---------------------------------------------------------------------------------------------
# Best-first search on priority = g_scale * g + h_scale * score, with a closed set:
#   A*         g_scale = h_scale = 1, score = h
#   weighted   g_scale = den, h_scale = num (weight = num / den), score = h
#   greedy     g_scale = 0, score = h
#   lookahead  g_scale = 0, score = the smallest h among the node's own children
# With g_scale > 0 an open node reached by a shorter path is updated and pushed again (the old
# queue entry goes stale); closed nodes are never reopened, which keeps A* optimal with a
# consistent heuristic and weighted A* within its weight of optimal. Goal test on expansion.

cdef inline int lookahead_score(
    const Puzzle* p, uint64_t board, int blank, int h, int back
) noexcept nogil:
    cdef int d, target, tile, best = 1 << 30, hh
    if board == p.goal:
        return 0
    for d in range(4):
        target = p.geo.neighbour[blank][d]
        if target == NO_CELL or d == back:
            continue
        tile = get_tile(board, target)
        hh = h_step(p, h, slide(board, blank, target), tile, blank, target)
        if hh < best:
            best = hh
    return best


cdef int run_best_first(
    Run* r, Table* t, BucketQueue* q, uint32_t g_scale, uint32_t h_scale, bint lookahead
) except -1 nogil:
    cdef const Puzzle* p = &r.p
    cdef Entry* e
    cdef uint64_t board, child
    cdef uint32_t priority, tie, g
    cdef uint64_t children[4]
    cdef uint64_t hashes[4]
    cdef int targets[4]
    cdef int dirs[4]
    cdef int h, ch, score, blank, back, d, target, tile, rc, n, k
    cdef bint by_g = g_scale > 0
    rc = table_insert(t, &r.budget, p.start, &e)
    if rc < 0:
        return memory_status(r, -rc)
    h = h_full(p, p.start)
    e.h = h
    e.blank = p.start_blank
    score = lookahead_score(p, p.start, p.start_blank, h, -1) if lookahead else h
    rc = bq_push(q, &r.budget, h_scale * score, 0, p.start)
    if rc != MEM_OK:
        return memory_status(r, rc)
    r.cnt.depth = 0
    while True:
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            return 0
        if not bq_pop(q, &priority, &tie, &board):
            r.status = STATUS_DEPTH_LIMIT if r.pruned else STATUS_EXHAUSTED
            return 0
        e = table_find(t, board)
        if e.closed or (by_g and e.g != tie):
            continue                        # a stale copy: reached again by a shorter path
        e.closed = 1
        g = e.g
        if <int>g > r.cnt.depth:
            r.cnt.depth = g
        if board == p.goal:
            r.status = STATUS_SOLVED
            r.end = board
            return 0
        r.cnt.expanded += 1
        h = e.h
        blank = e.blank
        back = -1 if e.move == NO_MOVE else e.move ^ 1
        if p.max_depth >= 0 and <int>g >= p.max_depth:
            r.pruned = True
            continue
        # All children first, their slots prefetched, so that their cache misses overlap.
        n = 0
        for d in range(4):
            target = p.geo.neighbour[blank][d]
            if target == NO_CELL or d == back:
                continue
            children[n] = slide(board, blank, target)
            hashes[n] = hash_board(children[n])
            table_prefetch(t, hashes[n])
            targets[n] = target
            dirs[n] = d
            n += 1
        r.cnt.generated += n
        for k in range(n):
            child = children[k]
            target = targets[k]
            d = dirs[k]
            tile = get_tile(board, target)
            rc = table_insert_hashed(t, &r.budget, child, hashes[k], &e)
            if rc < 0:
                return memory_status(r, -rc)
            if rc == TABLE_ADDED:
                ch = h_step(p, h, child, tile, blank, target)
                e.h = ch
                e.blank = target
            elif e.closed or not by_g or e.g <= g + 1:
                continue
            else:
                ch = e.h
            e.g = g + 1
            e.move = d
            score = lookahead_score(p, child, target, ch, d ^ 1) if lookahead else ch
            rc = bq_push(q, &r.budget, g_scale * (g + 1) + h_scale * score,
                         g + 1 if by_g else 0, child)
            if rc != MEM_OK:
                return memory_status(r, rc)
        if q.count > r.cnt.max_frontier:
            r.cnt.max_frontier = q.count


def best_first(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, int heuristic,
    uint32_t g_scale=1, uint32_t h_scale=1, bint lookahead=False,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0, int max_depth=-1,
    object progress=None,
):
    """Best-first search on ``g_scale * g + h_scale * h`` with a closed set.

    ``g_scale = h_scale = 1`` is A* (optimal with the consistent heuristics here); ``g_scale=0``
    is greedy best-first; ``lookahead=True`` scores each node by its best child's heuristic.
    """
    cdef Run r
    cdef Table t
    cdef BucketQueue q
    t.slots = NULL
    bq_init(&q)
    init_run(&r, start, blank, rows, cols, goal_blank, heuristic, node_limit, time_limit,
             memory_limit, max_depth, progress)
    try:
        rc = table_init(&t, &r.budget, 0)
        if rc != MEM_OK:
            memory_status(&r, rc)
        else:
            with nogil:
                run_best_first(&r, &t, &q, g_scale, h_scale, lookahead)
        return result(&r, path_to(&t, &r.p.geo, r.end) if r.status == STATUS_SOLVED else "")
    finally:
        bq_free(&q, &r.budget)
        table_free(&t, &r.budget)


# ---------------------------------------------------------------------------------------------
# Optimal bidirectional BFS. Each step expands one whole layer of the side with the smaller
# queue, checking every new child against the other side's table. While the two tables are
# disjoint with depths df and db, every path is longer than df + db; so the first child that the
# other side already holds (at depth at most db) closes a path of length df + 1 + db, which is
# then the shortest: the search stops at the first meeting.

cdef int run_bidirectional(Run* r, Table* tables, Fifo* queues) except -1 nogil:
    cdef const Puzzle* p = &r.p
    cdef Entry* e
    cdef Item item
    cdef uint64_t child, layer
    cdef int depth[2]
    cdef int side, d, target, rc
    if p.start == p.goal:
        r.status = STATUS_SOLVED
        r.end = p.start
        return 0
    for side in range(2):
        child = p.start if side == 0 else p.goal
        target = p.start_blank if side == 0 else p.goal_blank
        rc = table_insert(&tables[side], &r.budget, child, &e)
        if rc < 0:
            return memory_status(r, -rc)
        e.blank = target
        rc = fifo_push(&queues[side], &r.budget, child, target, NO_MOVE)
        if rc != MEM_OK:
            return memory_status(r, rc)
        depth[side] = 0
    r.cnt.depth = 0
    while True:
        if p.max_depth >= 0 and depth[0] + depth[1] >= p.max_depth:
            r.status = STATUS_DEPTH_LIMIT
            return 0
        side = 0 if fifo_size(&queues[0]) <= fifo_size(&queues[1]) else 1
        layer = fifo_size(&queues[side])
        if layer == 0:
            r.status = STATUS_EXHAUSTED
            return 0
        while layer:
            if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
                return 0
            item = fifo_pop(&queues[side])
            layer -= 1
            r.cnt.expanded += 1
            for d in range(4):
                target = p.geo.neighbour[item.blank][d]
                if target == NO_CELL or d == (item.move ^ 1):
                    continue
                child = slide(item.board, item.blank, target)
                r.cnt.generated += 1
                rc = table_insert(&tables[side], &r.budget, child, &e)
                if rc < 0:
                    return memory_status(r, -rc)
                if rc != TABLE_ADDED:
                    continue
                e.g = depth[side] + 1
                e.move = d
                e.blank = target
                if table_find(&tables[1 - side], child) != NULL:
                    r.status = STATUS_SOLVED
                    r.end = child
                    return 0
                rc = fifo_push(&queues[side], &r.budget, child, target, d)
                if rc != MEM_OK:
                    return memory_status(r, rc)
            if fifo_size(&queues[0]) + fifo_size(&queues[1]) > r.cnt.max_frontier:
                r.cnt.max_frontier = fifo_size(&queues[0]) + fifo_size(&queues[1])
        depth[side] += 1
        r.cnt.depth = depth[0] + depth[1]


def bidirectional(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0, int max_depth=-1,
    object progress=None,
):
    """Bidirectional breadth-first search meeting in the middle (optimal)."""
    cdef Run r
    cdef Table tables[2]
    cdef Fifo queues[2]
    cdef int side
    cdef str moves = ""
    for side in range(2):
        tables[side].slots = NULL
        fifo_init(&queues[side])
    init_run(&r, start, blank, rows, cols, goal_blank, H_NONE, node_limit, time_limit,
             memory_limit, max_depth, progress)
    try:
        rc = table_init(&tables[0], &r.budget, 0)
        if rc == MEM_OK:
            rc = table_init(&tables[1], &r.budget, 0)
        if rc != MEM_OK:
            memory_status(&r, rc)
        else:
            with nogil:
                run_bidirectional(&r, tables, queues)
        if r.status == STATUS_SOLVED:
            moves = (path_to(&tables[0], &r.p.geo, r.end)
                     + path_from(&tables[1], &r.p.geo, r.end))
        return result(&r, moves)
    finally:
        for side in range(2):
            fifo_free(&queues[side], &r.budget)
            table_free(&tables[side], &r.budget)


# ---------------------------------------------------------------------------------------------
# Depth-first searches on an explicit stack of frames (no recursion). IDDFS runs depth-limited
# passes with bounds 1, 2, 3, ... and no table (memory: the path). DFS runs one pass with the
# given bound and a table holding the smallest depth each board was reached at; a board is
# searched again only when reached by a shorter path, so every board within the bound is tried.
# Both test for the goal when a child is generated.

cdef struct Frame:
    uint64_t board
    uint8_t blank
    uint8_t move        # direction the blank moved to get here; NO_MOVE at the root
    uint8_t next_dir


cdef int depth_first_pass(
    Run* r, Frame* frames, int bound, Table* t, char* path
) except -1 nogil:
    # One pass bounded by `bound`; fills `path` (bound bytes) and sets SOLVED, or leaves
    # r.status RUNNING when the pass ends without the goal.
    cdef const Puzzle* p = &r.p
    cdef Entry* e
    cdef Frame* f
    cdef uint64_t child
    cdef int sp = 0, d, target, rc, i
    if bound < 1:
        r.pruned = True
        return 0
    if t != NULL:
        rc = table_insert(t, &r.budget, p.start, &e)
        if rc < 0:
            return memory_status(r, -rc)
        e.g = 0
    if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
        return 0
    frames[0].board = p.start
    frames[0].blank = p.start_blank
    frames[0].move = NO_MOVE
    frames[0].next_dir = 0
    r.cnt.expanded += 1
    while sp >= 0:
        f = &frames[sp]
        if f.next_dir >= 4:
            sp -= 1
            continue
        d = f.next_dir
        f.next_dir += 1
        target = p.geo.neighbour[f.blank][d]
        if target == NO_CELL or d == (f.move ^ 1):
            continue
        child = slide(f.board, f.blank, target)
        r.cnt.generated += 1
        if t != NULL:
            rc = table_insert(t, &r.budget, child, &e)
            if rc < 0:
                return memory_status(r, -rc)
            if rc != TABLE_ADDED and <int>e.g <= sp + 1:
                continue
            e.g = sp + 1
        if child == p.goal:
            for i in range(1, sp + 1):
                path[i - 1] = DIRECTION_CHARS[frames[i].move]
            path[sp] = DIRECTION_CHARS[d]
            r.cnt.depth = sp + 1
            r.status = STATUS_SOLVED
            return 0
        if sp + 1 >= bound:
            r.pruned = True
            continue
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            return 0
        r.cnt.expanded += 1
        sp += 1
        frames[sp].board = child
        frames[sp].blank = target
        frames[sp].move = d
        frames[sp].next_dir = 0
        if <uint64_t>(sp + 1) > r.cnt.max_frontier:
            r.cnt.max_frontier = sp + 1
    return 0


cdef int run_depth_first(
    Run* r, Frame** frames, uint64_t* nframes, char** path, Table* t, int first, int last
) except -1 nogil:
    # Passes with bounds first..last (last < 0: no end); frames and path grow with the bound.
    cdef int bound = first, rc
    if r.p.start == r.p.goal:
        r.status = STATUS_SOLVED
        r.cnt.depth = 0
        return 0
    r.cnt.iterations = 0
    while last < 0 or bound <= last:
        if <uint64_t>bound + 1 > nframes[0]:
            rc = budget_resize(&r.budget, <void**>frames, nframes[0] * sizeof(Frame),
                               (bound + 1) * sizeof(Frame))
            if rc == MEM_OK:
                rc = budget_resize(&r.budget, <void**>path, nframes[0], bound + 1)
            if rc != MEM_OK:
                return memory_status(r, rc)
            nframes[0] = bound + 1
        r.cnt.iterations += 1
        r.cnt.depth = bound
        r.pruned = False
        depth_first_pass(r, frames[0], bound, t, path[0])
        if r.status != STATUS_RUNNING:
            return 0
        if not r.pruned:
            r.status = STATUS_EXHAUSTED
            return 0
        bound += 1
    r.status = STATUS_DEPTH_LIMIT
    return 0


def depth_first(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, int bound,
    bint iterative=False, uint64_t node_limit=0, double time_limit=0.0,
    uint64_t memory_limit=0, object progress=None,
):
    """Depth-first search bounded by ``bound`` moves.

    ``iterative=True`` is IDDFS: bounds 1, 2, ... up to ``bound`` (``bound < 0``: no end), no
    table, optimal. Otherwise one pass with a table of the smallest depth each board was
    reached at: the first solution found, within ``bound`` moves.
    """
    cdef Run r
    cdef Table t
    cdef Frame* frames = NULL
    cdef char* path = NULL
    cdef uint64_t nframes = 0
    cdef int first = 1 if iterative else bound, last = bound
    t.slots = NULL
    init_run(&r, start, blank, rows, cols, goal_blank, H_NONE, node_limit, time_limit,
             memory_limit, -1, progress)
    try:
        rc = MEM_OK if iterative else table_init(&t, &r.budget, 0)
        if rc != MEM_OK:
            memory_status(&r, rc)
        elif not iterative and bound < 0:
            raise ValueError(f"depth-first search needs a bound, got {bound}")
        else:
            with nogil:
                run_depth_first(&r, &frames, &nframes, &path, NULL if iterative else &t,
                                first, last)
        if r.status == STATUS_SOLVED:
            moves = path[:r.cnt.depth].decode("ascii") if r.cnt.depth > 0 else ""
        else:
            moves = ""
        return result(&r, moves)
    finally:
        budget_release(&r.budget, <void**>&frames, nframes * sizeof(Frame))
        budget_release(&r.budget, <void**>&path, nframes)
        table_free(&t, &r.budget)


# ---------------------------------------------------------------------------------------------
# Random walk: a uniformly random move among those that do not undo the previous one, until
# the goal or a limit. The whole walk is the solution (it is what the walk did).

cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    # splitmix64: a good 64-bit generator from a single word of state.
    cdef uint64_t z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef int run_random_walk(Run* r, uint64_t seed) except -1 nogil:
    cdef const Puzzle* p = &r.p
    cdef uint64_t board = p.start, state = seed, capacity
    cdef int blank = p.start_blank, back = -1, n, d, rc, target
    cdef int choices[4]
    r.cnt.depth = 0
    while board != p.goal:
        if p.max_depth >= 0 and r.cnt.expanded >= <uint64_t>p.max_depth:
            r.status = STATUS_DEPTH_LIMIT
            return 0
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            return 0
        if r.cnt.expanded == r.walk_capacity:
            capacity = r.walk_capacity * 2 if r.walk_capacity else 4096
            rc = budget_resize(&r.budget, <void**>&r.walk, r.walk_capacity, capacity)
            if rc != MEM_OK:
                return memory_status(r, rc)
            r.walk_capacity = capacity
        n = 0
        for d in range(4):
            if p.geo.neighbour[blank][d] != NO_CELL and d != back:
                choices[n] = d
                n += 1
        d = choices[next_random(&state) % n]
        r.walk[r.cnt.expanded] = d
        r.cnt.expanded += 1
        r.cnt.generated += 1
        target = p.geo.neighbour[blank][d]
        board = slide(board, blank, target)
        blank = target
        back = d ^ 1
        r.cnt.depth = <int>r.cnt.expanded
    r.status = STATUS_SOLVED
    return 0


def random_walk(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, uint64_t seed,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0, int max_depth=-1,
    object progress=None,
):
    """Random walk from ``start`` until the goal (seeded; the walk is the solution)."""
    cdef Run r
    init_run(&r, start, blank, rows, cols, goal_blank, H_NONE, node_limit, time_limit,
             memory_limit, max_depth, progress)
    try:
        with nogil:
            run_random_walk(&r, seed)
        moves = ""
        if r.status == STATUS_SOLVED and r.cnt.expanded:
            moves = (<char*>r.walk)[:r.cnt.expanded].translate(_CODE_TO_LETTER).decode("ascii")
        return result(&r, moves)
    finally:
        budget_release(&r.budget, <void**>&r.walk, r.walk_capacity)
