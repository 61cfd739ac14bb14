"""Pattern-database groups checked and laid out once, for every search that reads them.

Both IDA* kernels (``_idastar`` on packed boards, ``_wide_pdb`` past 16 cells) keep a
``Patterns`` struct (``_pdbgroups.pxd``). Filling it from a database's Python objects (a buffer
per table, every tile's group and slot) cost a third of a one-move search; a
:class:`LoadedPatterns` does it once, and each search copies the struct.
"""

from libc.string cimport memcpy

from fastpuzzle._core._packed cimport goal_cell_of
from fastpuzzle._core._pdbgroups cimport (
    DUAL_ALT,
    DUAL_MAIN,
    DUAL_NONE,
    EXTRA_MAX_COUNT,
    EXTRA_MAX_GROUPS,
    GROUP_MAX_CELLS,
    GROUP_MAX_COUNT,
    Duals,
    Group,
    Patterns,
    load_groups,
    load_patterns,
)


cdef class LoadedPatterns:
    """A database's groups as the kernels read them, for one board size and goal blank.

    Parameters
    ----------
    groups : sequence
        ``(tiles, sparse, nibble, table)`` per group, as :class:`fastpuzzle.pdb.Database` holds.
    reflect : sequence of int or None
        The cell mirrored about the main diagonal per cell, or None.
    cells, bits, goal_blank : int
        The board's cells, the bits of a slot of a sparse index (4 on packed boards, 5 past 16
        cells) and the goal's blank cell.
    extra : sequence, optional
        A compound heuristic's other partitions (at most ``EXTRA_MAX_COUNT``, 7), each a
        sequence of groups as ``groups`` is (at most ``EXTRA_MAX_GROUPS``, 8): the kernels take
        the largest sum (the one on packed boards reads one such partition). A group in several
        partitions is one table, read by each of them.
    extra_reflect : sequence, optional
        Per partition of ``extra``, its ``reflect`` (a sequence of int or None); by default
        ``reflect`` for each.
    dual : tuple, optional
        ``(choices, alts)`` to also read the tables on the dual board (and on the mirrored dual
        board when ``reflect`` is given): ``choices[group][goal_blank]`` is -1 (the group counts
        nothing on a dual board with that goal blank), 0 (its own table) or 1 (its ``alts``
        table); ``alts[group]`` is None or ``(tiles, sparse, nibble, table)``, the group's table
        built for the other region of its free cells, with the same goal cells in the same slot
        order (see :mod:`fastpuzzle.pdb.dual`).
    zero : (rows, cols), optional
        The board's shape when every table (``extra``'s too) is zero-aware (``_zero.pxd``):
        read by the kernel past 16 cells, without dual lookups.
    """

    def __cinit__(self, groups, reflect, int cells, int bits, int goal_blank, dual=None,
                  extra=None, zero=None, extra_reflect=None):
        cdef int j
        arrays = []
        if zero is not None:
            if bits != 5 or len(zero) != 2 or zero[0] * zero[1] != cells:
                raise ValueError("zero-aware tables are read past 16 cells, on their shape")
            if dual is not None:
                raise ValueError("dual lookups read plain tables, not zero-aware ones")
            zero = (int(zero[0]), int(zero[1]))
        self.zero = zero is not None
        load_patterns(&self.pat, cells, bits, goal_blank, groups, reflect, arrays, zero)
        self.cells = cells
        self.bits = bits
        self.goal_blank = goal_blank
        self.dual = dual is not None
        self.n_extra = 0
        if extra:
            if dual is not None:
                raise ValueError("dual lookups take one partition, not a compound")
            if len(extra) > EXTRA_MAX_COUNT:
                raise ValueError(f"expected at most {EXTRA_MAX_COUNT + 1} partitions")
            if extra_reflect is None:
                extra_reflect = [reflect] * len(extra)
            elif len(extra_reflect) != len(extra):
                raise ValueError(
                    f"expected a reflect for each of the {len(extra)} other partitions, "
                    f"got {len(extra_reflect)}"
                )
            for j, partition in enumerate(extra):
                load_patterns(&self.extra[j], cells, bits, goal_blank, partition,
                              extra_reflect[j], arrays, zero)
                if self.extra[j].n_groups > EXTRA_MAX_GROUPS:
                    raise ValueError(
                        f"a compound's partitions have at most {EXTRA_MAX_GROUPS} groups"
                    )
            self.n_extra = len(extra)
            for j in range(self.n_extra):
                find_same(&self.extra[j], &self.pat, self.extra, j, cells)
        if dual is not None:
            load_duals(&self.duals, &self.pat, cells, bits, goal_blank, dual, arrays)
        self.arrays = arrays

    @property
    def n_groups(self):
        """The number of groups."""
        return self.pat.n_groups

    @property
    def mirror(self):
        """Whether the board mirrored about the diagonal is looked up too."""
        return bool(self.pat.mirror)

    @property
    def shared(self):
        """Per partition of ``extra``, per group: the earlier partition (0: the first, j + 1:
        ``extra[j]``) that has the same group (its table, its tiles in the same slots), whose
        lookups the kernel takes instead of its own; -1: none."""
        cdef int j, grp
        return tuple(
            tuple(self.extra[j].same_as[grp] for grp in range(self.extra[j].n_groups))
            for j in range(self.n_extra)
        )

    def __reduce__(self):
        raise TypeError("LoadedPatterns point into their tables: pickle the Database instead")


cdef int load_duals(Duals* d, const Patterns* p, int cells, int bits, int goal_blank, dual,
                    list keep) except -1:
    # Fill d from ``(choices, alts)`` (see LoadedPatterns), checking every value.
    cdef Group alt_group[1]
    cdef int group_of[GROUP_MAX_CELLS]
    cdef int shift_of[GROUP_MAX_CELLS]
    cdef int grp, beta, tile, cell, value
    choices, alts = dual
    if len(choices) != p.n_groups or len(alts) != p.n_groups:
        raise ValueError(f"expected dual choices and alternative tables for {p.n_groups} groups")
    d.mirror = p.mirror
    d.bits = bits
    for cell in range(GROUP_MAX_CELLS):
        d.label_group[cell] = -1
        d.label_shift[cell] = 0
        d.home[cell] = 0
        d.reflect_cell[cell] = p.reflect_cell[cell] if p.mirror and cell < cells else cell
    for tile in range(1, cells):
        cell = goal_cell_of(tile, goal_blank)
        d.home[tile] = cell
        d.label_group[cell] = p.group_of[tile]
        d.label_shift[cell] = p.shift_of[tile]
    d.home[0] = goal_blank
    for grp in range(p.n_groups):
        if len(choices[grp]) != cells:
            raise ValueError(f"expected a dual choice for each of the {cells} cells")
        for beta in range(GROUP_MAX_CELLS):
            d.choice[grp][beta] = DUAL_NONE
        for beta in range(cells):
            value = choices[grp][beta]
            if value not in (DUAL_NONE, DUAL_MAIN, DUAL_ALT):
                raise ValueError(f"expected dual choices of -1, 0 or 1, got {value!r}")
            if value == DUAL_ALT and alts[grp] is None:
                raise ValueError(f"group {grp} has no alternative table to choose")
            d.choice[grp][beta] = value
        if alts[grp] is not None:
            # Checked and laid out as a one-group database of its own.
            load_groups(alt_group, group_of, shift_of, cells, bits, [alts[grp]], keep)
            if alt_group[0].k != p.groups[grp].k or alt_group[0].sparse != p.groups[grp].sparse:
                raise ValueError(f"the alternative table of group {grp} is not of its size")
            d.alt[grp] = alt_group[0]
    return 0


cdef void copy_duals(Duals* out, const Duals* loaded, int n_groups) noexcept nogil:
    # The maps and choices, and only the alternative tables of groups in use.
    memcpy(out, loaded, sizeof(Duals) - GROUP_MAX_COUNT * sizeof(Group))
    memcpy(out.alt, loaded.alt, n_groups * sizeof(Group))


cdef LoadedPatterns patterns_for(tables, int cells, int bits, int goal_blank):
    # ``tables`` laid out for a kernel: a LoadedPatterns as it is (checked against the board),
    # else anything with ``groups`` and ``reflect`` (a Database), loaded now.
    cdef LoadedPatterns loaded
    if type(tables) is LoadedPatterns:
        loaded = <LoadedPatterns>tables
        if loaded.cells != cells or loaded.bits != bits or loaded.goal_blank != goal_blank:
            raise ValueError(
                f"these tables are for {loaded.cells} cells, {loaded.bits}-bit slots and goal "
                f"blank {loaded.goal_blank}, not {cells}, {bits} and {goal_blank}"
            )
        return loaded
    if not hasattr(tables, "groups"):
        raise TypeError(
            f"expected a Database or LoadedPatterns (several partitions: "
            f"Database.loaded_with), got {type(tables).__name__}"
        )
    zero = tables.shape if getattr(tables, "zero_aware", False) else None
    return LoadedPatterns(tables.groups, tables.reflect, cells, bits, goal_blank, zero=zero)


cdef bint same_group(const Patterns* a, int grp, const Patterns* b, int other,
                     int cells) noexcept nogil:
    # Whether group grp of a and group other of b are one group: the same table, read with the
    # same tiles in the same slots (so one index and one entry after any move), on boards
    # mirrored the same way (its mirrored lookup is shared too).
    cdef int tile
    if (a.groups[grp].data != b.groups[other].data or a.groups[grp].k != b.groups[other].k
            or a.groups[grp].zero != b.groups[other].zero or a.mirror != b.mirror):
        return False
    if a.mirror:
        for tile in range(cells):
            if a.reflect_cell[tile] != b.reflect_cell[tile]:
                return False
    for tile in range(1, cells):
        if (a.group_of[tile] == grp) != (b.group_of[tile] == other):
            return False
        if a.group_of[tile] == grp and a.shift_of[tile] != b.shift_of[tile]:
            return False
    return True


cdef void find_same(Patterns* p, const Patterns* first, const Patterns* extra, int j,
                    int cells) noexcept nogil:
    # p (extra[j]).same_as: for each group, the earliest partition before it with that group.
    cdef const Patterns* earlier
    cdef int grp, i, other
    for grp in range(p.n_groups):
        p.same_as[grp] = -1
        for i in range(j + 1):
            earlier = first if i == 0 else &extra[i - 1]
            for other in range(earlier.n_groups):
                if same_group(p, grp, earlier, other, cells):
                    p.same_as[grp] = i
                    break
            if p.same_as[grp] >= 0:
                break


cdef void copy_patterns(Patterns* out, const Patterns* loaded) noexcept nogil:
    # The maps, and only the groups in use (each Group carries 25 rank weights).
    out.n_groups = loaded.n_groups
    out.mirror = loaded.mirror
    memcpy(out.same_as, loaded.same_as, GROUP_MAX_COUNT * sizeof(int))
    memcpy(out.groups, loaded.groups, loaded.n_groups * sizeof(Group))
    memcpy(out.group_of, loaded.group_of, GROUP_MAX_CELLS * sizeof(int))
    memcpy(out.shift_of, loaded.shift_of, GROUP_MAX_CELLS * sizeof(int))
    if loaded.mirror:
        memcpy(out.reflect_cell, loaded.reflect_cell, GROUP_MAX_CELLS * sizeof(int))
        memcpy(out.mgroup_of, loaded.mgroup_of, GROUP_MAX_CELLS * sizeof(int))
        memcpy(out.mshift_of, loaded.mshift_of, GROUP_MAX_CELLS * sizeof(int))
