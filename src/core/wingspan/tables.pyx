"""The card tables: the bird, bonus and goal data (``roost.core.wingspan_data``, which
compiles every bird's power from the DSL of §9) copied into C arrays at import, and the
names the plain-Python modules (text, render) share with the native ones."""
from libc.stdint cimport uint64_t

from roost.core.rng cimport splitmix64
from roost.core import wingspan_data as _wd

assert _wd.VERBS.index("REPEAT_PREDATOR") == V_REPEAT_PREDATOR and _wd.VERBS.index("DRAW") == V_DRAW

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
# per bird: (trigger, trigger argument, ((verb, a0, a1), ...)), as in the C tables
POWERS = tuple(_wd.compile_power(d["power"], d["name"]) for d in BIRDS)

# The enums the plain-Python modules need, under the same names.
globals().update(
    NB=NB, NBON=NBON, MAXP=MAXP, MAXF=MAXF, MAXEP=MAXEP, FORMCAP=FORMCAP, MAXBEP=MAXBEP,
    BFCAP=BFCAP, TAG_P=TAG_P,
    L_DECK=L_DECK, L_DISC=L_DISC, L_TRAY=L_TRAY, L_HAND=L_HAND, L_MAT=L_MAT, L_TUCK=L_TUCK,
    L_DRAFT=L_DRAFT, TK_P=TK_P, TK_H=TK_H, TK_D=TK_D,
    B_DECK=B_DECK, B_DISC=B_DISC, B_HELD=B_HELD, B_PEND=B_PEND,
    PH_SETUP=PH_SETUP, PH_PLAY=PH_PLAY, PH_OVER=PH_OVER,
    FR_SETUP=FR_SETUP, FR_TURN=FR_TURN, FR_ACT=FR_ACT, FR_PLAY=FR_PLAY, FR_MAT=FR_MAT,
    FR_ROW=FR_ROW, FR_POW=FR_POW, FR_PINK=FR_PINK, FR_EOT=FR_EOT, FR_ROUND_END=FR_ROUND_END,
    O_YESNO=O_YESNO, O_ACTION=O_ACTION, O_CARD=O_CARD, O_HABITAT=O_HABITAT, O_SLOT=O_SLOT,
    O_FOOD=O_FOOD, O_DIE=O_DIE, O_SOURCE=O_SOURCE, O_BONUS=O_BONUS, O_PLAYER=O_PLAYER,
    NMOVEIDS=NMOVEIDS, CARD_SKIP=CARD_SKIP, HAB_SKIP=HAB_SKIP, SLOT_SKIP=SLOT_SKIP,
    FOOD_SKIP=FOOD_SKIP, DIE_SKIP=DIE_SKIP, PLAYER_SKIP=PLAYER_SKIP,
    COL_BROWN=COL_BROWN, COL_WHITE=COL_WHITE, COL_PINK=COL_PINK,
    EV_A=EV_A, EV_B=EV_B, EV_C=EV_C, EV_D=EV_D,
)
KIND_OFFSETS = (O_YESNO, O_ACTION, O_CARD, O_HABITAT, O_SLOT, O_FOOD, O_DIE, O_SOURCE, O_BONUS,
                O_PLAYER)
EGG_COSTS = (0, 1, 1, 2, 2)


def _init_rules():
    cdef int i, j
    for j, v in enumerate((1, 1, 2, 2, 3, 3)):
        FOREST_N[j] = v
        WET_N[j] = v
    for j, v in enumerate((2, 2, 3, 3, 4, 4)):
        GRASS_N[j] = v
    for j, v in enumerate(EGG_COSTS):
        EGG_COST[j] = v
    for j, v in enumerate(KIND_OFFSETS):
        KIND_OFF[j] = v
    for i in range(4):
        for j in range(4):
            PLACE_PTS[i][j] = GOALS["green_places"][i][j]


def _init_birds():
    cdef int i, t, b
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
        trig, targ, steps = POWERS[b]
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


def _init_bonus():
    cdef int i, k, b
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


def _init_keys():
    cdef int i
    cdef uint64_t seed = 0x5749_4E47_5350_414E
    for i in range(64):
        ZK[i] = splitmix64(&seed)


_init_rules()
_init_birds()
_init_bonus()
_init_keys()
BON_BREE = _wd.BONUS_CODES.index("BREE")
BON_ECOL = _wd.BONUS_CODES.index("ECOL")
BON_OOLO = _wd.BONUS_CODES.index("OOLO")
BON_VISI = _wd.BONUS_CODES.index("VISI")
