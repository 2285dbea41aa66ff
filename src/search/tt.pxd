# The transposition table of an alpha-beta search: what a search learnt about a position
# (a value and its bound, the depth it was searched to, the best move), found again by the
# position's key wherever the search meets it, by every thread of the search.
#
# Its whole interface is probe, store, clear, resize and hashfull (with prefetch, growth
# and the generation a search opens), so that another entry layout can sit behind the same
# calls.  The hot three are inline here: a probe costs a cache miss, never a call.
#
# Shared by every thread of a search without locks: a writer stores an entry's two words
# one by one, so a reader can meet words of two different writes; the check is the key's
# high half xor the value's two halves, so a torn entry fails it (as a different key would,
# but for one chance in 2^32 a probe).
cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from roost.search.threads cimport load_u64, store_u64

cdef enum:
    EXACT = 0                     # the bound of a stored value
    LOWER = 1
    UPPER = 2
    NO_MOVE = 0xFFFF              # an entry keeps move ids below this
    FIRST_TABLE_ENTRIES = 65536   # 1 MB: the table starts this small and grows (up to its size)
    GROW_RUN = 65536              # entries a growth copies between looks at the clock
    GROWTH = 2                    # the table grows to keep two entries a node searched since
                                  # it was cleared (on the Ducks bench, depth 8 needs 2.37 M
                                  # nodes with this, 2.36 M with all of tt=32 from the start,
                                  # 3.3 M with 1 MB)
    HASHFULL_SAMPLE = 1000        # entries hashfull() reads

cdef extern from *:
    """
    #define roost_prefetch(p) __builtin_prefetch((const void*)(p))
    """
    void prefetch_line "roost_prefetch"(const void* p) noexcept nogil


ctypedef struct TTEntry:
    # 16 bytes, four to a cache line (24 bytes took half again the memory and the cache misses
    # of a solve)
    uint64_t value            # the double's bits
    uint64_t meta             # move (bits 0-15, NO_MOVE: none kept), depth (16-29),
                              # flag + 1 (30-31; 0: an empty entry), check (32-63)

ctypedef struct TTData:
    # an entry as a probe reads it
    double value
    int move                  # -1: none kept
    int depth
    int flag


cdef inline uint64_t tt_check(uint64_t key, uint64_t value) noexcept nogil:
    return ((key >> 32) ^ value ^ (value >> 32)) & 0xFFFFFFFFULL


@cython.final
cdef class TranspositionTable:
    cdef TTEntry* entries
    cdef uint64_t mask            # the part in use: index = key & mask (it grows; read atomically)
    cdef uint64_t max_mask        # the whole table's
    cdef readonly long long bytes # the whole table's size
    cdef void* map                # the table's mapping
    cdef size_t map_bytes

    cdef int resize(self, long long mb) except -1
    cdef void clear(self) noexcept nogil
    cdef void new_search(self) noexcept nogil
    cdef bint grow(self, double deadline) noexcept nogil
    cdef int hashfull(self) noexcept nogil

    cdef inline TTEntry* slot(self, uint64_t key) noexcept nogil:
        return &self.entries[key & load_u64(&self.mask)]

    cdef inline void prefetch(self, uint64_t key) noexcept nogil:
        """Start fetching the line a probe of `key` will read."""
        prefetch_line(self.slot(key))

    cdef inline bint probe(self, uint64_t key, TTData* out) noexcept nogil:
        """What the table keeps for `key`, in `out`; False if nothing."""
        cdef TTEntry* e = self.slot(key)
        cdef uint64_t value = load_u64(&e.value)
        cdef uint64_t meta = load_u64(&e.meta)
        if (meta >> 30) & 3 == 0 or (meta >> 32) != tt_check(key, value):
            return False
        memcpy(&out.value, &value, sizeof(double))
        out.move = <int>(meta & 0xFFFF)
        if out.move == NO_MOVE:
            out.move = -1
        out.depth = <int>((meta >> 16) & 0x3FFF)
        out.flag = <int>((meta >> 30) & 3) - 1
        return True

    cdef inline void store(self, uint64_t key, double v, int move, int depth,
                           int flag) noexcept nogil:
        """Keep a search's result for `key`: its slot's entry is replaced."""
        # a move id the entry cannot hold is not kept (it only orders moves and extends the
        # PV); every depth a search gives (at most DEPTH_INF) fits in 14 bits
        cdef TTEntry* e = self.slot(key)
        cdef uint64_t value
        memcpy(&value, &v, sizeof(double))
        if not 0 <= move < NO_MOVE:
            move = NO_MOVE
        cdef uint64_t meta = (<uint64_t>move | (<uint64_t>depth << 16) | (<uint64_t>(flag + 1) << 30)
                              | (tt_check(key, value) << 32))
        store_u64(&e.value, value)
        store_u64(&e.meta, meta)

    cdef inline bint wants_growth(self, long long nodes) noexcept nogil:
        """Whether a search that has entered `nodes` nodes since the table was cleared
        should grow the part in use."""
        return self.mask < self.max_mask and nodes * GROWTH > <long long>self.mask
