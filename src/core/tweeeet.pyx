"""Tweeeet (rules: ../shared/rules/tweeeet.md).

The strip is rows 0..19 of 9 hex cells ("odd-r": odd rows sit half a cell to the right).
Cell (x, y) has id 9*y + x (0..179).  The bitboards are three 64-bit words of seven rows
each: row y is lane y % 7 of word y // 7, at bits 9*(y % 7) .. 9*(y % 7) + 8, so that
``word * 63 + bit`` is the cell id again.  Neighbours are shifts: +-1 along a lane (masked
at columns a and i), and +-9 between lanes after "spreading" the source row to the two
cells it touches in the next row (x-1 and x from an even row, x and x+1 from an odd one).
Flights are a breadth-first dilation of the bird's cell through the passable cells that
hold no bird, one neighbour step per energy point.

Move ids: 0..179 a flight to that cell, 180 a pass.  Chance outcome ids (one landscape row)
are CHANCE_BASE + (arrangement * 64 + foods): arrangement 0..1259 numbers the ways to place
2 water (pair 0..35) then 3 bushes among the other 7 cells (0..34), foods is three base-4
digits (2..5 for the bushes from left to right, the leftmost most significant).  Their
names are the row's 9-character text, e.g. ``~..3.5~.2``.

Rules decisions of this implementation where the rules file leaves a choice:
- the nest row is laid automatically (no chance node: it has one outcome);
- the pass test lifts the other birds off the cells that are passable without them
  (grass, empty bushes, the start): a nest holding a bird stays impassable, so a bird whose
  only way runs through a nest dies (the rules file's decision);
- a position in which every bird not in a nest can only pass would repeat forever; the
  game ends there, drawn (the rules file's decision);
- the water-barrier test looks at the water cells on the board (removed rows are gone).
"""
import operator

from libc.stdint cimport uint64_t
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, pdep, clear_lsb
from roost.core.rng cimport Rng, rng_seed, rng_next, rng_below, splitmix64
from roost.core.state cimport State, CHANCE, two_player_outcome, MAX_MOVES
from roost.core.errors import PositionError, MoveError, GameError

DEF NROWS = 20
DEF NCOLS = 9
DEF NCELLS = 180
DEF NEST_ROW = 19
DEF PASS = 180
DEF CHANCE_BASE = 1024
DEF NARR = 1260            # 36 water pairs * 35 bush triples
DEF NOUT = 80640           # NARR * 64 food choices
DEF START_CELL = 4         # e0
DEF SIGHT = 4              # rows laid ahead of the bird that flew / kept behind the last bird
DEF ZEN = 128

# terrain types (Zobrist and text)
DEF T_GRASS = 0
DEF T_WATER = 1
DEF T_EMPTY = 2
DEF T_FOOD = 3             # T_FOOD + v - 2 for food value v = 2..5
DEF T_START = 7
DEF T_NEST = 8
DEF NTYPES = 9

cdef uint64_t VALID, LANE0, COLA[3], COLI[3], NOTA, NOTI, EVI[3], ODA[3]
cdef uint64_t ROWM[NROWS]          # the row's 9 bits in word ROWW[y]
cdef int ROWW[NROWS]
cdef int ROWSH[NROWS]
cdef int ARR_WATER[NARR]           # 9-bit column masks
cdef int ARR_BUSH[NARR]
cdef int ARR_BCOL[NARR][3]
cdef int PAIR_WATER[36]
cdef bint ISNEST[NCELLS]
cdef uint64_t NESTROW_NEST         # nests of row 19, within word 2
cdef uint64_t Z[NCELLS][NTYPES]
cdef uint64_t ZBIRD[4][NCELLS]
cdef uint64_t ZEN_T[4][ZEN]
cdef uint64_t ZCUR[4]

COLS = "abcdefghi"
BIRDS = ("MR", "MB", "FR", "FB")
BIRD_TITLES = ("male robin", "male bluethroat", "female robin", "female bluethroat")
START_ROW_TEXT = "-...S...-"
NEST_ROW_TEXT = "N.N.N.N.N"
FOOD_NAMES = {2: "currant", 3: "blackberry", 4: "caterpillar", 5: "beetle"}
# the rules file's example start (rows 1..4 laid)
EXAMPLE = "0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR"


def _init_tables():
    global VALID, LANE0, NOTA, NOTI, NESTROW_NEST
    cdef int y, x, k, i, j, n, a, cell, t
    cdef uint64_t seed = 0x7EEE7B1D5
    VALID = (<uint64_t>1 << 63) - 1
    LANE0 = 0x1FF
    for k in range(3):
        COLA[k] = 0
        COLI[k] = 0
        EVI[k] = 0
        ODA[k] = 0
    for y in range(21):
        k = y // 7
        for x in range(NCOLS):
            if x == 0:
                COLA[k] |= <uint64_t>1 << (9 * (y % 7) + x)
            if x == 8:
                COLI[k] |= <uint64_t>1 << (9 * (y % 7) + x)
        if y % 2 == 0:
            EVI[k] |= LANE0 << (9 * (y % 7))
        else:
            ODA[k] |= LANE0 << (9 * (y % 7))
    NOTA = VALID & ~COLA[0]
    NOTI = VALID & ~COLI[0]
    for k in range(3):
        EVI[k] &= NOTI
        ODA[k] &= NOTA
    for y in range(NROWS):
        ROWW[y] = y // 7
        ROWSH[y] = 9 * (y % 7)
        ROWM[y] = LANE0 << ROWSH[y]
    for cell in range(NCELLS):
        ISNEST[cell] = cell // 9 == NEST_ROW and (cell % 9) % 2 == 0
    NESTROW_NEST = 0
    for x in range(0, NCOLS, 2):
        NESTROW_NEST |= <uint64_t>1 << (ROWSH[NEST_ROW] + x)
    n = 0
    a = 0
    for i in range(NCOLS):
        for j in range(i + 1, NCOLS):
            PAIR_WATER[n] = (1 << i) | (1 << j)
            rest = [c for c in range(NCOLS) if c != i and c != j]
            for p in range(7):
                for q in range(p + 1, 7):
                    for r in range(q + 1, 7):
                        ARR_WATER[a] = PAIR_WATER[n]
                        ARR_BCOL[a][0] = rest[p]
                        ARR_BCOL[a][1] = rest[q]
                        ARR_BCOL[a][2] = rest[r]
                        ARR_BUSH[a] = (1 << rest[p]) | (1 << rest[q]) | (1 << rest[r])
                        a += 1
            n += 1
    for cell in range(NCELLS):
        for t in range(NTYPES):
            Z[cell][t] = splitmix64(&seed)
    for i in range(4):
        for cell in range(NCELLS):
            ZBIRD[i][cell] = splitmix64(&seed)
        for t in range(ZEN):
            ZEN_T[i][t] = splitmix64(&seed)
        ZCUR[i] = splitmix64(&seed)


_init_tables()


# ------------------------------------------------------------------------ bit helpers
cdef inline void nbr3(const uint64_t* r, uint64_t* o) noexcept nogil:
    """o = the cells next to some cell of r (not r itself unless a neighbour)."""
    cdef uint64_t a0 = r[0], a1 = r[1], a2 = r[2]
    cdef uint64_t s0 = a0 | ((a0 >> 1) & EVI[0]) | ((a0 << 1) & ODA[0])
    cdef uint64_t s1 = a1 | ((a1 >> 1) & EVI[1]) | ((a1 << 1) & ODA[1])
    cdef uint64_t s2 = a2 | ((a2 >> 1) & EVI[2]) | ((a2 << 1) & ODA[2])
    o[0] = (((a0 << 1) & NOTA) | ((a0 >> 1) & NOTI) | (s0 << 9) | (s0 >> 9)
            | ((s1 & LANE0) << 54)) & VALID
    o[1] = (((a1 << 1) & NOTA) | ((a1 >> 1) & NOTI) | (s1 << 9) | (s1 >> 9)
            | (s0 >> 54) | ((s2 & LANE0) << 54)) & VALID
    o[2] = (((a2 << 1) & NOTA) | ((a2 >> 1) & NOTI) | (s2 << 9) | (s2 >> 9)
            | (s1 >> 54)) & VALID


cdef inline int cell_word(int cell) noexcept nogil:
    return cell // 63


cdef inline uint64_t cell_bit(int cell) noexcept nogil:
    return <uint64_t>1 << (cell % 63)


ctypedef struct TwCore:
    uint64_t exist[3]      # cells on the board (laid, not removed; a0 and i0 never)
    uint64_t water[3]
    uint64_t empty[3]      # bushes whose food has been eaten
    uint64_t food[4][3]    # bushes with food of value 2..5
    uint64_t nest[3]
    uint64_t tgt[3]        # cached: the flights of the bird to move (valid when resolved)
    uint64_t hkey
    int pos[4]             # cell of MR, MB, FR, FB
    int energy[4]
    int cur                # bird to move (after the pending rows, at a chance node)
    int low                # lowest row on the board
    int high               # highest laid row
    int lay_to             # rows are pending while high < lay_to
    int result             # -1 undecided, 0/1 that player won, 2 drawn
    int can_pass           # the bird to move has no flight and passes


cdef inline uint64_t energy_key(int b, int e) noexcept nogil:
    cdef uint64_t x
    if 0 <= e < ZEN:
        return ZEN_T[b][e]
    x = <uint64_t>(e * 4 + b) ^ <uint64_t>0xA5A5F00DCAFE
    return splitmix64(&x)


cdef inline int terrain(TwCore* c, int cell) noexcept nogil:
    """The terrain type of an existing cell."""
    cdef int w = cell_word(cell), v
    cdef uint64_t b = cell_bit(cell)
    if c.water[w] & b:
        return T_WATER
    if c.empty[w] & b:
        return T_EMPTY
    for v in range(4):
        if c.food[v][w] & b:
            return T_FOOD + v
    if c.nest[w] & b:
        return T_NEST
    if cell == START_CELL:
        return T_START
    return T_GRASS


cdef inline bint nested(TwCore* c, int b) noexcept nogil:
    return ISNEST[c.pos[b]]


cdef inline void targets_of(TwCore* c, int b, uint64_t* t) noexcept nogil:
    """Where bird b may land: a bush with food, or a nest it may use."""
    cdef int k, partner = b ^ 2, o
    cdef uint64_t nests[3]
    for k in range(3):
        nests[k] = c.nest[k]
    if c.nest[2]:
        if ISNEST[c.pos[partner]]:
            nests[0] = 0
            nests[1] = 0
            nests[2] = cell_bit(c.pos[partner])   # nests live in word 2 (row 19)
        else:
            o = b ^ 1
            if ISNEST[c.pos[o]]:
                nests[2] &= ~cell_bit(c.pos[o])
            o = b ^ 3
            if ISNEST[c.pos[o]]:
                nests[2] &= ~cell_bit(c.pos[o])
    for k in range(3):
        t[k] = c.food[0][k] | c.food[1][k] | c.food[2][k] | c.food[3][k] | nests[k]


cdef inline void passable(TwCore* c, int b, bint with_birds, uint64_t* f) noexcept nogil:
    """Cells a flight may pass through: grass, empty bushes, the start; with_birds: and
    holding no bird other than b.  Without: the pass test's cells, the other birds lifted
    (a nest stays impassable whoever sits in it)."""
    cdef int k, o
    for k in range(3):
        f[k] = c.exist[k] & ~(c.water[k] | c.nest[k] | c.food[0][k] | c.food[1][k]
                              | c.food[2][k] | c.food[3][k])
    if with_birds:
        for o in range(4):
            if o != b:
                f[cell_word(c.pos[o])] &= ~cell_bit(c.pos[o])


cdef inline bint reach(TwCore* c, int b, bint with_birds, uint64_t* found) noexcept nogil:
    """found = the targets bird b reaches within its energy; returns whether any."""
    cdef uint64_t f[3]
    cdef uint64_t t[3]
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef uint64_t g0, g1, g2
    cdef int k, e = c.energy[b]
    passable(c, b, with_birds, f)
    targets_of(c, b, t)
    found[0] = 0
    found[1] = 0
    found[2] = 0
    r[0] = 0
    r[1] = 0
    r[2] = 0
    r[cell_word(c.pos[b])] = cell_bit(c.pos[b])
    for k in range(e):
        nbr3(r, n)
        found[0] |= n[0] & t[0]
        found[1] |= n[1] & t[1]
        found[2] |= n[2] & t[2]
        g0 = r[0] | (n[0] & f[0])
        g1 = r[1] | (n[1] & f[1])
        g2 = r[2] | (n[2] & f[2])
        if g0 == r[0] and g1 == r[1] and g2 == r[2]:
            break
        r[0] = g0
        r[1] = g1
        r[2] = g2
    return (found[0] | found[1] | found[2]) != 0


cdef inline int distance_to(TwCore* c, int b, int target) noexcept nogil:
    """Steps of bird b's shortest flight to target (which it can reach)."""
    cdef uint64_t f[3]
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef int k, w = cell_word(target)
    cdef uint64_t tb = cell_bit(target)
    passable(c, b, True, f)
    r[0] = 0
    r[1] = 0
    r[2] = 0
    r[cell_word(c.pos[b])] = cell_bit(c.pos[b])
    for k in range(c.energy[b]):
        nbr3(r, n)
        if n[w] & tb:
            return k + 1
        r[0] |= n[0] & f[0]
        r[1] |= n[1] & f[1]
        r[2] |= n[2] & f[2]
    return c.energy[b] + 1   # unreachable: not called for illegal targets


cdef inline bint has_barrier(const uint64_t* water) noexcept nogil:
    """The water cells hold a chain of neighbouring cells from column a to column i."""
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef uint64_t g0, g1, g2
    cdef int k
    for k in range(3):
        r[k] = water[k] & COLA[k]
    while True:
        if (r[0] & COLI[0]) | (r[1] & COLI[1]) | (r[2] & COLI[2]):
            return True
        nbr3(r, n)
        g0 = r[0] | (n[0] & water[0])
        g1 = r[1] | (n[1] & water[1])
        g2 = r[2] | (n[2] & water[2])
        if g0 == r[0] and g1 == r[1] and g2 == r[2]:
            return False
        r[0] = g0
        r[1] = g1
        r[2] = g2


cdef inline bint pair_makes_barrier(TwCore* c, int pair) noexcept nogil:
    cdef uint64_t w[3]
    cdef int y = c.high + 1
    w[0] = c.water[0]
    w[1] = c.water[1]
    w[2] = c.water[2]
    w[ROWW[y]] |= (<uint64_t>PAIR_WATER[pair]) << ROWSH[y]
    return has_barrier(w)


cdef inline void lay_landscape(TwCore* c, int code) noexcept nogil:
    """Lay row high + 1 from an outcome code (arrangement * 64 + foods)."""
    cdef int y = c.high + 1, a = code >> 6, foods = code & 63
    cdef int w = ROWW[y], sh = ROWSH[y], x, i, v
    cdef int base = 9 * y
    cdef uint64_t h = 0
    c.exist[w] |= ROWM[y]
    c.water[w] |= (<uint64_t>ARR_WATER[a]) << sh
    for i in range(3):
        x = ARR_BCOL[a][i]
        v = (foods >> (2 * (2 - i))) & 3
        c.food[v][w] |= <uint64_t>1 << (sh + x)
        h ^= Z[base + x][T_FOOD + v]
    for x in range(NCOLS):
        if ARR_WATER[a] & (1 << x):
            h ^= Z[base + x][T_WATER]
        elif not (ARR_BUSH[a] & (1 << x)):
            h ^= Z[base + x][T_GRASS]
    c.hkey ^= h
    c.high = y


cdef inline void lay_nest_row(TwCore* c) noexcept nogil:
    cdef int y = NEST_ROW, x
    c.exist[ROWW[y]] |= ROWM[y]
    c.nest[ROWW[y]] |= NESTROW_NEST
    for x in range(NCOLS):
        c.hkey ^= Z[9 * y + x][T_NEST if x % 2 == 0 else T_GRASS]
    c.high = y


cdef inline void remove_rows_below(TwCore* c, int new_low) noexcept nogil:
    cdef int y, x, k, cell
    cdef uint64_t m
    for y in range(c.low, new_low):
        for x in range(NCOLS):
            cell = 9 * y + x
            if c.exist[ROWW[y]] & cell_bit(cell):
                c.hkey ^= Z[cell][terrain(c, cell)]
        m = ~ROWM[y]
        k = ROWW[y]
        c.exist[k] &= m
        c.water[k] &= m
        c.empty[k] &= m
        c.food[0][k] &= m
        c.food[1][k] &= m
        c.food[2][k] &= m
        c.food[3][k] &= m
        c.nest[k] &= m
    c.low = new_low


cdef inline int next_bird(TwCore* c, int b) noexcept nogil:
    """The next bird after b in the cycle that is not in a nest, or -1."""
    cdef int i, o
    for i in range(1, 5):
        o = (b + i) & 3
        if not ISNEST[c.pos[o]]:
            return o
    return -1


cdef inline void finish_nested(TwCore* c) noexcept nogil:
    cdef int r = c.energy[0] + c.energy[2], bl = c.energy[1] + c.energy[3]
    c.result = 0 if r > bl else 1 if bl > r else 2


cdef inline void resolve(TwCore* c) noexcept nogil:
    """The bird to move is known and no rows are pending: find its flights, or decide
    that it passes or dies."""
    cdef uint64_t hyp[3]
    cdef int o, b = c.cur
    c.can_pass = 0
    if reach(c, b, True, c.tgt):
        return
    if not reach(c, b, False, hyp):
        c.result = 1 - (b & 1)          # it dies: its player loses
        return
    c.can_pass = 1
    # Does some other bird still fly (or die)?  If every bird not in a nest could only
    # pass, the position would repeat forever: the game ends drawn.
    o = next_bird(c, b)
    while o != b:
        if reach(c, o, True, hyp) or not reach(c, o, False, hyp):
            return
        o = next_bird(c, o)
    c.result = 2


cdef inline void after_rows(TwCore* c) noexcept nogil:
    """Lay the nest row if it is due, and resolve the bird to move once no row is pending."""
    if c.high < c.lay_to and c.high + 1 == NEST_ROW:
        lay_nest_row(c)
    if c.high >= c.lay_to:
        resolve(c)


cdef inline void fly(TwCore* c, int target) noexcept nogil:
    cdef int b = c.cur, d, v, w, y, lowest, o
    cdef uint64_t tb
    d = distance_to(c, b, target)
    c.hkey ^= ZBIRD[b][c.pos[b]] ^ ZBIRD[b][target] ^ energy_key(b, c.energy[b])
    c.energy[b] -= d
    w = cell_word(target)
    tb = cell_bit(target)
    for v in range(4):
        if c.food[v][w] & tb:
            c.food[v][w] &= ~tb
            c.empty[w] |= tb
            c.energy[b] += v + 2
            c.hkey ^= Z[target][T_FOOD + v] ^ Z[target][T_EMPTY]
            break
    c.hkey ^= energy_key(b, c.energy[b])
    c.pos[b] = target
    o = next_bird(c, b)
    c.hkey ^= ZCUR[c.cur]
    if o < 0:
        c.cur = (b + 1) & 3
        c.hkey ^= ZCUR[c.cur]
        finish_nested(c)
        return
    c.cur = o
    c.hkey ^= ZCUR[c.cur]
    # remove the rows more than SIGHT below the lowest bird not in a nest
    lowest = NEST_ROW
    for o in range(4):
        if not ISNEST[c.pos[o]]:
            y = c.pos[o] // 9
            if y < lowest:
                lowest = y
    if lowest - SIGHT > c.low:
        remove_rows_below(c, lowest - SIGHT)
    y = target // 9 + SIGHT
    c.lay_to = y if y < NEST_ROW else NEST_ROW
    after_rows(c)


cdef inline void do_pass(TwCore* c) noexcept nogil:
    c.hkey ^= ZCUR[c.cur]
    c.cur = next_bird(c, c.cur)
    c.hkey ^= ZCUR[c.cur]
    resolve(c)


cdef inline int sample_row(TwCore* c, Rng* rng) noexcept nogil:
    """A landscape outcome code for row high + 1, uniform over those making no barrier."""
    cdef int code
    while True:
        code = rng_below(rng, NOUT)
        if not pair_makes_barrier(c, (code >> 6) // 35):
            return code


cdef inline uint64_t full_key(TwCore* c) noexcept nogil:
    cdef uint64_t h = 0
    cdef int y, x, cell, b
    for y in range(c.low, c.high + 1):
        for x in range(NCOLS):
            cell = 9 * y + x
            if c.exist[ROWW[y]] & cell_bit(cell):
                h ^= Z[cell][terrain(c, cell)]
    for b in range(4):
        h ^= ZBIRD[b][c.pos[b]] ^ energy_key(b, c.energy[b])
    return h ^ ZCUR[c.cur]


cdef inline double best_gain(TwCore* c, int b, bint* ok) noexcept nogil:
    """The best energy change (food - steps) of a flight of bird b, ignoring the other
    birds; ok = whether it reaches any target at all."""
    cdef uint64_t f[3]
    cdef uint64_t t[3]
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    cdef uint64_t seen[3]
    cdef int k, v, i
    cdef double best = -1000.0
    passable(c, b, False, f)
    targets_of(c, b, t)
    for i in range(3):
        r[i] = 0
        seen[i] = 0
    r[cell_word(c.pos[b])] = cell_bit(c.pos[b])
    ok[0] = False
    for k in range(c.energy[b]):
        nbr3(r, n)
        for i in range(3):
            n[i] &= ~seen[i]
        if (n[0] & t[0]) | (n[1] & t[1]) | (n[2] & t[2]):
            ok[0] = True
            for v in range(3, -1, -1):
                if (n[0] & c.food[v][0]) | (n[1] & c.food[v][1]) | (n[2] & c.food[v][2]):
                    if v + 2 - (k + 1) > best:
                        best = v + 2 - (k + 1)
                    break
            if (n[2] & t[2] & c.nest[2]) and -(k + 1) > best:
                best = -(k + 1)
        for i in range(3):
            seen[i] |= n[i] | r[i]
            n[i] &= f[i]
        if not (n[0] | n[1] | n[2]):
            break
        for i in range(3):
            r[i] |= n[i]
    return best


cdef class Tweeeet(State):
    """A Tweeeet position.

    >>> s = Tweeeet.parse(EXAMPLE)
    >>> s.legal_names()[:3]
    ['d1', 'f1', 'i1']
    """
    name = "tweeeet"

    cdef TwCore c

    def __cinit__(self):
        self.n_players = 2
        self.hidden_info = False
        self.perft_expands_chance = False
        self.c.result = -1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        if self.c.high < self.c.lay_to:
            return CHANCE
        return self.c.cur & 1

    cdef bint over(self) noexcept nogil:
        return self.c.result >= 0

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(self.c.result, out)

    cdef uint64_t key(self) noexcept nogil:
        return self.c.hkey

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Tweeeet>other).c

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, k
        cdef uint64_t f
        if self.c.result >= 0 or self.c.high < self.c.lay_to:
            return 0
        if self.c.can_pass:
            out[0] = PASS
            return 1
        for k in range(3):
            f = self.c.tgt[k]
            while f:
                out[n] = 63 * k + lsb(f)
                n += 1
                f = clear_lsb(f)
        return n

    cdef void play(self, int move) noexcept nogil:
        if self.c.high < self.c.lay_to:
            lay_landscape(&self.c, move - CHANCE_BASE)
            after_rows(&self.c)
        elif move == PASS:
            do_pass(&self.c)
        else:
            fly(&self.c, move)

    cdef int chance_count(self) noexcept nogil:
        cdef int p, n = 0
        if self.c.result >= 0 or self.c.high >= self.c.lay_to:
            return 0
        for p in range(36):
            if not pair_makes_barrier(&self.c, p):
                n += 1
        return n * 35 * 64

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int p, a, f, n = 0, i
        cdef double pr
        if self.c.result >= 0 or self.c.high >= self.c.lay_to:
            return 0
        for p in range(36):
            if pair_makes_barrier(&self.c, p):
                continue
            for a in range(35 * p, 35 * p + 35):
                for f in range(64):
                    out[n] = CHANCE_BASE + a * 64 + f
                    n += 1
        pr = 1.0 / n
        for i in range(n):
            probs[i] = pr
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return CHANCE_BASE + sample_row(&self.c, rng)

    cdef double evaluate(self, int player) noexcept nogil:
        # Measures each pair's expected final energy, the number that decides the game:
        # a bird in a nest counts its energy; a bird still flying counts its energy, plus
        # half the best food-minus-steps gain within its reach (ignoring other birds),
        # minus a quarter point per row it still has to climb to the nests (the race:
        # a bird far behind has more flying, and more risk, ahead), and minus 25 when no
        # bush or nest is within reach at all (it is about to die and lose the game).
        # The difference between the pairs is squashed into (0, 1).
        cdef double v[2]
        cdef double g, adv
        cdef int b
        cdef bint ok
        cdef double res[2]
        if self.c.result >= 0:
            self.outcome(res)
            return res[player]
        v[0] = 0.0
        v[1] = 0.0
        for b in range(4):
            v[b & 1] += self.c.energy[b]
            if ISNEST[self.c.pos[b]]:
                continue
            g = best_gain(&self.c, b, &ok)
            if not ok:
                v[b & 1] -= 25.0
            else:
                v[b & 1] += 0.5 * g - 0.25 * (NEST_ROW - self.c.pos[b] // 9)
        adv = v[player] - v[1 - player]
        return 1.0 / (1.0 + exp(-adv / 4.0))

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # Specialised for speed: a random flight is the k-th set bit of the cached
        # target words; rows are drawn by rejection.
        cdef int plies = 0, n0, n1, n2, k
        cdef TwCore* c = &self.c
        while plies < max_plies and c.result < 0:
            if c.high < c.lay_to:
                lay_landscape(c, sample_row(c, rng))
                after_rows(c)
            elif c.can_pass:
                do_pass(c)
            else:
                n0 = popcount(c.tgt[0])
                n1 = popcount(c.tgt[1])
                n2 = popcount(c.tgt[2])
                k = rng_below(rng, n0 + n1 + n2)
                if k < n0:
                    fly(c, lsb(pdep(<uint64_t>1 << k, c.tgt[0])))
                elif k < n0 + n1:
                    fly(c, 63 + lsb(pdep(<uint64_t>1 << (k - n0), c.tgt[1])))
                else:
                    fly(c, 126 + lsb(pdep(<uint64_t>1 << (k - n0 - n1), c.tgt[2])))
            plies += 1
        return plies

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=2, seed=0):
        """A new game: rows 0..4 laid (rows 1..4 drawn from ``seed``), all birds on e0."""
        if players not in (None, 2):
            raise GameError(f"Tweeeet is a two-player game (asked for {players} players)")
        cdef Tweeeet s = cls.__new__(cls)
        cdef Rng rng
        cdef int b
        rng_seed(&rng, <uint64_t>((0 if seed is None else int(seed)) & 0xFFFFFFFFFFFFFFFF))
        s.c.exist[0] = ROWM[0] & ~(<uint64_t>1 | (<uint64_t>1 << 8))
        s.c.low = 0
        s.c.high = 0
        for b in range(4):
            s.c.pos[b] = START_CELL
            s.c.energy[b] = 6 + b
        s.c.cur = 0
        s.c.lay_to = SIGHT
        s.c.hkey = full_key(&s.c)
        while s.c.high < s.c.lay_to:
            lay_landscape(&s.c, sample_row(&s.c, &rng))
        after_rows(&s.c)
        return s

    @classmethod
    def parse(cls, text):
        """Parse ``<low>:<rows> <MR> <MB> <FR> <FB> <to-move>`` (rules file, Position text)."""
        cdef Tweeeet s = cls.__new__(cls)
        cdef TwCore* c = &s.c
        cdef int y, x, cell, w, b, lowest, lay_to
        cdef uint64_t bit
        if not isinstance(text, str):
            raise PositionError("a Tweeeet position must be text")
        fields = text.split()
        if len(fields) != 6:
            raise PositionError(
                "a Tweeeet position has 6 fields (<low>:<rows> <MR> <MB> <FR> <FB> <to-move>), "
                f"got {len(fields)}")
        low_s, sep, rows_s = fields[0].partition(":")
        if not sep:
            raise PositionError(f"the board {fields[0]!r} must be <low>:<rows> (e.g. 0:-...S...-/...)")
        if not _is_number(low_s) or int(low_s) > NEST_ROW:
            raise PositionError(f"the lowest row must be a number 0..19, got {low_s!r}")
        low = int(low_s)
        rows = rows_s.split("/")
        if low + len(rows) - 1 > NEST_ROW:
            raise PositionError(
                f"{len(rows)} rows from row {low} run past the nest row 19")
        c.low = low
        c.high = low + len(rows) - 1
        for i, row in enumerate(rows):
            y = low + i
            if len(row) != NCOLS:
                raise PositionError(f"row {y} ({row!r}) must have 9 cells, it has {len(row)}")
            for ch in row:
                if ch not in ".~2345oSN-":
                    raise PositionError(f"unknown character {ch!r} in row {y} ({row!r})")
            if y == 0:
                if row != START_ROW_TEXT:
                    raise PositionError(
                        f"row 0 is the start row and must read {START_ROW_TEXT}, got {row!r}")
            elif y == NEST_ROW:
                if row != NEST_ROW_TEXT:
                    raise PositionError(
                        f"row 19 is the nest row and must read {NEST_ROW_TEXT}, got {row!r}")
            else:
                if "N" in row:
                    raise PositionError(f"a nest row below row 19: row {y} ({row!r}) holds a nest")
                if "S" in row:
                    raise PositionError(f"row {y} ({row!r}) holds a start cell: only e0 is the start")
                if "-" in row:
                    raise PositionError(f"row {y} ({row!r}) has a missing cell: landscape rows have 9 cells")
                nw = row.count("~")
                ng = row.count(".")
                nb = sum(row.count(ch) for ch in "2345o")
                if (nw, ng, nb) != (2, 4, 3):
                    raise PositionError(
                        f"landscape row {y} ({row!r}) has {nw} water, {ng} grass and {nb} bushes; "
                        "it needs 2, 4 and 3")
            w = ROWW[y]
            for x, ch in enumerate(row):
                bit = <uint64_t>1 << (ROWSH[y] + x)
                if ch == "-":
                    continue
                c.exist[w] |= bit
                if ch == "~":
                    c.water[w] |= bit
                elif ch == "o":
                    c.empty[w] |= bit
                elif ch in "2345":
                    c.food[int(ch) - 2][w] |= bit
                elif ch == "N":
                    c.nest[w] |= bit
        if has_barrier(c.water):
            raise PositionError("the water forms a barrier from column a to column i "
                                "(such a row is always drawn again)")
        seen = {}
        for b in range(4):
            bird = fields[1 + b]
            cell_s, sep, en_s = bird.partition(":")
            if not sep:
                raise PositionError(f"bird {BIRDS[b]} {bird!r} must be <cell>:<energy>, e.g. e0:6")
            try:
                cell = _parse_cell(cell_s)
            except MoveError as e:
                raise PositionError(f"bird {BIRDS[b]}: {e}") from None
            if not _is_number(en_s):
                raise PositionError(f"bird {BIRDS[b]}: energy must be a number >= 0, got {en_s!r}")
            if int(en_s) > 9999:
                raise PositionError(f"bird {BIRDS[b]}: energy {en_s} is out of range (at most 9999)")
            name = cell_name(cell)
            if not (c.exist[cell_word(cell)] & cell_bit(cell)):
                raise PositionError(
                    f"bird {BIRDS[b]} is on {name}, off the board (rows {c.low}..{c.high} are laid)")
            t = terrain(c, cell)
            if t == T_WATER:
                raise PositionError(f"bird {BIRDS[b]} is on {name}, which is water")
            if t == T_GRASS:
                raise PositionError(
                    f"bird {BIRDS[b]} is on {name}, which is grass: birds land on bushes or nests only")
            if T_FOOD <= t < T_FOOD + 4:
                raise PositionError(
                    f"bird {BIRDS[b]} is on {name}, a bush with food: a bird eats the food it lands on")
            c.pos[b] = cell
            c.energy[b] = int(en_s)
            seen.setdefault(cell, []).append(b)
        for cell, bs in seen.items():
            if len(bs) > 1 and cell != START_CELL:
                if ISNEST[cell]:
                    if len({b & 1 for b in bs}) > 1:
                        raise PositionError(
                            f"{' and '.join(BIRDS[b] for b in bs)} share the nest {cell_name(cell)}: "
                            "a nest holds the two birds of one pair")
                else:
                    raise PositionError(
                        f"{' and '.join(BIRDS[b] for b in bs)} are both on {cell_name(cell)}: "
                        "only the start and a nest hold more than one bird")
        for b in range(2):
            if ISNEST[c.pos[b]] and ISNEST[c.pos[b + 2]] and c.pos[b] != c.pos[b + 2]:
                raise PositionError(
                    f"the pair {BIRDS[b]} and {BIRDS[b + 2]} is in two nests "
                    f"({cell_name(c.pos[b])} and {cell_name(c.pos[b + 2])}): partners share one nest")
        mover = fields[5]
        if mover not in BIRDS:
            raise PositionError(f"the bird to move must be MR, MB, FR or FB, got {mover!r}")
        c.cur = BIRDS.index(mover)
        all_nested = all(ISNEST[c.pos[b]] for b in range(4))
        if ISNEST[c.pos[c.cur]] and not all_nested:
            raise PositionError(f"{mover} is in a nest and is skipped: it cannot be the bird to move")
        c.result = -1
        c.hkey = full_key(c)
        if all_nested:
            c.lay_to = NEST_ROW
            finish_nested(c)
            return s
        lowest = min(c.pos[b] // 9 for b in range(4) if not ISNEST[c.pos[b]])
        if c.low < lowest - SIGHT:
            raise PositionError(
                f"row {c.low} should have been removed: it is more than {SIGHT} rows below "
                f"the lowest bird not in a nest (row {lowest})")
        lay_to = max(min(c.pos[b] // 9 + SIGHT, NEST_ROW) for b in range(4))
        c.lay_to = lay_to
        if c.high < lay_to and c.high + 1 == NEST_ROW:
            raise PositionError(
                f"the nest row 19 should have been laid: row 18 is fewer than {SIGHT} rows "
                f"above the bird on row {lay_to - SIGHT}")
        if c.high >= lay_to:
            resolve(c)
        return s

    def text(self):
        rows = [self._row_text(y) for y in range(self.c.low, self.c.high + 1)]
        birds = " ".join(f"{cell_name(self.c.pos[b])}:{self.c.energy[b]}" for b in range(4))
        return f"{self.c.low}:{'/'.join(rows)} {birds} {BIRDS[self.c.cur]}"

    def _row_text(self, int y):
        cdef int x, cell, t
        out = []
        for x in range(NCOLS):
            cell = 9 * y + x
            if not (self.c.exist[cell_word(cell)] & cell_bit(cell)):
                out.append("-")
                continue
            t = terrain(&self.c, cell)
            out.append(".~o2345SN"[t])
        return "".join(out)

    def move_name(self, move):
        try:
            move = operator.index(move)
        except TypeError:
            raise MoveError(f"{move!r} is not a Tweeeet move id") from None
        if move == PASS:
            return "pass"
        if 0 <= move < NCELLS:
            return cell_name(move)
        if CHANCE_BASE <= move < CHANCE_BASE + NOUT:
            return outcome_text(move)
        raise MoveError(f"{move} is not a Tweeeet move id")

    def parse_move(self, str name):
        s = name.strip()
        if s.lower() == "pass":
            return PASS
        if len(s) == NCOLS and all(ch in ".~2345" for ch in s):
            return parse_outcome(s)
        return _parse_cell(s)

    # ---------------------------------------------------------------- inspection
    @property
    def bird_to_move(self):
        """The bird to move ('MR', 'MB', 'FR', 'FB')."""
        return BIRDS[self.c.cur]

    def bird(self, name):
        """(cell name, energy) of a bird given as 'MR', 'MB', 'FR' or 'FB'."""
        b = BIRDS.index(name)
        return cell_name(self.c.pos[b]), self.c.energy[b]

    @property
    def rows(self):
        """(lowest row, highest laid row)."""
        return self.c.low, self.c.high

    def row_text(self, int y):
        if not self.c.low <= y <= self.c.high:
            raise ValueError(f"row {y} is not on the board")
        return self._row_text(y)

    def distance(self, str target):
        """Steps of the shortest flight of the bird to move to ``target`` (None if it
        cannot fly there within its energy)."""
        cdef int cell = _parse_cell(target)
        cdef uint64_t t[3]
        reach(&self.c, self.c.cur, True, t)
        if not (t[cell_word(cell)] & cell_bit(cell)):
            return None
        return distance_to(&self.c, self.c.cur, cell)

    def render(self, observer=None):
        """The visible strip, top row first: ``~`` water, ``.`` grass, ``2``-``5`` food,
        ``o`` empty bush, ``N`` nest, ``S`` start; birds by initials (R/r the male/female
        robin, B/b the bluethroats) with their energies at the end of their row."""
        marks = "RBrb"
        lines = []
        for y in range(self.c.high, self.c.low - 1, -1):
            cells = []
            for x in range(NCOLS):
                cell = 9 * y + x
                here = "".join(marks[b] for b in range(4) if self.c.pos[b] == cell)
                if here:
                    cells.append(here.center(4))
                elif not (self.c.exist[cell_word(cell)] & cell_bit(cell)):
                    cells.append("    ")
                else:
                    cells.append(".~o2345SN"[terrain(&self.c, cell)].center(4))
            note = "  ".join(f"{BIRDS[b]}:{self.c.energy[b]}" for b in range(4)
                             if self.c.pos[b] // 9 == y)
            pad = "  " if y % 2 else ""
            lines.append(f"{y:>2} {pad}{''.join(cells)}{'  ' if y % 2 else '    '}{note}".rstrip())
        lines.append("    " + "".join(ch.center(4) for ch in COLS) + "  (odd rows shift right)")
        if self.c.result >= 0:
            nested_all = all(ISNEST[self.c.pos[b]] for b in range(4))
            if self.c.result == 2 and not nested_all:
                status = "every bird not in a nest is blocked and can only pass: the game is drawn"
            elif self.c.result == 2:
                status = "the game is drawn"
            else:
                status = (f"{'robins (player 1)' if self.c.result == 0 else 'bluethroats (player 2)'} win")
            r = self.c.energy[0] + self.c.energy[2]
            bl = self.c.energy[1] + self.c.energy[3]
            status += f"; energy robins {r}, bluethroats {bl}"
            if not nested_all and self.c.result != 2:
                status = f"{BIRDS[self.c.cur]} cannot reach any bush or nest and dies: " + status
        elif self.c.high < self.c.lay_to:
            status = (f"chance: row {self.c.high + 1} is to be laid, "
                      f"then {BIRDS[self.c.cur]} ({BIRD_TITLES[self.c.cur]}) moves")
        else:
            status = (f"{BIRDS[self.c.cur]} ({BIRD_TITLES[self.c.cur]}, player "
                      f"{(self.c.cur & 1) + 1}) to move"
                      + (" and must pass (blocked by other birds)" if self.c.can_pass else ""))
        lines.append(status)
        return "\n".join(lines)


def cell_name(int cell):
    """``cell_name(4) == 'e0'``"""
    return f"{COLS[cell % 9]}{cell // 9}"


def _is_number(str s):
    """ASCII digits only: str.isdigit() also admits superscripts and other scripts' digits,
    which int() rejects or reads silently."""
    return s.isascii() and s.isdigit()


def _parse_cell(name):
    s = name.strip().lower()
    if len(s) < 2 or s[0] not in COLS or not _is_number(s[1:]):
        raise MoveError(f"{name!r} is not a cell name (a column a..i and a row 0..19, e.g. c7) "
                        "nor 'pass'")
    y = int(s[1:])
    if y > NEST_ROW:
        raise MoveError(f"{name!r} is not a cell: rows are numbered 0..19")
    return 9 * y + COLS.index(s[0])


def outcome_text(int move):
    """The 9-character row text of a chance outcome id."""
    code = move - CHANCE_BASE
    if not 0 <= code < NOUT:
        raise MoveError(f"{move} is not a Tweeeet row outcome id")
    a, foods = code >> 6, code & 63
    out = ["."] * NCOLS
    for x in range(NCOLS):
        if ARR_WATER[a] & (1 << x):
            out[x] = "~"
    for i in range(3):
        out[ARR_BCOL[a][i]] = str(2 + ((foods >> (2 * (2 - i))) & 3))
    return "".join(out)


def parse_outcome(str row):
    """The chance outcome id of a landscape row text (2 water, 4 grass, 3 foods)."""
    if len(row) != NCOLS:
        raise MoveError(f"a laid row {row!r} must have 9 cells")
    for ch in row:
        if ch not in ".~2345":
            raise MoveError(f"unknown character {ch!r} in the laid row {row!r} (use . ~ 2 3 4 5)")
    nw, ng = row.count("~"), row.count(".")
    if nw != 2 or ng != 4:
        raise MoveError(f"a laid row needs 2 water, 4 grass and 3 bushes with food; "
                        f"{row!r} has {nw} water and {ng} grass")
    water = sum(1 << x for x, ch in enumerate(row) if ch == "~")
    bush = sum(1 << x for x, ch in enumerate(row) if ch in "2345")
    foods = 0
    for ch in row:
        if ch in "2345":
            foods = foods * 4 + int(ch) - 2
    for a in range(NARR):
        if ARR_WATER[a] == water and ARR_BUSH[a] == bush:
            return CHANCE_BASE + a * 64 + foods
    raise MoveError(f"{row!r} is not a landscape row")  # unreachable


def neighbours(str cell):
    """Names of the cells next to ``cell`` on the full strip (test helper)."""
    cdef int c0 = _parse_cell(cell)
    cdef uint64_t r[3]
    cdef uint64_t n[3]
    r[0] = 0
    r[1] = 0
    r[2] = 0
    r[cell_word(c0)] = cell_bit(c0)
    nbr3(r, n)
    return sorted(cell_name(63 * k + i) for k in range(3) for i in range(63)
                  if n[k] >> i & 1 and 63 * k + i < NCELLS)


def playouts(str position, int n, seed=0):
    """Play ``n`` random games from ``position`` natively; returns (robin wins, bluethroat
    wins, draws, total plies).  For timing the native playout without Python overhead."""
    cdef Tweeeet root = Tweeeet.parse(position)
    cdef Tweeeet s = Tweeeet.parse(position)
    cdef Rng rng
    cdef int i
    cdef long long plies = 0
    cdef long wins0 = 0, wins1 = 0, draws = 0
    rng_seed(&rng, <uint64_t>seed)
    with nogil:
        for i in range(n):
            s.c = root.c
            plies += s.playout(&rng, 1000000)
            if s.c.result == 0:
                wins0 += 1
            elif s.c.result == 1:
                wins1 += 1
            else:
                draws += 1
    return wins0, wins1, draws, plies
