# Linear conflict as a heuristic of the node driver (expand, _engine.pxi), included by
# _idastar.pyx before its Node: its value, search state and snapshot, the hooks the host's
# generic ones dispatch to (see _engine.pxi's header) and its set-up. h is Manhattan plus the
# line extras, kept incrementally: one key per row and column (the goal positions + 1 of the
# tiles that belong there, a digit a cell), and only the two lines a move crosses change.
# ``manhattan_change`` is the host's.

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport malloc

from fastpuzzle._core._heuristics cimport leave_count, manhattan_of
from fastpuzzle._core._packed cimport DIR_D, get_tile


cdef enum:
    MAX_LINE_TABLE = 6      # lines up to this long use a lookup table; longer ones are computed


cdef struct LinearConflict:
    int h
    int a                   # the two lines the tile moved between (rows on a vertical move)
    int b


cdef struct LinesState:
    # The keys of the node being searched, and how a tile on a cell adds to its line's key.
    int row_key[16]
    int col_key[16]
    int row_delta[16][16]   # [tile][cell] -> that tile's digit in its row's key
    int col_delta[16][16]
    int row_len
    int col_len
    const uint8_t* row_table
    const uint8_t* col_table


cdef struct LinesNode:
    # A frontier node's keys.
    int row_key[16]
    int col_key[16]


# Tables shared by every search (built once, under the GIL, before the first search needs them).
cdef uint8_t* LINE_TABLES[MAX_LINE_TABLE + 1]


cdef int line_extra_of_key(int key, int length) noexcept nogil:
    # Extra moves (2 per tile that must leave the line) for a line key in base length + 1.
    cdef int keys[16]
    cdef int n = 0, digit, _i
    for _i in range(length):
        digit = key % (length + 1)
        key //= length + 1
        if digit:
            keys[n] = digit - 1
            n += 1
    return 2 * leave_count(keys, n)


cdef int ensure_line_tables() except -1:
    cdef int length, size, key, _i
    cdef uint8_t* table
    for length in range(1, MAX_LINE_TABLE + 1):
        if LINE_TABLES[length] != NULL:
            continue
        size = 1
        for _i in range(length):
            size *= length + 1
        table = <uint8_t*>malloc(size)
        if table == NULL:
            raise MemoryError()
        for key in range(size):
            table[key] = line_extra_of_key(key, length)
        LINE_TABLES[length] = table
    return 0


cdef inline int line_extra(const uint8_t* table, int key, int length) noexcept nogil:
    if table != NULL:
        return table[key]
    return line_extra_of_key(key, length)


cdef int conflict_setup(Search* s, uint64_t board) except -1:
    # s's keys and deltas for the start ``board``, and the shared tables.
    cdef LinesState* ln = &s.heur.lines
    cdef int tile, cell, home, r, c, power, _j
    ensure_line_tables()
    ln.row_len = s.g.cols
    ln.col_len = s.g.rows
    ln.row_table = LINE_TABLES[ln.row_len] if ln.row_len <= MAX_LINE_TABLE else NULL
    ln.col_table = LINE_TABLES[ln.col_len] if ln.col_len <= MAX_LINE_TABLE else NULL
    for tile in range(16):
        for cell in range(16):
            ln.row_delta[tile][cell] = 0
            ln.col_delta[tile][cell] = 0
    for tile in range(1, s.g.cells):
        home = s.t.goal_cell[tile]
        for cell in range(s.g.cells):
            r = s.g.row_of[cell]
            c = s.g.col_of[cell]
            if s.g.row_of[home] == r:
                power = 1
                for _j in range(c):
                    power *= ln.row_len + 1
                ln.row_delta[tile][cell] = (s.g.col_of[home] + 1) * power
            if s.g.col_of[home] == c:
                power = 1
                for _j in range(r):
                    power *= ln.col_len + 1
                ln.col_delta[tile][cell] = (s.g.row_of[home] + 1) * power
    for r in range(16):
        ln.row_key[r] = 0
        ln.col_key[r] = 0
    for cell in range(s.g.cells):
        tile = get_tile(board, cell)
        if tile:
            ln.row_key[s.g.row_of[cell]] += ln.row_delta[tile][cell]
            ln.col_key[s.g.col_of[cell]] += ln.col_delta[tile][cell]
    return 0


cdef int lines_extra(const Search* s) noexcept nogil:
    cdef const LinesState* ln = &s.heur.lines
    cdef int i, total = 0
    for i in range(s.g.rows):
        total += line_extra(ln.row_table, ln.row_key[i], ln.row_len)
    for i in range(s.g.cols):
        total += line_extra(ln.col_table, ln.col_key[i], ln.col_len)
    return total


cdef inline int lines_change(const Search* s, int tile, int cell, int blank, int vertical,
                             LinearConflict* child) noexcept nogil:
    # The change of the line extras when the tile slides from cell into the blank: only the two
    # lines it moves between (rows on a vertical move) change; its column (row) keeps its order.
    cdef const LinesState* ln = &s.heur.lines
    cdef int a, b, before, after
    if vertical:
        a = s.g.row_of[cell]
        b = s.g.row_of[blank]
        before = (line_extra(ln.row_table, ln.row_key[a], ln.row_len)
                  + line_extra(ln.row_table, ln.row_key[b], ln.row_len))
        after = (line_extra(ln.row_table, ln.row_key[a] - ln.row_delta[tile][cell], ln.row_len)
                 + line_extra(ln.row_table, ln.row_key[b] + ln.row_delta[tile][blank], ln.row_len))
    else:
        a = s.g.col_of[cell]
        b = s.g.col_of[blank]
        before = (line_extra(ln.col_table, ln.col_key[a], ln.col_len)
                  + line_extra(ln.col_table, ln.col_key[b], ln.col_len))
        after = (line_extra(ln.col_table, ln.col_key[a] - ln.col_delta[tile][cell], ln.col_len)
                 + line_extra(ln.col_table, ln.col_key[b] + ln.col_delta[tile][blank], ln.col_len))
    child.a = a
    child.b = b
    return after - before


cdef inline int conflict_h(const Search* s, const LinearConflict* v) noexcept nogil:
    return v.h


cdef inline int conflict_goal(const Search* s, const LinearConflict* v) noexcept nogil:
    return v.h


cdef inline void conflict_look_ahead(Search* s, BoardWord board, int blank, int depth,
                                     int32_t state, LinearConflict* v) noexcept nogil:
    pass


cdef inline int conflict_child_f(Search* s, int blank, int cell, int tile, int k, int depth,
                                 const LinearConflict* v, LinearConflict* child) noexcept nogil:
    child.h = (v.h + manhattan_change(s, tile, cell, blank)
               + lines_change(s, tile, cell, blank, s.move_dir[blank][k] <= DIR_D, child))
    return depth + 1 + child.h


cdef inline void conflict_enter_child(Search* s, int blank, int cell, int tile, int k,
                                      LinearConflict* v, LinearConflict* child) noexcept nogil:
    cdef LinesState* ln = &s.heur.lines
    if s.move_dir[blank][k] <= DIR_D:
        ln.row_key[child.a] -= ln.row_delta[tile][cell]
        ln.row_key[child.b] += ln.row_delta[tile][blank]
        ln.col_key[s.g.col_of[cell]] += ln.col_delta[tile][blank] - ln.col_delta[tile][cell]
    else:
        ln.col_key[child.a] -= ln.col_delta[tile][cell]
        ln.col_key[child.b] += ln.col_delta[tile][blank]
        ln.row_key[s.g.row_of[cell]] += ln.row_delta[tile][blank] - ln.row_delta[tile][cell]


cdef inline void conflict_leave_child(Search* s, int blank, int cell, int tile, int k,
                                      LinearConflict* v, LinearConflict* child) noexcept nogil:
    cdef LinesState* ln = &s.heur.lines
    if s.move_dir[blank][k] <= DIR_D:
        ln.row_key[child.a] += ln.row_delta[tile][cell]
        ln.row_key[child.b] -= ln.row_delta[tile][blank]
        ln.col_key[s.g.col_of[cell]] -= ln.col_delta[tile][blank] - ln.col_delta[tile][cell]
    else:
        ln.col_key[child.a] += ln.col_delta[tile][cell]
        ln.col_key[child.b] -= ln.col_delta[tile][blank]
        ln.row_key[s.g.row_of[cell]] -= ln.row_delta[tile][blank] - ln.row_delta[tile][cell]


cdef inline void conflict_save(const Search* s, Node* node,
                               const LinearConflict* v) noexcept nogil:
    cdef int i
    for i in range(s.g.rows):
        node.heur.lines.row_key[i] = s.heur.lines.row_key[i]
    for i in range(s.g.cols):
        node.heur.lines.col_key[i] = s.heur.lines.col_key[i]


cdef inline void conflict_load(Search* s, const Node* node, LinearConflict* v) noexcept nogil:
    cdef int i
    v.h = node.h
    for i in range(s.g.rows):
        s.heur.lines.row_key[i] = node.heur.lines.row_key[i]
    for i in range(s.g.cols):
        s.heur.lines.col_key[i] = node.heur.lines.col_key[i]


cdef inline void conflict_root(Search* s, uint64_t board, LinearConflict* v) noexcept nogil:
    # s's keys are the start's (conflict_setup).
    v.h = manhattan_of(board, &s.g, &s.t) + lines_extra(s)
