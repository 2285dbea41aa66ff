"""Wingspan, core set (rules: ../shared/rules/wingspan.md with wingspan-birds.md and
wingspan-bonus-goals.md), 1 to 5 players.

The whole omniscient position is one C struct (``Core``), so ``assign`` is a struct copy:
card locations are per-card arrays (every bird and bonus card is unique), hands are 170-bit
sets, the bird deck and the discard pile are ordered arrays, and the engine's continuation
is the stack of frames of §8 (``Frame``; the same frames the position text serialises).

Control.  ``gen`` looks at the top frame: an automatic step (end of turn, a row activation
moving left, a power with no decision, a pink queue, a chance event) is applied on the spot
and the loop goes on; a decision writes its legal moves (ascending) and returns how many.
``settle`` then applies single-move nodes (§7.1: forced moves collapse), so every position
the engine shows is a decision node with at least two moves, or the end.  Chance (dice,
shuffles, draws from the ordered decks) is resolved inside from the state's own RNG
(``rng``, splitmix64), as §6.2/§7.1 say: there are no chance nodes, ``to_move`` is always a
seat, and perft counts decision leaves (``perft_expands_chance`` is False and never used).

Moves are the global ids of §7.2 (``offset + local``), so they are unique across kinds and
at most 247.  Bird powers are compiled from the DSL of §9 at import
(``roost.core.wingspan_data``) into small per-bird tables (verb, two arguments, at most two
steps joined by ``then``), which the native code interprets (``pow_gen`` / ``pow_apply``).
"""
import json

from libc.stdint cimport uint64_t, uint8_t
from libc.string cimport memset, memcpy, memcmp
from libc.math cimport exp
from libc.stdlib cimport malloc, free

from roost.core.rng cimport Rng, rng_seed, rng_next, rng_below, splitmix64
from roost.core.state cimport State, CHANCE, HIDDEN, MAX_MOVES
from roost.core.errors import PositionError, MoveError, GameError
from roost.core import wingspan_data as _wd

cdef extern from *:
    """
    static inline int ws_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int ws_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int ws_popcount64(unsigned long long x) nogil
    int ws_ctz64(unsigned long long x) nogil

cdef enum:
    NB = 170
    NBON = 26
    MAXP = 5
    MAXF = 24            # frames on the stack (a turn needs at most about 8)
    MAXEP = 254          # deck epochs (hand tags 0..253; 255 = "p")
    FORMCAP = 4096       # cards over all recorded deck formations
    MAXBEP = 40          # bonus epochs
    BFCAP = 1040         # bonus formation entries
    TAG_P = 255

    # card locations
    L_DECK = 0
    L_DISC = 1
    L_TRAY = 2
    L_HAND = 3
    L_MAT = 4
    L_TUCK = 5
    L_DRAFT = 6
    # tuck kinds
    TK_P = 0
    TK_H = 1
    TK_D = 2
    # bonus locations
    B_DECK = 0
    B_DISC = 1
    B_HELD = 2
    B_PEND = 3

    PH_SETUP = 0
    PH_PLAY = 1
    PH_OVER = 2

    # frames (§8)
    FR_SETUP = 0
    FR_TURN = 1
    FR_ACT = 2
    FR_PLAY = 3
    FR_MAT = 4
    FR_ROW = 5
    FR_POW = 6
    FR_PINK = 7
    FR_EOT = 8
    FR_ROUND_END = 9

    # kinds and their global offsets (§7.2)
    K_YESNO = 0
    K_ACTION = 1
    K_CARD = 2
    K_HABITAT = 3
    K_SLOT = 4
    K_FOOD = 5
    K_DIE = 6
    K_SOURCE = 7
    K_BONUS = 8
    K_PLAYER = 9
    O_YESNO = 0
    O_ACTION = 2
    O_CARD = 6
    O_HABITAT = 177
    O_SLOT = 181
    O_FOOD = 197
    O_DIE = 203
    O_SOURCE = 212
    O_BONUS = 216
    O_PLAYER = 242
    NMOVEIDS = 248
    CARD_SKIP = 170
    HAB_SKIP = 3
    SLOT_SKIP = 15
    FOOD_SKIP = 5
    DIE_IS_I = 5
    DIE_IS_S = 6
    DIE_REROLL = 7
    DIE_SKIP = 8
    PLAYER_SKIP = 5

    # purposes (§7.3)
    P_SETUP_KEEP_BIRD = 0
    P_SETUP_DISCARD_FOOD = 1
    P_SETUP_KEEP_BONUS = 2
    P_TURN_ACTION = 3
    P_PLAY_CARD = 4
    P_PLAY_HABITAT = 5
    P_PLAY_PAY_EGG = 6
    P_PLAY_PAY_FOOD = 7
    P_TAKE_DIE = 8
    P_FOREST_TRADE = 9
    P_GRASS_TRADE = 10
    P_LAY_EGG = 11
    P_DRAW_SOURCE = 12
    P_WET_TRADE = 13
    P_POWER_CONFIRM = 14
    P_CACHE_CHOICE = 15
    P_GAIN_FOOD_TYPE = 16
    P_TUCK_FROM_HAND = 17
    P_POWER_PAY_EGG = 18
    P_TRADE_PAY = 19
    P_TRADE_GAIN = 20
    P_REPEAT_TARGET = 21
    P_MOVE_TARGET = 22
    P_BONUS_KEEP = 23
    P_START_PLAYER = 24
    P_DRAFT_PICK = 25
    P_FEEDER_REROLL = 26
    P_EOT_DISCARD = 27

    # colours, prompt classes, triggers (pink events)
    COL_NONE = 0
    COL_BROWN = 1
    COL_WHITE = 2
    COL_PINK = 3
    ASK_NONE = 0
    ASK_A = 1
    ASK_C = 2
    ASK_Y = 3
    ASK_YS = 4
    EV_A = 1
    EV_B = 2
    EV_C = 3
    EV_D = 4

    # verbs (wingspan_data.VERBS order)
    V_NONE = 0
    V_GAIN_SUPPLY = 1
    V_GAIN_SUPPLY_CHOICE = 2
    V_GAIN_SUPPLY_WILD = 3
    V_CACHE_SUPPLY = 4
    V_GAIN_FEEDER = 5
    V_GAIN_ALL_FEEDER = 6
    V_ALL_PLAYERS_GAIN_SUPPLY = 7
    V_EACH_PLAYER_GAIN_FEEDER = 8
    V_FEWEST_IN = 9
    V_SPEND_FOOD = 10
    V_TRADE_FOOD = 11
    V_LAY_SELF = 12
    V_LAY_ANY = 13
    V_LAY_EACH = 14
    V_ALL_PLAYERS_LAY = 15
    V_PAY_EGG = 16
    V_LAY_NEST = 17
    V_DRAW = 18
    V_DISCARD_EOT = 19
    V_ALL_PLAYERS_DRAW_DECK = 20
    V_TUCK_HAND = 21
    V_TUCK_DECK = 22
    V_PREDATOR_LOOK = 23
    V_PREDATOR_ROLL = 24
    V_DRAW_BONUS = 25
    V_DRAFT = 26
    V_PLAY_EXTRA = 27
    V_MOVE_IF_RIGHTMOST = 28
    V_REPEAT_BROWN = 29
    V_REPEAT_PREDATOR = 30

    NEST_STAR = 4
    NEST_NONE = 5
    MAXPAY = 8192

assert _wd.VERBS.index("REPEAT_PREDATOR") == V_REPEAT_PREDATOR and _wd.VERBS.index("DRAW") == V_DRAW

# ---------------------------------------------------------------------------- tables
cdef int FOREST_N[6]
cdef int GRASS_N[6]
cdef int WET_N[6]
cdef int EGG_COST[5]
cdef int KIND_OFF[10]
cdef int PLACE_PTS[4][4]

cdef int B_HAB[NB]        # habitat bit mask
cdef int B_VP[NB]
cdef int B_NEST[NB]
cdef int B_EGGS[NB]
cdef int B_WS[NB]
cdef int B_COL[NB]
cdef int B_PRED[NB]
cdef int B_FLOCK[NB]
cdef int B_ASK[NB]
cdef int B_TRIG[NB]
cdef int B_TARG[NB]
cdef int B_NSTEPS[NB]
cdef int B_VERB[NB][2]
cdef int B_A0[NB][2]
cdef int B_A1[NB][2]
cdef int B_CFORM[NB]      # 0 zero, 1 and, 2 or
cdef int B_CAND[NB][5]
cdef int B_CWILD[NB]
cdef int B_COR[NB]        # OR food mask
cdef int PAY_START[NB + 1]
cdef uint8_t PAY_LIST[MAXPAY][5]
cdef uint64_t BON_MEMBER[NBON][3]
cdef int BON_KIND[NBON]   # 0 per, 1 tier
cdef int BON_PER[NBON]
cdef int BON_NT[NBON]
cdef int BON_LO[NBON][3]
cdef int BON_PTS[NBON][3]
cdef uint64_t ZK[64]

BIRDS = _wd.birds()
BONUS = _wd.bonus_cards()
GOALS = _wd.goals()
BIRD_NAMES = tuple(b["name"] for b in BIRDS)
BIRD_SLUGS = tuple(_wd.slug(n) for n in BIRD_NAMES)
BONUS_NAMES = tuple(b["name"] for b in BONUS)
BONUS_SLUGS = tuple(_wd.slug(b["name"]) for b in BONUS)
FOODS = "ISFRM"
HABS = ("forest", "grassland", "wetland")
HAB_LETTERS = "FGW"
NEST_NAMES = _wd.NESTS
PURPOSES = ("SETUP_KEEP_BIRD", "SETUP_DISCARD_FOOD", "SETUP_KEEP_BONUS", "TURN_ACTION",
            "PLAY_CARD", "PLAY_HABITAT", "PLAY_PAY_EGG", "PLAY_PAY_FOOD", "TAKE_DIE",
            "FOREST_TRADE", "GRASS_TRADE", "LAY_EGG", "DRAW_SOURCE", "WET_TRADE",
            "POWER_CONFIRM", "CACHE_CHOICE", "GAIN_FOOD_TYPE", "TUCK_FROM_HAND",
            "POWER_PAY_EGG", "TRADE_PAY", "TRADE_GAIN", "REPEAT_TARGET", "MOVE_TARGET",
            "BONUS_KEEP", "START_PLAYER", "DRAFT_PICK", "FEEDER_REROLL", "EOT_DISCARD")
KINDS = ("YESNO", "ACTION", "CARD", "HABITAT", "SLOT", "FOOD", "DIE", "SOURCE", "BONUS", "PLAYER")
FRAME_NAMES = ("SETUP", "TURN", "ACT", "PLAY", "MAT", "ROW", "POW", "PINK", "EOT", "ROUND_END")
_PAYMENTS = []   # per bird: the minimal payments (tuples of 5 counts), for tests


def _pays(cost, p):
    form, need, wild, ormask = cost
    if form == 0:
        return True
    if form == 2:
        return any(p[t] for t in range(5) if ormask >> t & 1) or sum(p) >= 2
    d = sum(max(0, need[t] - p[t]) for t in range(5))
    left = sum(max(0, p[t] - need[t]) for t in range(5))
    return left >= wild + 2 * d


def _minimal_payments(cost):
    """Every multiset of tokens that pays ``cost`` and stops paying when any single
    token is removed (wingspan.md §3.4), in ascending order of its token sequence."""
    form, need, wild, ormask = cost
    if form == 0:
        return []
    symbols = 1 if form == 2 else sum(need) + wild
    out = []

    def rec(t, cur, left):
        if t == 5:
            if _pays(cost, cur) and all(not (cur[u] and _pays(cost, cur[:u] + [cur[u] - 1] + cur[u + 1:]))
                                        for u in range(5)):
                out.append(tuple(cur))
            return
        for k in range(left + 1):
            rec(t + 1, cur + [k], left - k)

    rec(0, [], 2 * symbols)
    out.sort(key=lambda p: [t for t in range(5) for _ in range(p[t])])
    return out


def _init_tables():
    cdef int i, j, t, b, k, h
    cdef uint64_t seed = 0x5749_4E47_5350_414E
    for j, v in enumerate((1, 1, 2, 2, 3, 3)):
        FOREST_N[j] = v
        WET_N[j] = v
    for j, v in enumerate((2, 2, 3, 3, 4, 4)):
        GRASS_N[j] = v
    for j, v in enumerate((0, 1, 1, 2, 2)):
        EGG_COST[j] = v
    for k, v in enumerate((O_YESNO, O_ACTION, O_CARD, O_HABITAT, O_SLOT, O_FOOD, O_DIE,
                           O_SOURCE, O_BONUS, O_PLAYER)):
        KIND_OFF[k] = v
    for i in range(4):
        for j in range(4):
            PLACE_PTS[i][j] = GOALS["green_places"][i][j]
    npay = 0
    for b in range(NB):
        d = BIRDS[b]
        B_HAB[b] = sum(1 << h for h in d["hab"])
        B_VP[b] = d["vp"]
        B_NEST[b] = d["nest"]
        B_EGGS[b] = d["eggs"]
        B_WS[b] = d["ws"]
        B_COL[b] = ("none", "brown", "white", "pink").index(d["colour"])
        B_PRED[b] = int(d["predator"])
        B_FLOCK[b] = int(d["flocking"])
        B_ASK[b] = _wd.ASKS.index(d["ask"])
        trig, targ, steps = _wd.compile_power(d["power"], d["name"])
        B_TRIG[b] = trig
        B_TARG[b] = targ
        B_NSTEPS[b] = len(steps)
        for i in range(2):
            B_VERB[b][i] = steps[i][0] if i < len(steps) else 0
            B_A0[b][i] = steps[i][1] if i < len(steps) else 0
            B_A1[b][i] = steps[i][2] if i < len(steps) else 0
        cost = d["cost"]
        B_CFORM[b] = ("zero", "and", "or").index(cost["form"])
        for t in range(5):
            B_CAND[b][t] = cost["and"][t]
        B_CWILD[b] = cost["wild"]
        B_COR[b] = sum(1 << t for t in cost["or"])
        pays = _minimal_payments((B_CFORM[b], cost["and"], cost["wild"], B_COR[b]))
        _PAYMENTS.append(pays)
        PAY_START[b] = npay
        for p in pays:
            for t in range(5):
                PAY_LIST[npay][t] = p[t]
            npay += 1
            if npay >= MAXPAY:
                raise RuntimeError("too many minimal payments for the table")
    PAY_START[NB] = npay
    for i in range(NBON):
        bc = BONUS[i]
        for k in range(3):
            BON_MEMBER[i][k] = 0
        for b in range(NB):
            if bc["code"] in BIRDS[b]["bonus"]:
                BON_MEMBER[i][b >> 6] |= (<uint64_t>1) << (b & 63)
        if bc["kind"] == "per":
            BON_KIND[i] = 0
            BON_PER[i] = bc["points"]
            BON_NT[i] = 0
        else:
            BON_KIND[i] = 1
            BON_PER[i] = 0
            BON_NT[i] = len(bc["tiers"])
            for k, (lo, pts) in enumerate(bc["tiers"]):
                BON_LO[i][k] = lo
                BON_PTS[i][k] = pts
    for i in range(64):
        ZK[i] = splitmix64(&seed)


_init_tables()

# bonus ids of the state-based cards
cdef int BON_BREE = _wd.BONUS_CODES.index("BREE")
cdef int BON_ECOL = _wd.BONUS_CODES.index("ECOL")
cdef int BON_OOLO = _wd.BONUS_CODES.index("OOLO")
cdef int BON_VISI = _wd.BONUS_CODES.index("VISI")

# ---------------------------------------------------------------------------- the state
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


# ---------------------------------------------------------------------------- helpers
cdef inline uint64_t rnd(Core* c) noexcept nogil:
    return splitmix64(&c.rng)


cdef inline int rbelow(Core* c, int n) noexcept nogil:
    return <int>(((rnd(c) >> 32) * <uint64_t>n) >> 32)


cdef inline void roll_all(Core* c) noexcept nogil:
    cdef int i
    for i in range(6):
        c.fd[i] = 0
    for i in range(5):
        c.fd[rbelow(c, 6)] += 1
    c.nfd = 5


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


cdef inline void to_discard(Core* c, int b) noexcept nogil:
    c.disc[c.ndisc] = b
    c.ndisc += 1
    c.cloc[b] = L_DISC
    c.cown[b] = 0
    c.cslot[b] = 0
    c.ctag[b] = 0
    c.ctk[b] = 0


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


cdef inline bint can_draw_deck(Core* c) noexcept nogil:
    return c.ndeck > 0 or c.ndisc > 0


cdef bint reshuffle(Core* c) noexcept nogil:
    """The discard pile becomes the deck of a new epoch (§3.8, §6.3)."""
    cdef int i, j, e, tmp
    if c.ndisc == 0:
        return False
    e = c.depoch + 1
    if c.nforms < MAXEP and c.formlen + c.ndisc <= FORMCAP:
        for i in range(c.ndisc):
            c.forms[c.formlen + i] = c.disc[i]
        c.formlen += c.ndisc
        c.nforms += 1
        c.form_end[c.nforms] = c.formlen
    else:
        c.bad = 1
    if e > MAXEP - 1:
        e = MAXEP - 1
        c.bad = 1
    for i in range(c.ndisc):
        c.deck[i] = c.disc[i]
    c.ndeck = c.ndisc
    c.ndisc = 0
    for i in range(c.ndeck - 1, 0, -1):
        j = rbelow(c, i + 1)
        tmp = c.deck[i]
        c.deck[i] = c.deck[j]
        c.deck[j] = tmp
    for i in range(c.ndeck):
        c.cloc[c.deck[i]] = L_DECK
        c.cown[c.deck[i]] = 0
        c.cslot[c.deck[i]] = 0
        c.ctag[c.deck[i]] = 0
        c.ctk[c.deck[i]] = 0
    c.depoch = e
    return True


cdef inline int deck_draw(Core* c) noexcept nogil:
    """The top card of the deck (reshuffling the discard pile when needed), or -1."""
    if c.ndeck == 0 and not reshuffle(c):
        return -1
    c.ndeck -= 1
    return c.deck[c.ndeck]


cdef inline void refill_tray(Core* c) noexcept nogil:
    cdef int s, b
    for s in range(3):
        if c.tray[s] < 0:
            b = deck_draw(c)
            if b < 0:
                return
            c.tray[s] = b
            c.cloc[b] = L_TRAY
            c.cslot[b] = s


cdef int bonus_draw(Core* c) noexcept nogil:
    """The top bonus card (reshuffling the bonus discards into a new epoch when needed), or -1."""
    cdef int i, j, tmp, b
    if c.nbdeck == 0:
        if c.nbdisc == 0:
            return -1
        if c.nbforms < MAXBEP and c.bflen + c.nbdisc <= BFCAP:
            for i in range(c.nbdisc):
                b = c.bdisc[i]
                c.bf_id[c.bflen + i] = b
                c.bf_tag[c.bflen + i] = c.btag[b]
                c.bf_who[c.bflen + i] = c.bown[b]
            c.bflen += c.nbdisc
            c.nbforms += 1
            c.bf_end[c.nbforms] = c.bflen
        else:
            c.bad = 1
        for i in range(c.nbdisc):
            c.bdeck[i] = c.bdisc[i]
        c.nbdeck = c.nbdisc
        c.nbdisc = 0
        for i in range(c.nbdeck - 1, 0, -1):
            j = rbelow(c, i + 1)
            tmp = c.bdeck[i]
            c.bdeck[i] = c.bdeck[j]
            c.bdeck[j] = tmp
        c.bepoch += 1
        for i in range(c.nbdeck):
            c.bloc[c.bdeck[i]] = B_DECK
            c.bown[c.bdeck[i]] = 0
            c.btag[c.bdeck[i]] = 0
    c.nbdeck -= 1
    b = c.bdeck[c.nbdeck]
    c.btag[b] = c.bepoch
    return b


cdef inline void bonus_discard(Core* c, int b, int who) noexcept nogil:
    c.bdisc[c.nbdisc] = b
    c.nbdisc += 1
    c.bloc[b] = B_DISC
    c.bown[b] = who


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


cdef inline bint can_pay(Player* P, int b) noexcept nogil:
    """The personal supply pays bird b's food cost (§3.4, the greedy test)."""
    cdef int t, d = 0, left = 0, tot = 0
    cdef int form = B_CFORM[b]
    if form == 0:
        return True
    if form == 2:
        for t in range(5):
            tot += P.food[t]
            if (B_COR[b] >> t) & 1 and P.food[t] > 0:
                return True
        return tot >= 2
    for t in range(5):
        if B_CAND[b][t] > P.food[t]:
            d += B_CAND[b][t] - P.food[t]
        else:
            left += P.food[t] - B_CAND[b][t]
    return left >= B_CWILD[b] + 2 * d


cdef inline bint play_ok(Player* P, int b, int h) noexcept nogil:
    """(card b, habitat h) is a legal play for this player (§3.3), b in hand."""
    if not (B_HAB[b] >> h) & 1:
        return False
    if P.rows[h] >= 5:
        return False
    if total_eggs(P) < EGG_COST[P.rows[h]]:
        return False
    return can_pay(P, b)


cdef bint any_play(Player* P, int req) noexcept nogil:
    cdef int w, b, h
    cdef uint64_t x
    for w in range(3):
        x = P.hand[w]
        while x:
            b = (w << 6) + ws_ctz64(x)
            x &= x - 1
            if req >= 0:
                if play_ok(P, b, req):
                    return True
            else:
                for h in range(3):
                    if play_ok(P, b, h):
                        return True
    return False


# ---------------------------------------------------------------------------- frames
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


cdef void push_pink(Core* c, int ev, int hab) noexcept nogil:
    """A PINK frame with the eligible reactions to an event of the active player (§4);
    nothing when none is eligible."""
    cdef int q, s, b, active = c.cur
    cdef unsigned short mask
    cdef unsigned short masks[MAXP]
    cdef bint any = False
    cdef Frame* F
    for q in range(c.n):
        masks[q] = 0
        if q == active:
            continue
        mask = 0
        for s in range(15):
            b = c.pl[q].bird[s]
            if b >= 0 and B_TRIG[b] == ev and (ev != EV_C or B_TARG[b] == hab) \
                    and not (c.pl[q].pink_used >> s) & 1:
                mask |= 1 << s
        masks[q] = mask
        if mask:
            any = True
    if not any:
        return
    F = push(c, FR_PINK, -1)
    F.ev = ev
    F.hab = hab if ev == EV_C else -1
    F.active = active
    for q in range(c.n):
        F.q[q] = masks[q]


cdef void start_turn(Core* c) noexcept nogil:
    c.cur = (c.first + c.t) % c.n
    c.pl[c.cur].pink_used = 0
    push(c, FR_TURN, c.cur)
    push(c, FR_ACT, c.cur)


# ---------------------------------------------------------------------------- scoring
cdef int goal_count(Core* c, int p, int g) noexcept nogil:
    cdef Player* P = &c.pl[p]
    cdef int s, b, h, k = 0
    cdef int e[3]
    cdef int code = g
    if code == 0 or code == 2 or code == 4:
        return P.rows[code // 2]
    if code == 1 or code == 3 or code == 5:
        h = code // 2
        for s in range(5 * h, 5 * h + 5):
            k += P.egg[s]
        return k
    if code == 6 or code == 8 or code == 10 or code == 12:
        for s in range(15):
            b = P.bird[s]
            if b >= 0 and matches(b, (code - 6) // 2) and P.egg[s] > 0:
                k += 1
        return k
    if code == 7 or code == 9 or code == 11 or code == 13:
        for s in range(15):
            b = P.bird[s]
            if b >= 0 and matches(b, (code - 7) // 2):
                k += P.egg[s]
        return k
    if code == 14:
        for h in range(3):
            e[h] = 0
            for s in range(5 * h, 5 * h + 5):
                e[h] += P.egg[s]
        k = e[0]
        if e[1] < k:
            k = e[1]
        if e[2] < k:
            k = e[2]
        return k
    return P.rows[0] + P.rows[1] + P.rows[2]


cdef void score_round(Core* c) noexcept nogil:
    """Goal points of the round that just ended (§5.1), stored in goal_pts."""
    cdef int r = c.round - 1, p, q, better, same, place, k, tot
    cdef int cnt[MAXP]
    cdef int g = c.goals[r]
    for p in range(c.n):
        cnt[p] = goal_count(c, p, g)
    for p in range(c.n):
        if c.side == 1:
            c.goal_pts[r][p] = cnt[p] if cnt[p] < 5 else 5
            continue
        if cnt[p] == 0:
            c.goal_pts[r][p] = 0
            continue
        better = 0
        same = 0
        for q in range(c.n):
            if cnt[q] > cnt[p]:
                better += 1
            elif cnt[q] == cnt[p]:
                same += 1
        tot = 0
        for k in range(same):
            place = better + k
            if place < 3:
                tot += PLACE_PTS[r][place]
        c.goal_pts[r][p] = tot // same
    c.nscored = c.round


cdef int bonus_points(Core* c, int p, int bid) noexcept nogil:
    cdef Player* P = &c.pl[p]
    cdef int s, b, k = 0, i, m
    if bid == BON_BREE:
        for s in range(15):
            if P.bird[s] >= 0 and P.egg[s] >= 4:
                k += 1
        return k
    if bid == BON_ECOL:
        m = P.rows[0]
        if P.rows[1] < m:
            m = P.rows[1]
        if P.rows[2] < m:
            m = P.rows[2]
        return 2 * m
    if bid == BON_OOLO:
        for s in range(15):
            if P.bird[s] >= 0 and P.egg[s] >= 1:
                k += 1
    elif bid == BON_VISI:
        k = P.nhand
    else:
        for s in range(15):
            b = P.bird[s]
            if b >= 0 and (BON_MEMBER[bid][b >> 6] >> (b & 63)) & 1:
                k += 1
    if BON_KIND[bid] == 0:
        return BON_PER[bid] * k
    for i in range(BON_NT[bid] - 1, -1, -1):
        if k >= BON_LO[bid][i]:
            return BON_PTS[bid][i]
    return 0


cdef int score_parts(Core* c, int p, int* parts) noexcept nogil:
    """parts: birds, bonus, goals, eggs, cache, tucks; returns the total (§5.2)."""
    cdef Player* P = &c.pl[p]
    cdef int s, t, i, r
    for i in range(6):
        parts[i] = 0
    for s in range(15):
        if P.bird[s] >= 0:
            parts[0] += B_VP[P.bird[s]]
            parts[3] += P.egg[s]
            for t in range(5):
                parts[4] += P.cache[s][t]
            parts[5] += P.ntuck[s]
    for i in range(NBON):
        if c.bloc[i] == B_HELD and c.bown[i] == p:
            parts[1] += bonus_points(c, p, i)
    for r in range(c.nscored):
        parts[2] += c.goal_pts[r][p]
    return parts[0] + parts[1] + parts[2] + parts[3] + parts[4] + parts[5]


cdef inline int score(Core* c, int p) noexcept nogil:
    cdef int parts[6]
    return score_parts(c, p, parts)


cdef void final_outcome(Core* c, double* out) noexcept nogil:
    """1/k to each of the k winners (most points, then most food in supply), §5.3."""
    cdef int p, best = -1, bestf = -1, k = 0
    cdef int sc[MAXP]
    cdef int fd[MAXP]
    for p in range(c.n):
        sc[p] = score(c, p)
        fd[p] = total_food(&c.pl[p])
        if sc[p] > best or (sc[p] == best and fd[p] > bestf):
            best = sc[p]
            bestf = fd[p]
    for p in range(c.n):
        if sc[p] == best and fd[p] == bestf:
            k += 1
    for p in range(c.n):
        out[p] = (1.0 / k) if (sc[p] == best and fd[p] == bestf) else 0.0


# ---------------------------------------------------------------------------- nodes
cdef inline int node(Core* c, int actor, int purpose, int kind, int n) noexcept nogil:
    c.actor = actor
    c.purpose = purpose
    c.kind = kind
    return n


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


cdef inline int draw_take(Core* c, int local, short* last, short* deckflag, int* tag) noexcept nogil:
    """Takes the card of source ``local`` (tray slot or deck top); returns it (-1: none)."""
    cdef int b
    if local < 3:
        b = c.tray[local]
        c.tray[local] = -1
        tag[0] = TAG_P
        last[0] = local
        deckflag[0] = 0
        return b
    b = deck_draw(c)
    tag[0] = c.depoch
    deckflag[0] = 1
    return b


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


cdef inline void tuck_card(Core* c, int p, int slot, int b, int kind, int tag) noexcept nogil:
    c.cloc[b] = L_TUCK
    c.cown[b] = p
    c.cslot[b] = slot
    c.ctk[b] = kind
    c.ctag[b] = TAG_P if kind == TK_P else tag
    c.pl[p].ntuck[slot] += 1


# -- setup (§1.3, §7.4)
cdef inline int setup_kept(Player* P) noexcept nogil:
    return ws_popcount64(<unsigned long long>(P.skeep & 31))


cdef int setup_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, t, u, last = 0, rem, tot, b
    if F.stage == 0:
        out[0] = O_YESNO
        out[1] = O_YESNO + 1
        return node(c, F.seat, P_SETUP_KEEP_BIRD, K_YESNO, 2)
    if F.stage == 1:
        rem = setup_kept(P) - F.i
        for t in range(5):
            if P.sfood[t] > 0:
                last = t
        for t in range(last, 5):
            if P.food[t] - P.sfood[t] < 1:
                continue
            tot = 0
            for u in range(t, 5):
                tot += P.food[u] - P.sfood[u]
            if tot >= rem:
                out[n] = O_FOOD + t
                n += 1
        return node(c, F.seat, P_SETUP_DISCARD_FOOD, K_FOOD, n)
    for b in range(NBON):
        if c.bloc[b] == B_HELD and c.bown[b] == F.seat:
            out[n] = O_BONUS + b
            n += 1
    return node(c, F.seat, P_SETUP_KEEP_BONUS, K_BONUS, n)


cdef void apply_setup(Core* c) noexcept nogil:
    """The buffered setup choices of every seat, applied together (§1.3 step 8)."""
    cdef int p, i, t, b, nh
    cdef int cards[NB]
    cdef Player* P
    for p in range(c.n):
        P = &c.pl[p]
        nh = hand_list(P, cards)
        for i in range(nh):
            if not (P.skeep >> i) & 1:
                hand_remove(c, p, cards[i])
                to_discard(c, cards[i])
        for t in range(5):
            P.food[t] -= P.sfood[t]
            P.sfood[t] = 0
        for b in range(NBON):
            if c.bloc[b] == B_HELD and c.bown[b] == p and b != P.sbonus:
                bonus_discard(c, b, p)
        P.skeep = 0
        P.sbonus = -1
    c.phase = PH_PLAY
    c.round = 1
    c.first = 0
    c.t = 0
    for p in range(c.n):
        c.pl[p].cubes = 8
    start_turn(c)


cdef void setup_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local
    if F.stage == 0:
        if m == O_YESNO + 1:
            P.skeep |= 1 << F.i
        F.i += 1
        if F.i >= 5:
            F.i = 0
            F.stage = 1 if setup_kept(P) > 0 else 2
        return
    if F.stage == 1:
        local = m - O_FOOD
        P.sfood[local] += 1
        F.i += 1
        if F.i >= setup_kept(P):
            F.i = 0
            F.stage = 2
        return
    P.sbonus = m - O_BONUS
    if F.seat + 1 < c.n:
        F.seat += 1
        F.stage = 0
        F.i = 0
        return
    pop(c)
    apply_setup(c)


# -- the turn (§3)
cdef int act_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef int n = 0
    if any_play(&c.pl[F.seat], -1):
        out[n] = O_ACTION
        n += 1
    out[n] = O_ACTION + 1
    out[n + 1] = O_ACTION + 2
    out[n + 2] = O_ACTION + 3
    return node(c, F.seat, P_TURN_ACTION, K_ACTION, n + 3)


cdef void act_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef int seat = F.seat, a = m - O_ACTION, j, n
    cdef Player* P = &c.pl[seat]
    cdef Frame* G
    P.cubes -= 1
    pop(c)
    if a == 0:
        push(c, FR_PLAY, seat)
        return
    G = push(c, FR_MAT, seat)
    G.hab = a - 1
    j = P.rows[a - 1]
    if a == 1:
        G.n = FOREST_N[j]
        G.trade = j & 1
    elif a == 2:
        n = GRASS_N[j]
        G.n = n
        G.trade = 1 if ((j & 1) and total_food(P) >= 1 and total_room(P) > n) else 0
    else:
        G.n = WET_N[j]
        G.trade = j & 1


# -- playing a bird (§3.3, §3.4)
cdef int pay_food_opts(Core* c, Frame* F, int* out, bint* complete) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int b = F.card, i, t, u, qmax = 0, mask = 0, n = 0
    cdef int s0[5]
    cdef bint fits, same
    complete[0] = False
    for t in range(5):
        s0[t] = P.food[t] + F.paid[t]
        if F.paid[t] > 0:
            qmax = t
    for i in range(PAY_START[b], PAY_START[b + 1]):
        fits = True
        same = True
        for t in range(5):
            if PAY_LIST[i][t] > s0[t]:
                fits = False
                break
            if PAY_LIST[i][t] != F.paid[t]:
                same = False
        if not fits:
            continue
        if same:
            complete[0] = True
            return 0
        for t in range(5):
            if PAY_LIST[i][t] != F.paid[t]:
                break
        if PAY_LIST[i][t] > F.paid[t] and t >= qmax:
            mask |= 1 << t
    for t in range(5):
        if (mask >> t) & 1:
            out[n] = O_FOOD + t
            n += 1
    return n


cdef void place_bird(Core* c, Frame* F) noexcept nogil:
    cdef int p = F.seat, b = F.card, h = F.hab
    cdef Player* P = &c.pl[p]
    cdef int s = 5 * h + P.rows[h], t
    P.bird[s] = b
    P.egg[s] = 0
    for t in range(5):
        P.cache[s][t] = 0
    P.ntuck[s] = 0
    P.rows[h] += 1
    hand_remove(c, p, b)
    c.cloc[b] = L_MAT
    c.cown[b] = p
    c.cslot[b] = s
    c.ctag[b] = 0
    c.ctk[b] = 0
    pop(c)
    if B_COL[b] == COL_WHITE:
        push_pow(c, p, s, b, 0)
    push_pink(c, EV_C, h)


cdef int play_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, h, i, nh, b
    cdef bint ok, complete
    cdef int cards[NB]
    if F.card < 0:
        nh = hand_list(P, cards)
        for i in range(nh):
            b = cards[i]
            if F.req >= 0:
                ok = play_ok(P, b, F.req)
            else:
                ok = play_ok(P, b, 0) or play_ok(P, b, 1) or play_ok(P, b, 2)
            if ok:
                out[n] = O_CARD + b
                n += 1
        if F.src == 1:
            out[n] = O_CARD + CARD_SKIP
            n += 1
        if n == 0:
            pop(c)          # cannot happen from play: nothing to play
            return 0
        return node(c, F.seat, P_PLAY_CARD, K_CARD, n)
    if F.hab < 0:
        for h in range(3):
            if play_ok(P, F.card, h):
                out[n] = O_HABITAT + h
                n += 1
        if n == 0:
            pop(c)
            return 0
        return node(c, F.seat, P_PLAY_HABITAT, K_HABITAT, n)
    if F.egg > 0:
        n = batch_slots(P, F.last, F.egg, True, out)
        if n == 0:
            F.egg = 0
            return 0
        return node(c, F.seat, P_PLAY_PAY_EGG, K_SLOT, n)
    if B_CFORM[F.card] != 0:
        n = pay_food_opts(c, F, out, &complete)
        if not complete and n > 0:
            return node(c, F.seat, P_PLAY_PAY_FOOD, K_FOOD, n)
    place_bird(c, F)
    return 0


cdef void play_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local
    if c.purpose == P_PLAY_CARD:
        local = m - O_CARD
        if local == CARD_SKIP:
            pop(c)
            return
        F.card = local
        if F.req >= 0:
            F.hab = F.req
            F.egg = EGG_COST[P.rows[F.req]]
            F.last = -1
    elif c.purpose == P_PLAY_HABITAT:
        F.hab = m - O_HABITAT
        F.egg = EGG_COST[P.rows[F.hab]]
        F.last = -1
    elif c.purpose == P_PLAY_PAY_EGG:
        local = m - O_SLOT
        P.egg[local] -= 1
        F.egg -= 1
        F.last = local
    elif c.purpose == P_PLAY_PAY_FOOD:
        local = m - O_FOOD
        P.food[local] -= 1
        F.paid[local] += 1


# -- the mat step of gain food / lay eggs / draw cards (§3.5-3.8)
cdef int mat_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int n = 0, s, t, r, nh, i, seat = F.seat
    cdef int cards[NB]
    cdef Frame* G
    if F.hab == 0:
        if F.n > 0:
            n = die_opts(c, 31, False, out)
            return node(c, seat, P_TAKE_DIE, K_DIE, n)
        if F.trade:
            if P.nhand == 0:
                F.trade = 0
                return 0
            nh = hand_list(P, cards)
            for i in range(nh):
                out[i] = O_CARD + cards[i]
            out[nh] = O_CARD + CARD_SKIP
            return node(c, seat, P_FOREST_TRADE, K_CARD, nh + 1)
        r = F.rodent
        pop(c)
        G = push(c, FR_ROW, seat)
        G.hab = 0
        G.col = P.rows[0] - 1
        if r:
            push_pink(c, EV_B, -1)
        return 0
    if F.hab == 1:
        if F.trade:
            for t in range(5):
                if P.food[t] > 0:
                    out[n] = O_FOOD + t
                    n += 1
            if n == 0:
                F.trade = 0
                return 0
            out[n] = O_FOOD + FOOD_SKIP
            return node(c, seat, P_GRASS_TRADE, K_FOOD, n + 1)
        r = total_room(P)
        if F.n > r:
            F.n = r
        if F.n > 0:
            n = batch_slots(P, F.last, F.n, False, out)
            return node(c, seat, P_LAY_EGG, K_SLOT, n)
        pop(c)
        G = push(c, FR_ROW, seat)
        G.hab = 1
        G.col = P.rows[1] - 1
        push_pink(c, EV_A, -1)
        return 0
    if F.n > 0:
        n = draw_opts(c, F.last, F.deck, out)
        if n == 0:
            F.n = 0
            return 0
        return node(c, seat, P_DRAW_SOURCE, K_SOURCE, n)
    if F.trade:
        if total_eggs(P) >= 1 and (c.tray[0] >= 0 or c.tray[1] >= 0 or c.tray[2] >= 0 or can_draw_deck(c)):
            for s in range(15):
                if P.egg[s] > 0:
                    out[n] = O_SLOT + s
                    n += 1
            out[n] = O_SLOT + SLOT_SKIP
            return node(c, seat, P_WET_TRADE, K_SLOT, n + 1)
        F.trade = 0
        return 0
    pop(c)
    G = push(c, FR_ROW, seat)
    G.hab = 2
    G.col = P.rows[2] - 1
    return 0


cdef void mat_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int local, r, b, tag
    if c.purpose == P_TAKE_DIE:
        r = die_apply(c, F.seat, m - O_DIE)
        if r >= 0:
            F.n -= 1
            if r == 4:
                F.rodent = 1
    elif c.purpose == P_FOREST_TRADE:
        local = m - O_CARD
        F.trade = 0
        if local != CARD_SKIP:
            hand_remove(c, F.seat, local)
            to_discard(c, local)
            F.n = 1
    elif c.purpose == P_GRASS_TRADE:
        local = m - O_FOOD
        F.trade = 0
        if local != FOOD_SKIP:
            P.food[local] -= 1
            F.n += 1
    elif c.purpose == P_LAY_EGG:
        local = m - O_SLOT
        P.egg[local] += 1
        F.last = local
        F.n -= 1
    elif c.purpose == P_DRAW_SOURCE:
        b = draw_take(c, m - O_SOURCE, &F.last, &F.deck, &tag)
        if b >= 0:
            hand_add(c, F.seat, b, tag)
        F.n -= 1
    elif c.purpose == P_WET_TRADE:
        local = m - O_SLOT
        F.trade = 0
        if local != SLOT_SKIP:
            P.egg[local] -= 1
            F.n = 1


# -- row activation (§3.9)
cdef int row_gen(Core* c, Frame* F) noexcept nogil:
    cdef int s, b, seat = F.seat
    if F.col < 0:
        pop(c)
        return 0
    s = 5 * F.hab + F.col
    F.col -= 1
    b = c.pl[seat].bird[s]
    if b >= 0 and B_COL[b] == COL_BROWN:
        push_pow(c, seat, s, b, 0)
    return 0


# -- pink reactions (§4)
cdef int pink_gen(Core* c, Frame* F) noexcept nogil:
    cdef int k, q, s, b
    for k in range(1, c.n):
        q = (F.active + k) % c.n
        if F.q[q]:
            s = ws_ctz64(F.q[q])
            F.q[q] &= ~(1 << s)
            b = c.pl[q].bird[s]
            if b >= 0:
                push_pow(c, q, s, b, 0)
            return 0
    pop(c)
    return 0


# -- end of turn (§3.10) and of the round (§5.1)
cdef void next_turn(Core* c) noexcept nogil:
    c.t += 1
    if c.t >= c.n * (9 - c.round):
        push(c, FR_ROUND_END, -1)
    else:
        start_turn(c)


cdef int eot_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef Player* P = &c.pl[F.seat]
    cdef int nh, i, rem, n = 0
    cdef int cards[NB]
    if P.owe > 0 and P.nhand > 0:
        nh = hand_list(P, cards)
        rem = P.owe if P.owe < nh else nh
        for i in range(nh):
            if cards[i] > F.last and nh - i >= rem:
                out[n] = O_CARD + cards[i]
                n += 1
        return node(c, F.seat, P_EOT_DISCARD, K_CARD, n)
    P.owe = 0
    refill_tray(c)
    pop(c)
    next_turn(c)
    return 0


cdef void eot_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef int b = m - O_CARD
    hand_remove(c, F.seat, b)
    to_discard(c, b)
    c.pl[F.seat].owe -= 1
    F.last = b


cdef int round_end_gen(Core* c) noexcept nogil:
    cdef int s, p
    pop(c)
    score_round(c)
    if c.round >= 4:
        c.phase = PH_OVER
        c.nst = 0
        return 0
    for s in range(3):
        if c.tray[s] >= 0:
            to_discard(c, c.tray[s])
            c.tray[s] = -1
    refill_tray(c)
    c.round += 1
    c.first = (c.round - 1) % c.n
    c.t = 0
    for p in range(c.n):
        c.pl[p].cubes = 9 - c.round
    start_turn(c)
    return 0


# ---------------------------------------------------------------------------- powers (§9)
cdef inline int pow_hab(Frame* F, int a0) noexcept nogil:
    return a0 if a0 >= 0 else F.slot // 5


cdef inline bint is_rightmost(Player* P, int slot) noexcept nogil:
    return slot % 5 == P.rows[slot // 5] - 1


cdef int move_opts(Core* c, int p, int slot, int* out) noexcept nogil:
    cdef Player* P = &c.pl[p]
    cdef int h, n = 0, b = P.bird[slot], here = slot // 5
    if b < 0 or not is_rightmost(P, slot):
        return 0
    for h in range(3):
        if h != here and (B_HAB[b] >> h) & 1 and P.rows[h] < 5:
            out[n] = O_HABITAT + h
            n += 1
    return n


cdef bint anyone_lays(Core* c, int nest, int skip_player) noexcept nogil:
    cdef int q, s, b
    for q in range(c.n):
        if q == skip_player:
            continue
        for s in range(15):
            b = c.pl[q].bird[s]
            if b >= 0 and c.pl[q].egg[s] < B_EGGS[b] and matches(b, nest):
                return True
    return False


cdef bint noop_basic(Core* c, int p, int slot, int b, int step) noexcept nogil:
    """§9.3 no-op tests: the step cannot change the state now (REPEAT_* excepted)."""
    cdef Player* P = &c.pl[p]
    cdef int v = B_VERB[b][step], a0 = B_A0[b][step], a1 = B_A1[b][step], s, h
    cdef int buf[16]
    if v == V_GAIN_FEEDER:
        return not feeder_gives(c, a0) and not one_faced(c)
    if v == V_GAIN_ALL_FEEDER:
        return not feeder_gives(c, 1 << a0) and not one_faced(c)
    if v == V_SPEND_FOOD:
        return P.food[a0] == 0
    if v == V_TRADE_FOOD:
        return total_food(P) == 0
    if v == V_LAY_SELF:
        return room(P, slot) <= 0
    if v == V_LAY_ANY:
        return total_room(P) == 0
    if v == V_LAY_EACH:
        return lay_opts(c, p, a0, -1, buf) == 0
    if v == V_ALL_PLAYERS_LAY:
        return not anyone_lays(c, a0, -1)
    if v == V_PAY_EGG:
        for s in range(15):
            if P.egg[s] > 0 and (a0 == 0 or s != slot):
                return False
        return True
    if v == V_LAY_NEST:
        return lay_opts(c, p, a0, slot if a1 else -1, buf) == 0
    if v == V_DRAW or v == V_DRAFT:
        return c.tray[0] < 0 and c.tray[1] < 0 and c.tray[2] < 0 and not can_draw_deck(c)
    if v == V_ALL_PLAYERS_DRAW_DECK or v == V_PREDATOR_LOOK:
        return not can_draw_deck(c)
    if v == V_TUCK_HAND:
        return P.nhand == 0
    if v == V_PREDATOR_ROLL:
        return c.nfd >= 5
    if v == V_PLAY_EXTRA:
        h = a0 if a0 >= 0 else slot // 5
        return not any_play(P, h)
    if v == V_MOVE_IF_RIGHTMOST:
        return move_opts(c, p, slot, buf) == 0
    return False


cdef int repeat_opts(Core* c, int p, int slot, bint pred, int* out) noexcept nogil:
    cdef Player* P = &c.pl[p]
    cdef int h = slot // 5, s, b, v, n = 0
    for s in range(5 * h, 5 * h + P.rows[h]):
        b = P.bird[s]
        if s == slot or b < 0:
            continue
        if pred:
            if not B_PRED[b]:
                continue
        elif B_COL[b] != COL_BROWN:
            continue
        v = B_VERB[b][0]
        if v == V_REPEAT_BROWN or v == V_REPEAT_PREDATOR:
            continue
        if noop_basic(c, p, s, b, 0):
            continue
        out[n] = O_SLOT + s
        n += 1
    return n


cdef bint noop(Core* c, int p, int slot, int b, int step) noexcept nogil:
    cdef int v = B_VERB[b][step]
    cdef int buf[16]
    if v == V_REPEAT_BROWN or v == V_REPEAT_PREDATOR:
        return repeat_opts(c, p, slot, v == V_REPEAT_PREDATOR, buf) == 0
    return noop_basic(c, p, slot, b, step)


cdef bint others_gain(Core* c, Frame* F) noexcept nogil:
    """The Y* test of §9.1: some other player can gain from the power now."""
    cdef int b = F.bird, p = F.seat, v = B_VERB[b][0], a0 = B_A0[b][0], q, s, m, bb
    if v == V_ALL_PLAYERS_GAIN_SUPPLY or v == V_ALL_PLAYERS_DRAW_DECK or v == V_DRAFT:
        return c.n >= 2
    if v == V_FEWEST_IN:
        m = 99
        for q in range(c.n):
            if c.pl[q].rows[a0] < m:
                m = c.pl[q].rows[a0]
        for q in range(c.n):
            if q != p and c.pl[q].rows[a0] == m:
                return True
        return False
    if v == V_ALL_PLAYERS_LAY:
        return anyone_lays(c, a0, p)
    if v == V_PREDATOR_LOOK or v == V_PREDATOR_ROLL:
        for q in range(c.n):
            if q == p:
                continue
            for s in range(15):
                bb = c.pl[q].bird[s]
                if bb >= 0 and B_TRIG[bb] == EV_D and not (c.pl[q].pink_used >> s) & 1:
                    return True
        return False
    return False


cdef inline void set_asked(Core* c, Frame* F) noexcept nogil:
    F.asked = 1
    if B_COL[F.bird] == COL_PINK:
        c.pl[F.seat].pink_used |= 1 << F.slot


cdef inline void step_done(Core* c, Frame* F, bint did) noexcept nogil:
    """'X then Y': the next step runs only if this one happened (F is invalid after)."""
    if did and F.step + 1 < B_NSTEPS[F.bird]:
        F.step += 1
        F.did = 0
        clear_st(F)
    else:
        pop(c)


cdef void move_bird(Core* c, int p, int slot, int h2) noexcept nogil:
    cdef Player* P = &c.pl[p]
    cdef int to = 5 * h2 + P.rows[h2], t, b = P.bird[slot], x
    P.bird[to] = b
    P.egg[to] = P.egg[slot]
    P.ntuck[to] = P.ntuck[slot]
    for t in range(5):
        P.cache[to][t] = P.cache[slot][t]
        P.cache[slot][t] = 0
    P.bird[slot] = -1
    P.egg[slot] = 0
    P.ntuck[slot] = 0
    P.rows[slot // 5] -= 1
    P.rows[h2] += 1
    c.cslot[b] = to
    for x in range(NB):
        if c.cloc[x] == L_TUCK and c.cown[x] == p and c.cslot[x] == slot:
            c.cslot[x] = to


cdef int pow_gen(Core* c, Frame* F, int* out) noexcept nogil:
    cdef int b = F.bird, p = F.seat, v, a0, a1, n = 0, t, s, q, m, nh, i, bb, k
    cdef Player* P
    cdef int cards[NB]
    cdef Frame* G
    if b < 0 or F.step >= B_NSTEPS[b] or c.pl[p].bird[F.slot] != b:
        pop(c)
        return 0
    P = &c.pl[p]
    v = B_VERB[b][F.step]
    a0 = B_A0[b][F.step]
    a1 = B_A1[b][F.step]
    if F.step == 0 and F.asked == 0 and v != V_GAIN_ALL_FEEDER:
        if noop(c, p, F.slot, b, 0):
            pop(c)
            return 0
        k = B_ASK[b]
        if k == ASK_A or (k == ASK_YS and not others_gain(c, F)):
            set_asked(c, F)
        elif k == ASK_Y or k == ASK_YS:
            out[0] = O_YESNO
            out[1] = O_YESNO + 1
            return node(c, p, P_POWER_CONFIRM, K_YESNO, 2)
    # -- food
    if v == V_GAIN_SUPPLY:
        P.food[a0] += a1
        step_done(c, F, True)
        return 0
    if v == V_GAIN_SUPPLY_CHOICE:
        for t in range(5):
            if (a0 >> t) & 1:
                out[n] = O_FOOD + t
                n += 1
        return node(c, p, P_GAIN_FOOD_TYPE, K_FOOD, n)
    if v == V_GAIN_SUPPLY_WILD:
        if F.k >= a1:
            step_done(c, F, True)
            return 0
        for t in range(F.slast if F.slast > 0 else 0, 5):
            out[n] = O_FOOD + t
            n += 1
        return node(c, p, P_GAIN_FOOD_TYPE, K_FOOD, n)
    if v == V_CACHE_SUPPLY:
        P.cache[F.slot][a0] += 1
        step_done(c, F, True)
        return 0
    if v == V_GAIN_FEEDER:
        if F.food >= 0:
            out[0] = O_YESNO
            out[1] = O_YESNO + 1
            return node(c, p, P_CACHE_CHOICE, K_YESNO, 2)
        n = die_opts(c, a0, F.asked == 0, out)
        if n == 0:
            pop(c)
            return 0
        return node(c, p, P_TAKE_DIE, K_DIE, n)
    if v == V_GAIN_ALL_FEEDER:
        if one_faced(c) and F.k == 0:
            out[0] = O_YESNO
            out[1] = O_YESNO + 1
            return node(c, p, P_FEEDER_REROLL, K_YESNO, 2)
        if feeder_gives(c, 1 << a0):
            out[0] = O_YESNO
            out[1] = O_YESNO + 1
            return node(c, p, P_POWER_CONFIRM, K_YESNO, 2)
        pop(c)
        return 0
    if v == V_ALL_PLAYERS_GAIN_SUPPLY:
        for q in range(c.n):
            c.pl[(p + q) % c.n].food[a0] += 1
        step_done(c, F, True)
        return 0
    if v == V_EACH_PLAYER_GAIN_FEEDER:
        if F.norder == 0:
            for q in range(c.n):
                out[n] = O_PLAYER + q
                n += 1
            out[n] = O_PLAYER + PLAYER_SKIP
            return node(c, p, P_START_PLAYER, K_PLAYER, n + 1)
        if F.i >= F.norder:
            step_done(c, F, True)
            return 0
        n = die_opts(c, 31, False, out)
        return node(c, F.order[F.i], P_TAKE_DIE, K_DIE, n)
    if v == V_FEWEST_IN:
        if F.norder == 0:
            m = 99
            for q in range(c.n):
                if c.pl[q].rows[a0] < m:
                    m = c.pl[q].rows[a0]
            for q in range(c.n):
                if c.pl[(p + q) % c.n].rows[a0] == m:
                    F.order[F.norder] = (p + q) % c.n
                    F.norder += 1
            F.i = 0
        while F.i < F.norder:
            q = F.order[F.i]
            if a1 == 0:
                n = die_opts(c, 31, False, out)
                return node(c, q, P_TAKE_DIE, K_DIE, n)
            n = draw_opts(c, -1, 0, out)
            if n:
                return node(c, q, P_DRAW_SOURCE, K_SOURCE, n)
            F.i += 1
        step_done(c, F, True)
        return 0
    if v == V_SPEND_FOOD:
        if P.food[a0] > 0:
            P.food[a0] -= 1
            step_done(c, F, True)
        else:
            step_done(c, F, False)
        return 0
    if v == V_TRADE_FOOD:
        if F.spaid < 0:
            for t in range(5):
                if P.food[t] > 0:
                    out[n] = O_FOOD + t
                    n += 1
            if n == 0:
                pop(c)
                return 0
            out[n] = O_FOOD + FOOD_SKIP
            return node(c, p, P_TRADE_PAY, K_FOOD, n + 1)
        for t in range(5):
            if t != F.spaid:
                out[n] = O_FOOD + t
                n += 1
        return node(c, p, P_TRADE_GAIN, K_FOOD, n)
    # -- eggs
    if v == V_LAY_SELF:
        if room(P, F.slot) > 0:
            P.egg[F.slot] += 1
            step_done(c, F, True)
        else:
            step_done(c, F, False)
        return 0
    if v == V_LAY_ANY or v == V_LAY_NEST:
        if v == V_LAY_ANY:
            n = lay_opts(c, p, -1, -1, out)
        else:
            n = lay_opts(c, p, a0, F.slot if a1 else -1, out)
        if n == 0:
            step_done(c, F, False)
            return 0
        return node(c, p, P_LAY_EGG, K_SLOT, n)
    if v == V_LAY_EACH:
        k = 0
        for s in range(15):
            bb = P.bird[s]
            if bb >= 0 and P.egg[s] < B_EGGS[bb] and matches(bb, a0):
                P.egg[s] += 1
                k = 1
        step_done(c, F, k)
        return 0
    if v == V_ALL_PLAYERS_LAY:
        if F.norder == 0:
            for q in range(c.n):
                F.order[q] = (p + q) % c.n
            F.norder = c.n
            F.i = 0
        while True:
            if F.i == 0:
                n = lay_opts(c, p, a0, -1, out)
                if n:
                    return node(c, p, P_LAY_EGG, K_SLOT, n)
                F.first = -1
                F.i = 1
            elif F.i == 1:
                n = lay_opts(c, p, a0, F.first, out) if F.first >= 0 else 0
                if n:
                    out[n] = O_SLOT + SLOT_SKIP
                    return node(c, p, P_LAY_EGG, K_SLOT, n + 1)
                F.i = 2
            else:
                if F.i - 1 >= F.norder:
                    step_done(c, F, True)
                    return 0
                q = F.order[F.i - 1]
                n = lay_opts(c, q, a0, -1, out)
                if n:
                    return node(c, q, P_LAY_EGG, K_SLOT, n)
                F.i += 1
    if v == V_PAY_EGG:
        for s in range(15):
            if P.egg[s] > 0 and (a0 == 0 or s != F.slot):
                out[n] = O_SLOT + s
                n += 1
        if n == 0:
            pop(c)
            return 0
        out[n] = O_SLOT + SLOT_SKIP
        return node(c, p, P_POWER_PAY_EGG, K_SLOT, n + 1)
    # -- cards
    if v == V_DRAW:
        if F.k < a1:
            n = draw_opts(c, F.slast, F.sdeck, out)
            if n:
                return node(c, p, P_DRAW_SOURCE, K_SOURCE, n)
        step_done(c, F, F.k > 0)
        return 0
    if v == V_DISCARD_EOT:
        P.owe += a1
        step_done(c, F, True)
        return 0
    if v == V_ALL_PLAYERS_DRAW_DECK:
        for q in range(c.n):
            bb = deck_draw(c)
            if bb < 0:
                break
            hand_add(c, (p + q) % c.n, bb, c.depoch)
        step_done(c, F, True)
        return 0
    if v == V_TUCK_HAND:
        nh = hand_list(P, cards)
        if nh == 0:
            pop(c)
            return 0
        for i in range(nh):
            out[i] = O_CARD + cards[i]
        out[nh] = O_CARD + CARD_SKIP
        return node(c, p, P_TUCK_FROM_HAND, K_CARD, nh + 1)
    if v == V_TUCK_DECK:
        k = 0
        for i in range(a1):
            bb = deck_draw(c)
            if bb < 0:
                break
            tuck_card(c, p, F.slot, bb, TK_D, c.depoch)
            k = 1
        step_done(c, F, k)
        return 0
    if v == V_PREDATOR_LOOK:
        bb = deck_draw(c)
        s = F.slot
        pop(c)
        if bb < 0:
            return 0
        if B_WS[bb] < a0:
            tuck_card(c, p, s, bb, TK_P, 0)
            push_pink(c, EV_D, -1)
        else:
            to_discard(c, bb)
        return 0
    if v == V_PREDATOR_ROLL:
        k = 0
        for i in range(5 - c.nfd):
            if rbelow(c, 6) == a0:
                k = 1
        s = F.slot
        pop(c)
        if k:
            P.cache[s][a0] += 1
            push_pink(c, EV_D, -1)
        return 0
    if v == V_DRAW_BONUS:
        if F.k == 0:
            F.k = 1
            for i in range(2):
                bb = bonus_draw(c)
                if bb < 0:
                    break
                c.bloc[bb] = B_PEND
                c.bown[bb] = p
                F.drawn[F.ndrawn] = bb
                F.ndrawn += 1
            if F.ndrawn == 1:
                c.bloc[F.drawn[0]] = B_HELD
            if F.ndrawn < 2:
                step_done(c, F, F.ndrawn > 0)
                return 0
        if F.drawn[0] < F.drawn[1]:
            out[0] = O_BONUS + F.drawn[0]
            out[1] = O_BONUS + F.drawn[1]
        else:
            out[0] = O_BONUS + F.drawn[1]
            out[1] = O_BONUS + F.drawn[0]
        return node(c, p, P_BONUS_KEEP, K_BONUS, 2)
    if v == V_DRAFT:
        if F.norder == 0:
            if F.k < c.n + 1:
                n = draw_opts(c, F.slast, F.sdeck, out)
                if n:
                    return node(c, p, P_DRAW_SOURCE, K_SOURCE, n)
            for q in range(c.n):
                F.order[q] = (p + q) % c.n
            F.norder = c.n
            F.i = 0
        if c.ndraft > 0 and F.i < F.norder and c.n > 1:
            for i in range(c.ndraft):
                cards[i] = c.draft[i]
            # ascending ids
            for i in range(1, c.ndraft):
                k = cards[i]
                t = i - 1
                while t >= 0 and cards[t] > k:
                    cards[t + 1] = cards[t]
                    t -= 1
                cards[t + 1] = k
            for i in range(c.ndraft):
                out[i] = O_CARD + cards[i]
            return node(c, F.order[F.i], P_DRAFT_PICK, K_CARD, c.ndraft)
        for i in range(c.ndraft):
            hand_add(c, p, c.draft[i], TAG_P)
        c.ndraft = 0
        step_done(c, F, True)
        return 0
    # -- structure
    if v == V_PLAY_EXTRA:
        s = pow_hab(F, a0)
        pop(c)
        G = push(c, FR_PLAY, p)
        G.src = 1
        G.req = s
        return 0
    if v == V_MOVE_IF_RIGHTMOST:
        n = move_opts(c, p, F.slot, out)
        if n == 0:
            pop(c)
            return 0
        out[n] = O_HABITAT + HAB_SKIP
        return node(c, p, P_MOVE_TARGET, K_HABITAT, n + 1)
    if v == V_REPEAT_BROWN or v == V_REPEAT_PREDATOR:
        n = repeat_opts(c, p, F.slot, v == V_REPEAT_PREDATOR, out)
        if n == 0:
            pop(c)
            return 0
        out[n] = O_SLOT + SLOT_SKIP
        return node(c, p, P_REPEAT_TARGET, K_SLOT, n + 1)
    pop(c)
    return 0


cdef void pow_apply(Core* c, Frame* F, int m) noexcept nogil:
    cdef int b = F.bird, p = F.seat, v = B_VERB[b][F.step], a0 = B_A0[b][F.step]
    cdef int pu = c.purpose, local, r, q, bb, tag, i, t
    cdef Player* P = &c.pl[p]
    if pu == P_POWER_CONFIRM:
        if m == O_YESNO:
            pop(c)
            return
        if v == V_GAIN_ALL_FEEDER:
            r = c.fd[a0]
            c.fd[a0] = 0
            if a0 <= 1:
                r += c.fd[5]
                c.fd[5] = 0
            c.nfd -= r
            P.food[a0] += r
            if c.nfd == 0:
                roll_all(c)
            step_done(c, F, True)
            return
        set_asked(c, F)
        return
    if pu == P_FEEDER_REROLL:
        if m == O_YESNO + 1:
            roll_all(c)
        else:
            F.k = 1
        return
    if pu == P_CACHE_CHOICE:
        if m == O_YESNO + 1:
            P.food[F.food] -= 1
            P.cache[F.slot][F.food] += 1
        step_done(c, F, True)
        return
    if pu == P_GAIN_FOOD_TYPE:
        local = m - O_FOOD
        P.food[local] += 1
        if v == V_GAIN_SUPPLY_WILD:
            F.k += 1
            F.slast = local
            if F.k >= B_A1[b][F.step]:
                step_done(c, F, True)
        else:
            step_done(c, F, True)
        return
    if pu == P_TAKE_DIE:
        local = m - O_DIE
        if v == V_GAIN_FEEDER:
            r = die_apply(c, p, local)
            if r == -2:
                pop(c)
            elif r >= 0:
                set_asked(c, F)
                if B_A1[b][F.step]:
                    F.food = r
                else:
                    step_done(c, F, True)
            return
        # EACH_PLAYER_GAIN_FEEDER / FEWEST_IN: the taker is the current member
        r = die_apply(c, F.order[F.i], local)
        if r >= 0:
            F.i += 1
        return
    if pu == P_START_PLAYER:
        local = m - O_PLAYER
        if local == PLAYER_SKIP:
            pop(c)
            return
        set_asked(c, F)
        for q in range(c.n):
            F.order[q] = (local + q) % c.n
        F.norder = c.n
        F.i = 0
        return
    if pu == P_DRAW_SOURCE:
        local = m - O_SOURCE
        if v == V_FEWEST_IN:
            bb = draw_take(c, local, &F.slast, &F.sdeck, &tag)
            F.slast = -1
            F.sdeck = 0
            if bb >= 0:
                hand_add(c, F.order[F.i], bb, tag)
            F.i += 1
            return
        bb = draw_take(c, local, &F.slast, &F.sdeck, &tag)
        F.k += 1
        if bb < 0:
            return
        if v == V_DRAFT:
            c.draft[c.ndraft] = bb
            c.ndraft += 1
            c.cloc[bb] = L_DRAFT
            c.cown[bb] = 0
            c.cslot[bb] = 0
            c.ctag[bb] = 0
        else:
            hand_add(c, p, bb, tag)
        return
    if pu == P_TRADE_PAY:
        local = m - O_FOOD
        if local == FOOD_SKIP:
            pop(c)
            return
        P.food[local] -= 1
        F.spaid = local
        set_asked(c, F)
        return
    if pu == P_TRADE_GAIN:
        P.food[m - O_FOOD] += 1
        step_done(c, F, True)
        return
    if pu == P_LAY_EGG:
        local = m - O_SLOT
        if v == V_ALL_PLAYERS_LAY:
            if local != SLOT_SKIP:
                q = p if F.i <= 1 else F.order[F.i - 1]
                c.pl[q].egg[local] += 1
                if F.i == 0:
                    F.first = local
            F.i += 1
            return
        P.egg[local] += 1
        step_done(c, F, True)
        return
    if pu == P_POWER_PAY_EGG:
        local = m - O_SLOT
        if local == SLOT_SKIP:
            pop(c)
            return
        P.egg[local] -= 1
        set_asked(c, F)
        step_done(c, F, True)
        return
    if pu == P_TUCK_FROM_HAND:
        local = m - O_CARD
        if local == CARD_SKIP:
            pop(c)
            return
        tag = c.ctag[local]
        hand_remove(c, p, local)
        if tag == TAG_P:
            tuck_card(c, p, F.slot, local, TK_P, 0)
        else:
            tuck_card(c, p, F.slot, local, TK_H, tag)
        set_asked(c, F)
        step_done(c, F, True)
        return
    if pu == P_BONUS_KEEP:
        local = m - O_BONUS
        for i in range(F.ndrawn):
            bb = F.drawn[i]
            if bb == local:
                c.bloc[bb] = B_HELD
                c.bown[bb] = p
            else:
                bonus_discard(c, bb, p)
        step_done(c, F, True)
        return
    if pu == P_DRAFT_PICK:
        local = m - O_CARD
        q = F.order[F.i]
        for i in range(c.ndraft):
            if c.draft[i] == local:
                for t in range(i, c.ndraft - 1):
                    c.draft[t] = c.draft[t + 1]
                c.ndraft -= 1
                break
        hand_add(c, q, local, TAG_P)
        F.i += 1
        return
    if pu == P_MOVE_TARGET:
        local = m - O_HABITAT
        if local == HAB_SKIP:
            pop(c)
            return
        set_asked(c, F)
        move_bird(c, p, F.slot, local)
        step_done(c, F, True)
        return
    if pu == P_REPEAT_TARGET:
        local = m - O_SLOT
        pop(c)
        if local != SLOT_SKIP:
            push_pow(c, p, local, P.bird[local], 1)
        return


# ---------------------------------------------------------------------------- the machine
cdef int gen(Core* c, int* out) noexcept nogil:
    """Runs automatic steps until a decision node; writes its moves, returns how many
    (0 when the game is over)."""
    cdef int r, guard = 0
    cdef Frame* F
    while True:
        if c.phase == PH_OVER:
            return 0
        if c.nst == 0:
            c.phase = PH_OVER
            return 0
        F = &c.st[c.nst - 1]
        if F.f == FR_SETUP:
            return setup_gen(c, F, out)
        elif F.f == FR_ACT:
            return act_gen(c, F, out)
        elif F.f == FR_TURN:
            r = F.seat
            pop(c)
            push(c, FR_EOT, r)
            r = 0
        elif F.f == FR_PLAY:
            r = play_gen(c, F, out)
        elif F.f == FR_MAT:
            r = mat_gen(c, F, out)
        elif F.f == FR_ROW:
            r = row_gen(c, F)
        elif F.f == FR_POW:
            r = pow_gen(c, F, out)
        elif F.f == FR_PINK:
            r = pink_gen(c, F)
        elif F.f == FR_EOT:
            r = eot_gen(c, F, out)
        elif F.f == FR_ROUND_END:
            r = round_end_gen(c)
        else:
            pop(c)
            r = 0
        if r > 0:
            return r
        guard += 1
        if guard > 10000000:
            c.bad = 1
            c.phase = PH_OVER
            return 0


cdef void apply(Core* c, int m) noexcept nogil:
    """Applies move m at the decision node ``gen`` last found."""
    cdef Frame* F
    if c.nst == 0:
        return
    F = &c.st[c.nst - 1]
    if F.f == FR_SETUP:
        setup_apply(c, F, m)
    elif F.f == FR_ACT:
        act_apply(c, F, m)
    elif F.f == FR_PLAY:
        play_apply(c, F, m)
    elif F.f == FR_MAT:
        mat_apply(c, F, m)
    elif F.f == FR_POW:
        pow_apply(c, F, m)
    elif F.f == FR_EOT:
        eot_apply(c, F, m)


cdef int settle(Core* c, int* buf) noexcept nogil:
    """Forced moves collapse (§7.1): returns the number of moves at the node reached."""
    cdef int n
    while True:
        n = gen(c, buf)
        if n != 1:
            return n
        apply(c, buf[0])


# ---------------------------------------------------------------------------- keys
cdef inline uint64_t mix(uint64_t h, uint64_t v) noexcept nogil:
    h = (h ^ v) * <uint64_t>0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29)


cdef uint64_t core_key(Core* c) noexcept nogil:
    """A hash of the whole position except the RNG (future chance) and the formation
    history (which only the determinization reads)."""
    cdef uint64_t h = ZK[0]
    cdef int i, p, s, t, r
    cdef Player* P
    cdef unsigned short* w
    h = mix(h, c.n | (c.side << 4) | (c.phase << 8) | (c.round << 12) | (c.first << 16)
            | (<uint64_t>c.t << 20) | (<uint64_t>c.cur << 32) | (<uint64_t>c.nscored << 40))
    for i in range(4):
        h = mix(h, c.goals[i])
    for r in range(c.nscored):
        for p in range(c.n):
            h = mix(h, c.goal_pts[r][p])
    for i in range(NB):
        h = mix(h, c.cloc[i] | (c.cown[i] << 8) | (c.cslot[i] << 16) | (c.ctag[i] << 24)
                | (<uint64_t>c.ctk[i] << 32) | (<uint64_t>i << 40))
    h = mix(h, ZK[1] + c.ndeck)
    for i in range(c.ndeck):
        h = mix(h, c.deck[i] + 256 * i)
    h = mix(h, ZK[2] + c.ndisc)
    for i in range(c.ndisc):
        h = mix(h, c.disc[i] + 256 * i)
    h = mix(h, c.depoch | (c.nforms << 16) | (<uint64_t>c.formlen << 32))
    for i in range(3):
        h = mix(h, c.tray[i] + 1024 * i)
    h = mix(h, ZK[3] + c.ndraft)
    for i in range(c.ndraft):
        h = mix(h, c.draft[i])
    for i in range(6):
        h = mix(h, c.fd[i] + 16 * i)
    for i in range(NBON):
        h = mix(h, c.bloc[i] | (c.bown[i] << 8) | (c.btag[i] << 16) | (<uint64_t>i << 24))
    h = mix(h, ZK[4] + c.nbdeck + (c.nbdisc << 8) + (c.bepoch << 16) + (<uint64_t>c.bflen << 24))
    for i in range(c.nbdeck):
        h = mix(h, c.bdeck[i] + 256 * i)
    for i in range(c.nbdisc):
        h = mix(h, c.bdisc[i] + 256 * i + 65536)
    for p in range(c.n):
        P = &c.pl[p]
        h = mix(h, ZK[5 + p])
        h = mix(h, P.hand[0])
        h = mix(h, P.hand[1])
        h = mix(h, P.hand[2])
        for t in range(5):
            h = mix(h, P.food[t] + (t << 16) + (<uint64_t>P.sfood[t] << 24))
        h = mix(h, P.cubes | (P.pink_used << 8) | (<uint64_t>P.owe << 24) | (<uint64_t>(P.skeep & 0xFF) << 40)
                | (<uint64_t>(P.sbonus + 1) << 48))
        for s in range(15):
            if P.bird[s] >= 0:
                h = mix(h, (P.bird[s] + 1) | (s << 8) | (P.egg[s] << 16) | (<uint64_t>P.ntuck[s] << 24))
                for t in range(5):
                    if P.cache[s][t]:
                        h = mix(h, P.cache[s][t] + (t << 16) + (s << 20))
    h = mix(h, ZK[10] + c.nst)
    for i in range(c.nst):
        w = <unsigned short*>&c.st[i]
        for t in range(<int>(sizeof(Frame) // 2)):
            if w[t]:
                h = mix(h, w[t] | (t << 16) | (<uint64_t>i << 24))
    return h


# ---------------------------------------------------------------------------- determinization
cdef inline void rshuffle(int* a, int n, Rng* rng) noexcept nogil:
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef inline bint bird_hidden(Core* c, int o, int x) noexcept nogil:
    cdef int L = c.cloc[x]
    if L == L_DECK:
        return True
    if L == L_HAND:
        return c.cown[x] != o and c.ctag[x] != TAG_P
    if L == L_TUCK:
        return c.ctk[x] == TK_D or (c.ctk[x] == TK_H and c.cown[x] != o)
    return False


cdef void determinize_birds(Core* c, int o, Rng* rng) noexcept nogil:
    """§6.4 birds: within each epoch the unknown cards are dealt uniformly over the hidden
    slots of that epoch (the cards of epoch e in hidden slots are exactly C_e)."""
    cdef int e, x, k, n, q, s, kd, i, t
    cdef int cards[NB]
    cdef int handcnt[MAXP]
    cdef int tuckcnt[MAXP][15][2]
    cdef bint shown[NB]
    # a card chosen by a pending PLAY frame was named in public (PLAY_CARD)
    for x in range(NB):
        shown[x] = False
    for i in range(c.nst):
        if c.st[i].f == FR_PLAY and 0 <= c.st[i].card < NB:
            shown[c.st[i].card] = True
    for e in range(c.depoch + 1):
        n = 0
        for q in range(c.n):
            handcnt[q] = 0
            for s in range(15):
                tuckcnt[q][s][0] = 0
                tuckcnt[q][s][1] = 0
        for x in range(NB):
            if shown[x] or not bird_hidden(c, o, x):
                continue
            if c.cloc[x] == L_DECK:
                if e != c.depoch:
                    continue
            elif c.ctag[x] != e:
                continue
            cards[n] = x
            n += 1
            if c.cloc[x] == L_HAND:
                handcnt[c.cown[x]] += 1
                hand_remove(c, c.cown[x], x)
            elif c.cloc[x] == L_TUCK:
                tuckcnt[c.cown[x]][c.cslot[x]][0 if c.ctk[x] == TK_D else 1] += 1
        if n == 0:
            continue
        rshuffle(cards, n, rng)
        k = 0
        if e == c.depoch:
            for i in range(c.ndeck):
                x = cards[k]
                k += 1
                c.deck[i] = x
                c.cloc[x] = L_DECK
                c.cown[x] = 0
                c.cslot[x] = 0
                c.ctag[x] = 0
                c.ctk[x] = 0
        for q in range(c.n):
            for i in range(handcnt[q]):
                hand_add(c, q, cards[k], e)
                k += 1
        for q in range(c.n):
            for s in range(15):
                for kd in range(2):
                    for i in range(tuckcnt[q][s][kd]):
                        x = cards[k]
                        k += 1
                        c.cloc[x] = L_TUCK
                        c.cown[x] = q
                        c.cslot[x] = s
                        c.ctk[x] = TK_D if kd == 0 else TK_H
                        c.ctag[x] = e


cdef void determinize_bonus(Core* c, int o, Rng* rng) noexcept nogil:
    """§6.4 bonus cards, epoch by epoch: C_e is the formation of epoch e (all 26 for e = 0)
    as assigned so far, less the cards o drew from it; it is dealt over the hidden slots
    tagged e (other players' held, pending and discarded cards, the deck, and the other
    players' entries of later formations).  A card o knows to be in a later formation g
    (o drew it from g, or discarded it into g) is first put on an entry of a formation in
    (e, g], so that the sample stays consistent with what o knows."""
    cdef int e, x, i, j, k, n, q, b, g, f, nc, pick
    cdef int cards[NBON]
    cdef bint inC[NBON]
    cdef bint used_entry[BFCAP]
    cdef int fidx[BFCAP]
    cdef int cand[BFCAP]
    cdef int npend = 0, fi
    cdef int pend_frame[MAXF]
    cdef int pend_tag[MAXF][2]
    cdef int held_cnt[MAXP][MAXBEP + 1]
    cdef int pile_tag[NBON]
    cdef int pile_who[NBON]
    cdef int known_tag[NBON]     # o drew card b from this epoch (-1: not o's)
    cdef Frame* F
    if c.bepoch > MAXBEP:
        return
    for i in range(c.nst):
        F = &c.st[i]
        if F.f == FR_POW and F.bird >= 0 and B_VERB[F.bird][F.step] == V_DRAW_BONUS and F.k and F.ndrawn == 2:
            pend_frame[npend] = i
            pend_tag[npend][0] = c.btag[F.drawn[0]]
            pend_tag[npend][1] = c.btag[F.drawn[1]]
            npend += 1
    for q in range(MAXP):
        for e in range(MAXBEP + 1):
            held_cnt[q][e] = 0
    for b in range(NBON):
        known_tag[b] = -1
        if c.bown[b] == o and (c.bloc[b] == B_HELD or c.bloc[b] == B_PEND or c.bloc[b] == B_DISC):
            known_tag[b] = c.btag[b]
        elif c.bloc[b] == B_HELD and c.btag[b] <= MAXBEP:
            held_cnt[c.bown[b]][c.btag[b]] += 1
    for i in range(c.nbdisc):
        pile_tag[i] = c.btag[c.bdisc[i]]
        pile_who[i] = c.bown[c.bdisc[i]]
    f = 1
    for i in range(c.bflen):
        while f < c.nbforms and i >= c.bf_end[f]:
            f += 1
        fidx[i] = f
        used_entry[i] = False
    for e in range(c.bepoch + 1):
        for b in range(NBON):
            inC[b] = (e == 0)
        if e > 0 and e <= c.nbforms:
            for i in range(c.bf_end[e - 1], c.bf_end[e]):
                inC[c.bf_id[i]] = True
        for b in range(NBON):
            if known_tag[b] == e:
                inC[b] = False
        for i in range(c.bflen):
            if c.bf_who[i] == o and c.bf_tag[i] == e:
                inC[c.bf_id[i]] = False
        # pinned cards first: onto entries (tag e, another discarder) of formations in (e, g]
        for b in range(NBON):
            if not inC[b]:
                continue
            g = 1 << 20
            if known_tag[b] > e:
                g = known_tag[b]
            for i in range(c.bflen):
                if c.bf_who[i] == o and c.bf_id[i] == b and fidx[i] > e and fidx[i] < g:
                    g = fidx[i]
                if c.bf_who[i] == o and c.bf_id[i] == b and c.bf_tag[i] > e and c.bf_tag[i] < g:
                    g = c.bf_tag[i]
            if g < (1 << 20):
                nc = 0
                for i in range(c.bflen):
                    if not used_entry[i] and c.bf_who[i] != o and c.bf_tag[i] == e and e < fidx[i] <= g:
                        cand[nc] = i
                        nc += 1
                if nc:
                    pick = cand[rng_below(rng, nc)]
                    used_entry[pick] = True
                    c.bf_id[pick] = b
                    inC[b] = False
        n = 0
        for b in range(NBON):
            if inC[b]:
                cards[n] = b
                n += 1
        rshuffle(cards, n, rng)
        k = 0
        for q in range(c.n):
            if q == o:
                continue
            for i in range(held_cnt[q][e] if e <= MAXBEP else 0):
                if k < n:
                    x = cards[k]
                    k += 1
                    c.bloc[x] = B_HELD
                    c.bown[x] = q
                    c.btag[x] = e
        for fi in range(npend):
            F = &c.st[pend_frame[fi]]
            if F.seat == o:
                continue
            for j in range(2):
                if pend_tag[fi][j] == e and k < n:
                    x = cards[k]
                    k += 1
                    F.drawn[j] = x
                    c.bloc[x] = B_PEND
                    c.bown[x] = F.seat
                    c.btag[x] = e
        for i in range(c.nbdisc):
            if pile_who[i] != o and pile_tag[i] == e and k < n:
                x = cards[k]
                k += 1
                c.bdisc[i] = x
                c.bloc[x] = B_DISC
                c.bown[x] = pile_who[i]
                c.btag[x] = e
        if e == c.bepoch:
            for i in range(c.nbdeck):
                if k < n:
                    x = cards[k]
                    k += 1
                    c.bdeck[i] = x
                    c.bloc[x] = B_DECK
                    c.bown[x] = 0
                    c.btag[x] = 0
        for i in range(c.bflen):
            if not used_entry[i] and c.bf_who[i] != o and c.bf_tag[i] == e and k < n:
                used_entry[i] = True
                c.bf_id[i] = cards[k]
                k += 1


cdef void resample_setup(Core* c, int o, Rng* rng) noexcept nogil:
    """Setup buffers of other seats are hidden (§6.1): draw fresh ones consistent with the
    public progress of the setup frame."""
    cdef Frame* F
    cdef int q, cur, stage, i, k, t, j, tmp, b, nb
    cdef int types[5]
    cdef int held[2]
    cdef Player* P
    if c.phase != PH_SETUP or c.nst == 0:
        return
    F = &c.st[c.nst - 1]
    cur = F.seat
    for q in range(c.n):
        if q == o or q > cur:
            continue
        P = &c.pl[q]
        stage = F.stage if q == cur else 3
        i = F.i if q == cur else 0
        if stage == 0:
            P.skeep = 0
            for j in range(i):
                if rng_below(rng, 2):
                    P.skeep |= 1 << j
            continue
        # keep mask
        if stage == 1:
            k = i + 1 + <int>rng_below(rng, 5 - i)
        else:
            k = -1
        P.skeep = 0
        if k < 0:
            for j in range(5):
                if rng_below(rng, 2):
                    P.skeep |= 1 << j
            k = setup_kept(P)
        else:
            for j in range(5):
                types[j] = j
            rshuffle(types, 5, rng)
            for j in range(k):
                P.skeep |= 1 << types[j]
        # food: a k-subset of the types; in the food stage its i smallest are discarded
        for j in range(5):
            types[j] = j
        rshuffle(types, 5, rng)
        for j in range(1, k):
            tmp = types[j]
            t = j - 1
            while t >= 0 and types[t] > tmp:
                types[t + 1] = types[t]
                t -= 1
            types[t + 1] = tmp
        for t in range(5):
            P.sfood[t] = 0
        for j in range(k if stage >= 2 else i):
            P.sfood[types[j]] = 1
        P.sbonus = -1
        if stage >= 3:
            nb = 0
            for b in range(NBON):
                if c.bloc[b] == B_HELD and c.bown[b] == q and nb < 2:
                    held[nb] = b
                    nb += 1
            if nb:
                P.sbonus = held[rng_below(rng, nb)]


cdef void determinize_core(Core* c, int o, Rng* rng) noexcept nogil:
    determinize_birds(c, o, rng)
    determinize_bonus(c, o, rng)
    resample_setup(c, o, rng)
    c.rng = rng_next(rng)


cdef void determinize_keep_node(Core* c, int o, Rng* rng) noexcept nogil:
    cdef int buf[MAX_MOVES]
    cdef int attempt, n
    cdef Core* orig
    cdef Core* probe
    if c.phase == PH_OVER:
        return
    if o == c.actor:
        determinize_core(c, o, rng)
        return
    orig = <Core*>malloc(sizeof(Core))
    probe = <Core*>malloc(sizeof(Core))
    orig[0] = c[0]
    for attempt in range(30):
        if attempt:
            c[0] = orig[0]
        determinize_core(c, o, rng)
        probe[0] = c[0]
        n = gen(probe, buf)
        if n >= 2 and probe.nst == c.nst and \
                memcmp(&probe.st[c.nst - 1], &c.st[c.nst - 1], sizeof(Frame)) == 0:
            free(orig)
            free(probe)
            return
    free(orig)
    free(probe)
    settle(c, buf)


# ---------------------------------------------------------------------------- evaluation
cdef double core_evaluate(Core* c, int player) noexcept nogil:
    # Measures the expected final score: points so far (birds, bonus cards as they stand,
    # goals scored, eggs, cache, tucks) plus potential (cards in hand up to the turns left,
    # food in supply, turns left weighted by the engine on the mat), turned into a win
    # probability by a softmax whose temperature shrinks as the game nears its end.
    cdef double est[MAXP]
    cdef double outv[MAXP]
    cdef double mx = -1e9, tot = 0.0, temp
    cdef int p, left, hand, birds, rr, k
    cdef Player* P
    if c.phase == PH_OVER:
        final_outcome(c, outv)
        return outv[player]
    if c.n == 1:
        return 1.0
    left = 0
    for rr in range(c.round, 5):
        left += 9 - rr
    for p in range(c.n):
        P = &c.pl[p]
        k = P.cubes + left - (9 - c.round) if c.phase == PH_PLAY else left
        if k < 0:
            k = 0
        hand = P.nhand if P.nhand < k else k
        birds = P.rows[0] + P.rows[1] + P.rows[2]
        est[p] = score(c, p) + 1.5 * hand + 0.35 * total_food(P) + k * (0.8 + 0.1 * birds)
        if est[p] > mx:
            mx = est[p]
    temp = 3.0 + 0.2 * left
    for p in range(c.n):
        est[p] = exp((est[p] - mx) / temp)
        tot += est[p]
    return est[player] / tot


cdef int core_playout(Core* c, Rng* rng, int max_plies) noexcept nogil:
    cdef int moves[MAX_MOVES]
    cdef int plies = 0, n
    while plies < max_plies:
        n = gen(c, moves)
        if n == 0:
            break
        if n == 1:
            apply(c, moves[0])
        else:
            apply(c, moves[rng_below(rng, n)])
            plies += 1
    return plies


# ---------------------------------------------------------------------------- the class
cdef class Wingspan(State):
    """A Wingspan (core set) position: the omniscient state at a decision node.

    >>> s = Wingspan.start(players=2, seed=1)
    >>> s.purpose, s.player, s.legal_names()
    ('SETUP_KEEP_BIRD', 0, ['no', 'yes'])
    """
    name = "wingspan"

    cdef Core c

    def __cinit__(self):
        self.n_players = 2
        self.hidden_info = True
        self.perft_expands_chance = False
        self.c.n = 2

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        return self.c.actor

    cdef bint over(self) noexcept nogil:
        return self.c.phase == PH_OVER

    cdef void outcome(self, double* out) noexcept nogil:
        final_outcome(&self.c, out)

    cdef uint64_t key(self) noexcept nogil:
        return core_key(&self.c)

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Wingspan>other).c
        self.n_players = other.n_players

    cdef int legal_moves(self, int* out) noexcept nogil:
        if self.c.phase == PH_OVER:
            return 0
        return gen(&self.c, out)

    cdef void play(self, int move) noexcept nogil:
        cdef int buf[MAX_MOVES]
        apply(&self.c, move)
        settle(&self.c, buf)

    cdef double evaluate(self, int player) noexcept nogil:
        return core_evaluate(&self.c, player)

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # The pending node is kept: when the observer is not the seat deciding, a sample
        # could leave that seat's node without its options (e.g. no playable card after it
        # chose to play); such samples are drawn again (at most 30 times, then settled).
        determinize_keep_node(&self.c, observer, rng)

    cdef int observe(self, int move, int observer) noexcept nogil:
        # Every decision is public (§6.1) except: another seat's setup choices, which bonus
        # card another seat keeps, and which hand card another seat tucks (unless the card
        # was publicly known in that hand).
        cdef int pu = self.c.purpose, local
        if observer == self.c.actor:
            return move
        if pu == P_SETUP_KEEP_BIRD or pu == P_SETUP_DISCARD_FOOD or pu == P_SETUP_KEEP_BONUS \
                or pu == P_BONUS_KEEP:
            return HIDDEN
        if pu == P_TUCK_FROM_HAND:
            local = move - O_CARD
            if local == CARD_SKIP or (0 <= local < NB and self.c.ctag[local] == TAG_P):
                return move
            return HIDDEN
        return move

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        return core_playout(&self.c, rng, max_plies)

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=None, seed=0, side="green"):
        """A new game (§1.3): the setup's chance events drawn from ``seed``; the first
        decision is seat 0's SETUP_KEEP_BIRD for its lowest dealt card."""
        cdef Wingspan s
        cdef Core* c
        cdef int i, j, tmp, p, b, k
        cdef uint64_t x
        cdef int tiles[8]
        cdef int buf[MAX_MOVES]
        n = 2 if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
            raise GameError(f"Wingspan is played by 1 to 5 players, not {players}")
        if side not in ("green", "blue"):
            raise GameError(f"the goal side is 'green' or 'blue', not {side!r}")
        s = _blank(cls, n)
        c = &s.c
        c.side = 0 if side == "green" else 1
        x = <uint64_t>(0 if seed is None else seed)
        c.rng = splitmix64(&x)
        for i in range(NB):
            c.deck[i] = i
        for i in range(NB - 1, 0, -1):
            j = rbelow(c, i + 1)
            tmp = c.deck[i]
            c.deck[i] = c.deck[j]
            c.deck[j] = tmp
        c.ndeck = NB
        for i in range(NB):
            c.cloc[i] = L_DECK
        refill_tray(c)
        roll_all(c)
        for i in range(8):
            tiles[i] = i
        for i in range(7, 0, -1):
            j = rbelow(c, i + 1)
            tmp = tiles[i]
            tiles[i] = tiles[j]
            tiles[j] = tmp
        for i in range(4):
            c.goals[i] = 2 * tiles[i] + rbelow(c, 2)
        for i in range(NBON):
            c.bdeck[i] = i
        for i in range(NBON - 1, 0, -1):
            j = rbelow(c, i + 1)
            tmp = c.bdeck[i]
            c.bdeck[i] = c.bdeck[j]
            c.bdeck[j] = tmp
        c.nbdeck = NBON
        for p in range(n):
            for k in range(5):
                b = deck_draw(c)
                hand_add(c, p, b, 0)
            for k in range(2):
                b = bonus_draw(c)
                c.bloc[b] = B_HELD
                c.bown[b] = p
            for k in range(5):
                c.pl[p].food[k] = 1
            c.pl[p].cubes = 8
        c.phase = PH_SETUP
        push(c, FR_SETUP, 0)
        settle(c, buf)
        return s

    @classmethod
    def parse(cls, text, settle=False):
        """Parse the position text of §8 (one JSON object; or a file holding it).  The text
        must be at a decision node; with ``settle=True`` a position whose pending step is
        automatic or forced is accepted and advanced to the next decision node (for
        building test positions by hand)."""
        return _parse(cls, text, settle)

    def text(self):
        return json.dumps(_to_dict(self), separators=(",", ":"))

    def view(self, int observer):
        """The position text as seat ``observer`` sees it (§8, observer view): hidden
        cards as -1, the decks as lists of -1, other seats' setup choices and the RNG removed."""
        if not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        return json.dumps(_mask(self, _to_dict(self), observer), separators=(",", ":"))

    # -- facts for tests, tools and people
    @property
    def purpose(self):
        """The purpose of the pending decision node (§7.3), or None when the game is over."""
        return None if self.c.phase == PH_OVER else PURPOSES[self.c.purpose]

    @property
    def kind(self):
        return None if self.c.phase == PH_OVER else KINDS[self.c.kind]

    @property
    def phase(self):
        return ("setup", "play", "over")[self.c.phase]

    @property
    def round(self):
        return self.c.round

    @property
    def turn_player(self):
        return self.c.cur

    def scores(self):
        """Each seat's points now (§5.2): the final score once the game is over."""
        return [score(&self.c, p) for p in range(self.c.n)]

    def score_parts(self, int p):
        """(birds, bonus, goals, eggs, cache, tucks) of seat p."""
        cdef int parts[6]
        score_parts(&self.c, p, parts)
        return tuple(parts[i] for i in range(6))

    def goal_points(self):
        return [[self.c.goal_pts[r][p] for p in range(self.c.n)] for r in range(self.c.nscored)]

    def local_moves(self):
        """The legal moves as local values of the node's kind (§7.2)."""
        off = KIND_OFF[self.c.kind]
        return [m - off for m in self.legal()]

    def observe_move(self, int move, int observer):
        """What ``observer`` sees of ``move`` played here: the id, or -1 (HIDDEN)."""
        return self.observe(move, observer)

    def bonus_score(self, int p, int bonus_id):
        return bonus_points(&self.c, p, bonus_id)

    def goal_count(self, int p, int side_id):
        return goal_count(&self.c, p, side_id)

    def move_name(self, int move):
        return move_name(move)

    def parse_move(self, name):
        return parse_move(name)

    def render(self, observer=None):
        if observer is not None and not 0 <= observer < self.c.n:
            raise GameError(f"observer must be a seat 0..{self.c.n - 1}, not {observer}")
        return _render(self, observer)

    def __reduce__(self):
        return (_parse_text, (type(self), self.text()))


def _parse_text(cls, text):
    return _parse(cls, text)


cdef Wingspan _blank(cls, int n):
    cdef Wingspan s = cls.__new__(cls)
    cdef Core* c = &s.c
    cdef int p, k
    memset(c, 0, sizeof(Core))
    c.n = n
    s.n_players = n
    c.round = 1
    for k in range(3):
        c.tray[k] = -1
    for p in range(MAXP):
        for k in range(15):
            c.pl[p].bird[k] = -1
        c.pl[p].sbonus = -1
    return s


# ---------------------------------------------------------------------------- move names
_DIE_NAMES = ("die:I", "die:S", "die:F", "die:R", "die:M", "die:IS-I", "die:IS-S", "reroll", "die:skip")
_ACTION_NAMES = ("play", "food", "eggs", "cards")


def move_name(int m):
    """The name of a global move id (§7.2): 'yes', 'food', 'card:blue-jay', 'slot:F2', ..."""
    if m < 0 or m >= NMOVEIDS:
        raise MoveError(f"{m} is not a Wingspan move id (0..{NMOVEIDS - 1})")
    if m < 2:
        return ("no", "yes")[m]
    if m < O_CARD:
        return _ACTION_NAMES[m - O_ACTION]
    if m < O_HABITAT:
        return "card:skip" if m - O_CARD == CARD_SKIP else "card:" + BIRD_SLUGS[m - O_CARD]
    if m < O_SLOT:
        return "hab:skip" if m - O_HABITAT == HAB_SKIP else "hab:" + HABS[m - O_HABITAT]
    if m < O_FOOD:
        s = m - O_SLOT
        return "slot:skip" if s == SLOT_SKIP else f"slot:{HAB_LETTERS[s // 5]}{s % 5 + 1}"
    if m < O_DIE:
        return "food:skip" if m - O_FOOD == FOOD_SKIP else "food:" + FOODS[m - O_FOOD]
    if m < O_SOURCE:
        return _DIE_NAMES[m - O_DIE]
    if m < O_BONUS:
        return "deck" if m - O_SOURCE == 3 else f"tray:{m - O_SOURCE + 1}"
    if m < O_PLAYER:
        return "bonus:" + BONUS_SLUGS[m - O_BONUS]
    return "seat:skip" if m - O_PLAYER == PLAYER_SKIP else f"seat:{m - O_PLAYER}"


_NAME_TO_ID = {}


def _build_names():
    for m in range(NMOVEIDS):
        _NAME_TO_ID[move_name(m).lower()] = m
    for b in range(NB):
        _NAME_TO_ID[f"card:{b}"] = O_CARD + b
    for b in range(NBON):
        _NAME_TO_ID[f"bonus:{b}"] = O_BONUS + b


_build_names()


def parse_move(name):
    """A move name (or a global id as digits) -> the global move id; MoveError otherwise."""
    if not isinstance(name, str):
        raise MoveError(f"a move name must be text, not {type(name).__name__}")
    key = name.strip().lower()
    if key.isdigit():
        m = int(key)
        if m < NMOVEIDS:
            return m
        raise MoveError(f"{name!r}: move ids are 0..{NMOVEIDS - 1}")
    if key.startswith("card:") or key.startswith("bonus:"):
        head, _, rest = key.partition(":")
        key = head + ":" + _wd.slug(rest)
    if key in _NAME_TO_ID:
        return _NAME_TO_ID[key]
    raise MoveError(f"{name!r} is not a Wingspan move (e.g. yes, play, food, card:blue-jay, "
                    f"hab:forest, slot:F1, food:S, die:IS-I, reroll, tray:2, deck, bonus:anatomist, seat:1)")


# ---------------------------------------------------------------------------- position text (§8)
_TOP_KEYS = ("game", "v", "n", "side", "goals", "phase", "round", "first", "t", "cur", "deck",
             "deck_epoch", "deck_forms", "discard", "tray", "feeder", "bonus_deck", "bonus_epoch",
             "bonus_forms", "bonus_discard", "goal_pts", "draft", "players", "stack", "rng")
_PLAYER_KEYS = ("hand", "bonus", "food", "cubes", "mat", "pink_used", "owe")
_STAGES = ("keep", "food", "bonus")
_EVENTS = ("", "a", "b", "c", "d")


def _hand_tag(int t):
    return "p" if t == TAG_P else t


def _tuck_tag(int kind, int t):
    return "p" if kind == TK_P else (f"h{t}" if kind == TK_H else f"d{t}")


def _st_dict(Wingspan s, int i):
    cdef Frame* F = &s.c.st[i]
    cdef int v = B_VERB[F.bird][F.step] if 0 <= F.bird < NB and F.step < 2 else 0
    d = {}
    if v == V_GAIN_FEEDER:
        if F.food >= 0:
            d["food"] = F.food
    elif v == V_GAIN_SUPPLY_WILD:
        if F.k:
            d["k"] = F.k
            d["last"] = F.slast
    elif v == V_GAIN_ALL_FEEDER:
        if F.k:
            d["k"] = F.k
    elif v == V_TRADE_FOOD:
        if F.spaid >= 0:
            d["paid"] = F.spaid
    elif v == V_EACH_PLAYER_GAIN_FEEDER or v == V_FEWEST_IN:
        if F.norder:
            d["order"] = [F.order[j] for j in range(F.norder)]
            d["i"] = F.i
    elif v == V_ALL_PLAYERS_LAY:
        if F.norder:
            d["order"] = [F.order[j] for j in range(F.norder)]
            d["i"] = F.i
            d["first"] = F.first
    elif v == V_DRAW:
        if F.k:
            d["k"] = F.k
            d["last"] = F.slast
            d["deck"] = F.sdeck
    elif v == V_DRAFT:
        if F.k or F.norder:
            d["k"] = F.k
            d["last"] = F.slast
            d["deck"] = F.sdeck
        if F.norder:
            d["order"] = [F.order[j] for j in range(F.norder)]
            d["i"] = F.i
    elif v == V_DRAW_BONUS:
        if F.k:
            d["drawn"] = [[F.drawn[j], s.c.btag[F.drawn[j]]] for j in range(F.ndrawn)]
    return d


def _frame_dict(Wingspan s, int i):
    cdef Frame* F = &s.c.st[i]
    cdef int f = F.f, k, q, slot
    name = FRAME_NAMES[f]
    if f == FR_SETUP:
        return {"f": name, "seat": F.seat, "stage": _STAGES[F.stage], "i": F.i}
    if f == FR_TURN or f == FR_ACT:
        return {"f": name, "seat": F.seat}
    if f == FR_PLAY:
        return {"f": name, "seat": F.seat, "src": "extra" if F.src else "act", "req": F.req,
                "card": F.card, "hab": F.hab, "egg": F.egg, "last": F.last,
                "paid": [F.paid[k] for k in range(5)]}
    if f == FR_MAT:
        return {"f": name, "seat": F.seat, "hab": F.hab, "n": F.n, "trade": F.trade, "last": F.last,
                "deck": F.deck, "rodent": F.rodent}
    if f == FR_ROW:
        return {"f": name, "seat": F.seat, "hab": F.hab, "col": F.col}
    if f == FR_POW:
        return {"f": name, "seat": F.seat, "slot": F.slot, "bird": F.bird, "step": F.step, "did": F.did,
                "asked": F.asked, "rep": F.rep, "st": _st_dict(s, i)}
    if f == FR_PINK:
        qs = []
        for k in range(1, s.c.n):
            q = (F.active + k) % s.c.n
            for slot in range(15):
                if (F.q[q] >> slot) & 1:
                    qs.append([q, slot])
        return {"f": name, "ev": _EVENTS[F.ev], "hab": F.hab, "active": F.active, "q": qs}
    if f == FR_EOT:
        return {"f": name, "seat": F.seat, "last": F.last}
    return {"f": name}


def _player_dict(Wingspan s, int p):
    cdef Core* c = &s.c
    cdef Player* P = &c.pl[p]
    cdef int b, h, col, slot, t
    hand = [[b, _hand_tag(c.ctag[b])] for b in range(NB) if in_hand(P, b)]
    bonus = [[b, c.btag[b]] for b in range(NBON) if c.bloc[b] == B_HELD and c.bown[b] == p]
    mat = []
    for h in range(3):
        row = []
        for col in range(P.rows[h]):
            slot = 5 * h + col
            row.append({"id": P.bird[slot], "egg": P.egg[slot], "cache": [P.cache[slot][t] for t in range(5)],
                        "tuck": [[b, _tuck_tag(c.ctk[b], c.ctag[b])] for b in range(NB)
                                 if c.cloc[b] == L_TUCK and c.cown[b] == p and c.cslot[b] == slot]})
        mat.append(row)
    d = {"hand": hand, "bonus": bonus, "food": [P.food[t] for t in range(5)], "cubes": P.cubes,
         "mat": mat, "pink_used": [slot for slot in range(15) if (P.pink_used >> slot) & 1], "owe": P.owe}
    if c.phase == PH_SETUP and c.nst > 0:
        F = _setup_frame(s)
        seat, stage, i = F
        if p < seat or (p == seat and (stage > 0 or i > 0)):
            dealt = [b for b in range(NB) if in_hand(P, b)]
            decided = 5 if (p < seat or stage > 0) else i
            d["setup"] = {"keep": [dealt[k] for k in range(min(decided, len(dealt))) if (P.skeep >> k) & 1],
                          "food": [P.sfood[t] for t in range(5)], "bonus": P.sbonus}
    return d


def _setup_frame(Wingspan s):
    cdef Frame* F = &s.c.st[s.c.nst - 1]
    return F.seat, F.stage, F.i


def _to_dict(Wingspan s):
    cdef Core* c = &s.c
    cdef int e, i, f
    forms = []
    for e in range(1, c.nforms + 1):
        forms.append([c.forms[i] for i in range(c.form_end[e - 1], c.form_end[e])])
    bforms = []
    for e in range(1, c.nbforms + 1):
        bforms.append([[c.bf_id[i], c.bf_tag[i], c.bf_who[i]] for i in range(c.bf_end[e - 1], c.bf_end[e])])
    feeder = []
    for f in range(6):
        feeder += [f] * c.fd[f]
    return {
        "game": "wingspan-core", "v": 1, "n": c.n, "side": ("green", "blue")[c.side],
        "goals": [c.goals[i] for i in range(4)],
        "phase": ("setup", "play", "over")[c.phase], "round": c.round, "first": c.first, "t": c.t,
        "cur": c.cur,
        "deck": [c.deck[i] for i in range(c.ndeck - 1, -1, -1)], "deck_epoch": c.depoch,
        "deck_forms": forms, "discard": [c.disc[i] for i in range(c.ndisc)],
        "tray": [c.tray[i] for i in range(3)], "feeder": feeder,
        "bonus_deck": [c.bdeck[i] for i in range(c.nbdeck - 1, -1, -1)], "bonus_epoch": c.bepoch,
        "bonus_forms": bforms,
        "bonus_discard": [[c.bdisc[i], c.btag[c.bdisc[i]], c.bown[c.bdisc[i]]] for i in range(c.nbdisc)],
        "goal_pts": [[c.goal_pts[e][i] for i in range(c.n)] for e in range(c.nscored)],
        "draft": [c.draft[i] for i in range(c.ndraft)],
        "players": [_player_dict(s, i) for i in range(c.n)],
        "stack": [_frame_dict(s, i) for i in range(c.nst)],
        "rng": f"{c.rng:016x}",
    }


def _hidden_last(entries, hidden):
    """Known entries first (as listed), then the hidden ones as [-1, tag] sorted by tag, so
    that a masked list does not show where a hidden id would sort."""
    known = [e for e, h in zip(entries, hidden) if not h]
    unknown = sorted(([-1, e[1]] for e, h in zip(entries, hidden) if h), key=lambda x: str(x[1]))
    return known + unknown


def _mask(Wingspan s, d, int o):
    d = json.loads(json.dumps(d))
    for q, pd in enumerate(d["players"]):
        for row in pd["mat"]:
            for bird in row:
                bird["tuck"] = _hidden_last(bird["tuck"], [
                    isinstance(t, str) and (t[0] == "d" or (t[0] == "h" and q != o)) for _, t in bird["tuck"]])
        if q != o:
            pd["hand"] = _hidden_last(pd["hand"], [t != "p" for _, t in pd["hand"]])
            pd["bonus"] = sorted([[-1, t] for _, t in pd["bonus"]], key=lambda x: x[1])
            pd.pop("setup", None)
    d["deck"] = [-1] * len(d["deck"])
    d["bonus_deck"] = [-1] * len(d["bonus_deck"])
    d["bonus_discard"] = [[b if w == o else -1, t, w] for b, t, w in d["bonus_discard"]]
    d["bonus_forms"] = [[[b if w == o else -1, t, w] for b, t, w in form] for form in d["bonus_forms"]]
    for fr in d["stack"]:
        if fr["f"] == "POW" and fr["seat"] != o and "drawn" in fr["st"]:
            fr["st"]["drawn"] = [[-1, t] for _, t in fr["st"]["drawn"]]
    d.pop("rng")
    d["observer"] = o
    return d


class _Fault(Exception):
    pass


def _fault(msg):
    raise PositionError(msg)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v, where, lo, hi):
    if not _is_int(v):
        _fault(f"{where} must be an integer, got {json.dumps(v)}")
    if not lo <= v <= hi:
        _fault(f"{where} must be {lo}..{hi}, got {v}")
    return v


def _lst(v, where, lo=0, hi=None):
    if not isinstance(v, list):
        _fault(f"{where} must be a list, got {json.dumps(v)[:40]}")
    if len(v) < lo or (hi is not None and len(v) > hi):
        if hi == lo:
            _fault(f"{where} must have {lo} entries, got {len(v)}")
        _fault(f"{where} must have {lo}..{hi} entries, got {len(v)}")
    return v


def _obj(v, where, keys, optional=()):
    if not isinstance(v, dict):
        _fault(f"{where} must be an object, got {json.dumps(v)[:40]}")
    for k in v:
        if k not in keys and k not in optional:
            _fault(f"{where} has an unknown key {k!r} (keys: {', '.join(keys)})")
    for k in keys:
        if k not in v:
            _fault(f"{where} misses the key {k!r}")
    return v


def _bird(v, where):
    return _int(v, where, 0, NB - 1)


def _bird_name(b):
    return f"bird {b} ({BIRD_NAMES[b]})"


def _hand_tag_in(v, where, int depoch):
    if v == "p":
        return TAG_P
    return _int(v, f"{where} (a hand tag: \"p\" or a deck epoch)", 0, depoch)


def _tuck_tag_in(v, where, int depoch):
    if v == "p":
        return TK_P, TAG_P
    if isinstance(v, str) and len(v) >= 2 and v[0] in "hd" and v[1:].isdigit() and (len(v) == 2 or v[1] != "0"):
        e = int(v[1:])
        if e <= depoch:
            return (TK_H if v[0] == "h" else TK_D), e
    _fault(f"{where} must be a tuck tag \"p\", \"h<e>\" or \"d<e>\" with e a deck epoch 0..{depoch}, got {json.dumps(v)}")


def _parse(cls, text, settle=False):
    import os
    if not isinstance(text, str):
        _fault("a Wingspan position must be text (a JSON object)")
    src = text.strip()
    if not src.startswith("{") and len(src) < 4096 and os.path.isfile(src):
        try:
            with open(src, encoding="utf-8") as fh:
                src = fh.read().strip()
        except OSError as exc:
            _fault(f"cannot read the position file {text!r}: {exc.strerror}")
    try:
        d = json.loads(src)
    except ValueError as exc:
        _fault(f"the position is not valid JSON: {exc}")
    except RecursionError:
        _fault("the position is not valid JSON: nested too deeply")
    if not isinstance(d, dict):
        _fault("a Wingspan position is a JSON object {\"game\":\"wingspan-core\",...}")
    return _from_dict(cls, d, settle)


def _from_dict(cls, d, advance=False):
    cdef Wingspan s
    cdef Core* c
    cdef Player* P
    cdef Frame* F
    cdef int i, j, k, p, b, e, h, t, slot, n
    cdef int buf[MAX_MOVES]
    cdef Wingspan probe
    for key in d:
        if key not in _TOP_KEYS:
            _fault(f"unknown key {key!r} (keys: {', '.join(_TOP_KEYS)})")
    for key in _TOP_KEYS:
        if key not in d:
            _fault(f"missing key {key!r}")
    if list(d) != list(_TOP_KEYS):
        _fault("the keys must come in the order " + ", ".join(_TOP_KEYS))
    if d["game"] != "wingspan-core":
        _fault(f"'game' must be \"wingspan-core\", got {json.dumps(d['game'])}")
    if d["v"] != 1 or not _is_int(d["v"]):
        _fault(f"'v' must be 1, got {json.dumps(d['v'])}")
    n = _int(d["n"], "'n' (players)", 1, MAXP)
    if d["side"] not in ("green", "blue"):
        _fault(f"'side' must be \"green\" or \"blue\", got {json.dumps(d['side'])}")
    goals = _lst(d["goals"], "'goals'", 4, 4)
    for i, g in enumerate(goals):
        _int(g, f"goals[{i}]", 0, 15)
    if len({g // 2 for g in goals}) != 4:
        _fault(f"'goals' {goals} must use 4 different goal tiles (side ids 2*tile and 2*tile+1 are one tile)")
    phase = d["phase"]
    if phase not in ("setup", "play", "over"):
        _fault(f"'phase' must be \"setup\", \"play\" or \"over\", got {json.dumps(phase)}")
    ph = ("setup", "play", "over").index(phase)
    rnd_ = _int(d["round"], "'round'", 1, 4)
    first = _int(d["first"], "'first'", 0, n - 1)
    tt = _int(d["t"], "'t'", 0, 5 * n if ph == PH_OVER else 8 * n)
    cur = _int(d["cur"], "'cur'", 0, n - 1)
    # -- cards
    deck = _lst(d["deck"], "'deck'", 0, NB)
    for i, b in enumerate(deck):
        _bird(b, f"deck[{i}]")
    depoch = _int(d["deck_epoch"], "'deck_epoch'", 0, MAXEP - 1)
    forms = _lst(d["deck_forms"], "'deck_forms'")
    if len(forms) != depoch:
        _fault(f"'deck_forms' must list one formation per reshuffle ({depoch}), got {len(forms)}")
    total = 0
    for e, form in enumerate(forms):
        _lst(form, f"deck_forms[{e}]", 1, NB)
        for i, b in enumerate(form):
            _bird(b, f"deck_forms[{e}][{i}]")
        if len(set(form)) != len(form):
            _fault(f"deck_forms[{e}] lists a card twice")
        total += len(form)
    if total > FORMCAP:
        _fault(f"'deck_forms' holds {total} cards, more than this engine records ({FORMCAP})")
    discard = _lst(d["discard"], "'discard'", 0, NB)
    for i, b in enumerate(discard):
        _bird(b, f"discard[{i}]")
    tray = _lst(d["tray"], "'tray'", 3, 3)
    for i, b in enumerate(tray):
        _int(b, f"tray[{i}]", -1, NB - 1)
    feeder = _lst(d["feeder"], "'feeder'", 1, 5)
    for i, f in enumerate(feeder):
        _int(f, f"feeder[{i}] (a die face)", 0, 5)
    if feeder != sorted(feeder):
        _fault(f"'feeder' {feeder} must list the faces in ascending order")
    bdeck = _lst(d["bonus_deck"], "'bonus_deck'", 0, NBON)
    for i, b in enumerate(bdeck):
        _int(b, f"bonus_deck[{i}]", 0, NBON - 1)
    bepoch = _int(d["bonus_epoch"], "'bonus_epoch'", 0, MAXBEP)
    bforms = _lst(d["bonus_forms"], "'bonus_forms'")
    if len(bforms) != bepoch:
        _fault(f"'bonus_forms' must list one formation per bonus reshuffle ({bepoch}), got {len(bforms)}")
    total = 0
    for e, form in enumerate(bforms):
        _lst(form, f"bonus_forms[{e}]", 1, NBON)
        for i, ent in enumerate(form):
            _lst(ent, f"bonus_forms[{e}][{i}]", 3, 3)
            _int(ent[0], f"bonus_forms[{e}][{i}] card", 0, NBON - 1)
            _int(ent[1], f"bonus_forms[{e}][{i}] epoch tag", 0, e)
            _int(ent[2], f"bonus_forms[{e}][{i}] discarder", 0, n - 1)
        if len({ent[0] for ent in form}) != len(form):
            _fault(f"bonus_forms[{e}] lists a card twice")
        total += len(form)
    if total > BFCAP:
        _fault(f"'bonus_forms' holds {total} entries, more than this engine records ({BFCAP})")
    bdisc = _lst(d["bonus_discard"], "'bonus_discard'", 0, NBON)
    for i, ent in enumerate(bdisc):
        _lst(ent, f"bonus_discard[{i}]", 3, 3)
        _int(ent[0], f"bonus_discard[{i}] card", 0, NBON - 1)
        _int(ent[1], f"bonus_discard[{i}] epoch tag", 0, bepoch)
        _int(ent[2], f"bonus_discard[{i}] discarder", 0, n - 1)
    nscored = {PH_SETUP: 0, PH_PLAY: rnd_ - 1, PH_OVER: 4}[ph]
    gp = _lst(d["goal_pts"], "'goal_pts'")
    if len(gp) != nscored:
        _fault(f"'goal_pts' must hold the {nscored} rounds scored so far, got {len(gp)}")
    for r, row in enumerate(gp):
        _lst(row, f"goal_pts[{r}]", n, n)
        for p, v in enumerate(row):
            _int(v, f"goal_pts[{r}][{p}]", 0, 7)
    draft = _lst(d["draft"], "'draft'", 0, n + 1)
    for i, b in enumerate(draft):
        _bird(b, f"draft[{i}]")
    players = _lst(d["players"], "'players'", n, n)
    pls = []
    for p, pd in enumerate(players):
        w = f"players[{p}]"
        _obj(pd, w, _PLAYER_KEYS, ("setup",))
        if list(pd)[:7] != list(_PLAYER_KEYS):
            _fault(f"{w}: the keys must come in the order {', '.join(_PLAYER_KEYS)}")
        hand = []
        for i, ent in enumerate(_lst(pd["hand"], f"{w}.hand", 0, NB)):
            _lst(ent, f"{w}.hand[{i}]", 2, 2)
            hand.append((_bird(ent[0], f"{w}.hand[{i}] card"), _hand_tag_in(ent[1], f"{w}.hand[{i}] tag", depoch)))
        bon = []
        for i, ent in enumerate(_lst(pd["bonus"], f"{w}.bonus", 0, NBON)):
            _lst(ent, f"{w}.bonus[{i}]", 2, 2)
            bon.append((_int(ent[0], f"{w}.bonus[{i}] card", 0, NBON - 1),
                        _int(ent[1], f"{w}.bonus[{i}] epoch tag", 0, bepoch)))
        food = _lst(pd["food"], f"{w}.food", 5, 5)
        for i, v in enumerate(food):
            _int(v, f"{w}.food[{i}]", 0, 9999)
        cubes = _int(pd["cubes"], f"{w}.cubes", 0, 8)
        mat = _lst(pd["mat"], f"{w}.mat", 3, 3)
        rows = []
        for h, row in enumerate(mat):
            _lst(row, f"{w}.mat[{h}] ({HABS[h]})", 0, 5)
            birds = []
            for col, bd in enumerate(row):
                bw = f"{w}.mat[{h}][{col}]"
                _obj(bd, bw, ("id", "egg", "cache", "tuck"))
                if list(bd) != ["id", "egg", "cache", "tuck"]:
                    _fault(f"{bw}: the keys must come in the order id, egg, cache, tuck")
                b = _bird(bd["id"], f"{bw}.id")
                if not (B_HAB[b] >> h) & 1:
                    _fault(f"{bw}: {_bird_name(b)} cannot live in the {HABS[h]}")
                egg = _int(bd["egg"], f"{bw}.egg ({_bird_name(b)} holds at most {B_EGGS[b]})", 0, B_EGGS[b])
                cache = _lst(bd["cache"], f"{bw}.cache", 5, 5)
                for i, v in enumerate(cache):
                    _int(v, f"{bw}.cache[{i}]", 0, 9999)
                tucks = []
                for i, ent in enumerate(_lst(bd["tuck"], f"{bw}.tuck", 0, NB)):
                    _lst(ent, f"{bw}.tuck[{i}]", 2, 2)
                    tb = _bird(ent[0], f"{bw}.tuck[{i}] card")
                    kind, tag = _tuck_tag_in(ent[1], f"{bw}.tuck[{i}] tag", depoch)
                    tucks.append((tb, kind, tag))
                birds.append((b, egg, list(cache), tucks))
            rows.append(birds)
        pink = _lst(pd["pink_used"], f"{w}.pink_used", 0, 15)
        for i, slot in enumerate(pink):
            _int(slot, f"{w}.pink_used[{i}]", 0, 14)
            h, col = slot // 5, slot % 5
            if col >= len(rows[h]) or B_COL[rows[h][col][0]] != COL_PINK:
                _fault(f"{w}.pink_used lists slot {slot}, which holds no pink bird")
        if len(set(pink)) != len(pink) or pink != sorted(pink):
            _fault(f"{w}.pink_used must list distinct slots in ascending order")
        owe = _int(pd["owe"], f"{w}.owe", 0, 99)
        setup = pd.get("setup")
        if setup is not None:
            if ph != PH_SETUP:
                _fault(f"{w}.setup belongs to the setup phase only")
            _obj(setup, f"{w}.setup", ("keep", "food", "bonus"))
            for i, b in enumerate(_lst(setup["keep"], f"{w}.setup.keep", 0, 5)):
                _bird(b, f"{w}.setup.keep[{i}]")
            for i, v in enumerate(_lst(setup["food"], f"{w}.setup.food", 5, 5)):
                _int(v, f"{w}.setup.food[{i}]", 0, 1)
            _int(setup["bonus"], f"{w}.setup.bonus", -1, NBON - 1)
        pls.append({"hand": hand, "bonus": bon, "food": list(food), "cubes": cubes, "rows": rows,
                    "pink": pink, "owe": owe, "setup": setup})
    stack = _lst(d["stack"], "'stack'", 0, MAXF - 2)
    rng = d["rng"]
    if not isinstance(rng, str) or len(rng) != 16 or any(ch not in "0123456789abcdef" for ch in rng):
        _fault(f"'rng' must be 16 lower-case hex digits, got {json.dumps(rng)}")
    # -- conservation: every bird and every bonus card exactly once
    where = {}

    def put(b, w):
        if b in where:
            _fault(f"{_bird_name(b)} is in two places: {where[b]} and {w}")
        where[b] = w

    for b in deck:
        put(b, "the deck")
    for b in discard:
        put(b, "the discard pile")
    for i, b in enumerate(tray):
        if b >= 0:
            put(b, f"tray slot {i}")
    for b in draft:
        put(b, "the draft pool")
    for p, pl in enumerate(pls):
        for b, _ in pl["hand"]:
            put(b, f"players[{p}].hand")
        for h, row in enumerate(pl["rows"]):
            for col, (b, _, _, tucks) in enumerate(row):
                put(b, f"players[{p}].mat[{h}][{col}]")
                for tb, _, _ in tucks:
                    put(tb, f"a tuck under players[{p}].mat[{h}][{col}]")
    for b in range(NB):
        if b not in where:
            _fault(f"{_bird_name(b)} is missing (every bird is in the deck, the discard pile, the tray, "
                   f"a hand, a mat, a tuck or the draft pool)")
    bwhere = {}

    def bput(b, w):
        if b in bwhere:
            _fault(f"bonus card {b} ({BONUS_NAMES[b]}) is in two places: {bwhere[b]} and {w}")
        bwhere[b] = w

    for b in bdeck:
        bput(b, "the bonus deck")
    for b, _, _ in bdisc:
        bput(b, "the bonus discard pile")
    for p, pl in enumerate(pls):
        for b, _ in pl["bonus"]:
            bput(b, f"players[{p}].bonus")
    pending = {}
    for i, fr in enumerate(stack):
        if isinstance(fr, dict) and fr.get("f") == "POW" and isinstance(fr.get("st"), dict) and "drawn" in fr["st"]:
            dr = _lst(fr["st"]["drawn"], f"stack[{i}].st.drawn", 2, 2)
            for j, ent in enumerate(dr):
                _lst(ent, f"stack[{i}].st.drawn[{j}]", 2, 2)
                bb = _int(ent[0], f"stack[{i}].st.drawn[{j}] card", 0, NBON - 1)
                _int(ent[1], f"stack[{i}].st.drawn[{j}] epoch tag", 0, bepoch)
                bput(bb, f"stack[{i}].st.drawn")
                pending[bb] = ent[1]
    for b in range(NBON):
        if b not in bwhere:
            _fault(f"bonus card {b} ({BONUS_NAMES[b]}) is missing (every bonus card is in the bonus deck, "
                   f"the bonus discard pile, a player's bonus cards or a pending draw)")
    # -- build
    s = _blank(cls, n)
    c = &s.c
    c.side = 0 if d["side"] == "green" else 1
    for i in range(4):
        c.goals[i] = goals[i]
    c.phase = ph
    c.round = rnd_
    c.first = first
    c.t = tt
    c.cur = cur
    c.nscored = nscored
    for r, row in enumerate(gp):
        for p, v in enumerate(row):
            c.goal_pts[r][p] = v
    c.rng = int(rng, 16)
    c.ndeck = len(deck)
    for i, b in enumerate(deck):
        c.deck[c.ndeck - 1 - i] = b
        c.cloc[b] = L_DECK
    c.depoch = depoch
    c.nforms = depoch
    c.form_end[0] = 0
    k = 0
    for e, form in enumerate(forms):
        for b in form:
            c.forms[k] = b
            k += 1
        c.form_end[e + 1] = k
    c.formlen = k
    for b in discard:
        c.disc[c.ndisc] = b
        c.ndisc += 1
        c.cloc[b] = L_DISC
    for i, b in enumerate(tray):
        c.tray[i] = b
        if b >= 0:
            c.cloc[b] = L_TRAY
            c.cslot[b] = i
    for b in draft:
        c.draft[c.ndraft] = b
        c.ndraft += 1
        c.cloc[b] = L_DRAFT
    for f in feeder:
        c.fd[f] += 1
    c.nfd = len(feeder)
    c.nbdeck = len(bdeck)
    for i, b in enumerate(bdeck):
        c.bdeck[c.nbdeck - 1 - i] = b
        c.bloc[b] = B_DECK
    c.bepoch = bepoch
    c.nbforms = bepoch
    k = 0
    for e, form in enumerate(bforms):
        for b, tg, who in form:
            c.bf_id[k] = b
            c.bf_tag[k] = tg
            c.bf_who[k] = who
            k += 1
        c.bf_end[e + 1] = k
    c.bflen = k
    for b, tg, who in bdisc:
        c.bdisc[c.nbdisc] = b
        c.nbdisc += 1
        c.bloc[b] = B_DISC
        c.btag[b] = tg
        c.bown[b] = who
    for b, tg in pending.items():
        c.bloc[b] = B_PEND
        c.btag[b] = tg
    for p, pl in enumerate(pls):
        P = &c.pl[p]
        for b, tg in pl["hand"]:
            hand_add(c, p, b, tg)
        for b, tg in pl["bonus"]:
            c.bloc[b] = B_HELD
            c.bown[b] = p
            c.btag[b] = tg
        for t in range(5):
            P.food[t] = pl["food"][t]
        P.cubes = pl["cubes"]
        for h, row in enumerate(pl["rows"]):
            P.rows[h] = len(row)
            for col, (b, egg, cache, tucks) in enumerate(row):
                slot = 5 * h + col
                P.bird[slot] = b
                P.egg[slot] = egg
                for t in range(5):
                    P.cache[slot][t] = cache[t]
                c.cloc[b] = L_MAT
                c.cown[b] = p
                c.cslot[b] = slot
                for tb, kind, tg in tucks:
                    tuck_card(c, p, slot, tb, kind, tg)
        for slot in pl["pink"]:
            P.pink_used |= 1 << slot
        P.owe = pl["owe"]
    _check_phase(s, d, pls)
    _build_stack(s, stack, pls)
    # -- a decision node, in canonical form
    probe = s.clone()
    text0 = s.text()
    k = settle(&probe.c, buf)
    if not advance and (probe.text() != text0 or (probe.c.phase != PH_OVER and k < 2)):
        _fault("the position is not at a decision node: its pending step is automatic or forced "
               "(positions are written where a seat has at least two moves, §7.1)")
    s.c = probe.c
    canon = json.dumps(d, separators=(",", ":"))
    if canon != text0:
        _fault("the position is not in canonical form: " + _first_difference(d, json.loads(text0)))
    return s


def _first_difference(a, b, path="position"):
    if type(a) != type(b):
        return f"{path} should be {json.dumps(b)[:80]}, not {json.dumps(a)[:80]}"
    if isinstance(a, dict):
        for k in list(b) + [k for k in a if k not in b]:
            if k not in a:
                return f"{path} misses {k!r}"
            if k not in b:
                return f"{path} has an unexpected {k!r}"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
        if list(a) != list(b):
            return f"{path}: the keys must come in the order {', '.join(b)}"
        return f"{path} differs"
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} should be {json.dumps(b)[:120]} (canonical order and content), not {json.dumps(a)[:120]}"
        for i in range(len(a)):
            if a[i] != b[i]:
                return _first_difference(a[i], b[i], f"{path}[{i}]")
    return f"{path} should be {json.dumps(b)[:80]}, not {json.dumps(a)[:80]}"


def _check_phase(Wingspan s, d, pls):
    cdef Core* c = &s.c
    cdef int n = c.n, p
    if c.phase == PH_SETUP:
        if c.round != 1 or c.first != 0 or c.t != 0 or c.cur != 0:
            _fault("during the setup 'round' is 1 and 'first', 't' and 'cur' are 0")
        if c.depoch or c.bepoch or c.ndisc or c.nbdisc or c.ndraft:
            _fault("during the setup nothing has been discarded or reshuffled yet (discard piles, "
                   "epochs and the draft pool are empty)")
        if c.tray[0] < 0 or c.tray[1] < 0 or c.tray[2] < 0:
            _fault("during the setup the tray holds 3 cards")
        for p, pl in enumerate(pls):
            w = f"players[{p}]"
            if len(pl["hand"]) != 5 or any(tg != 0 for _, tg in pl["hand"]):
                _fault(f"{w}.hand: during the setup a player holds the 5 dealt cards (tag 0)")
            if len(pl["bonus"]) != 2 or any(tg != 0 for _, tg in pl["bonus"]):
                _fault(f"{w}.bonus: during the setup a player holds the 2 dealt bonus cards (tag 0)")
            if pl["food"] != [1, 1, 1, 1, 1]:
                _fault(f"{w}.food: during the setup a player holds one token of each type")
            if pl["cubes"] != 8 or pl["owe"] != 0 or any(pl["rows"]) or pl["pink"]:
                _fault(f"{w}: during the setup a player has 8 cubes, an empty mat and owes nothing")
        return
    if c.phase == PH_OVER:
        if c.round != 4 or c.first != 3 % n or c.t != 5 * n or c.cur != (c.first + 5 * n - 1) % n:
            _fault(f"a finished game has round 4, first {3 % n}, t {5 * n} and cur {(3 % n + 5 * n - 1) % n}")
        if c.ndraft:
            _fault("a finished game has an empty draft pool")
        for p, pl in enumerate(pls):
            if pl["cubes"] != 0 or pl["owe"] != 0:
                _fault(f"players[{p}]: after the game no cubes are left and nothing is owed")
        return
    if c.first != (c.round - 1) % n:
        _fault(f"the first player of round {c.round} is seat {(c.round - 1) % n}, not {c.first}")
    if c.t >= n * (9 - c.round):
        _fault(f"round {c.round} has {n * (9 - c.round)} turns (t 0..{n * (9 - c.round) - 1}), got t {c.t}")
    if c.cur != (c.first + c.t) % n:
        _fault(f"'cur' must be (first + t) mod n = {(c.first + c.t) % n}, got {c.cur}")
    for p, pl in enumerate(pls):
        if p != c.cur and pl["owe"]:
            _fault(f"players[{p}].owe: only the player whose turn it is owes discards")


_FRAME_KEYS = {
    "SETUP": ("f", "seat", "stage", "i"), "TURN": ("f", "seat"), "ACT": ("f", "seat"),
    "PLAY": ("f", "seat", "src", "req", "card", "hab", "egg", "last", "paid"),
    "MAT": ("f", "seat", "hab", "n", "trade", "last", "deck", "rodent"),
    "ROW": ("f", "seat", "hab", "col"),
    "POW": ("f", "seat", "slot", "bird", "step", "did", "asked", "rep", "st"),
    "PINK": ("f", "ev", "hab", "active", "q"), "EOT": ("f", "seat", "last"), "ROUND_END": ("f",),
}


def _st_keys(int v, st):
    if not st:
        return ()
    if v == V_GAIN_FEEDER:
        return ("food",)
    if v == V_GAIN_SUPPLY_WILD:
        return ("k", "last")
    if v == V_GAIN_ALL_FEEDER:
        return ("k",)
    if v == V_TRADE_FOOD:
        return ("paid",)
    if v == V_EACH_PLAYER_GAIN_FEEDER or v == V_FEWEST_IN:
        return ("order", "i")
    if v == V_ALL_PLAYERS_LAY:
        return ("order", "i", "first")
    if v == V_DRAW:
        return ("k", "last", "deck")
    if v == V_DRAFT:
        return ("k", "last", "deck", "order", "i") if "order" in st else ("k", "last", "deck")
    if v == V_DRAW_BONUS:
        return ("drawn",)
    return ()


def _order(v, w, int n, int lo):
    _lst(v, w, lo, n)
    for j, q in enumerate(v):
        _int(q, f"{w}[{j}]", 0, n - 1)
    if len(set(v)) != len(v):
        _fault(f"{w} lists a seat twice")
    return v


def _build_stack(Wingspan s, stack, pls):
    cdef Core* c = &s.c
    cdef Frame* F
    cdef int n = c.n, i, j, p, h, v, b, slot, cnt
    if c.phase == PH_OVER:
        if stack:
            _fault("a finished game has an empty 'stack'")
        return
    frames = []
    for i, fr in enumerate(stack):
        w = f"stack[{i}]"
        if not isinstance(fr, dict) or fr.get("f") not in _FRAME_KEYS:
            _fault(f"{w} must be a frame object with \"f\" one of {', '.join(_FRAME_KEYS)}")
        keys = _FRAME_KEYS[fr["f"]]
        _obj(fr, w, keys)
        if tuple(fr) != keys:
            _fault(f"{w}: the keys of a {fr['f']} frame come in the order {', '.join(keys)}")
        frames.append(fr)
    if c.phase == PH_SETUP:
        if len(frames) != 1 or frames[0]["f"] != "SETUP":
            _fault("during the setup the stack is one SETUP frame")
        fr = frames[0]
        seat = _int(fr["seat"], "stack[0].seat", 0, n - 1)
        if fr["stage"] not in _STAGES:
            _fault(f"stack[0].stage must be \"keep\", \"food\" or \"bonus\", got {json.dumps(fr['stage'])}")
        stage = _STAGES.index(fr["stage"])
        ii = _int(fr["i"], "stack[0].i", 0, 4 if stage < 2 else 0)
        for p, pl in enumerate(pls):
            w = f"players[{p}].setup"
            want = p < seat or (p == seat and (stage > 0 or ii > 0))
            st = pl["setup"]
            if (st is not None) != want:
                _fault(f"{w} must be present exactly for seats that have made setup choices "
                       f"({'expected' if want else 'unexpected'} here)")
            if st is None:
                continue
            dealt = sorted(b for b, _ in pl["hand"])
            decided = 5 if (p < seat or stage > 0) else ii
            for b in st["keep"]:
                if b not in dealt[:decided]:
                    _fault(f"{w}.keep lists {_bird_name(b)}, not one of the dealt cards decided so far")
            if len(set(st["keep"])) != len(st["keep"]) or st["keep"] != sorted(st["keep"]):
                _fault(f"{w}.keep must list distinct cards in ascending order")
            k = len(st["keep"])
            spent = sum(st["food"])
            if p < seat or stage == 2:
                if spent != k:
                    _fault(f"{w}.food: a seat discards one token per kept bird ({k}), got {spent}")
            elif stage == 1:
                if spent != ii:
                    _fault(f"{w}.food: {ii} tokens discarded so far (stack[0].i), got {spent}")
            elif spent:
                _fault(f"{w}.food: no token is discarded before the food stage")
            held = sorted(b for b, _ in pl["bonus"])
            if p < seat:
                if st["bonus"] not in held:
                    _fault(f"{w}.bonus must be one of the seat's two bonus cards {held}")
            elif st["bonus"] != -1:
                _fault(f"{w}.bonus is -1 until the seat has chosen")
            P = &c.pl[p]
            P.skeep = sum(1 << dealt.index(b) for b in st["keep"])
            for j in range(5):
                P.sfood[j] = st["food"][j]
            P.sbonus = st["bonus"]
        F = push(c, FR_SETUP, seat)
        F.stage = stage
        F.i = ii
        return
    # play
    if not frames:
        _fault("during play the stack holds at least the TURN (or EOT) frame of the current turn")
    for i, fr in enumerate(frames):
        w = f"stack[{i}]"
        f = fr["f"]
        if f in ("SETUP", "ROUND_END"):
            _fault(f"{w}: a {f} frame is never pending during play")
        if (f in ("TURN", "EOT")) != (i == 0):
            _fault(f"{w}: the TURN or EOT frame of the current turn is the bottom frame, and only it")
        if f == "EOT" and len(frames) != 1:
            _fault(f"{w}: nothing is stacked on the EOT frame")
        if f == "ACT" and (i != 1 or len(frames) != 2):
            _fault(f"{w}: an ACT frame sits alone on the TURN frame")
        if f != "PINK" and f != "POW":
            if _int(fr["seat"], f"{w}.seat", 0, n - 1) != c.cur:
                _fault(f"{w}.seat must be the current player {c.cur}")
        if f == "TURN" or f == "ACT":
            push(c, FR_TURN if f == "TURN" else FR_ACT, c.cur)
        elif f == "EOT":
            F = push(c, FR_EOT, c.cur)
            F.last = _int(fr["last"], f"{w}.last", -1, NB - 1)
        elif f == "ROW":
            h = _int(fr["hab"], f"{w}.hab", 0, 2)
            F = push(c, FR_ROW, c.cur)
            F.hab = h
            F.col = _int(fr["col"], f"{w}.col", -1, c.pl[c.cur].rows[h] - 1)
        elif f == "MAT":
            h = _int(fr["hab"], f"{w}.hab", 0, 2)
            F = push(c, FR_MAT, c.cur)
            F.hab = h
            F.n = _int(fr["n"], f"{w}.n", 0, 6)
            F.trade = _int(fr["trade"], f"{w}.trade", 0, 1)
            F.last = _int(fr["last"], f"{w}.last", -1, (-1, 14, 2)[h])
            F.deck = _int(fr["deck"], f"{w}.deck", 0, 1 if h == 2 else 0)
            F.rodent = _int(fr["rodent"], f"{w}.rodent", 0, 1 if h == 0 else 0)
        elif f == "PLAY":
            _build_play(s, fr, w, pls)
        elif f == "POW":
            _build_pow(s, fr, w, pls)
        elif f == "PINK":
            _build_pink(s, fr, w)
    act_pending = len(frames) == 2 and frames[1]["f"] == "ACT"
    for p in range(n):
        cnt = sum(1 for k in range(c.t) if (c.first + k) % n == p)
        want = (9 - c.round) - cnt - (1 if (p == c.cur and not act_pending) else 0)
        if c.pl[p].cubes != want:
            _fault(f"players[{p}].cubes must be {want} (round {c.round}, turn t {c.t}), got {c.pl[p].cubes}")


def _build_play(Wingspan s, fr, w, pls):
    cdef Core* c = &s.c
    cdef Frame* F
    cdef Player* P = &c.pl[c.cur]
    if fr["src"] not in ("act", "extra"):
        _fault(f"{w}.src must be \"act\" or \"extra\", got {json.dumps(fr['src'])}")
    src = 1 if fr["src"] == "extra" else 0
    req = _int(fr["req"], f"{w}.req", 0 if src else -1, 2 if src else -1)
    card = _int(fr["card"], f"{w}.card", -1, NB - 1)
    hab = _int(fr["hab"], f"{w}.hab", -1, 2)
    egg = _int(fr["egg"], f"{w}.egg", 0, 2)
    last = _int(fr["last"], f"{w}.last", -1, 14)
    paid = _lst(fr["paid"], f"{w}.paid", 5, 5)
    for i, v in enumerate(paid):
        _int(v, f"{w}.paid[{i}]", 0, 6)
    if card >= 0 and not in_hand(P, card):
        _fault(f"{w}.card: {_bird_name(card)} is not in the player's hand")
    if card < 0 and (hab != -1 or egg or last != -1 or any(paid)):
        _fault(f"{w}: before the card is chosen hab and last are -1 and nothing is paid")
    if hab >= 0:
        if card < 0 or not (B_HAB[card] >> hab) & 1 or P.rows[hab] >= 5:
            _fault(f"{w}.hab: the card cannot be played into the {HABS[hab]}")
        if src and hab != req:
            _fault(f"{w}.hab must be the required habitat {req} of an extra play")
        if egg > EGG_COST[P.rows[hab]]:
            _fault(f"{w}.egg: the column costs {EGG_COST[P.rows[hab]]} eggs")
    elif egg or any(paid) or (card >= 0 and src):
        _fault(f"{w}: eggs and food are paid only once the habitat is known")
    F = push(c, FR_PLAY, c.cur)
    F.src = src
    F.req = req
    F.card = card
    F.hab = hab
    F.egg = egg
    F.last = last
    for i in range(5):
        F.paid[i] = paid[i]


def _build_pow(Wingspan s, fr, w, pls):
    cdef Core* c = &s.c
    cdef Frame* F
    cdef int n = c.n, v, a1, j
    seat = _int(fr["seat"], f"{w}.seat", 0, n - 1)
    slot = _int(fr["slot"], f"{w}.slot", 0, 14)
    bird = _int(fr["bird"], f"{w}.bird", 0, NB - 1)
    if c.pl[seat].bird[slot] != bird:
        _fault(f"{w}: slot {slot} of seat {seat} does not hold {_bird_name(bird)}")
    if B_NSTEPS[bird] == 0:
        _fault(f"{w}: {_bird_name(bird)} has no power")
    if (B_COL[bird] == COL_PINK) != (seat != c.cur):
        _fault(f"{w}: pink powers act on other players' turns, brown and white ones on their owner's")
    step = _int(fr["step"], f"{w}.step", 0, B_NSTEPS[bird] - 1)
    _int(fr["did"], f"{w}.did", 0, 0)
    asked = _int(fr["asked"], f"{w}.asked", 0, 1)
    rep = _int(fr["rep"], f"{w}.rep", 0, 1)
    if step > 0 and not asked:
        _fault(f"{w}: a later step of a power runs only once the power is in use (asked 1)")
    st = fr["st"]
    if not isinstance(st, dict):
        _fault(f"{w}.st must be an object")
    v = B_VERB[bird][step]
    a1 = B_A1[bird][step]
    keys = _st_keys(v, st)
    _obj(st, f"{w}.st", keys)
    if tuple(st) != keys:
        _fault(f"{w}.st: the keys come in the order {', '.join(keys)}")
    F = push(c, FR_POW, seat)
    F.slot = slot
    F.bird = bird
    F.step = step
    F.asked = asked
    F.rep = rep
    if not st:
        return
    if v == V_GAIN_FEEDER:
        F.food = _int(st["food"], f"{w}.st.food", 0, 4)
    elif v == V_GAIN_SUPPLY_WILD:
        F.k = _int(st["k"], f"{w}.st.k", 1, max(1, a1 - 1))
        F.slast = _int(st["last"], f"{w}.st.last", 0, 4)
    elif v == V_GAIN_ALL_FEEDER:
        F.k = _int(st["k"], f"{w}.st.k", 1, 1)
    elif v == V_TRADE_FOOD:
        F.spaid = _int(st["paid"], f"{w}.st.paid", 0, 4)
    elif v in (V_EACH_PLAYER_GAIN_FEEDER, V_FEWEST_IN, V_ALL_PLAYERS_LAY):
        order = _order(st["order"], f"{w}.st.order", n, n if v != V_FEWEST_IN else 1)
        F.norder = len(order)
        for j, q in enumerate(order):
            F.order[j] = q
        F.i = _int(st["i"], f"{w}.st.i", 0, len(order) + (1 if v == V_ALL_PLAYERS_LAY else 0))
        if v == V_ALL_PLAYERS_LAY:
            F.first = _int(st["first"], f"{w}.st.first", -1, 14)
    elif v == V_DRAW or v == V_DRAFT:
        F.k = _int(st["k"], f"{w}.st.k", 0 if v == V_DRAFT else 1, n + 1 if v == V_DRAFT else a1)
        F.slast = _int(st["last"], f"{w}.st.last", -1, 2)
        F.sdeck = _int(st["deck"], f"{w}.st.deck", 0, 1)
        if "order" in st:
            order = _order(st["order"], f"{w}.st.order", n, n)
            F.norder = n
            for j, q in enumerate(order):
                F.order[j] = q
            F.i = _int(st["i"], f"{w}.st.i", 0, n)
    elif v == V_DRAW_BONUS:
        F.k = 1
        F.ndrawn = 2
        F.drawn[0] = st["drawn"][0][0]
        F.drawn[1] = st["drawn"][1][0]
        c.bown[F.drawn[0]] = seat
        c.bown[F.drawn[1]] = seat


def _build_pink(Wingspan s, fr, w):
    cdef Core* c = &s.c
    cdef Frame* F
    cdef int n = c.n, q, slot, b, ev
    if fr["ev"] not in _EVENTS[1:]:
        _fault(f"{w}.ev must be \"a\", \"b\", \"c\" or \"d\", got {json.dumps(fr['ev'])}")
    ev = _EVENTS.index(fr["ev"])
    hab = _int(fr["hab"], f"{w}.hab", 0 if ev == EV_C else -1, 2 if ev == EV_C else -1)
    if _int(fr["active"], f"{w}.active", 0, n - 1) != c.cur:
        _fault(f"{w}.active must be the current player {c.cur}")
    F = push(c, FR_PINK, -1)
    F.ev = ev
    F.hab = hab
    F.active = c.cur
    for j, ent in enumerate(_lst(fr["q"], f"{w}.q", 0, 15 * n)):
        _lst(ent, f"{w}.q[{j}]", 2, 2)
        q = _int(ent[0], f"{w}.q[{j}] seat", 0, n - 1)
        slot = _int(ent[1], f"{w}.q[{j}] slot", 0, 14)
        b = c.pl[q].bird[slot]
        if q == c.cur or b < 0 or B_TRIG[b] != ev or (ev == EV_C and B_TARG[b] != hab):
            _fault(f"{w}.q[{j}]: slot {slot} of seat {q} holds no pink bird reacting to this event")
        if (F.q[q] >> slot) & 1:
            _fault(f"{w}.q lists seat {q} slot {slot} twice")
        F.q[q] |= 1 << slot


# ---------------------------------------------------------------------------- render
_GOAL_TEXT = {g["id"]: g["description"] for g in GOALS["sides"]}


def _food_text(counts):
    parts = [f"{FOODS[t]}{counts[t]}" for t in range(5) if counts[t]]
    return " ".join(parts) if parts else "-"


def _render(Wingspan s, observer):
    cdef Core* c = &s.c
    cdef Player* P
    cdef int p, h, col, slot, b, t
    d = _to_dict(s)
    n = c.n
    head = f"Wingspan, {n} player{'s' if n > 1 else ''}, {d['side']} goals"
    if c.phase == PH_SETUP:
        head += ", setup"
    elif c.phase == PH_PLAY:
        head += f", round {c.round} of 4, turn {c.t + 1} of {n * (9 - c.round)}, seat {c.cur} to play"
    else:
        head += ", game over"
    if observer is not None:
        head += f" (seen by seat {observer})"
    lines = [head]
    goal_line = []
    for r in range(4):
        g = c.goals[r]
        pts = ""
        if r < c.nscored:
            pts = " [" + " ".join(str(c.goal_pts[r][p]) for p in range(n)) + "]"
        goal_line.append(f"R{r + 1} {_GOAL_TEXT[g]}{pts}")
    lines.append("goals: " + "; ".join(goal_line))
    feeder = " ".join("IS" if f == 5 else FOODS[f] for f in d["feeder"])
    tray = " | ".join(BIRD_NAMES[b] if b >= 0 else "-" for b in d["tray"])
    lines.append(f"feeder: {feeder} ({5 - c.nfd} outside)   tray: {tray}")
    lines.append(f"deck {c.ndeck} (epoch {c.depoch}), discard pile {c.ndisc}, bonus deck {c.nbdeck}, "
                 f"bonus discards {c.nbdisc}" + (f", draft pool: {', '.join(BIRD_NAMES[b] for b in d['draft'])}"
                                                   if c.ndraft else ""))
    for p in range(n):
        P = &c.pl[p]
        pd = d["players"][p]
        tag = f"seat {p}" + (" (you)" if observer == p else "") + \
              ("*" if c.phase != PH_OVER and p == c.actor else "")
        lines.append(f"{tag}: food {_food_text(pd['food'])} | cubes {P.cubes} | score {score(c, p)}"
                     + (f" | owes {P.owe} discard(s)" if P.owe else ""))
        if observer is None or observer == p:
            hand = ", ".join(BIRD_NAMES[b] + ("" if tg == 0 else f" [{tg}]") for b, tg in pd["hand"]) or "-"
            bonus = ", ".join(BONUS_NAMES[b] for b, _ in pd["bonus"]) or "-"
        else:
            known = [BIRD_NAMES[b] for b, tg in pd["hand"] if tg == "p"]
            hidden = P.nhand - len(known)
            hand = ", ".join(known + ([f"{hidden} hidden"] if hidden else [])) or "-"
            bonus = f"{len(pd['bonus'])} hidden"
        lines.append(f"   hand {P.nhand}: {hand}")
        lines.append(f"   bonus: {bonus}")
        for h in range(3):
            cells = []
            for col in range(P.rows[h]):
                slot = 5 * h + col
                b = P.bird[slot]
                extra = [f"eggs {P.egg[slot]}/{B_EGGS[b]}"]
                cache = [P.cache[slot][t] for t in range(5)]
                if any(cache):
                    extra.append("cache " + _food_text(cache))
                if P.ntuck[slot]:
                    extra.append(f"tucked {P.ntuck[slot]}")
                if (P.pink_used >> slot) & 1:
                    extra.append("used")
                cells.append(f"{BIRD_NAMES[b]} ({', '.join(extra)})")
            lines.append(f"   {HABS[h]:<9}: " + (" | ".join(cells) if cells else "-"))
    if c.phase == PH_OVER:
        res = s.result()
        lines.append("final scores: " + ", ".join(f"seat {p} {score(c, p)}" for p in range(n))
                     + "; result " + " ".join(f"{x:g}" for x in res))
    elif observer is None or observer == c.actor or PURPOSES[c.purpose] not in (
            "SETUP_KEEP_BIRD", "SETUP_DISCARD_FOOD", "SETUP_KEEP_BONUS", "BONUS_KEEP", "TUCK_FROM_HAND"):
        ctx = ""
        if c.purpose == P_SETUP_KEEP_BIRD and (observer is None or observer == c.actor):
            st = c.st[c.nst - 1]
            dealt = [b for b in range(NB) if in_hand(&c.pl[c.actor], b)]
            ctx = f" (keep {BIRD_NAMES[dealt[st.i]]}?)"
        lines.append(f"seat {c.actor} decides {PURPOSES[c.purpose]}{ctx}: " + " ".join(s.legal_names()))
    else:
        lines.append(f"seat {c.actor} decides {PURPOSES[c.purpose]} (hidden)")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- fixed positions
def random_position(players, seed, plies):
    """A position reached by ``plies`` uniformly random decisions from ``start(players,
    seed)`` (the choices drawn from a generator seeded with ``seed``): a reproducible
    mid-game position for examples and benchmarks."""
    import random as _random
    rnd = _random.Random(seed)
    s = Wingspan.start(players=players, seed=seed)
    for _ in range(plies):
        if s.is_over:
            break
        s.play_unchecked(rnd.choice(s.legal()))
    return s


def example_positions():
    """The registry's example texts: starts for 2, 1 and 5 players, and mid-game positions
    for 2 and 3 players."""
    return (Wingspan.start(2, seed=0).text(), Wingspan.start(1, seed=0).text(),
            Wingspan.start(5, seed=0).text(), random_position(2, 7, 120).text(),
            random_position(3, 11, 260).text())


def bench_position():
    """Two players in round 2, a fixed position for ``roost bench``."""
    return random_position(2, 3, 70).text()
