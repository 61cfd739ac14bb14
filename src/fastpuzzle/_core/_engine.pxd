# What every IDA* kernel shares by declaration (_idastar.pyx and _wide_pdb.pyx through the
# engine text _engine.pxi, and _wide.pyx): the drivers' return codes, the order children are
# tried in, and the step of the duplicate-pruning machine (_fsm.pyx). Inline, so a kernel pays
# no call for them.

from libc.stdint cimport int32_t

from fastpuzzle._core._packed cimport DIR_D, DIR_L, DIR_R, DIR_U

cdef enum:
    # What a driver returns (-2: a Python exception is set, Ctrl-C or the progress callback).
    SEARCHED = 0            # no goal in the subtree within the bound
    FOUND = 1               # the goal: s.path holds the moves to it
    STOPPED = 2             # a limit or the team stopped the search (s.status says which)
    OVER_BOUND = 3          # enter() only: f is over the bound, the node is not expanded
    # The machine: the state at the start, and a move it forbids.
    MACHINE_START = 0
    FORBIDDEN = -1


cdef inline int child_direction(int k) noexcept nogil:
    # Children are tried with the blank moving D, R, L, U (the order random50.tsv's node counts
    # assume), in every kernel.
    if k == 0:
        return DIR_D
    if k == 1:
        return DIR_R
    if k == 2:
        return DIR_L
    return DIR_U


cdef inline int32_t machine_next(const int32_t* machine, int32_t state,
                                 int direction) noexcept nogil:
    # The machine's state once the blank moves ``direction``, or FORBIDDEN: that move would end
    # a string with an earlier twin. No table (NULL): parent pruning, the machine of the
    # two-move strings UD, DU, LR, RL, computed rather than read (its state is the last move
    # + 1, 0 at the start), so that the published counts' search costs no load a child.
    if machine == NULL:
        if state != MACHINE_START and ((state - 1) ^ 1) == direction:
            return FORBIDDEN
        return direction + 1
    return machine[4 * state + direction]


cdef inline const int32_t* machine_table(object machine, list keep) except? NULL:
    # The table of a machine from _fsm.compile (int32, ``(states, 4)``, kept alive in ``keep``
    # for the search), or NULL for parent pruning when it is None. Its entries are trusted:
    # the Python layer builds it, and checking millions of them would cost more than a small
    # search.
    cdef const int32_t[:, ::1] table
    if machine is None:
        return NULL
    table = machine
    if table.shape[0] < 1 or table.shape[1] != 4:
        raise ValueError(f"expected a machine of shape (states, 4), got {machine.shape}")
    keep.append(machine)
    return &table[0, 0]


cdef inline int32_t machine_states(object machine):
    # How many states a search with ``machine`` (as machine_table takes it) can be in: where a
    # unit from another process may start.
    if machine is None:
        return 5  # parent pruning: the start, and the last move + 1
    return machine.shape[0]
