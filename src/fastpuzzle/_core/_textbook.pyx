"""The textbook loop: BFS, uniform-cost, best-first and IDA* with the conventions a course sets.

The compiled drivers of ``_search.pyx`` fix their move order (U, D, L, R), their tie-breaking
and when BFS tests for the goal, and compute only the compiled heuristics. This loop takes each
of those as an argument, and a heuristic that is a Python function, at the cost of speed: it
keeps its boards in Python containers and runs with the GIL (a function it calls needs it).
With the compiled drivers' own conventions it expands and generates the same nodes, in the same
order, as they do (the tests check it), so that a count changes only with the convention.

Every entry takes a canonical packed start (see ``_packed.pxd``), its blank cell, the shape and
the goal's blank cell, and returns a ``CoreResult`` counted as ``_search.pyx`` counts: a node is
*expanded* when its children are generated (the goal, once reached, is not), *generated* counts
children, and the move that undoes the last one is never generated. Its memory figure is an
estimate of the Python objects it holds (:data:`ENTRY_BYTES` a board), which the memory limit
is checked against.
"""

import heapq
import math
import sys
import time
from collections import deque

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t

from fastpuzzle._core._heuristics cimport (
    GoalTables,
    board_heuristic,
    init_goal_tables,
    is_board_heuristic,
)
from fastpuzzle._core._packed cimport (
    Geometry,
    NO_CELL,
    get_tile,
    goal_cell_of,
    init_geometry,
    move_letters,
    slide,
)
from fastpuzzle._core._result cimport (
    STATUS_DEPTH_LIMIT,
    STATUS_EXHAUSTED,
    STATUS_MEMORY_LIMIT,
    STATUS_NODE_LIMIT,
    STATUS_RUNNING,
    STATUS_SOLVED,
    STATUS_TIME_LIMIT,
    core_result,
)

DIRECTION_LETTERS = move_letters()[:4].decode("ascii")

#: Bytes a stored board is counted at: a dict entry, a small list and a queue tuple of Python
#: objects (tracemalloc's peak over the boards stored, CPython 3.11, a 31-move 3x3 board: 200
#: bytes a board in A* with misplaced tiles, 216 in BFS).
ENTRY_BYTES = 200

#: Tie-breaking rules of the best-first searches, by name: among nodes of equal priority,
#: ``lowest_h`` takes the lowest h first and then the newest (the compiled drivers' rule: in A*
#: the deepest node, as the same f with the lowest h is the largest g), ``lifo`` the newest,
#: ``fifo`` the oldest.
TIES = ("lowest_h", "lifo", "fifo")

# Expansions between two looks at the clock.
cdef int CLOCK_EVERY = 1024


cdef class _Space:
    # The shape, the goal and the heuristic: what every loop reads for each node.
    cdef Geometry geo
    cdef GoalTables tables
    cdef uint64_t goal
    cdef int code
    cdef object function
    cdef tuple labels
    cdef tuple order
    cdef double h_weight

    def __init__(self, int rows, int cols, int goal_blank, tuple order, int code,
                 object function, tuple labels):
        cdef int tile
        init_geometry(&self.geo, rows, cols)
        init_goal_tables(&self.tables, &self.geo, goal_blank)
        self.goal = 0
        for tile in range(1, rows * cols):
            self.goal |= (<uint64_t>tile) << (4 * goal_cell_of(tile, goal_blank))
        if function is None and code >= 0 and not is_board_heuristic(code):
            raise ValueError(f"heuristic code {code} has no whole-board kernel")
        self.code = code
        self.function = function
        self.labels = labels
        self.order = order

    cdef object h(self, uint64_t board):
        # The heuristic of a board: the compiled kernel's, or the function's on the board's
        # tiles in the caller's labels, read row by row (0: the blank).
        cdef int cell
        cdef object value
        if self.function is None:
            if self.code < 0:
                return 0
            return board_heuristic(self.code, board, &self.geo, &self.tables)
        labels = self.labels
        value = self.function(
            tuple([labels[get_tile(board, cell)] for cell in range(self.geo.cells)])
        )
        if type(value) is int and value >= 0:
            return value
        return checked(value, self.function)

    cdef list children(self, uint64_t board, int blank, int last):
        # (child, its blank, direction) in the chosen order, never undoing `last` (-1: none).
        cdef list out = []
        cdef int d, target
        for d in self.order:
            target = self.geo.neighbour[blank][d]
            if target == NO_CELL or (last >= 0 and d == (last ^ 1)):
                continue
            out.append((slide(board, blank, target), target, d))
        return out


cdef object checked(object value, object function):
    # A heuristic's value must be a number at least 0 (not a bool, not NaN): anything else is
    # the caller's mistake, said with what the function returned.
    from fastpuzzle.errors import InvalidOptionError

    name = getattr(function, "__name__", repr(function))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidOptionError(
            f"heuristic {name} must return a number, got {value!r} ({type(value).__name__})"
        )
    if not value >= 0 or math.isinf(value):
        raise InvalidOptionError(
            f"heuristic {name} must return a finite number >= 0, got {value!r}"
        )
    return value


cdef class _Counters:
    cdef public unsigned long long expanded, generated, max_frontier, peak, iterations
    cdef public int depth, status
    cdef public int reached             # the deepest g of a node generated
    cdef public long long reexpanded    # -1: not known (no record of the boards expanded)
    cdef unsigned long long node_limit, memory_limit
    cdef double started, deadline, let_go_at, let_go_every

    def __init__(self, unsigned long long node_limit, double time_limit,
                 unsigned long long memory_limit):
        self.expanded = self.generated = self.max_frontier = self.peak = 0
        self.iterations = 1
        self.depth = 0
        self.reached = 0
        self.reexpanded = -1
        self.status = STATUS_RUNNING
        self.node_limit = node_limit
        self.memory_limit = memory_limit
        self.started = time.perf_counter()
        self.deadline = self.started + time_limit if time_limit > 0 else 0.0
        # Twice the interpreter's switch interval: see stop().
        self.let_go_every = 2.0 * sys.getswitchinterval()
        self.let_go_at = self.started + self.let_go_every

    cdef int stop(self, unsigned long long stored) except -1:
        # 1 when a limit ends the search before the next expansion (status set), else 0.
        # Ctrl-C raises here, which it would not until the search ended (a loop of compiled
        # calls never runs Python's signal check), and now and then the GIL is let go so that
        # other threads run. Let go on a clock, not on a count: a thread waiting for the GIL
        # asks for it only after one switch interval (5 ms) in which it did not change hands,
        # and every release wakes it to a lock already taken again, so releases closer together
        # than that starve it (a timer thread's Ctrl-C came 11 s late). Two intervals apart,
        # its request is in place and the next release hands the GIL over.
        cdef double now
        if self.expanded % CLOCK_EVERY == 0:
            PyErr_CheckSignals()
            now = time.perf_counter()
            if now >= self.let_go_at:
                with nogil:
                    pass
                self.let_go_at = now + self.let_go_every
            if self.deadline and now > self.deadline:
                self.status = STATUS_TIME_LIMIT
        if stored * ENTRY_BYTES > self.peak:
            self.peak = stored * ENTRY_BYTES
        if self.node_limit and self.expanded >= self.node_limit:
            self.status = STATUS_NODE_LIMIT
        elif self.memory_limit and stored * ENTRY_BYTES > self.memory_limit:
            self.status = STATUS_MEMORY_LIMIT
        return self.status != STATUS_RUNNING

    cdef result(self, str moves):
        if self.status == STATUS_SOLVED:
            self.depth = len(moves)
        if self.peak < 8:
            self.peak = 8
        return core_result(
            self.status, moves if self.status == STATUS_SOLVED else "", self.expanded,
            self.generated, self.max_frontier, self.peak, time.perf_counter() - self.started,
            self.depth, self.iterations, self.peak, self.reached, self.reexpanded,
        )

    cdef inline void generated_at(self, list kids, int g):
        # Children of a node at depth g were generated: the deepest g reached.
        if kids and g + 1 > self.reached:
            self.reached = g + 1


def breadth_first(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, tuple order,
    bint at_generation=True, unsigned long long node_limit=0, double time_limit=0.0,
    unsigned long long memory_limit=0, int max_depth=-1,
):
    """Breadth-first search with a FIFO queue and a record of boards seen, in ``order``.

    ``at_generation``: a child is tested for the goal when it is generated (the compiled BFS's
    rule), else when it leaves the queue, as uniform-cost search does.
    """
    cdef _Space s = _Space(rows, cols, goal_blank, order, -1, None, ())
    cdef _Counters c = _Counters(node_limit, time_limit, memory_limit)
    cdef dict parents = {start: (-1, 0, 0)}      # board -> (move, parent, depth)
    cdef bint pruned = False
    cdef uint64_t board, child
    cdef int depth, d, target
    queue = deque([(start, blank, -1, 0)])
    c.reexpanded = 0                    # a record of boards seen: none is expanded twice
    if start == s.goal:
        c.status = STATUS_SOLVED
        return c.result("")
    while queue:
        if c.stop(len(parents)):
            return c.result("")
        board, blank, last, depth = queue.popleft()
        if depth > c.depth:
            c.depth = depth
        if not at_generation and board == s.goal:
            c.status = STATUS_SOLVED
            return c.result(path_back(parents, board, 0))
        if max_depth >= 0 and depth >= max_depth:
            pruned = True
            if at_generation:
                break                   # every board within max_depth generated
            continue
        c.expanded += 1
        kids = s.children(board, blank, last)
        c.generated += len(kids)
        c.generated_at(kids, depth)
        for child, target, d in kids:
            if child in parents:
                continue
            parents[child] = (d, board, depth + 1)
            if at_generation and child == s.goal:
                c.status = STATUS_SOLVED
                return c.result(path_back(parents, child, 0))
            queue.append((child, target, d, depth + 1))
        if <unsigned long long>len(queue) > c.max_frontier:
            c.max_frontier = len(queue)
    c.status = STATUS_DEPTH_LIMIT if pruned else STATUS_EXHAUSTED
    return c.result("")


def best_first(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, tuple order,
    str ties="lowest_h", int heuristic=-1, object function=None, tuple labels=(),
    double g_scale=1.0, double h_scale=1.0, unsigned long long node_limit=0,
    double time_limit=0.0, unsigned long long memory_limit=0, int max_depth=-1,
):
    """Best-first search on ``g_scale * g + h_scale * h`` with a closed set, goal test on
    expansion, as ``_search.best_first`` (A*: 1, 1; greedy: 0, 1; uniform-cost: 1, 0).

    ``heuristic`` is a compiled heuristic code, or ``function`` a Python function of the
    board's tiles in ``labels`` (canonical tile -> the caller's tile); ``ties`` one of
    :data:`TIES`. An open board reached by a shorter path is queued again (the old copy goes
    stale); a closed board is never reopened.
    """
    cdef _Space s = _Space(rows, cols, goal_blank, order, heuristic, function, labels)
    cdef _Counters c = _Counters(node_limit, time_limit, memory_limit)
    cdef bint by_g = g_scale > 0
    cdef bint pruned = False
    cdef long long counter = 0
    cdef uint64_t board, child
    cdef int g, d, target, rule
    # board -> [g, h, move, parent, closed]
    cdef dict table = {}
    cdef list heap = []
    if ties not in TIES:
        raise ValueError(f"unknown tie rule {ties!r}")
    rule = TIES.index(ties)
    h = s.h(start)
    table[start] = [0, h, -1, 0, False]
    c.reexpanded = 0                    # a closed board is never reopened
    heap.append((h_scale * h, 0, 0, 0, start, blank))
    while True:
        if c.stop(len(table) + len(heap)):
            return c.result("")
        if not heap:
            c.status = STATUS_DEPTH_LIMIT if pruned else STATUS_EXHAUSTED
            return c.result("")
        item = heapq.heappop(heap)
        board = item[4]
        blank = item[5]
        entry = table[board]
        if entry[4] or (by_g and entry[0] != item[3]):
            continue                    # a stale copy: reached again by a shorter path
        entry[4] = True
        g = entry[0]
        if g > c.depth:
            c.depth = g
        if board == s.goal:
            c.status = STATUS_SOLVED
            return c.result(path_back(table, board, 2))
        c.expanded += 1
        if max_depth >= 0 and g >= max_depth:
            pruned = True
            continue
        kids = s.children(board, blank, entry[2])
        c.generated += len(kids)
        c.generated_at(kids, g)
        for child, target, d in kids:
            known = table.get(child)
            if known is None:
                ch = s.h(child)
                table[child] = [g + 1, ch, d, board, False]
            elif known[4] or not by_g or known[0] <= g + 1:
                continue
            else:
                ch = known[1]
                known[0] = g + 1
                known[2] = d
                known[3] = board
            counter += 1
            # heapq takes the smallest: the newest first is the largest count, negated. Among
            # equal priorities g_scale * g + h_scale * h, the lowest h is the largest g (the
            # compiled queue's key, which also holds where h_scale is 0: uniform-cost search).
            heapq.heappush(heap, (
                g_scale * (g + 1) + h_scale * ch,
                -(g + 1) if rule == 0 and by_g else 0,
                counter if rule == 2 else -counter,
                g + 1 if by_g else 0,
                child,
                target,
            ))
        if <unsigned long long>len(heap) > c.max_frontier:
            c.max_frontier = len(heap)


cdef str path_back(dict entries, uint64_t board, int move_at):
    # Moves from the root to `board`: each entry holds the move that reached its board at
    # `move_at` (-1 at the root) and the board it came from just after.
    cdef list letters = []
    entry = entries[board]
    while entry[move_at] >= 0:
        letters.append(DIRECTION_LETTERS[entry[move_at]])
        board = entry[move_at + 1]
        entry = entries[board]
    letters.reverse()
    return "".join(letters)


def idastar(
    uint64_t start, int blank, int rows, int cols, int goal_blank, *, tuple order,
    int heuristic=-1, object function=None, tuple labels=(), double weight=1.0,
    unsigned long long node_limit=0, double time_limit=0.0, unsigned long long memory_limit=0,
    int max_depth=-1,
):
    """IDA*: depth-first passes bounded by ``f = g + weight * h``, parent pruning only, goal
    test when a node is reached; the next bound is the smallest f that passed the last one.
    ``max_depth`` ends the search once the bound passes it (DEPTH_LIMIT)."""
    cdef _Space s = _Space(rows, cols, goal_blank, order, heuristic, function, labels)
    cdef _Counters c = _Counters(node_limit, time_limit, memory_limit)
    cdef list path = []
    c.iterations = 0
    bound = weight * s.h(start)
    while True:
        c.iterations += 1
        c.depth = <int>math.ceil(bound - 1e-9) if bound < 1e9 else 1 << 30
        if max_depth >= 0 and bound > max_depth + 1e-9:
            c.status = STATUS_DEPTH_LIMIT
            return c.result("")
        smallest = pass_bounded(s, c, start, blank, -1, 0, bound, weight, path)
        if c.status == STATUS_SOLVED:
            return c.result("".join([DIRECTION_LETTERS[d] for d in path]))
        if c.status != STATUS_RUNNING:
            return c.result("")
        if smallest is None:
            c.status = STATUS_EXHAUSTED
            return c.result("")
        bound = smallest


cdef object pass_bounded(
    _Space s, _Counters c, uint64_t board, int blank, int last, int g, object bound,
    double weight, list path
):
    # One subtree of a pass: SOLVED with `path` filled, or the smallest f past the bound below
    # it (None: nothing past it), or a limit's status.
    cdef uint64_t child
    cdef int target, d
    f = g + weight * s.h(board)
    if f > bound + 1e-9:
        return f
    if board == s.goal:
        c.status = STATUS_SOLVED
        return None
    if c.stop(len(path) + 1):
        return None
    c.expanded += 1
    if <unsigned long long>len(path) + 1 > c.max_frontier:
        c.max_frontier = len(path) + 1
    smallest = None
    kids = s.children(board, blank, last)
    c.generated += len(kids)
    c.generated_at(kids, g)
    for child, target, d in kids:
        path.append(d)
        below = pass_bounded(s, c, child, target, d, g + 1, bound, weight, path)
        if c.status != STATUS_RUNNING:
            return None
        path.pop()
        if below is not None and (smallest is None or below < smallest):
            smallest = below
    return smallest
