# One side of walking distance (the vertical or horizontal abstraction), shared by the packed
# kernel (_h_walking.pxi) and the wide one (_wide_idastar.pyx): its transition tables and the
# step a move takes it by. A side whose abstraction is too big (2x8's columns) has no tables:
# its state is then the Manhattan component along it (still a lower bound on the moves along
# it), stepped by the tile's change of distance from its goal line.

from libc.stdint cimport int32_t, uint8_t


cdef struct WalkingSide:
    const int32_t* next     # [(state * 2 + step) * lines + goal line] -> state; NULL: no tables
    const uint8_t* dist     # [state] -> moves along this side
    int lines


cdef inline int side_setup(WalkingSide* side, table) except -1:
    # ``side`` from one side of a fastpuzzle.pdb.WalkingTables; the caller keeps ``table`` alive.
    cdef const int32_t[::1] next_
    cdef const uint8_t[::1] dist
    side.lines = table.lines
    side.next = NULL
    side.dist = NULL
    if table.next is not None:
        next_ = table.next
        dist = table.distance
        side.next = &next_[0]
        side.dist = &dist[0]
    return 0


cdef inline int side_value(const WalkingSide* side, int state) noexcept nogil:
    # This side's share of h in ``state``.
    return side.dist[state] if side.dist != NULL else state


cdef inline int side_step(const WalkingSide* side, int state, int step, int goal, int before,
                          int after) noexcept nogil:
    # The state after a tile whose goal line is ``goal`` crosses from line ``before`` to line
    # ``after`` (step: 0 when the blank moves up or left, so the tile moves down or right; 1
    # when it moves down or right).
    if side.next != NULL:
        return side.next[(state * 2 + step) * side.lines + goal]
    return state + abs(after - goal) - abs(before - goal)
