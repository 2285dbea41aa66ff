# A garden and the checks of a placement (docs/rules/leaves.md §5-§8), on bit planes.
#
# Each garden is a set of bit planes over one square grid: a plane is 32 rows of one 64-bit
# word.  Square (u, v) is bit ``u + OFF`` (OFF = 32) of row word ``v & 31``.  A 13-tile
# garden spans at most 13 slots, i.e. 26 squares, in either direction (slots run from -12
# to 12), so columns u in -24..25 are bits 8..57 of a word and neighbour columns never leave
# it; rows wrap modulo 32, which is safe because the rows in use (at most 26) plus one empty
# row above and below are always 28 < 32 different words.  Loops run over the real v range
# [vlo, vhi] of the garden, top row first when the reading order matters; within a row a
# smaller u is a lower bit, so bit order is reading order.
#
# Planes per garden: one per square type (5 colours, puddle), existence, mushrooms, the
# pollinated squares, and one used set per dweller card in play.  Slots (tiles, frontier,
# hummingbird-based tiles) are 32 words of 32 bits: word ``x + 16``, bit ``y + 16``; words
# ascending then bits ascending is the rules' canonical x-then-y order (§4.3).
from libc.stdint cimport uint64_t, uint32_t, int8_t

from roost.core.bits cimport popcount, lsb, pdep
from roost.core.leaves.tables cimport MAXG, SOFF, REC_CAP

ctypedef struct Garden:
    uint64_t typ[6][32]     # squares of each type (5 colours, puddle)
    uint64_t exist[32]
    uint64_t mush[32]
    uint64_t poll[32]       # pollinated squares (union of the pollinated sectors)
    uint64_t used[3][32]    # used sets of the three cards in play (leaf, mushroom, puddle)
    uint32_t tiles[32]
    uint32_t front[32]
    uint32_t based[32]      # tiles with base 1 (§7.1)
    uint64_t ghash          # placements, used squares and counts of this garden
    int vlo, vhi            # square rows in use
    int xlo, xhi            # slot columns in use
    int ntiles
    int nfront
    int bees
    int humm
    int pieces[3]
    int8_t ptile[MAXG]      # placements in order (the starting tile first)
    int8_t px[MAXG]
    int8_t py[MAXG]
    int8_t po[MAXG]


ctypedef struct Rec:
    # Where pieces stand (Python-side replays only; the hot path passes NULL).
    int n
    int card[REC_CAP]
    int u[REC_CAP]
    int v[REC_CAP]


# An empty garden with starting tile S<start> at (0,0) in orientation 0 (§2.3).
cdef void garden_init(Garden* g, int start) noexcept nogil
# Place a tile and run the checks of §5.2 with any cards (cards[k]'s used set at
# used[k*32 ..], its pieces in counts[k]); returns the bees gained.
cdef int place_and_check(Garden* g, int tile, int x, int y, int o, const int* cards,
                         int ncards, uint64_t* used, int* counts, Rec* rec) noexcept nogil
# Place a tile in a game garden with the three cards in play, keeping its hash in step.
cdef void garden_place(Garden* g, int tile, int x, int y, int o, const int* cards3,
                       Rec* rec) noexcept nogil
# The frontier slots [(x, y)] in canonical order (x, then y).
cdef list frontier_list(const Garden* g)


cdef inline uint32_t slot_bit(int y) noexcept nogil:
    return (<uint32_t>1) << (y + SOFF)


cdef inline bint on_frontier(const Garden* g, int x, int y) noexcept nogil:
    if x < -13 or x > 13 or y < -13 or y > 13:
        return False
    return (g.front[x + SOFF] & slot_bit(y)) != 0


cdef inline int kth_frontier(const Garden* g, int k, int* x, int* y) noexcept nogil:
    """The k-th frontier slot in canonical order (x, then y)."""
    cdef int w, c
    cdef uint32_t f
    for w in range(g.xlo - 1 + SOFF, g.xhi + 2 + SOFF):
        f = g.front[w]
        c = popcount(f)
        if k < c:
            x[0] = w - SOFF
            y[0] = lsb(pdep((<uint64_t>1) << k, f)) - SOFF
            return 1
        k -= c
    return 0
