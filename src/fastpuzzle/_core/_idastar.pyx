"""IDA*: the optimal workhorse, one nogil depth-first driver per heuristic.

Every driver is a recursive ``cdef`` function specialised for its heuristic, so no function pointer
and no Python object is touched per node. The heuristic is updated incrementally from the tile
that moves: Manhattan by per-tile tables, linear conflict by one key per row and column (only the
two lines a move touches change), walking distance by a transition table, pattern databases by one
sparse index per group (and per reflected group).

Node counting (the definition of ``manhattan_ida_nodes`` in ``random50.tsv``): every child
generated counts once (the root does not), over all iterations, stopping at the first goal found
in the final iteration; children are tried with the blank moving D, R, L, U, skipping the moves
the duplicate-pruning machine forbids (``machine``; by default only the move that undoes the
previous one); a child whose f exceeds the bound is generated but not expanded.

Boards are canonical packed boards (see ``_packed.pxd``); the Python layer validates them.

With ``workers > 1`` the iterations run in the calling thread until one expands
``PARALLEL_FROM`` nodes; each later iteration is shared among threads (``_Team`` below, driven
by ``fastpuzzle/_solver/parallel.py``): the calling thread expands the tree level by level down to a
frontier of about ``FRONTIER_PER_WORKER`` nodes per thread, each node carrying the state its
heuristic's recursion goes on from, and the pool threads take frontier nodes in order from a
shared counter and search their subtrees with the same recursive drivers. The counts are summed
over threads; an iteration searched to its end counts exactly the nodes the serial search does.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from fastpuzzle._core._control cimport (
    Control,
    STATUS_MEMORY_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    SearchCounters,
    checkpoint,
    elapsed,
    init_control,
    init_counters,
)
from fastpuzzle._core._result cimport core_result
from fastpuzzle._core._heuristics cimport (
    H_LINEAR_CONFLICT,
    H_MANHATTAN,
    H_MISPLACED,
    H_PDB,
    H_WALKING_DISTANCE,
    GoalTables,
    init_goal_tables,
    leave_count,
    manhattan_of,
    misplaced_of,
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
    init_geometry,
    slide,
)

from fastpuzzle._core._team cimport Member
from fastpuzzle._core._patterns cimport LoadedPatterns, copy_duals, copy_patterns, patterns_for
from fastpuzzle._core._pdbgroups cimport (
    DualStep,
    Duals,
    Group,
    GroupMove,
    Patterns,
    apply_dual,
    dual_change,
    dual_step,
    entry_address,
    fill_dual,
    fill_patterns,
    four_h,
    group_entry,
    mirrored_child_index,
    pattern_h,
    move_mirrored,
    move_plain,
    plain_child_index,
    read_entry,
    restore_patterns,
    save_patterns,
    unapply_dual,
    unmove_mirrored,
    unmove_plain,
)

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) nogil

cdef enum:
    MAX_PATH = 255          # longest solution a driver can hold
    MAX_LINE_TABLE = 6      # lines up to this long use a lookup table; longer ones are computed
    NODE_GROUPS = 16        # a packed board has at most 15 tiles, so at most 15 groups
    MAX_CUT = 48            # deepest frontier (each node carries its path from the root)

# dfs_pdb is compiled once for one partition and once for two (the max of two pattern
# databases, each with its reflection): the one-partition search carries no trace of the other.
cdef struct OnePartition:
    char unused

cdef struct TwoPartitions:
    char unused

ctypedef fused Sets:
    OnePartition
    TwoPartitions

cdef OnePartition* ONE = NULL
cdef TwoPartitions* TWO = NULL


cdef struct Node:
    # A frontier node: where its subtree starts, and the state its heuristic goes on from.
    uint64_t board
    int blank
    int depth
    int32_t state           # the duplicate-pruning machine's
    int h                   # pdb: the Manhattan part (md)
    int plain
    int mirrored
    int wd_v
    int wd_h
    int row_key[16]
    int col_key[16]
    uint64_t index[NODE_GROUPS]
    uint64_t mindex[NODE_GROUPS]
    int value[NODE_GROUPS]
    int mvalue[NODE_GROUPS]
    # the second partition's, when there is one
    int plain2
    int mirrored2
    uint64_t index2[NODE_GROUPS]
    uint64_t mindex2[NODE_GROUPS]
    int value2[NODE_GROUPS]
    int mvalue2[NODE_GROUPS]
    # with dual lookups: h as the parent left it (BPMX), the dual sums and the dual boards
    int dual_h
    int dual
    int dmirrored
    uint64_t dindex[2][NODE_GROUPS]
    int dvalue[2][NODE_GROUPS]
    uint8_t path[MAX_CUT]


# The engine: modes, the node prologue, the collector and the iterations (see _engine.pxi).
include "_engine.pxi"


cdef struct Search:
    Geometry g
    GoalTables t
    int kind
    const int32_t* machine  # duplicate pruning (_fsm.pyx), read-only, shared by threads
    int32_t machine_states
    int n_moves[16]
    int move_cell[16][4]    # cells the blank reaches from each cell, in child order
    int move_dir[16][4]
    uint64_t goal
    int bound
    int next_bound
    int status
    uint8_t path[MAX_PATH + 1]
    SearchCounters counters
    Control control
    # linear conflict: one key per line, digits = goal position + 1 of tiles that belong there
    int row_key[16]
    int col_key[16]
    int row_delta[16][16]   # [tile][cell] -> that tile's digit in its row's key
    int col_delta[16][16]
    int row_len
    int col_len
    const uint8_t* row_table
    const uint8_t* col_table
    # walking distance: state indices and their transition tables
    int wd_v
    int wd_h
    const int32_t* wd_v_next
    const int32_t* wd_h_next
    const uint8_t* wd_v_dist
    const uint8_t* wd_h_dist
    int wd_v_groups
    int wd_h_groups
    int wd_v_class[16]      # [tile] -> goal row
    int wd_h_class[16]      # [tile] -> goal column
    # A side whose abstraction is too big (2x8's columns) has no tables: its state is then the
    # Manhattan component along it (still a lower bound on the moves along it).
    # pattern databases: the groups and their incremental state, plain and reflected; with
    # ``second``, a second partition's too, whose sums are kept here rather than passed down
    Patterns pat
    int second
    Patterns pat2
    int plain2
    int mirrored2
    # dual lookups with BPMX (dfs_dual; one partition): their maps and incremental state
    int dual
    Duals duals
    # parallel search: the team this thread belongs to, and where Collect mode puts nodes
    Member member
    Collector* collector


# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# Set-up.

cdef uint64_t goal_board(const Geometry* g, const GoalTables* t) noexcept nogil:
    cdef uint64_t board = 0
    cdef int tile
    for tile in range(1, g.cells):
        board |= (<uint64_t>tile) << (4 * t.goal_cell[tile])
    return board


cdef void init_lines(Search* s, uint64_t board) noexcept nogil:
    cdef int tile, cell, home, r, c, power, _j
    s.row_len = s.g.cols
    s.col_len = s.g.rows
    s.row_table = LINE_TABLES[s.row_len] if s.row_len <= MAX_LINE_TABLE else NULL
    s.col_table = LINE_TABLES[s.col_len] if s.col_len <= MAX_LINE_TABLE else NULL
    for tile in range(16):
        for cell in range(16):
            s.row_delta[tile][cell] = 0
            s.col_delta[tile][cell] = 0
    for tile in range(1, s.g.cells):
        home = s.t.goal_cell[tile]
        for cell in range(s.g.cells):
            r = s.g.row_of[cell]
            c = s.g.col_of[cell]
            if s.g.row_of[home] == r:
                power = 1
                for _j in range(c):
                    power *= s.row_len + 1
                s.row_delta[tile][cell] = (s.g.col_of[home] + 1) * power
            if s.g.col_of[home] == c:
                power = 1
                for _j in range(r):
                    power *= s.col_len + 1
                s.col_delta[tile][cell] = (s.g.row_of[home] + 1) * power
    for r in range(16):
        s.row_key[r] = 0
        s.col_key[r] = 0
    for cell in range(s.g.cells):
        tile = get_tile(board, cell)
        if tile:
            s.row_key[s.g.row_of[cell]] += s.row_delta[tile][cell]
            s.col_key[s.g.col_of[cell]] += s.col_delta[tile][cell]


cdef int lines_extra(const Search* s) noexcept nogil:
    cdef int i, total = 0
    for i in range(s.g.rows):
        total += line_extra(s.row_table, s.row_key[i], s.row_len)
    for i in range(s.g.cols):
        total += line_extra(s.col_table, s.col_key[i], s.col_len)
    return total


# ---------------------------------------------------------------------------------------------
# Pattern-database lookups.

cdef int pdb_sum(Search* s, Patterns* pat, uint64_t board, int mirrored) noexcept nogil:
    # Fill the groups' indices and values (plain or mirrored) from a whole board; their sum.
    cdef uint8_t tile_at[16]
    cdef int cell
    for cell in range(s.g.cells):
        tile_at[cell] = get_tile(board, cell)
    return fill_patterns(pat, tile_at, s.g.cells, mirrored)


# ---------------------------------------------------------------------------------------------
# The drivers. Each returns a code of _engine.pxd (SEARCHED, FOUND, STOPPED: s.status set) or -2
# with a Python exception set (Ctrl-C or the progress callback raised), and carries the
# duplicate-pruning machine's state of its node (``state``).

cdef int collect(Search* s, uint64_t board, int blank, int depth, int h, int md, int plain,
                 int mirrored, int32_t state) noexcept nogil:
    # Collect mode at the cut: enter()'s bound and goal tests, then the node joins the frontier
    # instead of being expanded (the thread that searches it counts its expansion).
    cdef int f = depth + h
    cdef Node* node
    if f > s.bound:
        if f < s.next_bound:
            s.next_bound = f
        return SEARCHED
    if h == 0:
        return FOUND
    node = frontier_slot(s)
    if node == NULL:
        return STOPPED
    save_node(s, node, board, blank, depth, h if s.kind != H_PDB else md, plain, mirrored,
              state)
    return SEARCHED


cdef int dfs_misplaced(Search* s, uint64_t board, int blank, int depth, int h,
                       int32_t state, Mode* mode) except -2 nogil:
    cdef int r, k, cell, tile, home
    cdef int32_t next_state
    if Mode is Collect:
        if depth == s.collector.cut:
            return collect(s, board, blank, depth, h, 0, 0, 0, state)
    r = enter(s, h, depth + h)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    for k in range(s.n_moves[blank]):
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        tile = get_tile(board, cell)
        home = s.t.goal_cell[tile]
        s.counters.generated += 1
        if Mode is Collect:
            s.path[depth] = s.move_dir[blank][k]
        r = dfs_misplaced(s, slide(board, blank, cell), cell, depth + 1,
                          h + (cell == home) - (blank == home), next_state, mode)
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
    return SEARCHED


cdef int dfs_manhattan(Search* s, uint64_t board, int blank, int depth, int h,
                       int32_t state, Mode* mode) except -2 nogil:
    cdef int r, k, cell, tile
    cdef int32_t next_state
    if Mode is Collect:
        if depth == s.collector.cut:
            return collect(s, board, blank, depth, h, 0, 0, 0, state)
    r = enter(s, h, depth + h)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    for k in range(s.n_moves[blank]):
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        tile = get_tile(board, cell)
        s.counters.generated += 1
        if Mode is Collect:
            s.path[depth] = s.move_dir[blank][k]
        r = dfs_manhattan(s, slide(board, blank, cell), cell, depth + 1,
                          h - s.t.distance[tile][cell] + s.t.distance[tile][blank], next_state,
                          mode)
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
    return SEARCHED


cdef int dfs_linear_conflict(Search* s, uint64_t board, int blank, int depth, int h,
                             int32_t state, Mode* mode) except -2 nogil:
    cdef int r, k, cell, tile, d, a, b, before, after, child_h
    cdef int32_t next_state
    if Mode is Collect:
        if depth == s.collector.cut:
            return collect(s, board, blank, depth, h, 0, 0, 0, state)
    r = enter(s, h, depth + h)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    for k in range(s.n_moves[blank]):
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        tile = get_tile(board, cell)
        d = s.move_dir[blank][k]
        child_h = h - s.t.distance[tile][cell] + s.t.distance[tile][blank]
        if d <= DIR_D:
            # The tile changes row: only its old and new rows change.
            a = s.g.row_of[cell]
            b = s.g.row_of[blank]
            before = (line_extra(s.row_table, s.row_key[a], s.row_len)
                      + line_extra(s.row_table, s.row_key[b], s.row_len))
            s.row_key[a] -= s.row_delta[tile][cell]
            s.row_key[b] += s.row_delta[tile][blank]
            after = (line_extra(s.row_table, s.row_key[a], s.row_len)
                     + line_extra(s.row_table, s.row_key[b], s.row_len))
            # Its column keeps its order but the tile's digit moves to another place.
            s.col_key[s.g.col_of[cell]] += s.col_delta[tile][blank] - s.col_delta[tile][cell]
        else:
            a = s.g.col_of[cell]
            b = s.g.col_of[blank]
            before = (line_extra(s.col_table, s.col_key[a], s.col_len)
                      + line_extra(s.col_table, s.col_key[b], s.col_len))
            s.col_key[a] -= s.col_delta[tile][cell]
            s.col_key[b] += s.col_delta[tile][blank]
            after = (line_extra(s.col_table, s.col_key[a], s.col_len)
                     + line_extra(s.col_table, s.col_key[b], s.col_len))
            s.row_key[s.g.row_of[cell]] += s.row_delta[tile][blank] - s.row_delta[tile][cell]
        s.counters.generated += 1
        if Mode is Collect:
            s.path[depth] = d
        r = dfs_linear_conflict(s, slide(board, blank, cell), cell, depth + 1,
                                child_h + after - before, next_state, mode)
        if d <= DIR_D:
            s.row_key[a] += s.row_delta[tile][cell]
            s.row_key[b] -= s.row_delta[tile][blank]
            s.col_key[s.g.col_of[cell]] -= s.col_delta[tile][blank] - s.col_delta[tile][cell]
        else:
            s.col_key[a] += s.col_delta[tile][cell]
            s.col_key[b] -= s.col_delta[tile][blank]
            s.row_key[s.g.row_of[cell]] -= s.row_delta[tile][blank] - s.row_delta[tile][cell]
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
    return SEARCHED


cdef inline int walking_h(const Search* s) noexcept nogil:
    return ((s.wd_v_dist[s.wd_v] if s.wd_v_dist != NULL else s.wd_v)
            + (s.wd_h_dist[s.wd_h] if s.wd_h_dist != NULL else s.wd_h))


cdef int dfs_walking_distance(Search* s, uint64_t board, int blank, int depth,
                              int32_t state, Mode* mode) except -2 nogil:
    cdef int h = walking_h(s)
    cdef int r, k, cell, tile, d, old
    cdef int32_t next_state
    if Mode is Collect:
        if depth == s.collector.cut:
            return collect(s, board, blank, depth, h, 0, 0, 0, state)
    r = enter(s, h, depth + h)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    for k in range(s.n_moves[blank]):
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        tile = get_tile(board, cell)
        d = s.move_dir[blank][k]
        # The blank moves d, so the tile crosses from the blank's new line into its old one.
        if d <= DIR_D:
            old = s.wd_v
            if s.wd_v_next != NULL:
                s.wd_v = s.wd_v_next[(old * 2 + d) * s.wd_v_groups + s.wd_v_class[tile]]
            else:
                s.wd_v += (abs(s.g.row_of[blank] - s.wd_v_class[tile])
                           - abs(s.g.row_of[cell] - s.wd_v_class[tile]))
        else:
            old = s.wd_h
            if s.wd_h_next != NULL:
                s.wd_h = s.wd_h_next[(old * 2 + d - DIR_L) * s.wd_h_groups + s.wd_h_class[tile]]
            else:
                s.wd_h += (abs(s.g.col_of[blank] - s.wd_h_class[tile])
                           - abs(s.g.col_of[cell] - s.wd_h_class[tile]))
        s.counters.generated += 1
        if Mode is Collect:
            s.path[depth] = d
        r = dfs_walking_distance(s, slide(board, blank, cell), cell, depth + 1, next_state,
                                 mode)
        if d <= DIR_D:
            s.wd_v = old
        else:
            s.wd_h = old
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
    return SEARCHED


cdef inline void look_up_child(const Patterns* p, int tile, int blank, int cell,
                               uint64_t* index, uint64_t* entry, uint64_t* mindex,
                               uint64_t* mentry) noexcept nogil:
    # The indices and table entries (plain and mirrored) of the group ``tile`` belongs to, once
    # it slides from ``cell`` into the blank's cell; the entries' reads are prefetched.
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    if grp >= 0:
        index[0] = plain_child_index(p, grp, tile, blank, cell)
        entry[0] = group_entry(&p.groups[grp], index[0])
        prefetch(entry_address(&p.groups[grp], entry[0]))
    if mgrp >= 0:
        mindex[0] = mirrored_child_index(p, mgrp, tile, blank, cell)
        mentry[0] = group_entry(&p.groups[mgrp], mindex[0])
        prefetch(entry_address(&p.groups[mgrp], mentry[0]))


cdef inline int pdb_h(const Search* s, int md, int plain, int mirrored, Sets* sets) noexcept nogil:
    # h = Manhattan + 2 * the largest sum: plain and reflected, of one partition or of two.
    cdef int best = plain if plain >= mirrored else mirrored
    if Sets is TwoPartitions:
        if s.plain2 > best:
            best = s.plain2
        if s.mirrored2 > best:
            best = s.mirrored2
    return md + 2 * best


cdef int dfs_pdb(Search* s, uint64_t board, int blank, int depth, int md, int plain,
                 int mirrored, int32_t state, Mode* mode, Sets* sets) except -2 nogil:
    # plain and mirrored: the first partition's sums; the second's are s.plain2, s.mirrored2.
    cdef int h = pdb_h(s, md, plain, mirrored, sets)
    cdef int r, k, cell, tile, grp, mgrp, child_plain, child_mirrored
    cdef int grp2 = -1, mgrp2 = -1, plain2 = 0, mirrored2 = 0, child_f
    cdef int32_t next_state
    cdef bint enters[4]
    cdef GroupMove saved, msaved, saved2, msaved2
    cdef uint64_t new_index[4]
    cdef uint64_t new_entry[4]
    cdef uint64_t new_mindex[4]
    cdef uint64_t new_mentry[4]
    cdef uint64_t new_index2[4]
    cdef uint64_t new_entry2[4]
    cdef uint64_t new_mindex2[4]
    cdef uint64_t new_mentry2[4]
    if Mode is Collect:
        if depth == s.collector.cut:
            return collect(s, board, blank, depth, h, md, plain, mirrored, state)
    r = enter(s, h, depth + h)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    # First every child's table entries, prefetched: the lookups are cache misses (the tables
    # are megabytes), and issuing them together lets them overlap.
    for k in range(s.n_moves[blank]):
        if child_state(s, state, blank, k) == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        look_up_child(&s.pat, get_tile(board, cell), blank, cell, &new_index[k], &new_entry[k],
                      &new_mindex[k], &new_mentry[k])
    if Sets is TwoPartitions:
        # Then the second partition's, only for the children it could change: a child that the
        # first partition cuts, with an f that cannot lower next_bound, is cut whatever the second
        # says (h is the larger of the two), and is not entered. That saves the second
        # partition's lookups for most cut children, and keeps every count and bound the same.
        for k in range(s.n_moves[blank]):
            if child_state(s, state, blank, k) == FORBIDDEN:
                continue
            cell = s.move_cell[blank][k]
            tile = get_tile(board, cell)
            child_plain = plain
            child_mirrored = mirrored
            grp = s.pat.group_of[tile]
            if grp >= 0:
                child_plain += (read_entry(&s.pat.groups[grp], new_entry[k])
                                - s.pat.value[grp])
            mgrp = s.pat.mgroup_of[tile] if s.pat.mirror else -1
            if mgrp >= 0:
                child_mirrored += (read_entry(&s.pat.groups[mgrp], new_mentry[k])
                                   - s.pat.mvalue[mgrp])
            child_f = (depth + 1 + md - s.t.distance[tile][cell] + s.t.distance[tile][blank]
                       + 2 * (child_plain if child_plain >= child_mirrored else child_mirrored))
            enters[k] = child_f <= s.bound or child_f < s.next_bound
            if enters[k]:
                look_up_child(&s.pat2, tile, blank, cell, &new_index2[k], &new_entry2[k],
                              &new_mindex2[k], &new_mentry2[k])
    if Sets is TwoPartitions:
        plain2 = s.plain2
        mirrored2 = s.mirrored2
    for k in range(s.n_moves[blank]):
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        if Sets is TwoPartitions:
            if not enters[k]:
                s.counters.generated += 1
                continue
        tile = get_tile(board, cell)
        child_plain = plain
        child_mirrored = mirrored
        grp = s.pat.group_of[tile]
        if grp >= 0:
            child_plain += move_plain(&s.pat, grp, new_index[k], new_entry[k], &saved)
        mgrp = s.pat.mgroup_of[tile] if s.pat.mirror else -1
        if mgrp >= 0:
            child_mirrored += move_mirrored(&s.pat, mgrp, new_mindex[k], new_mentry[k],
                                            &msaved)
        if Sets is TwoPartitions:
            grp2 = s.pat2.group_of[tile]
            if grp2 >= 0:
                s.plain2 += move_plain(&s.pat2, grp2, new_index2[k], new_entry2[k], &saved2)
            mgrp2 = s.pat2.mgroup_of[tile] if s.pat2.mirror else -1
            if mgrp2 >= 0:
                s.mirrored2 += move_mirrored(&s.pat2, mgrp2, new_mindex2[k], new_mentry2[k],
                                             &msaved2)
        s.counters.generated += 1
        if Mode is Collect:
            s.path[depth] = s.move_dir[blank][k]
        r = dfs_pdb(s, slide(board, blank, cell), cell, depth + 1,
                    md - s.t.distance[tile][cell] + s.t.distance[tile][blank],
                    child_plain, child_mirrored, next_state, mode, sets)
        if grp >= 0:
            unmove_plain(&s.pat, grp, &saved)
        if mgrp >= 0:
            unmove_mirrored(&s.pat, mgrp, &msaved)
        if Sets is TwoPartitions:
            if grp2 >= 0:
                unmove_plain(&s.pat2, grp2, &saved2)
            if mgrp2 >= 0:
                unmove_mirrored(&s.pat2, mgrp2, &msaved2)
            s.plain2 = plain2
            s.mirrored2 = mirrored2
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
    return SEARCHED


# Dual lookups with BPMX (dfs_dual, one text with _wide_pdb's, in _dual.pxi), over the packed
# board word.

ctypedef uint64_t BoardWord


cdef inline int tile_on(const Search* s, BoardWord board, int cell) noexcept nogil:
    return <int>get_tile(board, cell)


cdef inline BoardWord moved_board(Search* s, BoardWord board, int blank, int cell,
                                  int tile) noexcept nogil:
    return slide(board, blank, cell)


cdef inline void unmove_board(Search* s, int blank, int cell, int tile) noexcept nogil:
    pass


cdef inline int manhattan_change(const Search* s, int tile, int cell, int blank) noexcept nogil:
    return s.t.distance[tile][blank] - s.t.distance[tile][cell]


cdef inline uint64_t group_entry_of(const Group* grp, uint64_t index) noexcept nogil:
    return group_entry(grp, index)


cdef int save_dual_node(Search* s, BoardWord board, int blank, int depth, int h, int md,
                        int plain, int mirrored, int dual, int dmirrored,
                        int32_t state) noexcept nogil:
    # Collect mode at the cut for dfs_dual: the node joins the frontier with its h.
    cdef Node* node = frontier_slot(s)
    if node == NULL:
        return STOPPED
    save_node(s, node, board, blank, depth, md, plain, mirrored, state)
    node.dual_h = h
    node.dual = dual
    node.dmirrored = dmirrored
    return SEARCHED


include "_dual.pxi"


# ---------------------------------------------------------------------------------------------
# Frontier nodes: a subtree's start and its heuristic state, saved and restored.

cdef void save_node(const Search* s, Node* node, uint64_t board, int blank, int depth, int h,
                    int plain, int mirrored, int32_t state) noexcept nogil:
    # h: the driver's h argument (dfs_pdb: md); s holds the node's incremental state.
    cdef int i, which
    node.board = board
    node.blank = blank
    node.depth = depth
    node.state = state
    node.h = h
    node.plain = plain
    node.mirrored = mirrored
    for i in range(depth):
        node.path[i] = s.path[i]
    if s.kind == H_LINEAR_CONFLICT:
        for i in range(s.g.rows):
            node.row_key[i] = s.row_key[i]
        for i in range(s.g.cols):
            node.col_key[i] = s.col_key[i]
    elif s.kind == H_WALKING_DISTANCE:
        node.wd_v = s.wd_v
        node.wd_h = s.wd_h
    elif s.kind == H_PDB:
        save_patterns(&s.pat, node.index, node.value, node.mindex, node.mvalue)
        if s.second:
            node.plain2 = s.plain2
            node.mirrored2 = s.mirrored2
            save_patterns(&s.pat2, node.index2, node.value2, node.mindex2, node.mvalue2)
        if s.dual:
            for which in range(2):
                for i in range(s.pat.n_groups):
                    node.dindex[which][i] = s.duals.side[which].index[i]
                    node.dvalue[which][i] = s.duals.side[which].value[i]


cdef void load_node(Search* s, const Node* node) noexcept nogil:
    # The inverse of save_node: s's incremental state and path prefix become the node's.
    cdef int i, which
    for i in range(node.depth):
        s.path[i] = node.path[i]
    if s.kind == H_LINEAR_CONFLICT:
        for i in range(s.g.rows):
            s.row_key[i] = node.row_key[i]
        for i in range(s.g.cols):
            s.col_key[i] = node.col_key[i]
    elif s.kind == H_WALKING_DISTANCE:
        s.wd_v = node.wd_v
        s.wd_h = node.wd_h
    elif s.kind == H_PDB:
        restore_patterns(&s.pat, node.index, node.value, node.mindex, node.mvalue)
        if s.second:
            s.plain2 = node.plain2
            s.mirrored2 = node.mirrored2
            restore_patterns(&s.pat2, node.index2, node.value2, node.mindex2, node.mvalue2)
        if s.dual:
            for which in range(2):
                for i in range(s.pat.n_groups):
                    s.duals.side[which].index[i] = node.dindex[which][i]
                    s.duals.side[which].value[i] = node.dvalue[which][i]


cdef int descend(Search* s, const Node* node, Mode* mode) except -2 nogil:
    # The heuristic's driver from a node whose state s holds.
    cdef int h_out
    if s.kind == H_MISPLACED:
        return dfs_misplaced(s, node.board, node.blank, node.depth, node.h, node.state, mode)
    if s.kind == H_MANHATTAN:
        return dfs_manhattan(s, node.board, node.blank, node.depth, node.h, node.state, mode)
    if s.kind == H_LINEAR_CONFLICT:
        return dfs_linear_conflict(s, node.board, node.blank, node.depth, node.h,
                                   node.state, mode)
    if s.kind == H_WALKING_DISTANCE:
        return dfs_walking_distance(s, node.board, node.blank, node.depth, node.state, mode)
    if s.dual:
        return dfs_dual(s, node.board, node.blank, node.depth, node.dual_h, node.h, node.plain,
                        node.mirrored, node.dual, node.dmirrored, node.state, &h_out, mode)
    if s.second:
        return dfs_pdb(s, node.board, node.blank, node.depth, node.h, node.plain,
                       node.mirrored, node.state, mode, TWO)
    return dfs_pdb(s, node.board, node.blank, node.depth, node.h, node.plain, node.mirrored,
                   node.state, mode, ONE)


cdef void init_root(Search* s, Node* root, uint64_t board, int blank) noexcept nogil:
    # The start's heuristic, with its incremental state in s (linear conflict's line keys were
    # set by init_lines, walking distance's states by the caller).
    cdef int h, plain = 0, mirrored = 0, cell
    cdef uint8_t tile_at[16]
    if s.kind == H_MISPLACED:
        h = misplaced_of(board, &s.g, &s.t)
    elif s.kind == H_MANHATTAN:
        h = manhattan_of(board, &s.g, &s.t)
    elif s.kind == H_LINEAR_CONFLICT:
        h = manhattan_of(board, &s.g, &s.t) + lines_extra(s)
    elif s.kind == H_WALKING_DISTANCE:
        h = walking_h(s)
    else:
        h = manhattan_of(board, &s.g, &s.t)     # dfs_pdb's md
        plain = pdb_sum(s, &s.pat, board, 0)
        if s.pat.mirror:
            mirrored = pdb_sum(s, &s.pat, board, 1)
        if s.second:
            s.plain2 = pdb_sum(s, &s.pat2, board, 0)
            s.mirrored2 = pdb_sum(s, &s.pat2, board, 1) if s.pat2.mirror else 0
        if s.dual:
            for cell in range(s.g.cells):
                tile_at[cell] = get_tile(board, cell)
            root.dual = fill_dual(&s.duals, &s.pat, 0, tile_at, s.g.cells, blank)
            root.dmirrored = (fill_dual(&s.duals, &s.pat, 1, tile_at, s.g.cells, blank)
                              if s.duals.mirror else 0)
            root.dual_h = four_h(h, plain, mirrored, root.dual, root.dmirrored)
    save_node(s, root, board, blank, 0, h, plain, mirrored, MACHINE_START)


cdef inline int root_h(const Search* s, const Node* root) noexcept nogil:
    if s.kind == H_PDB and s.dual:
        return root.dual_h
    if s.kind == H_PDB and s.second:
        return pdb_h(s, root.h, root.plain, root.mirrored, TWO)
    if s.kind == H_PDB:
        return pdb_h(s, root.h, root.plain, root.mirrored, ONE)
    return root.h


cdef inline uint64_t node_key(const Search* s, const Node* node) noexcept nogil:
    # The frontier node's board, as the parallel search remembers where the work was.
    return node.board


# ---------------------------------------------------------------------------------------------
# The Python entry.

def idastar(
    uint64_t packed,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    int heuristic,
    *,
    tables=None,
    uint64_t node_limit=0,
    double time_limit=0.0,
    int max_depth=-1,
    progress=None,
    int workers=1,
    runner=None,
    units=None,
    int min_bound=0,
    machine=None,
):
    """Run IDA* on a canonical packed board.

    Parameters
    ----------
    packed, blank, rows, cols, goal_blank
        The canonical start board, its blank cell, its shape and the goal's blank cell.
    heuristic : int
        A :class:`~fastpuzzle._core._heuristics.HeuristicCode`: misplaced, Manhattan, linear
        conflict, walking distance or pattern databases (``H_PDB``).
    tables : object, optional
        What the heuristic reads: for ``H_PDB`` a :class:`fastpuzzle.pdb.Database` (``groups``:
        ``(tiles, sparse, nibble, table)`` per group, ``table`` a read-only uint8 buffer indexed
        as in ``_pdb``; ``reflect``: the cell mirrored about the main diagonal per cell, or None);
        for ``H_WALKING_DISTANCE`` a :class:`fastpuzzle.pdb.WalkingTables`.
    node_limit, time_limit, max_depth
        Limits (0, 0.0 and -1 mean none); the search stops with DEPTH_LIMIT before a bound above
        ``max_depth``.
    progress : callable, optional
        ``progress(expanded, generated, seconds, depth)``, called at most every 2**16 expansions
        (with ``workers > 1``, from the calling thread, also while the pool threads search).
    workers : int
        Threads for the large iterations (see the module docstring); 1: the serial search,
        whose node counts are exact and reproducible. Ctrl-C and the limits stop every thread.
    runner : callable, optional
        ``runner(team, workers, progress)`` runs the shared iterations instead of
        ``fastpuzzle._solver.parallel.run_team`` (``fastpuzzle.distributed``: on a Dask cluster).
    units : tuple, optional
        ``(bound, nodes)`` from another process's ``_Team.frontier_units()``: search only those
        units at that bound and return ``_Team.unit_results()``'s tuple.
    min_bound : int
        The first iteration's bound when it is above the start's h: the caller knows that no
        shorter solution exists (a search stopped in its iteration of that bound, say). It is
        rounded down to the parity of the start's h; a bound above the optimal length gives a
        solution that need not be shortest.
    machine : numpy.ndarray, optional
        The duplicate-pruning machine (``_fsm.compile``, int32 ``(states, 4)``) of a box that
        fits this board; None: parent pruning alone (the published node counts).

    Returns
    -------
    CoreResult
        Moves are blank directions.
    """
    cdef Search* s = <Search*>malloc(sizeof(Search))
    cdef Node root
    cdef const uint8_t[::1] v_dist, h_dist
    cdef const int32_t[::1] v_next, h_next
    cdef list keep = []
    cdef LoadedPatterns loaded
    cdef int tile
    if s == NULL:
        raise MemoryError()
    try:
        if heuristic not in (H_MISPLACED, H_MANHATTAN, H_LINEAR_CONFLICT, H_WALKING_DISTANCE,
                             H_PDB):
            raise ValueError(f"IDA* has no kernel for heuristic code {heuristic}")
        if rows * cols > MAX_CELLS or rows < 1 or cols < 1:
            raise ValueError(f"expected at most 16 cells, got {rows}x{cols}")
        init_geometry(&s.g, rows, cols)
        init_goal_tables(&s.t, &s.g, goal_blank)
        init_moves(s, rows, cols)
        init_counters(&s.counters)
        init_control(&s.control, node_limit, time_limit, 0, progress)
        s.kind = heuristic
        s.goal = goal_board(&s.g, &s.t)
        s.status = STATUS_RUNNING
        s.pat.n_groups = 0
        s.pat.mirror = 0
        s.second = 0
        s.dual = 0
        s.plain2 = s.mirrored2 = 0
        s.member.team = NULL
        s.collector = NULL
        s.machine = machine_table(machine, keep)
        s.machine_states = machine_states(machine)
        if workers < 1:
            raise ValueError(f"expected workers >= 1, got {workers}")
        if max_depth < 0 or max_depth > MAX_PATH:
            max_depth = MAX_PATH
        if s.kind == H_LINEAR_CONFLICT:
            ensure_line_tables()
            init_lines(s, packed)
        elif s.kind == H_WALKING_DISTANCE:
            if tables is None:
                raise ValueError("walking_distance needs its tables")
            vertical, horizontal = tables.vertical, tables.horizontal
            keep.append(tables)
            s.wd_v_groups, s.wd_v = vertical.lines, vertical.start
            s.wd_h_groups, s.wd_h = horizontal.lines, horizontal.start
            s.wd_v_next = s.wd_h_next = NULL
            s.wd_v_dist = s.wd_h_dist = NULL
            if vertical.next is not None:
                v_next = vertical.next
                v_dist = vertical.distance
                s.wd_v_next = &v_next[0]
                s.wd_v_dist = &v_dist[0]
            if horizontal.next is not None:
                h_next = horizontal.next
                h_dist = horizontal.distance
                s.wd_h_next = &h_next[0]
                s.wd_h_dist = &h_dist[0]
            for tile in range(1, s.g.cells):
                s.wd_v_class[tile] = s.g.row_of[s.t.goal_cell[tile]]
                s.wd_h_class[tile] = s.g.col_of[s.t.goal_cell[tile]]
        elif s.kind == H_PDB:
            if tables is None:
                raise ValueError("pattern databases need their tables")
            if isinstance(tables, tuple):
                # Two partitions: h is the larger of their (plain and reflected) sums.
                if len(tables) != 2:
                    raise ValueError("expected one pattern database or a pair of them")
                loaded = patterns_for(tables[1], s.g.cells, 4, goal_blank)
                keep.append(loaded)
                copy_patterns(&s.pat2, &loaded.pat)
                s.second = 1
                tables = tables[0]
            loaded = patterns_for(tables, s.g.cells, 4, goal_blank)
            if loaded.n_extra:
                raise ValueError("compound tables are read past 16 cells (_wide_pdb)")
            keep.append(loaded)
            copy_patterns(&s.pat, &loaded.pat)
            if loaded.dual:
                if s.second:
                    raise ValueError("dual lookups take one pattern database, not a pair")
                copy_duals(&s.duals, &loaded.duals, loaded.pat.n_groups)
                s.dual = 1
        init_root(s, &root, packed, blank)
        return run_entry(&s, &root, workers, max_depth, keep, units, runner, progress, min_bound)
    finally:
        free(s)
