# The repetition history of a Feed the Ducks game (docs/rules/ducks.md §6.3): the position
# after each crumb placement, in order, and the question each new one asks of it: is this
# its third occurrence?
#
# A short history is scanned.  A long one (FILTER_FROM entries and more; late in a game,
# where every crumb of a search or a playout asks) has a Bloom filter beside it, kept up to
# date entry by entry, so that most positions are proven new by two bit tests and only the
# rest are counted exactly: the answer is always exact, and its cost no longer grows with
# the game's length.  The filter is built when the history reaches FILTER_FROM entries, so a
# position with a short history (most positions a search copies) carries none; a playout,
# which asks at every ply, builds it first whatever the history's length.
from libc.stdint cimport uint64_t
from libc.string cimport memset

cdef enum:
    MAX_HIST = 304        # positions kept: the 300-placement cap and the one taken up
    FILTER_FROM = 32      # history length from which the filter is kept
    FILTER_WORDS = 64     # 4096 bits, two per entry: about 2% false hits at MAX_HIST


# A position counted for repetition, exactly: the ducks, with the crumb cell's six bits in
# the three spare top bits of each word.  The side to move is not stored: each entry is made
# by a crumb placement, which passes the turn, so entries an even distance apart have the
# same side to move and only those are compared.
ctypedef struct Seen:
    uint64_t white_crumb
    uint64_t black_crumb


cdef inline Seen seen_entry(uint64_t white, uint64_t black, int crumb) noexcept nogil:
    cdef Seen e
    e.white_crumb = white | (<uint64_t>(crumb & 7) << 61)
    e.black_crumb = black | (<uint64_t>(crumb >> 3) << 61)
    return e


cdef inline int earlier_occurrences(const Seen* hist, int n, Seen e) noexcept nogil:
    """How often e, about to be entry n, occurred before: only the entries an even number
    of placements back have its side to move."""
    cdef int i = n - 2, k = 0
    while i >= 0:
        k += (hist[i].white_crumb == e.white_crumb) & (hist[i].black_crumb == e.black_crumb)
        i -= 2
    return k


cdef inline uint64_t filter_hash(Seen e, int n) noexcept nogil:
    """A hash of e as entry n; its top 24 bits name two filter bits.  The entry's parity (its
    side to move) is hashed in, so that a position with the other side to move does not
    send the check to the exact count."""
    return (((e.white_crumb ^ <uint64_t>(n & 1)) ^ (e.black_crumb * <uint64_t>0x9E3779B97F4A7C15ULL))
            * <uint64_t>0xD6E8FEB86659FD93ULL)


cdef inline bint filter_may_hold(const uint64_t* bits, uint64_t h) noexcept nogil:
    cdef int a = <int>(h >> 52), b = <int>((h >> 40) & 4095)
    return (bits[a >> 6] >> (a & 63)) & (bits[b >> 6] >> (b & 63)) & 1


cdef inline void filter_add(uint64_t* bits, uint64_t h) noexcept nogil:
    cdef int a = <int>(h >> 52), b = <int>((h >> 40) & 4095)
    bits[a >> 6] |= <uint64_t>1 << (a & 63)
    bits[b >> 6] |= <uint64_t>1 << (b & 63)


cdef inline void filter_build(uint64_t* bits, const Seen* hist, int n) noexcept nogil:
    """The filter of the history's first n entries."""
    cdef int i
    memset(bits, 0, FILTER_WORDS * sizeof(uint64_t))
    for i in range(n):
        filter_add(bits, filter_hash(hist[i], i))


cdef inline bint occurs_third_time(Seen* hist, uint64_t* bits, int* nhist, Seen e,
                                   bint filtered) noexcept nogil:
    """Whether e, the position a crumb placement made, now stands for the third time; e is
    added to the history (while there is room) and to its filter.  ``filtered``: the filter
    holds every entry already (always from FILTER_FROM entries on; a playout builds it at
    once, for all its plies)."""
    cdef int n = nhist[0]
    cdef uint64_t h = filter_hash(e, n)
    cdef bint third
    if filtered:
        third = filter_may_hold(bits, h) and earlier_occurrences(hist, n, e) >= 2
    else:
        third = earlier_occurrences(hist, n, e) >= 2
    if n < MAX_HIST:
        hist[n] = e
        nhist[0] = n + 1
        if filtered:
            filter_add(bits, h)
        elif n + 1 == FILTER_FROM:
            filter_build(bits, hist, n + 1)
    return third
