"""Wingspan's cards in words (describe.py): every bird's power reads as a sentence with no
DSL left in it, and the costs read as the card prints them; rules §9 (the power DSL)."""
from roost.core.wingspan.describe import bird_details, cost_text, power_text
from roost.core.wingspan.tables import BIRD_NAMES, BIRDS


def test_every_power_is_read_out_without_its_code():
    for b in range(len(BIRDS)):
        text = power_text(b)
        assert text == "no power" or text.endswith(".")
        leftovers = [w for w in text.replace(":", " ").split() if "_" in w or (w.isupper() and len(w) > 1)]
        assert not leftovers, (BIRD_NAMES[b], BIRDS[b]["power"], text)


def test_powers_say_when_and_what():
    # §9.3: GAIN_FEEDER S cache_optional (brown); PINK opp_play_bird hab=wetland -> GAIN_SUPPLY F 1
    assert power_text(BIRD_NAMES.index("Acorn Woodpecker")) == (
        "When activated: gain 1 seed from the birdfeeder, if there is one, and you may cache it on this bird.")
    pink = next(b for b in range(len(BIRDS)) if BIRDS[b]["power"] == "PINK opp_play_bird hab=wetland -> GAIN_SUPPLY F 1")
    assert power_text(pink) == ("Once between turns, when another player plays a bird in their wetland: "
                                "gain 1 fish from the supply.")
    then = next(b for b in range(len(BIRDS)) if BIRDS[b]["power"] == "TUCK_HAND then DRAW 1")
    assert "; if you do, draw 1 card." in power_text(then)


def test_costs_and_details():
    assert cost_text(BIRD_NAMES.index("Acorn Woodpecker")) == "3 seed"
    free = next(b for b in range(len(BIRDS)) if BIRDS[b]["cost_text"] == "0")
    assert cost_text(free) == "free"
    either = next(b for b in range(len(BIRDS)) if "/" in BIRDS[b]["cost_text"])
    assert " or " in cost_text(either)
    d = bird_details(BIRD_NAMES.index("Acorn Woodpecker"))
    assert (d["points"], d["habitats"], d["nest"], d["eggs"]) == (5, ["forest"], "cavity", 4)
