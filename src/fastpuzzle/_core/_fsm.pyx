"""Duplicate pruning for IDA*: a finite-state machine over the blank's moves (Taylor and Korf).

Two move strings of the blank are *twins* when they leave every tile where the other leaves it:
same length or shorter, from the same board to the same board. IDA* needs only one of them, so
the machine forbids the other and the search never enters it. What a string does to the board
depends only on the string, not on where the blank starts, as long as the blank's path stays on
the board; so twins are found once, by a breadth-first search over move strings from the middle
of a board large enough that no string within the box leaves it.

Which string of a pair is forbidden (what keeps every board reachable): strings are ordered by
length, then by their moves (U < D < L < R). A string ``s`` is forbidden when an earlier string
``t`` has the same effect and the box the blank's path covers (its bounding box relative to the
start) of ``t`` lies inside that of ``s``. Replacing ``s`` by ``t`` inside any path keeps the path
on every board that held it (``t`` covers no cell outside the cells ``s``'s box covers there),
leaves its end board and makes the path earlier in the order; repeated, it ends at a path with no
forbidden substring, no longer than the first and reaching the same board. So every board keeps
a shortest path the machine allows, and IDA* stays optimal with any admissible heuristic.

Strings are searched only while their box fits ``rows`` x ``cols`` (a board of that shape can
hold no other), longest ``depth`` moves. Effects are compared by a 64-bit Zobrist hash of the
board, and every hit is replayed on a real board before it counts, so a hash collision never
forbids a string. The forbidden strings are compiled into an Aho-Corasick automaton: a state is
the longest suffix of the path so far that begins a forbidden string, and ``next[state][move]``
is the next state, or -1 when that move would complete a forbidden string.
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from fastpuzzle._core._control cimport monotonic_seconds
from fastpuzzle._core._engine cimport FORBIDDEN
from fastpuzzle._core._interrupt cimport check_interrupt
from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_R, DIR_U
from fastpuzzle._core._splitmix cimport splitmix

from time import monotonic

import numpy as np

from fastpuzzle._core._pdb import DeadlinePassed

cdef enum:
    MAX_SIDE = 12           # the box's longest side (the virtual board is 2 * side - 1)
    MAX_DEPTH = 30          # a string is coded in one uint64 (2 bits a move, one sentinel bit)
    MAX_VCELLS = (2 * MAX_SIDE - 1) * (2 * MAX_SIDE - 1)
    GROW_PART = 1 << 20     # slots moved between two looks at the deadline and Ctrl-C


cdef inline int row_step(int move) noexcept nogil:
    # The blank's change of row for a direction code (_packed.pxd's, as every kernel's).
    return -1 if move == DIR_U else (1 if move == DIR_D else 0)


cdef inline int col_step(int move) noexcept nogil:
    return -1 if move == DIR_L else (1 if move == DIR_R else 0)


cdef struct Virtual:
    # A board large enough for every string whose box fits rows x cols, from its middle.
    int rows
    int cols
    int cells
    int start
    uint16_t tile[MAX_VCELLS]     # a tile is the cell it started on; the blank's, v.start
    uint64_t* zobrist           # [tile * cells + cell]


cdef struct Walk:
    # A string replayed from the start: where the blank is and the box it covered.
    int blank
    int top
    int bottom
    int left
    int right
    uint64_t hash


cdef struct Table:
    # Open addressing: the hash of an effect (0: empty) and the earliest string that has it.
    uint64_t* keys
    uint64_t* codes
    uint64_t mask
    uint64_t count


cdef struct Trie:
    int32_t* go                 # [node * 4 + move], -1: none
    uint8_t* terminal
    int32_t count
    int32_t capacity


cdef inline int code_length(uint64_t code) noexcept nogil:
    # The sentinel bit sits at 2 * length.
    cdef int n = 0
    while code > 1:
        code >>= 2
        n += 1
    return n


cdef inline int code_move(uint64_t code, int length, int i) noexcept nogil:
    return <int>((code >> (2 * (length - 1 - i))) & 3)


cdef void reset(Virtual* v, Walk* w) noexcept nogil:
    cdef int cell
    for cell in range(v.cells):
        v.tile[cell] = cell
    w.blank = v.start
    w.top = w.bottom = w.left = w.right = 0
    w.hash = 0


cdef inline void step(Virtual* v, Walk* w, int move) noexcept nogil:
    # The blank moves; the tile it meets takes the blank's cell (the box is kept relative).
    cdef int row = w.blank // v.cols + row_step(move)
    cdef int col = w.blank % v.cols + col_step(move)
    cdef int target = row * v.cols + col
    cdef int tile = v.tile[target]
    cdef int start_row = v.start // v.cols, start_col = v.start % v.cols
    w.hash ^= v.zobrist[tile * v.cells + target] ^ v.zobrist[tile * v.cells + w.blank]
    v.tile[w.blank] = tile
    v.tile[target] = v.start
    w.blank = target
    if row - start_row < w.top:
        w.top = row - start_row
    if row - start_row > w.bottom:
        w.bottom = row - start_row
    if col - start_col < w.left:
        w.left = col - start_col
    if col - start_col > w.right:
        w.right = col - start_col


cdef void replay(Virtual* v, Walk* w, uint64_t code) noexcept nogil:
    cdef int i, n = code_length(code)
    reset(v, w)
    for i in range(n):
        step(v, w, code_move(code, n, i))


cdef inline bint inside(const Walk* a, const Walk* b) noexcept nogil:
    # Whether a's box lies inside b's.
    return a.top >= b.top and a.bottom <= b.bottom and a.left >= b.left and a.right <= b.right


cdef bint same_effect(Virtual* v, Virtual* scratch, Walk* other, uint64_t code) noexcept nogil:
    # Whether the string ``code`` leaves the board as v holds it now (other: its walk).
    replay(scratch, other, code)
    return memcmp_tiles(v, scratch)


cdef inline bint memcmp_tiles(const Virtual* a, const Virtual* b) noexcept nogil:
    cdef int cell
    for cell in range(a.cells):
        if a.tile[cell] != b.tile[cell]:
            return False
    return True


cdef inline void unstep(Virtual* v, const Walk* w, const Walk* before) noexcept nogil:
    # Undoes the step that took the blank from before.blank to w.blank.
    v.tile[w.blank] = v.tile[before.blank]
    v.tile[before.blank] = v.start


cdef inline bint fits_after(const Virtual* v, const Walk* w, int move, int rows,
                            int cols) noexcept nogil:
    # Whether the string's box still fits rows x cols after the blank moves once more.
    cdef int row = w.blank // v.cols + row_step(move) - v.start // v.cols
    cdef int col = w.blank % v.cols + col_step(move) - v.start % v.cols
    cdef int top = row if row < w.top else w.top
    cdef int bottom = row if row > w.bottom else w.bottom
    cdef int left = col if col < w.left else w.left
    cdef int right = col if col > w.right else w.right
    return bottom - top < rows and right - left < cols


cdef int keep(Virtual* v, Virtual* scratch, const Walk* w, Walk* other, Table* t,
              uint64_t code, uint64_t* twin) noexcept nogil:
    # 1: the string (v and w after it) is kept; 0: it is forbidden (an earlier twin covers a box
    # inside its own; ``twin`` is set to it). The first string with an effect joins the table,
    # which the caller grows (grow_part) once it is half full.
    cdef uint64_t key = w.hash if w.hash else 1
    cdef uint64_t* slot = table_find(t, key)
    if slot[0]:
        if same_effect(v, scratch, other, t.codes[slot - t.keys]) and inside(other, w):
            twin[0] = t.codes[slot - t.keys]
            return 0
        return 1
    slot[0] = key
    t.codes[slot - t.keys] = code
    t.count += 1
    return 1


cdef void grow_part(const Table* t, Table* grown, uint64_t begin, uint64_t end) noexcept nogil:
    # Moves the entries of t's slots begin..end into ``grown`` (twice the size): a growth of a
    # deep build's table moves tens of millions, a second or more, so it goes in parts with a
    # look at the deadline and Ctrl-C between them.
    cdef uint64_t i, slot
    for i in range(begin, end):
        if t.keys[i]:
            slot = t.keys[i] & grown.mask
            while grown.keys[slot]:
                slot = (slot + 1) & grown.mask
            grown.keys[slot] = t.keys[i]
            grown.codes[slot] = t.codes[i]


cdef inline uint64_t* table_find(Table* t, uint64_t key) noexcept nogil:
    # The slot holding ``key``, or the empty slot where it would go.
    cdef uint64_t slot = key & t.mask
    while t.keys[slot] and t.keys[slot] != key:
        slot = (slot + 1) & t.mask
    return &t.keys[slot]


cdef int trie_node(Trie* trie) noexcept nogil:
    # A new node; -1 when memory runs out.
    cdef int32_t capacity
    cdef int32_t* go
    cdef uint8_t* terminal
    if trie.count == trie.capacity:
        capacity = 2 * trie.capacity if trie.capacity else 1024
        go = <int32_t*>realloc(trie.go, capacity * 4 * sizeof(int32_t))
        if go == NULL:
            return -1
        trie.go = go
        terminal = <uint8_t*>realloc(trie.terminal, capacity)
        if terminal == NULL:
            return -1
        trie.terminal = terminal
        trie.capacity = capacity
    trie.go[4 * trie.count] = trie.go[4 * trie.count + 1] = -1
    trie.go[4 * trie.count + 2] = trie.go[4 * trie.count + 3] = -1
    trie.terminal[trie.count] = 0
    trie.count += 1
    return trie.count - 1


cdef int trie_add(Trie* trie, uint64_t code) noexcept nogil:
    cdef int i, move, n = code_length(code), node = 0, child
    for i in range(n):
        move = code_move(code, n, i)
        child = trie.go[4 * node + move]
        if child < 0:
            child = trie_node(trie)
            if child < 0:
                return -1
            trie.go[4 * node + move] = child
        node = child
    trie.terminal[node] = 1
    return 0


cdef int compile_automaton(const Trie* trie, int32_t* delta) noexcept nogil:
    # Aho-Corasick over the trie: delta[node * 4 + move] is the next node (the longest suffix
    # that is a trie node) or FORBIDDEN when that suffix ends a forbidden string. Nodes are
    # numbered so that a parent comes before its children (breadth first), as trie_add makes
    # them; returns -1 when memory runs out.
    cdef int32_t* fail = <int32_t*>malloc(trie.count * sizeof(int32_t))
    cdef int32_t* queue = <int32_t*>malloc(trie.count * sizeof(int32_t))
    cdef uint8_t* bad = <uint8_t*>malloc(trie.count)
    cdef int32_t head = 0, tail = 0, node, child, move, f
    if fail == NULL or queue == NULL or bad == NULL:
        free(fail)
        free(queue)
        free(bad)
        return -1
    memcpy(bad, trie.terminal, trie.count)
    fail[0] = 0
    for move in range(4):
        child = trie.go[move]
        if child >= 0:
            fail[child] = 0
            delta[move] = child
            queue[tail] = child
            tail += 1
        else:
            delta[move] = 0
    while head < tail:
        node = queue[head]
        head += 1
        # A suffix that ends a forbidden string forbids this node too.
        if bad[fail[node]]:
            bad[node] = 1
        for move in range(4):
            child = trie.go[4 * node + move]
            f = delta[4 * fail[node] + move]
            if child >= 0:
                fail[child] = f
                delta[4 * node + move] = child
                queue[tail] = child
                tail += 1
            else:
                delta[4 * node + move] = f
    for node in range(trie.count * 4):
        if delta[node] >= 0 and bad[delta[node]]:
            delta[node] = FORBIDDEN
    free(fail)
    free(queue)
    free(bad)
    return 0


cdef int walk_state(const int32_t* delta, uint64_t code) noexcept nogil:
    # The automaton's state after the string ``code`` (which it allows).
    cdef int i, n = code_length(code), state = 0
    for i in range(n):
        state = delta[4 * state + code_move(code, n, i)]
    return state


cdef int push(uint64_t** items, size_t* count, size_t* capacity, uint64_t item) noexcept nogil:
    # Appends ``item`` to a growing array: 0, or -1 (the array as it was) when it cannot grow.
    cdef uint64_t* grown
    if count[0] == capacity[0]:
        grown = <uint64_t*>realloc(items[0], (2 * capacity[0] + 1024) * sizeof(uint64_t))
        if grown == NULL:
            return -1
        items[0] = grown
        capacity[0] = 2 * capacity[0] + 1024
    items[0][count[0]] = item
    count[0] += 1
    return 0


def build(int rows, int cols, int depth, size_t max_states=0, deadline=None, bint twins=False):
    """Find the forbidden move strings of a ``rows`` x ``cols`` box up to ``depth`` moves.

    With ``max_states``, stops at the last length whose machine has at most that many states.
    With ``deadline`` (``time.monotonic()`` seconds), raises DeadlinePassed once it has passed;
    Ctrl-C (or the stop event of a batch's thread, see _interrupt.pyx) raises KeyboardInterrupt.
    Both are looked at every 16,384 strings and every 2**20 slots of a growth of the table of
    effects (the deep machines take seconds to minutes; 16 moves on 5x5 grow it from 32 to 64
    million slots in their last quarter, for a second or more).

    Parameters
    ----------
    rows, cols : int
        The box: strings whose path fits in it (their effect the same wherever they fit).
    depth : int
        The longest strings looked at.
    max_states : int
        0 for no bound; else the largest machine wanted, in states.
    twins : bool
        Also return each forbidden string's twin (see :func:`verify`).

    Returns
    -------
    tuple
        ``(forbidden, levels)``: the forbidden strings as codes (uint64 array: a sentinel bit,
        then 2 bits a move, U=0 D=1 L=2 R=3, the first move highest), in the order found; and
        per length 0..the depth reached, the number of strings kept (allowed and within the
        box). With ``twins``, ``(forbidden, levels, twins)``: ``twins[i]`` the earlier string
        with the effect of ``forbidden[i]`` and a box inside its box.

    Raises
    ------
    ValueError
        For a box or depth out of range.
    MemoryError
        When the search's tables cannot grow.
    DeadlinePassed
        When ``deadline`` passed first.
    KeyboardInterrupt
        On Ctrl-C (nothing is kept).
    """
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"expected a box of 1 to {MAX_SIDE} a side, got {rows}x{cols}")
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"expected a depth of 0 to {MAX_DEPTH} moves, got {depth}")
    cdef Virtual v, scratch
    cdef Walk w, other, parent
    cdef Table table
    cdef Trie trie
    cdef uint64_t seed = 0x5EED5EED
    cdef uint64_t* frontier = NULL
    cdef uint64_t* following = NULL
    cdef uint64_t* swap
    cdef uint64_t* forbidden = NULL
    cdef uint64_t* twin_codes = NULL
    cdef uint64_t* slot
    cdef Table grown
    cdef int32_t* delta = NULL
    cdef size_t n_frontier = 1, n_following, cap_frontier = 1, cap_following = 0
    cdef size_t n_forbidden = 0, cap_forbidden = 0, i, swap_size, level_start = 0
    cdef size_t n_twins = 0, cap_twins = 0
    cdef uint64_t code, child, twin = 0, part, end
    cdef int move, state, child_state, kept, failed = 0, over = 0, late = 0
    cdef double stop_at = 0.0 if deadline is None else float(deadline)
    if deadline is not None and monotonic() >= stop_at:
        raise DeadlinePassed()
    levels = [1]
    v.rows = scratch.rows = 2 * rows - 1
    v.cols = scratch.cols = 2 * cols - 1
    v.cells = scratch.cells = v.rows * v.cols
    v.start = scratch.start = (rows - 1) * v.cols + cols - 1
    v.zobrist = <uint64_t*>malloc(v.cells * v.cells * sizeof(uint64_t))
    scratch.zobrist = v.zobrist
    table.mask = (1 << 16) - 1
    table.count = 0
    table.keys = <uint64_t*>calloc(table.mask + 1, sizeof(uint64_t))
    table.codes = <uint64_t*>malloc((table.mask + 1) * sizeof(uint64_t))
    trie.go = NULL
    trie.terminal = NULL
    trie.count = trie.capacity = 0
    grown.keys = grown.codes = NULL
    frontier = <uint64_t*>malloc(sizeof(uint64_t))
    try:
        if (v.zobrist == NULL or table.keys == NULL or table.codes == NULL or frontier == NULL
                or trie_node(&trie) < 0):
            raise MemoryError()
        with nogil:
            for i in range(<size_t>(v.cells * v.cells)):
                v.zobrist[i] = splitmix(&seed)
            # The empty string: the start board, hash 0 (kept as 1: 0 marks an empty slot).
            reset(&v, &w)
            slot = table_find(&table, 1)
            slot[0] = 1
            table.codes[slot - table.keys] = 1
            table.count = 1
            frontier[0] = 1
            for _length in range(1, depth + 1):
                # The automaton of the strings forbidden so far cuts every string holding one.
                free(delta)
                delta = <int32_t*>malloc(trie.count * 4 * sizeof(int32_t))
                if delta == NULL or compile_automaton(&trie, delta) < 0:
                    failed = 1
                    break
                n_following = 0
                for i in range(n_frontier):
                    if (i & 0x3FFF) == 0:
                        if stop_at > 0 and monotonic_seconds() >= stop_at:
                            late = 1
                            break
                        with gil:
                            check_interrupt()
                    code = frontier[i]
                    state = walk_state(delta, code)
                    replay(&v, &parent, code)
                    for move in range(4):
                        child_state = delta[4 * state + move]
                        if child_state == FORBIDDEN or not fits_after(&v, &parent, move, rows,
                                                                      cols):
                            continue
                        child = code * 4 + move
                        w = parent
                        step(&v, &w, move)
                        kept = keep(&v, &scratch, &w, &other, &table, child, &twin)
                        unstep(&v, &w, &parent)
                        if kept == 0:
                            if (push(&forbidden, &n_forbidden, &cap_forbidden, child) < 0
                                    or push(&twin_codes, &n_twins, &cap_twins, twin) < 0):
                                failed = 1
                                break
                            # The trie grows now (this length's walk reads delta, compiled
                            # before it), so that a machine past max_states stops here.
                            if trie_add(&trie, child) < 0:
                                failed = 1
                                break
                            if max_states and <size_t>trie.count - n_forbidden > max_states:
                                over = 1
                                break
                            continue
                        if push(&following, &n_following, &cap_following, child) < 0:
                            failed = 1
                            break
                    if failed or over:
                        break
                    if 2 * table.count > table.mask:
                        # Half full (at most four entries past it: this string's children).
                        grown.mask = 2 * table.mask + 1
                        grown.count = table.count
                        grown.keys = <uint64_t*>malloc((grown.mask + 1) * sizeof(uint64_t))
                        grown.codes = <uint64_t*>malloc((grown.mask + 1) * sizeof(uint64_t))
                        if grown.keys == NULL or grown.codes == NULL:
                            failed = 1
                            break
                        # In parts, a look at the deadline and Ctrl-C between two: the new
                        # arrays zeroed (their pages taken from the system: a second of page
                        # faults at 64 M slots, were they touched at random by the moves), then
                        # the entries moved.
                        part = 0
                        while part <= grown.mask:
                            if part:
                                if stop_at > 0 and monotonic_seconds() >= stop_at:
                                    late = 1
                                    break
                                with gil:
                                    check_interrupt()
                            end = min(part + GROW_PART, grown.mask + 1)
                            memset(&grown.keys[part], 0, (end - part) * sizeof(uint64_t))
                            memset(&grown.codes[part], 0, (end - part) * sizeof(uint64_t))
                            part = end
                        part = 0
                        while part <= table.mask and not late:
                            if stop_at > 0 and monotonic_seconds() >= stop_at:
                                late = 1
                                break
                            with gil:
                                check_interrupt()
                            end = min(part + GROW_PART, table.mask + 1)
                            grow_part(&table, &grown, part, end)
                            part = end
                        if late:
                            break
                        free(table.keys)
                        free(table.codes)
                        table = grown
                        grown.keys = grown.codes = NULL
                if failed or late:
                    break
                if over:
                    # This length's strings would take the machine past max_states (its trie's
                    # nodes, less the strings' ends, are its states): it stops a length short.
                    n_forbidden = n_twins = level_start
                    break
                level_start = n_forbidden
                swap = frontier
                frontier = following
                following = swap
                n_frontier = n_following
                swap_size = cap_frontier
                cap_frontier = cap_following
                cap_following = swap_size
                with gil:
                    levels.append(n_frontier)
        if failed:
            raise MemoryError()
        if late:
            raise DeadlinePassed()
        codes = np.empty(n_forbidden, dtype=np.uint64)
        earlier = np.empty(n_forbidden, dtype=np.uint64)
        for i in range(n_forbidden):
            codes[i] = forbidden[i]
            earlier[i] = twin_codes[i]
        if twins:
            return codes, levels, earlier
        return codes, levels
    finally:
        free(v.zobrist)
        free(table.keys)
        free(table.codes)
        free(trie.go)
        free(trie.terminal)
        free(frontier)
        free(following)
        free(forbidden)
        free(twin_codes)
        free(grown.keys)
        free(grown.codes)
        free(delta)


def compile(const uint64_t[::1] forbidden):
    """The automaton that forbids every string holding one of ``forbidden`` (codes, as
    :func:`build` returns them; none may hold another).

    Parameters
    ----------
    forbidden : numpy.ndarray
        uint64 codes of the forbidden strings.

    Returns
    -------
    numpy.ndarray
        int32, shape ``(states, 4)``: ``next[state, move]``, -1 where the move completes a
        forbidden string; state 0 is the start. States that end a forbidden string are dropped
        and the others renumbered breadth first.

    Raises
    ------
    ValueError
        For a code of no move (below 4: the sentinel bit alone, or none).
    MemoryError
        When the automaton's tables cannot grow.
    """
    cdef Trie trie
    cdef int32_t* delta = NULL
    cdef int32_t* number = NULL
    cdef size_t i, n = forbidden.shape[0]
    cdef int32_t node, kept = 0, target
    trie.go = NULL
    trie.terminal = NULL
    trie.count = trie.capacity = 0
    try:
        if trie_node(&trie) < 0:
            raise MemoryError()
        for i in range(n):
            if forbidden[i] < 4:
                raise ValueError(
                    f"expected move strings of at least one move, got code {forbidden[i]}"
                )
            if trie_add(&trie, forbidden[i]) < 0:
                raise MemoryError()
        delta = <int32_t*>malloc(trie.count * 4 * sizeof(int32_t))
        number = <int32_t*>malloc(trie.count * sizeof(int32_t))
        if delta == NULL or number == NULL or compile_automaton(&trie, delta) < 0:
            raise MemoryError()
        for node in range(trie.count):
            number[node] = -1 if trie.terminal[node] else kept
            if not trie.terminal[node]:
                kept += 1
        table = np.empty((kept, 4), dtype=np.int32)
        for node in range(trie.count):
            if number[node] < 0:
                continue
            for i in range(4):
                target = delta[4 * node + i]
                table[number[node], i] = FORBIDDEN if target < 0 else number[target]
        return table
    finally:
        free(trie.go)
        free(trie.terminal)
        free(delta)
        free(number)


cdef bint replay_within(Virtual* v, Walk* w, uint64_t code, int rows, int cols) noexcept nogil:
    # replay() of a string read from outside: False, the board left partly walked, as soon as
    # its box would outgrow rows x cols (and so the virtual board).
    cdef int i, move, n = code_length(code)
    reset(v, w)
    for i in range(n):
        move = code_move(code, n, i)
        if not fits_after(v, w, move, rows, cols):
            return False
        step(v, w, move)
    return True


def verify(int rows, int cols, int depth, const uint64_t[::1] forbidden,
           const uint64_t[::1] twins):
    """The first forbidden string that its twin does not prove forbidden, or -1.

    ``twins[i]`` proves ``forbidden[i]`` (of at most ``depth`` moves, its box fitting ``rows`` x
    ``cols``) forbidden when it comes earlier in the order (fewer moves, or as many and smaller:
    a smaller code), leaves every tile where ``forbidden[i]`` does, and covers a box inside its
    box: the rule :func:`build` forbids by, so that every machine compiled from proven strings
    keeps a shortest path to every board (see the module's docstring). Nothing else is assumed
    of the strings: this is how a machine read from a file is checked without building it.

    Raises
    ------
    ValueError
        For a box or depth out of range, or arrays of different lengths.
    MemoryError
        When the virtual boards cannot be made.
    """
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"expected a box of 1 to {MAX_SIDE} a side, got {rows}x{cols}")
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"expected a depth of 0 to {MAX_DEPTH} moves, got {depth}")
    if forbidden.shape[0] != twins.shape[0]:
        raise ValueError("expected a twin for each forbidden string")
    cdef Virtual v, scratch
    cdef Walk w, other
    cdef Py_ssize_t i, wrong = -1
    cdef uint64_t string, twin
    v.rows = scratch.rows = 2 * rows - 1
    v.cols = scratch.cols = 2 * cols - 1
    v.cells = scratch.cells = v.rows * v.cols
    v.start = scratch.start = (rows - 1) * v.cols + cols - 1
    # Effects are compared tile by tile: the hash that step() keeps is not looked at.
    v.zobrist = <uint64_t*>calloc(v.cells * v.cells, sizeof(uint64_t))
    scratch.zobrist = v.zobrist
    if v.zobrist == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(forbidden.shape[0]):
                string = forbidden[i]
                twin = twins[i]
                if (string < 4 or code_length(string) > depth or twin < 1 or twin >= string
                        or not replay_within(&v, &w, string, rows, cols)
                        or not replay_within(&scratch, &other, twin, rows, cols)
                        or not memcmp_tiles(&v, &scratch) or not inside(&other, &w)):
                    wrong = i
                    break
        return wrong
    finally:
        free(v.zobrist)
