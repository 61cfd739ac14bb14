"""Random boards drawn straight into packed words, without the GIL.

``random_packed`` fills an array with uniform boards that can reach a goal: a Fisher-Yates
shuffle of the cells per board, its parity counted on the way, and the unsolvable half mapped
one-to-one onto the solvable half by swapping tiles 1 and 2. Nothing is allocated per board: the
only memory is the caller's output array.

The random numbers come from the caller's numpy ``BitGenerator`` through its C interface (the
``bitgen_t`` capsule), under the generator's lock, so a seed gives the same boards whatever the
caller's block size.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint8_t, uint32_t, uint64_t


# The layout of numpy/random/bitgen.h, numpy's documented C interface to bit generators. It is
# declared here rather than cimported from numpy so that the build needs no numpy headers.
cdef struct bitgen_t:
    void* state
    uint64_t (*next_uint64)(void* st) noexcept nogil
    uint32_t (*next_uint32)(void* st) noexcept nogil
    double (*next_double)(void* st) noexcept nogil
    uint64_t (*next_raw)(void* st) noexcept nogil


cdef inline uint32_t bounded(bitgen_t* bitgen, uint32_t bound) noexcept nogil:
    # Lemire's multiply-and-reject: exactly uniform on 0..bound-1, one draw nearly always.
    cdef uint32_t threshold = (<uint32_t>(-bound)) % bound
    cdef uint64_t product = <uint64_t>bitgen.next_uint32(bitgen.state) * bound
    while <uint32_t>product < threshold:
        product = <uint64_t>bitgen.next_uint32(bitgen.state) * bound
    return <uint32_t>(product >> 32)


cdef inline int displacement_parity(int a, int b, int cols) noexcept nogil:
    return (abs(a // cols - b // cols) + abs(a % cols - b % cols)) & 1


cdef int word_parity_and_blank(uint64_t word, int cells, int* blank) noexcept nogil:
    # Parity of the cell -> tile permutation, by following its cycles.
    cdef uint8_t tiles[16]
    cdef int cell, swaps = 0
    cdef uint8_t tile
    for cell in range(cells):
        tiles[cell] = (word >> (4 * cell)) & 15
        if tiles[cell] == 0:
            blank[0] = cell
    for cell in range(cells):
        while tiles[cell] != cell:
            tile = tiles[cell]
            tiles[cell] = tiles[tile]
            tiles[tile] = tile
            swaps += 1
    return swaps & 1


cdef void fill(
    uint64_t* out, Py_ssize_t count, bitgen_t* bitgen, int cells, int cols, int want
) noexcept nogil:
    # want: the goal's parity XOR its blank cell's parity of position, reduced per board below.
    cdef uint8_t tiles[16]
    cdef Py_ssize_t row
    cdef int i, j, parity, blank = 0, one = 0, two = 0
    cdef uint8_t tile
    cdef uint64_t word
    for row in range(count):
        for i in range(cells):
            tiles[i] = i
        parity = 0
        for i in range(cells - 1, 0, -1):
            j = bounded(bitgen, i + 1)
            if j != i:
                tile = tiles[i]
                tiles[i] = tiles[j]
                tiles[j] = tile
                parity ^= 1
        for i in range(cells):
            if tiles[i] == 0:
                blank = i
            elif tiles[i] == 1:
                one = i
            elif tiles[i] == 2:
                two = i
        if parity != (want ^ ((blank // cols + blank % cols) & 1)):
            # Swapping two tiles flips the parity and keeps the blank: an involution between
            # the unsolvable and the solvable boards, so the result stays uniform.
            tiles[one] = 2
            tiles[two] = 1
        word = 0
        for i in range(cells):
            word |= (<uint64_t>tiles[i]) << (4 * i)
        out[row] = word


def random_packed(uint64_t[::1] out, object bit_generator, uint64_t goal, int rows, int cols):
    """Fill ``out`` with uniform boards that can reach ``goal`` (packed words, shape rows x cols).

    ``bit_generator`` is a ``numpy.random.BitGenerator``; its lock is held while drawing.
    """
    cdef int cells = rows * cols
    cdef int goal_blank = 0
    cdef int goal_parity = word_parity_and_blank(goal, cells, &goal_blank)
    # A board b is solvable iff parity(b) ^ parity(goal) == displacement parity of the blanks;
    # the displacement parity is (row + col of b's blank) ^ (row + col of the goal's blank).
    cdef int want = goal_parity ^ displacement_parity(goal_blank, 0, cols)
    cdef bitgen_t* bitgen = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    with bit_generator.lock, nogil:
        fill(&out[0] if out.shape[0] else NULL, out.shape[0], bitgen, cells, cols, want)
