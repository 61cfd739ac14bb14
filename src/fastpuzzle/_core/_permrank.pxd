# Perfect hashing of packed boards of up to 12 cells: each board that a search can reach gets its
# own index below cells!/2, so a search can keep a byte per board in a flat array, with no hash,
# no probing and no rehash.
#
# A board is its blank cell plus its tile sequence: the tiles in row-major order with the blank
# skipped. A horizontal move changes only the blank's cell (the sequence is unchanged, so a child's
# rank is its parent's); a vertical move carries one tile past cols - 1 others, and only then is
# the sequence ranked again.
#
# The sequence is ranked by its Lehmer code: digit j counts the later tiles smaller than tile j,
# and the rank is the sum of digit j * (N - 1 - j)! for N tiles. The last digit is always 0 and
# the one before it is fixed by the sequence's parity. For one blank cell every reachable board
# has the same parity (a closed walk of the blank moves vertically an even number of times, and
# each vertical move is cols - 1 transpositions), so both digits are dropped: the other digits,
# each weight halved, number that parity class densely (rank / 2).
#
# index = rank * cells + blank: boards one horizontal move apart are neighbours in memory.
#
# Up to 8 tiles (3x3, 2x4 and smaller) two lookups replace the digit loop. Digit j can be counted
# either as "tile j - 1 - smaller tiles before it" or as "smaller tiles after it": the first form
# makes the digits of tiles 0..3 a function of those four tiles alone, the second makes the
# digits of tiles 4..7 a function of those alone. Each group's four nibbles, as they stand in the
# sequence, index a table of partial sums (65,536 entries, 128 KiB: it stays in L2). Squeezing
# the nibbles to 3 bits would make the tables L1-sized, but the squeezing costs more than the
# L2 hits (measured: the raw index made BFS on 3x3 about 7% faster).

from libc.stdint cimport uint16_t, uint64_t

cdef enum:
    PERM_MAX_CELLS = 12         # 12!/2 = 239,500,800 boards: a byte each still fits the cap
    PERM_TABLE_TILES = 8        # the most tiles ranked by table lookups
    PERM_TABLE_SIZE = 65536     # entries of each table: 4 tiles of 4 bits

cdef struct PermIndex:
    int cells
    int digits                  # Lehmer digits that count: tiles - 2
    uint64_t size               # cells!/2: boards of one parity class, the array length
    uint64_t ones               # a 1 in each tile's nibble
    uint64_t weight[PERM_MAX_CELLS]     # weight[j] = (tiles - 1 - j)! / 2
    const uint16_t* first       # the two lookup tables (NULL past PERM_TABLE_TILES tiles)
    const uint16_t* second
    # The digit loop, called through a pointer: inlined, it would make every rank too big for
    # the compiler to inline the table path into the search loops.
    uint64_t (*loop)(const PermIndex*, uint64_t) noexcept nogil

cdef inline uint64_t perm_size(int cells) noexcept nogil:
    # cells!/2 (cells >= 2).
    cdef uint64_t size = 1
    cdef int k
    for k in range(3, cells + 1):
        size *= k
    return size

cdef inline uint64_t loop_rank(const PermIndex* px, uint64_t sequence) noexcept nogil:
    # Any tile count: `below` holds, in nibble v, how many tiles smaller than v were already
    # seen, so each digit costs a shift and an add (no popcount, which is a library call unless
    # the build targets the CPU).
    cdef uint64_t rank = 0, below = 0, tile
    cdef int j
    for j in range(px.digits):
        tile = (sequence >> (4 * j)) & 15
        rank += (tile - 1 - ((below >> (4 * tile)) & 15)) * px.weight[j]
        below += 0x1111111111111111ULL << (4 * tile + 4)
    return rank

cdef inline bint init_perm_index(PermIndex* px, int cells) noexcept nogil:
    # False when the board has too many cells for a perfect index. The tables stay NULL: fill
    # them with fill_perm_tables and point px.first and px.second at them.
    cdef int tiles = cells - 1, j
    if cells < 4 or cells > PERM_MAX_CELLS:
        return False
    px.cells = cells
    px.digits = tiles - 2
    px.size = perm_size(cells)
    px.ones = 0x1111111111111111ULL >> (4 * (16 - tiles))
    for j in range(PERM_MAX_CELLS):
        px.weight[j] = 0
    for j in range(px.digits):
        px.weight[j] = perm_size(tiles - 1 - j)     # perm_size(m) = m!/2, and m >= 2 here
    px.first = NULL
    px.second = NULL
    px.loop = loop_rank
    return True

cdef inline void fill_perm_tables(
    const PermIndex* px, uint16_t* first, uint16_t* second
) noexcept nogil:
    # Both tables for px's tile count (at most PERM_TABLE_TILES), PERM_TABLE_SIZE entries each.
    # Key nibble i holds tile i of the group (0 in the slots past the last tile); keys that are
    # not a placement of distinct tiles are left 0 (no board indexes them).
    cdef int tiles = px.cells - 1, key, i, k, count, n
    cdef int v[4]
    cdef uint64_t total
    cdef bint ok
    for key in range(PERM_TABLE_SIZE):
        first[key] = 0
        second[key] = 0
        for i in range(4):
            v[i] = (key >> (4 * i)) & 15
        # First group: tiles 0..3 (fewer on a 2x2), digit = tile - 1 - smaller tiles before it.
        ok = True
        total = 0
        for i in range(4):
            if i >= tiles:
                if v[i]:
                    ok = False
                continue
            count = 0
            for k in range(i):
                if v[k] == v[i]:
                    ok = False
                count += v[k] < v[i]
            if v[i] < 1 or v[i] > tiles:
                ok = False
            if i < px.digits:
                total += (v[i] - 1 - count) * px.weight[i]
        if ok:
            first[key] = <uint16_t>total
        # Second group: tiles 4..tiles-1 (n of them; the unused slots hold 0 bits), digit =
        # smaller tiles after it.
        n = tiles - 4 if tiles > 4 else 0
        ok = True
        total = 0
        for i in range(4):
            if i >= n:
                if v[i]:
                    ok = False
                continue
            if v[i] < 1 or v[i] > tiles:
                ok = False
            count = 0
            for k in range(i + 1, n):
                if v[k] == v[i]:
                    ok = False
                count += v[k] < v[i]
            if 4 + i < px.digits:
                total += count * px.weight[4 + i]
        if ok:
            second[key] = <uint16_t>total

cdef inline uint64_t tile_sequence(uint64_t board, int blank) noexcept nogil:
    # The board without its blank's nibble: tile j of the sequence at bits 4j..4j+3.
    cdef uint64_t low = ((<uint64_t>1) << (4 * blank)) - 1
    return (board & low) | ((board >> 4) & ~low)

cdef inline uint64_t table_rank(const PermIndex* px, uint64_t sequence) noexcept nogil:
    # Up to PERM_TABLE_TILES tiles: one lookup per group of four.
    return px.first[sequence & 0xFFFF] + px.second[(sequence >> 16) & 0xFFFF]

cdef inline uint64_t sequence_rank(const PermIndex* px, uint64_t sequence) noexcept nogil:
    # Lehmer rank / 2 of a tile sequence (tiles 1..cells-1).
    if px.first != NULL:
        return table_rank(px, sequence)
    return px.loop(px, sequence)

# ---------------------------------------------------------------------------------------------
# Vertical moves on the tile sequence itself, so that a search can queue sequences rather than
# boards: the blank moving down carries the tile below it back past the cols - 1 tiles between
# them (they move one place on); moving up, the tile above jumps forward past them.

cdef struct SequenceMoves:
    int jump                                # 4 * (cols - 1): the jumping tile's shift, in bits
    uint64_t down_shift[PERM_MAX_CELLS]     # [blank] the tiles passed over (0: no such move)
    uint64_t down_jump[PERM_MAX_CELLS]      # [blank] the tile that jumps (0: no such move)
    uint64_t up_shift[PERM_MAX_CELLS]
    uint64_t up_jump[PERM_MAX_CELLS]

cdef inline void init_sequence_moves(SequenceMoves* m, int rows, int cols) noexcept nogil:
    cdef int cells = rows * cols, b
    cdef uint64_t run = ((<uint64_t>1) << (4 * (cols - 1))) - 1      # cols - 1 nibbles
    m.jump = 4 * (cols - 1)
    for b in range(PERM_MAX_CELLS):
        m.down_shift[b] = 0
        m.down_jump[b] = 0
        m.up_shift[b] = 0
        m.up_jump[b] = 0
        if b >= cells:
            continue
        if b + cols < cells:
            # Sequence places b..b+cols-2 hold the tiles between; b+cols-1 the tile below.
            m.down_shift[b] = run << (4 * b)
            m.down_jump[b] = (<uint64_t>15) << (4 * (b + cols - 1))
        if b >= cols:
            # Place b-cols holds the tile above; b-cols+1..b-1 the tiles between.
            m.up_shift[b] = run << (4 * (b - cols + 1))
            m.up_jump[b] = (<uint64_t>15) << (4 * (b - cols))

cdef inline uint64_t sequence_down(
    const SequenceMoves* m, uint64_t sequence, int blank
) noexcept nogil:
    # The sequence after the blank at `blank` moves down (unchanged if it cannot).
    cdef uint64_t shift = m.down_shift[blank], jump = m.down_jump[blank]
    return (sequence & ~(shift | jump)) | ((sequence & shift) << 4) | ((sequence & jump) >> m.jump)

cdef inline uint64_t sequence_up(
    const SequenceMoves* m, uint64_t sequence, int blank
) noexcept nogil:
    # The sequence after the blank at `blank` moves up (unchanged if it cannot).
    cdef uint64_t shift = m.up_shift[blank], jump = m.up_jump[blank]
    return (sequence & ~(shift | jump)) | ((sequence & shift) >> 4) | ((sequence & jump) << m.jump)

cdef inline uint64_t board_rank(const PermIndex* px, uint64_t board, int blank) noexcept nogil:
    # The rank of the board's tile sequence (the same for every blank cell in a row of moves).
    return sequence_rank(px, tile_sequence(board, blank))

cdef inline uint64_t perm_index(const PermIndex* px, uint64_t rank, int blank) noexcept nogil:
    return rank * <uint64_t>px.cells + <uint64_t>blank
