# Pattern-database groups as the IDA* drivers read them: _idastar (packed boards, up to 16 cells)
# and _wide_pdb (a byte per cell, 17 to 64 cells). Each group has one table, indexed by its
# sparse index (cells packed ``bits`` bits per slot) or by its compact rank (see _ranking.pxd),
# with 4-bit or 8-bit entries holding (value - Manhattan of the group) / 2 (see _pdb.pyx).

from libc.stdint cimport uint8_t, uint64_t

from fastpuzzle._core._packed cimport goal_cell_of
from fastpuzzle._core._prefetch cimport prefetch
from fastpuzzle._core._ranking cimport compact_rank_bits, init_weights
from fastpuzzle._core._zero cimport ZeroLayout, zero_entry

cdef enum:
    GROUP_MAX_CELLS = 64
    GROUP_MAX_COUNT = 24
    # Tiles in one group: a rank weight each. (Sized by tiles, not cells, so that the packed
    # kernel's groups did not grow when boards went past 25 cells.)
    GROUP_MAX_TILES = 16
    # A compound heuristic past 16 cells: the largest of several partitions' sums, each with
    # its reflection. The partitions after the first, and the groups each of them may have.
    EXTRA_MAX_COUNT = 7
    EXTRA_MAX_GROUPS = 8

cdef struct Group:
    int k
    int sparse              # 1: index = cells packed ``bits`` per slot; 0: compact rank
    int nibble              # 1: two entries per byte; 0: one byte per entry
    int bits
    const uint8_t* data
    uint64_t weight[GROUP_MAX_TILES]    # compact rank: weight of slot i
    # zero-aware (see _zero.pxd): the entry depends on the blank's region too
    int zero
    const ZeroLayout* layout

cdef inline uint64_t group_entry(const Group* grp, uint64_t index) noexcept nogil:
    # The table entry of a placement given by its sparse index.
    if grp.sparse:
        return index
    return compact_rank_bits(index, grp.k, grp.weight, grp.bits)

cdef inline uint64_t group_entry_at(const Group* grp, uint64_t index, int blank) noexcept nogil:
    # The table entry of a placement given by its sparse index, the blank on ``blank`` (read by
    # zero-aware tables only).
    if grp.zero:
        return zero_entry(grp.layout, index, grp.k, grp.bits, blank, grp.weight, NULL, 0)
    return group_entry(grp, index)

cdef inline int read_entry(const Group* grp, uint64_t entry) noexcept nogil:
    if grp.nibble:
        return (grp.data[entry >> 1] >> ((entry & 1) << 2)) & 15
    return grp.data[entry]

cdef inline const uint8_t* entry_address(const Group* grp, uint64_t entry) noexcept nogil:
    return &grp.data[entry >> 1] if grp.nibble else &grp.data[entry]

cdef inline int load_groups(
    Group* out, int* group_of, int* shift_of, int n, int bits, groups, list keep, zero=None
) except -1:
    # Fill out[] from ``(tiles, sparse, nibble, table)`` per group, checking that every table
    # covers its index range and no tile is in two groups; group_of[tile] is -1 for tiles in no
    # group. ``zero``: (rows, cols) when the tables are zero-aware. The tables (and zero-aware
    # maps) are appended to ``keep``, which the caller holds for the search. Returns the number
    # of groups.
    cdef const uint8_t[::1] table
    cdef const uint8_t[::1] layout_bytes
    cdef int grp, slot, tile, k, i
    cdef uint64_t entries
    if not groups or len(groups) > GROUP_MAX_COUNT or n > GROUP_MAX_CELLS:
        raise ValueError(f"expected 1 to {GROUP_MAX_COUNT} pattern-database groups")
    for tile in range(n):
        group_of[tile] = -1
        shift_of[tile] = 0
    for grp, (tiles, sparse, nibble, data) in enumerate(groups):
        table = data
        keep.append(data)
        k = len(tiles)
        if not 1 <= k < n or k > GROUP_MAX_TILES or k * bits > 64:
            raise ValueError(f"pattern-database group {grp} does not fit its table")
        out[grp].zero = 0
        if zero is not None:
            if sparse:
                raise ValueError("zero-aware tables are compact, not sparse")
            from fastpuzzle._core._pdb import zero_layout
            layout = zero_layout(zero[0], zero[1], k)
            keep.append(layout)
            layout_bytes = layout[0]
            out[grp].zero = 1
            out[grp].layout = <const ZeroLayout*>&layout_bytes[0]
            entries = layout[2]
        elif sparse:
            entries = (<uint64_t>1) << (bits * k)
        else:
            entries = 1
            for i in range(k):
                entries *= n - i
        if nibble:
            entries = (entries + 1) // 2
        # A table shorter than its group's index range would be read out of bounds.
        if <uint64_t>table.shape[0] < entries:
            raise ValueError(f"pattern-database group {grp} does not fit its table")
        out[grp].k = k
        out[grp].sparse = 1 if sparse else 0
        out[grp].nibble = 1 if nibble else 0
        out[grp].bits = bits
        out[grp].data = &table[0]
        init_weights(out[grp].weight, k, n)
        for slot, tile in enumerate(tiles):
            if not 1 <= tile < n or group_of[tile] != -1:
                raise ValueError(f"tile {tile} is not a tile or is in two groups")
            group_of[tile] = grp
            shift_of[tile] = bits * slot
    return len(groups)

cdef inline int load_mirror(
    int* reflect_cell, int* mgroup_of, int* mshift_of, const int* group_of, const int* shift_of,
    int n, int goal_blank, reflect
) except -1:
    # For the lookups of the board mirrored about the main diagonal: reflect_cell[] from
    # ``reflect``, and for each tile the group and shift of the tile whose goal cell mirrors its
    # own (that tile stands in for it on the mirrored board).
    cdef int cell, tile, mirror
    cdef int tile_at[GROUP_MAX_CELLS]
    if sorted(reflect) != list(range(n)) or reflect[goal_blank] != goal_blank:
        raise ValueError("reflect must permute the cells and fix the goal blank")
    for cell in range(n):
        reflect_cell[cell] = reflect[cell]
    tile_at[goal_blank] = 0
    for tile in range(1, n):
        tile_at[goal_cell_of(tile, goal_blank)] = tile
    mgroup_of[0] = -1
    mshift_of[0] = 0
    for tile in range(1, n):
        mirror = tile_at[reflect_cell[goal_cell_of(tile, goal_blank)]]
        mgroup_of[tile] = group_of[mirror]
        mshift_of[tile] = shift_of[mirror]
    return 0


# ---------------------------------------------------------------------------------------------
# The incremental state both IDA* kernels keep: one text for the packed and the wide encodings,
# so an index formula or a snapshot field cannot drift between them.

cdef struct Patterns:
    # What every node reads first, then the mirrored side, then the groups (the largest part:
    # each holds 16 rank weights, and only the first n_groups are used).
    int n_groups
    int mirror                          # 1: also look up the board mirrored about the diagonal
    int group_of[GROUP_MAX_CELLS]       # [tile] -> group, or -1 (the tile counts its Manhattan)
    int shift_of[GROUP_MAX_CELLS]       # [tile] -> bits * slot
    uint64_t index[GROUP_MAX_COUNT]     # each group's sparse index on the board
    int value[GROUP_MAX_COUNT]          # and its table value
    int mgroup_of[GROUP_MAX_CELLS]      # [tile] -> group of the tile that mirrors it
    int mshift_of[GROUP_MAX_CELLS]
    int reflect_cell[GROUP_MAX_CELLS]
    uint64_t mindex[GROUP_MAX_COUNT]    # the same on the mirrored board
    int mvalue[GROUP_MAX_COUNT]
    # A compound's later partition: per group, the earlier partition (0: the first, j + 1: its
    # j-th other one) that has this very group (the same table and slots), whose lookup after
    # a move it can take instead of its own; -1: none.
    int same_as[GROUP_MAX_COUNT]
    Group groups[GROUP_MAX_COUNT]

cdef inline int load_patterns(Patterns* p, int n, int bits, int goal_blank, groups, reflect,
                              list keep, zero=None) except -1:
    # Fill p's groups (and their mirror when ``reflect`` is not None) from the tables.
    cdef int grp
    p.n_groups = load_groups(p.groups, p.group_of, p.shift_of, n, bits, groups, keep, zero)
    for grp in range(GROUP_MAX_COUNT):
        p.same_as[grp] = -1
    p.mirror = 0
    if reflect is not None:
        load_mirror(p.reflect_cell, p.mgroup_of, p.mshift_of, p.group_of, p.shift_of, n,
                    goal_blank, reflect)
        p.mirror = 1
    return 0

cdef inline int fill_patterns(Patterns* p, const uint8_t* tile_at, int n,
                              int mirrored) noexcept nogil:
    # Every group's index and value (plain, or mirrored) from a whole board; returns their sum.
    cdef int cell, tile, grp, total = 0, blank = 0
    cdef uint64_t* index = &p.mindex[0] if mirrored else &p.index[0]
    cdef int* value = &p.mvalue[0] if mirrored else &p.value[0]
    for grp in range(p.n_groups):
        index[grp] = 0
    for cell in range(n):
        tile = tile_at[cell]
        if tile == 0:
            blank = p.reflect_cell[cell] if mirrored else cell
            continue
        if mirrored:
            grp = p.mgroup_of[tile]
            if grp >= 0:
                index[grp] |= (<uint64_t>p.reflect_cell[cell]) << p.mshift_of[tile]
        else:
            grp = p.group_of[tile]
            if grp >= 0:
                index[grp] |= (<uint64_t>cell) << p.shift_of[tile]
    for grp in range(p.n_groups):
        value[grp] = read_entry(&p.groups[grp],
                                group_entry_at(&p.groups[grp], index[grp], blank))
        total += value[grp]
    return total

cdef inline uint64_t plain_child_index(const Patterns* p, int grp, int tile, int blank,
                                       int cell) noexcept nogil:
    # Group grp's index once ``tile`` slides from ``cell`` into the blank's cell.
    return (p.index[grp] + ((<uint64_t>blank) << p.shift_of[tile])
            - ((<uint64_t>cell) << p.shift_of[tile]))

cdef inline uint64_t mirrored_child_index(const Patterns* p, int mgrp, int tile, int blank,
                                          int cell) noexcept nogil:
    # The same on the mirrored board, where the move is reflected too.
    return (p.mindex[mgrp] + ((<uint64_t>p.reflect_cell[blank]) << p.mshift_of[tile])
            - ((<uint64_t>p.reflect_cell[cell]) << p.mshift_of[tile]))

cdef inline int pattern_h(int md, int plain, int mirrored) noexcept nogil:
    # The kernels' h: Manhattan plus twice the larger of the plain and mirrored sums (tables
    # hold (value - Manhattan of the group) / 2).
    return md + 2 * (plain if plain >= mirrored else mirrored)

cdef inline int four_h(int md, int plain, int mirrored, int dual, int dmirrored) noexcept nogil:
    # With dual lookups: Manhattan plus twice the largest of the four sums (plain, reflected,
    # dual, dual reflected).
    cdef int best = plain
    if mirrored > best:
        best = mirrored
    if dual > best:
        best = dual
    if dmirrored > best:
        best = dmirrored
    return md + 2 * best

cdef inline void save_patterns(const Patterns* p, uint64_t* index, int* value, uint64_t* mindex,
                               int* mvalue) noexcept nogil:
    # A frontier node's copy of the groups' state (arrays of at least p.n_groups).
    cdef int i
    for i in range(p.n_groups):
        index[i] = p.index[i]
        value[i] = p.value[i]
        if p.mirror:
            mindex[i] = p.mindex[i]
            mvalue[i] = p.mvalue[i]

cdef inline void restore_patterns(Patterns* p, const uint64_t* index, const int* value,
                                  const uint64_t* mindex, const int* mvalue) noexcept nogil:
    # The inverse of save_patterns.
    cdef int i
    for i in range(p.n_groups):
        p.index[i] = index[i]
        p.value[i] = value[i]
        if p.mirror:
            p.mindex[i] = mindex[i]
            p.mvalue[i] = mvalue[i]

# A move's update of one group, and its undo: the one text of the kernels' inner loops. A
# GroupMove keeps what the undo puts back.

cdef struct GroupMove:
    uint64_t index
    int value

cdef inline int move_plain(Patterns* p, int grp, uint64_t index, uint64_t entry,
                           GroupMove* saved) noexcept nogil:
    # Group grp takes ``index`` (its table entry ``entry``, found earlier so that the read
    # could be prefetched); returns the change of the plain sum.
    saved.index = p.index[grp]
    saved.value = p.value[grp]
    p.index[grp] = index
    p.value[grp] = read_entry(&p.groups[grp], entry)
    return p.value[grp] - saved.value

cdef inline void unmove_plain(Patterns* p, int grp, const GroupMove* saved) noexcept nogil:
    p.index[grp] = saved.index
    p.value[grp] = saved.value

cdef inline int move_mirrored(Patterns* p, int mgrp, uint64_t index, uint64_t entry,
                              GroupMove* saved) noexcept nogil:
    # The same on the mirrored board; returns the change of the mirrored sum.
    saved.index = p.mindex[mgrp]
    saved.value = p.mvalue[mgrp]
    p.mindex[mgrp] = index
    p.mvalue[mgrp] = read_entry(&p.groups[mgrp], entry)
    return p.mvalue[mgrp] - saved.value

cdef inline void unmove_mirrored(Patterns* p, int mgrp, const GroupMove* saved) noexcept nogil:
    p.mindex[mgrp] = saved.index
    p.mvalue[mgrp] = saved.value


# ---------------------------------------------------------------------------------------------
# Dual lookups: the same tables read on the dual board, the inverse permutation. Labels are goal
# cells (the tile that belongs on cell c is label c). The dual board puts label p where the tile
# standing on p belongs, so a group's dual index holds, per slot, the goal cell of the tile on
# that slot's goal cell. A board whose blank is on b has a dual whose blank is label b and whose
# goal has the blank on b: a group is read for that goal only where its table is a lower bound
# there (``choice``: none when the group holds b's goal cell, its own table when b lies in the
# region of free cells its table was built from, an ``alt`` table built for b's region, or none).
# Mirrored about the diagonal, the same holds with every cell reflected. See
# tests/dual_reference.py for the derivation and a plain-Python copy.

cdef enum:
    DUAL_NONE = -1          # the group counts nothing for that goal blank
    DUAL_MAIN = 0           # its own table
    DUAL_ALT = 1            # its table for the other region of free cells

cdef struct DualSide:
    # One dual board's groups: their sparse indices (every slot, the blank's label's too) and
    # the table values of the groups that count.
    uint64_t index[GROUP_MAX_COUNT]
    int value[GROUP_MAX_COUNT]

cdef struct Duals:
    int mirror                              # 1: the mirrored dual board too
    int bits
    int label_group[GROUP_MAX_CELLS]        # [goal cell] -> the group of its label, or -1
    int label_shift[GROUP_MAX_CELLS]        # [goal cell] -> bits * slot of its label
    int home[GROUP_MAX_CELLS]               # [tile] -> goal cell
    int reflect_cell[GROUP_MAX_CELLS]
    signed char choice[GROUP_MAX_COUNT][GROUP_MAX_CELLS]    # [group][goal blank] -> DUAL_*
    DualSide side[2]                        # the dual board, and the mirrored dual board
    Group alt[GROUP_MAX_COUNT]              # DUAL_ALT tables (only the groups that have one)

cdef struct DualStep:
    # What one move does to one dual board, found (and its table read prefetched) before the
    # move is made.
    int grp                 # the group whose index changes (the old blank cell's label's), or -1
    uint64_t index          # its new index
    uint64_t entry          # and table entry, when it counts in the child
    const Group* table      # the table it reads there, or NULL (it counts nothing)
    int drop                # the value that leaves the sum (the new blank cell's label's group)

cdef inline const Group* dual_table(const Duals* d, const Patterns* p, int grp,
                                    int goal_blank) noexcept nogil:
    # The table group ``grp`` reads on a dual board whose goal blank is ``goal_blank``.
    cdef int c = d.choice[grp][goal_blank]
    if c == DUAL_MAIN:
        return &p.groups[grp]
    if c == DUAL_ALT:
        return &d.alt[grp]
    return NULL

cdef inline int fill_dual(Duals* d, const Patterns* p, int which, const uint8_t* tile_at, int n,
                          int blank) noexcept nogil:
    # Dual board ``which`` (0: plain, 1: mirrored) of a whole board: every group's index, and
    # the sum of the values of the groups that count.
    cdef DualSide* side = &d.side[which]
    cdef const Group* table
    cdef int cell, label, grp, goal_blank, total = 0
    cdef uint64_t location
    for grp in range(p.n_groups):
        side.index[grp] = 0
        side.value[grp] = 0
    for cell in range(n):
        if tile_at[cell] == 0:
            continue
        location = d.home[tile_at[cell]]
        label = cell
        if which:
            label = d.reflect_cell[cell]
            location = d.reflect_cell[location]
        grp = d.label_group[label]
        if grp >= 0:
            side.index[grp] |= location << d.label_shift[label]
    goal_blank = d.reflect_cell[blank] if which else blank
    for grp in range(p.n_groups):
        table = dual_table(d, p, grp, goal_blank)
        if table != NULL:
            side.value[grp] = read_entry(table, group_entry(table, side.index[grp]))
            total += side.value[grp]
    return total

cdef inline void dual_step(const Duals* d, const Patterns* p, int which, int blank, int cell,
                           int tile, DualStep* out) noexcept nogil:
    # Dual board ``which`` once ``tile`` slides from ``cell`` into ``blank``: label ``blank``
    # takes the tile's goal cell as its place, and label ``cell`` becomes the blank.
    cdef const DualSide* side = &d.side[which]
    cdef uint64_t location = d.home[tile]
    cdef uint64_t mask = ((<uint64_t>1) << d.bits) - 1
    cdef int grp, shift, old_goal_blank
    if which:
        blank = d.reflect_cell[blank]
        cell = d.reflect_cell[cell]
        location = d.reflect_cell[location]
    old_goal_blank = blank
    grp = d.label_group[blank]
    out.grp = grp
    out.table = NULL
    if grp >= 0:
        shift = d.label_shift[blank]
        out.index = side.index[grp] - (((side.index[grp] >> shift) & mask) << shift) + (
            location << shift)
        out.table = dual_table(d, p, grp, cell)
        if out.table != NULL:
            out.entry = group_entry(out.table, out.index)
            prefetch(entry_address(out.table, out.entry))
    out.drop = 0
    grp = d.label_group[cell]
    if grp >= 0 and dual_table(d, p, grp, old_goal_blank) != NULL:
        out.drop = side.value[grp]

cdef inline int dual_change(const DualStep* step) noexcept nogil:
    # The change of the dual sum that the step makes.
    if step.table != NULL:
        return read_entry(step.table, step.entry) - step.drop
    return -step.drop

cdef inline void apply_dual(Duals* d, int which, const DualStep* step,
                            GroupMove* saved) noexcept nogil:
    cdef DualSide* side = &d.side[which]
    if step.grp < 0:
        return
    saved.index = side.index[step.grp]
    saved.value = side.value[step.grp]
    side.index[step.grp] = step.index
    if step.table != NULL:
        side.value[step.grp] = read_entry(step.table, step.entry)

cdef inline void unapply_dual(Duals* d, int which, const DualStep* step,
                              const GroupMove* saved) noexcept nogil:
    if step.grp < 0:
        return
    d.side[which].index[step.grp] = saved.index
    d.side[which].value[step.grp] = saved.value
