"""The constructive solver: any board up to 100x100, fast and not optimal.

It solves the top row or the left column of the unsolved rectangle tile by tile (the last two
tiles of a line with the usual "park, then rotate in" manoeuvre), shrinks the rectangle, and
finishes the last 2x2, 2x3, 3x2 or 3x3 optimally with a small IDA*. The move list is then
shortened by cancelling inverse pairs.

Cells hold tiles relabelled so that the goal is canonical with the blank **last**: tile t
belongs at cell t-1 (the Python layer maps other goals onto this one). Moves are direction
codes of the **blank**: U=0, D=1, L=2, R=3.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t

from fastpuzzle._core._control cimport (
    Control,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
)
from fastpuzzle._core._result cimport STATUS_RUNNING, STATUS_SOLVED
from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_R, DIR_U, NO_CELL, move_letters
from fastpuzzle._core._wide cimport wide_neighbour

DIRECTION_LETTERS = move_letters()[:4].decode("ascii")

cdef enum:
    STUCK = -3          # no route for the blank: only for boards that cannot reach the goal
    FINISH_MAX_DEPTH = 40   # a solvable 3x3 needs at most 31 moves; beyond that it is unsolvable


cdef struct Solver:
    int rows
    int cols
    int n
    int blank
    uint16_t* cells     # [cell] -> tile
    int32_t* pos        # [tile] -> cell
    uint8_t* fixed      # cells the blank must not enter (placed tiles, a parked tile)
    uint8_t* moves      # direction codes so far
    Py_ssize_t count
    Py_ssize_t capacity
    int32_t* queue      # breadth-first scratch
    uint32_t* seen      # visit stamps, so nothing is cleared between searches
    uint8_t* via        # [cell] -> direction the blank moved to enter it
    uint32_t stamp
    Control* control
    SearchCounters* counters


cdef int push_move(Solver* s, int d) except -1 nogil:
    cdef int target = wide_neighbour(s.blank, d, s.rows, s.cols)
    cdef int tile = s.cells[target]
    cdef uint8_t* grown
    if s.count == s.capacity:
        with gil:
            grown = <uint8_t*>PyMem_Realloc(s.moves, 2 * s.capacity)
            if grown == NULL:
                raise MemoryError()
        s.moves = grown
        s.capacity *= 2
    s.cells[s.blank] = tile
    s.pos[tile] = s.blank
    s.cells[target] = 0
    s.blank = target
    s.moves[s.count] = d
    s.count += 1
    return 0


cdef int bfs(Solver* s, int goal, int avoid, int window) noexcept nogil:
    # Breadth-first search of the blank from its cell to ``goal`` over free cells other than
    # ``avoid``, inside the bounding box of both grown by ``window`` (< 0: the whole board).
    # Returns the distance (the route is left in s.via), or -1.
    cdef int start = s.blank, cols = s.cols
    cdef int r_lo = 0, r_hi = s.rows - 1, c_lo = 0, c_hi = cols - 1
    cdef int head = 0, tail = 0, cell, nxt, d, r, c, level_end, distance = 0
    if start == goal:
        return 0
    if window >= 0:
        r_lo = max(0, min(start // cols, goal // cols) - window)
        r_hi = min(s.rows - 1, max(start // cols, goal // cols) + window)
        c_lo = max(0, min(start % cols, goal % cols) - window)
        c_hi = min(cols - 1, max(start % cols, goal % cols) + window)
    s.stamp += 1
    s.seen[start] = s.stamp
    s.queue[tail] = start
    tail += 1
    while head < tail:
        level_end = tail
        distance += 1
        while head < level_end:
            cell = s.queue[head]
            head += 1
            for d in range(4):
                nxt = wide_neighbour(cell, d, s.rows, cols)
                if nxt == NO_CELL or nxt == avoid or s.fixed[nxt] or s.seen[nxt] == s.stamp:
                    continue
                r = nxt // cols
                c = nxt % cols
                if r < r_lo or r > r_hi or c < c_lo or c > c_hi:
                    continue
                s.seen[nxt] = s.stamp
                s.via[nxt] = d
                if nxt == goal:
                    return distance
                s.queue[tail] = nxt
                tail += 1
    return -1


cdef int blank_distance(Solver* s, int goal, int avoid) noexcept nogil:
    # Most routes are short detours around one tile: try a small window first.
    cdef int found = bfs(s, goal, avoid, 2)
    if found < 0:
        found = bfs(s, goal, avoid, -1)
    return found


cdef int route_blank(Solver* s, int goal, int avoid) except -2 nogil:
    # Walk the blank to ``goal`` without entering fixed cells or ``avoid``.
    cdef int length = blank_distance(s, goal, avoid)
    cdef int i, cell
    if length < 0:
        return STUCK
    # Read the route backwards from the goal into the queue (free again), then replay it.
    cell = goal
    for i in range(length - 1, -1, -1):
        s.queue[i] = s.via[cell]
        cell = wide_neighbour(cell, s.via[cell] ^ 1, s.rows, s.cols)
    for i in range(length):
        push_move(s, s.queue[i])
    return 0


cdef int move_tile(Solver* s, int tile, int target) except -2 nogil:
    # Slide ``tile`` to ``target`` one cell at a time; each step takes whichever of the (up to
    # two) directions towards the target the blank can reach first.
    cdef int here, front, d, cost, best_d, best_cost, cols = s.cols
    cdef int dirs[2]
    while s.pos[tile] != target:
        here = s.pos[tile]
        dirs[0] = -1
        dirs[1] = -1
        if here // cols > target // cols:
            dirs[0] = DIR_U
        elif here // cols < target // cols:
            dirs[0] = DIR_D
        if here % cols > target % cols:
            dirs[1] = DIR_L
        elif here % cols < target % cols:
            dirs[1] = DIR_R
        best_d = -1
        best_cost = 1 << 30
        for d in dirs:
            if d < 0:
                continue
            front = wide_neighbour(here, d, s.rows, cols)
            if s.fixed[front]:
                continue
            cost = blank_distance(s, front, here)
            if 0 <= cost < best_cost:
                best_cost = cost
                best_d = d
        if best_d < 0:
            return STUCK
        if route_blank(s, wide_neighbour(here, best_d, s.rows, cols), here) < 0:
            return STUCK
        push_move(s, best_d ^ 1)    # the blank steps back onto the tile's cell
    return 0


cdef int place_row(Solver* s, int r0, int c0) except -2 nogil:
    # Place the tiles of row r0 (columns c0..cols-1); needs at least 3 unsolved rows.
    cdef int cols = s.cols, c, cell, x, y, a, b, below, corner
    for c in range(c0, cols - 2):
        cell = r0 * cols + c
        if move_tile(s, cell + 1, cell) < 0:
            return STUCK
        s.fixed[cell] = 1
    x = r0 * cols + cols - 2        # the last two cells of the row
    y = x + 1
    a = x + 1                       # their tiles (tile t belongs at cell t-1)
    b = y + 1
    below = x + cols
    if s.pos[a] != x or s.pos[b] != y:
        if move_tile(s, b, x) < 0:
            return STUCK
        if s.pos[a] == y or (s.pos[a] == y + cols and s.blank == y):
            # a is caught in the corner behind b: park it two rows down, then place b again.
            corner = below + cols
            if move_tile(s, a, corner) < 0:
                return STUCK
            s.fixed[corner] = 1
            if move_tile(s, b, x) < 0:
                return STUCK
            s.fixed[corner] = 0
        s.fixed[x] = 1
        if move_tile(s, a, below) < 0:
            return STUCK
        s.fixed[below] = 1
        if route_blank(s, y, -1) < 0:
            return STUCK
        push_move(s, DIR_L)          # b slides right into its cell
        push_move(s, DIR_D)          # a slides up into its cell
        s.fixed[below] = 0
    s.fixed[x] = 1
    s.fixed[y] = 1
    return 0


cdef int place_column(Solver* s, int r0, int c0) except -2 nogil:
    # Place the tiles of column c0 (rows r0..rows-1); needs at least 3 unsolved columns.
    cdef int cols = s.cols, r, cell, x, y, a, b, beside, corner
    for r in range(r0, s.rows - 2):
        cell = r * cols + c0
        if move_tile(s, cell + 1, cell) < 0:
            return STUCK
        s.fixed[cell] = 1
    x = (s.rows - 2) * cols + c0    # the last two cells of the column
    y = x + cols
    a = x + 1
    b = y + 1
    beside = x + 1
    if s.pos[a] != x or s.pos[b] != y:
        if move_tile(s, b, x) < 0:
            return STUCK
        if s.pos[a] == y or (s.pos[a] == y + 1 and s.blank == y):
            corner = beside + 1
            if move_tile(s, a, corner) < 0:
                return STUCK
            s.fixed[corner] = 1
            if move_tile(s, b, x) < 0:
                return STUCK
            s.fixed[corner] = 0
        s.fixed[x] = 1
        if move_tile(s, a, beside) < 0:
            return STUCK
        s.fixed[beside] = 1
        if route_blank(s, y, -1) < 0:
            return STUCK
        push_move(s, DIR_U)          # b slides down into its cell
        push_move(s, DIR_R)          # a slides left into its cell
        s.fixed[beside] = 0
    s.fixed[x] = 1
    s.fixed[y] = 1
    return 0


cdef inline int small_distance(int tile, int cell, int w) noexcept nogil:
    return abs((tile - 1) // w - cell // w) + abs((tile - 1) % w - cell % w)


cdef int small_dfs(
    int* lc, int blank, int h, int w, int g, int bound, int hval, int prev,
    uint8_t* path, int* next_bound
) noexcept nogil:
    cdef int f = g + hval, d, t, tile, nh
    if f > bound:
        if f < next_bound[0]:
            next_bound[0] = f
        return 0
    if hval == 0:
        return 1
    for d in range(4):
        if prev >= 0 and d == (prev ^ 1):
            continue
        t = wide_neighbour(blank, d, h, w)
        if t == NO_CELL:
            continue
        tile = lc[t]
        nh = hval - small_distance(tile, t, w) + small_distance(tile, blank, w)
        lc[blank] = tile
        lc[t] = 0
        path[g] = d
        if small_dfs(lc, t, h, w, g + 1, bound, nh, d, path, next_bound):
            return 1
        lc[t] = tile
        lc[blank] = 0
    return 0


cdef int finish(Solver* s, int r0, int c0) except -2 nogil:
    # Solve the last rectangle (at most 3x3) optimally with IDA* + Manhattan, in local labels.
    cdef int h = s.rows - r0, w = s.cols - c0, cols = s.cols
    cdef int lc[9]
    cdef uint8_t path[FINISH_MAX_DEPTH + 1]
    cdef int r, c, tile, home, blank = 0, hval = 0, bound, next_bound, i
    for r in range(h):
        for c in range(w):
            tile = s.cells[(r0 + r) * cols + c0 + c]
            if tile == 0:
                lc[r * w + c] = 0
                blank = r * w + c
            else:
                home = tile - 1
                lc[r * w + c] = (home // cols - r0) * w + (home % cols - c0) + 1
                hval += small_distance(lc[r * w + c], r * w + c, w)
    bound = hval
    while bound <= FINISH_MAX_DEPTH:
        next_bound = 1 << 30
        if small_dfs(lc, blank, h, w, 0, bound, hval, -1, path, &next_bound):
            for i in range(bound):
                push_move(s, path[i])
            return 0
        bound = next_bound
    return STUCK


cdef Py_ssize_t cancel_pairs(uint8_t* moves, Py_ssize_t count) noexcept nogil:
    # Drop every move that the next one undoes, with a stack so that chains cancel too.
    cdef Py_ssize_t i, top = 0
    for i in range(count):
        if top > 0 and moves[top - 1] == (moves[i] ^ 1):
            top -= 1
        else:
            moves[top] = moves[i]
            top += 1
    return top


# -- shortening: re-solve short windows of the move list optimally -------------------------------

cdef enum:
    WINDOW_MAX_AREA = 49        # the box the blank may use while re-solving a window
    WINDOW_MAX_MOVES = 64


cdef struct WindowSearch:
    int h
    int w
    int lab[WINDOW_MAX_AREA]    # [local cell] -> 0 for the blank, else 1 + the tile's target cell
    uint8_t path[WINDOW_MAX_MOVES]
    long nodes
    long node_cap
    int next_bound


cdef inline int window_distance(const WindowSearch* q, int label, int cell) noexcept nogil:
    return abs((label - 1) // q.w - cell // q.w) + abs((label - 1) % q.w - cell % q.w)


cdef int window_dfs(
    WindowSearch* q, int blank, int g, int bound, int hval, int prev
) noexcept nogil:
    # 1: found (path in q.path[:g]); 0: not within the bound; -1: over the node cap.
    cdef int f = g + hval, d, t, label, nh, found
    if f > bound:
        if f < q.next_bound:
            q.next_bound = f
        return 0
    if hval == 0:
        return 1
    q.nodes += 1
    if q.nodes > q.node_cap:
        return -1
    for d in range(4):
        if prev >= 0 and d == (prev ^ 1):
            continue
        t = wide_neighbour(blank, d, q.h, q.w)
        if t == NO_CELL:
            continue
        label = q.lab[t]
        nh = hval - window_distance(q, label, t) + window_distance(q, label, blank)
        q.lab[blank] = label
        q.lab[t] = 0
        q.path[g] = d
        found = window_dfs(q, t, g + 1, bound, nh, d)
        q.lab[t] = label
        q.lab[blank] = 0
        if found != 0:
            return found
    return 0


cdef Py_ssize_t improve_windows(
    uint16_t* cells, int blank, int rows, int cols, const uint8_t* moves, Py_ssize_t count,
    uint8_t* out, int32_t* target_of, int window, int first, long node_cap
) noexcept nogil:
    # Walk the move list from the start board ``cells`` (left at the end board), cutting it into
    # windows whose blank stays in a small box; replace each window by an optimal path between
    # its two boards within that box when that is shorter. Returns the new length (in ``out``).
    cdef WindowSearch q
    cdef uint16_t local[WINDOW_MAX_AREA]
    cdef Py_ssize_t i = 0, j, k = 0, m
    cdef int b, nb, r_lo, r_hi, c_lo, c_hi, r, c, br0, br1, bc0, bc1, length, limit
    cdef int lblank, cell, hval, bound, found, start_blank, tile
    q.node_cap = node_cap
    while i < count:
        limit = first if i == 0 and first > 0 else window
        b = blank
        r_lo = r_hi = b // cols
        c_lo = c_hi = b % cols
        j = i
        while j < count and j - i < limit and j - i < WINDOW_MAX_MOVES:
            nb = wide_neighbour(b, moves[j], rows, cols)
            r = nb // cols
            c = nb % cols
            br0 = max(0, min(r_lo, r) - 1)
            br1 = min(rows - 1, max(r_hi, r) + 1)
            bc0 = max(0, min(c_lo, c) - 1)
            bc1 = min(cols - 1, max(c_hi, c) + 1)
            if (br1 - br0 + 1) * (bc1 - bc0 + 1) > WINDOW_MAX_AREA:
                break
            r_lo = min(r_lo, r)
            r_hi = max(r_hi, r)
            c_lo = min(c_lo, c)
            c_hi = max(c_hi, c)
            b = nb
            j += 1
        if j == i:      # one move already leaves the box: keep it as it is
            j = i + 1
        length = <int>(j - i)
        found = 0
        if length >= 6:
            br0 = max(0, r_lo - 1)
            br1 = min(rows - 1, r_hi + 1)
            bc0 = max(0, c_lo - 1)
            bc1 = min(cols - 1, c_hi + 1)
            q.h = br1 - br0 + 1
            q.w = bc1 - bc0 + 1
            for r in range(q.h):
                for c in range(q.w):
                    local[r * q.w + c] = cells[(br0 + r) * cols + bc0 + c]
            start_blank = (blank // cols - br0) * q.w + blank % cols - bc0
            # The window's end board, in the box: replay the window's moves locally.
            lblank = start_blank
            for m in range(i, j):
                nb = wide_neighbour(lblank, moves[m], q.h, q.w)
                local[lblank] = local[nb]
                local[nb] = 0
                lblank = nb
            for cell in range(q.h * q.w):
                if local[cell] != 0:
                    target_of[local[cell]] = cell
            hval = 0
            for r in range(q.h):
                for c in range(q.w):
                    tile = cells[(br0 + r) * cols + bc0 + c]
                    cell = r * q.w + c
                    q.lab[cell] = 0 if tile == 0 else target_of[tile] + 1
                    if tile != 0:
                        hval += window_distance(&q, q.lab[cell], cell)
            # Only a shorter path helps; lengths keep the parity of the window's length.
            bound = hval
            q.nodes = 0
            while bound < length:
                q.next_bound = 1 << 30
                found = window_dfs(&q, start_blank, 0, bound, hval, -1)
                if found != 0:
                    break
                bound = q.next_bound
            if found == 1 and bound < length:
                for m in range(bound):
                    out[k] = q.path[m]
                    k += 1
            else:
                found = 0
        if found != 1:
            for m in range(i, j):
                out[k] = moves[m]
                k += 1
        # Both paths end on the same board: follow the original one on the full board.
        for m in range(i, j):
            nb = wide_neighbour(blank, moves[m], rows, cols)
            cells[blank] = cells[nb]
            cells[nb] = 0
            blank = nb
        i = j
    return k


def shorten_windows(
    uint16_t[::1] cells, int blank, int rows, int cols, str moves, *,
    int window=24, int first=0, long node_cap=4000,
):
    """Re-solve windows of ``moves`` (blank directions, U/D/L/R) optimally within small boxes.

    ``cells`` is the start board (any labels; changed in place to the end board). Windows are
    at most ``window`` moves (the first one ``first`` moves, when > 0, to shift the cuts); a
    window's search stops after ``node_cap`` expansions and then keeps its moves. Returns the
    new moves, with inverse pairs cancelled; they reach the same board.
    """
    cdef bytes data = moves.encode("ascii").translate(_CODES)
    cdef const uint8_t* codes = data
    cdef Py_ssize_t count = len(data), kept
    cdef int n = rows * cols
    cdef uint8_t* out = <uint8_t*>PyMem_Malloc(count + 1)
    cdef int32_t* target_of = <int32_t*>PyMem_Malloc(n * sizeof(int32_t))
    try:
        if out == NULL or target_of == NULL:
            raise MemoryError()
        with nogil:
            kept = improve_windows(
                &cells[0], blank, rows, cols, codes, count, out, target_of, window, first,
                node_cap,
            )
            kept = cancel_pairs(out, kept)
        return (<bytes>(<char*>out)[:kept]).translate(_LETTERS).decode("ascii")
    finally:
        PyMem_Free(out)
        PyMem_Free(target_of)


cdef int run(Solver* s) except -2 nogil:
    cdef int r0 = 0, c0 = 0, status
    while s.rows - r0 > 3 or s.cols - c0 > 3:
        if s.rows - r0 >= s.cols - c0:
            status = place_row(s, r0, c0)
            r0 += 1
        else:
            status = place_column(s, r0, c0)
            c0 += 1
        if status < 0:
            return status
        s.counters.expanded = s.count
        s.counters.generated = s.count
        s.counters.depth = s.count
        if s.counters.expanded >= s.control.next_check or s.control.time_limit > 0:
            status = checkpoint(s.control, s.counters, s.capacity)
            if status != STATUS_RUNNING:
                return status
    return finish(s, r0, c0)


def solve(
    uint16_t[::1] cells,
    int blank,
    int rows,
    int cols,
    *,
    bint shorten=True,
    double time_limit=0.0,
    progress=None,
):
    """Solve a canonical wide board (tile t belongs at cell t-1, blank last) constructively.

    ``cells`` is changed in place (it ends as the goal when solved). ``progress`` is called as
    ``progress(moves, moves, seconds, moves)`` after each placed line, at most every 2**16 moves.

    Returns ``(status, moves, raw_length, seconds, stored_bytes)``: status 0 when solved, 2 at
    the time limit, 1 when the board cannot reach the goal; ``moves`` is a string of blank
    directions (U/D/L/R); ``raw_length`` is the length before shortening; ``stored_bytes`` is
    what the solver held at its peak, counted as the searches count their nodes: its board and
    per-cell records (:data:`CELL_BYTES` a cell) and a byte a move made.
    """
    cdef Solver s
    cdef Control control
    cdef SearchCounters counters
    cdef int status, tile, cell
    cdef int n = rows * cols
    cdef Py_ssize_t raw = 0, kept
    init_control(&control, 0, time_limit, 0, progress)
    init_counters(&counters)
    s.rows = rows
    s.cols = cols
    s.n = n
    s.blank = blank
    s.cells = &cells[0]
    s.count = 0
    s.capacity = 64 * n + 1024
    s.stamp = 0
    s.control = &control
    s.counters = &counters
    s.pos = <int32_t*>PyMem_Malloc(n * sizeof(int32_t))
    s.fixed = <uint8_t*>PyMem_Malloc(n)
    s.moves = <uint8_t*>PyMem_Malloc(s.capacity)
    s.queue = <int32_t*>PyMem_Malloc(n * sizeof(int32_t))
    s.seen = <uint32_t*>PyMem_Malloc(n * sizeof(uint32_t))
    s.via = <uint8_t*>PyMem_Malloc(n)
    try:
        if (s.pos == NULL or s.fixed == NULL or s.moves == NULL or s.queue == NULL
                or s.seen == NULL or s.via == NULL):
            raise MemoryError()
        for cell in range(n):
            tile = cells[cell]
            s.pos[tile] = cell
            s.fixed[cell] = 0
            s.seen[cell] = 0
        with nogil:
            status = run(&s)
            raw = s.count
            if status == STUCK:
                status = 1      # exhausted: the goal is out of reach
            elif status >= 0 and status != STATUS_SOLVED:
                pass
            else:
                status = STATUS_SOLVED
            kept = cancel_pairs(s.moves, s.count) if shorten else s.count
        letters = (<bytes>s.moves[:kept]).translate(_LETTERS)
        return status, letters.decode("ascii"), raw, elapsed(&control), n * CELL_BYTES + raw
    finally:
        PyMem_Free(s.pos)
        PyMem_Free(s.fixed)
        PyMem_Free(s.moves)
        PyMem_Free(s.queue)
        PyMem_Free(s.seen)
        PyMem_Free(s.via)


_LETTERS = bytes.maketrans(bytes(range(4)), move_letters()[:4])

#: Bytes the solver keeps for each cell: its tile, the tile's cell, the fixed flag and the
#: blank-routing search's queue, visit stamp and entering move.
CELL_BYTES = (sizeof(uint16_t) + sizeof(int32_t) + sizeof(uint8_t) + sizeof(int32_t)
              + sizeof(uint32_t) + sizeof(uint8_t))


def cancel_inverse_pairs(str moves):
    """``moves`` (blank directions, U/D/L/R) with every move undone by the next one removed."""
    cdef bytearray codes = bytearray(moves.encode("ascii").translate(_CODES))
    cdef uint8_t* data = codes
    cdef Py_ssize_t kept = cancel_pairs(data, len(codes))
    return bytes(codes[:kept]).translate(_LETTERS).decode("ascii")


_CODES = bytes.maketrans(move_letters()[:4], bytes(range(4)))
