"""Pattern-database groups checked and laid out once, for every search that reads them.

Both IDA* kernels (``_idastar`` on packed boards, ``_wide_pdb`` past 16 cells) keep a
``Patterns`` struct (``_pdbgroups.pxd``). Filling it from a database's Python objects (a buffer
per table, every tile's group and slot) cost a third of a one-move search; a
:class:`LoadedPatterns` does it once, and each search copies the struct.
"""

from libc.string cimport memcpy

from fastpuzzle._core._pdbgroups cimport GROUP_MAX_CELLS, Group, Patterns, load_patterns


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
    """

    def __cinit__(self, groups, reflect, int cells, int bits, int goal_blank):
        arrays = []
        load_patterns(&self.pat, cells, bits, goal_blank, groups, reflect, arrays)
        self.cells = cells
        self.bits = bits
        self.goal_blank = goal_blank
        self.arrays = arrays

    @property
    def n_groups(self):
        """The number of groups."""
        return self.pat.n_groups

    @property
    def mirror(self):
        """Whether the board mirrored about the diagonal is looked up too."""
        return bool(self.pat.mirror)

    def __reduce__(self):
        raise TypeError("LoadedPatterns point into their tables: pickle the Database instead")


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
    return LoadedPatterns(tables.groups, tables.reflect, cells, bits, goal_blank)


cdef void copy_patterns(Patterns* out, const Patterns* loaded) noexcept nogil:
    # The maps, and only the groups in use (each Group carries 25 rank weights).
    out.n_groups = loaded.n_groups
    out.mirror = loaded.mirror
    memcpy(out.groups, loaded.groups, loaded.n_groups * sizeof(Group))
    memcpy(out.group_of, loaded.group_of, GROUP_MAX_CELLS * sizeof(int))
    memcpy(out.shift_of, loaded.shift_of, GROUP_MAX_CELLS * sizeof(int))
    if loaded.mirror:
        memcpy(out.reflect_cell, loaded.reflect_cell, GROUP_MAX_CELLS * sizeof(int))
        memcpy(out.mgroup_of, loaded.mgroup_of, GROUP_MAX_CELLS * sizeof(int))
        memcpy(out.mshift_of, loaded.mshift_of, GROUP_MAX_CELLS * sizeof(int))
