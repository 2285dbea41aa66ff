"""Wingspan (core set) card data and the power DSL compiler.

The data files under ``data/`` were made from source tables by ``tools/make_wingspan_data.py``
(run by hand; docs/rules/wingspan-cards.md §4); they are the card data roost uses.
This module loads them, checks them, and compiles every bird's power (the DSL of
docs/rules/wingspan.md §9) into a small fixed-width program that ``wingspan/tables.pyx``
copies into C tables at import time:

    power = (colour, ask, trigger, trigger_arg, steps)
    steps = ((verb, a0, a1), ...)          at most two, joined by 'then'

Verbs and their arguments are the constants below (``V_*``); foods are 0..4 (I S F R M),
habitats 0..2 (forest grassland wetland), nests 0..5 (bowl cavity ground platform star none).
"""
import json
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

FOODS = "ISFRM"
FOOD_NAMES = ("invertebrate", "seed", "fish", "fruit", "rodent")
HABITATS = ("forest", "grassland", "wetland")
NESTS = ("bowl", "cavity", "ground", "platform", "star", "none")
COLOURS = ("none", "brown", "white", "pink")
ASKS = ("-", "A", "C", "Y", "Y*")

# triggers of pink powers (docs/rules/wingspan.md §4)
TRIGGERS = ("none", "opp_lay_eggs_action", "opp_gain_food_action", "opp_play_bird",
            "opp_predator_success")

# verbs (docs/rules/wingspan.md §9.3); GAIN_SUPPLY has three forms
VERBS = (
    "NONE",
    "GAIN_SUPPLY",            # a0 food, a1 n
    "GAIN_SUPPLY_CHOICE",     # a0 food mask (x|y), one token
    "GAIN_SUPPLY_WILD",       # a1 n wild tokens
    "CACHE_SUPPLY",           # a0 food
    "GAIN_FEEDER",            # a0 food mask, a1 cache_optional
    "GAIN_ALL_FEEDER",        # a0 food
    "ALL_PLAYERS_GAIN_SUPPLY",  # a0 food
    "EACH_PLAYER_GAIN_FEEDER",
    "FEWEST_IN",              # a0 habitat, a1 0 = GAIN_FEEDER any, 1 = DRAW 1
    "SPEND_FOOD",             # a0 food
    "TRADE_FOOD",
    "LAY_SELF",
    "LAY_ANY",
    "LAY_EACH",               # a0 nest
    "ALL_PLAYERS_LAY",        # a0 nest
    "PAY_EGG",                # a0 1 = other, 0 = any
    "LAY_NEST",               # a0 nest, a1 not_self
    "DRAW",                   # a1 n
    "DISCARD_EOT",            # a1 n
    "ALL_PLAYERS_DRAW_DECK",
    "TUCK_HAND",
    "TUCK_DECK",              # a1 n
    "PREDATOR_LOOK",          # a0 wingspan threshold (strictly less)
    "PREDATOR_ROLL",          # a0 food
    "DRAW_BONUS",
    "DRAFT",
    "PLAY_EXTRA",             # a0 habitat, -1 = this bird's row
    "MOVE_IF_RIGHTMOST",
    "REPEAT_BROWN",
    "REPEAT_PREDATOR",
)
for _i, _v in enumerate(VERBS):
    globals()["V_" + _v] = _i

# the verbs of §9.4 (GAIN_SUPPLY's three forms count as one)
DSL_VERBS = ("GAIN_SUPPLY", "CACHE_SUPPLY", "GAIN_FEEDER", "GAIN_ALL_FEEDER",
             "ALL_PLAYERS_GAIN_SUPPLY", "EACH_PLAYER_GAIN_FEEDER", "FEWEST_IN", "SPEND_FOOD",
             "TRADE_FOOD", "LAY_SELF", "LAY_ANY", "LAY_EACH", "ALL_PLAYERS_LAY", "PAY_EGG",
             "LAY_NEST", "DRAW", "DISCARD_EOT", "ALL_PLAYERS_DRAW_DECK", "TUCK_HAND",
             "TUCK_DECK", "PREDATOR_LOOK", "PREDATOR_ROLL", "DRAW_BONUS", "DRAFT", "PLAY_EXTRA",
             "MOVE_IF_RIGHTMOST", "REPEAT_BROWN", "REPEAT_PREDATOR")

BONUS_CODES = ("ANAT", "BACK", "BCNT", "BFED", "BREE", "CART", "ECOL", "ENCL", "FALC", "FISH",
               "FWEB", "FORE", "HIST", "LARG", "NBOX", "OMNI", "OOLO", "PASS", "PHOT", "PLAT",
               "PRAI", "RODE", "VISI", "VITI", "WETL", "WILD")
# bonus cards scored from the game state rather than from the bird table's bonus column
STATE_BONUS = ("BREE", "ECOL", "OOLO", "VISI")

GOAL_CODES = ("BIRDS_F", "EGGS_F", "BIRDS_G", "EGGS_G", "BIRDS_W", "EGGS_W", "NESTB_BOWL",
              "EGGS_BOWL", "NESTB_CAVITY", "EGGS_CAVITY", "NESTB_GROUND", "EGGS_GROUND",
              "NESTB_PLATFORM", "EGGS_PLATFORM", "EGG_SETS", "BIRDS_TOTAL")


class DataError(ValueError):
    pass


def _load(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


def _food(tok, where):
    if len(tok) != 1 or tok not in FOODS:
        raise DataError(f"{where}: {tok!r} is not a food letter ({FOODS})")
    return FOODS.index(tok)


def _foods_mask(tok, where):
    if tok == "any":
        return 31
    mask = 0
    for part in tok.split("|"):
        mask |= 1 << _food(part, where)
    return mask


def _hab(tok, where):
    if tok not in HABITATS:
        raise DataError(f"{where}: {tok!r} is not a habitat ({', '.join(HABITATS)})")
    return HABITATS.index(tok)


def _nest(tok, where):
    if tok not in NESTS[:4]:
        raise DataError(f"{where}: {tok!r} is not a nest type (bowl cavity ground platform)")
    return NESTS.index(tok)


def _int(tok, where):
    if not tok.isdigit():
        raise DataError(f"{where}: {tok!r} is not a count")
    return int(tok)


def compile_step(text, where="power"):
    """One DSL step ('VERB arg*') -> (verb, a0, a1)."""
    words = text.split()
    if not words:
        raise DataError(f"{where}: an empty step")
    verb, args = words[0], words[1:]

    def want(k):
        if len(args) != k:
            raise DataError(f"{where}: {verb} takes {k} argument(s), got {args}")

    if verb == "GAIN_SUPPLY":
        want(2)
        n = _int(args[1], where)
        if args[0] == "W":
            return (V_GAIN_SUPPLY_WILD, 0, n)
        if "|" in args[0]:
            if n != 1:
                raise DataError(f"{where}: 'GAIN_SUPPLY x|y' gains one token")
            return (V_GAIN_SUPPLY_CHOICE, _foods_mask(args[0], where), 1)
        return (V_GAIN_SUPPLY, _food(args[0], where), n)
    if verb in ("CACHE_SUPPLY", "ALL_PLAYERS_GAIN_SUPPLY"):
        want(2)
        if args[1] != "1":
            raise DataError(f"{where}: {verb} gains one token")
        return (VERBS.index(verb), _food(args[0], where), 1)
    if verb == "GAIN_FEEDER":
        if len(args) not in (1, 2) or (len(args) == 2 and args[1] != "cache_optional"):
            raise DataError(f"{where}: GAIN_FEEDER foods [cache_optional], got {args}")
        return (V_GAIN_FEEDER, _foods_mask(args[0], where), int(len(args) == 2))
    if verb in ("GAIN_ALL_FEEDER", "SPEND_FOOD", "PREDATOR_ROLL"):
        want(1)
        return (VERBS.index(verb), _food(args[0], where), 0)
    if verb == "EACH_PLAYER_GAIN_FEEDER":
        want(1)
        if args[0] != "start=chosen":
            raise DataError(f"{where}: EACH_PLAYER_GAIN_FEEDER start=chosen")
        return (V_EACH_PLAYER_GAIN_FEEDER, 0, 0)
    if verb in ("TRADE_FOOD", "TUCK_HAND", "MOVE_IF_RIGHTMOST", "REPEAT_BROWN", "REPEAT_PREDATOR"):
        want(0)
        return (VERBS.index(verb), 0, 0)
    if verb in ("LAY_SELF", "LAY_ANY"):
        want(1)
        if args[0] != "1":
            raise DataError(f"{where}: {verb} lays one egg")
        return (VERBS.index(verb), 0, 1)
    if verb == "LAY_EACH":
        want(1)
        return (V_LAY_EACH, _nest(args[0], where), 0)
    if verb == "ALL_PLAYERS_LAY":
        want(2)
        if args[1] != "owner_extra":
            raise DataError(f"{where}: ALL_PLAYERS_LAY n owner_extra")
        return (V_ALL_PLAYERS_LAY, _nest(args[0], where), 0)
    if verb == "PAY_EGG":
        want(1)
        if args[0] not in ("other", "any"):
            raise DataError(f"{where}: PAY_EGG other|any")
        return (V_PAY_EGG, int(args[0] == "other"), 0)
    if verb == "LAY_NEST":
        if len(args) not in (1, 2) or (len(args) == 2 and args[1] != "not_self"):
            raise DataError(f"{where}: LAY_NEST n [not_self], got {args}")
        return (V_LAY_NEST, _nest(args[0], where), int(len(args) == 2))
    if verb in ("DRAW", "DISCARD_EOT", "TUCK_DECK"):
        want(1)
        return (VERBS.index(verb), 0, _int(args[0], where))
    if verb == "ALL_PLAYERS_DRAW_DECK":
        want(1)
        if args[0] != "1":
            raise DataError(f"{where}: ALL_PLAYERS_DRAW_DECK 1")
        return (V_ALL_PLAYERS_DRAW_DECK, 0, 1)
    if verb == "PREDATOR_LOOK":
        want(1)
        if not args[0].startswith("wingspan<"):
            raise DataError(f"{where}: PREDATOR_LOOK wingspan<k")
        return (V_PREDATOR_LOOK, _int(args[0][len("wingspan<"):], where), 0)
    if verb == "DRAW_BONUS":
        if args != ["2", "keep=1"]:
            raise DataError(f"{where}: DRAW_BONUS 2 keep=1")
        return (V_DRAW_BONUS, 0, 0)
    if verb == "DRAFT":
        if args != ["players+1"]:
            raise DataError(f"{where}: DRAFT players+1")
        return (V_DRAFT, 0, 0)
    if verb == "PLAY_EXTRA":
        want(1)
        return (V_PLAY_EXTRA, -1 if args[0] == "this" else _hab(args[0], where), 0)
    raise DataError(f"{where}: unknown verb {verb!r}")


def compile_power(text, where="power"):
    """A power in the DSL -> (trigger, trigger_arg, steps)."""
    text = text.strip()
    if text == "-":
        return (0, 0, ())
    trigger, targ = 0, 0
    if text.startswith("PINK "):
        head, sep, effect = text[5:].partition(" -> ")
        if not sep:
            raise DataError(f"{where}: 'PINK trigger -> effect'")
        words = head.split()
        if not words or words[0] not in TRIGGERS[1:]:
            raise DataError(f"{where}: unknown trigger {head!r}")
        trigger = TRIGGERS.index(words[0])
        rest = words[1:]
        if trigger == 2:
            if rest != ["gained=M"]:
                raise DataError(f"{where}: opp_gain_food_action gained=M")
            targ = FOODS.index("M")
        elif trigger == 3:
            if len(rest) != 1 or not rest[0].startswith("hab="):
                raise DataError(f"{where}: opp_play_bird hab=h")
            targ = _hab(rest[0][4:], where)
        elif rest:
            raise DataError(f"{where}: {words[0]} takes no argument")
        text = effect
    if text.startswith("FEWEST_IN "):
        head, sep, effect = text[len("FEWEST_IN "):].partition(" -> ")
        if not sep:
            raise DataError(f"{where}: 'FEWEST_IN h -> ...'")
        h = _hab(head.strip(), where)
        if effect.strip() == "GAIN_FEEDER any":
            return (trigger, targ, ((V_FEWEST_IN, h, 0),))
        if effect.strip() == "DRAW 1":
            return (trigger, targ, ((V_FEWEST_IN, h, 1),))
        raise DataError(f"{where}: FEWEST_IN h -> GAIN_FEEDER any | DRAW 1")
    steps = tuple(compile_step(s, where) for s in text.split(" then "))
    if len(steps) > 2:
        raise DataError(f"{where}: at most two steps")
    return (trigger, targ, steps)


def _check_birds(birds):
    if len(birds) != 170 or [b["id"] for b in birds] != list(range(170)):
        raise DataError("the bird table must hold ids 0..169")
    for b in birds:
        where = f"bird {b['id']} ({b['name']})"
        trig, _, steps = compile_power(b["power"], where)
        colour = b["colour"]
        if (trig != 0) != (colour == "pink"):
            raise DataError(f"{where}: pink colour and PINK power must agree")
        if (not steps) != (colour == "none"):
            raise DataError(f"{where}: colour 'none' exactly for birds without a power")
        if b["ask"] not in ASKS or (b["ask"] == "-") != (not steps):
            raise DataError(f"{where}: bad ask {b['ask']!r}")
        pred = any(v in (V_PREDATOR_LOOK, V_PREDATOR_ROLL) for v, _, _ in steps)
        if pred != b["predator"]:
            raise DataError(f"{where}: predator flag and PREDATOR_* power must agree")
        for code in b["bonus"]:
            if code not in BONUS_CODES or code in STATE_BONUS:
                raise DataError(f"{where}: bonus code {code!r}")
        if not b["hab"] or b["nest"] not in range(6):
            raise DataError(f"{where}: habitats or nest")


_CACHE = {}


def birds():
    """The 170 birds (dicts, index = id), checked."""
    if "birds" not in _CACHE:
        b = _load("wingspan_birds.json")
        _check_birds(b)
        _CACHE["birds"] = b
    return _CACHE["birds"]


def bonus_cards():
    """The 26 bonus cards (dicts, index = id)."""
    if "bonus" not in _CACHE:
        b = _load("wingspan_bonus.json")
        if len(b) != 26 or [x["code"] for x in b] != list(BONUS_CODES):
            raise DataError("the bonus table must hold the 26 codes in id order")
        _CACHE["bonus"] = b
    return _CACHE["bonus"]


def goals():
    """{"sides": 16 goal sides, "green_places": [[1st, 2nd, 3rd, 4th+] per round], "blue_max": 5}"""
    if "goals" not in _CACHE:
        g = _load("wingspan_goals.json")
        if [s["code"] for s in g["sides"]] != list(GOAL_CODES):
            raise DataError("the goal sides must be the 16 codes in id order")
        _CACHE["goals"] = g
    return _CACHE["goals"]


def bonus_score(card, count):
    """Points of a bonus card (dict) for a count of qualifying items."""
    if card["kind"] == "per":
        return card["points"] * count
    for lo, pts in reversed(card["tiers"]):
        if count >= lo:
            return pts
    return 0


def slug(name):
    """'Black-Bellied Whistling-Duck' -> 'black-bellied-whistling-duck'; "Baird's" -> 'bairds'."""
    out, dash = [], False
    for ch in name.lower().replace("'", ""):
        if ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    return "".join(out).strip("-")
