# The transposition table of an alpha-beta search: what a search learnt about a position
# (a value and its bound, the depth it was searched to, the best move), found again by the
# position's key wherever the search meets it, by every thread of the search.
#
# Its whole interface is probe, store, clear, resize and hashfull (with prefetch, growth
# and the generation a search opens), so that another entry layout can sit behind the same
# calls.  The hot three are inline here: a probe costs a cache miss, never a call.
#
# A key has a home entry, key & mask, and may sit in any entry of the bucket around it (the
# BUCKET entries of its cache line).  A store takes the key's own entry if it has one, else
# an empty one, else the one worth least: the shallowest, an entry of an earlier search
# counting AGE_WEIGHT plies shallower for each search since (a table kept through a game
# fills with what earlier moves' searches found, which the next search meets less and less).
# Among entries worth the same, the first from the key's home goes.
#
# A proof (a solve of a game that bounds its length) has its own layout in the same memory,
# as a dedicated solver's table: an
# entry is one 8-byte word, the key's bits above the 16 its index always gives and a 16-bit
# bound (a result's distance, kind of bound and the best move's place in the node's list),
# so a hit is always the key itself (the index is at least 16 bits: the table has at least
# FIRST_PROOF_ENTRIES); half the footprint of the search's entries and no check to compute.
# Only results that hold at any depth are kept, each key in its home word, always replaced
# (depth says nothing in a proof; scanning a bucket cost a Connect Four solve 8-10%), and
# the part in use stops at PROOF_ENTRIES, which fits the cache: a larger table's misses
# cost more than its extra hits save (a begin position of Connect Four took 330 ms with
# the table grown to 64 MB, 245 ms with 16 MB).
#
# Shared by every thread of a search without locks: a writer stores an entry's two words
# one by one, so a reader can meet words of two different writes; the check is the key's
# high half xor the value's two halves, so a torn entry fails it (as a different key would,
# but for one chance in 2^32 a probe).
cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from roost.search.threads cimport load_u64, store_u64
from roost.search.score cimport MATE, MATE_BOUND, DEPTH_INF

cdef enum:
    EXACT = 0                     # the bound of a stored value
    LOWER = 1
    UPPER = 2
    NO_MOVE = 0xFFFF              # an entry keeps move ids below this
    MAX_STORED_DEPTH = 1023       # an entry's depth has 10 bits (a deeper one is kept as this)
    BUCKET = 4                    # the entries a key may sit in: one 64-byte cache line
    GENERATIONS = 16              # an entry's generation: the search that stored it, modulo this
    AGE_WEIGHT = 2                # a search ago weighs as much as this many plies of depth
    FIRST_TABLE_ENTRIES = 65536   # 1 MB: the table starts this small and grows (up to its size)
    GROW_RUN = 65536              # entries a growth copies between looks at the clock
    GROWTH = 2                    # the table grows to keep two entries a node searched since
                                  # it was cleared (on the Ducks bench, depth 8 needs 2.37 M
                                  # nodes with this, 2.36 M with all of tt=32 from the start,
                                  # 3.3 M with 1 MB)
    HASHFULL_SAMPLE = 1000        # entries hashfull() reads
    # a proof's words
    FIRST_PROOF_ENTRIES = 65536   # 512 KB, and the fewest: the index gives the key's low 16 bits
    PROOF_ENTRIES = 1 << 20       # 8 MB: the most a proof uses (tuned on Connect Four's begin
                                  # positions against 2^18 and 2^20)
    PROOF_MOVES = 63              # a proof word keeps a move's place below this (63: none)
    PROOF_DISTANCE = 127          # and a result's distance up to this many plies

cdef extern from *:
    """
    #define roost_prefetch(p) __builtin_prefetch((const void*)(p))
    """
    void prefetch_line "roost_prefetch"(const void* p) noexcept nogil


ctypedef struct TTEntry:
    # 16 bytes, four to a cache line (24 bytes took half again the memory and the cache misses
    # of a solve)
    uint64_t value            # the double's bits
    uint64_t meta             # move (bits 0-15, NO_MOVE: none kept), depth (16-25),
                              # generation (26-29), flag + 1 (30-31; 0: an empty entry),
                              # check (32-63)

ctypedef struct TTData:
    # an entry as a probe reads it, and where a store of the same key will go
    double value
    int move                  # -1: none kept
    int depth
    int flag
    TTEntry* place            # the key's own entry, else the one of its bucket worth least


cdef inline uint64_t tt_check(uint64_t key, uint64_t value) noexcept nogil:
    return ((key >> 32) ^ value ^ (value >> 32)) & 0xFFFFFFFFULL


cdef inline uint64_t proof_word(uint64_t key, double v, int move, int flag) noexcept nogil:
    """A proof's entry: the key above its low 16 bits, then the kind of bound + 1 (bits
    14-15), the result (bits 6-13: 128 a draw, 128 +- (128 - d) a win or a loss d plies from
    the node) and the move's place (bits 0-5); 0 if the value is none of those."""
    cdef int d, code
    if v == 0.0:
        code = 128
    elif v > MATE_BOUND or v < -MATE_BOUND:
        d = <int>(MATE - (v if v > 0 else -v) + 0.5)
        if d < 1 or d > PROOF_DISTANCE or (MATE - d) != (v if v > 0 else -v):
            return 0
        code = 128 + (128 - d if v > 0 else d - 128)
    else:
        return 0          # a value a proof does not reach (an outcome between a win and a draw)
    if not 0 <= move < PROOF_MOVES:
        move = PROOF_MOVES
    return ((key & ~(<uint64_t>0xFFFF)) | (<uint64_t>(flag + 1) << 14) | (<uint64_t>code << 6)
            | <uint64_t>move)


cdef inline bint proof_unpack(uint64_t w, uint64_t key, TTData* out) noexcept nogil:
    """A proof's word as `key`'s data; False if it holds another key or none."""
    cdef int code, d
    if (w ^ key) >> 16 != 0 or (w >> 14) & 3 == 0:
        return False
    code = <int>((w >> 6) & 0xFF) - 128
    if code == 0:
        out.value = 0.0
    else:
        d = 128 - (code if code > 0 else -code)
        out.value = MATE - d if code > 0 else -(MATE - d)
    out.move = <int>(w & 63)
    if out.move == PROOF_MOVES:
        out.move = -1
    out.depth = DEPTH_INF
    out.flag = <int>((w >> 14) & 3) - 1
    return True


cdef inline bint unpack(uint64_t value, uint64_t meta, uint64_t key, TTData* out) noexcept nogil:
    """An entry's two words as `key`'s data, in `out`; False if they do not hold `key` (the
    entry is empty, another key's, or torn)."""
    if (meta >> 30) & 3 == 0 or (meta >> 32) != tt_check(key, value):
        return False
    memcpy(&out.value, &value, sizeof(double))
    out.move = <int>(meta & 0xFFFF)
    if out.move == NO_MOVE:
        out.move = -1
    out.depth = <int>((meta >> 16) & 0x3FF)
    out.flag = <int>((meta >> 30) & 3) - 1
    return True


@cython.final
cdef class TranspositionTable:
    cdef TTEntry* entries
    cdef uint64_t* words          # the same memory as a proof's words
    cdef uint64_t mask            # the entries (a proof: words) in use: a key's home is key & mask
                                  # (it grows; read atomically)
    cdef uint64_t max_mask        # the whole table's, in the layout in use
    cdef uint64_t generation      # the search under way, modulo GENERATIONS
    cdef bint proof               # the layout in use is a proof's (see the top of this file)
    cdef bint clean               # every word is zero and no search has begun since (a clear
                                  # then has nothing to do, nor has a change of layout)
    cdef readonly long long bytes # the whole table's size
    cdef void* map                # the table's mapping
    cdef size_t map_bytes

    cdef int resize(self, long long mb) except -1
    cdef void clear(self) noexcept nogil
    cdef bint new_search(self, bint proof) noexcept nogil
    cdef void set_layout(self, bint proof) noexcept nogil
    cdef bint grow(self, double deadline) noexcept nogil
    cdef int hashfull(self) noexcept nogil

    cdef inline TTEntry* bucket(self, uint64_t key) noexcept nogil:
        return &self.entries[key & load_u64(&self.mask) & ~(<uint64_t>(BUCKET - 1))]

    cdef inline void prefetch(self, uint64_t key) noexcept nogil:
        """Start fetching the line a probe of `key` will read."""
        if self.proof:
            prefetch_line(&self.words[key & load_u64(&self.mask)])
        else:
            prefetch_line(self.bucket(key))

    cdef inline int worth(self, uint64_t meta) noexcept nogil:
        """What keeping an entry is worth: its depth, less AGE_WEIGHT a search since it was
        stored; an empty entry least of all."""
        if (meta >> 30) & 3 == 0:
            return -(1 << 20)
        return (<int>((meta >> 16) & 0x3FF)
                - AGE_WEIGHT * <int>((self.generation - ((meta >> 26) & (GENERATIONS - 1)))
                                     & (GENERATIONS - 1)))

    cdef inline bint probe(self, uint64_t key, TTData* out) noexcept nogil:
        """What the table keeps for `key`, in `out`; False if nothing.  Either way, but in a
        proof, out.place is where a store of `key` goes (see store)."""
        cdef TTEntry* b
        cdef TTEntry* e
        cdef uint64_t value, meta
        cdef int i, w, least = 1 << 30, start = <int>key & (BUCKET - 1)
        if self.proof:
            return proof_unpack(load_u64(&self.words[key & load_u64(&self.mask)]), key, out)
        b = self.bucket(key)
        for i in range(BUCKET):
            e = &b[(start + i) & (BUCKET - 1)]
            value = load_u64(&e.value)
            meta = load_u64(&e.meta)
            if unpack(value, meta, key, out):
                out.place = e
                return True
            w = self.worth(meta)
            if w < least:
                least = w
                out.place = e
        return False

    cdef inline void store(self, uint64_t key, TTData* probed, double v, int move, int depth,
                           int flag) noexcept nogil:
        """Keep a search's result for `key`: in a proof in its home word (a result that holds
        at any depth only, its move the place in the node's list that the proof search
        passes), else where `probed`, this key's probe, placed it (the key's own entry, else
        an empty one, else the one of its bucket worth least: see the top of this file),
        found again only if the table grew since."""
        cdef TTEntry* b
        cdef TTEntry* target
        cdef TTData again
        cdef uint64_t value, meta
        if self.proof:
            if depth >= DEPTH_INF:
                value = proof_word(key, v, move, flag)
                if value != 0:
                    store_u64(&self.words[key & load_u64(&self.mask)], value)
            return
        b = self.bucket(key)
        target = probed.place
        if <size_t>(target - b) >= BUCKET:
            self.probe(key, &again)
            target = again.place
        memcpy(&value, &v, sizeof(double))
        # a move id the entry cannot hold is not kept (it only orders moves and extends the PV)
        if not 0 <= move < NO_MOVE:
            move = NO_MOVE
        if depth > MAX_STORED_DEPTH:
            depth = MAX_STORED_DEPTH
        meta = (<uint64_t>move | (<uint64_t>depth << 16) | (self.generation << 26)
                | (<uint64_t>(flag + 1) << 30) | (tt_check(key, value) << 32))
        store_u64(&target.value, value)
        store_u64(&target.meta, meta)

    cdef inline bint wants_growth(self, long long nodes) noexcept nogil:
        """Whether a search that has entered `nodes` nodes since the table was cleared
        should grow the part in use."""
        return self.mask < self.max_mask and nodes * GROWTH > <long long>self.mask
