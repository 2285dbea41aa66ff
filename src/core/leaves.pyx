"""Under the Leaves (rules: ../shared/rules/under-the-leaves.md), 2 to 4 players.

Layout.  Each garden is a set of bit planes over one square grid: a plane is 32 rows of one
64-bit word.  Square (u, v) is bit ``u + OFF`` (OFF = 32) of row word ``v & 31``.  A
13-tile garden spans at most 13 slots, i.e. 26 squares, in either direction (slots run from
-12 to 12), so columns u in -24..25 are bits 8..57 of a word and neighbour columns never
leave it; rows wrap modulo 32, which is safe because the rows in use (at most 26) plus one
empty row above and below are always 28 < 32 different words.  Loops run over the real v
range [vlo, vhi] of the garden, top row first when the reading order matters; within a row
a smaller u is a lower bit, so bit order is reading order.

Planes per garden: one per square type (5 colours, puddle), existence, mushrooms, the
pollinated squares, and one used set per dweller card in play.  Slots (tiles, frontier,
hummingbird-based tiles) are 32 words of 32 bits: word ``x + 16``, bit ``y + 16``; words
ascending then bits ascending is the rules' canonical x-then-y order.

Components are found by a bit-parallel flood fill (``flood``): each row is closed
horizontally with one carry trick upward and a Kogge-Stone fill downward, and the rows are
swept alternately up and down, only over the rows the component reaches, until a sweep
changes nothing.  The checks work locally around the new tile (Explorer alone scans the
whole garden, in two passes over the rows, when a mushroom arrives); each local rule below
says why the result is the same as the whole-garden check of the rules (§5.3): after every
check nothing that qualifies is left unclaimed, so only configurations that involve the
new squares can be new.  tests/leaves_reference.py is a literal whole-garden reading of
the rules the engine is checked against.

Move ids: ``(i * 625 + slot) * 8 + o`` where i is the market index, slot =
``(x + 12) * 25 + (y + 12)`` (|x|, |y| <= 12 at every decision node) and o the
orientation, so ascending ids are the canonical order of §4.  Chance outcomes (refill
draws) are ``CHANCE_BASE + tile id`` (named ``d<id>``); the two ranges never overlap.
"""
from libc.stdint cimport uint64_t, uint32_t, int8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, msb, pdep, clear_lsb
from roost.core.rng cimport Rng, rng_seed, rng_next, rng_below, splitmix64
from roost.core.state cimport State, CHANCE, MAX_MOVES
from roost.core.interrupt cimport interrupted
from roost.core.errors import PositionError, MoveError, GameError

import re as _re

# Numbers in position texts and move names: ASCII decimal, no leading zero, no "-0", so
# that one position has one text (§11) and one move one name (§4).  (str.isdigit and \d
# also take other scripts' digits: int() fails on a superscript and reads an Arabic-Indic
# digit as a number.)
_NUM = r"(?:0|[1-9][0-9]*)"
_INT = r"(?:0|-?[1-9][0-9]*)"
_NUM_RE = _re.compile(_NUM)

cdef enum:
    NTILES = 50          # regular tiles 0..49; starting tiles S0..S3 are 50..53
    NALL = 54
    OFF = 32             # bit of square column u
    SOFF = 16            # word of slot column x, bit of slot row y
    MAXG = 13            # tiles in a finished garden
    NSLOTNUM = 625       # 25 x 25 slot numbers for move ids
    CHANCE_BASE = 16384  # chance outcome id = CHANCE_BASE + tile id
    PUD = 5              # square type index of a puddle (colours are 0..4)
    NCARDS = 12
    REC_CAP = 1024

# Square types: Y P O V G (colours 0..4), ~ puddle (5).
TYPE_LETTERS = "YPOVG~"
COLOUR_NAMES = ("yellow", "pink", "orange", "purple", "green", "puddle")

# §1.2 / §1.3: TL TR BL BR of the printed face.
_TILE_TABLE = (
    "G* O P P", "O* Y P P", "Y* V P P", "O* V P P", "V* G P P",
    "G* Y P P", "V* P Y Y", "P* O Y Y", "O* G Y Y", "O* V Y Y",
    "G* V Y Y", "P* G Y Y", "V* Y O O", "Y* P O O", "P* G O O",
    "V* P O O", "G* Y O O", "G* V O O", "O* G V V", "P* O V V",
    "P* Y V V", "Y* O V V", "Y* G V V", "G* P V V", "V* O G G",
    "O* P G G", "Y* P G G", "Y* O G G", "V* Y G G", "P* V G G",
    "~ O P P", "~ Y P P", "~ G P P", "~ V P P", "~ Y O O",
    "~ V O O", "~ G O O", "~ P O O", "~ O Y Y", "~ P Y Y",
    "~ V Y Y", "~ G Y Y", "~ O V V", "~ Y V V", "~ G V V",
    "~ P V V", "~ P G G", "~ O G G", "~ Y G G", "~ V G G",
    # starting tiles S0..S3
    "~ P V Y*", "~ O Y P*", "~ V P O*", "~ Y O V*",
)

# §1.4: placed position i (TL, TR, BL, BR) takes printed square MAP[o][i].
_MAP = ((0, 1, 2, 3), (2, 0, 3, 1), (3, 2, 1, 0), (1, 3, 0, 2),
        (1, 0, 3, 2), (0, 2, 1, 3), (2, 3, 0, 1), (3, 1, 2, 0))

# §8: card ids; leaf 0..3, mushroom 4..7, puddle 8..11.
CARD_NAMES = ("Thoughtful", "Restless", "Flirty", "Runner",
              "Host", "Explorer", "Collector", "Loner",
              "Diver", "Skipper", "Friendly", "Shy")
CARD_CODES = ("Th", "Re", "Fl", "Ru", "Ho", "Ex", "Co", "Lo", "Di", "Sk", "Fr", "Sh")
CATEGORY_NAMES = ("leaf", "mushroom", "puddle")

cdef enum:
    C_THOUGHTFUL = 0
    C_RESTLESS = 1
    C_FLIRTY = 2
    C_RUNNER = 3
    C_HOST = 4
    C_EXPLORER = 5
    C_COLLECTOR = 6
    C_LONER = 7
    C_DIVER = 8
    C_SKIPPER = 9
    C_FRIENDLY = 10
    C_SHY = 11

cdef int8_t OTYPE[NALL][8][4]     # square type at placed position i
cdef int8_t OMUSH[NALL][8]        # placed position of the mushroom, or -1
cdef int8_t OPUD[NALL][8]         # placed position of the puddle, or -1
cdef int TCOLOURS[NALL]           # bit mask of the colours on a tile
cdef uint64_t Z_MARKET[NTILES]
cdef uint64_t Z_BAG[NTILES]
cdef uint64_t Z_TURN[64]
cdef uint64_t Z_CARD[NCARDS]
cdef uint64_t Z_PLAYER[8]


def _init_tables():
    cdef int t, o, i, j
    cdef uint64_t seed = 0x1EAF5EED
    for t in range(NALL):
        sq = _TILE_TABLE[t].split()
        types = [TYPE_LETTERS.index(s[0]) for s in sq]
        mush = [s.endswith("*") for s in sq]
        TCOLOURS[t] = 0
        for j in range(4):
            if types[j] != PUD:
                TCOLOURS[t] |= 1 << types[j]
        for o in range(8):
            OMUSH[t][o] = -1
            OPUD[t][o] = -1
            for i in range(4):
                j = _MAP[o][i]
                OTYPE[t][o][i] = types[j]
                if mush[j]:
                    OMUSH[t][o] = i
                if types[j] == PUD:
                    OPUD[t][o] = i
    for i in range(NTILES):
        Z_MARKET[i] = splitmix64(&seed)
        Z_BAG[i] = splitmix64(&seed)
    for i in range(64):
        Z_TURN[i] = splitmix64(&seed)
    for i in range(NCARDS):
        Z_CARD[i] = splitmix64(&seed)
    for i in range(8):
        Z_PLAYER[i] = splitmix64(&seed)


_init_tables()


cdef inline uint64_t zmix(uint64_t x) noexcept nogil:
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return x ^ (x >> 31)

# Hash domains of the per-garden key parts.
cdef enum:
    ZD_PLACE = 1
    ZD_USED = 2
    ZD_COUNT = 3


cdef inline int removed_count(int n) noexcept nogil:
    # §2.4: R = 24, 12, 0 for 2, 3, 4 players (50 - R = 12n + 2).
    return 50 - 12 * n - 2


# ------------------------------------------------------------------------------ gardens

ctypedef struct Garden:
    uint64_t typ[6][32]     # squares of each type (5 colours, puddle)
    uint64_t exist[32]
    uint64_t mush[32]
    uint64_t poll[32]       # pollinated squares (union of the pollinated sectors)
    uint64_t used[3][32]    # used sets of the three cards in play (leaf, mushroom, puddle)
    uint32_t tiles[32]
    uint32_t front[32]
    uint32_t based[32]      # tiles with base 1 (§7)
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


ctypedef struct Comp:
    uint64_t k[32]
    int lo, hi
    int size


cdef inline void rec_add(Rec* rec, int card, int bit, int v) noexcept nogil:
    if rec != NULL and rec.n < REC_CAP:
        rec.card[rec.n] = card
        rec.u[rec.n] = bit - OFF
        rec.v[rec.n] = v
        rec.n += 1


cdef inline uint64_t hfill(uint64_t m, uint64_t s) noexcept nogil:
    """The runs of m that hold a bit of s (s a subset of m).  Upward: adding s to m carries
    from the lowest seed of each run through its top; the carry flips every bit but later
    seeds, which the |s restores.  Downward: a Kogge-Stone fill."""
    cdef uint64_t up = (((m + s) ^ m) | s) & m
    cdef uint64_t g = s, p = m
    g |= p & (g >> 1)
    p &= p >> 1
    g |= p & (g >> 2)
    p &= p >> 2
    g |= p & (g >> 4)
    p &= p >> 4
    g |= p & (g >> 8)
    p &= p >> 8
    g |= p & (g >> 16)
    p &= p >> 16
    g |= p & (g >> 32)
    return up | g


cdef void flood(const uint64_t* M, Comp* c, int glo, int ghi) noexcept nogil:
    """Grow the seeds in c.k (a subset of M, in rows c.lo..c.hi, zero elsewhere) to their
    orthogonally connected component within M.  glo..ghi bounds the rows of M in use."""
    cdef int v, r, lo = c.lo, hi = c.hi, up = 1
    cdef uint64_t x, m
    cdef bint changed
    while True:
        changed = False
        if up:
            if lo > glo and (c.k[lo & 31] & M[(lo - 1) & 31]):
                lo -= 1
            v = lo
            while v <= hi:
                r = v & 31
                m = M[r]
                x = c.k[r] | ((c.k[(v - 1) & 31] | c.k[(v + 1) & 31]) & m)
                if x:
                    x = hfill(m, x)
                    if x != c.k[r]:
                        c.k[r] = x
                        changed = True
                    if v == hi and v < ghi and (x & M[(v + 1) & 31]):
                        hi += 1
                v += 1
        else:
            if hi < ghi and (c.k[hi & 31] & M[(hi + 1) & 31]):
                hi += 1
            v = hi
            while v >= lo:
                r = v & 31
                m = M[r]
                x = c.k[r] | ((c.k[(v - 1) & 31] | c.k[(v + 1) & 31]) & m)
                if x:
                    x = hfill(m, x)
                    if x != c.k[r]:
                        c.k[r] = x
                        changed = True
                    if v == lo and v > glo and (x & M[(v - 1) & 31]):
                        lo -= 1
                v -= 1
        if not changed:
            break
        up = not up
    c.lo = lo
    c.hi = hi
    cdef int size = 0
    for v in range(lo, hi + 1):
        size += popcount(c.k[v & 31])
    c.size = size


cdef inline bint comp_meets(const Comp* c, const uint64_t* P) noexcept nogil:
    cdef int v
    for v in range(c.lo, c.hi + 1):
        if c.k[v & 31] & P[v & 31]:
            return True
    return False


cdef inline int comp_count(const Comp* c, const uint64_t* P) noexcept nogil:
    cdef int v, n = 0
    for v in range(c.lo, c.hi + 1):
        n += popcount(c.k[v & 31] & P[v & 31])
    return n


cdef inline void comp_first(const Comp* c, const uint64_t* P, int* bit, int* row) noexcept nogil:
    """The first square of c (and P, when P is not NULL) in reading order."""
    cdef int v
    cdef uint64_t x
    v = c.hi
    while v >= c.lo:
        x = c.k[v & 31]
        if P != NULL:
            x &= P[v & 31]
        if x:
            bit[0] = lsb(x)
            row[0] = v
            return
        v -= 1
    bit[0] = -1
    row[0] = 0


cdef inline void used_add(Garden* g, uint64_t* U, int k, int v, uint64_t bits) noexcept nogil:
    """Add squares of row v to used set k (plane U); keeps the garden hash in step."""
    cdef int r = v & 31
    cdef uint64_t fresh = bits & ~U[r]
    U[r] |= fresh
    while fresh:
        g.ghash ^= zmix((<uint64_t>ZD_USED << 56) ^ (<uint64_t>((k * 64 + v + 32) * 64 + lsb(fresh))))
        fresh = clear_lsb(fresh)


cdef inline void used_add_comp(Garden* g, uint64_t* U, int k, const Comp* c, const uint64_t* P) noexcept nogil:
    cdef int v
    for v in range(c.lo, c.hi + 1):
        if P != NULL:
            used_add(g, U, k, v, c.k[v & 31] & P[v & 31])
        else:
            used_add(g, U, k, v, c.k[v & 31])


cdef int count_components(const uint64_t* P, int glo, int ghi) noexcept nogil:
    """Number of orthogonally connected components of P."""
    cdef uint64_t left[32]
    cdef Comp c
    cdef int v, w, n = 0
    memcpy(left, P, sizeof(left))
    for v in range(ghi, glo - 1, -1):
        while left[v & 31]:
            memset(&c, 0, sizeof(Comp))
            c.k[v & 31] = left[v & 31] & (0 - left[v & 31])
            c.lo = v
            c.hi = v
            flood(left, &c, glo, ghi)
            for w in range(c.lo, c.hi + 1):
                left[w & 31] &= ~c.k[w & 31]
            n += 1
    return n


cdef inline uint32_t slot_bit(int y) noexcept nogil:
    return (<uint32_t>1) << (y + SOFF)


cdef void garden_init(Garden* g, int start) noexcept nogil:
    """An empty garden with starting tile S<start> at (0,0) in orientation 0 (§2.3); a
    lone starting tile attracts nothing (four different square types), so no check runs."""
    memset(g, 0, sizeof(Garden))
    g.vlo = 1
    g.vhi = -1
    g.xlo = 0
    g.xhi = 0
    put_tile(g, 50 + start, 0, 0, 0)


cdef void put_tile(Garden* g, int tile, int x, int y, int o) noexcept nogil:
    """Lay the squares of a tile and update frontier, bounds, placement list and hash."""
    cdef int i, t, v, b, w = x + SOFF
    cdef uint64_t bit
    for i in range(4):
        t = OTYPE[tile][o][i]
        v = 2 * y if i < 2 else 2 * y - 1
        b = 2 * x + OFF + (i & 1)
        bit = (<uint64_t>1) << b
        g.typ[t][v & 31] |= bit
        g.exist[v & 31] |= bit
        if OMUSH[tile][o] == i:
            g.mush[v & 31] |= bit
    if g.ntiles == 0 or 2 * y > g.vhi:
        g.vhi = 2 * y
    if g.ntiles == 0 or 2 * y - 1 < g.vlo:
        g.vlo = 2 * y - 1
    if x < g.xlo:
        g.xlo = x
    if x > g.xhi:
        g.xhi = x
    g.tiles[w] |= slot_bit(y)
    g.front[w] &= ~slot_bit(y)
    if not (g.tiles[w - 1] & slot_bit(y)):
        g.front[w - 1] |= slot_bit(y)
    if not (g.tiles[w + 1] & slot_bit(y)):
        g.front[w + 1] |= slot_bit(y)
    if not (g.tiles[w] & slot_bit(y + 1)):
        g.front[w] |= slot_bit(y + 1)
    if not (g.tiles[w] & slot_bit(y - 1)):
        g.front[w] |= slot_bit(y - 1)
    g.nfront = 0
    for i in range(g.xlo - 1 + SOFF, g.xhi + 2 + SOFF):
        g.nfront += popcount(g.front[i])
    g.ptile[g.ntiles] = tile
    g.px[g.ntiles] = x
    g.py[g.ntiles] = y
    g.po[g.ntiles] = o
    g.ntiles += 1
    g.ghash ^= zmix((<uint64_t>ZD_PLACE << 56) ^ (<uint64_t>((tile * 32 + w) * 32 + y + SOFF) * 8 + o))


cdef inline bint on_frontier(const Garden* g, int x, int y) noexcept nogil:
    if x < -13 or x > 13 or y < -13 or y > 13:
        return False
    return (g.front[x + SOFF] & slot_bit(y)) != 0


cdef void update_hummingbirds(Garden* g) noexcept nogil:
    """§7: count(T) = target(T) of the current garden.  base only ever turns on."""
    cdef int w, x, y, b, r0, r1, total = 0
    cdef uint32_t cand, B
    for w in range(g.xlo + SOFF, g.xhi + SOFF + 1):
        cand = g.tiles[w] & ~g.based[w]
        x = w - SOFF
        b = 2 * x + OFF
        while cand:
            y = lsb(cand) - SOFF
            cand &= cand - 1
            r0 = (2 * y) & 31
            r1 = (2 * y - 1) & 31
            # every non-puddle square pollinated
            if (((g.typ[PUD][r0] | g.poll[r0]) >> b) & 3) == 3 and \
                    (((g.typ[PUD][r1] | g.poll[r1]) >> b) & 3) == 3:
                g.based[w] |= slot_bit(y)
    for w in range(g.xlo + SOFF, g.xhi + SOFF + 1):
        B = g.based[w]
        total += popcount(B) + popcount(B & g.based[w - 1] & g.based[w + 1]) \
            + popcount(B & (B << 1) & (B >> 1))
    g.humm = total


cdef int place_and_check(Garden* g, int tile, int x, int y, int o, const int* cards,
                         int ncards, uint64_t* used, int* counts, Rec* rec) noexcept nogil:
    """Place a tile and run the checks of §5.2 on this garden: bees, hummingbirds, then the
    cards in the order given (the cards never read each other's results).  used[k*32 ..]
    is card k's used set, counts[k] its pieces.  Returns the bees gained."""
    cdef Comp comps[3]
    cdef Comp pcomp
    cdef int ncomp = 0
    cdef int colour_of[3]
    cdef int i, k, c, v, r, ru, rd, b, bit, row, n, cnt, card, top, bottom
    cdef int vt = 2 * y, vb = 2 * y - 1, bl = 2 * x + OFF
    cdef int mpos = OMUSH[tile][o], ppos = OPUD[tile][o]
    cdef int mu = -1000, mv = 0, pu = -1000, pv = 0
    cdef int bees0 = g.bees, gain
    cdef uint64_t* U
    cdef uint64_t t0, t1, e0, e1, mono, dup, win, w4, a, inner, pm, h, vv, e3, all9, mm, near, cand
    cdef uint64_t colmask = (<uint64_t>7) << (bl - 1)
    cdef uint64_t A[32]
    cdef uint64_t col_above[32]
    cdef bint poll_changed = False, hit

    put_tile(g, tile, x, y, o)
    if mpos >= 0:
        mu = bl + (mpos & 1)
        mv = vt if mpos < 2 else vb
    if ppos >= 0:
        pu = bl + (ppos & 1)
        pv = vt if ppos < 2 else vb

    # One component per colour of the new tile: a tile's squares of one colour are always
    # orthogonally connected (§6), so each colour has one seed set.
    for c in range(5):
        if not (TCOLOURS[tile] & (1 << c)):
            continue
        memset(&comps[ncomp], 0, sizeof(Comp))
        comps[ncomp].k[vt & 31] = g.typ[c][vt & 31] & ((<uint64_t>3) << bl)
        comps[ncomp].k[vb & 31] = g.typ[c][vb & 31] & ((<uint64_t>3) << bl)
        comps[ncomp].lo = vb
        comps[ncomp].hi = vt
        if comps[ncomp].k[vt & 31] == 0:
            comps[ncomp].hi = vb
        if comps[ncomp].k[vb & 31] == 0:
            comps[ncomp].lo = vt
        flood(g.typ[c], &comps[ncomp], g.vlo, g.vhi)
        colour_of[ncomp] = c
        ncomp += 1

    # §6 bees, the engine's equivalent rule: a component of >= 3 squares with no square
    # pollinated before is new and brings 1 + the other pollinated sectors of its colour.
    for i in range(ncomp):
        if comps[i].size < 3:
            continue
        if not comp_meets(&comps[i], g.poll):
            c = colour_of[i]
            for v in range(g.vlo, g.vhi + 1):
                A[v & 31] = g.poll[v & 31] & g.typ[c][v & 31]
            g.bees += 1 + count_components(A, g.vlo, g.vhi)
        for v in range(comps[i].lo, comps[i].hi + 1):
            g.poll[v & 31] |= comps[i].k[v & 31]
        poll_changed = True

    # §7 hummingbirds
    if poll_changed:
        update_hummingbirds(g)

    # §8 dwellers
    for k in range(ncards):
        card = cards[k]
        U = used + k * 32
        if card == C_THOUGHTFUL:
            # Windows of one colour; only the 9 windows overlapping the new tile can be new.
            v = vt + 1
            while v >= vb:
                r = v & 31
                rd = (v - 1) & 31
                mono = 0
                for c in range(5):
                    t0 = g.typ[c][r]
                    t1 = g.typ[c][rd]
                    mono |= t0 & (t0 >> 1) & t1 & (t1 >> 1)
                mono &= colmask
                while mono:
                    b = lsb(mono)
                    mono = clear_lsb(mono)
                    w4 = (<uint64_t>3) << b
                    if ((U[r] | U[rd]) & w4) == 0:
                        used_add(g, U, k, v, w4)
                        used_add(g, U, k, v - 1, w4)
                        counts[k] += 1
                        rec_add(rec, card, b, v)
                v -= 1
        elif card == C_FLIRTY:
            # Windows of four different types; the 9 windows overlapping the new tile.
            v = vt + 1
            while v >= vb:
                r = v & 31
                rd = (v - 1) & 31
                dup = 0
                for c in range(6):
                    t0 = g.typ[c][r]
                    t1 = g.typ[c][rd]
                    dup |= (t0 & (t0 >> 1)) | (t1 & (t1 >> 1)) | (t0 & t1) | ((t0 & t1) >> 1) \
                        | (t0 & (t1 >> 1)) | ((t0 >> 1) & t1)
                e0 = g.exist[r]
                e1 = g.exist[rd]
                win = e0 & (e0 >> 1) & e1 & (e1 >> 1) & ~dup & colmask
                if v == 0:
                    win &= ~((<uint64_t>1) << OFF)   # the starting tile's own window
                while win:
                    b = lsb(win)
                    win = clear_lsb(win)
                    w4 = (<uint64_t>3) << b
                    if ((U[r] | U[rd]) & w4) == 0:
                        used_add(g, U, k, v, w4)
                        used_add(g, U, k, v - 1, w4)
                        counts[k] += 1
                        rec_add(rec, card, b, v)
                v -= 1
        elif card == C_RESTLESS or card == C_RUNNER:
            # Sectors: only the components of the new tile's colours changed.
            for i in range(ncomp):
                if comps[i].size < (5 if card == C_RESTLESS else 4):
                    continue
                if comp_meets(&comps[i], U):
                    continue
                if card == C_RUNNER:
                    hit = False
                    for v in range(comps[i].lo, comps[i].hi + 1):
                        a = comps[i].k[v & 31]
                        if a & (a >> 1) & (a >> 2) & (a >> 3):
                            hit = True
                            break
                        if v + 3 <= comps[i].hi and (a & comps[i].k[(v + 1) & 31]
                                                     & comps[i].k[(v + 2) & 31] & comps[i].k[(v + 3) & 31]):
                            hit = True
                            break
                    if not hit:
                        continue
                used_add_comp(g, U, k, &comps[i], NULL)
                counts[k] += 1
                comp_first(&comps[i], NULL, &bit, &row)
                rec_add(rec, card, bit, row)
        elif card == C_HOST:
            # Components of any size with >= 2 mushrooms, none used; only components
            # holding new squares changed (this is how two one-mushroom parts merge).
            for i in range(ncomp):
                if comp_count(&comps[i], g.mush) < 2 or comp_meets(&comps[i], U):
                    continue   # (U holds only mushroom squares)
                used_add_comp(g, U, k, &comps[i], g.mush)
                counts[k] += 1
                comp_first(&comps[i], g.mush, &bit, &row)
                rec_add(rec, card, bit, row)
        elif card == C_EXPLORER:
            # The whole garden against one A (two passes over the rows: what lies above
            # and below in each column); A only gains a mushroom with a mushroom tile, so
            # other placements can bring nothing new.
            if mpos < 0:
                continue
            pm = 0
            v = g.vhi
            while v >= g.vlo:
                r = v & 31
                A[r] = g.mush[r] & ~U[r]
                col_above[r] = pm
                pm |= A[r]
                v -= 1
            pm = 0
            for v in range(g.vlo, g.vhi + 1):
                r = v & 31
                a = A[r]
                inner = a & col_above[r] & pm          # a mushroom above and one below
                if popcount(a) >= 3:                   # one left and one right
                    inner |= a & ~(a & (0 - a)) & ~((<uint64_t>1) << msb(a))
                pm |= a
                col_above[r] = inner
            v = g.vhi
            while v >= g.vlo:
                inner = col_above[v & 31]
                while inner:
                    b = lsb(inner)
                    inner = clear_lsb(inner)
                    used_add(g, U, k, v, (<uint64_t>1) << b)
                    counts[k] += 1
                    rec_add(rec, card, b, v)
                v -= 1
        elif card == C_COLLECTOR or card == C_FRIENDLY:
            # Pairs of diagonal mushrooms (puddles) with neither used: every pair not yet
            # settled holds the new tile's one mushroom (puddle); the piece stands on the
            # other square.
            if card == C_COLLECTOR:
                b = mu
                v = mv
                pm = 0
                if mpos < 0:
                    continue
            else:
                b = pu
                v = pv
                if ppos < 0:
                    continue
            for i in range(4):
                row = v + 1 if i < 2 else v - 1
                bit = b - 1 if (i & 1) == 0 else b + 1
                r = row & 31
                if card == C_COLLECTOR:
                    cand = g.mush[r]
                else:
                    cand = g.typ[PUD][r]
                if (cand & ~U[r]) >> bit & 1:
                    used_add(g, U, k, row, (<uint64_t>1) << bit)
                    counts[k] += 1
                    rec_add(rec, card, bit, row)
        elif card == C_LONER or card == C_SHY:
            # A square's 8-neighbourhood changes only around the new tile: rows vb-1..vt+1.
            v = vt + 1
            while v >= vb - 1:
                r = v & 31
                ru = (v + 1) & 31
                rd = (v - 1) & 31
                e3 = g.exist[ru] & g.exist[r] & g.exist[rd]
                all9 = e3 & (e3 << 1) & (e3 >> 1)
                if card == C_LONER:
                    mm = g.mush[ru] | g.mush[r] | g.mush[rd]
                    near = g.mush[ru] | g.mush[rd] | (mm << 1) | (mm >> 1)
                    cand = g.mush[r] & ~U[r] & all9 & ~near
                else:
                    mm = g.typ[PUD][ru] | g.typ[PUD][r] | g.typ[PUD][rd]
                    near = g.typ[PUD][ru] | g.typ[PUD][rd] | (mm << 1) | (mm >> 1)
                    cand = g.typ[PUD][r] & ~U[r] & all9 & ~near
                while cand:
                    b = lsb(cand)
                    cand = clear_lsb(cand)
                    used_add(g, U, k, v, (<uint64_t>1) << b)
                    counts[k] += 1
                    rec_add(rec, card, b, v)
                v -= 1
        elif card == C_SKIPPER:
            # A square's orthogonal neighbours change only around the new tile.
            v = vt + 1
            while v >= vb - 1:
                r = v & 31
                ru = (v + 1) & 31
                rd = (v - 1) & 31
                pm = g.typ[PUD][r]
                h = (pm << 1) & (pm >> 1)
                vv = g.typ[PUD][ru] & g.typ[PUD][rd]
                cand = g.exist[r] & ~pm & ~U[r] & (h | vv)
                while cand:
                    b = lsb(cand)
                    cand = clear_lsb(cand)
                    used_add(g, U, k, v, (<uint64_t>1) << b)
                    counts[k] += 1
                    rec_add(rec, card, b, v)
                v -= 1
        elif card == C_DIVER:
            # Only the puddle component of the new puddle changed.
            if ppos < 0:
                continue
            memset(&pcomp, 0, sizeof(Comp))
            pcomp.k[pv & 31] = (<uint64_t>1) << pu
            pcomp.lo = pv
            pcomp.hi = pv
            flood(g.typ[PUD], &pcomp, g.vlo, g.vhi)
            if pcomp.size >= 2 and not comp_meets(&pcomp, U):
                used_add_comp(g, U, k, &pcomp, NULL)
                counts[k] += 1
                comp_first(&pcomp, NULL, &bit, &row)
                rec_add(rec, card, bit, row)
    return g.bees - bees0


# ------------------------------------------------------------------------------ the state

ctypedef struct Core:
    uint64_t market      # tile ids in the market (bit order = ascending id = market index)
    uint64_t bag
    uint64_t hkey        # market, bag, turn and cards; gardens are mixed in by key()
    int n
    int turn             # the turn about to be played, 1..12n; 12n+1 once over
    int cards[3]         # leaf 0..3, mushroom 4..7, puddle 8..11
    Garden g[4]          # only the first n are in use (and copied)


cdef inline uint64_t count_hash(int k, int value) noexcept nogil:
    return zmix((<uint64_t>ZD_COUNT << 56) ^ (<uint64_t>(k * 4096 + value)))


cdef inline uint64_t base_key(const Core* s) noexcept nogil:
    cdef uint64_t h = Z_TURN[s.turn & 63]
    cdef uint64_t f
    cdef int i
    f = s.market
    while f:
        h ^= Z_MARKET[lsb(f)]
        f = clear_lsb(f)
    f = s.bag
    while f:
        h ^= Z_BAG[lsb(f)]
        f = clear_lsb(f)
    for i in range(3):
        h ^= Z_CARD[s.cards[i]]
    return h


cdef inline void core_copy(Core* dst, const Core* src) noexcept nogil:
    memcpy(dst, src, <size_t>(<char*>&src.g[src.n] - <char*>src))


cdef inline bint core_over(const Core* s) noexcept nogil:
    return s.turn > 12 * s.n


cdef inline bint core_chance(const Core* s) noexcept nogil:
    return s.turn <= 12 * s.n and popcount(s.market) < 3


cdef void garden_place(Garden* g, int tile, int x, int y, int o, const int* cards3, Rec* rec) noexcept nogil:
    """Place a tile in a game garden with the three cards in play; keeps the hash of the
    counts in step.  The cards never interact, so checking them in the order leaf,
    mushroom, puddle gives the same result as the order leaf, puddle, mushroom of §5.2."""
    cdef int j
    cdef int old_bees = g.bees
    cdef int old_pieces[3]
    for j in range(3):
        old_pieces[j] = g.pieces[j]
    place_and_check(g, tile, x, y, o, cards3, 3, &g.used[0][0], g.pieces, rec)
    if g.bees != old_bees:
        g.ghash ^= count_hash(0, old_bees) ^ count_hash(0, g.bees)
    for j in range(3):
        if g.pieces[j] != old_pieces[j]:
            g.ghash ^= count_hash(1 + j, old_pieces[j]) ^ count_hash(1 + j, g.pieces[j])


cdef void core_place(Core* s, int tile, int x, int y, int o, Rec* rec) noexcept nogil:
    """The player to move places a market tile; checks run; the turn advances (§5)."""
    garden_place(&s.g[(s.turn - 1) % s.n], tile, x, y, o, s.cards, rec)
    s.market &= ~((<uint64_t>1) << tile)
    s.hkey ^= Z_MARKET[tile] ^ Z_TURN[s.turn & 63] ^ Z_TURN[(s.turn + 1) & 63]
    s.turn += 1


cdef inline void core_draw(Core* s, int tile) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << tile
    s.bag &= ~bit
    s.market |= bit
    s.hkey ^= Z_BAG[tile] ^ Z_MARKET[tile]


cdef inline int kth_bit(uint64_t x, int k) noexcept nogil:
    return lsb(pdep((<uint64_t>1) << k, x))


cdef inline void decode_move(int move, int* i, int* x, int* y, int* o) noexcept nogil:
    cdef int rest = move >> 3, slot
    o[0] = move & 7
    slot = rest % NSLOTNUM
    i[0] = rest // NSLOTNUM
    x[0] = slot // 25 - 12
    y[0] = slot % 25 - 12


cdef inline int encode_move(int i, int x, int y, int o) noexcept nogil:
    return ((i * NSLOTNUM + (x + 12) * 25 + (y + 12)) << 3) + o


cdef inline void core_play(Core* s, int move) noexcept nogil:
    cdef int i, x, y, o
    if move >= CHANCE_BASE:
        core_draw(s, move - CHANCE_BASE)
        return
    decode_move(move, &i, &x, &y, &o)
    core_place(s, kth_bit(s.market, i), x, y, o, NULL)


cdef inline int kth_frontier(const Garden* g, int k, int* x, int* y) noexcept nogil:
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


cdef unsigned long long perft_core(Core* s, int depth, Core* scratch) noexcept nogil:
    """§12.  Bulk counting: at depth 1 a decision node has |market| x |frontier| x 8 moves,
    and every draw at a chance node with depth 1 leads to one with |market|+1 tiles."""
    cdef unsigned long long total = 0
    cdef Core* child = scratch
    cdef int p, nm, nf, i, k, x, y, o, tile
    cdef uint64_t f
    if depth == 0:
        return 1
    if core_over(s):
        return 0
    p = (s.turn - 1) % s.n
    nf = s.g[p].nfront
    nm = popcount(s.market)
    if nm < 3:
        if depth == 1:
            return <unsigned long long>popcount(s.bag) * (nm + 1) * nf * 8
        if interrupted():
            return 0
        f = s.bag
        while f:
            tile = lsb(f)
            f = clear_lsb(f)
            core_copy(child, s)
            core_draw(child, tile)
            total += perft_core(child, depth, scratch + 1)
        return total
    if depth == 1:
        return <unsigned long long>nm * nf * 8
    if interrupted():
        return 0
    for i in range(nm):
        tile = kth_bit(s.market, i)
        for k in range(nf):
            kth_frontier(&s.g[p], k, &x, &y)
            for o in range(8):
                core_copy(child, s)
                core_place(child, tile, x, y, o, NULL)
                total += perft_core(child, depth - 1, scratch + 1)
    return total


cdef void final_scores(const Core* s, int* score) noexcept nogil:
    """§9.1-2: bees + hummingbirds + pieces, plus +2 per category to everyone at the
    highest count of it (when that is at least 1)."""
    cdef int p, j, best
    for p in range(s.n):
        score[p] = s.g[p].bees + s.g[p].humm + s.g[p].pieces[0] + s.g[p].pieces[1] + s.g[p].pieces[2]
    for j in range(3):
        best = 0
        for p in range(s.n):
            if s.g[p].pieces[j] > best:
                best = s.g[p].pieces[j]
        if best >= 1:
            for p in range(s.n):
                if s.g[p].pieces[j] == best:
                    score[p] += 2


cdef inline long rank_value(const Core* s, const int* score, int p) noexcept nogil:
    # §9.3: score, then hummingbirds, then bees
    return (<long>score[p] * 1000 + s.g[p].humm) * 1000 + s.g[p].bees


cdef int domino_squares(const Garden* g) noexcept nogil:
    """Squares in unpollinated same-colour pairs (each pair is one square short of a new
    sector); components that are not pollinated have at most 2 squares."""
    cdef int v, c, n = 0
    cdef uint64_t t, ru, rd
    for v in range(g.vlo, g.vhi + 1):
        for c in range(5):
            t = g.typ[c][v & 31] & ~g.poll[v & 31]
            if not t:
                continue
            ru = g.typ[c][(v + 1) & 31] & ~g.poll[(v + 1) & 31]
            rd = g.typ[c][(v - 1) & 31] & ~g.poll[(v - 1) & 31]
            n += popcount(t & ((t << 1) | (t >> 1) | ru | rd))
    return n


cdef int near_based(const Garden* g) noexcept nogil:
    """Tiles without a hummingbird whose colour squares all but one are pollinated."""
    cdef int w, x, y, b, r0, r1, n = 0
    cdef uint32_t cand
    cdef uint64_t miss
    for w in range(g.xlo + SOFF, g.xhi + SOFF + 1):
        cand = g.tiles[w] & ~g.based[w]
        x = w - SOFF
        b = 2 * x + OFF
        while cand:
            y = lsb(cand) - SOFF
            cand &= cand - 1
            r0 = (2 * y) & 31
            r1 = (2 * y - 1) & 31
            miss = ((~(g.typ[PUD][r0] | g.poll[r0]) >> b) & 3) | (((~(g.typ[PUD][r1] | g.poll[r1]) >> b) & 3) << 2)
            if popcount(miss) == 1:
                n += 1
    return n


cdef class Leaves(State):
    """An Under the Leaves position (2 to 4 players).

    >>> s = Leaves.start(2, seed=1)
    >>> s.perft(1)
    96
    """
    name = "leaves"

    cdef Core c

    def __cinit__(self):
        self.n_players = 2
        self.perft_expands_chance = True
        self.c.n = 2
        self.c.turn = 1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        if core_over(&self.c):
            return 0
        if popcount(self.c.market) < 3:
            return CHANCE
        return (self.c.turn - 1) % self.c.n

    cdef bint over(self) noexcept nogil:
        return core_over(&self.c)

    cdef void outcome(self, double* out) noexcept nogil:
        # §9.4: the k players sharing first place get 1/k each.
        cdef int score[4]
        cdef int p, k = 0
        cdef long best = -1, r
        final_scores(&self.c, score)
        for p in range(self.c.n):
            r = rank_value(&self.c, score, p)
            if r > best:
                best = r
                k = 1
            elif r == best:
                k += 1
        for p in range(self.c.n):
            out[p] = 1.0 / k if rank_value(&self.c, score, p) == best else 0.0

    cdef uint64_t key(self) noexcept nogil:
        cdef uint64_t h = self.c.hkey
        cdef int p
        for p in range(self.c.n):
            h ^= zmix(self.c.g[p].ghash ^ Z_PLAYER[p])
        return h

    cdef void assign(self, State other) noexcept nogil:
        core_copy(&self.c, &(<Leaves>other).c)

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, i, w, o, base, nm, p
        cdef uint32_t f
        cdef const Garden* g
        if core_over(&self.c) or popcount(self.c.market) < 3:
            return 0
        p = (self.c.turn - 1) % self.c.n
        g = &self.c.g[p]
        nm = popcount(self.c.market)
        for i in range(nm):
            for w in range(g.xlo - 1 + SOFF, g.xhi + 2 + SOFF):
                f = g.front[w]
                while f:
                    base = encode_move(i, w - SOFF, lsb(f) - SOFF, 0)
                    f &= f - 1
                    for o in range(8):
                        out[n] = base + o
                        n += 1
        return n

    cdef void play(self, int move) noexcept nogil:
        core_play(&self.c, move)

    cdef int chance_count(self) noexcept nogil:
        if not core_chance(&self.c):
            return 0
        return popcount(self.c.bag)

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int n = 0, total
        cdef uint64_t f
        if not core_chance(&self.c):
            return 0
        total = popcount(self.c.bag)
        f = self.c.bag
        while f:
            out[n] = CHANCE_BASE + lsb(f)
            probs[n] = 1.0 / total
            n += 1
            f = clear_lsb(f)
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return CHANCE_BASE + kth_bit(self.c.bag, rng_below(rng, popcount(self.c.bag)))

    cdef double evaluate(self, int player) noexcept nogil:
        # Estimates the chance that `player` finishes first.  For every player it projects
        # a final score: the score so far (bees, hummingbirds, pieces), the majority bonuses
        # as they stand now (+2 per category led or shared, scaled by how far the game
        # is), plus potential: 0.5 per unpollinated same-colour pair (one square short of a
        # new sector), 0.5 per tile one pollinated square short of a hummingbird, and 1.5
        # per turn the player still has.  The projections go through a softmax whose
        # temperature grows with the turns left (more turns, more uncertainty).
        cdef double proj[4]
        cdef int p, j, best, left, total = 12 * self.c.n
        cdef double progress, temp, mx, z, num = 0.0
        cdef const Garden* g
        if core_over(&self.c):
            self.outcome(proj)
            return proj[player]
        progress = (self.c.turn - 1) / <double>total
        for p in range(self.c.n):
            g = &self.c.g[p]
            left = 13 - g.ntiles
            proj[p] = g.bees + g.humm + g.pieces[0] + g.pieces[1] + g.pieces[2] \
                + 0.25 * domino_squares(g) + 0.5 * near_based(g) + 1.5 * left
        for j in range(3):
            best = 0
            for p in range(self.c.n):
                if self.c.g[p].pieces[j] > best:
                    best = self.c.g[p].pieces[j]
            if best >= 1:
                for p in range(self.c.n):
                    if self.c.g[p].pieces[j] == best:
                        proj[p] += 2.0 * progress
        temp = 1.0 + 0.35 * (12 - (self.c.turn - 1) / self.c.n)
        mx = proj[0]
        for p in range(1, self.c.n):
            if proj[p] > mx:
                mx = proj[p]
        z = 0.0
        for p in range(self.c.n):
            z += exp((proj[p] - mx) / temp)
        return exp((proj[player] - mx) / temp) / z

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # §10: the unseen tiles (bag + removed) are public as a set, and so is the bag
        # size; redraw which of them are in the bag, uniformly.
        cdef uint64_t unseen, placed = 0, newbag = 0, f
        cdef int p, j, nb, nu, i, k
        cdef int pool[NTILES]
        if self.c.n >= 4:
            return
        for p in range(self.c.n):
            for j in range(1, self.c.g[p].ntiles):
                placed |= (<uint64_t>1) << self.c.g[p].ptile[j]
        unseen = (((<uint64_t>1) << NTILES) - 1) & ~placed & ~self.c.market
        nb = popcount(self.c.bag)
        nu = 0
        while unseen:
            pool[nu] = lsb(unseen)
            nu += 1
            unseen = clear_lsb(unseen)
        for i in range(nb):
            k = i + rng_below(rng, nu - i)
            j = pool[i]
            pool[i] = pool[k]
            pool[k] = j
            newbag |= (<uint64_t>1) << pool[i]
        f = self.c.bag
        while f:
            self.c.hkey ^= Z_BAG[lsb(f)]
            f = clear_lsb(f)
        self.c.bag = newbag
        f = newbag
        while f:
            self.c.hkey ^= Z_BAG[lsb(f)]
            f = clear_lsb(f)

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # A uniform random legal move is (market index, k-th frontier slot, orientation)
        # from one draw; a refill is a uniform bag tile.
        cdef int plies = 0, p, nm, nf, r, i, k, x, y, o
        cdef Core* s = &self.c
        while plies < max_plies and not core_over(s):
            nm = popcount(s.market)
            if nm < 3:
                core_draw(s, kth_bit(s.bag, rng_below(rng, popcount(s.bag))))
            else:
                p = (s.turn - 1) % s.n
                nf = s.g[p].nfront
                r = rng_below(rng, nm * nf * 8)
                o = r & 7
                r >>= 3
                k = r % nf
                i = r // nf
                kth_frontier(&s.g[p], k, &x, &y)
                core_place(s, kth_bit(s.market, i), x, y, o, NULL)
            plies += 1
        return plies

    cdef unsigned long long perft_native(self, int depth) noexcept:
        cdef Core* scratch
        cdef unsigned long long total
        if depth <= 0:
            return 1
        scratch = <Core*>malloc((2 * depth + 2) * sizeof(Core))
        if scratch == NULL:
            return 0
        with nogil:
            total = perft_core(&self.c, depth, scratch)
        free(scratch)
        return total

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=None, seed=0):
        """A new game: cards, starting tiles, removed tiles and the first market drawn from
        ``seed`` (§2)."""
        cdef Rng rng
        n = 2 if players is None else players
        if n not in (2, 3, 4):
            raise GameError(f"Under the Leaves is played by 2 to 4 players, not {players}")
        rng_seed(&rng, <uint64_t>(seed if seed is not None else 0))
        leaf = rng_below(&rng, 4)
        mush = 4 + rng_below(&rng, 4)
        pud = 8 + rng_below(&rng, 4)
        starts = [0, 1, 2, 3]
        for i in range(3, 0, -1):
            j = rng_below(&rng, i + 1)
            starts[i], starts[j] = starts[j], starts[i]
        tiles = list(range(NTILES))
        for i in range(NTILES - 1, 0, -1):
            j = rng_below(&rng, i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        r = removed_count(n)
        market = sorted(tiles[r:r + 3])
        bag = sorted(tiles[r + 3:])
        text = (f"UTL p={n} cards={CARD_NAMES[leaf]},{CARD_NAMES[mush]},{CARD_NAMES[pud]} "
                f"turn=1 tomove=0 market={_ids(market)} bag={_ids(bag)} "
                + " ".join(f"g{k}=S{starts[k]}@(0,0)o0" for k in range(n)))
        return cls.parse(text)

    @classmethod
    def parse(cls, text):
        """Parse the position text of §11; PositionError names the first fault."""
        cdef Leaves s = cls.__new__(cls)
        cdef int p, k, tile, x, y, o
        cdef Garden* g
        if not isinstance(text, str):
            raise PositionError("an Under the Leaves position must be text")
        fields = text.split()
        if not fields or fields[0] != "UTL":
            raise PositionError("an Under the Leaves position starts with 'UTL'")
        if len(fields) < 2 or not fields[1].startswith("p="):
            raise PositionError("the second field must be p=<players> (2 to 4)")
        ptxt = fields[1][2:]
        if ptxt not in ("2", "3", "4"):
            raise PositionError(f"p must be 2, 3 or 4, got {ptxt!r}")
        n = int(ptxt)
        names = ["cards", "turn", "tomove", "market", "bag"] + [f"g{k}" for k in range(n)]
        if len(fields) != 2 + len(names):
            raise PositionError(
                f"a {n}-player position has {2 + len(names)} fields (UTL p= cards= turn= tomove= "
                f"market= bag= " + " ".join(f"g{k}=" for k in range(n)) + f"), got {len(fields)}")
        vals = {}
        for idx, name in enumerate(names):
            f = fields[2 + idx]
            key, eq, val = f.partition("=")
            if not eq or key != name:
                raise PositionError(
                    f"field {3 + idx} must be {name}=..., got {f!r} (fields go in the order "
                    "UTL p cards turn tomove market bag g0 ..)")
            vals[name] = val
        # cards
        cnames = vals["cards"].split(",")
        if len(cnames) != 3:
            raise PositionError(f"cards= needs 3 names (leaf, mushroom, puddle), got {vals['cards']!r}")
        cards = []
        for j, cn in enumerate(cnames):
            allowed = CARD_NAMES[4 * j:4 * j + 4]
            if cn not in allowed:
                raise PositionError(
                    f"the {CATEGORY_NAMES[j]} card must be one of {', '.join(allowed)}, got {cn!r}")
            cards.append(CARD_NAMES.index(cn))
        # turn and tomove
        tt = vals["turn"]
        if not _NUM_RE.fullmatch(tt) or not 1 <= int(tt) <= 12 * n + 1:
            raise PositionError(f"turn must be a number from 1 to {12 * n + 1}, got {tt!r}")
        t = int(tt)
        over = t == 12 * n + 1
        tm = vals["tomove"]
        if over:
            if tm != "-":
                raise PositionError(f"the game is over at turn {t}: tomove must be '-', got {tm!r}")
        elif tm != str((t - 1) % n):
            raise PositionError(f"at turn {t} seat {(t - 1) % n} is to move, but tomove={tm!r}")
        market = _parse_ids(vals["market"], "market")
        bag = _parse_ids(vals["bag"], "bag")
        if over:
            if bag:
                raise PositionError(f"the game is over at turn {t}: the bag must be empty ('-'), it holds {len(bag)}")
            if len(market) != 2:
                raise PositionError(f"a finished game leaves 2 tiles in the market, got {len(market)}")
        else:
            if len(market) == 3:
                need = 12 * n - t
            elif len(market) == 2:
                if t == 1:
                    raise PositionError("at turn 1 the market holds 3 tiles (setup draws them), got 2")
                need = 12 * n - t + 1
            else:
                raise PositionError(
                    f"the market holds 3 tiles (2 while a refill is pending), got {len(market)}")
            if len(bag) != need:
                raise PositionError(
                    f"the bag must hold {need} tiles at turn {t} (50 - {removed_count(n)} removed - "
                    f"{len(market)} in the market - {t - 1} placed), got {len(bag)}")
        # gardens
        gardens = []
        for k in range(n):
            gardens.append(_parse_garden(vals[f"g{k}"], k))
        for k in range(n):
            need = 1 + sum(1 for j in range(t - 1) if j % n == k)
            if len(gardens[k]) != need:
                raise PositionError(
                    f"g{k} has {len(gardens[k])} entries; at turn {t} seat {k} has placed "
                    f"{need - 1} tiles, so it needs {need} (the starting tile first)")
        seen = {}
        for where, ids in (("market", market), ("bag", bag)):
            for tid in ids:
                if tid in seen:
                    raise PositionError(f"tile {tid} is both in the {seen[tid]} and the {where}")
                seen[tid] = where
        starts_seen = {}
        for k, entries in enumerate(gardens):
            sj = entries[0][0] - 50
            if sj in starts_seen:
                raise PositionError(f"starting tile S{sj} is in g{starts_seen[sj]} and g{k}")
            starts_seen[sj] = k
            for e in entries[1:]:
                tid = e[0]
                if tid in seen:
                    if seen[tid] == f"g{k}":
                        raise PositionError(f"tile {tid} is placed twice in g{k}")
                    raise PositionError(f"tile {tid} is both in the {seen[tid]} and g{k}")
                seen[tid] = f"g{k}"
        removed = NTILES - len(seen)
        if removed != removed_count(n):
            raise PositionError(
                f"{removed} tiles are removed (in no market, bag or garden); with {n} players "
                f"there must be {removed_count(n)}")
        # build and replay
        s.n_players = n
        s.hidden_info = n < 4
        s.perft_expands_chance = True
        memset(&s.c, 0, sizeof(Core))
        s.c.n = n
        s.c.turn = t
        for j in range(3):
            s.c.cards[j] = cards[j]
        for tid in market:
            s.c.market |= (<uint64_t>1) << tid
        for tid in bag:
            s.c.bag |= (<uint64_t>1) << tid
        for p in range(n):
            g = &s.c.g[p]
            garden_init(g, gardens[p][0][0] - 50)
            for idx in range(1, len(gardens[p])):
                tile, x, y, o = gardens[p][idx]
                if not on_frontier(g, x, y):
                    raise PositionError(
                        f"g{p} entry {idx + 1} ({_entry_name(tile, x, y, o)}): slot ({x},{y}) is "
                        + ("already taken" if _slot_taken(g, x, y) else "not next to a tile of that garden"))
                garden_place(g, tile, x, y, o, s.c.cards, NULL)
        s.c.hkey = base_key(&s.c)
        return s

    def text(self):
        cdef int p
        n = self.c.n
        over = core_over(&self.c)
        parts = [f"UTL p={n}",
                 "cards=" + ",".join(CARD_NAMES[self.c.cards[j]] for j in range(3)),
                 f"turn={self.c.turn}",
                 "tomove=" + ("-" if over else str((self.c.turn - 1) % n)),
                 "market=" + _ids(_bits(self.c.market)),
                 "bag=" + _ids(_bits(self.c.bag))]
        for p in range(n):
            parts.append(f"g{p}=" + ";".join(_entry_name(*e) for e in self._entries(p)))
        return " ".join(parts)

    def _entries(self, int p):
        cdef const Garden* g = &self.c.g[p]
        return [(g.ptile[j], g.px[j], g.py[j], g.po[j]) for j in range(g.ntiles)]

    def move_name(self, int move):
        cdef int i, x, y, o
        if CHANCE_BASE <= move < CHANCE_BASE + NTILES:
            return f"d{move - CHANCE_BASE}"
        if 0 <= move < 3 * NSLOTNUM * 8:
            decode_move(move, &i, &x, &y, &o)
            return f"m{i}@({x},{y})o{o}"
        raise MoveError(f"{move} is not an Under the Leaves move id")

    def parse_move(self, str name):
        s = name.strip()
        m = _re.fullmatch(rf"d({_NUM})", s)
        if m:
            tid = int(m.group(1))
            if tid >= NTILES:
                raise MoveError(f"{name!r}: there is no tile {tid} (tiles are 0..49)")
            return CHANCE_BASE + tid
        m = _re.fullmatch(rf"m({_NUM})@\(({_INT}),({_INT})\)o({_NUM})", s)
        if not m:
            raise MoveError(
                f"{name!r} is not a move: write m<market index>@(<x>,<y>)o<orientation>, "
                "e.g. m2@(1,-1)o3, or d<tile> for a refill draw (ASCII digits, no leading zeros)")
        i, x, y, o = (int(v) for v in m.groups())
        if i > 2:
            raise MoveError(f"{name!r}: the market index is 0, 1 or 2")
        if o > 7:
            raise MoveError(f"{name!r}: the orientation is 0..7")
        if abs(x) > 12 or abs(y) > 12:
            raise MoveError(f"{name!r}: slot ({x},{y}) can never be on a frontier")
        return encode_move(i, x, y, o)

    # ---------------------------------------------------------------- accessors
    def _check_player(self, p):
        if not 0 <= p < self.c.n:
            raise ValueError(f"player must be 0..{self.c.n - 1}, got {p}")

    @property
    def turn(self):
        return self.c.turn

    @property
    def cards(self):
        """The three cards in play: (leaf, mushroom, puddle) names."""
        return tuple(CARD_NAMES[self.c.cards[j]] for j in range(3))

    def market(self):
        return _bits(self.c.market)

    def bag(self):
        return _bits(self.c.bag)

    def removed(self):
        """Tile ids in no market, bag or garden (§11)."""
        used = set(_bits(self.c.market)) | set(_bits(self.c.bag))
        for p in range(self.c.n):
            used |= {e[0] for e in self._entries(p)[1:]}
        return [t for t in range(NTILES) if t not in used]

    def garden(self, int p):
        """Player p's placements in order: [(tile, x, y, o)]; the starting tile is 50 + j."""
        self._check_player(p)
        return self._entries(p)

    def bees(self, int p):
        self._check_player(p)
        return self.c.g[p].bees

    def hummingbirds(self, int p):
        self._check_player(p)
        return self.c.g[p].humm

    def pieces(self, int p):
        """Pieces of each card in play, by card code: {'Fl': 1, 'Co': 0, 'Fr': 2}."""
        self._check_player(p)
        return {CARD_CODES[self.c.cards[j]]: self.c.g[p].pieces[j] for j in range(3)}

    def piece_squares(self, int p, code):
        """Where player p's pieces of a card stand, [(u, v)] in the order they came."""
        self._check_player(p)
        return self._replay(p).piece_squares(code)

    def frontier(self, int p):
        """Player p's frontier slots in canonical order (x, then y)."""
        self._check_player(p)
        return _frontier_list(&self.c.g[p])

    def scores(self):
        """Scores per player: bees + hummingbirds + pieces, and once the game is over the
        majority bonuses too (§9)."""
        cdef int sc[4]
        cdef int p
        if core_over(&self.c):
            final_scores(&self.c, sc)
            return tuple(sc[p] for p in range(self.c.n))
        return tuple(self.c.g[p].bees + self.c.g[p].humm + self.c.g[p].pieces[0]
                     + self.c.g[p].pieces[1] + self.c.g[p].pieces[2] for p in range(self.c.n))

    def _replay(self, int p):
        gr = GardenReplay(self.c.g[p].ptile[0] - 50,
                          cards=[CARD_NAMES[self.c.cards[j]] for j in range(3)])
        for (tile, x, y, o) in self._entries(p)[1:]:
            gr.place(tile, x, y, o)
        return gr

    def render(self, observer=None):
        """Every garden as a grid of squares, with pieces, and the scores."""
        n = self.c.n
        over = core_over(&self.c)
        lines = [f"Under the Leaves, {n} players; cards: "
                 + ", ".join(f"{CATEGORY_NAMES[j]} {CARD_NAMES[self.c.cards[j]]}" for j in range(3))]
        if over:
            lines.append(f"Game over after {12 * n} turns.")
        else:
            who = "chance (refill)" if core_chance(&self.c) else f"seat {(self.c.turn - 1) % n}"
            lines.append(f"Turn {self.c.turn} of {12 * n}, {who} to move.")
        lines.append("Market: " + " ".join(f"m{i}={_tile_desc(t)}" for i, t in enumerate(_bits(self.c.market)))
                     + f"   bag: {popcount(self.c.bag)} tiles")
        sc = self.scores()
        for p in range(n):
            gr = self._replay(p)
            lines.append("")
            lines.append(f"Seat {p}: score {sc[p]}" + (" (majority bonuses included)" if over else ""))
            lines.extend(gr.render_lines(legend=(p == 0)))
        return "\n".join(lines)

    def svg(self):
        """An SVG picture of all gardens (squares, mushrooms, puddles, hummingbirds, pieces)."""
        sc = self.scores()
        pics = []
        for p in range(self.c.n):
            pics.append((f"Seat {p}: score {sc[p]}", self._replay(p)))
        return _svg_gardens(pics)


# ------------------------------------------------------------------------------ helpers

def _bits(uint64_t x):
    out = []
    while x:
        out.append(lsb(x))
        x &= x - 1
    return out


def _ids(ids):
    return ",".join(str(t) for t in ids) if ids else "-"


def _parse_ids(txt, what):
    if txt == "-":
        return []
    parts = txt.split(",")
    out = []
    for part in parts:
        if not _NUM_RE.fullmatch(part):
            raise PositionError(f"{what}: {part!r} is not a tile id (0..49, ASCII digits, no leading zeros)")
        tid = int(part)
        if tid >= NTILES:
            raise PositionError(f"{what}: there is no tile {tid} (tiles are 0..49)")
        last = out[len(out) - 1] if out else -1
        if tid == last:
            raise PositionError(f"{what}: tile {tid} is listed twice")
        if tid < last:
            raise PositionError(f"{what}: ids must be in ascending order ({last} before {tid})")
        out.append(tid)
    return out


_ENTRY_RE = _re.compile(rf"(S?)({_NUM})@\(({_INT}),({_INT})\)o({_NUM})")


def _entry_name(tile, x, y, o):
    t = f"S{tile - 50}" if tile >= NTILES else str(tile)
    return f"{t}@({x},{y})o{o}"


def _parse_entry(txt, where):
    m = _ENTRY_RE.fullmatch(txt)
    if not m:
        raise PositionError(f"{where}: {txt!r} is not a placement <tile>@(<x>,<y>)o<orientation> "
                            "(ASCII digits, no leading zeros)")
    is_start, tid, x, y, o = m.group(1) == "S", int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
    if is_start:
        if tid > 3:
            raise PositionError(f"{where}: there is no starting tile S{tid} (S0..S3)")
        tid += 50
    elif tid >= NTILES:
        raise PositionError(f"{where}: there is no tile {tid} (tiles are 0..49)")
    if o > 7:
        raise PositionError(f"{where}: orientation {o} is not 0..7")
    if abs(x) > 12 or abs(y) > 12:
        raise PositionError(f"{where}: slot ({x},{y}) is more than 12 slots from (0,0), where no "
                            "garden of 13 tiles reaches")
    return (tid, x, y, o)


def _parse_garden(txt, k):
    entries = []
    if not txt:
        raise PositionError(f"g{k} is empty: a garden starts with its starting tile S<j>@(0,0)o0")
    for idx, e in enumerate(txt.split(";")):
        ent = _parse_entry(e, f"g{k} entry {idx + 1}")
        if idx == 0:
            if ent[0] < NTILES or ent[1:] != (0, 0, 0):
                raise PositionError(f"g{k} must start with its starting tile S<j>@(0,0)o0, got {e!r}")
        elif ent[0] >= NTILES:
            raise PositionError(f"g{k} entry {idx + 1} ({e}): a starting tile only opens a garden")
        entries.append(ent)
    if len(entries) > MAXG:
        raise PositionError(f"g{k} has {len(entries)} entries; a garden holds at most {MAXG} tiles")
    return entries


cdef bint _slot_taken(const Garden* g, int x, int y):
    if x < -13 or x > 13 or y < -13 or y > 13:
        return False
    return (g.tiles[x + SOFF] & slot_bit(y)) != 0


cdef list _frontier_list(const Garden* g):
    out = []
    cdef int w
    cdef uint32_t f
    for w in range(g.xlo - 1 + SOFF, g.xhi + 2 + SOFF):
        f = g.front[w]
        while f:
            out.append((w - SOFF, lsb(f) - SOFF))
            f &= f - 1
    return out


def tile_squares(int tile, int o):
    """The squares of a tile (0..49, or 50+j for S<j>) placed in orientation o, as
    (TL, TR, BL, BR) strings like 'Y*', 'P', '~' (§1.4)."""
    if not 0 <= tile < NALL or not 0 <= o < 8:
        raise ValueError("tile 0..53 and orientation 0..7")
    return tuple(TYPE_LETTERS[OTYPE[tile][o][i]] + ("*" if OMUSH[tile][o] == i else "")
                 for i in range(4))


def _tile_desc(int tile):
    return f"{tile}[" + " ".join(tile_squares(tile, 0)) + "]"


def _card_index(code):
    if code in CARD_CODES:
        return CARD_CODES.index(code)
    if code in CARD_NAMES:
        return CARD_NAMES.index(code)
    raise ValueError(f"unknown card {code!r}; codes: {' '.join(CARD_CODES)}")


cdef class GardenReplay:
    """One garden replayed on its own, with any set of cards checked at once (the §13
    scripts check all 12).  Used by the tests, by render/svg and by piece_squares.

    >>> g = GardenReplay(0)
    >>> g.play("38@(1,0)o0")["Sk"]
    1
    """
    cdef Garden g
    cdef uint64_t used[NCARDS][32]
    cdef int counts[NCARDS]
    cdef int cards[NCARDS]
    cdef int ncards
    cdef Rec rec
    cdef list _where      # per card in the list: [(u, v)]

    def __init__(self, start, cards=None):
        if isinstance(start, str):
            if not _re.fullmatch(r"S[0-3]", start):
                raise ValueError(f"starting tile must be S0..S3, got {start!r}")
            start = int(start[1])
        if not 0 <= start <= 3:
            raise ValueError(f"starting tile must be 0..3, got {start}")
        if cards is None:
            cards = CARD_CODES
        idx = [_card_index(c) for c in cards]
        if len(set(idx)) != len(idx):
            raise ValueError("a card is listed twice")
        self.ncards = len(idx)
        for k, c in enumerate(idx):
            self.cards[k] = c
            self.counts[k] = 0
        memset(self.used, 0, sizeof(self.used))
        garden_init(&self.g, start)
        self._where = [[] for _ in idx]

    def set_cards(self, cards):
        """Change the cards checked from the next placement on (a card that stays keeps
        its pieces and used set, a new one starts empty).  A test device for "when a check
        first sees ..." situations of §13 that legal play with the card in from the start
        cannot reach.  Only Explorer scans the whole garden: every other card checks around
        the tile just placed (exact only while the card has been checked from the start),
        so a card turned on here sees only what later tiles touch."""
        cdef int k, j
        cdef uint64_t old_used[NCARDS][32]
        cdef int old_counts[NCARDS]
        idx = [_card_index(c) for c in cards]
        if len(set(idx)) != len(idx):
            raise ValueError("a card is listed twice")
        old = [self.cards[k] for k in range(self.ncards)]
        memcpy(old_used, self.used, sizeof(self.used))
        memcpy(old_counts, self.counts, sizeof(self.counts))
        where = self._where
        memset(self.used, 0, sizeof(self.used))
        self._where = []
        for k, c in enumerate(idx):
            self.cards[k] = c
            self.counts[k] = 0
            self._where.append([])
            if c in old:
                j = old.index(c)
                memcpy(self.used[k], old_used[j], sizeof(self.used[k]))
                self.counts[k] = old_counts[j]
                self._where[k] = where[j]
        self.ncards = len(idx)

    def place(self, int tile, int x, int y, int o):
        """Place tile (0..49) at slot (x,y) in orientation o and run every check; returns
        the pieces gained per card code (cards that gained nothing are left out)."""
        cdef int k, before[NCARDS]
        if not 0 <= tile < NTILES:
            raise MoveError(f"there is no tile {tile}")
        if not 0 <= o < 8:
            raise MoveError(f"orientation {o} is not 0..7")
        if self.g.ntiles >= MAXG:
            raise MoveError("the garden already holds 13 tiles")
        if any(e[0] == tile for e in self.entries()):
            raise MoveError(f"tile {tile} is already in this garden")
        if not on_frontier(&self.g, x, y):
            raise MoveError(f"slot ({x},{y}) is not on the frontier")
        for k in range(self.ncards):
            before[k] = self.counts[k]
        self.rec.n = 0
        place_and_check(&self.g, tile, x, y, o, self.cards, self.ncards, &self.used[0][0],
                        self.counts, &self.rec)
        for k in range(self.rec.n):
            card = self.rec.card[k]
            for j in range(self.ncards):
                if self.cards[j] == card:
                    self._where[j].append((self.rec.u[k], self.rec.v[k]))
        return {CARD_CODES[self.cards[k]]: self.counts[k] - before[k]
                for k in range(self.ncards) if self.counts[k] != before[k]}

    def play(self, str text):
        """Place a tile written as in a garden list: ``38@(1,0)o0``."""
        m = _ENTRY_RE.fullmatch(text.strip())
        if not m or m.group(1):
            raise MoveError(f"{text!r} is not a placement <tile>@(<x>,<y>)o<o>")
        return self.place(int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)))

    def entries(self):
        return [(self.g.ptile[j], self.g.px[j], self.g.py[j], self.g.po[j]) for j in range(self.g.ntiles)]

    @property
    def bees(self):
        return self.g.bees

    @property
    def hummingbirds(self):
        return self.g.humm

    def hummingbirds_at(self, int x, int y):
        """count(T) of the tile at slot (x, y) (§7), 0 for an empty slot."""
        cdef int w = x + SOFF
        if not (-13 <= x <= 13 and -13 <= y <= 13) or not (self.g.tiles[w] & slot_bit(y)):
            return 0
        if not (self.g.based[w] & slot_bit(y)):
            return 0
        return 1 + (1 if (self.g.based[w - 1] & self.g.based[w + 1] & slot_bit(y)) else 0) \
            + (1 if (self.g.based[w] & slot_bit(y - 1)) and (self.g.based[w] & slot_bit(y + 1)) else 0)

    def pieces(self):
        """Pieces per card code, every card checked."""
        return {CARD_CODES[self.cards[k]]: self.counts[k] for k in range(self.ncards)}

    def piece_squares(self, code):
        """Where the pieces of a card stand, [(u, v)] in the order they came (windows: the
        top-left square; sectors and components: their first square in reading order)."""
        c = _card_index(code)
        for k in range(self.ncards):
            if self.cards[k] == c:
                return list(self._where[k])
        raise ValueError(f"card {code!r} is not checked in this garden")

    def frontier(self):
        return _frontier_list(&self.g)

    def square(self, int u, int v):
        """'Y', 'P*', '~' ... for an existing square, None for a missing one."""
        cdef int r = v & 31, b = u + OFF
        if not (-26 <= u <= 27 and -27 <= v <= 26) or not (self.g.exist[r] >> b) & 1:
            return None
        if not (self.g.vlo <= v <= self.g.vhi):
            return None
        for t in range(6):
            if (self.g.typ[t][r] >> b) & 1:
                return TYPE_LETTERS[t] + ("*" if (self.g.mush[r] >> b) & 1 else "")
        return None

    def pollinated(self, int u, int v):
        cdef int r = v & 31, b = u + OFF
        return self.square(u, v) is not None and bool((self.g.poll[r] >> b) & 1)

    def bounds(self):
        """(umin, umax, vmin, vmax) of the squares."""
        return (2 * self.g.xlo, 2 * self.g.xhi + 1, self.g.vlo, self.g.vhi)

    def render_lines(self, legend=True):
        umin, umax, vmin, vmax = self.bounds()
        marks = {}
        letters = "lmp" if self.ncards == 3 else "abcdefghijkl"
        for k in range(self.ncards):
            for (u, v) in self._where[k]:
                marks.setdefault((u, v), []).append(letters[k] if self.ncards == 3 else letters[k])
        width = max(2 + max((len(m) for m in marks.values()), default=0), 3)
        head = "v\\u " + "".join(f"{u:>{width + 1}}" for u in range(umin, umax + 1))
        out = [head]
        for v in range(vmax, vmin - 1, -1):
            row = f"{v:>3} "
            for u in range(umin, umax + 1):
                sq = self.square(u, v)
                cell = "." if sq is None else sq + "".join(marks.get((u, v), []))
                row += f"{cell:>{width + 1}}"
            out.append(row)
        birds = [(x, y, self.hummingbirds_at(x, y)) for (_, x, y, _) in self.entries()]
        birds = [f"({x},{y}) {h}" for (x, y, h) in sorted(birds) if h]
        if birds:
            out.append("hummingbirds on tiles: " + ", ".join(birds))
        out.append(f"bees {self.bees}, hummingbirds {self.hummingbirds}; pieces: "
                   + ", ".join(f"{CARD_NAMES[self.cards[k]]} {self.counts[k]}" for k in range(self.ncards)))
        if legend:
            out.append("squares: Y yellow, P pink, O orange, V purple, G green, ~ puddle, * mushroom; "
                       "a piece is marked after its square: "
                       + ", ".join(f"{letters[k]} {CARD_NAMES[self.cards[k]]}" for k in range(self.ncards)))
        return out

    def render(self):
        return "\n".join(self.render_lines())


_SVG_FILL = {"Y": "#f2d13c", "P": "#f29ac0", "O": "#f0902a", "V": "#9a62c8", "G": "#5cb85c", "~": "#5aa9e6"}


def _svg_gardens(pics):
    cell = 22
    gap = 40
    x0 = 10
    parts = []
    height = 0
    for title, gr in pics:
        umin, umax, vmin, vmax = gr.bounds()
        w = (umax - umin + 1) * cell
        h = (vmax - vmin + 1) * cell
        parts.append(f'<g transform="translate({x0},30)">')
        parts.append(f'<text x="0" y="-10" font-family="sans-serif" font-size="14">{title}; '
                     f'bees {gr.bees}, hummingbirds {gr.hummingbirds}</text>')
        marks = {}
        for k, code in enumerate(gr.pieces()):
            for (u, v) in gr.piece_squares(code):
                marks.setdefault((u, v), []).append(code)
        for v in range(vmax, vmin - 1, -1):
            for u in range(umin, umax + 1):
                sq = gr.square(u, v)
                if sq is None:
                    continue
                px = (u - umin) * cell
                py = (vmax - v) * cell
                parts.append(f'<rect x="{px}" y="{py}" width="{cell}" height="{cell}" '
                             f'fill="{_SVG_FILL[sq[0]]}" stroke="#555" stroke-width="0.5"/>')
                if sq.endswith("*"):
                    parts.append(f'<circle cx="{px + cell / 2}" cy="{py + cell / 2}" r="{cell / 4}" '
                                 'fill="#fff" stroke="#a33" stroke-width="2"/>')
                if (u, v) in marks:
                    parts.append(f'<text x="{px + 2}" y="{py + cell - 3}" font-family="sans-serif" '
                                 f'font-size="8">{" ".join(marks[(u, v)])}</text>')
        for (tile, x, y, o) in gr.entries():
            px = (2 * x - umin) * cell
            py = (vmax - 2 * y) * cell
            parts.append(f'<rect x="{px}" y="{py}" width="{2 * cell}" height="{2 * cell}" fill="none" '
                         'stroke="#222" stroke-width="2"/>')
            hb = gr.hummingbirds_at(x, y)
            if hb:
                parts.append(f'<text x="{px + cell - 4}" y="{py + cell + 4}" font-family="sans-serif" '
                             f'font-size="11" font-weight="bold">{hb}</text>')
        parts.append("</g>")
        x0 += w + gap
        height = max(height, h)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{x0}" height="{height + 50}">'
            + "".join(parts) + "</svg>")
