# The additive pattern databases as heuristics of the node driver (expand, _engine.pxi): one
# text for both encodings, included by _idastar.pyx (packed boards) and _wide_pdb.pyx (a byte a
# cell) before their Node, and compiled over each module's Search and Node. It holds the family's
# search state (PdbState) and snapshots (PdbNode; DualNode, dfs_dual's in _dual.pxi), which the
# hosts' unions of heuristic state hold, and the hooks their generic ones dispatch to.
#
# Two heuristics: PdbOne, one partition (h = Manhattan + 2 * the larger of the plain and
# reflected sums; every child's entries are prefetched together, and a reflected one is read
# only for a child the plain sum keeps within reach), and PdbSeveral, the largest sum of
# several partitions (pat and extra[:n_extra], each with its reflection): the first read for
# every child, the others together for the children the first keeps within reach (their cache
# misses overlapping), and a group that an earlier partition has too looked up once. Only reads
# are saved: every count is that of reading every table.
#
# A host defines, besides the engine's names:
#   enum MAX_EXTRA, EXTRA_GROUPS        the partitions after the first, and their groups
#   enum NODE_GROUPS                    the groups of a partition
#   Search field heur, a union with     PdbState pdb
#   Node field heur, a union with       PdbNode pdb, DualNode dual
#   uint64_t entry_of(const Group* grp, uint64_t index, int blank)
#                                       a group's table entry, the blank on ``blank`` (read by
#                                       zero-aware tables only)
#   int manhattan_change(const Search* s, int tile, int cell, int blank)
#                                       the Manhattan change when the tile moves cell -> blank

from libc.stdint cimport int32_t, uint8_t, uint64_t

from fastpuzzle._core._engine cimport FORBIDDEN
from fastpuzzle._core._pdbgroups cimport (
    Duals,
    GroupMove,
    Patterns,
    entry_address,
    fill_patterns,
    mirrored_child_index,
    move_mirrored,
    move_plain,
    pattern_h,
    plain_child_index,
    read_entry,
    restore_patterns,
    save_patterns,
    unmove_mirrored,
    unmove_plain,
)
from fastpuzzle._core._prefetch cimport prefetch


cdef struct PdbState:
    # One search's groups and their incremental state, plain and reflected; with a compound
    # (n_extra > 0) the other partitions and their sums on the node being searched; with dual
    # lookups (dfs_dual, one partition) their maps and incremental state.
    Patterns pat
    int n_extra
    int xplain[MAX_EXTRA]
    int xmirrored[MAX_EXTRA]
    Patterns extra[MAX_EXTRA]
    Duals duals


cdef struct PdbNode:
    # A frontier node's Manhattan distance and sums, and every partition's groups.
    int md
    int plain
    int mirrored
    uint64_t index[NODE_GROUPS]
    uint64_t mindex[NODE_GROUPS]
    int value[NODE_GROUPS]
    int mvalue[NODE_GROUPS]
    int xplain[MAX_EXTRA]
    int xmirrored[MAX_EXTRA]
    uint64_t xindex[MAX_EXTRA][EXTRA_GROUPS]
    uint64_t xmindex[MAX_EXTRA][EXTRA_GROUPS]
    int xvalue[MAX_EXTRA][EXTRA_GROUPS]
    int xmvalue[MAX_EXTRA][EXTRA_GROUPS]


cdef struct DualNode:
    # dfs_dual's frontier node (_dual.pxi): as PdbNode's first partition, and the dual sums and
    # dual boards.
    int md
    int plain
    int mirrored
    uint64_t index[NODE_GROUPS]
    uint64_t mindex[NODE_GROUPS]
    int value[NODE_GROUPS]
    int mvalue[NODE_GROUPS]
    int dual
    int dmirrored
    uint64_t dindex[2][NODE_GROUPS]
    int dvalue[2][NODE_GROUPS]


cdef struct PdbOne:
    int md                      # the node's Manhattan distance and sums
    int plain
    int mirrored
    uint64_t index[4]           # its children's group indices and entries, plain and
    uint64_t entry[4]           # reflected (look_ahead)
    uint64_t mindex[4]
    uint64_t mentry[4]
    int grp                     # the node's move from its parent: the groups it changes
    int mgrp
    GroupMove saved             # what leave_child puts back
    GroupMove msaved


cdef struct ExtraChild:
    # A child's sums in the other partitions of a compound, plain and reflected, and the moved
    # tile's group's new index and table entry there, found before the child is entered.
    int sum[MAX_EXTRA][2]
    uint64_t index[MAX_EXTRA][2]
    uint64_t entry[MAX_EXTRA][2]


cdef struct PdbSeveral:
    int md
    int plain
    int mirrored
    # its children's (look_ahead): the first partition's entries, f and whether it is within
    # reach, and their sums in the other partitions
    uint64_t index[4]
    uint64_t entry[4]
    uint64_t mindex[4]
    uint64_t mentry[4]
    int f[4]
    bint enters[4]
    ExtraChild children[4]
    # the node's move from its parent, and what leave_child puts back
    int grp
    int mgrp
    GroupMove saved
    GroupMove msaved
    GroupMove xsaved[2 * MAX_EXTRA]
    int xsums[2 * MAX_EXTRA]


ctypedef fused Pdb:
    PdbOne
    PdbSeveral


cdef inline bint within_reach(const Search* s, int f) noexcept nogil:
    # Whether a child of that f (or more) must be read in full: within the bound, or lowering
    # the next bound (its exact f then counts).
    return f <= s.bound or f < s.next_bound


cdef inline int pdb_h(const Search* s, const Pdb* v) noexcept nogil:
    # Manhattan + 2 * the largest sum: plain and reflected, of one partition or of each.
    cdef int best = v.plain if v.plain >= v.mirrored else v.mirrored
    cdef int j
    if Pdb is PdbSeveral:
        for j in range(s.heur.pdb.n_extra):
            if s.heur.pdb.xplain[j] > best:
                best = s.heur.pdb.xplain[j]
            if s.heur.pdb.xmirrored[j] > best:
                best = s.heur.pdb.xmirrored[j]
    return v.md + 2 * best


cdef inline void first_entries(Search* s, BoardWord board, int blank, int32_t state,
                               Pdb* v) noexcept nogil:
    # Every child's entries in the first partition, plain and reflected, prefetched: the tables
    # are megabytes, so lookups miss the cache, and issuing them together lets the misses
    # overlap. A reflected entry is read only for a child the plain sum keeps within reach.
    cdef const Patterns* p = &s.heur.pdb.pat
    cdef int k, cell, tile, grp
    for k in range(s.n_moves[blank]):
        if child_state(s, state, blank, k) == FORBIDDEN:
            continue
        cell = s.move_cell[blank][k]
        tile = tile_on(s, board, cell)
        grp = p.group_of[tile]
        if grp >= 0:
            v.index[k] = plain_child_index(p, grp, tile, blank, cell)
            v.entry[k] = entry_of(&p.groups[grp], v.index[k], cell)
            prefetch(entry_address(&p.groups[grp], v.entry[k]))
        grp = p.mgroup_of[tile] if p.mirror else -1
        if grp >= 0:
            v.mindex[k] = mirrored_child_index(p, grp, tile, blank, cell)
            v.mentry[k] = entry_of(&p.groups[grp], v.mindex[k], p.reflect_cell[cell])
            prefetch(entry_address(&p.groups[grp], v.mentry[k]))


cdef inline void extra_entries(Search* s, int j, int tile, int blank, int cell, int k,
                               PdbSeveral* v) noexcept nogil:
    # Partition j's indices and table entries in child k, prefetched; a group that an earlier
    # partition has too (same_as) takes that partition's, found already: a compound's
    # partitions share about half their groups.
    cdef Patterns* p = &s.heur.pdb.extra[j]
    cdef ExtraChild* child = &v.children[k]
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    cdef int same
    if grp >= 0:
        same = p.same_as[grp]
        if same == 0:
            child.index[j][0] = v.index[k]
            child.entry[j][0] = v.entry[k]
        elif same > 0:
            child.index[j][0] = child.index[same - 1][0]
            child.entry[j][0] = child.entry[same - 1][0]
        else:
            child.index[j][0] = plain_child_index(p, grp, tile, blank, cell)
            child.entry[j][0] = entry_of(&p.groups[grp], child.index[j][0], cell)
            prefetch(entry_address(&p.groups[grp], child.entry[j][0]))
    if mgrp >= 0:
        same = p.same_as[mgrp]
        if same == 0:
            child.index[j][1] = v.mindex[k]
            child.entry[j][1] = v.mentry[k]
        elif same > 0:
            child.index[j][1] = child.index[same - 1][1]
            child.entry[j][1] = child.entry[same - 1][1]
        else:
            child.index[j][1] = mirrored_child_index(p, mgrp, tile, blank, cell)
            child.entry[j][1] = entry_of(&p.groups[mgrp], child.index[j][1],
                                         p.reflect_cell[cell])
            prefetch(entry_address(&p.groups[mgrp], child.entry[j][1]))


cdef inline int extra_sums(Search* s, int j, int tile, ExtraChild* child) noexcept nogil:
    # Partition j's sums in a child (its entries found by extra_entries): 2 * the larger.
    cdef Patterns* p = &s.heur.pdb.extra[j]
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    cdef int plain = s.heur.pdb.xplain[j], mirrored = s.heur.pdb.xmirrored[j]
    if grp >= 0:
        plain += read_entry(&p.groups[grp], child.entry[j][0]) - p.value[grp]
    if mgrp >= 0:
        mirrored += read_entry(&p.groups[mgrp], child.entry[j][1]) - p.mvalue[mgrp]
    child.sum[j][0] = plain
    child.sum[j][1] = mirrored
    return 2 * (plain if plain >= mirrored else mirrored)


cdef void several_look_ahead(Search* s, BoardWord board, int blank, int depth, int32_t state,
                             PdbSeveral* v) noexcept nogil:
    # Which children a compound reads in full: a child whose f from the first partition is out
    # of reach is cut whatever the others say, so they are read only for the children it keeps.
    cdef Patterns* p = &s.heur.pdb.pat
    cdef int k, j, cell, tile, grp, mgrp, child_plain, value
    cdef int base[4]
    first_entries(s, board, blank, state, v)
    for k in range(s.n_moves[blank]):
        v.enters[k] = child_state(s, state, blank, k) != FORBIDDEN
        if not v.enters[k]:
            continue
        cell = s.move_cell[blank][k]
        tile = tile_on(s, board, cell)
        child_plain = v.plain
        grp = p.group_of[tile]
        if grp >= 0:
            child_plain += read_entry(&p.groups[grp], v.entry[k]) - p.value[grp]
        value = v.mirrored
        mgrp = p.mgroup_of[tile] if p.mirror else -1
        if mgrp >= 0:
            value += read_entry(&p.groups[mgrp], v.mentry[k]) - p.mvalue[mgrp]
        if child_plain > value:
            value = child_plain
        base[k] = depth + 1 + v.md + manhattan_change(s, tile, cell, blank)
        v.f[k] = base[k] + 2 * value
        v.enters[k] = within_reach(s, v.f[k])
    # Every other partition's entries for the children the first keeps, requested at once: a
    # round of misses a partition (read, then cut) made a chain of n_extra memory latencies a
    # node; most of those children are entered and read every partition anyway.
    for k in range(s.n_moves[blank]):
        if v.enters[k]:
            cell = s.move_cell[blank][k]
            tile = tile_on(s, board, cell)
            for j in range(s.heur.pdb.n_extra):
                extra_entries(s, j, tile, blank, cell, k, v)
    for k in range(s.n_moves[blank]):
        if v.enters[k]:
            tile = tile_on(s, board, s.move_cell[blank][k])
            for j in range(s.heur.pdb.n_extra):
                value = base[k] + extra_sums(s, j, tile, &v.children[k])
                if value > v.f[k]:
                    v.f[k] = value
            v.enters[k] = within_reach(s, v.f[k])


cdef inline void pdb_look_ahead(Search* s, BoardWord board, int blank, int depth, int32_t state,
                                Pdb* v) noexcept nogil:
    if Pdb is PdbOne:
        first_entries(s, board, blank, state, v)
    else:
        several_look_ahead(s, board, blank, depth, state, v)


cdef inline int pdb_child_f(Search* s, int blank, int cell, int tile, int k, int depth,
                            Pdb* v, Pdb* child) noexcept nogil:
    # Child k's f and sums (the compound's found by its look-ahead, which left a cut child's f
    # short).
    cdef Patterns* p = &s.heur.pdb.pat
    cdef int f
    child.md = v.md + manhattan_change(s, tile, cell, blank)
    child.plain = v.plain
    child.mirrored = v.mirrored
    child.grp = p.group_of[tile]
    child.mgrp = p.mgroup_of[tile] if p.mirror else -1
    if Pdb is PdbSeveral:
        if not v.enters[k]:
            return v.f[k]
        if child.grp >= 0:
            child.plain += read_entry(&p.groups[child.grp], v.entry[k]) - p.value[child.grp]
        if child.mgrp >= 0:
            child.mirrored += (read_entry(&p.groups[child.mgrp], v.mentry[k])
                               - p.mvalue[child.mgrp])
        return v.f[k]
    else:
        if child.grp >= 0:
            child.plain += read_entry(&p.groups[child.grp], v.entry[k]) - p.value[child.grp]
        f = depth + 1 + child.md + 2 * child.plain
        if child.mgrp < 0:
            # The reflected sum does not change.
            return depth + 1 + pattern_h(child.md, child.plain, child.mirrored)
        if not within_reach(s, f):
            # Cut by the plain sum alone, its f (at least this) unable to lower the next bound:
            # the reflected lookup would change nothing.
            return f
        child.mirrored += read_entry(&p.groups[child.mgrp], v.mentry[k]) - p.mvalue[child.mgrp]
        return depth + 1 + pattern_h(child.md, child.plain, child.mirrored)


cdef inline void pdb_enter_child(Search* s, int tile, int k, Pdb* v, Pdb* child) noexcept nogil:
    # s's groups (and a compound's other partitions) take the child's placement.
    cdef Patterns* p = &s.heur.pdb.pat
    cdef int j
    if child.grp >= 0:
        move_plain(p, child.grp, v.index[k], v.entry[k], &child.saved)
    if child.mgrp >= 0:
        move_mirrored(p, child.mgrp, v.mindex[k], v.mentry[k], &child.msaved)
    if Pdb is PdbSeveral:
        for j in range(s.heur.pdb.n_extra):
            move_extra(s, j, tile, &v.children[k], child.xsaved, child.xsums)


cdef inline void pdb_leave_child(Search* s, int tile, Pdb* child) noexcept nogil:
    cdef Patterns* p = &s.heur.pdb.pat
    cdef int j
    if child.grp >= 0:
        unmove_plain(p, child.grp, &child.saved)
    if child.mgrp >= 0:
        unmove_mirrored(p, child.mgrp, &child.msaved)
    if Pdb is PdbSeveral:
        for j in range(s.heur.pdb.n_extra):
            unmove_extra(s, j, tile, child.xsaved, child.xsums)


cdef inline void move_extra(Search* s, int j, int tile, const ExtraChild* child,
                            GroupMove* saved, int* sums) noexcept nogil:
    # Partition j of a compound takes the child's placement (read by the look-ahead); ``saved``
    # and ``sums`` keep what unmove_extra puts back, two a partition.
    cdef Patterns* p = &s.heur.pdb.extra[j]
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    if grp >= 0:
        move_plain(p, grp, child.index[j][0], child.entry[j][0], &saved[2 * j])
    if mgrp >= 0:
        move_mirrored(p, mgrp, child.index[j][1], child.entry[j][1], &saved[2 * j + 1])
    sums[2 * j] = s.heur.pdb.xplain[j]
    sums[2 * j + 1] = s.heur.pdb.xmirrored[j]
    s.heur.pdb.xplain[j] = child.sum[j][0]
    s.heur.pdb.xmirrored[j] = child.sum[j][1]


cdef inline void unmove_extra(Search* s, int j, int tile, const GroupMove* saved,
                              const int* sums) noexcept nogil:
    cdef Patterns* p = &s.heur.pdb.extra[j]
    cdef int grp = p.group_of[tile]
    cdef int mgrp = p.mgroup_of[tile] if p.mirror else -1
    s.heur.pdb.xplain[j] = sums[2 * j]
    s.heur.pdb.xmirrored[j] = sums[2 * j + 1]
    if grp >= 0:
        unmove_plain(p, grp, &saved[2 * j])
    if mgrp >= 0:
        unmove_mirrored(p, mgrp, &saved[2 * j + 1])


cdef inline int pdb_goal(const Search* s, const Pdb* v) noexcept nogil:
    # Manhattan: 0 exactly on the goal.
    return v.md


cdef inline void pdb_save(const Search* s, Node* node, const Pdb* v) noexcept nogil:
    # A frontier node's sums and every partition's groups.
    cdef const PdbState* p = &s.heur.pdb
    cdef PdbNode* saved = &node.heur.pdb
    cdef int j
    saved.md = v.md
    saved.plain = v.plain
    saved.mirrored = v.mirrored
    save_patterns(&p.pat, saved.index, saved.value, saved.mindex, saved.mvalue)
    if Pdb is PdbSeveral:
        for j in range(p.n_extra):
            saved.xplain[j] = p.xplain[j]
            saved.xmirrored[j] = p.xmirrored[j]
            save_patterns(&p.extra[j], saved.xindex[j], saved.xvalue[j], saved.xmindex[j],
                          saved.xmvalue[j])


cdef inline void pdb_load(Search* s, const Node* node, Pdb* v) noexcept nogil:
    # The inverse of pdb_save.
    cdef PdbState* p = &s.heur.pdb
    cdef const PdbNode* saved = &node.heur.pdb
    cdef int j
    v.md = saved.md
    v.plain = saved.plain
    v.mirrored = saved.mirrored
    restore_patterns(&p.pat, saved.index, saved.value, saved.mindex, saved.mvalue)
    if Pdb is PdbSeveral:
        for j in range(p.n_extra):
            p.xplain[j] = saved.xplain[j]
            p.xmirrored[j] = saved.xmirrored[j]
            restore_patterns(&p.extra[j], saved.xindex[j], saved.xvalue[j], saved.xmindex[j],
                             saved.xmvalue[j])


cdef inline void pdb_root(Search* s, const uint8_t* tile_at, int n, int md,
                          Pdb* v) noexcept nogil:
    # The start's sums (its Manhattan distance ``md``), with s's groups (every partition's)
    # filled from the whole board.
    cdef PdbState* p = &s.heur.pdb
    cdef int j
    v.md = md
    v.plain = fill_patterns(&p.pat, tile_at, n, 0)
    v.mirrored = fill_patterns(&p.pat, tile_at, n, 1) if p.pat.mirror else 0
    if Pdb is PdbSeveral:
        for j in range(p.n_extra):
            p.xplain[j] = fill_patterns(&p.extra[j], tile_at, n, 0)
            p.xmirrored[j] = fill_patterns(&p.extra[j], tile_at, n, 1) if p.extra[j].mirror else 0
