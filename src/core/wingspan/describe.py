"""Cards in words for people: a bird's power (its DSL, rules §9, read out), its cost, nest
and points, and a bonus card, for the pictures and the browser board.  The card text is not
reproduced: every sentence is built from the encoded power."""
from roost.core.wingspan.tables import BIRDS, BONUS, HABS, NEST_NAMES

FOOD_WORDS = {"I": "invertebrate", "S": "seed", "F": "fish", "R": "fruit", "M": "rodent", "W": "wild (any food)"}
COLOUR_WORDS = {"brown": "when activated", "white": "when played", "pink": "once between turns",
                "none": ""}
_TRIGGERS = {
    "opp_lay_eggs_action": "when another player takes the lay eggs action",
    "opp_gain_food_action": "when another player takes the gain food action",
    "opp_predator_success": "when another player's predator succeeds",
}


def _foods(arg):
    return " or ".join(FOOD_WORDS[x] for x in arg.split("|")) if arg != "any" else "food of any kind"


def _nest(arg):
    return f"a {arg} or star nest"


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def _step(verb, args):
    """One step of a power in words."""
    a = args + [""] * 3
    if verb == "GAIN_SUPPLY":
        if a[0] == "W":
            return f"gain {_plural(int(a[1]), 'food')} of your choice from the supply"
        return f"gain {a[1]} {_foods(a[0])} from the supply"
    if verb == "CACHE_SUPPLY":
        return f"cache {a[1]} {_foods(a[0])} from the supply on this bird"
    if verb == "GAIN_FEEDER":
        text = f"gain 1 {_foods(a[0])} from the birdfeeder, if there is one"
        return text + (", and you may cache it on this bird" if a[1] == "cache_optional" else "")
    if verb == "GAIN_ALL_FEEDER":
        return f"gain every {_foods(a[0])} in the birdfeeder"
    if verb == "ALL_PLAYERS_GAIN_SUPPLY":
        return f"every player gains 1 {_foods(a[0])} from the supply"
    if verb == "EACH_PLAYER_GAIN_FEEDER":
        return "every player gains 1 die from the birdfeeder, starting with the player you choose"
    if verb == "FEWEST_IN":
        return f"the players with the fewest birds in their {a[0]}"
    if verb == "SPEND_FOOD":
        return f"discard 1 {_foods(a[0])} from your supply"
    if verb == "TRADE_FOOD":
        return "trade 1 food from your supply for any other food from the supply"
    if verb == "LAY_SELF":
        return "lay 1 egg on this bird"
    if verb == "LAY_ANY":
        return "lay 1 egg on any bird"
    if verb == "LAY_EACH":
        return f"lay 1 egg on each of your birds with {_nest(a[0])}"
    if verb == "ALL_PLAYERS_LAY":
        return (f"every player lays 1 egg on a bird with {_nest(a[0])}; you may lay 1 more on another "
                "such bird")
    if verb == "PAY_EGG":
        return "discard 1 egg from " + ("another of your birds" if a[0] == "other" else "any of your birds")
    if verb == "LAY_NEST":
        return f"lay 1 egg on {'another' if a[1] == 'not_self' else 'a'} bird with {_nest(a[0])}"
    if verb == "DRAW":
        return f"draw {_plural(int(a[0]), 'card')}"
    if verb == "DISCARD_EOT":
        return "at the end of your turn, discard 1 card from your hand"
    if verb == "ALL_PLAYERS_DRAW_DECK":
        return "every player draws 1 card from the deck"
    if verb == "TUCK_HAND":
        return "tuck 1 card from your hand behind this bird"
    if verb == "TUCK_DECK":
        return f"tuck the top {_plural(int(a[0]), 'card')} of the deck behind this bird"
    if verb == "PREDATOR_LOOK":
        limit = a[0].partition("<")[2]
        return (f"look at the top card of the deck: if its wingspan is less than {limit} cm, tuck it "
                "behind this bird; otherwise discard it")
    if verb == "PREDATOR_ROLL":
        return (f"roll the dice outside the birdfeeder: if any shows {_foods(a[0])}, cache 1 "
                f"{_foods(a[0])} from the supply on this bird")
    if verb == "DRAW_BONUS":
        return "draw 2 bonus cards and keep 1"
    if verb == "DRAFT":
        return ("draw 1 card more than there are players; starting with you, each player takes 1, "
                "you take the last")
    if verb == "PLAY_EXTRA":
        where = "this bird's habitat" if a[0] == "this" else f"your {a[0]}"
        return f"play another bird in {where}, paying its normal cost"
    if verb == "MOVE_IF_RIGHTMOST":
        return "if this bird is the rightmost in its habitat, move it to another habitat"
    if verb == "REPEAT_BROWN":
        return "repeat a brown power of another bird in this habitat"
    if verb == "REPEAT_PREDATOR":
        return "repeat the power of a predator in this habitat"
    return f"{verb.lower()} {' '.join(args)}".strip()


def _effect(text):
    """``X then Y`` in words: Y happens only if X did."""
    steps = [s.split() for s in text.split(" then ")]
    words = [_step(s[0], s[1:]) for s in steps]
    return words[0] + "".join(f"; if you do, {w}" for w in words[1:])


def power_text(bird):
    """A bird's power in words, with when it acts: 'When activated: gain 1 seed ...'."""
    power = BIRDS[bird]["power"]
    if power == "-":
        return "no power"
    when = COLOUR_WORDS[BIRDS[bird]["colour"]]
    if power.startswith("PINK "):
        trigger, _, effect = power[5:].partition(" -> ")
        event, *rest = trigger.split()
        condition = dict(r.split("=") for r in rest)
        if event == "opp_play_bird":
            said = f"when another player plays a bird in their {condition['hab']}"
        else:
            said = _TRIGGERS.get(event, event)
            if "gained" in condition:
                said += f" and gains a {FOOD_WORDS[condition['gained']]}"
        return f"Once between turns, {said}: {_effect(effect)}."
    if power.startswith("FEWEST_IN "):
        head, _, effect = power.partition(" -> ")
        return f"{when.capitalize()}: {_step('FEWEST_IN', head.split()[1:])} each {_effect(effect)}."
    return f"{when.capitalize()}: {_effect(power)}."


def cost_text(bird):
    """A bird's food cost in words: '2 invertebrate + 1 seed', 'fish or rodent', 'free'."""
    text = BIRDS[bird]["cost_text"]
    if text == "0":
        return "free"
    if "/" in text:
        return " or ".join(FOOD_WORDS[x] for x in text.split("/"))
    return " + ".join(f"{part[:-1]} {FOOD_WORDS[part[-1]]}" for part in text.split("+"))


def bird_details(bird):
    """What a person reads on a bird's card, as JSON-ready values."""
    b = BIRDS[bird]
    return {"kind": "bird", "name": b["name"], "cost": cost_text(bird), "cost_code": b["cost_text"],
            "points": b["vp"], "habitats": [HABS[h] for h in b["hab"]], "nest": NEST_NAMES[b["nest"]],
            "eggs": b["eggs"], "wingspan": b["ws"], "colour": b["colour"], "power": power_text(bird),
            "predator": b["predator"], "flocking": b["flocking"]}


def bonus_details(bonus):
    c = BONUS[bonus]
    return {"kind": "bonus", "name": c["name"], "counts": c["counts"]}
