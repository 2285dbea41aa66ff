# The numbers of the rules (docs/rules/wingspan.md): sizes, card locations, frames (§8),
# move kinds and their global offsets (§7.2), purposes (§7.3), verbs (§9.4), and the card
# tables that tables.pyx fills from the data files at import.  Every other module of the
# package cimports this one.
from libc.stdint cimport uint64_t, uint8_t

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
    MAXPAY = 8192        # minimal payments over all birds

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

    # told chance (state.pxd, Script): an entry is its kind byte, then its outcome
    CH_ROLL = 1          # the feeder rolled: 6 bytes, the dice per face (fd)
    CH_HUNT = 2          # a predator's dice: 1 byte, 1 when one showed its food
    CH_SHUFFLE = 3       # the discard pile became the deck: 1 byte n, then the deck (bottom first)
    CH_BSHUFFLE = 4      # the bonus discards became the bonus deck: the same, bonus ids
    CH_DRAW = 5          # the next card off the bird deck: 1 byte, its id (ANY_CARD: not told)
    CH_BDRAW = 6         # the next card off the bonus deck: 1 byte, its id
    CH_SHUFFLED = 7      # a reshuffle of the bird deck happens here (its order drawn)
    CH_BSHUFFLED = 8     # the same for the bonus deck
    ANY_CARD = 255       # a card comes off the deck here, which one is not told

# ---------------------------------------------------------------- rules tables (§2, §5.1)
cdef int FOREST_N[6]
cdef int GRASS_N[6]
cdef int WET_N[6]
cdef int EGG_COST[5]
cdef int KIND_OFF[10]
cdef int PLACE_PTS[4][4]

# ---------------------------------------------------------------- the birds
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

# ---------------------------------------------------------------- the bonus cards
cdef uint64_t BON_MEMBER[NBON][3]
cdef int BON_KIND[NBON]   # 0 per, 1 tier
cdef int BON_PER[NBON]
cdef int BON_NT[NBON]
cdef int BON_LO[NBON][3]
cdef int BON_PTS[NBON][3]
cdef int BON_BREE          # the bonus cards scored from the state, not the bird table
cdef int BON_ECOL
cdef int BON_OOLO
cdef int BON_VISI

cdef uint64_t ZK[64]      # hashing constants
