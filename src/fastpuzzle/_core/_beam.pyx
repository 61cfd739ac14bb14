"""Beam search on wide boards: a path where weighted IDA* rarely finishes (6x6 and up).

Each level keeps the ``width`` boards of smallest linear conflict among the children of the
last level (all at the same depth, so ranking by h is ranking by g + h), boards seen before
left out; the first child at the goal ends the search. The answer is not bounded in length,
but with a wide beam it is far shorter than the constructive one (10x10: see
docs/near_optimal.rst). Cells hold tiles relabelled so the goal is canonical (see
``_wide.pxd``); moves are direction codes of the **blank**: U=0, D=1, L=2, R=3.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from fastpuzzle._core._control cimport (
    Control,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
)
from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_U, NO_CELL, move_letters
from fastpuzzle._core._result cimport (
    STATUS_DEPTH_LIMIT,
    STATUS_EXHAUSTED,
    STATUS_RUNNING,
    STATUS_SOLVED,
    core_result,
)
from fastpuzzle._core._wide cimport (
    WIDE_MAX_SIDE,
    wide_distance,
    wide_goal_lines,
    wide_line_extra,
)

cdef enum:
    NO_MOVE = 4
    # The seen-set holds at most this many keys (2**24 x 8 bytes = 128 MiB); it is emptied
    # when half full, which forgets only boards many levels back.
    SEEN_MAX_BITS = 24
    # The widest beam: a level of its boards fits in half the seen-set, so that emptying it
    # when half full always leaves room (and 128 * width stays an int).
    MAX_WIDTH = 1 << 20
    LEVEL_CHUNK = 256
    TIE_BITS = 3
    # Boards of up to this many cells keep each tile's Zobrist key on each cell in a table
    # (20x20: 1.25 MiB) rather than computing it twice a child.
    KEYED_CELLS = 400


cdef struct Level:
    uint16_t* cells     # [i * n + cell] -> tile
    int32_t* blank
    int32_t* h
    uint64_t* key
    uint8_t* last       # the move that made the board (NO_MOVE at the start)
    int16_t* extras     # [i * lines + line] -> linear conflict's extra on the line
    int count


cdef struct Beam:
    int rows
    int cols
    int n
    int width
    int16_t* goal_row
    int16_t* goal_col
    int16_t* row_of     # [cell] -> its row, and [n + cell] -> its column: no division a child
    uint64_t* keys      # [tile * n + cell] -> tile_key(tile, cell), or NULL past KEYED_CELLS
    int goal_blank
    int lines           # rows + cols
    Level now
    Level after
    # The children of one level: parent index, move, h and key.
    int32_t* c_parent
    uint8_t* c_move
    int32_t* c_h
    int16_t* c_after    # [2 * i] -> the two moved lines' extras after the move
    int32_t* c_rank     # (h << TIE_BITS) | a tie-break drawn from the board's key and the seed
    uint64_t seed
    uint64_t* c_key
    int32_t* histogram
    int histogram_len
    # [(level - 1) * width + i] -> (parent index << 2) | move, for the path back.
    uint32_t* trail
    int trail_levels
    uint64_t* seen
    uint64_t seen_mask
    uint64_t seen_count
    uint8_t* path
    int best_h
    int best_depth
    int best_index
    Control* control
    SearchCounters* counters


cdef inline uint64_t tile_key(int tile, int cell) noexcept nogil:
    # Zobrist key of ``tile`` on ``cell`` (splitmix64's finaliser of a unique word).
    cdef uint64_t z = ((<uint64_t>tile << 16) | <uint64_t>cell) * 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t key_of(const Beam* b, int tile, int cell) noexcept nogil:
    if b.keys != NULL:
        return b.keys[<size_t>tile * b.n + cell]
    return tile_key(tile, cell)


cdef inline int distance(const Beam* b, int tile, int cell) noexcept nogil:
    # wide_distance without its divisions: the goal's and the cell's rows and columns kept.
    return abs(b.row_of[cell] - b.goal_row[tile]) + abs(b.row_of[b.n + cell] - b.goal_col[tile])


cdef inline int neighbour(const Beam* b, int cell, int d) noexcept nogil:
    # wide_neighbour from the kept rows and columns.
    if d == DIR_U:
        return cell - b.cols if b.row_of[cell] > 0 else NO_CELL
    if d == DIR_D:
        return cell + b.cols if b.row_of[cell] < b.rows - 1 else NO_CELL
    if d == DIR_L:
        return cell - 1 if b.row_of[b.n + cell] > 0 else NO_CELL
    return cell + 1 if b.row_of[b.n + cell] < b.cols - 1 else NO_CELL


cdef inline int line_extra(Beam* b, const uint16_t* cells, int line) noexcept nogil:
    # Linear conflict's extra moves on ``line``: rows 0 .. rows - 1, then the columns.
    if line < b.rows:
        return wide_line_extra(cells + line * b.cols, 1, b.cols, b.goal_row, b.goal_col, line)
    line -= b.rows
    return wide_line_extra(cells + line, b.cols, b.rows, b.goal_col, b.goal_row, line)


cdef inline void moved_lines(Beam* b, int blank, int target, int d, int* one,
                             int* two) noexcept nogil:
    # The lines whose extra a move changes: the rows the tile leaves and enters for a vertical
    # move (its column keeps its order), else the columns.
    if d == DIR_U or d == DIR_D:
        one[0] = b.row_of[target]
        two[0] = b.row_of[blank]
    else:
        one[0] = b.rows + b.row_of[b.n + target]
        two[0] = b.rows + b.row_of[b.n + blank]


cdef inline int child_delta(Beam* b, uint16_t* cells, const int16_t* extras, int blank,
                            int target, int d, int16_t* after) noexcept nogil:
    # Change of linear conflict when the tile on ``target`` slides into ``blank``: its
    # Manhattan distance, and the two lines it leaves and enters (the parent's ``extras``
    # before, ``after`` receives theirs after). The move is made and undone on ``cells``.
    # A line's extra counts only the tiles whose goal is on it: it changes only on the one
    # line of the two that is the tile's goal line, if either is (the other keeps its
    # extra; half the kernel's instructions went to recomputing both).
    cdef int tile = cells[target], one, two, home
    moved_lines(b, blank, target, d, &one, &two)
    home = b.goal_row[tile] if d == DIR_U or d == DIR_D else b.rows + b.goal_col[tile]
    after[0] = extras[one]
    after[1] = extras[two]
    if home == one or home == two:
        cells[blank] = tile
        cells[target] = 0
        if home == one:
            after[0] = line_extra(b, cells, one)
        else:
            after[1] = line_extra(b, cells, two)
        cells[target] = tile
        cells[blank] = 0
    return (
        distance(b, tile, blank) - distance(b, tile, target)
        + after[0] + after[1] - extras[one] - extras[two]
    )


cdef inline bint seen_add(Beam* b, uint64_t key) noexcept nogil:
    # Adds ``key``; False if it was there.
    cdef uint64_t slot = key & b.seen_mask
    while b.seen[slot] != 0:
        if b.seen[slot] == key:
            return False
        slot = (slot + 1) & b.seen_mask
    b.seen[slot] = key
    b.seen_count += 1
    return True


cdef int level_alloc(Level* level, int width, int n, int lines) noexcept nogil:
    level.cells = <uint16_t*>malloc(<size_t>width * n * sizeof(uint16_t))
    level.extras = <int16_t*>malloc(<size_t>width * lines * sizeof(int16_t))
    level.blank = <int32_t*>malloc(width * sizeof(int32_t))
    level.h = <int32_t*>malloc(width * sizeof(int32_t))
    level.key = <uint64_t*>malloc(width * sizeof(uint64_t))
    level.last = <uint8_t*>malloc(width)
    level.count = 0
    if (level.cells == NULL or level.blank == NULL or level.h == NULL or level.key == NULL
            or level.last == NULL or level.extras == NULL):
        return -1
    return 0


cdef void level_free(Level* level) noexcept nogil:
    free(level.cells)
    free(level.blank)
    free(level.h)
    free(level.key)
    free(level.last)
    free(level.extras)


cdef int select(Beam* b, int count, int depth) noexcept nogil:
    # Fills ``b.after`` with the ``width`` children of smallest h not seen before (ties: the
    # first generated) and records their parents at ``depth``. Returns -1 out of memory.
    cdef int i, lowest = b.c_rank[0], highest = b.c_rank[0], threshold, below = 0, quota, taken = 0
    cdef int n = b.n, parent, tile, target, one, two
    cdef int16_t* extras
    cdef uint32_t* grown
    cdef uint16_t* cells
    for i in range(1, count):
        if b.c_rank[i] < lowest:
            lowest = b.c_rank[i]
        if b.c_rank[i] > highest:
            highest = b.c_rank[i]
    if highest - lowest + 1 > b.histogram_len:
        free(b.histogram)
        b.histogram_len = 2 * (highest - lowest + 1)
        b.histogram = <int32_t*>malloc(b.histogram_len * sizeof(int32_t))
        if b.histogram == NULL:
            return -1
    memset(b.histogram, 0, (highest - lowest + 1) * sizeof(int32_t))
    for i in range(count):
        b.histogram[b.c_rank[i] - lowest] += 1
    threshold = lowest
    while threshold < highest and below + b.histogram[threshold - lowest] < b.width:
        below += b.histogram[threshold - lowest]
        threshold += 1
    quota = b.width - below
    if depth > b.trail_levels:
        grown = <uint32_t*>realloc(
            b.trail, <size_t>(b.trail_levels + LEVEL_CHUNK) * b.width * sizeof(uint32_t)
        )
        if grown == NULL:
            return -1
        b.trail = grown
        b.trail_levels += LEVEL_CHUNK
    if b.seen_count + count > (b.seen_mask + 1) // 2:
        memset(b.seen, 0, (b.seen_mask + 1) * sizeof(uint64_t))
        b.seen_count = 0
    for i in range(count):
        if b.c_rank[i] > threshold:
            continue
        if b.c_rank[i] == threshold:
            if quota == 0:
                continue
            quota -= 1
        if not seen_add(b, b.c_key[i]):
            continue
        parent = b.c_parent[i]
        cells = b.after.cells + <size_t>taken * n
        memcpy(cells, b.now.cells + <size_t>parent * n, n * sizeof(uint16_t))
        target = neighbour(b, b.now.blank[parent], b.c_move[i])
        tile = cells[target]
        cells[b.now.blank[parent]] = tile
        cells[target] = 0
        b.after.blank[taken] = target
        extras = b.after.extras + <size_t>taken * b.lines
        memcpy(extras, b.now.extras + <size_t>parent * b.lines, b.lines * sizeof(int16_t))
        moved_lines(b, b.now.blank[parent], target, b.c_move[i], &one, &two)
        extras[one] = b.c_after[2 * i]
        extras[two] = b.c_after[2 * i + 1]
        b.after.h[taken] = b.c_h[i]
        b.after.key[taken] = b.c_key[i]
        b.after.last[taken] = b.c_move[i]
        b.trail[<size_t>(depth - 1) * b.width + taken] = (<uint32_t>parent << 2) | b.c_move[i]
        taken += 1
    b.after.count = taken
    return 0


cdef int trace(Beam* b, int depth, int index) noexcept nogil:
    # Writes the ``depth`` moves to board ``index`` of level ``depth`` into ``b.path`` (room
    # for one more). Returns -1 out of memory.
    cdef int level
    cdef uint32_t entry
    free(b.path)
    b.path = <uint8_t*>malloc(depth + 1)
    if b.path == NULL:
        return -1
    for level in range(depth, 0, -1):
        entry = b.trail[<size_t>(level - 1) * b.width + index]
        b.path[level - 1] = entry & 3
        index = entry >> 2
    return 0


cdef int run_beam(Beam* b, int max_depth, int patience) except -2 nogil:
    # Returns the status; the path (on STATUS_SOLVED) is in b.path, its length in depth.
    # Otherwise b.best_depth and b.best_index name the board of least h seen.
    cdef int depth = 0, i, d, count, target, blank, status, dh
    cdef uint16_t* cells
    cdef uint64_t key
    cdef Level swap
    cdef SearchCounters* counters = b.counters
    while True:
        if b.now.count == 0:
            return STATUS_EXHAUSTED
        for i in range(b.now.count):
            if b.now.h[i] < b.best_h:
                b.best_h, b.best_depth, b.best_index = b.now.h[i], depth, i
        if depth >= max_depth:
            return STATUS_DEPTH_LIMIT
        if patience >= 0 and depth - b.best_depth > patience:
            return STATUS_EXHAUSTED
        counters.depth = depth
        count = 0
        for i in range(b.now.count):
            if counters.expanded >= b.control.next_check:
                status = checkpoint(b.control, counters, 0)
                if status != STATUS_RUNNING:
                    return status
            counters.expanded += 1
            cells = b.now.cells + <size_t>i * b.n
            blank = b.now.blank[i]
            for d in range(4):
                if b.now.last[i] != NO_MOVE and d == (b.now.last[i] ^ 1):
                    continue
                target = neighbour(b, blank, d)
                if target == NO_CELL:
                    continue
                counters.generated += 1
                dh = child_delta(b, cells, b.now.extras + <size_t>i * b.lines, blank, target,
                                 d, b.c_after + 2 * count)
                if b.now.h[i] + dh == 0:
                    if trace(b, depth, i) < 0:
                        return -1
                    b.path[depth] = d
                    counters.depth = depth + 1
                    return STATUS_SOLVED
                key = (b.now.key[i] ^ key_of(b, cells[target], target)
                       ^ key_of(b, cells[target], blank))
                if key == 0:
                    key = 1
                b.c_parent[count] = i
                b.c_move[count] = d
                b.c_h[count] = b.now.h[i] + dh
                b.c_rank[count] = b.c_h[count] << TIE_BITS
                if b.seed:
                    b.c_rank[count] |= ((key ^ b.seed) * 0x9E3779B97F4A7C15ULL) >> (64 - TIE_BITS)
                b.c_key[count] = key
                count += 1
        if count == 0:
            return STATUS_EXHAUSTED
        depth += 1
        if select(b, count, depth) < 0:
            return -1
        swap = b.now
        b.now = b.after
        b.after = swap


def beam(
    const uint16_t[::1] cells,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    *,
    int width,
    unsigned long long node_limit=0,
    double time_limit=0.0,
    int max_depth=-1,
    int patience=-1,
    unsigned long long seed=0,
):
    """Beam search of ``width`` boards a level, ranked by linear conflict.

    ``cells`` (canonical labels) is not changed. ``node_limit`` counts expansions (0: none),
    ``time_limit`` seconds (0: none); ``max_depth`` < 0: no cap on the path's length. A board
    already at the goal returns an empty path.

    Returns a :class:`~fastpuzzle._core._result.CoreResult`: ``STATUS_SOLVED`` with the moves
    (blank directions, U/D/L/R), else the limit that stopped it, ``STATUS_DEPTH_LIMIT`` past
    ``max_depth`` or ``STATUS_EXHAUSTED`` when every child had been seen.
    """
    cdef Beam b
    cdef Control control
    cdef SearchCounters counters
    cdef int n = rows * cols, cell, status = STATUS_SOLVED, r, bits = 16, h = 0, tile
    cdef uint64_t key = 0
    cdef size_t level_bytes
    if not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"expected a beam width from 1 to {MAX_WIDTH}, got {width!r}")
    if not (2 <= rows <= WIDE_MAX_SIDE and 2 <= cols <= WIDE_MAX_SIDE):
        raise ValueError(f"expected 2 to {WIDE_MAX_SIDE} rows and columns, got {rows}x{cols}")
    if cells.shape[0] != n:
        raise ValueError(f"expected {n} cells, got {cells.shape[0]}")
    if not (0 <= blank < n and 0 <= goal_blank < n and cells[blank] == 0):
        raise ValueError(f"expected the blank's cells within {n}, got {blank} and {goal_blank}")
    for cell in range(n):
        if cells[cell] >= n:
            raise ValueError(f"expected tiles below {n}, got {cells[cell]} at cell {cell}")
    memset(&b, 0, sizeof(Beam))
    b.rows, b.cols, b.n, b.width, b.goal_blank = rows, cols, n, width, goal_blank
    b.lines = rows + cols
    b.seed = seed
    init_control(&control, node_limit, time_limit, 0, None)
    init_counters(&counters)
    b.control = &control
    b.counters = &counters
    while bits < SEEN_MAX_BITS and (1 << bits) < 128 * width:
        bits += 1
    b.seen_mask = (1 << bits) - 1
    try:
        b.goal_row = <int16_t*>malloc(2 * n * sizeof(int16_t))
        b.row_of = <int16_t*>malloc(2 * n * sizeof(int16_t))
        if n <= KEYED_CELLS:
            b.keys = <uint64_t*>malloc(<size_t>n * n * sizeof(uint64_t))
        b.seen = <uint64_t*>malloc((b.seen_mask + 1) * sizeof(uint64_t))
        b.c_parent = <int32_t*>malloc(4 * <size_t>width * sizeof(int32_t))
        b.c_move = <uint8_t*>malloc(4 * <size_t>width)
        b.c_h = <int32_t*>malloc(4 * <size_t>width * sizeof(int32_t))
        b.c_after = <int16_t*>malloc(8 * <size_t>width * sizeof(int16_t))
        b.c_rank = <int32_t*>malloc(4 * <size_t>width * sizeof(int32_t))
        b.c_key = <uint64_t*>malloc(4 * <size_t>width * sizeof(uint64_t))
        if (level_alloc(&b.now, width, n, rows + cols) < 0
                or level_alloc(&b.after, width, n, rows + cols) < 0
                or b.goal_row == NULL or b.row_of == NULL
                or (n <= KEYED_CELLS and b.keys == NULL) or b.seen == NULL or b.c_parent == NULL
                or b.c_move == NULL or b.c_h == NULL or b.c_after == NULL
                or b.c_rank == NULL or b.c_key == NULL):
            raise MemoryError()
        b.goal_col = b.goal_row + n
        memset(b.seen, 0, (b.seen_mask + 1) * sizeof(uint64_t))
        wide_goal_lines(n, cols, goal_blank, b.goal_row, b.goal_col)
        for cell in range(n):
            b.row_of[cell] = cell // cols
            b.row_of[n + cell] = cell % cols
        if b.keys != NULL:
            for tile in range(n):
                for cell in range(n):
                    b.keys[<size_t>tile * n + cell] = tile_key(tile, cell)
        for cell in range(n):
            b.now.cells[cell] = cells[cell]
            if cells[cell] != 0:
                h += wide_distance(cells[cell], cell, cols, goal_blank)
                key ^= tile_key(cells[cell], cell)
        for r in range(rows + cols):
            b.now.extras[r] = line_extra(&b, b.now.cells, r)
            h += b.now.extras[r]
        b.now.blank[0] = blank
        b.now.h[0] = h
        b.now.key[0] = key if key != 0 else 1
        b.now.last[0] = NO_MOVE
        b.now.count = 1
        seen_add(&b, b.now.key[0])
        b.best_h = h + 1
        counters.depth = 0
        if h != 0:
            with nogil:
                status = run_beam(&b, max_depth if max_depth >= 0 else 1 << 30, patience)
                if status != STATUS_SOLVED and status != -1:
                    if trace(&b, b.best_depth, b.best_index) < 0:
                        status = -1
                    counters.depth = b.best_depth
        if status == -1:
            raise MemoryError()
        moves = ""
        if counters.depth > 0:
            moves = (<bytes>(<char*>b.path)[:counters.depth]).translate(_LETTERS).decode("ascii")
        level_bytes = <size_t>width * (n * sizeof(uint16_t) + (rows + cols) * sizeof(int16_t) + 17)
        return core_result(
            status,
            moves,
            counters.expanded,
            counters.generated,
            width,
            # Two levels of boards, and a parent word a board for the path back.
            2 * level_bytes + <size_t>b.trail_levels * width * sizeof(uint32_t),
            elapsed(&control),
            counters.depth,
            1,
            2 * level_bytes + <size_t>b.trail_levels * width * sizeof(uint32_t)
            + (b.seen_mask + 1) * sizeof(uint64_t) + 4 * <size_t>width * 21
            # the Zobrist keys' table (up to KEYED_CELLS cells) and the cells' rows
            + (n <= KEYED_CELLS) * <size_t>n * n * sizeof(uint64_t) + 4 * <size_t>n,
        )
    finally:
        level_free(&b.now)
        level_free(&b.after)
        free(b.goal_row)
        free(b.row_of)
        free(b.keys)
        free(b.seen)
        free(b.c_parent)
        free(b.c_move)
        free(b.c_h)
        free(b.c_after)
        free(b.c_rank)
        free(b.c_key)
        free(b.histogram)
        free(b.trail)
        free(b.path)


_LETTERS = bytes.maketrans(bytes(range(4)), move_letters()[:4])
