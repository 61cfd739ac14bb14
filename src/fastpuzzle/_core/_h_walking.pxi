# Walking distance as a heuristic of the node driver (expand, _engine.pxi), included by
# _idastar.pyx before its Node: its value, search state and snapshot, the hooks the host's
# generic ones dispatch to (see _engine.pxi's header) and its set-up. A node's value is the
# states of the vertical and horizontal abstractions, stepped by transition tables
# (fastpuzzle.pdb.WalkingTables; one side's tables and step are _walking.pxd's, which the wide
# kernel shares).

from libc.stdint cimport int32_t, uint64_t

from fastpuzzle._core._packed cimport DIR_D, DIR_L
from fastpuzzle._core._walking cimport WalkingSide, side_setup, side_step, side_value


cdef struct Walking:
    int h
    int v                   # the states of the vertical and horizontal abstractions
    int hz


cdef struct WalkingState:
    # The two sides' tables (_walking.pxd; the states are the nodes' values).
    WalkingSide vert
    WalkingSide horz
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
    cdef int tile
    if tables is None:
        raise ValueError("walking_distance needs its tables")
    vertical, horizontal = tables.vertical, tables.horizontal
    keep.append(tables)
    side_setup(&w.vert, vertical)
    side_setup(&w.horz, horizontal)
    w.v_start = vertical.start
    w.h_start = horizontal.start
    for tile in range(1, s.g.cells):
        w.v_class[tile] = s.g.row_of[s.t.goal_cell[tile]]
        w.h_class[tile] = s.g.col_of[s.t.goal_cell[tile]]
    return 0


cdef inline int walking_value(const Search* s, int v, int hz) noexcept nogil:
    return side_value(&s.heur.walking.vert, v) + side_value(&s.heur.walking.horz, hz)


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
        child.v = side_step(&w.vert, v.v, d, w.v_class[tile], s.g.row_of[cell],
                            s.g.row_of[blank])
    else:
        child.hz = side_step(&w.horz, v.hz, d - DIR_L, w.h_class[tile], s.g.col_of[cell],
                             s.g.col_of[blank])
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
