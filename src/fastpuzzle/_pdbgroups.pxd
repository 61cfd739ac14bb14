# Pattern-database groups as the IDA* drivers read them: _idastar (packed boards, up to 16 cells)
# and _wide_pdb (a byte per cell, 17 to 25 cells). Each group has one table, indexed by its
# sparse index (cells packed ``bits`` bits per slot) or by its compact rank (see _ranking.pxd),
# with 4-bit or 8-bit entries holding (value - Manhattan of the group) / 2 (see _pdb.pyx).

from libc.stdint cimport uint8_t, uint64_t

from fastpuzzle._packed cimport goal_cell_of
from fastpuzzle._ranking cimport compact_rank_bits, init_weights

cdef enum:
    GROUP_MAX_CELLS = 25
    GROUP_MAX_COUNT = 24

cdef struct Group:
    int k
    int sparse              # 1: index = cells packed ``bits`` per slot; 0: compact rank
    int nibble              # 1: two entries per byte; 0: one byte per entry
    int bits
    const uint8_t* data
    uint64_t weight[GROUP_MAX_CELLS]    # compact rank: weight of slot i

cdef inline uint64_t group_entry(const Group* grp, uint64_t index) noexcept nogil:
    # The table entry of a placement given by its sparse index.
    if grp.sparse:
        return index
    return compact_rank_bits(index, grp.k, grp.weight, grp.bits)

cdef inline int read_entry(const Group* grp, uint64_t entry) noexcept nogil:
    if grp.nibble:
        return (grp.data[entry >> 1] >> ((entry & 1) << 2)) & 15
    return grp.data[entry]

cdef inline const uint8_t* entry_address(const Group* grp, uint64_t entry) noexcept nogil:
    return &grp.data[entry >> 1] if grp.nibble else &grp.data[entry]

cdef inline int load_groups(
    Group* out, int* group_of, int* shift_of, int n, int bits, groups, list keep
) except -1:
    # Fill out[] from ``(tiles, sparse, nibble, table)`` per group, checking that every table
    # covers its index range and no tile is in two groups; group_of[tile] is -1 for tiles in no
    # group. The tables are appended to ``keep``, which the caller holds for the search. Returns
    # the number of groups.
    cdef const uint8_t[::1] table
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
        if not 1 <= k < n:
            raise ValueError(f"pattern-database group {grp} does not fit its table")
        if sparse:
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
