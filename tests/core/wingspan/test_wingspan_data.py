"""Wingspan data files (src/core/data, made by tools/make_wingspan_data.py) and the power DSL
compiler: counts, bonus memberships and hand-checked spot values; each test cites the section
of docs/rules/wingspan-cards.md (or docs/rules/wingspan.md) it checks."""
from collections import Counter

import pytest

from roost.core import wingspan_data as wd


def test_counts_match_the_rules_checks():
    # rules: docs/rules/wingspan-cards.md §3.4
    birds = wd.birds()
    assert len(birds) == 170
    assert Counter(b["colour"] for b in birds) == {"brown": 116, "white": 36, "pink": 12, "none": 6}
    assert sum(b["predator"] for b in birds) == 22
    assert sum(b["flocking"] for b in birds) == 25
    assert Counter(wd.NESTS[b["nest"]] for b in birds) == {
        "bowl": 38, "cavity": 38, "ground": 38, "none": 2, "platform": 38, "star": 16}
    per_card = Counter(c for b in birds for c in b["bonus"])
    assert per_card == {
        "ANAT": 39, "BACK": 71, "BCNT": 25, "BFED": 75, "CART": 37, "ENCL": 54, "FALC": 22, "FISH": 30,
        "FORE": 40, "FWEB": 16, "HIST": 19, "LARG": 57, "NBOX": 54, "OMNI": 28, "PASS": 60, "PHOT": 58,
        "PLAT": 54, "PRAI": 31, "RODE": 25, "VITI": 37, "WETL": 45, "WILD": 54}
    assert len(wd.bonus_cards()) == 26
    assert len(wd.goals()["sides"]) == 16


def test_bird_spot_checks():
    # rules: docs/rules/wingspan-cards.md §3.2, §3.3, §1.3; rows read by hand
    b = wd.birds()
    jay = b[33]
    assert jay["name"] == "Blue Jay" and jay["hab"] == [0] and jay["vp"] == 3
    assert jay["cost"] == {"form": "and", "and": [0, 1, 0, 0, 0], "wild": 1, "or": []}
    assert (wd.NESTS[jay["nest"]], jay["eggs"], jay["ws"]) == ("bowl", 2, 41)
    assert jay["power"] == "GAIN_FEEDER S cache_optional" and jay["ask"] == "C"
    eagle = b[16]
    assert eagle["name"] == "Bald Eagle" and eagle["hab"] == [2]
    assert eagle["cost"]["and"] == [0, 0, 2, 0, 1] and eagle["ws"] == 203 and eagle["vp"] == 9
    crow = b[4]
    assert crow["hab"] == [0, 1, 2] and crow["cost"]["wild"] == 1 and crow["cost"]["and"] == [0] * 5
    assert b[152]["name"] == "Turkey Vulture" and b[152]["cost"]["form"] == "zero"
    assert b[68]["cost"] == {"form": "or", "and": [0] * 5, "wild": 0, "or": [0, 1, 3]}   # Downy: I/S/R
    assert b[38]["name"] == "Bronzed Cowbird" and wd.NESTS[b[38]["nest"]] == "none" and b[38]["eggs"] == 0
    assert b[119]["name"] == "Purple Gallinule" and b[119]["predator"] is False
    assert b[20]["predator"] and b[20]["power"] == "PREDATOR_LOOK wingspan<75"
    assert b[151]["name"] == "Tufted Titmouse" and "ANAT" not in b[151]["bonus"]   # [decision]
    assert b[122]["name"] == "Red Crossbill" and "ANAT" in b[122]["bonus"]


def test_bonus_and_goal_spot_checks():
    # rules: docs/rules/wingspan-cards.md §1.2, §1.3, §2.1, §2.3
    bc = wd.bonus_cards()
    assert bc[1]["name"] == "Backyard Birder" and bc[1]["tiers"] == [[5, 3], [7, 6]]
    assert bc[0]["tiers"] == [[2, 3], [4, 7]] and bc[18]["tiers"] == [[4, 3], [6, 7]]
    assert bc[11]["tiers"] == [[3, 4], [5, 8]]
    assert bc[2]["kind"] == "per" and bc[2]["points"] == 2
    assert wd.bonus_score(bc[1], 4) == 0 and wd.bonus_score(bc[1], 6) == 3 and wd.bonus_score(bc[1], 9) == 6
    assert wd.bonus_score(bc[8], 3) == 6
    g = wd.goals()
    assert g["sides"][14]["code"] == "EGG_SETS" and g["sides"][14]["tile"] == 7
    assert g["sides"][9]["code"] == "EGGS_CAVITY" and g["sides"][9]["side"] == 1
    assert g["green_places"] == [[4, 1, 0, 0], [5, 2, 1, 0], [6, 3, 2, 0], [7, 4, 3, 0]]


def test_power_compiler():
    # rules: docs/rules/wingspan.md §9.1-9.3
    assert wd.compile_power("-") == (0, 0, ())
    assert wd.compile_power("GAIN_FEEDER S cache_optional") == (0, 0, ((wd.V_GAIN_FEEDER, 2, 1),))
    assert wd.compile_power("GAIN_FEEDER I|R") == (0, 0, ((wd.V_GAIN_FEEDER, 1 | 8, 0),))
    assert wd.compile_power("TUCK_HAND then GAIN_SUPPLY I|S 1") == (
        0, 0, ((wd.V_TUCK_HAND, 0, 0), (wd.V_GAIN_SUPPLY_CHOICE, 3, 1)))
    assert wd.compile_power("PINK opp_play_bird hab=wetland -> GAIN_SUPPLY F 1") == (
        3, 2, ((wd.V_GAIN_SUPPLY, 2, 1),))
    assert wd.compile_power("FEWEST_IN forest -> GAIN_FEEDER any") == (0, 0, ((wd.V_FEWEST_IN, 0, 0),))
    assert wd.compile_power("PLAY_EXTRA this") == (0, 0, ((wd.V_PLAY_EXTRA, -1, 0),))
    assert wd.compile_power("PREDATOR_LOOK wingspan<100")[2] == ((wd.V_PREDATOR_LOOK, 100, 0),)
    # every verb of docs/rules/wingspan.md §9.4 is used by some bird
    used = set()
    for b in wd.birds():
        for v, _, _ in wd.compile_power(b["power"])[2]:
            used.add(wd.VERBS[v].replace("_CHOICE", "").replace("_WILD", ""))
    assert used == set(wd.DSL_VERBS)
    for bad in ("GAIN_SUPPLY Q 1", "FLY 3", "PINK opp_sneeze -> LAY_SELF 1", "LAY_SELF 2",
                "DRAW 1 then DRAW 1 then DRAW 1"):
        with pytest.raises(wd.DataError):
            wd.compile_power(bad)


def test_slugs_are_distinct():
    assert len({wd.slug(b["name"]) for b in wd.birds()}) == 170
    assert wd.slug("Baird's Sparrow") == "bairds-sparrow"


def _eats(b, t):
    return b["cost"]["and"][t] > 0 or t in b["cost"]["or"]


def _invertebrates_only(c):
    return c["wild"] == 0 and ((c["form"] == "and" and sum(c["and"]) == c["and"][0])
                               or (c["form"] == "or" and c["or"] == [0]))


# what each of the bonus cards that depend on the card alone counts, where the printed card
# decides it (the name-based cards are settled by the table itself)
COUNTING_RULES = {
    "BFED": lambda b: _eats(b, 1), "FISH": lambda b: _eats(b, 2), "VITI": lambda b: _eats(b, 3),
    "RODE": lambda b: _eats(b, 4), "OMNI": lambda b: b["cost"]["wild"] > 0,
    "FWEB": lambda b: b["cost"]["form"] != "zero" and _invertebrates_only(b["cost"]),
    "FORE": lambda b: b["hab"] == [0], "PRAI": lambda b: b["hab"] == [1], "WETL": lambda b: b["hab"] == [2],
    "BACK": lambda b: b["vp"] < 4, "LARG": lambda b: b["ws"] > 65, "PASS": lambda b: b["ws"] <= 30,
    "ENCL": lambda b: wd.NESTS[b["nest"]] in ("ground", "star"),
    "NBOX": lambda b: wd.NESTS[b["nest"]] in ("cavity", "star"),
    "PLAT": lambda b: wd.NESTS[b["nest"]] in ("platform", "star"),
    "WILD": lambda b: wd.NESTS[b["nest"]] in ("bowl", "star"),
    "HIST": lambda b: "'s" in b["name"], "FALC": lambda b: b["predator"], "BCNT": lambda b: b["flocking"],
}


def test_bonus_memberships_follow_the_counting_rules():
    # rules: docs/rules/wingspan-cards.md §1.2 (what each card counts), §3.4 (the checks)
    for code, counts in COUNTING_RULES.items():
        wrong = [b["name"] for b in wd.birds() if counts(b) != (code in b["bonus"])]
        assert wrong == [], code
    for b in wd.birds():
        if b["flocking"]:
            assert "TUCK_" in b["power"], b["name"]


def test_how_many_birds_open_with_each_verb():
    # rules: docs/rules/wingspan.md §9.4 (the table of first verbs)
    first = Counter("no power" if b["power"] == "-" else b["power"].split()[0] for b in wd.birds())
    assert first == {
        "TUCK_HAND": 19, "DRAW_BONUS": 15, "PINK": 12, "PREDATOR_ROLL": 12, "DRAW": 10, "GAIN_FEEDER": 10,
        "PLAY_EXTRA": 10, "PREDATOR_LOOK": 10, "MOVE_IF_RIGHTMOST": 8, "PAY_EGG": 7, "GAIN_SUPPLY": 6,
        "no power": 6, "ALL_PLAYERS_GAIN_SUPPLY": 5, "CACHE_SUPPLY": 5, "SPEND_FOOD": 5,
        "ALL_PLAYERS_DRAW_DECK": 4, "LAY_ANY": 4, "LAY_EACH": 4, "ALL_PLAYERS_LAY": 3, "FEWEST_IN": 3,
        "LAY_SELF": 3, "EACH_PLAYER_GAIN_FEEDER": 2, "GAIN_ALL_FEEDER": 2, "REPEAT_BROWN": 2, "DRAFT": 1,
        "REPEAT_PREDATOR": 1, "TRADE_FOOD": 1}
