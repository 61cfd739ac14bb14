# Misplaced tiles as a heuristic of the node driver (expand, _engine.pxi), included by
# _idastar.pyx before its Node. The hooks the host's generic ones dispatch to (see
# _engine.pxi's header). The value is h alone: no search state, and no snapshot beside the
# engine's node.h.

from libc.stdint cimport int32_t, uint64_t

from fastpuzzle._core._heuristics cimport misplaced_of


cdef struct Misplaced:
    int h


cdef inline int misplaced_h(const Search* s, const Misplaced* v) noexcept nogil:
    return v.h


cdef inline int misplaced_goal(const Search* s, const Misplaced* v) noexcept nogil:
    return v.h


cdef inline void misplaced_look_ahead(Search* s, BoardWord board, int blank, int depth,
                                      int32_t state, Misplaced* v) noexcept nogil:
    pass


cdef inline int misplaced_child_f(Search* s, int blank, int cell, int tile, int k, int depth,
                                  const Misplaced* v, Misplaced* child) noexcept nogil:
    child.h = v.h + (cell == s.t.goal_cell[tile]) - (blank == s.t.goal_cell[tile])
    return depth + 1 + child.h


cdef inline void misplaced_enter_child(Search* s, int blank, int cell, int tile, int k,
                                       Misplaced* v, Misplaced* child) noexcept nogil:
    pass


cdef inline void misplaced_leave_child(Search* s, int blank, int cell, int tile, int k,
                                       Misplaced* v, Misplaced* child) noexcept nogil:
    pass


cdef inline void misplaced_save(const Search* s, Node* node, const Misplaced* v) noexcept nogil:
    pass


cdef inline void misplaced_load(Search* s, const Node* node, Misplaced* v) noexcept nogil:
    v.h = node.h


cdef inline void misplaced_root(Search* s, uint64_t board, Misplaced* v) noexcept nogil:
    v.h = misplaced_of(board, &s.g, &s.t)
