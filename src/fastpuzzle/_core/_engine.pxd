# What every IDA* kernel shares by declaration (_idastar.pyx and _wide_pdb.pyx through the
# engine text _engine.pxi, and _wide_idastar.pyx): the drivers' return codes, the order children
# are tried in, and the step of the duplicate-pruning machine (_fsm.pyx). Inline, so a kernel pays
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


# Parent pruning as a machine (its state is the last move + 1, 0 at the start): the moves that
# undo the last one are forbidden. A table like any other, so that a kernel reads every machine
# the same way (a branch on "no table" a child cost more than this load from the first level
# cache).
cdef extern from *:
    """
    static const int32_t fastpuzzle_parent_machine[20] = {
        1, 2, 3, 4,     /* the start */
        1, -1, 3, 4,    /* after U: no D */
        -1, 2, 3, 4,    /* after D: no U */
        1, 2, 3, -1,    /* after L: no R */
        1, 2, -1, 4,    /* after R: no L */
    };
    """
    const int32_t* PARENT_MACHINE "fastpuzzle_parent_machine"
    enum:
        PARENT_STATES "5"


cdef inline int32_t machine_next(const int32_t* machine, int32_t state,
                                 int direction) noexcept nogil:
    # The machine's state once the blank moves ``direction``, or FORBIDDEN: that move would end
    # a string with an earlier twin.
    return machine[4 * state + direction]


cdef inline const int32_t* machine_table(object machine, list keep) except NULL:
    # The table of a machine from _fsm.compile (int32, ``(states, 4)``, kept alive in ``keep``
    # for the search), or parent pruning's when it is None. Its entries are trusted: the Python
    # layer builds and checks it (fastpuzzle._solver.pruning), and checking millions of them
    # here would cost more than a small search.
    cdef const int32_t[:, ::1] table
    if machine is None:
        return PARENT_MACHINE
    table = machine
    if table.shape[0] < 1 or table.shape[1] != 4:
        raise ValueError(f"expected a machine of shape (states, 4), got {machine.shape}")
    keep.append(machine)
    return &table[0, 0]


cdef inline int32_t machine_states(object machine):
    # How many states a search with ``machine`` (as machine_table takes it) can be in: where a
    # unit from another process may start.
    if machine is None:
        return PARENT_STATES
    return machine.shape[0]
