# The position: one C struct (``Core``), so copying a position is a struct copy.  Card
# locations are per-card arrays (every bird and bonus card is unique), hands are 170-bit
# sets, the bird deck and the discard pile are ordered arrays, and the engine's continuation
# is the stack of frames of §8 (``Frame``).  The frames never leave native code: a position
# in the middle of a turn is written as the turn's start and the moves since (record.pyx).
#
# Told chance (``Script``): a replay of a position text can be told the outcomes of the
# chance events of the moves it replays (the feeder's faces, a predator's dice, the order of
# a reshuffled deck, the card that comes off a deck) instead of drawing them from the RNG,
# and a replay can write down the outcomes it draws.  ``Core.script`` is NULL everywhere
# else: each chance event then costs one test of it.
#
# Below the structs: the small helpers every step of the game uses (the feeder, hands, eggs,
# the frame stack, the option lists of the shared procedures of §9.2).  They are inline so
# that each module compiles them into its own hot loops.
from libc.stdint cimport uint64_t, uint8_t
from libc.string cimport memset

from roost.core.rng cimport splitmix64
from roost.core.wingspan.tables cimport *


ctypedef struct Script:
    uint8_t* data        # the outcomes told: entries, consumed from ``pos`` on (``n`` bytes)
    int pos
    int n
    uint8_t* trace       # where every outcome (told or drawn) is written down (NULL: nowhere)
    int tpos
    int tcap
    int fault            # an outcome told that cannot be (or no room to trace): nonzero


ctypedef struct Frame:
    short f
    short seat
    short src
    short req
    short card
    short hab
    short egg
    short last
    short paid[5]
    short n
    short trade
    short deck
    short rodent
    short col
    short slot
    short bird
    short step
    short did
    short asked
    short rep
    # POW scratch (st)
    short k
    short slast
    short sdeck
    short food
    short spaid
    short first
    short order[5]
    short norder
    short i
    short drawn[2]
    short ndrawn
    # PINK
    short ev
    short active
    unsigned short q[5]
    # SETUP
    short stage

ctypedef struct Player:
    uint64_t hand[3]
    short nhand
    short food[5]
    short cubes
    short rows[3]
    short bird[15]
    short egg[15]
    short cache[15][5]
    short ntuck[15]
    unsigned short pink_used
    short owe
    short skeep          # setup: bit i = keep the i-th dealt card (ascending id)
    short sfood[5]       # setup: food discarded
    short sbonus         # setup: bonus kept (-1 until chosen)

ctypedef struct Core:
    int n
    int side             # 0 green, 1 blue
    int phase
    int round
    int first
    int t
    int cur
    int goals[4]
    int goal_pts[4][5]
    int nscored
    uint64_t rng
    Script* script       # told chance (NULL but in a replay of a position text); beside the
                         # RNG, whose cache line every chance event reads anyway
    uint8_t cloc[NB]
    uint8_t cown[NB]
    uint8_t cslot[NB]
    uint8_t ctag[NB]
    uint8_t ctk[NB]
    uint8_t deck[NB]     # deck[ndeck - 1] is the top
    int ndeck
    int depoch
    uint8_t disc[NB]     # oldest first
    int ndisc
    short tray[3]
    uint8_t draft[8]
    int ndraft
    int nforms
    int formlen
    short form_end[MAXEP + 1]
    uint8_t forms[FORMCAP]
    int fd[6]
    int nfd
    uint8_t bloc[NBON]
    uint8_t bown[NBON]
    uint8_t btag[NBON]
    uint8_t bdeck[NBON]  # bdeck[nbdeck - 1] is the top
    int nbdeck
    int bepoch
    uint8_t bdisc[NBON]  # oldest first
    int nbdisc
    int nbforms
    int bflen
    short bf_end[MAXBEP + 1]
    uint8_t bf_id[BFCAP]
    uint8_t bf_tag[BFCAP]
    uint8_t bf_who[BFCAP]
    Player pl[MAXP]
    Frame st[MAXF]
    int nst
    int actor
    int purpose
    int kind
    int bad              # an internal capacity was exceeded (never in practice)


cdef enum:
    LOGCAP = 4096        # bytes of moves and told outcomes (a turn needs a few dozen)
    LOG_TOLD = 255       # a log byte that starts told outcomes: then 2 bytes of length

ctypedef struct Record:
    # the turn so far (record.pyx): the position where it started and the log since
    Core start
    int n
    bint lost            # not known (or the log overflowed): written as the position alone
    uint8_t log[LOGCAP]


# ---------------------------------------------------------------------------- chance
cdef inline uint64_t rnd(Core* c) noexcept nogil:
    return splitmix64(&c.rng)


cdef inline int rbelow(Core* c, int n) noexcept nogil:
    return <int>(((rnd(c) >> 32) * <uint64_t>n) >> 32)


# ---------------------------------------------------------------------------- told chance
cdef inline uint8_t* told(Core* c, int kind, int size) noexcept nogil:
    """The outcome the script tells for the next chance event of ``kind`` (its ``size``
    bytes, consumed), or NULL: no script, or its next entry is of another kind."""
    cdef Script* S = c.script
    cdef uint8_t* out
    if S == NULL or S.pos >= S.n or S.data[S.pos] != kind:
        return NULL
    if S.pos + 1 + size > S.n:
        S.fault = 1
        return NULL
    out = S.data + S.pos + 1
    S.pos += 1 + size
    return out


cdef inline bint told_event(Core* c, int kind) noexcept nogil:
    """The script's next entry says that an event of ``kind`` happens here (consumed)."""
    cdef Script* S = c.script
    if S == NULL or S.pos >= S.n or S.data[S.pos] != kind:
        return False
    S.pos += 1
    return True


cdef inline uint8_t* trace(Core* c, int kind, int size) noexcept nogil:
    """Room to write down an outcome of ``kind`` (NULL: not tracing, or full)."""
    cdef Script* S = c.script
    cdef uint8_t* out
    if S == NULL or S.trace == NULL:
        return NULL
    if S.tpos + 1 + size > S.tcap:
        S.fault = 1
        return NULL
    S.trace[S.tpos] = kind
    out = S.trace + S.tpos + 1
    S.tpos += 1 + size
    return out


# ---------------------------------------------------------------------------- the feeder (§3.6)
cdef inline void roll_all(Core* c) noexcept nogil:
    cdef int i
    cdef uint8_t* o
    o = told(c, CH_ROLL, 6) if c.script != NULL else NULL
    if o != NULL:
        for i in range(6):
            c.fd[i] = o[i]
    else:
        for i in range(6):
            c.fd[i] = 0
        for i in range(5):
            c.fd[rbelow(c, 6)] += 1
    c.nfd = 5
    if c.script != NULL:
        o = trace(c, CH_ROLL, 6)
        if o != NULL:
            for i in range(6):
                o[i] = c.fd[i]


cdef inline bint one_faced(Core* c) noexcept nogil:
    cdef int i
    if c.nfd == 0:
        return False
    for i in range(6):
        if c.fd[i] == c.nfd:
            return True
    return False


cdef inline bint feeder_gives(Core* c, int mask) noexcept nogil:
    """Some die in the feeder can give one of the foods in ``mask``."""
    cdef int t
    for t in range(5):
        if c.fd[t] and (mask >> t) & 1:
            return True
    return c.fd[5] > 0 and (mask & 3) != 0


cdef inline void take_face(Core* c, int face) noexcept nogil:
    c.fd[face] -= 1
    c.nfd -= 1
    if c.nfd == 0:
        roll_all(c)


cdef inline int die_opts(Core* c, int mask, bint optional, int* out) noexcept nogil:
    """take_die's options (§9.2): faces that give a food in mask, REROLL, SKIP."""
    cdef int n = 0, t
    for t in range(5):
        if c.fd[t] and (mask >> t) & 1:
            out[n] = O_DIE + t
            n += 1
    if c.fd[5]:
        if mask & 1:
            out[n] = O_DIE + DIE_IS_I
            n += 1
        if mask & 2:
            out[n] = O_DIE + DIE_IS_S
            n += 1
    if one_faced(c):
        out[n] = O_DIE + DIE_REROLL
        n += 1
    if optional:
        out[n] = O_DIE + DIE_SKIP
        n += 1
    return n


cdef inline int die_apply(Core* c, int taker, int local) noexcept nogil:
    """Returns the food gained, -1 after a reroll, -2 for SKIP."""
    if local < 5:
        c.pl[taker].food[local] += 1
        take_face(c, local)
        return local
    if local == DIE_IS_I or local == DIE_IS_S:
        c.pl[taker].food[local - DIE_IS_I] += 1
        take_face(c, 5)
        return local - DIE_IS_I
    if local == DIE_REROLL:
        roll_all(c)
        return -1
    return -2


# ---------------------------------------------------------------------------- cards
cdef inline bint in_hand(Player* P, int b) noexcept nogil:
    return (P.hand[b >> 6] >> (b & 63)) & 1


cdef inline void hand_add(Core* c, int p, int b, int tag) noexcept nogil:
    cdef Player* P = &c.pl[p]
    P.hand[b >> 6] |= (<uint64_t>1) << (b & 63)
    P.nhand += 1
    c.cloc[b] = L_HAND
    c.cown[b] = p
    c.cslot[b] = 0
    c.ctag[b] = tag
    c.ctk[b] = 0


cdef inline void hand_remove(Core* c, int p, int b) noexcept nogil:
    cdef Player* P = &c.pl[p]
    P.hand[b >> 6] &= ~((<uint64_t>1) << (b & 63))
    P.nhand -= 1


cdef inline int hand_list(Player* P, int* out) noexcept nogil:
    """The hand's bird ids, ascending."""
    cdef int n = 0, w
    cdef uint64_t x
    for w in range(3):
        x = P.hand[w]
        while x:
            out[n] = (w << 6) + ws_ctz64(x)
            n += 1
            x &= x - 1
    return n


cdef inline void to_discard(Core* c, int b) noexcept nogil:
    c.disc[c.ndisc] = b
    c.ndisc += 1
    c.cloc[b] = L_DISC
    c.cown[b] = 0
    c.cslot[b] = 0
    c.ctag[b] = 0
    c.ctk[b] = 0


cdef inline bint can_draw_deck(Core* c) noexcept nogil:
    return c.ndeck > 0 or c.ndisc > 0


cdef inline int draw_opts(Core* c, int last, int deckflag, int* out) noexcept nogil:
    """draw_one's options (§9.2) with the canonical tray rule of §7.5."""
    cdef int n = 0, s
    for s in range(3):
        if c.tray[s] >= 0 and (s > last or deckflag):
            out[n] = O_SOURCE + s
            n += 1
    if can_draw_deck(c):
        out[n] = O_SOURCE + 3
        n += 1
    return n


cdef inline void tuck_card(Core* c, int p, int slot, int b, int kind, int tag) noexcept nogil:
    c.cloc[b] = L_TUCK
    c.cown[b] = p
    c.cslot[b] = slot
    c.ctk[b] = kind
    c.ctag[b] = TAG_P if kind == TK_P else tag
    c.pl[p].ntuck[slot] += 1


cdef inline void bonus_discard(Core* c, int b, int who) noexcept nogil:
    c.bdisc[c.nbdisc] = b
    c.nbdisc += 1
    c.bloc[b] = B_DISC
    c.bown[b] = who


# ---------------------------------------------------------------------------- eggs and food
cdef inline int room(Player* P, int s) noexcept nogil:
    if P.bird[s] < 0:
        return 0
    return B_EGGS[P.bird[s]] - P.egg[s]


cdef inline int total_room(Player* P) noexcept nogil:
    cdef int s, r = 0
    for s in range(15):
        if P.bird[s] >= 0:
            r += B_EGGS[P.bird[s]] - P.egg[s]
    return r


cdef inline int total_eggs(Player* P) noexcept nogil:
    cdef int s, r = 0
    for s in range(15):
        r += P.egg[s]
    return r


cdef inline int total_food(Player* P) noexcept nogil:
    return P.food[0] + P.food[1] + P.food[2] + P.food[3] + P.food[4]


cdef inline bint matches(int b, int nest) noexcept nogil:
    return B_NEST[b] == nest or B_NEST[b] == NEST_STAR


cdef inline int lay_opts(Core* c, int p, int nest, int exclude, int* out) noexcept nogil:
    """Own birds with room (matching ``nest`` unless it is -1), excluding a slot."""
    cdef Player* P = &c.pl[p]
    cdef int s, n = 0, b
    for s in range(15):
        b = P.bird[s]
        if b >= 0 and s != exclude and P.egg[s] < B_EGGS[b] and (nest < 0 or matches(b, nest)):
            out[n] = O_SLOT + s
            n += 1
    return n


cdef inline int batch_slots(Player* P, int last, int rem, bint eggs, int* out) noexcept nogil:
    """Canonical batch (§7.5) over slots: s >= last, s has room (or an egg), and the room
    (or the eggs) in slots >= s covers the rem picks still to make."""
    cdef int s, n = 0, suffix = 0, v
    cdef int val[15]
    for s in range(14, -1, -1):
        if P.bird[s] < 0:
            val[s] = 0
        elif eggs:
            val[s] = P.egg[s]
        else:
            val[s] = B_EGGS[P.bird[s]] - P.egg[s]
    for s in range(15):
        suffix += val[s]
    if last < 0:
        last = 0
    for s in range(15):
        v = val[s]
        if s >= last and v >= 1 and suffix >= rem:
            out[n] = O_SLOT + s
            n += 1
        suffix -= v
    return n


# ---------------------------------------------------------------------------- the frame stack
cdef inline Frame* push(Core* c, int f, int seat) noexcept nogil:
    cdef Frame* F
    if c.nst >= MAXF:
        c.bad = 1
        c.nst = MAXF - 1
    F = &c.st[c.nst]
    c.nst += 1
    memset(F, 0, sizeof(Frame))
    F.f = f
    F.seat = seat
    F.req = -1
    F.card = -1
    F.hab = -1
    F.last = -1
    F.col = -1
    F.slot = -1
    F.bird = -1
    F.slast = -1
    F.food = -1
    F.spaid = -1
    F.first = -1
    F.drawn[0] = -1
    F.drawn[1] = -1
    return F


cdef inline void pop(Core* c) noexcept nogil:
    if c.nst > 0:
        c.nst -= 1
        memset(&c.st[c.nst], 0, sizeof(Frame))


cdef inline void clear_st(Frame* F) noexcept nogil:
    F.k = 0
    F.slast = -1
    F.sdeck = 0
    F.food = -1
    F.spaid = -1
    F.first = -1
    F.norder = 0
    F.i = 0
    F.ndrawn = 0
    F.drawn[0] = -1
    F.drawn[1] = -1
    memset(F.order, 0, sizeof(F.order))


cdef inline void push_pow(Core* c, int seat, int slot, int bird, int rep) noexcept nogil:
    cdef Frame* F = push(c, FR_POW, seat)
    F.slot = slot
    F.bird = bird
    F.rep = rep


cdef inline void start_turn(Core* c) noexcept nogil:
    c.cur = (c.first + c.t) % c.n
    c.pl[c.cur].pink_used = 0
    push(c, FR_TURN, c.cur)
    push(c, FR_ACT, c.cur)


cdef inline int setup_kept(Player* P) noexcept nogil:
    """How many of the 5 dealt birds the seat's setup buffer keeps."""
    return ws_popcount64(<unsigned long long>(P.skeep & 31))


cdef inline int node(Core* c, int actor, int purpose, int kind, int n) noexcept nogil:
    """A decision node: records who decides what, returns the number of moves."""
    c.actor = actor
    c.purpose = purpose
    c.kind = kind
    return n
