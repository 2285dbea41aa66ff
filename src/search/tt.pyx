"""The transposition table's memory: reserving it, clearing it, growing into it, and how
full it is (the entries and the hot probe and store are in tt.pxd)."""
from libc.string cimport memset
from libc.stdint cimport uint64_t
from posix.mman cimport mmap, munmap, PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS, MAP_FAILED
from roost.search.clock cimport now
from roost.search.threads cimport load_u64, store_u64

cdef extern from *:
    """
    #include <sys/mman.h>
    #ifdef MADV_HUGEPAGE
    #define roost_huge_pages(p, n) madvise((p), (n), MADV_HUGEPAGE)
    #else
    #define roost_huge_pages(p, n) 0
    #endif
    """
    int huge_pages "roost_huge_pages"(void* p, size_t n) noexcept nogil


cdef class TranspositionTable:
    """A table of at most `mb` MB (the largest power of two of entries that fits)."""

    def __cinit__(self, long long mb):
        self.resize(mb)

    def __dealloc__(self):
        if self.map != NULL:
            munmap(self.map, self.map_bytes)

    cdef int resize(self, long long mb) except -1:
        """Reserve the whole table as zero pages that take memory only when first written:
        the search uses a small part of it at first and grows into the rest (grow), so
        that `tt=512` costs a short search no more than `tt=32` (the first writes to all of
        512 MB, a page fault each 4 KB, made a first search to depth 8 take +47%)."""
        cdef uint64_t n = 1
        cdef void* p
        while n * 2 * sizeof(TTEntry) <= <uint64_t>mb * 1024 * 1024:
            n *= 2
        if self.map != NULL:
            munmap(self.map, self.map_bytes)
            self.map = NULL
            self.entries = NULL
        self.bytes = n * sizeof(TTEntry)
        self.map_bytes = self.bytes
        p = mmap(NULL, self.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if p == MAP_FAILED:
            raise MemoryError(f"cannot allocate {mb} MB of transposition table")
        # in 2 MB pages where the system has them: a probe's miss is the search's largest
        # single cost, and a 4 KB page's translation, over megabytes, misses as well
        huge_pages(p, self.map_bytes)
        self.map = p
        self.entries = <TTEntry*>p
        self.words = <uint64_t*>p
        self.generation = 0
        # zero, but not clean: the first clear touches its pages, outside any search (a
        # search would take their faults)
        self.clean = False
        self.set_layout(self.proof)
        return 0

    cdef void set_layout(self, bint proof) noexcept nogil:
        """Take a layout (a proof's words, or the search's entries), its first part in use;
        the memory must be zero (clear)."""
        self.proof = proof
        if proof:
            self.max_mask = min(<uint64_t>self.bytes // sizeof(uint64_t), <uint64_t>PROOF_ENTRIES) - 1
            self.mask = min(self.max_mask, <uint64_t>(FIRST_PROOF_ENTRIES - 1))
        else:
            self.max_mask = <uint64_t>self.bytes // sizeof(TTEntry) - 1
            self.mask = min(self.max_mask, <uint64_t>(FIRST_TABLE_ENTRIES - 1))

    cdef void clear(self) noexcept nogil:
        """Forget every entry; the part in use shrinks back to the first.  Only the part in
        use can hold entries (what lies beyond it is zero: growth writes only into the part
        it adds to it), and none at all if no search has begun since the last clear."""
        if not self.clean:
            memset(self.entries, 0, (self.mask + 1) * (sizeof(uint64_t) if self.proof else sizeof(TTEntry)))
            self.clean = True
        self.set_layout(self.proof)

    cdef bint new_search(self, bint proof) noexcept nogil:
        """A search begins (a proof: one word a key, see the top of tt.pxd): what earlier
        searches stored stays, but ages (see store), unless the search is of the other
        kind: the table is then cleared for its layout (True)."""
        cdef bint other = proof != self.proof
        self.generation = (self.generation + 1) & (GENERATIONS - 1)
        if other:
            self.clear()             # nothing to do if the table was cleared since the last search
            self.set_layout(proof)
        self.clean = False           # the search writes
        return other

    cdef bint grow(self, double deadline) noexcept nogil:
        """Double the part of the table in use (by the main thread, while others may be
        reading and writing it); False if the deadline (0: none) came first.  The new half
        starts as a copy of the old, so that every entry is where its key now looks for it,
        whichever the key's new index bit (the entry holds too little of its key to tell),
        and the copy in the other half fails every key that looks there, as a stale entry
        does.  A racing writer at worst makes a torn copy, which fails its check; nothing
        wrong is ever read."""
        cdef uint64_t old = self.mask, i, start = 0, run
        cdef TTEntry* e
        cdef TTEntry* up
        cdef uint64_t* w = self.words
        # The new half's pages are touched for the first time here: doubling 4 M entries
        # takes 0.1-0.2 s, long enough to overrun a deadline, so the work goes in runs
        # with a look at the clock between them.  Given up, the table stays as it was (the
        # new half is invisible until the mask changes; everyone else writes the old one).
        while start < old + 1:
            run = min(<uint64_t>GROW_RUN, old + 1 - start)
            if self.proof:
                for i in range(start, start + run):
                    store_u64(&w[i + old + 1], load_u64(&w[i]))
            else:
                for i in range(start, start + run):
                    e = &self.entries[i]
                    up = &self.entries[i + old + 1]
                    store_u64(&up.value, load_u64(&e.value))
                    store_u64(&up.meta, load_u64(&e.meta))
            if deadline > 0 and now() >= deadline:
                return False
            start += GROW_RUN
        store_u64(&self.mask, old * 2 + 1)
        return True

    cdef int hashfull(self) noexcept nogil:
        """Per mille of the part in use that holds an entry of the search under way (read
        from its first entries)."""
        cdef uint64_t n = min(<uint64_t>HASHFULL_SAMPLE, self.mask + 1), i, m
        cdef int full = 0
        if self.proof:
            for i in range(n):
                full += load_u64(&self.words[i]) != 0
            return <int>(full * 1000 // n)
        for i in range(n):
            m = load_u64(&self.entries[i].meta)
            if (m >> 30) & 3 != 0 and (m >> 26) & (GENERATIONS - 1) == self.generation:
                full += 1
        return <int>(full * 1000 // n)

    @property
    def bytes_in_use(self):
        """Bytes of the table the search has grown into so far."""
        return (self.mask + 1) * (sizeof(uint64_t) if self.proof else sizeof(TTEntry))

    # ------------------------------------------------------------------ from Python (tests, tools)
    def begin_search(self, bint proof=False):
        """Open a search, as alpha-beta does when one starts (``proof``: a solve)."""
        self.new_search(proof)

    def lookup(self, uint64_t key):
        """(value, move, depth, bound) kept for `key` (bound: "exact", "lower" or "upper"),
        or None."""
        cdef TTData hit
        if not self.probe(key, &hit):
            return None
        return hit.value, hit.move, hit.depth, ("exact", "lower", "upper")[hit.flag]

    def keep(self, uint64_t key, double value, int move, int depth, bound="exact"):
        """Store a result for `key` as a search does (its probe, then its store)."""
        cdef TTData hit
        self.probe(key, &hit)
        self.clean = False
        self.store(key, &hit, value, move, depth, ("exact", "lower", "upper").index(bound))

