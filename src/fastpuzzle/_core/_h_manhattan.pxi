# The Manhattan distance as a heuristic of the node driver (expand, _engine.pxi), included by
# _idastar.pyx before its Node. The hooks the host's generic ones dispatch to (see
# _engine.pxi's header). The value is h alone: no search state, and no snapshot beside the
# engine's node.h. ``manhattan_change`` is the host's (a move's change of the distance).

from libc.stdint cimport int32_t, uint64_t

from fastpuzzle._core._heuristics cimport manhattan_of


cdef struct Manhattan:
    int h


cdef inline int manhattan_h(const Search* s, const Manhattan* v) noexcept nogil:
    return v.h


cdef inline int manhattan_goal(const Search* s, const Manhattan* v) noexcept nogil:
    return v.h


cdef inline void manhattan_look_ahead(Search* s, BoardWord board, int blank, int depth,
                                      int32_t state, Manhattan* v) noexcept nogil:
    pass


cdef inline int manhattan_child_f(Search* s, int blank, int cell, int tile, int k, int depth,
                                  const Manhattan* v, Manhattan* child) noexcept nogil:
    child.h = v.h + manhattan_change(s, tile, cell, blank)
    return depth + 1 + child.h


cdef inline void manhattan_enter_child(Search* s, int blank, int cell, int tile, int k,
                                       Manhattan* v, Manhattan* child) noexcept nogil:
    pass


cdef inline void manhattan_leave_child(Search* s, int blank, int cell, int tile, int k,
                                       Manhattan* v, Manhattan* child) noexcept nogil:
    pass


cdef inline void manhattan_save(const Search* s, Node* node, const Manhattan* v) noexcept nogil:
    pass


cdef inline void manhattan_load(Search* s, const Node* node, Manhattan* v) noexcept nogil:
    v.h = node.h


cdef inline void manhattan_root(Search* s, uint64_t board, Manhattan* v) noexcept nogil:
    v.h = manhattan_of(board, &s.g, &s.t)
