# Walking distance as a heuristic of the node driver (expand, _engine.pxi), included by
# _idastar.pyx before its Node: its value, search state and snapshot, the hooks the host's
# generic ones dispatch to (see _engine.pxi's header) and its set-up. A node's value is the
# states of the vertical and horizontal abstractions, stepped by transition tables
# (fastpuzzle.pdb.WalkingTables).

from libc.stdint cimport int32_t, uint8_t, uint64_t

from fastpuzzle._core._packed cimport DIR_D, DIR_L


cdef struct Walking:
    int h
    int v                   # the states of the vertical and horizontal abstractions
    int hz


cdef struct WalkingState:
    # The transition tables (the states are the nodes' values). A side whose abstraction is too
    # big (2x8's columns) has no tables: its state is then the Manhattan component along it
    # (still a lower bound on the moves along it).
    const int32_t* v_next
    const int32_t* h_next
    const uint8_t* v_dist
    const uint8_t* h_dist
    int v_groups
    int h_groups
    int v_class[16]         # [tile] -> goal row
    int h_class[16]         # [tile] -> goal column
    int v_start             # the start's states
    int h_start


cdef struct WalkingNode:
    # A frontier node's states.
    int v
    int hz


cdef int walking_setup(Search* s, tables, list keep) except -1:
    # s's tables from a WalkingTables (kept alive in ``keep`` for the search).
    cdef WalkingState* w = &s.heur.walking
    cdef const uint8_t[::1] v_dist, h_dist
    cdef const int32_t[::1] v_next, h_next
    cdef int tile
    if tables is None:
        raise ValueError("walking_distance needs its tables")
    vertical, horizontal = tables.vertical, tables.horizontal
    keep.append(tables)
    w.v_groups, w.v_start = vertical.lines, vertical.start
    w.h_groups, w.h_start = horizontal.lines, horizontal.start
    w.v_next = w.h_next = NULL
    w.v_dist = w.h_dist = NULL
    if vertical.next is not None:
        v_next = vertical.next
        v_dist = vertical.distance
        w.v_next = &v_next[0]
        w.v_dist = &v_dist[0]
    if horizontal.next is not None:
        h_next = horizontal.next
        h_dist = horizontal.distance
        w.h_next = &h_next[0]
        w.h_dist = &h_dist[0]
    for tile in range(1, s.g.cells):
        w.v_class[tile] = s.g.row_of[s.t.goal_cell[tile]]
        w.h_class[tile] = s.g.col_of[s.t.goal_cell[tile]]
    return 0


cdef inline int walking_value(const Search* s, int v, int hz) noexcept nogil:
    cdef const WalkingState* w = &s.heur.walking
    return ((w.v_dist[v] if w.v_dist != NULL else v)
            + (w.h_dist[hz] if w.h_dist != NULL else hz))


cdef inline int walking_h(const Search* s, const Walking* v) noexcept nogil:
    return v.h


cdef inline int walking_goal(const Search* s, const Walking* v) noexcept nogil:
    return v.h


cdef inline void walking_look_ahead(Search* s, BoardWord board, int blank, int depth,
                                    int32_t state, Walking* v) noexcept nogil:
    pass


cdef inline int walking_child_f(Search* s, int blank, int cell, int tile, int k, int depth,
                                const Walking* v, Walking* child) noexcept nogil:
    # The blank moves d, so the tile crosses from the blank's new line into its old one.
    cdef const WalkingState* w = &s.heur.walking
    cdef int d = s.move_dir[blank][k]
    child.v = v.v
    child.hz = v.hz
    if d <= DIR_D:
        if w.v_next != NULL:
            child.v = w.v_next[(v.v * 2 + d) * w.v_groups + w.v_class[tile]]
        else:
            child.v += (abs(s.g.row_of[blank] - w.v_class[tile])
                        - abs(s.g.row_of[cell] - w.v_class[tile]))
    else:
        if w.h_next != NULL:
            child.hz = w.h_next[(v.hz * 2 + d - DIR_L) * w.h_groups + w.h_class[tile]]
        else:
            child.hz += (abs(s.g.col_of[blank] - w.h_class[tile])
                         - abs(s.g.col_of[cell] - w.h_class[tile]))
    child.h = walking_value(s, child.v, child.hz)
    return depth + 1 + child.h


cdef inline void walking_enter_child(Search* s, int blank, int cell, int tile, int k,
                                     Walking* v, Walking* child) noexcept nogil:
    pass


cdef inline void walking_leave_child(Search* s, int blank, int cell, int tile, int k,
                                     Walking* v, Walking* child) noexcept nogil:
    pass


cdef inline void walking_save(const Search* s, Node* node, const Walking* v) noexcept nogil:
    node.heur.walking.v = v.v
    node.heur.walking.hz = v.hz


cdef inline void walking_load(Search* s, const Node* node, Walking* v) noexcept nogil:
    v.v = node.heur.walking.v
    v.hz = node.heur.walking.hz
    v.h = walking_value(s, v.v, v.hz)


cdef inline void walking_root(Search* s, uint64_t board, Walking* v) noexcept nogil:
    v.v = s.heur.walking.v_start
    v.hz = s.heur.walking.h_start
    v.h = walking_value(s, v.v, v.hz)
