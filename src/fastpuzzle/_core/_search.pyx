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
progress) run every 2**16 expansions and exactly at the node limit. ``max_depth_reached`` is the
deepest g of a node generated (from the end it was generated from, for bidirectional search);
``reexpanded`` counts expansions of a board already expanded: 0 in the searches with a closed
set (which never reopen a board), counted by the visited-table DFS, -1 (cannot know) in the
searches that keep no record of the boards expanded (tree DFS, IDDFS, the random walk).

Memory, two figures: ``allocated_bytes`` is what the search's structures hold at their capacity
(hash-table slots, whole perfect-index arrays, queue arrays), the count the memory limit is
checked against; ``peak_memory_bytes`` is the most bytes of nodes stored at once, entries held
times the bytes of one entry (``note_stored``): a table's boards at ``sizeof(Entry)``, a FIFO's
items at ``sizeof(Item)``, a bucket queue's at 8 bytes, a perfect-index record at 1 byte (plus
its g), a depth-first frame at ``sizeof(Frame)``, a random walk's move at 1 byte. A search holds
at least its start board: 8 bytes.
"""

from cpython.mem cimport PyMem_RawMalloc
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t

from fastpuzzle._core._control cimport (
    Control,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
    note_memory,
)
from fastpuzzle._core._result cimport (
    STATUS_DEPTH_LIMIT,
    STATUS_EXHAUSTED,
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    STATUS_TIME_LIMIT,
    core_result,
    CoreResult,
)
from fastpuzzle._core._frontier cimport (
    Budget,
    BucketQueue,
    Entry,
    Fifo,
    Item,
    MEM_FAILED,
    MEM_INTERRUPTED,
    MEM_OK,
    MEM_TIME_UP,
    NO_MOVE,
    STATE_CLOSED,
    STATE_MOVE,
    STATE_ROOT,
    STATE_SEEN,
    TABLE_ADDED,
    Table,
    bq_free,
    bq_init,
    bq_pop,
    bq_push,
    bq_stored,
    budget_calloc,
    budget_init,
    budget_release,
    budget_resize,
    fifo_free,
    fifo_init,
    fifo_pop,
    fifo_push,
    fifo_reserve,
    fifo_size,
    fifo_stored,
    prefetch,
    table_find,
    table_free,
    table_init,
    table_insert,
    table_insert_hashed,
    table_prefetch,
    table_stored,
)
from fastpuzzle._core._heuristics cimport (
    H_NONE,
    GoalTables,
    board_heuristic,
    init_goal_tables,
    is_board_heuristic,
    is_consistent,
    step_heuristic,
)
from fastpuzzle._core._packed cimport (
    DIR_D,
    DIR_L,
    DIR_R,
    DIR_U,
    Geometry,
    MAX_CELLS,
    NO_CELL,
    get_tile,
    goal_cell_of,
    hash_board,
    init_geometry,
    move_letters,
    slide,
)
from fastpuzzle._core._permrank cimport (
    PERM_MAX_CELLS,
    PERM_TABLE_SIZE,
    PERM_TABLE_TILES,
    PermIndex,
    SequenceMoves,
    board_rank,
    fill_perm_tables,
    init_perm_index,
    init_sequence_moves,
    perm_index,
    sequence_down,
    sequence_rank,
    sequence_up,
    tile_sequence,
)

DIRECTION_LETTERS = move_letters()[:4].decode("ascii")
cdef const char* DIRECTION_CHARS = move_letters()
# Random-walk moves are stored as codes 0..3; this turns them into letters in one call.
_CODE_TO_LETTER = bytes.maketrans(bytes(range(4)), move_letters()[:4])


cdef struct MoveList:
    # The moves a blank may make from one cell after one last move, in direction order.
    int count
    int dirs[4]
    int targets[4]


cdef void init_move_lists(MoveList lists[][5], const Geometry* geo) noexcept nogil:
    # lists[blank][last]: last is the move that reached the board (4: none, at the root). A
    # fixed list per case replaces the four-way test of each direction, whose outcome depends
    # on the board and so is hard to predict.
    cdef int blank, last, d, target
    cdef MoveList* ml
    for blank in range(MAX_CELLS):
        for last in range(5):
            ml = &lists[blank][last]
            ml.count = 0
            for d in range(4):
                target = geo.neighbour[blank][d] if blank < geo.cells else NO_CELL
                if target == NO_CELL or (last < 4 and d == (last ^ 1)):
                    continue
                ml.dirs[ml.count] = d
                ml.targets[ml.count] = target
                ml.count += 1


cdef struct Puzzle:
    Geometry geo
    GoalTables tables
    uint64_t start
    int start_blank
    uint64_t goal
    int goal_blank
    int heuristic
    int max_depth               # -1: none
    bint prune_f                # best-first: cut children whose g + h exceeds max_depth
    MoveList moves[MAX_CELLS][5]    # see init_move_lists


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
    uint64_t stored_peak        # the most bytes of nodes stored at once (note_stored)
    uint64_t seen               # perfect-index best-first: boards given a record so far
    int deepest                 # the deepest g of a node generated (the start's 0 to begin)
    long long reexpanded        # expansions of a board already expanded; -1: cannot know


cdef void init_run(
    Run* r, uint64_t start, int blank, int rows, int cols, int goal_blank, int heuristic,
    uint64_t node_limit, double time_limit, uint64_t memory_limit, int max_depth, object progress,
):
    cdef int tile
    init_geometry(&r.p.geo, rows, cols)
    init_goal_tables(&r.p.tables, &r.p.geo, goal_blank)
    init_move_lists(r.p.moves, &r.p.geo)
    r.p.start = start
    r.p.start_blank = blank
    r.p.goal = 0
    for tile in range(1, rows * cols):
        r.p.goal |= (<uint64_t>tile) << (4 * goal_cell_of(tile, goal_blank))
    r.p.goal_blank = goal_blank
    r.p.heuristic = heuristic
    r.p.max_depth = max_depth
    r.p.prune_f = False
    init_control(&r.ctl, node_limit, time_limit, memory_limit, progress)
    init_counters(&r.cnt)
    r.cnt.iterations = 1
    budget_init(&r.budget, memory_limit)
    if time_limit > 0:
        r.budget.deadline = r.ctl.started + time_limit
    r.status = STATUS_RUNNING
    r.pruned = False
    r.end = 0
    r.walk = NULL
    r.walk_capacity = 0
    r.stored_peak = 0
    r.seen = 0
    r.deepest = 0
    # Searches with a closed set expand a board once (they never reopen one); the others say
    # so (-1), and dfs_visited counts its own.
    r.reexpanded = 0


cdef inline int h_full(const Puzzle* p, uint64_t board) noexcept nogil:
    return board_heuristic(p.heuristic, board, &p.geo, &p.tables)


cdef inline int h_step(
    const Puzzle* p, int h, uint64_t child, int tile, int blank, int target
) noexcept nogil:
    # `tile` slid from `target` into the old blank cell `blank`.
    return step_heuristic(p.heuristic, h, child, tile, blank, target, &p.geo, &p.tables)


cdef inline void note_stored(Run* r, uint64_t stored_bytes) noexcept nogil:
    # Bytes of the nodes the search holds now (entries times the bytes of one; see the module's
    # docstring). Drivers call it where the count can peak: after each expansion, and once more
    # in their def entry when they stop.
    if stored_bytes > r.stored_peak:
        r.stored_peak = stored_bytes


cdef inline int memory_status(Run* r, int rc) except -1 nogil:
    # MEM_OVER_LIMIT stops the search with MEMORY_LIMIT and MEM_TIME_UP (a table growth past the
    # time limit) with TIME_LIMIT; an allocator failure raises, and so does a table growth that a
    # signal interrupted (its handler's exception is already set).
    if rc == MEM_FAILED:
        with gil:
            raise MemoryError("fastpuzzle search: out of memory")
    if rc == MEM_INTERRUPTED:
        return -1
    r.status = STATUS_TIME_LIMIT if rc == MEM_TIME_UP else STATUS_MEMORY_LIMIT
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


cdef CoreResult result(Run* r, str moves):
    note_memory(&r.cnt, r.budget.peak)
    # Every search holds its start board, even one that is the goal and stores nothing else.
    note_stored(r, sizeof(uint64_t))
    if r.status == STATUS_SOLVED:
        r.cnt.depth = len(moves)
    return core_result(
        r.status, moves if r.status == STATUS_SOLVED else "", r.cnt.expanded, r.cnt.generated,
        r.cnt.max_frontier, r.stored_peak, elapsed(&r.ctl), r.cnt.depth, r.cnt.iterations,
        r.cnt.peak_memory_bytes, r.deepest, r.reexpanded,
    )


# ---------------------------------------------------------------------------------------------
# Perfect-index stores. A board of up to PERM_MAX_CELLS cells has a dense index (_permrank.pxd),
# so BFS and the best-first searches can keep a byte per board (and a g for best-first) in flat
# arrays instead of the hash table: no hashing, no probing, no rehash. The drivers below expand
# exactly the nodes the table-based ones do, in the same order, and count the same way; only the
# memory differs (the arrays are allocated whole, and counted whole, from the start).

cdef enum:
    # A best-first queue entry holds the board (48 bits: 12 cells), its blank and its h.
    ITEM_BLANK_SHIFT = 48
    ITEM_H_SHIFT = 52
    # Best-first searches on bigger boards touch a small part of their space: the table wins.
    PERFECT_BEST_FIRST_CELLS = 10

cdef uint64_t ITEM_BOARD_MASK = ((<uint64_t>1) << ITEM_BLANK_SHIFT) - 1


# The lookup tables of _permrank.pxd, a pair per tile count, made on first use (under the GIL,
# before any search runs) and kept for the life of the process (256 KiB a pair).
cdef uint16_t* PERM_TABLES[PERM_TABLE_TILES + 1]


cdef bint perfect_fits(PermIndex* px, int cells, uint64_t bytes_per_board, uint64_t memory_limit):
    # Whether a perfect index is worth its arrays (and if so, px is ready to use): they must take
    # at most half the memory limit, so that the frontier keeps as much room as the table-based
    # search would have had.
    cdef int tiles = cells - 1
    cdef uint16_t* tables
    if not init_perm_index(px, cells):
        return False
    if memory_limit and px.size * bytes_per_board > memory_limit // 2:
        return False
    if tiles <= PERM_TABLE_TILES:
        if PERM_TABLES[tiles] == NULL:
            tables = <uint16_t*>PyMem_RawMalloc(2 * PERM_TABLE_SIZE * sizeof(uint16_t))
            if tables == NULL:
                return True                 # the digit loop ranks just as well, more slowly
            fill_perm_tables(px, tables, tables + PERM_TABLE_SIZE)
            PERM_TABLES[tiles] = tables
        px.first = PERM_TABLES[tiles]
        px.second = PERM_TABLES[tiles] + PERM_TABLE_SIZE
    return True


def perfect_index(uint64_t board, int blank, int cells, *, bint tables=True):
    """The perfect index of a packed board and the size of its index space (a test hook).

    Returns ``(index, size)``, or ``None`` past 12 cells. ``tables=False`` ranks with the digit
    loop instead of the lookup tables (boards of up to 9 cells), to check one against the other.
    """
    cdef PermIndex px
    if not perfect_fits(&px, cells, 1, 0):
        return None
    if not tables:
        px.first = NULL
        px.second = NULL
    return perm_index(&px, board_rank(&px, board, blank), blank), px.size


cdef inline int perfect_children(
    const Puzzle* p, const PermIndex* px, uint64_t board, int blank, uint64_t rank, int back,
    uint64_t* children, uint64_t* ranks, int* targets, int* dirs
) noexcept nogil:
    # The children of `board` in direction order, never undoing `back`, with their sequence
    # ranks: a horizontal move keeps the parent's rank, only a vertical one ranks again. (The
    # four directions in turn, not the move lists: unrolled, each knows whether it ranks.)
    cdef int d, target, n = 0
    for d in range(4):
        target = p.geo.neighbour[blank][d]
        if target == NO_CELL or d == back:
            continue
        children[n] = slide(board, blank, target)
        ranks[n] = rank if d >= DIR_L else board_rank(px, children[n], target)
        targets[n] = target
        dirs[n] = d
        n += 1
    return n


cdef str perfect_path_to(
    const PermIndex* px, const uint8_t* state, const Geometry* geo, uint64_t board, int blank
):
    # Moves from the root to `board`: each board's byte names the move that reached it, and
    # sliding the blank back gives the parent (ranked again to find its byte).
    cdef list letters = []
    cdef uint8_t code = state[perm_index(px, board_rank(px, board, blank), blank)]
    cdef int d, back
    while code & STATE_SEEN and (code & STATE_MOVE) != STATE_ROOT:
        d = code & STATE_MOVE
        letters.append(DIRECTION_LETTERS[d])
        back = geo.neighbour[blank][d ^ 1]
        board = slide(board, blank, back)
        blank = back
        code = state[perm_index(px, board_rank(px, board, blank), blank)]
    letters.reverse()
    return "".join(letters)


# ---------------------------------------------------------------------------------------------
# Breadth-first search: FIFO + table, layer by layer, goal test when a child is generated.

cdef int run_bfs(Run* r, Table* t, Fifo* q) except -1 nogil:
    cdef const Puzzle* p = &r.p
    cdef Entry* e
    cdef Item item
    cdef uint64_t child, layer_left = 1, layer_size = 1
    cdef uint64_t children[4]
    cdef uint64_t hashes[4]
    cdef const MoveList* ml
    cdef int depth = 0, rc, n, k
    if p.start == p.goal:
        r.status = STATUS_SOLVED
        r.end = p.start
        return 0
    rc = table_insert(t, &r.budget, p.start, &e)
    if rc < 0:
        return memory_status(r, -rc)
    e.blank = p.start_blank
    rc = fifo_push(q, &r.budget, p.start, p.start_blank, NO_MOVE, 0)
    if rc != MEM_OK:
        return memory_status(r, rc)
    r.cnt.depth = 0
    # r.deepest is counted from the layers as the search stops (see run_bfs_perfect).
    while True:
        if layer_left == 0:
            layer_left = fifo_size(q)
            if layer_left == 0:
                r.status = STATUS_EXHAUSTED
                r.deepest = depth + 1 if layer_left < layer_size else depth
                return 0
            layer_size = layer_left
            depth += 1
            r.cnt.depth = depth
        if p.max_depth >= 0 and depth >= p.max_depth:
            # Every board within max_depth has been generated, and none is the goal.
            r.status = STATUS_DEPTH_LIMIT
            r.deepest = depth + 1 if layer_left < layer_size else depth
            return 0
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            r.deepest = depth + 1 if layer_left < layer_size else depth
            return 0
        item = fifo_pop(q)
        layer_left -= 1
        r.cnt.expanded += 1
        # All children first, their slots prefetched, so that their cache misses overlap.
        ml = &p.moves[item.blank][item.move if item.move < 4 else 4]
        n = ml.count
        for k in range(n):
            children[k] = slide(item.board, item.blank, ml.targets[k])
            hashes[k] = hash_board(children[k])
            table_prefetch(t, hashes[k])
        r.cnt.generated += n
        for k in range(n):
            child = children[k]
            rc = table_insert_hashed(t, &r.budget, child, hashes[k], &e)
            if rc < 0:
                r.deepest = depth + 1 if layer_left < layer_size else depth
                return memory_status(r, -rc)
            if rc != TABLE_ADDED:
                continue
            e.g = depth + 1
            e.move = ml.dirs[k]
            e.blank = ml.targets[k]
            if child == p.goal:
                r.status = STATUS_SOLVED
                r.end = child
                r.deepest = depth + 1 if layer_left < layer_size else depth
                return 0
            rc = fifo_push(q, &r.budget, child, ml.targets[k], ml.dirs[k], 0)
            if rc != MEM_OK:
                r.deepest = depth + 1 if layer_left < layer_size else depth
                return memory_status(r, rc)
        if fifo_size(q) > r.cnt.max_frontier:
            r.cnt.max_frontier = fifo_size(q)
        note_stored(r, table_stored(t) + fifo_stored(q))


cdef inline uint64_t slot_index(
    const PermIndex* px, int target, uint32_t allowed, uint64_t rank, uint64_t sentinel
) noexcept nogil:
    # A child's index, or the sentinel for a move that leaves the board or undoes the last one.
    # Selected with a mask: the compiler would branch on a conditional expression, and which
    # moves a board has is not predictable.
    cdef uint64_t keep = <uint64_t>0 - <uint64_t>(allowed & 1)
    return (perm_index(px, rank, target) & keep) | (sentinel & ~keep)


cdef inline void init_allowed(uint8_t* allowed, const Geometry* geo) noexcept nogil:
    # allowed[8 * blank + (last move & 7)]: bit d set when the blank may move in direction d
    # (on the board, and not undoing the last move; NO_MOVE & 7 = 7 undoes nothing), and the
    # number of such moves in bits 4..7.
    cdef int blank, last, d, mask, count
    for blank in range(PERM_MAX_CELLS):
        for last in range(8):
            mask = 0
            count = 0
            for d in range(4):
                if blank < geo.cells and geo.neighbour[blank][d] != NO_CELL and d != (last ^ 1):
                    mask |= 1 << d
                    count += 1
            allowed[8 * blank + last] = <uint8_t>(mask | (count << 4))


cdef inline void visit(
    uint8_t* state, Item* items, uint64_t* tail, uint64_t index, uint64_t sequence,
    uint64_t rank, int target, int d
) noexcept nogil:
    # Marks a new board and queues it, without a branch: the item is always written at the tail,
    # which moves on only when the board is new.
    cdef uint8_t code = state[index]
    cdef uint8_t fresh = code == 0
    state[index] = code | (fresh * (STATE_SEEN | d))
    items[tail[0]].board = sequence
    items[tail[0]].rank = <uint32_t>rank
    items[tail[0]].blank = <uint8_t>target
    items[tail[0]].move = <uint8_t>d
    tail[0] += fresh


cdef int run_bfs_perfect(Run* r, const PermIndex* px, uint8_t* state, Fifo* q) except -1 nogil:
    # run_bfs on a perfect index, where a board's byte is its whole table entry, and the queue
    # holds tile sequences (with their ranks) instead of boards: a horizontal child has its
    # parent's sequence and rank, a vertical one a rotated sequence, ranked again.
    #
    # Hot values live in locals, written back before anything that reads them: stores to the
    # byte array may alias any memory, so the compiler would otherwise reload them after each
    # one. The four directions are written out, each without a data-dependent branch: a move
    # that the board does not have points at the sentinel byte past the array (always set, so
    # never new), and its rank is computed on an unchanged sequence and thrown away.
    cdef const Puzzle* p = &r.p
    cdef SequenceMoves moves
    cdef const int8_t* neighbour
    cdef Item* items
    cdef Item item
    cdef uint64_t head, tail, layer_left = 1, expanded, generated, max_frontier, stored
    cdef uint64_t rank, sentinel = px.size, goal, up, down, up_rank, down_rank
    cdef uint64_t index_u, index_d, index_l, index_r
    cdef uint8_t allowed[PERM_MAX_CELLS * 8]
    cdef uint32_t mask
    cdef bint tables = px.first != NULL
    cdef uint64_t layer_size = 1
    cdef int depth = 0, rc
    if p.start == p.goal:
        r.status = STATUS_SOLVED
        r.end = p.start
        return 0
    init_sequence_moves(&moves, p.geo.rows, p.geo.cols)
    init_allowed(allowed, &p.geo)
    goal = perm_index(px, board_rank(px, p.goal, p.goal_blank), p.goal_blank)
    state[sentinel] = STATE_SEEN | STATE_ROOT
    rank = board_rank(px, p.start, p.start_blank)
    state[perm_index(px, rank, p.start_blank)] = STATE_SEEN | STATE_ROOT
    rc = fifo_push(q, &r.budget, tile_sequence(p.start, p.start_blank), p.start_blank, NO_MOVE,
                   <uint32_t>rank)
    if rc != MEM_OK:
        return memory_status(r, rc)
    r.cnt.depth = 0
    items = q.items
    head = q.head
    tail = q.tail
    expanded = r.cnt.expanded
    generated = r.cnt.generated
    max_frontier = r.cnt.max_frontier
    stored = 0
    while True:
        if layer_left == 0:
            layer_left = tail - head
            if layer_left == 0:
                r.status = STATUS_EXHAUSTED
                break
            layer_size = layer_left
            depth += 1
            r.cnt.depth = depth
        if p.max_depth >= 0 and depth >= p.max_depth:
            r.status = STATUS_DEPTH_LIMIT
            break
        if expanded >= r.ctl.next_check or tail + 4 > q.capacity:
            q.head = head
            q.tail = tail
            r.cnt.expanded = expanded
            r.cnt.generated = generated
            r.cnt.max_frontier = max_frontier
            r.deepest = depth + 1 if layer_left < layer_size else depth
            note_stored(r, stored)
            if expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
                return 0
            rc = fifo_reserve(q, &r.budget, 4)
            if rc != MEM_OK:
                return memory_status(r, rc)
            items = q.items
            head = q.head
            tail = q.tail
        item = items[head]
        head += 1
        layer_left -= 1
        expanded += 1
        neighbour = p.geo.neighbour[item.blank]
        mask = allowed[8 * item.blank + (item.move & 7)]
        up = sequence_up(&moves, item.board, item.blank)
        down = sequence_down(&moves, item.board, item.blank)
        # The table rank is cheap enough to compute for a move the board does not have; the
        # digit loop is not (and on a two-row board one of the two never exists).
        up_rank = down_rank = 0
        if tables or mask & (1 << DIR_U):
            up_rank = sequence_rank(px, up)
        if tables or mask & (1 << DIR_D):
            down_rank = sequence_rank(px, down)
        index_u = slot_index(px, neighbour[DIR_U], mask >> DIR_U, up_rank, sentinel)
        index_d = slot_index(px, neighbour[DIR_D], mask >> DIR_D, down_rank, sentinel)
        index_l = slot_index(px, neighbour[DIR_L], mask >> DIR_L, item.rank, sentinel)
        index_r = slot_index(px, neighbour[DIR_R], mask >> DIR_R, item.rank, sentinel)
        prefetch(&state[index_u])
        prefetch(&state[index_d])
        generated += mask >> 4
        visit(state, items, &tail, index_u, up, up_rank, neighbour[DIR_U], DIR_U)
        visit(state, items, &tail, index_d, down, down_rank, neighbour[DIR_D], DIR_D)
        visit(state, items, &tail, index_l, item.board, item.rank, neighbour[DIR_L], DIR_L)
        visit(state, items, &tail, index_r, item.board, item.rank, neighbour[DIR_R], DIR_R)
        # Only a move made in this expansion can have set the goal's byte.
        if state[goal]:
            r.status = STATUS_SOLVED
            r.end = p.goal
            break
        if tail - head > max_frontier:
            max_frontier = tail - head
        # Every board seen is expanded or queued: a byte each, and a queue item for the queued.
        if expanded + (tail - head) * (1 + sizeof(Item)) > stored:
            stored = expanded + (tail - head) * (1 + sizeof(Item))
    q.head = head
    q.tail = tail
    r.cnt.expanded = expanded
    r.cnt.generated = generated
    r.cnt.max_frontier = max_frontier
    # Counted from the layers, not in the loop (a store there cost 11 % of its instructions):
    # a layer begun has generated the next one. Every board of two rows and two columns or
    # more has a move besides the one back; on one row, a layer of dead ends generates none.
    r.deepest = depth + 1 if layer_left < layer_size else depth
    note_stored(r, stored)
    return 0


def bfs(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0, int max_depth=-1,
    object progress=None, bint perfect_hash=True,
):
    """Breadth-first search with a FIFO and a record of seen boards (optimal).

    The record is a byte per board of a perfect index when the board has at most 12 cells and
    that array takes at most half of ``memory_limit`` (and ``perfect_hash`` is true), else a hash
    table. Both expand the same nodes in the same order.
    """
    cdef Run r
    cdef Table t
    cdef Fifo q
    cdef PermIndex px
    cdef uint8_t* state = NULL
    cdef bint perfect = perfect_hash and perfect_fits(&px, rows * cols, 1, memory_limit)
    cdef str moves = ""
    t.slots = NULL
    fifo_init(&q)
    init_run(&r, start, blank, rows, cols, goal_blank, H_NONE, node_limit, time_limit,
             memory_limit, max_depth, progress)
    try:
        if perfect:
            # One more byte: the sentinel that stands for the moves a board does not have.
            rc = budget_calloc(&r.budget, <void**>&state, px.size + 1)
        else:
            rc = table_init(&t, &r.budget, 0)
        if rc != MEM_OK:
            memory_status(&r, rc)
        elif perfect:
            with nogil:
                run_bfs_perfect(&r, &px, state, &q)
        else:
            with nogil:
                run_bfs(&r, &t, &q)
        if perfect:
            note_stored(&r, r.cnt.expanded + fifo_size(&q) * (1 + sizeof(Item)))
        else:
            note_stored(&r, table_stored(&t) + fifo_stored(&q))
        if r.status == STATUS_SOLVED:
            if perfect:
                moves = perfect_path_to(&px, state, &r.p.geo, r.end, r.p.goal_blank)
            else:
                moves = path_to(&t, &r.p.geo, r.end)
        return result(&r, moves)
    finally:
        fifo_free(&q, &r.budget)
        table_free(&t, &r.budget)
        if state != NULL:
            budget_release(&r.budget, <void**>&state, px.size + 1)


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
    cdef int h, ch, score, blank, d, target, tile, rc, n, k
    cdef bint by_g = g_scale > 0
    cdef const MoveList* ml
    # The deepest g of a node that generated children, written to r on the way out (as in
    # run_best_first_perfect).
    cdef int top = -1
    rc = table_insert(t, &r.budget, p.start, &e)
    if rc < 0:
        r.deepest = top + 1
        return memory_status(r, -rc)
    h = h_full(p, p.start)
    e.h = h
    e.blank = p.start_blank
    score = lookahead_score(p, p.start, p.start_blank, h, -1) if lookahead else h
    rc = bq_push(q, &r.budget, h_scale * score, 0, p.start)
    if rc != MEM_OK:
        r.deepest = top + 1
        return memory_status(r, rc)
    r.cnt.depth = 0
    while True:
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            r.deepest = top + 1
            return 0
        if not bq_pop(q, &priority, &tie, &board):
            r.status = STATUS_DEPTH_LIMIT if r.pruned else STATUS_EXHAUSTED
            r.deepest = top + 1
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
            r.deepest = top + 1
            return 0
        r.cnt.expanded += 1
        h = e.h
        blank = e.blank
        if p.max_depth >= 0 and <int>g >= p.max_depth:
            r.pruned = True
            continue
        # All children first, their slots prefetched, so that their cache misses overlap.
        ml = &p.moves[blank][e.move if e.move < 4 else 4]
        n = ml.count
        for k in range(n):
            children[k] = slide(board, blank, ml.targets[k])
            hashes[k] = hash_board(children[k])
            table_prefetch(t, hashes[k])
        r.cnt.generated += n
        if n and <int>g > top:
            top = g
        for k in range(n):
            child = children[k]
            target = ml.targets[k]
            d = ml.dirs[k]
            tile = get_tile(board, target)
            rc = table_insert_hashed(t, &r.budget, child, hashes[k], &e)
            if rc < 0:
                r.deepest = top + 1
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
            if p.prune_f and <int>g + 1 + ch > p.max_depth:
                r.pruned = True             # h is admissible: no path through it fits
                continue
            score = lookahead_score(p, child, target, ch, d ^ 1) if lookahead else ch
            rc = bq_push(q, &r.budget, g_scale * (g + 1) + h_scale * score,
                         g + 1 if by_g else 0, child)
            if rc != MEM_OK:
                r.deepest = top + 1
                return memory_status(r, rc)
        if q.count > r.cnt.max_frontier:
            r.cnt.max_frontier = q.count
        note_stored(r, table_stored(t) + bq_stored(q))


cdef inline uint64_t queue_item(uint64_t board, int blank, int h) noexcept nogil:
    return board | (<uint64_t>blank << ITEM_BLANK_SHIFT) | (<uint64_t>h << ITEM_H_SHIFT)


ctypedef fused PathLength:
    # The g array of the perfect-index best-first search: a byte for plain A*, whose g values
    # stay small (see best_first), else 32 bits.
    uint8_t
    uint32_t


cdef int run_best_first_perfect(
    Run* r, const PermIndex* px, uint8_t* state, PathLength* gs, BucketQueue* q,
    uint32_t g_scale, uint32_t h_scale, bint lookahead
) except -1 nogil:
    # run_best_first on a perfect index: a board's byte and its g are its table entry; its h and
    # blank travel in the queue entry (h is a function of the board, so a board reached again by
    # a shorter path gets the same h from its new parent).
    cdef const Puzzle* p = &r.p
    cdef uint64_t item, board, rank, index
    cdef uint32_t priority, tie, g
    cdef uint64_t children[4]
    cdef uint64_t ranks[4]
    cdef uint64_t indices[4]
    cdef int targets[4]
    cdef int dirs[4]
    cdef int h, ch, score, blank, back, d, target, rc, n, k
    # The deepest g of a node that generated children, kept here and written to r on the way
    # out: read and written through r in the loop, it cost 3 % of A*'s instructions.
    cdef int top = -1
    cdef uint8_t code
    cdef bint by_g = g_scale > 0
    h = h_full(p, p.start)
    index = perm_index(px, board_rank(px, p.start, p.start_blank), p.start_blank)
    state[index] = STATE_SEEN | STATE_ROOT
    gs[index] = 0
    r.seen = 1
    score = lookahead_score(p, p.start, p.start_blank, h, -1) if lookahead else h
    rc = bq_push(q, &r.budget, h_scale * score, 0, queue_item(p.start, p.start_blank, h))
    if rc != MEM_OK:
        r.deepest = top + 1
        return memory_status(r, rc)
    r.cnt.depth = 0
    while True:
        if r.cnt.expanded >= r.ctl.next_check and at_checkpoint(r, r.budget.bytes):
            r.deepest = top + 1
            return 0
        if not bq_pop(q, &priority, &tie, &item):
            r.status = STATUS_DEPTH_LIMIT if r.pruned else STATUS_EXHAUSTED
            r.deepest = top + 1
            return 0
        board = item & ITEM_BOARD_MASK
        blank = (item >> ITEM_BLANK_SHIFT) & 15
        h = <int>(item >> ITEM_H_SHIFT)
        rank = board_rank(px, board, blank)
        index = perm_index(px, rank, blank)
        code = state[index]
        if code & STATE_CLOSED or (by_g and gs[index] != tie):
            continue                        # a stale copy: reached again by a shorter path
        state[index] = code | STATE_CLOSED
        g = gs[index]
        if <int>g > r.cnt.depth:
            r.cnt.depth = g
        if board == p.goal:
            r.status = STATUS_SOLVED
            r.end = board
            r.deepest = top + 1
            return 0
        r.cnt.expanded += 1
        if p.max_depth >= 0 and <int>g >= p.max_depth:
            r.pruned = True
            continue
        back = -1 if (code & STATE_MOVE) == STATE_ROOT else (code & STATE_MOVE) ^ 1
        n = perfect_children(p, px, board, blank, rank, back, children, ranks, targets, dirs)
        for k in range(n):
            indices[k] = perm_index(px, ranks[k], targets[k])
            prefetch(&state[indices[k]])
            prefetch(&gs[indices[k]])
        r.cnt.generated += n
        if n and <int>g > top:
            top = g
        for k in range(n):
            index = indices[k]
            code = state[index]
            if code and (code & STATE_CLOSED or not by_g or gs[index] <= g + 1):
                continue
            r.seen += code == 0
            target = targets[k]
            d = dirs[k]
            ch = h_step(p, h, children[k], get_tile(board, target), blank, target)
            state[index] = STATE_SEEN | d
            gs[index] = g + 1
            if p.prune_f and <int>g + 1 + ch > p.max_depth:
                r.pruned = True             # h is admissible: no path through it fits
                continue
            score = lookahead_score(p, children[k], target, ch, d ^ 1) if lookahead else ch
            rc = bq_push(q, &r.budget, g_scale * (g + 1) + h_scale * score,
                         g + 1 if by_g else 0, queue_item(children[k], target, ch))
            if rc != MEM_OK:
                r.deepest = top + 1
                return memory_status(r, rc)
        if q.count > r.cnt.max_frontier:
            r.cnt.max_frontier = q.count
        note_stored(r, r.seen * (1 + sizeof(PathLength)) + bq_stored(q))

# The drivers are called through pointers so that each stays a function of its own: inlined
# together into best_first, their loops came out slower (docs/performance.rst, "Where the
# constants come from").
cdef int (*BEST_FIRST_SMALL_G)(
    Run*, const PermIndex*, uint8_t*, uint8_t*, BucketQueue*, uint32_t, uint32_t, bint
) except -1 nogil
cdef int (*BEST_FIRST_WIDE_G)(
    Run*, const PermIndex*, uint8_t*, uint32_t*, BucketQueue*, uint32_t, uint32_t, bint
) except -1 nogil
cdef int (*BEST_FIRST_TABLE)(Run*, Table*, BucketQueue*, uint32_t, uint32_t, bint) except -1 nogil
BEST_FIRST_SMALL_G = run_best_first_perfect[uint8_t]
BEST_FIRST_WIDE_G = run_best_first_perfect[uint32_t]
BEST_FIRST_TABLE = run_best_first


def best_first(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, int heuristic,
    uint32_t g_scale=1, uint32_t h_scale=1, bint lookahead=False,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0, int max_depth=-1,
    object progress=None, bint perfect_hash=True,
):
    """Best-first search on ``g_scale * g + h_scale * h`` with a closed set.

    ``g_scale = h_scale = 1`` is A* (optimal with the consistent heuristics here); ``g_scale=0``
    is greedy best-first; ``lookahead=True`` scores each node by its best child's heuristic.
    Boards of at most 10 cells keep their records in perfect-index arrays (2 bytes a board for
    A*, 5 for other weightings) when those take at most half of ``memory_limit`` and
    ``perfect_hash`` is true, else in a hash table; both expand the same nodes in the same
    order.
    """
    cdef Run r
    cdef Table t
    cdef BucketQueue q
    cdef PermIndex px
    cdef uint8_t* state = NULL
    cdef void* gs = NULL
    # Plain A* with a consistent heuristic expands each board at its shortest distance, so
    # every g it stores is at most the space's diameter plus one: 56 on the perfect-index boards
    # (2x5), and a byte holds it. Other weightings and heuristics keep 32 bits.
    cdef bint small_g = (
        g_scale == 1 and h_scale == 1 and not lookahead and is_consistent(heuristic)
    )
    cdef size_t g_bytes = sizeof(uint8_t) if small_g else sizeof(uint32_t)
    cdef bint perfect = (
        perfect_hash and rows * cols <= PERFECT_BEST_FIRST_CELLS
        and perfect_fits(&px, rows * cols, 1 + g_bytes, memory_limit)
    )
    cdef str moves = ""
    if not is_board_heuristic(heuristic):
        raise ValueError(f"heuristic code {heuristic} has no whole-board kernel")
    t.slots = NULL
    bq_init(&q)
    init_run(&r, start, blank, rows, cols, goal_blank, heuristic, node_limit, time_limit,
             memory_limit, max_depth, progress)
    # With an admissible (here: consistent) heuristic, a child whose g + h passes max_depth
    # has no solution within it: cut, it is never stored in the queue (a 46-move board with
    # max_depth=30 filled the memory limit before).
    r.p.prune_f = max_depth >= 0 and is_consistent(heuristic)
    try:
        if perfect:
            rc = budget_calloc(&r.budget, <void**>&state, px.size)
            if rc == MEM_OK:
                # Left unzeroed: a board's g is read only once its state byte is set.
                rc = budget_resize(&r.budget, &gs, 0, px.size * g_bytes)
        else:
            rc = table_init(&t, &r.budget, 0)
        if rc != MEM_OK:
            memory_status(&r, rc)
        elif perfect and small_g:
            with nogil:
                BEST_FIRST_SMALL_G(&r, &px, state, <uint8_t*>gs, &q, g_scale, h_scale, lookahead)
        elif perfect:
            with nogil:
                BEST_FIRST_WIDE_G(&r, &px, state, <uint32_t*>gs, &q, g_scale, h_scale, lookahead)
        else:
            with nogil:
                BEST_FIRST_TABLE(&r, &t, &q, g_scale, h_scale, lookahead)
        if perfect:
            note_stored(&r, r.seen * (1 + g_bytes) + bq_stored(&q))
        else:
            note_stored(&r, table_stored(&t) + bq_stored(&q))
        if r.status == STATUS_SOLVED:
            if perfect:
                moves = perfect_path_to(&px, state, &r.p.geo, r.end, r.p.goal_blank)
            else:
                moves = path_to(&t, &r.p.geo, r.end)
        return result(&r, moves)
    finally:
        bq_free(&q, &r.budget)
        table_free(&t, &r.budget)
        if state != NULL:
            budget_release(&r.budget, <void**>&state, px.size)
        if gs != NULL:
            budget_release(&r.budget, &gs, px.size * g_bytes)


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
    cdef int side, d, target, rc, k
    cdef const MoveList* ml
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
        rc = fifo_push(&queues[side], &r.budget, child, target, NO_MOVE, 0)
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
            ml = &p.moves[item.blank][item.move if item.move < 4 else 4]
            if ml.count and depth[side] + 1 > r.deepest:
                r.deepest = depth[side] + 1
            for k in range(ml.count):
                d = ml.dirs[k]
                target = ml.targets[k]
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
                rc = fifo_push(&queues[side], &r.budget, child, target, d, 0)
                if rc != MEM_OK:
                    return memory_status(r, rc)
            if fifo_size(&queues[0]) + fifo_size(&queues[1]) > r.cnt.max_frontier:
                r.cnt.max_frontier = fifo_size(&queues[0]) + fifo_size(&queues[1])
            note_stored(r, bidirectional_stored(tables, queues))
        depth[side] += 1
        r.cnt.depth = depth[0] + depth[1]


cdef inline uint64_t bidirectional_stored(const Table* tables, const Fifo* queues) noexcept nogil:
    return (table_stored(&tables[0]) + table_stored(&tables[1])
            + fifo_stored(&queues[0]) + fifo_stored(&queues[1]))


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
        note_stored(&r, bidirectional_stored(tables, queues))
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
    uint8_t next_dir    # the next entry of the frame's move list to try


#: Bytes of one level of a depth-first path (IDA* on packed boards is counted the same way).
FRAME_BYTES = sizeof(Frame)


cdef inline uint64_t dfs_stored(const Table* t, int sp) noexcept nogil:
    # DFS holds its table and its path of sp + 1 frames.
    return table_stored(t) + <uint64_t>(sp + 1) * sizeof(Frame)


cdef int depth_first_pass(
    Run* r, Frame* frames, int bound, Table* t, char* path
) except -1 nogil:
    # One pass bounded by `bound`; fills `path` (bound bytes) and sets SOLVED, or leaves
    # r.status RUNNING when the pass ends without the goal.
    cdef const Puzzle* p = &r.p
    cdef Entry* e
    cdef Frame* f
    cdef const MoveList* ml
    cdef uint64_t child
    cdef int sp = 0, d, target, rc, i, before
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
        ml = &p.moves[f.blank][f.move if f.move < 4 else 4]
        if f.next_dir >= ml.count:
            if t != NULL:
                # DFS: its table and path only grow between two frames left, so they peak as
                # one is left (or where the pass stops: see dfs_stored).
                note_stored(r, dfs_stored(t, sp))
            sp -= 1
            continue
        d = ml.dirs[f.next_dir]
        target = ml.targets[f.next_dir]
        f.next_dir += 1
        child = slide(f.board, f.blank, target)
        r.cnt.generated += 1
        if sp + 1 > r.deepest:
            r.deepest = sp + 1
        before = bound               # the depth the child was held at: none yet
        if t != NULL:
            rc = table_insert(t, &r.budget, child, &e)
            if rc < 0:
                note_stored(r, dfs_stored(t, sp))
                return memory_status(r, -rc)
            if rc != TABLE_ADDED:
                if <int>e.g <= sp + 1:
                    continue
                before = e.g
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
        if r.cnt.expanded >= r.ctl.next_check:
            if t != NULL:
                note_stored(r, dfs_stored(t, sp))
            if at_checkpoint(r, r.budget.bytes):
                return 0
        r.cnt.expanded += 1
        # Held short of the bound, it was expanded when first reached: again now.
        if before < bound:
            r.reexpanded += 1
        sp += 1
        frames[sp].board = child
        frames[sp].blank = target
        frames[sp].move = d
        frames[sp].next_dir = 0
        if <uint64_t>(sp + 1) > r.cnt.max_frontier:
            r.cnt.max_frontier = sp + 1
    return 0


cdef inline uint64_t path_stored(const Run* r, bint deepest) noexcept nogil:
    # The bytes of the path: a solution's holds the goal too (tested as it is generated), as
    # IDA*'s does; `deepest` counts the deepest path the search held (it kept no table).
    cdef uint64_t levels = r.cnt.depth + 1 if r.status == STATUS_SOLVED else 0
    if deepest and r.cnt.max_frontier > levels:
        levels = r.cnt.max_frontier
    return levels * sizeof(Frame)


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
        # In 64 bits: bound + 1 overflows an int at the largest bound Limits allows.
        if <uint64_t>bound + 1 > nframes[0]:
            rc = budget_resize(&r.budget, <void**>frames, nframes[0] * sizeof(Frame),
                               (<uint64_t>bound + 1) * sizeof(Frame))
            if rc == MEM_OK:
                rc = budget_resize(&r.budget, <void**>path, nframes[0], <uint64_t>bound + 1)
            if rc != MEM_OK:
                return memory_status(r, rc)
            nframes[0] = <uint64_t>bound + 1
        r.cnt.iterations += 1
        r.cnt.depth = bound
        r.pruned = False
        depth_first_pass(r, frames[0], bound, t, path[0])
        if r.status != STATUS_RUNNING:
            return 0
        if not r.pruned:
            r.status = STATUS_EXHAUSTED
            return 0
        if bound == last:
            break  # bound += 1 would overflow at the largest bound
        bound += 1
    r.status = STATUS_DEPTH_LIMIT
    return 0


def depth_first(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *,
    bint iterative=False, uint64_t node_limit=0, double time_limit=0.0,
    uint64_t memory_limit=0, int max_depth=-1, object progress=None,
):
    """Depth-first search bounded by ``max_depth`` moves.

    ``iterative=True`` is IDDFS: bounds 1, 2, ... up to ``max_depth`` (``max_depth < 0``: no
    end), no table, optimal. Otherwise one pass with a table of the smallest depth each board
    was reached at: the first solution found, within ``max_depth`` moves (which it needs).
    """
    cdef int bound = max_depth
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
            if iterative:
                r.reexpanded = -1   # no table: a board reached again is not known as such
            with nogil:
                run_depth_first(&r, &frames, &nframes, &path, NULL if iterative else &t,
                                first, last)
        # DFS noted its table and path as it went, IDDFS's path peaked at its deepest.
        note_stored(&r, table_stored(&t) + path_stored(&r, iterative))
        if r.status == STATUS_SOLVED:
            moves = path[:r.cnt.depth].decode("ascii") if r.cnt.depth > 0 else ""
        else:
            moves = ""
        return result(&r, moves)
    finally:
        budget_release(&r.budget, <void**>&frames, nframes * sizeof(Frame))
        budget_release(&r.budget, <void**>&path, nframes)
        table_free(&t, &r.budget)


def depth_limited(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, int max_depth,
    uint64_t node_limit=0, double time_limit=0.0, uint64_t memory_limit=0,
    object progress=None,
):
    """The source documents' brute force: one depth-first pass of at most ``max_depth`` moves
    that never undoes its last move and keeps no table of boards seen (memory: the path, which
    is what ``peak_memory_bytes`` counts). The first solution found, not the shortest."""
    cdef Run r
    cdef Frame* frames = NULL
    cdef char* path = NULL
    cdef uint64_t nframes = 0
    if max_depth < 0:
        raise ValueError(f"depth-limited search needs a bound, got {max_depth}")
    init_run(&r, start, blank, rows, cols, goal_blank, H_NONE, node_limit, time_limit,
             memory_limit, -1, progress)
    r.reexpanded = -1               # no table: a board reached again is not known as such
    try:
        with nogil:
            run_depth_first(&r, &frames, &nframes, &path, NULL, max_depth, max_depth)
        note_stored(&r, path_stored(&r, True))
        if r.status == STATUS_SOLVED and r.cnt.depth > 0:
            moves = path[:r.cnt.depth].decode("ascii")
        else:
            moves = ""
        return result(&r, moves)
    finally:
        budget_release(&r.budget, <void**>&frames, nframes * sizeof(Frame))
        budget_release(&r.budget, <void**>&path, nframes)


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
        # Each step a node one deeper; no record of the boards walked.
        r.deepest = <int>r.cnt.expanded if r.cnt.expanded < 0x7FFFFFFF else 0x7FFFFFFF
        r.reexpanded = -1
        # The walk keeps a byte a move, and the board it is on.
        note_stored(&r, r.cnt.expanded + sizeof(uint64_t))
        moves = ""
        if r.status == STATUS_SOLVED and r.cnt.expanded:
            moves = (<char*>r.walk)[:r.cnt.expanded].translate(_CODE_TO_LETTER).decode("ascii")
        return result(&r, moves)
    finally:
        budget_release(&r.budget, <void**>&r.walk, r.walk_capacity)
