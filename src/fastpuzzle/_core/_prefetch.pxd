# A portable cache prefetch, shared by every kernel that reads large tables: GCC and Clang have
# a builtin; other compilers (MSVC) get a no-op, so that the core still builds there.

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define fastpuzzle_prefetch(p) __builtin_prefetch((const void*)(p))
    #else
    #define fastpuzzle_prefetch(p) ((void)0)
    #endif
    """
    # Starts loading a cache line without waiting for it: lookups issued together then overlap
    # their misses instead of waiting on one after another.
    void prefetch "fastpuzzle_prefetch"(const void* address) noexcept nogil
