"""IDA* with additive pattern databases on boards of 17 to 25 cells (5x5, 4x6, 3x8, ...).

The board is one byte per cell; each group's placement is kept as a sparse index (its cells 5
bits per slot), updated by one add when one of its tiles moves, and looked up by compact rank in
tables built by ``_pdb.build_levels`` / ``pack_table`` (values stored relative to Manhattan
distance, as for 4x4). With ``reflect`` the same tables are also read for the board mirrored
about the main diagonal, and the larger sum counts (both are admissible); the mirrored lookup is
skipped for a child the plain sum already cuts off (1.2x faster on 60- to 140-move 5x5
scrambles, same nodes).

Node counting, child order (D, R, L, U) and duplicate pruning (the moves the machine forbids; by
default only the one that undoes the previous move) are those of ``_idastar``, so node counts
compare with the 4x4 drivers and with ``_wide.idastar``; the search is the engine text
(``_engine.pxi``) both kernels run.

With ``workers > 1`` the large iterations are shared among threads exactly as in ``_idastar``
(see its docstring): a frontier collected level by level by the calling thread, each node with
its board, group indices and path prefix, searched by pool threads
(``fastpuzzle/_solver/parallel.py``).
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from fastpuzzle._core._result cimport core_result
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
from fastpuzzle._core._packed cimport (
    DIR_D,
    DIR_L,
    DIR_R,
    DIR_U,
    NO_CELL,
    goal_cell_of,
)
from fastpuzzle._core._patterns cimport LoadedPatterns, copy_duals, copy_patterns, patterns_for
from fastpuzzle._core._pdbgroups cimport (
    EXTRA_MAX_COUNT,
    EXTRA_MAX_GROUPS,
    GROUP_MAX_COUNT,
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
    mirrored_child_index,
    move_mirrored,
    move_plain,
    pattern_h,
    plain_child_index,
    read_entry,
    restore_patterns,
    save_patterns,
    unapply_dual,
    unmove_mirrored,
    unmove_plain,
)
from fastpuzzle._core._ranking cimport compact_rank_bits
from fastpuzzle._core._zero cimport zero_entry
from fastpuzzle._core._team cimport Member

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) nogil

cdef enum:
    MIN_CELLS = 17
    MAX_CELLS = 25
    MAX_GROUPS = GROUP_MAX_COUNT
    MAX_PATH = 400          # the longest optimal 5x5 solution is far shorter
    SLOT_BITS = 5
    MAX_CUT = 48            # deepest frontier (each node carries its path from the root)
    MAX_EXTRA = EXTRA_MAX_COUNT
    EXTRA_GROUPS = EXTRA_MAX_GROUPS


cdef struct Node:
    # A frontier node: its board, where its subtree starts, and its groups' indices and values.
    uint8_t cells[MAX_CELLS]
    int blank
    int depth
    int32_t state           # the duplicate-pruning machine's
    int md
    int plain
    int mirrored
    uint64_t index[MAX_GROUPS]
    uint64_t mindex[MAX_GROUPS]
    int value[MAX_GROUPS]
    int mvalue[MAX_GROUPS]
    # with dual lookups: h as the parent left it (BPMX), the dual sums and the dual boards
    int h
    int dual
    int dmirrored
    uint64_t dindex[2][MAX_GROUPS]
    int dvalue[2][MAX_GROUPS]
    # with a compound heuristic: the other partitions' sums and groups
    int xplain[MAX_EXTRA]
    int xmirrored[MAX_EXTRA]
    uint64_t xindex[MAX_EXTRA][EXTRA_GROUPS]
    uint64_t xmindex[MAX_EXTRA][EXTRA_GROUPS]
    int xvalue[MAX_EXTRA][EXTRA_GROUPS]
    int xmvalue[MAX_EXTRA][EXTRA_GROUPS]
    uint8_t path[MAX_CUT]


# The engine: modes, the node prologue, the collector and the iterations (see _engine.pxi).
include "_engine.pxi"


cdef struct Search:
    int n
    const int32_t* machine          # duplicate pruning (_fsm.pyx), read-only, shared by threads
    int32_t machine_states
    uint8_t cells[MAX_CELLS]
    int n_moves[MAX_CELLS]
    int move_cell[MAX_CELLS][4]     # cells the blank reaches from each cell, in child order
    int move_dir[MAX_CELLS][4]
    int distance[MAX_CELLS][MAX_CELLS]  # [tile][cell] -> Manhattan distance from its goal cell
    Patterns pat                    # the groups and their incremental state
    int n_extra                     # a compound heuristic's other partitions (0: none)
    int xplain[MAX_EXTRA]           # and their sums on the node being searched, plain and
    int xmirrored[MAX_EXTRA]        # reflected
    Patterns extra[MAX_EXTRA]
    int dual                        # 1: dual lookups and BPMX (dfs_dual)
    Duals duals                     # their maps and incremental state
    int bound
    int next_bound
    int status
    uint8_t path[MAX_PATH + 1]
    SearchCounters counters
    Control control
    # parallel search: the team this thread belongs to, and where Collect mode puts nodes
    Member member
    Collector* collector


cdef inline uint64_t entry_of(const Group* grp, uint64_t index, int blank) noexcept nogil:
    # Only compact tables past 16 cells, so no test of grp.sparse per lookup; a zero-aware one
    # also reads the blank's cell (where the moved tile was; reflected on the mirrored board).
    if grp.zero:
        return zero_entry(grp.layout, index, grp.k, SLOT_BITS, blank, grp.weight, grp.data,
                          grp.nibble)
    return compact_rank_bits(index, grp.k, grp.weight, SLOT_BITS)


cdef void save_node(const Search* s, Node* node, int blank, int depth, int md, int plain,
                    int mirrored, int32_t state) noexcept nogil:
    # s holds the node's board, path prefix and group state (a dual node's h and dual sums are
    # set by save_dual_node).
    cdef int i, j, which
    node.blank = blank
    node.depth = depth
    node.state = state
    node.md = md
    node.plain = plain
    node.mirrored = mirrored
    for i in range(s.n):
        node.cells[i] = s.cells[i]
    for i in range(depth):
        node.path[i] = s.path[i]
    save_patterns(&s.pat, node.index, node.value, node.mindex, node.mvalue)
    for j in range(s.n_extra):
        node.xplain[j] = s.xplain[j]
        node.xmirrored[j] = s.xmirrored[j]
        save_patterns(&s.extra[j], node.xindex[j], node.xvalue[j], node.xmindex[j],
                      node.xmvalue[j])
    if s.dual:
        for which in range(2):
            for i in range(s.pat.n_groups):
                node.dindex[which][i] = s.duals.side[which].index[i]
                node.dvalue[which][i] = s.duals.side[which].value[i]


cdef void load_node(Search* s, const Node* node) noexcept nogil:
    # The inverse of save_node.
    cdef int i, j, which
    for i in range(s.n):
        s.cells[i] = node.cells[i]
    for i in range(node.depth):
        s.path[i] = node.path[i]
    restore_patterns(&s.pat, node.index, node.value, node.mindex, node.mvalue)
    for j in range(s.n_extra):
        s.xplain[j] = node.xplain[j]
        s.xmirrored[j] = node.xmirrored[j]
        restore_patterns(&s.extra[j], node.xindex[j], node.xvalue[j], node.xmindex[j],
                         node.xmvalue[j])
    if s.dual:
        for which in range(2):
            for i in range(s.pat.n_groups):
                s.duals.side[which].index[i] = node.dindex[which][i]
                s.duals.side[which].value[i] = node.dvalue[which][i]


cdef int collect(Search* s, int blank, int depth, int h, int md, int plain, int mirrored,
                 int32_t state) noexcept nogil:
    # Collect mode at the cut: the bound and goal tests, then the node joins the frontier
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
    save_node(s, node, blank, depth, md, plain, mirrored, state)
    return SEARCHED


# The driver is compiled twice more (a fused type on a dummy pointer): for one partition, and for
# a compound heuristic, the largest sum of several partitions (s.extra), each read only for the
# children that the ones before it keep within reach.
cdef struct OnePartition:
    char unused

cdef struct SeveralPartitions:
    char unused

ctypedef fused Sets:
    OnePartition
    SeveralPartitions

cdef OnePartition* ONE = NULL
cdef SeveralPartitions* SEVERAL = NULL


cdef inline int node_h(const Search* s, int md, int plain, int mirrored,
                       Sets* sets) noexcept nogil:
    # Manhattan + 2 * the largest sum: plain and reflected, of one partition or of each.
    cdef int best = plain if plain >= mirrored else mirrored
    cdef int j
    if Sets is SeveralPartitions:
        for j in range(s.n_extra):
            if s.xplain[j] > best:
                best = s.xplain[j]
            if s.xmirrored[j] > best:
                best = s.xmirrored[j]
    return md + 2 * best


cdef struct ExtraChild:
    # A child's sums in the other partitions of a compound, plain and reflected, and the moved
    # tile's group's new index and table entry there, found before the child is entered.
    int sum[MAX_EXTRA][2]
    uint64_t index[MAX_EXTRA][2]
    uint64_t entry[MAX_EXTRA][2]


cdef inline bint within_reach(const Search* s, int f) noexcept nogil:
    # Whether a child of that f (or more) must be entered: within the bound, or lowering the
    # next bound (its exact f then counts).
    return f <= s.bound or f < s.next_bound


cdef inline void extra_entries(Search* s, int j, int tile, int blank, int cell,
                               ExtraChild* child) noexcept nogil:
    # Partition j's indices and table entries in a child, prefetched.
    cdef Patterns* p = &s.extra[j]
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    if grp >= 0:
        child.index[j][0] = plain_child_index(p, grp, tile, blank, cell)
        child.entry[j][0] = entry_of(&p.groups[grp], child.index[j][0], cell)
        prefetch(entry_address(&p.groups[grp], child.entry[j][0]))
    if mgrp >= 0:
        child.index[j][1] = mirrored_child_index(p, mgrp, tile, blank, cell)
        child.entry[j][1] = entry_of(&p.groups[mgrp], child.index[j][1],
                                     p.reflect_cell[cell])
        prefetch(entry_address(&p.groups[mgrp], child.entry[j][1]))


cdef inline int extra_sums(Search* s, int j, int tile, ExtraChild* child) noexcept nogil:
    # Partition j's sums in a child (its entries found by extra_entries): 2 * the larger.
    cdef Patterns* p = &s.extra[j]
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    cdef int plain = s.xplain[j], mirrored = s.xmirrored[j]
    if grp >= 0:
        plain += read_entry(&p.groups[grp], child.entry[j][0]) - p.value[grp]
    if mgrp >= 0:
        mirrored += read_entry(&p.groups[mgrp], child.entry[j][1]) - p.mvalue[mgrp]
    child.sum[j][0] = plain
    child.sum[j][1] = mirrored
    return 2 * (plain if plain >= mirrored else mirrored)


cdef void find_extra(Search* s, int blank, int depth, int md, int plain, int mirrored,
                     int32_t state, const uint64_t* plain_entry, uint64_t* mirrored_index,
                     uint64_t* mirrored_entry, bint* enters, ExtraChild* children) noexcept nogil:
    # Which children a compound enters: a child whose f (from the partitions read so far) is out
    # of reach is cut whatever the later ones say, so partition j is read only for the children
    # the ones before it keep; the first partition's sums are read here too (``plain_entry``:
    # the entries dfs prefetched; the reflected ones are found here, for dfs to use). One
    # partition at a time for every child, so that the cache misses overlap. Only reads are
    # saved: every count is that of reading every table.
    cdef int k, j, cell, tile, grp, mgrp, child_plain, value
    cdef int f[4]
    cdef int base[4]
    cdef int mirrored_group[4]
    cdef Patterns* p = &s.pat
    for k in range(s.n_moves[blank]):
        enters[k] = False
        mirrored_group[k] = -1
        if child_state(s, state, blank, k) == FORBIDDEN:
            continue
        enters[k] = True
        cell = s.move_cell[blank][k]
        tile = s.cells[cell]
        mgrp = p.mgroup_of[tile] if p.mirror else -1
        if mgrp >= 0:
            mirrored_group[k] = mgrp
            mirrored_index[k] = mirrored_child_index(p, mgrp, tile, blank, cell)
            mirrored_entry[k] = entry_of(&p.groups[mgrp], mirrored_index[k],
                                         p.reflect_cell[cell])
            prefetch(entry_address(&p.groups[mgrp], mirrored_entry[k]))
    for k in range(s.n_moves[blank]):
        if not enters[k]:
            continue
        cell = s.move_cell[blank][k]
        tile = s.cells[cell]
        child_plain = plain
        grp = p.group_of[tile]
        if grp >= 0:
            child_plain += read_entry(&p.groups[grp], plain_entry[k]) - p.value[grp]
        value = mirrored
        mgrp = mirrored_group[k]
        if mgrp >= 0:
            value += read_entry(&p.groups[mgrp], mirrored_entry[k]) - p.mvalue[mgrp]
        if child_plain > value:
            value = child_plain
        base[k] = depth + 1 + md - s.distance[tile][cell] + s.distance[tile][blank]
        f[k] = base[k] + 2 * value
        enters[k] = within_reach(s, f[k])
    for j in range(s.n_extra):
        for k in range(s.n_moves[blank]):
            if enters[k]:
                cell = s.move_cell[blank][k]
                extra_entries(s, j, s.cells[cell], blank, cell, &children[k])
        for k in range(s.n_moves[blank]):
            if enters[k]:
                value = base[k] + extra_sums(s, j, s.cells[s.move_cell[blank][k]], &children[k])
                if value > f[k]:
                    f[k] = value
                enters[k] = within_reach(s, f[k])


cdef inline void move_extra(Search* s, int tile, const ExtraChild* child, GroupMove* saved,
                            int* sums) noexcept nogil:
    # The child's state in every other partition of the compound (each of them read by
    # find_extra); ``saved`` and ``sums`` keep what unmove_extra puts back, two a partition.
    cdef Patterns* p
    cdef int j, grp, mgrp
    for j in range(s.n_extra):
        p = &s.extra[j]
        grp = p.group_of[tile]
        if grp >= 0:
            move_plain(p, grp, child.index[j][0], child.entry[j][0], &saved[2 * j])
        mgrp = p.mgroup_of[tile] if p.mirror else -1
        if mgrp >= 0:
            move_mirrored(p, mgrp, child.index[j][1], child.entry[j][1], &saved[2 * j + 1])
        sums[2 * j] = s.xplain[j]
        sums[2 * j + 1] = s.xmirrored[j]
        s.xplain[j] = child.sum[j][0]
        s.xmirrored[j] = child.sum[j][1]


cdef inline void unmove_extra(Search* s, int tile, const GroupMove* saved,
                              const int* sums) noexcept nogil:
    cdef Patterns* p
    cdef int j, grp, mgrp
    for j in range(s.n_extra):
        p = &s.extra[j]
        s.xplain[j] = sums[2 * j]
        s.xmirrored[j] = sums[2 * j + 1]
        grp = p.group_of[tile]
        if grp >= 0:
            unmove_plain(p, grp, &saved[2 * j])
        mgrp = p.mgroup_of[tile] if p.mirror else -1
        if mgrp >= 0:
            unmove_mirrored(p, mgrp, &saved[2 * j + 1])


cdef int dfs(Search* s, int blank, int depth, int md, int plain, int mirrored,
             int32_t state, Mode* mode, Sets* sets) except -2 nogil:
    # A return code of _engine.pxd; ``state``: the duplicate-pruning machine's.
    # h = Manhattan + 2 * max(sum of plain group values, sum of reflected group values), over
    # every partition of a compound.
    cdef int h = node_h(s, md, plain, mirrored, sets)
    cdef int f = depth + h
    cdef int k, cell, tile, grp, mgrp, child_plain, child_mirrored, child_md, child_f, r
    cdef int32_t next_state
    cdef GroupMove saved, msaved
    cdef uint64_t mindex
    cdef uint64_t new_index[4]
    cdef uint64_t new_entry[4]
    cdef uint64_t new_mindex[4]
    cdef uint64_t new_mentry[4]
    cdef bint enters[4]
    cdef ExtraChild children[4]
    cdef GroupMove xsaved[2 * MAX_EXTRA]
    cdef int xsums[2 * MAX_EXTRA]
    if Mode is Collect:
        if depth == s.collector.cut:
            return collect(s, blank, depth, h, md, plain, mirrored, state)
    r = enter(s, md, f)
    if r != SEARCHED:
        return SEARCHED if r == OVER_BOUND else r
    # Every child's plain entry first, prefetched: the tables are tens of megabytes, so lookups
    # miss the cache, and issuing them together lets the misses overlap.
    for k in range(s.n_moves[blank]):
        if child_state(s, state, blank, k) == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        tile = s.cells[cell]
        grp = s.pat.group_of[tile]
        if grp >= 0:
            new_index[k] = plain_child_index(&s.pat, grp, tile, blank, cell)
            new_entry[k] = entry_of(&s.pat.groups[grp], new_index[k], cell)
            prefetch(entry_address(&s.pat.groups[grp], new_entry[k]))
    if Sets is SeveralPartitions:
        find_extra(s, blank, depth, md, plain, mirrored, state, new_entry, new_mindex,
                   new_mentry, enters, children)
    for k in range(s.n_moves[blank]):
        next_state = child_state(s, state, blank, k)
        if next_state == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        if skip_child(s, depth, s.move_dir[blank][k], mode):
            continue
        if Sets is SeveralPartitions:
            if not enters[k]:
                s.counters.generated += 1
                continue
        tile = s.cells[cell]
        child_md = md - s.distance[tile][cell] + s.distance[tile][blank]
        child_plain = plain
        child_mirrored = mirrored
        grp = s.pat.group_of[tile]
        if grp >= 0:
            child_plain += move_plain(&s.pat, grp, new_index[k], new_entry[k], &saved)
        mgrp = s.pat.mgroup_of[tile] if s.pat.mirror else -1
        if Sets is OnePartition:
            child_f = depth + 1 + child_md + 2 * child_plain
            if child_f > s.bound and child_f >= s.next_bound:
                # Cut by the plain sum alone, and its f (at least child_f) cannot lower the
                # next bound: the reflected lookup would change nothing, so it is skipped.
                s.counters.generated += 1
                if grp >= 0:
                    unmove_plain(&s.pat, grp, &saved)
                continue
        if mgrp >= 0:
            if Sets is SeveralPartitions:
                child_mirrored += move_mirrored(&s.pat, mgrp, new_mindex[k], new_mentry[k],
                                                &msaved)
            else:
                mindex = mirrored_child_index(&s.pat, mgrp, tile, blank, cell)
                child_mirrored += move_mirrored(&s.pat, mgrp, mindex,
                                                entry_of(&s.pat.groups[mgrp], mindex,
                                                         s.pat.reflect_cell[cell]),
                                                &msaved)
        if Sets is SeveralPartitions:
            move_extra(s, tile, &children[k], xsaved, xsums)
        s.counters.generated += 1
        s.cells[blank] = tile
        s.cells[cell] = 0
        if Mode is Collect:
            s.path[depth] = s.move_dir[blank][k]
        r = dfs(s, cell, depth + 1, child_md, child_plain, child_mirrored, next_state, mode,
                sets)
        s.cells[cell] = tile
        s.cells[blank] = 0
        if grp >= 0:
            unmove_plain(&s.pat, grp, &saved)
        if mgrp >= 0:
            unmove_mirrored(&s.pat, mgrp, &msaved)
        if Sets is SeveralPartitions:
            unmove_extra(s, tile, xsaved, xsums)
        if r:
            # The path is written only on the way back from the goal.
            s.path[depth] = s.move_dir[blank][k]
            return r
    return SEARCHED


# ---------------------------------------------------------------------------------------------
# Dual lookups with BPMX (dfs_dual, one text with _idastar's, in _dual.pxi), over a board that
# s.cells holds.

ctypedef int BoardWord      # unused: s.cells holds the board


cdef inline int tile_on(const Search* s, BoardWord board, int cell) noexcept nogil:
    return s.cells[cell]


cdef inline BoardWord moved_board(Search* s, BoardWord board, int blank, int cell,
                                  int tile) noexcept nogil:
    s.cells[blank] = tile
    s.cells[cell] = 0
    return board


cdef inline void unmove_board(Search* s, int blank, int cell, int tile) noexcept nogil:
    s.cells[cell] = tile
    s.cells[blank] = 0


cdef inline int manhattan_change(const Search* s, int tile, int cell, int blank) noexcept nogil:
    return s.distance[tile][blank] - s.distance[tile][cell]


cdef inline uint64_t group_entry_of(const Group* grp, uint64_t index) noexcept nogil:
    # Dual lookups read plain tables only (LoadedPatterns refuses zero-aware ones there).
    return compact_rank_bits(index, grp.k, grp.weight, SLOT_BITS)


cdef int save_dual_node(Search* s, BoardWord board, int blank, int depth, int h, int md,
                        int plain, int mirrored, int dual, int dmirrored,
                        int32_t state) noexcept nogil:
    # Collect mode at the cut for dfs_dual: the node joins the frontier with its h.
    cdef Node* node = frontier_slot(s)
    if node == NULL:
        return STOPPED
    save_node(s, node, blank, depth, md, plain, mirrored, state)
    node.h = h
    node.dual = dual
    node.dmirrored = dmirrored
    return SEARCHED


include "_dual.pxi"


cdef inline int descend(Search* s, const Node* node, Mode* mode) except -2 nogil:
    # The driver from a node whose state s holds.
    cdef int h_out
    if s.dual:
        return dfs_dual(s, 0, node.blank, node.depth, node.h, node.md, node.plain,
                        node.mirrored, node.dual, node.dmirrored, node.state, &h_out, mode)
    if s.n_extra:
        return dfs(s, node.blank, node.depth, node.md, node.plain, node.mirrored, node.state,
                   mode, SEVERAL)
    return dfs(s, node.blank, node.depth, node.md, node.plain, node.mirrored, node.state,
               mode, ONE)


cdef void init_root(Search* s, Node* root, int blank) noexcept nogil:
    cdef int cell, tile, j, md = 0, plain, mirrored = 0
    for cell in range(s.n):
        tile = s.cells[cell]
        if tile != 0:
            md += s.distance[tile][cell]
    plain = fill_patterns(&s.pat, s.cells, s.n, 0)
    if s.pat.mirror:
        mirrored = fill_patterns(&s.pat, s.cells, s.n, 1)
    for j in range(s.n_extra):
        s.xplain[j] = fill_patterns(&s.extra[j], s.cells, s.n, 0)
        s.xmirrored[j] = fill_patterns(&s.extra[j], s.cells, s.n, 1) if s.extra[j].mirror else 0
    if s.dual:
        root.dual = fill_dual(&s.duals, &s.pat, 0, s.cells, s.n, blank)
        root.dmirrored = (fill_dual(&s.duals, &s.pat, 1, s.cells, s.n, blank)
                          if s.duals.mirror else 0)
        root.h = four_h(md, plain, mirrored, root.dual, root.dmirrored)
    save_node(s, root, blank, 0, md, plain, mirrored, MACHINE_START)


cdef inline int root_h(const Search* s, const Node* root) noexcept nogil:
    if s.dual:
        return root.h
    if s.n_extra:
        return node_h(s, root.md, root.plain, root.mirrored, SEVERAL)
    return pattern_h(root.md, root.plain, root.mirrored)


cdef void init_board(Search* s, int rows, int cols, int goal_blank) noexcept nogil:
    cdef int cell, tile, home
    init_moves(s, rows, cols)
    for tile in range(s.n):
        home = goal_cell_of(tile, goal_blank) if tile else goal_blank
        for cell in range(s.n):
            s.distance[tile][cell] = (abs(cell // cols - home // cols)
                                      + abs(cell % cols - home % cols))


cdef int init_groups(Search* s, int goal_blank, tables, list keep) except -1:
    cdef LoadedPatterns loaded = patterns_for(tables, s.n, SLOT_BITS, goal_blank)
    cdef const Patterns* p
    cdef int grp, j
    # Tables past 16 cells are compact (a sparse 32**k range would be mostly empty).
    for j in range(loaded.n_extra + 1):
        p = &loaded.pat if j == 0 else &loaded.extra[j - 1]
        for grp in range(p.n_groups):
            if p.groups[grp].sparse:
                raise ValueError("tables past 16 cells are compact, not sparse")
    keep.append(loaded)
    copy_patterns(&s.pat, &loaded.pat)
    s.n_extra = loaded.n_extra
    for grp in range(s.n_extra):
        copy_patterns(&s.extra[grp], &loaded.extra[grp])
    s.dual = loaded.dual
    if s.dual:
        copy_duals(&s.duals, &loaded.duals, loaded.pat.n_groups)
    return 0


cdef inline uint64_t node_key(const Search* s, const Node* node) noexcept nogil:
    # A hash of the frontier node's board (FNV-1a), as the parallel search remembers where the
    # work was; two boards with one key only split one more node.
    cdef uint64_t key = <uint64_t>14695981039346656037ULL
    cdef int i
    for i in range(s.n):
        key = (key ^ node.cells[i]) * <uint64_t>1099511628211ULL
    return key


# ---------------------------------------------------------------------------------------------
# The Python entry.

def idastar(
    const uint8_t[::1] cells,
    int blank,
    int rows,
    int cols,
    int goal_blank,
    *,
    tables,
    unsigned long long node_limit=0,
    double time_limit=0.0,
    int max_depth=-1,
    progress=None,
    int workers=1,
    runner=None,
    units=None,
    int min_bound=0,
    machine=None,
):
    """IDA* with additive pattern databases on a canonical board of 17 to 25 cells.

    Parameters
    ----------
    cells : uint8 array
        The canonical start board, one tile per cell (0 = blank), in reading order.
    blank, rows, cols, goal_blank
        The start's blank cell, the shape and the goal's blank cell.
    tables : Database
        A :class:`fastpuzzle.pdb.Database` for this shape and goal: ``groups`` holds
        ``(tiles, sparse, nibble, table)`` per group, compact tables from ``_pdb.pack_table``
        (tiles in no group count their Manhattan distance); ``reflect`` the cell mirrored about
        the main diagonal per cell, to also look up the reflected board (valid only when the
        goal's blank lies on the diagonal), or None. A
        :class:`~fastpuzzle._core._patterns.LoadedPatterns` laid out with ``dual`` also reads
        them on the dual boards, with BPMX (``dfs_dual``).
    node_limit, time_limit, max_depth
        Limits (0, 0.0 and -1 mean none); DEPTH_LIMIT before a bound above ``max_depth``.
    progress : callable, optional
        ``progress(expanded, generated, seconds, bound)``, at most every 2**16 expansions
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
        The first iteration's bound when it is above the start's h (no shorter solution
        exists), as in ``_idastar.idastar``.
    machine : numpy.ndarray, optional
        The duplicate-pruning machine, as in ``_idastar.idastar`` (None: parent pruning).

    Returns
    -------
    CoreResult
        Moves are blank directions.
    """
    cdef Search* s
    cdef Node root
    cdef list keep = []
    cdef int cell, n = rows * cols
    cdef unsigned int present = 0
    if not MIN_CELLS <= n <= MAX_CELLS or rows < 1 or cols < 1:
        raise ValueError(f"expected a board of {MIN_CELLS} to {MAX_CELLS} cells, got {rows}x{cols}")
    if cells.shape[0] != n or not 0 <= blank < n or cells[blank] != 0:
        raise ValueError("cells do not describe the board")
    for cell in range(n):
        if cells[cell] < n:
            present |= 1u << cells[cell]
    if present != (1u << n) - 1:
        raise ValueError("cells must hold every tile 0..n-1 once")
    if not 0 <= goal_blank < n:
        raise ValueError(f"goal blank {goal_blank} is not a cell")
    if workers < 1:
        raise ValueError(f"expected workers >= 1, got {workers}")
    s = <Search*>malloc(sizeof(Search))
    if s == NULL:
        raise MemoryError()
    try:
        s.n = n
        for cell in range(n):
            s.cells[cell] = cells[cell]
        init_board(s, rows, cols, goal_blank)
        init_groups(s, goal_blank, tables, keep)
        init_counters(&s.counters)
        init_control(&s.control, node_limit, time_limit, 0, progress)
        s.status = STATUS_RUNNING
        s.member.team = NULL
        s.collector = NULL
        s.machine = machine_table(machine, keep)
        s.machine_states = machine_states(machine)
        if max_depth < 0 or max_depth > MAX_PATH:
            max_depth = MAX_PATH
        init_root(s, &root, blank)
        return run_entry(&s, &root, workers, max_depth, keep, units, runner, progress, min_bound)
    finally:
        free(s)
