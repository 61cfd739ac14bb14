"""XXH64, the 64-bit xxHash (Yann Collet's specification, ``doc/xxhash_spec.md`` of xxHash):
the checksum of a pattern database file, taken as fast as memory delivers the bytes.

A table file is hundreds of megabytes, read again by every process that searches on it; BLAKE2b
took 0.28 s of CPU for 5x5's 255 MB where XXH64 takes a tenth of that. The checksum only has to
find damage (a truncated or rewritten file, flipped bits): the tables' own distance checks are
what a changed file is judged by (anyone who edits a file can recompute any checksum).
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* XXH64 reads its input as little-endian words, whatever the machine. */
    static inline uint64_t fp_xxh_read64(const unsigned char *p) {
        uint64_t v;
        memcpy(&v, p, 8);
    #if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) \\
        && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
    #endif
        return v;
    }
    static inline uint64_t fp_xxh_read32(const unsigned char *p) {
        return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16)
            | ((uint64_t)p[3] << 24);
    }
    """
    uint64_t read64 "fp_xxh_read64"(const unsigned char* p) noexcept nogil
    uint64_t read32 "fp_xxh_read32"(const unsigned char* p) noexcept nogil

cdef uint64_t P1 = 0x9E3779B185EBCA87ULL
cdef uint64_t P2 = 0xC2B2AE3D27D4EB4FULL
cdef uint64_t P3 = 0x165667B19E3779F9ULL
cdef uint64_t P4 = 0x85EBCA77C2B2AE63ULL
cdef uint64_t P5 = 0x27D4EB2F165667C5ULL

#: Bytes hashed with the GIL held: a short update is not worth releasing it.
cdef Py_ssize_t RELEASE_FROM = 1 << 16


cdef inline uint64_t rotl(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))


cdef inline uint64_t step(uint64_t acc, uint64_t lane) noexcept nogil:
    acc += lane * P2
    return rotl(acc, 31) * P1


cdef inline uint64_t merge(uint64_t acc, uint64_t lane) noexcept nogil:
    acc ^= step(0, lane)
    return acc * P1 + P4


cdef class Xxh64:
    """A running XXH64 of the bytes given to :meth:`update`, as ``hashlib``'s objects run.

    Parameters
    ----------
    seed : int
        The hash's seed (0: the plain XXH64 of the bytes).
    """

    cdef uint64_t lanes[4]
    cdef uint64_t seed
    cdef uint64_t total
    cdef unsigned char pending[32]
    cdef Py_ssize_t pending_count

    def __init__(self, uint64_t seed=0):
        self.seed = seed
        self.lanes[0] = seed + P1 + P2
        self.lanes[1] = seed + P2
        self.lanes[2] = seed
        self.lanes[3] = seed - P1
        self.total = 0
        self.pending_count = 0

    cdef void stripes(self, const unsigned char* data, Py_ssize_t count) noexcept nogil:
        # ``count`` is a multiple of 32: four lanes of 8 bytes each.
        cdef uint64_t v1 = self.lanes[0]
        cdef uint64_t v2 = self.lanes[1]
        cdef uint64_t v3 = self.lanes[2]
        cdef uint64_t v4 = self.lanes[3]
        cdef Py_ssize_t i = 0
        while i < count:
            v1 = step(v1, read64(data + i))
            v2 = step(v2, read64(data + i + 8))
            v3 = step(v3, read64(data + i + 16))
            v4 = step(v4, read64(data + i + 24))
            i += 32
        self.lanes[0] = v1
        self.lanes[1] = v2
        self.lanes[2] = v3
        self.lanes[3] = v4

    def update(self, const uint8_t[::1] data not None):
        """Hash ``data`` (any contiguous bytes: bytes, a memoryview, a uint8 array) next."""
        cdef const unsigned char* p = <const unsigned char*>&data[0] if data.shape[0] else NULL
        cdef Py_ssize_t count = data.shape[0]
        cdef Py_ssize_t take, whole
        if count == 0:
            return
        self.total += <uint64_t>count
        if self.pending_count:
            take = min(32 - self.pending_count, count)
            memcpy(self.pending + self.pending_count, p, take)
            self.pending_count += take
            p += take
            count -= take
            if self.pending_count < 32:
                return
            self.stripes(self.pending, 32)
            self.pending_count = 0
        whole = count - count % 32
        if whole >= RELEASE_FROM:
            with nogil:
                self.stripes(p, whole)
        elif whole:
            self.stripes(p, whole)
        if count > whole:
            memcpy(self.pending, p + whole, count - whole)
            self.pending_count = count - whole

    def intdigest(self) -> int:
        """The hash of every byte given so far, as an int (the running hash goes on)."""
        cdef uint64_t h
        cdef Py_ssize_t i = 0
        cdef const unsigned char* p = self.pending
        if self.total >= 32:
            h = (rotl(self.lanes[0], 1) + rotl(self.lanes[1], 7) + rotl(self.lanes[2], 12)
                 + rotl(self.lanes[3], 18))
            h = merge(h, self.lanes[0])
            h = merge(h, self.lanes[1])
            h = merge(h, self.lanes[2])
            h = merge(h, self.lanes[3])
        else:
            h = self.seed + P5
        h += self.total
        while i + 8 <= self.pending_count:
            h ^= step(0, read64(p + i))
            h = rotl(h, 27) * P1 + P4
            i += 8
        if i + 4 <= self.pending_count:
            h ^= read32(p + i) * P1
            h = rotl(h, 23) * P2 + P3
            i += 4
        while i < self.pending_count:
            h ^= p[i] * P5
            h = rotl(h, 11) * P1
            i += 1
        h ^= h >> 33
        h *= P2
        h ^= h >> 29
        h *= P3
        h ^= h >> 32
        return h

    def hexdigest(self) -> str:
        """:meth:`intdigest` as 16 hexadecimal digits (``xxhash``'s and ``xxhsum``'s form)."""
        return format(self.intdigest(), "016x")
