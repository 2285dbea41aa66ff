"""A garden: placing a tile and the checks of docs/rules/leaves.md §5.2 (bees §6,
hummingbirds §7, the dweller cards §8), declared in garden.pxd.

Components are found by a bit-parallel flood fill (``flood``): each row is closed
horizontally with one carry trick upward and a Kogge-Stone fill downward, and the rows are
swept alternately up and down, only over the rows the component reaches, until a sweep
changes nothing.  The checks work locally around the new tile (Explorer alone scans the
whole garden, in two passes over the rows, when a mushroom arrives); each local rule below
says why the result is the same as the whole-garden check of the rules (§5.3): after every
check nothing that qualifies is left unclaimed, so only configurations that involve the
new squares can be new.  tests/core/leaves/reference.py is a literal whole-garden reading of
the rules the engine is checked against.
"""
from libc.stdint cimport uint64_t, uint32_t
from libc.string cimport memcpy, memset

from roost.core.bits cimport popcount, lsb, msb, clear_lsb
from roost.core.leaves.tables cimport (init_tables, zmix, OTYPE, OMUSH, OPUD, TCOLOURS, OFF,
                                       SOFF, PUD, ZD_PLACE, ZD_USED, ZD_COUNT, C_THOUGHTFUL,
                                       C_RESTLESS, C_FLIRTY, C_RUNNER, C_HOST, C_EXPLORER,
                                       C_COLLECTOR, C_LONER, C_DIVER, C_SKIPPER, C_FRIENDLY,
                                       C_SHY)

init_tables()


# ---------------------------------------------------------------------------- bit planes
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


# ---------------------------------------------------------------------------- used sets
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


cdef inline void claim(Garden* g, uint64_t* U, int k, int v, uint64_t squares, int* counts,
                       Rec* rec, int card) noexcept nogil:
    """One piece of card k on each square of row v in squares (a bit set)."""
    cdef int b
    while squares:
        b = lsb(squares)
        squares = clear_lsb(squares)
        used_add(g, U, k, v, (<uint64_t>1) << b)
        counts[k] += 1
        rec_add(rec, card, b, v)


cdef inline void claim_windows(Garden* g, uint64_t* U, int k, int v, uint64_t win, int* counts,
                               Rec* rec, int card) noexcept nogil:
    """One piece of card k on each 2x2 window of win (top-left squares in row v) whose four
    squares are all unused."""
    cdef int b, r = v & 31, rd = (v - 1) & 31
    cdef uint64_t w4
    while win:
        b = lsb(win)
        win = clear_lsb(win)
        w4 = (<uint64_t>3) << b
        if ((U[r] | U[rd]) & w4) == 0:
            used_add(g, U, k, v, w4)
            used_add(g, U, k, v - 1, w4)
            counts[k] += 1
            rec_add(rec, card, b, v)


# ---------------------------------------------------------------------------- laying a tile
cdef void garden_init(Garden* g, int start) noexcept nogil:
    """A lone starting tile attracts nothing (four different square types), so no check
    runs."""
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


cdef void update_hummingbirds(Garden* g) noexcept nogil:
    """§7.1: count(T) = target(T) of the current garden.  base only ever turns on."""
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


# ---------------------------------------------------------------------------- the checks
ctypedef struct Placed:
    # The tile just laid, as the checks see it.
    Comp comps[3]        # the components of its colours (one per colour: §6.3)
    int colour_of[3]
    int ncomp
    int vt, vb, bl       # its top and bottom square rows, the bit of its left squares
    uint64_t colmask     # the window columns overlapping it: bits bl-1..bl+1
    int mpos, ppos       # placed position of its mushroom / puddle, or -1
    int mu, mv, pu, pv   # the squares of its mushroom / puddle


cdef inline void placed_init(Placed* p, Garden* g, int tile, int x, int y, int o) noexcept nogil:
    """The tile's geometry, and one component per colour of it: a tile's squares of one
    colour are always orthogonally connected (§6.3), so each colour has one seed set."""
    cdef int c
    cdef Comp* comp
    p.vt = 2 * y
    p.vb = 2 * y - 1
    p.bl = 2 * x + OFF
    p.colmask = (<uint64_t>7) << (p.bl - 1)
    p.mpos = OMUSH[tile][o]
    p.ppos = OPUD[tile][o]
    p.mu = -1000
    p.mv = 0
    p.pu = -1000
    p.pv = 0
    if p.mpos >= 0:
        p.mu = p.bl + (p.mpos & 1)
        p.mv = p.vt if p.mpos < 2 else p.vb
    if p.ppos >= 0:
        p.pu = p.bl + (p.ppos & 1)
        p.pv = p.vt if p.ppos < 2 else p.vb
    p.ncomp = 0
    for c in range(5):
        if not (TCOLOURS[tile] & (1 << c)):
            continue
        comp = &p.comps[p.ncomp]
        memset(comp, 0, sizeof(Comp))
        comp.k[p.vt & 31] = g.typ[c][p.vt & 31] & ((<uint64_t>3) << p.bl)
        comp.k[p.vb & 31] = g.typ[c][p.vb & 31] & ((<uint64_t>3) << p.bl)
        comp.lo = p.vb
        comp.hi = p.vt
        if comp.k[p.vt & 31] == 0:
            comp.hi = p.vb
        if comp.k[p.vb & 31] == 0:
            comp.lo = p.vt
        flood(g.typ[c], comp, g.vlo, g.vhi)
        p.colour_of[p.ncomp] = c
        p.ncomp += 1


cdef inline bint check_bees(Garden* g, Comp* comps, const int* colour_of, int ncomp) noexcept nogil:
    """§6.3 bees, the engine's rule: a component of >= 3 squares with no square
    pollinated before is new and brings 1 + the other pollinated sectors of its colour.
    Returns whether the pollinated squares changed."""
    cdef uint64_t A[32]
    cdef int i, c, v
    cdef bint changed = False
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
        changed = True
    return changed


cdef inline void check_thoughtful(Garden* g, uint64_t* U, int k, int* counts, Rec* rec,
                                  int vt, int vb, uint64_t colmask) noexcept nogil:
    """Windows of one colour; only the 9 windows overlapping the new tile can be new."""
    cdef int v = vt + 1, c, r, rd
    cdef uint64_t mono, t0, t1
    while v >= vb:
        r = v & 31
        rd = (v - 1) & 31
        mono = 0
        for c in range(5):
            t0 = g.typ[c][r]
            t1 = g.typ[c][rd]
            mono |= t0 & (t0 >> 1) & t1 & (t1 >> 1)
        claim_windows(g, U, k, v, mono & colmask, counts, rec, C_THOUGHTFUL)
        v -= 1


cdef inline void check_flirty(Garden* g, uint64_t* U, int k, int* counts, Rec* rec,
                              int vt, int vb, uint64_t colmask) noexcept nogil:
    """Windows of four different types; the 9 windows overlapping the new tile."""
    cdef int v = vt + 1, c, r, rd
    cdef uint64_t dup, t0, t1, e0, e1, win
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
        claim_windows(g, U, k, v, win, counts, rec, C_FLIRTY)
        v -= 1


cdef inline bint has_run_of_four(const Comp* comp) noexcept nogil:
    """Four squares of the component in a row or a column (Runner)."""
    cdef int v
    cdef uint64_t a
    for v in range(comp.lo, comp.hi + 1):
        a = comp.k[v & 31]
        if a & (a >> 1) & (a >> 2) & (a >> 3):
            return True
        if v + 3 <= comp.hi and (a & comp.k[(v + 1) & 31] & comp.k[(v + 2) & 31]
                                 & comp.k[(v + 3) & 31]):
            return True
    return False


cdef inline void check_sectors(Garden* g, uint64_t* U, int k, int* counts, Rec* rec, int card,
                               const Comp* comps, int ncomp) noexcept nogil:
    """Restless and Runner, sectors: only the components of the new tile's colours changed."""
    cdef int i, bit, row
    for i in range(ncomp):
        if comps[i].size < (5 if card == C_RESTLESS else 4):
            continue
        if comp_meets(&comps[i], U):
            continue
        if card == C_RUNNER and not has_run_of_four(&comps[i]):
            continue
        used_add_comp(g, U, k, &comps[i], NULL)
        counts[k] += 1
        comp_first(&comps[i], NULL, &bit, &row)
        rec_add(rec, card, bit, row)


cdef inline void check_host(Garden* g, uint64_t* U, int k, int* counts, Rec* rec,
                            const Comp* comps, int ncomp) noexcept nogil:
    """Components of any size with >= 2 mushrooms, none used; only components holding new
    squares changed (this is how two one-mushroom parts merge)."""
    cdef int i, bit, row
    for i in range(ncomp):
        if comp_count(&comps[i], g.mush) < 2 or comp_meets(&comps[i], U):
            continue   # (U holds only mushroom squares)
        used_add_comp(g, U, k, &comps[i], g.mush)
        counts[k] += 1
        comp_first(&comps[i], g.mush, &bit, &row)
        rec_add(rec, C_HOST, bit, row)


cdef inline void check_explorer(Garden* g, uint64_t* U, int k, int* counts, Rec* rec) noexcept nogil:
    """The whole garden against one A (two passes over the rows: what lies above and below
    in each column); A only gains a mushroom with a mushroom tile, so other placements can
    bring nothing new."""
    cdef uint64_t A[32]
    cdef uint64_t col_above[32]
    cdef uint64_t pm = 0, a, inner
    cdef int v = g.vhi, r
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
        claim(g, U, k, v, col_above[v & 31], counts, rec, C_EXPLORER)
        v -= 1


cdef inline void check_diagonal(Garden* g, uint64_t* U, int k, int* counts, Rec* rec, int card,
                                int b, int v) noexcept nogil:
    """Collector (Friendly): pairs of diagonal mushrooms (puddles) with neither used: every
    pair not yet settled holds the new tile's one mushroom (puddle), on square bit b of row v;
    the piece stands on the other square."""
    cdef int i, row, bit
    cdef uint64_t cand
    for i in range(4):
        row = v + 1 if i < 2 else v - 1
        bit = b - 1 if (i & 1) == 0 else b + 1
        cand = g.mush[row & 31] if card == C_COLLECTOR else g.typ[PUD][row & 31]
        if (cand & ~U[row & 31]) >> bit & 1:
            used_add(g, U, k, row, (<uint64_t>1) << bit)
            counts[k] += 1
            rec_add(rec, card, bit, row)


cdef inline void check_lonely(Garden* g, uint64_t* U, int k, int* counts, Rec* rec, int card,
                              int vt, int vb) noexcept nogil:
    """Loner (Shy): a mushroom (puddle) with all 8 neighbours present and none a mushroom
    (puddle).  A square's 8-neighbourhood changes only around the new tile: rows vb-1..vt+1."""
    cdef int v = vt + 1, r, ru, rd
    cdef uint64_t e3, all9, mm, near, cand
    cdef uint64_t* plane
    if card == C_LONER:
        plane = g.mush
    else:
        plane = g.typ[PUD]
    while v >= vb - 1:
        r = v & 31
        ru = (v + 1) & 31
        rd = (v - 1) & 31
        e3 = g.exist[ru] & g.exist[r] & g.exist[rd]
        all9 = e3 & (e3 << 1) & (e3 >> 1)
        mm = plane[ru] | plane[r] | plane[rd]
        near = plane[ru] | plane[rd] | (mm << 1) | (mm >> 1)
        cand = plane[r] & ~U[r] & all9 & ~near
        claim(g, U, k, v, cand, counts, rec, card)
        v -= 1


cdef inline void check_skipper(Garden* g, uint64_t* U, int k, int* counts, Rec* rec,
                               int vt, int vb) noexcept nogil:
    """A square between two puddles, in a row or a column; a square's orthogonal neighbours
    change only around the new tile."""
    cdef int v = vt + 1, r, ru, rd
    cdef uint64_t pm, h, vv, cand
    while v >= vb - 1:
        r = v & 31
        ru = (v + 1) & 31
        rd = (v - 1) & 31
        pm = g.typ[PUD][r]
        h = (pm << 1) & (pm >> 1)
        vv = g.typ[PUD][ru] & g.typ[PUD][rd]
        cand = g.exist[r] & ~pm & ~U[r] & (h | vv)
        claim(g, U, k, v, cand, counts, rec, C_SKIPPER)
        v -= 1


cdef inline void check_diver(Garden* g, uint64_t* U, int k, int* counts, Rec* rec,
                             int pu, int pv) noexcept nogil:
    """Puddle components of >= 2 squares, none used: only the new puddle's (square bit pu of
    row pv) changed."""
    cdef Comp pcomp
    cdef int bit, row
    memset(&pcomp, 0, sizeof(Comp))
    pcomp.k[pv & 31] = (<uint64_t>1) << pu
    pcomp.lo = pv
    pcomp.hi = pv
    flood(g.typ[PUD], &pcomp, g.vlo, g.vhi)
    if pcomp.size >= 2 and not comp_meets(&pcomp, U):
        used_add_comp(g, U, k, &pcomp, NULL)
        counts[k] += 1
        comp_first(&pcomp, NULL, &bit, &row)
        rec_add(rec, C_DIVER, bit, row)


cdef int place_and_check(Garden* g, int tile, int x, int y, int o, const int* cards,
                         int ncards, uint64_t* used, int* counts, Rec* rec) noexcept nogil:
    """Place a tile and run the checks of §5.2 on this garden: bees, hummingbirds, then the
    cards in the order given (the cards never read each other's results)."""
    cdef Placed p
    cdef int k, card, bees0 = g.bees
    cdef uint64_t* U
    put_tile(g, tile, x, y, o)
    placed_init(&p, g, tile, x, y, o)
    if check_bees(g, p.comps, p.colour_of, p.ncomp):
        update_hummingbirds(g)          # §7
    for k in range(ncards):             # §8
        card = cards[k]
        U = used + k * 32
        if card == C_THOUGHTFUL:
            check_thoughtful(g, U, k, counts, rec, p.vt, p.vb, p.colmask)
        elif card == C_FLIRTY:
            check_flirty(g, U, k, counts, rec, p.vt, p.vb, p.colmask)
        elif card == C_RESTLESS or card == C_RUNNER:
            check_sectors(g, U, k, counts, rec, card, p.comps, p.ncomp)
        elif card == C_HOST:
            check_host(g, U, k, counts, rec, p.comps, p.ncomp)
        elif card == C_EXPLORER:
            if p.mpos >= 0:
                check_explorer(g, U, k, counts, rec)
        elif card == C_COLLECTOR:
            if p.mpos >= 0:
                check_diagonal(g, U, k, counts, rec, card, p.mu, p.mv)
        elif card == C_FRIENDLY:
            if p.ppos >= 0:
                check_diagonal(g, U, k, counts, rec, card, p.pu, p.pv)
        elif card == C_LONER or card == C_SHY:
            check_lonely(g, U, k, counts, rec, card, p.vt, p.vb)
        elif card == C_SKIPPER:
            check_skipper(g, U, k, counts, rec, p.vt, p.vb)
        elif card == C_DIVER:
            if p.ppos >= 0:
                check_diver(g, U, k, counts, rec, p.pu, p.pv)
    return g.bees - bees0


cdef inline uint64_t count_hash(int k, int value) noexcept nogil:
    return zmix((<uint64_t>ZD_COUNT << 56) ^ (<uint64_t>(k * 4096 + value)))


cdef void garden_place(Garden* g, int tile, int x, int y, int o, const int* cards3, Rec* rec) noexcept nogil:
    """The cards never interact, so checking them in the order leaf, mushroom, puddle gives
    the same result as the order leaf, puddle, mushroom of §5.2."""
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


cdef list frontier_list(const Garden* g):
    out = []
    cdef int w
    cdef uint32_t f
    for w in range(g.xlo - 1 + SOFF, g.xhi + 2 + SOFF):
        f = g.front[w]
        while f:
            out.append((w - SOFF, lsb(f) - SOFF))
            f &= f - 1
    return out
