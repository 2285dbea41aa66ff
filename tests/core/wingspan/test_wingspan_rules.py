"""Wingspan (core set) rules tests: every expected result of docs/rules/wingspan.md §10 and
hand-derived checks of setup, the actions, payments, the feeder, goals, scoring and the bird
powers (at least one bird per verb of §9.3).  A bare §N cites docs/rules/wingspan.md,
"wingspan-cards.md §N" docs/rules/wingspan-cards.md.  Positions are built with ``make`` (a
complete position text: every card the test does not place goes to the deck)."""
import json
import random
import re

import pytest

from roost.core.errors import MoveError, PositionError
from roost.core.wingspan import BIRD_NAMES, BONUS_NAMES, Wingspan, jsonform

ID = {name: i for i, name in enumerate(BIRD_NAMES)}
BID = {name: i for i, name in enumerate(BONUS_NAMES)}
I, S, F, R, M = range(5)


def bird(name, egg=0, cache=(0, 0, 0, 0, 0), tuck=()):
    return {"id": ID[name], "egg": egg, "cache": list(cache), "tuck": sorted([list(t) for t in tuck])}


def _as_bird(x):
    return bird(x) if isinstance(x, str) else x


def make(n=2, *, mats=None, hands=None, food=None, bonus=None, feeder=(0, 1, 2, 3, 4), tray=None,
         deck=(), rest="deck", discard=(), round=1, t=0, stack=None, side="green", goals=(0, 2, 4, 6),
         owe=None, pink=None, draft=(), deck_epoch=0, deck_forms=(), rng="00000000000000a5",
         bonus_deck=None, bonus_discard=(), goal_pts=None, phase="play"):
    """A complete position (§8) from a compact description; returns the Wingspan state.
    Birds not placed by the test go to the top of the deck in the order given by ``deck``,
    then (ascending) to ``rest``: "deck", "discard", or ("hand", seat)."""
    mats = mats or [[[], [], []] for _ in range(n)]
    mats = [[[_as_bird(b) for b in row] for row in m] for m in mats]
    hands = hands or [[] for _ in range(n)]
    hands = [[(ID[h], 0) if isinstance(h, str) else (ID[h[0]], h[1]) for h in hand] for hand in hands]
    food = food or [[0] * 5 for _ in range(n)]
    bonus = bonus if bonus is not None else [[q] for q in range(n)]
    used = set()
    for m in mats:
        for row in m:
            for b in row:
                used.add(b["id"])
                used.update(x for x, _ in b["tuck"])
    for hand in hands:
        used.update(b for b, _ in hand)
    deck_ids = [ID[x] for x in deck]
    discard_ids = [ID[x] for x in discard]
    draft_ids = [ID[x] for x in draft]
    used.update(deck_ids, discard_ids, draft_ids)
    for form in deck_forms:
        pass
    if tray is None:
        tray_ids = [b for b in range(170) if b not in used][:3]
    else:
        tray_ids = [ID[x] if x else -1 for x in tray]
    used.update(b for b in tray_ids if b >= 0)
    left = [b for b in range(170) if b not in used]
    if rest == "deck":
        deck_ids += left
    elif rest == "discard":
        discard_ids += left
    else:
        hands[rest[1]] = hands[rest[1]] + [(b, 0) for b in left]
    first = (round - 1) % n
    cur = (first + t) % n
    if phase == "over":
        round, first, t = 4, 3 % n, 5 * n
        cur = (first + t - 1) % n
        stack = []
        goal_pts = goal_pts or [[0] * n for _ in range(4)]
    if stack is None:
        stack = [{"f": "TURN", "seat": cur}, {"f": "ACT", "seat": cur}]
    act_pending = len(stack) == 2 and stack[1]["f"] == "ACT"
    cubes = []
    for p in range(n):
        cnt = sum(1 for k in range(t) if (first + k) % n == p)
        cubes.append(0 if phase == "over" else (9 - round) - cnt - (1 if (p == cur and not act_pending) else 0))
    held = set(b for bs in bonus for b in bs) | set(b for b, _, _ in bonus_discard)
    bdeck = bonus_deck if bonus_deck is not None else [b for b in range(26) if b not in held]
    players = []
    for p in range(n):
        players.append({
            "hand": [[b, tg] for b, tg in sorted(hands[p])],
            "bonus": [[b, 0] for b in sorted(bonus[p])],
            "food": list(food[p]), "cubes": cubes[p],
            "mat": mats[p], "pink_used": sorted(pink[p]) if pink else [],
            "owe": owe[p] if owe else 0})
    d = {"game": "wingspan-core", "v": 1, "n": n, "side": side, "goals": list(goals), "phase": phase,
         "round": round, "first": first, "t": t, "cur": cur, "deck": deck_ids, "deck_epoch": deck_epoch,
         "deck_forms": [list(f) for f in deck_forms], "discard": discard_ids, "tray": tray_ids,
         "feeder": sorted(feeder), "bonus_deck": bdeck, "bonus_epoch": 0, "bonus_forms": [],
         "bonus_discard": [list(x) for x in bonus_discard],
         "goal_pts": goal_pts if goal_pts is not None else [[0] * n for _ in range(round - 1)],
         "draft": draft_ids, "players": players, "stack": stack, "rng": rng}
    return Wingspan.parse(json.dumps(d, separators=(",", ":")), settle=True)


def D(s):
    return jsonform.to_dict(s)


def play(s, *names):
    for name in names:
        s.play_move(name)
    return s


def mat_ids(s, p, h):
    return [b["id"] for b in D(s)["players"][p]["mat"][h]]


def top(s):
    return D(s)["stack"][-1]


def pow_at(seat, slot, name, step=0, asked=0, st=None, below=None, row=None):
    """A stack [TURN, ROW, POW] with the power of ``name`` (at seat/slot) pending."""
    stack = [{"f": "TURN", "seat": seat}]
    if row is not None:
        stack.append({"f": "ROW", "seat": seat, "hab": row[0], "col": row[1]})
    stack += below or []
    stack.append({"f": "POW", "seat": seat, "slot": slot, "bird": ID[name], "step": step, "did": 0,
                  "asked": asked, "rep": 0, "st": st or {}})
    return stack


# ---------------------------------------------------------------------------- setup
def test_setup_deals_as_the_rules_say():
    # rules: §1.3 steps 1-6, §7.4
    s = Wingspan.start(players=3, seed=4)
    d = D(s)
    assert d["phase"] == "setup" and d["round"] == 1 and d["first"] == 0
    assert len(d["deck"]) == 170 - 3 - 15 and all(b >= 0 for b in d["tray"])
    assert len(d["feeder"]) == 5
    assert len({g // 2 for g in d["goals"]}) == 4
    assert len(d["bonus_deck"]) == 26 - 6
    for p in d["players"]:
        assert len(p["hand"]) == 5 and all(tag == 0 for _, tag in p["hand"])
        assert len(p["bonus"]) == 2 and p["food"] == [1, 1, 1, 1, 1] and p["cubes"] == 8
    assert s.purpose == "SETUP_KEEP_BIRD" and s.player == 0 and s.legal_names() == ["no", "yes"]


def test_setup_keep_all_or_none_and_buffering():
    # rules: §1.3 step 8, §10.53 (keep 0 keeps all food; keep 5 discards all food), §10.54
    s = Wingspan.start(players=2, seed=9)
    dealt0 = [b for b, _ in D(s)["players"][0]["hand"]]
    play(s, "yes", "yes", "yes", "yes", "yes")     # five food discards are forced
    assert s.purpose == "SETUP_KEEP_BONUS" and s.player == 0
    bonus0 = [b for b, _ in D(s)["players"][0]["bonus"]]
    s.play_move(216 + bonus0[1])                   # keep the second bonus card (global id)
    # buffered: seat 0's hand and food are still as dealt while seat 1 chooses
    d = D(s)
    assert s.purpose == "SETUP_KEEP_BIRD" and s.player == 1
    assert d["players"][0]["food"] == [1, 1, 1, 1, 1] and len(d["players"][0]["hand"]) == 5
    assert d["players"][0]["setup"] == {"keep": dealt0, "food": [1, 1, 1, 1, 1], "bonus": bonus0[1]}
    assert json.loads(s.view(1))["moves"] == ["? (setup)"]     # seat 1 sees that seat 0 chose
    assert json.loads(s.view(0))["moves"][:5] == ["yes"] * 5
    dealt1 = [b for b, _ in d["players"][1]["hand"]]
    play(s, "no", "no", "no", "no", "no")          # keeps nothing: straight to the bonus
    assert s.purpose == "SETUP_KEEP_BONUS"
    bonus1 = [b for b, _ in D(s)["players"][1]["bonus"]]
    s.play_move(216 + bonus1[0])
    d = D(s)
    assert d["phase"] == "play" and s.purpose == "TURN_ACTION" and s.player == 0
    assert d["players"][0]["food"] == [0, 0, 0, 0, 0] and [b for b, _ in d["players"][0]["hand"]] == dealt0
    assert d["players"][1]["food"] == [1, 1, 1, 1, 1] and d["players"][1]["hand"] == []
    assert d["discard"] == dealt1
    assert d["bonus_discard"] == [[bonus0[0], 0, 0], [bonus1[1], 0, 1]]
    assert [b for b, _ in d["players"][0]["bonus"]] == [bonus0[1]]


def test_setup_food_discards_are_a_canonical_batch():
    # rules: §7.5 SETUP_DISCARD_FOOD: non-decreasing types, completable
    s = Wingspan.start(players=1, seed=2)
    play(s, "yes", "yes", "no", "no", "no")        # keep 2: discard 2 of the 5 tokens
    assert s.purpose == "SETUP_DISCARD_FOOD" and s.local_moves() == [0, 1, 2, 3]
    s.play_move("food:R")
    assert s.purpose == "SETUP_KEEP_BONUS"          # the last token (M) was forced


def test_setup_choices_are_hidden_from_other_seats():
    # rules: §6.1 (setup buffers hidden), §10.54
    s = Wingspan.start(players=2, seed=3)
    assert s.observe_move(1, 1) == -1 and s.observe_move(1, 0) == 1


def test_perft_from_the_start():
    # rules: §7.1 forced moves collapse, §7.4: 5 keep nodes, then k food picks
    # (C(5,k) keep patterns: 1*2 + 5*5 + 10*4 + 10*3 + 5*2 + 1*2 leaves at depth 6)
    s = Wingspan.start(players=2, seed=0)
    assert [s.perft(d) for d in range(1, 7)] == [2, 4, 8, 16, 32, 109]


# ---------------------------------------------------------------------------- actions
def test_play_is_offered_only_with_a_legal_pair():
    # rules: §3.2, §10.14
    s = make(hands=[["Blue Jay"], []], food=[[0, 0, 0, 0, 0], [0] * 5])
    assert s.legal_names() == ["food", "eggs", "cards"]
    s = make(hands=[["Blue Jay"], []], food=[[0, 1, 1, 0, 0], [0] * 5])
    assert s.legal_names() == ["play", "food", "eggs", "cards"]


def test_play_a_bird_pays_and_places_it():
    # rules: §3.3 procedure; 1S+1W from S1 F1 is forced, the forest is its only habitat
    s = make(hands=[["Blue Jay", "Mallard"], []], food=[[0, 1, 1, 0, 0], [0] * 5])
    play(s, "play")
    assert s.purpose == "PLAY_CARD" and s.legal_names() == ["card:blue-jay", "card:mallard"]
    play(s, "card:blue-jay")
    d = D(s)
    assert mat_ids(s, 0, 0) == [ID["Blue Jay"]] and d["players"][0]["food"] == [0, 0, 0, 0, 0]
    assert d["players"][0]["cubes"] == 7 and s.player == 1 and s.purpose == "TURN_ACTION"


def test_egg_costs_by_column():
    # rules: §2 EGG_COST, §10.12: no eggs -> only the first column; column 4 costs 2 eggs
    warblers = ["Blue-Winged Warbler", "Hooded Warbler", "Prothonotary Warbler"]
    s = make(mats=[[warblers[:1], [], []], [[], [], []]], hands=[["Blue Jay"], []],
             food=[[0, 5, 0, 0, 0], [0] * 5])
    assert "play" not in s.legal_names()            # forest column 2 costs 1 egg, no eggs anywhere
    mats = [[[bird(w, egg=2 if i == 0 else 0) for i, w in enumerate(warblers)], [],
             [bird("Mallard", egg=1)]], [[], [], []]]
    s = make(mats=mats, hands=[["Blue Jay"], []], food=[[0, 2, 1, 0, 0], [0] * 5])
    play(s, "play")
    # first egg: slot F1 only (W1 alone could not cover 2 eggs); then F1 or W1
    assert s.purpose == "PLAY_PAY_EGG" and s.legal_names() == ["slot:F1", "slot:W1"]
    play(s, "slot:W1")
    assert s.purpose == "PLAY_PAY_FOOD" and s.local_moves() == [S, F]   # {S,S} or {S,F}, S paid
    d = D(s)
    assert d["players"][0]["mat"][0][0]["egg"] == 1 and d["players"][0]["mat"][2][0]["egg"] == 0


def test_full_row_and_the_space_right_of_it():
    # rules: §2, §10.13: a full row accepts no bird; its action works from j = 5 (3 dice + trade)
    five = ["Blue-Winged Warbler", "Hooded Warbler", "Prothonotary Warbler", "American Woodcock", "Wild Turkey"]
    s = make(mats=[[[bird(b, egg=1) for b in five], [], []], [[], [], []]], hands=[["Blue Jay"], []],
             food=[[0, 5, 0, 0, 0], [0] * 5], feeder=(0, 1, 2, 3, 4))
    assert "play" not in s.legal_names()
    play(s, "food")
    d = top(s)
    assert d["f"] == "MAT" and d["n"] == 3 and d["trade"] == 1


def test_two_for_one_payments():
    # rules: §3.4, §10.9: cost 1F, supply S2 F1: payments {F} and {S,S}; {S,F} never offered
    s = make(hands=[["Osprey"], []], food=[[0, 2, 1, 0, 0], [0] * 5])
    play(s, "play")
    assert s.purpose == "PLAY_PAY_FOOD" and s.local_moves() == [S, F]
    play(s, "food:S")                                # the second seed is forced
    assert D(s)["players"][0]["food"] == [0, 0, 1, 0, 0] and mat_ids(s, 0, 2) == [ID["Osprey"]]
    # §10.9: supply S2 only pays {S,S}
    s = make(hands=[["Osprey"], []], food=[[0, 2, 0, 0, 0], [0] * 5])
    play(s, "play")
    assert D(s)["players"][0]["food"] == [0, 0, 0, 0, 0]


def test_or_costs_double_substitution_and_free_birds():
    # rules: §10.10
    s = make(hands=[["Mallard"], []], food=[[0, 0, 1, 1, 0], [0] * 5])      # I/S from F1 R1
    play(s, "play")
    assert D(s)["players"][0]["food"] == [0] * 5 and mat_ids(s, 0, 2) == [ID["Mallard"]]
    s = make(hands=[["Anhinga"], []], food=[[0, 2, 0, 2, 0], [0] * 5])      # 2F from S2 R2
    play(s, "play")
    assert D(s)["players"][0]["food"] == [0] * 5 and mat_ids(s, 0, 2) == [ID["Anhinga"]]
    # a free bird still pays its egg: column 2 of the forest
    s = make(mats=[[[bird("Hooded Warbler", egg=1)], [], []], [[], [], []]], hands=[["Black Vulture"], []])
    play(s, "play")
    assert mat_ids(s, 0, 0) == [ID["Hooded Warbler"], ID["Black Vulture"]]
    assert D(s)["players"][0]["mat"][0][0]["egg"] == 0


def test_minimal_payments_table():
    # rules: §3.4 minimal payments (1W: any one token; 1I+1F+1M includes {I,F,S,S})
    from roost.core import wingspan as w
    crow = w._PAYMENTS[ID["American Crow"]]
    assert sorted(crow) == sorted(tuple(1 if t == u else 0 for t in range(5)) for u in range(5))
    bittern = w._PAYMENTS[ID["American Bittern"]]
    assert (1, 0, 1, 0, 1) in bittern and (1, 2, 1, 0, 0) in bittern and (1, 2, 1, 0, 1) not in bittern


# ---------------------------------------------------------------------------- feeder
def _forest(feeder, birds=("Blue-Winged Warbler", "Hooded Warbler"), hand=(), food=None):
    return make(mats=[[list(birds), [], []], [[], [], []]], hands=[list(hand), []], feeder=feeder,
                food=food)


def test_empty_feeder_is_rolled_and_reroll_asks_again():
    # rules: §3.6, §10.1: feeder [F], 2 dice: {F, REROLL}; taking F empties and rolls it
    s = _forest([F])
    play(s, "food")
    assert s.purpose == "TAKE_DIE" and s.local_moves() == [F, 7]
    c = s.copy()
    play(c, "die:F")
    assert c.purpose == "TAKE_DIE" and len(D(c)["feeder"]) == 5 and D(c)["players"][0]["food"][F] == 1
    play(s, "reroll")
    assert s.purpose == "TAKE_DIE" and len(D(s)["feeder"]) == 5 and top(s)["n"] == 2


def test_one_faced_feeders():
    # rules: §3.6, §10.2, §10.3
    s = _forest([5, 5, 5])
    play(s, "food")
    assert s.local_moves() == [5, 6, 7]
    s = _forest([S, 5])
    play(s, "food")
    assert s.local_moves() == [S, 5, 6]
    s = _forest([I, I, S])
    play(s, "food", "die:S")
    assert s.local_moves() == [I, 7]


def test_supply_gains_never_reroll():
    # rules: §10.5: Blue-Gray Gnatcatcher gains from the supply with no node
    s = _forest([R, R], birds=("Blue-Gray Gnatcatcher",))
    play(s, "food", "die:R")
    assert s.player == 1 and D(s)["players"][0]["food"] == [1, 0, 0, 1, 0]


def test_blue_jay_feeder_cases():
    # rules: §10.4 (GAIN_FEEDER S cache_optional)
    s = _forest([F, F, F], birds=("Blue Jay",))
    play(s, "food", "die:F")                         # leaves [F, F]: no seed but one-faced
    assert s.purpose == "TAKE_DIE" and s.local_moves() == [7, 8]
    s = _forest([F, R, R], birds=("Blue Jay",))
    play(s, "food", "die:R")                         # leaves [F, R]: no-op, no node
    assert s.player == 1
    s = _forest([5, 5], birds=("Blue Jay",))
    play(s, "food", "die:IS-I")                      # leaves [I/S]
    assert s.local_moves() == [6, 7, 8]
    play(s, "die:IS-S")
    assert s.purpose == "CACHE_CHOICE" and len(D(s)["feeder"]) == 5
    play(s, "yes")
    d = D(s)
    assert d["players"][0]["mat"][0][0]["cache"] == [0, 1, 0, 0, 0] and d["players"][0]["food"] == [1, 0, 0, 0, 0]


def test_bald_eagle_takes_the_fish_once():
    # rules: §9.3 GAIN_ALL_FEEDER, §10.6: feeder [F,F] one-faced -> FEEDER_REROLL first
    s = make(hands=[["Bald Eagle"], []], food=[[0, 0, 2, 0, 1], [0] * 5], feeder=[F, F])
    play(s, "play")
    assert s.purpose == "FEEDER_REROLL"
    play(s, "no")
    assert s.purpose == "POWER_CONFIRM"
    play(s, "yes")
    d = D(s)
    assert d["players"][0]["food"] == [0, 0, 2, 0, 0] and len(d["feeder"]) == 5


def test_northern_flicker_takes_the_is_die_as_invertebrate():
    # rules: §9.3 [decision], §10.7
    s = make(hands=[["Northern Flicker"], []], food=[[0, 0, 0, 1, 0], [0] * 5], feeder=[I, 5, S])
    play(s, "play")
    if s.purpose == "PLAY_HABITAT":
        play(s, "hab:forest")
    assert s.purpose == "POWER_CONFIRM"
    play(s, "yes")
    d = D(s)
    assert d["players"][0]["food"] == [2, 0, 0, 0, 0] and d["feeder"] == [S]


def test_predator_roll():
    # rules: §3.6 PREDATOR_ROLL, §10.8: no-op with 5 dice inside; with 4 outside success is
    # 1 - (5/6)^4 = 0.518, the feeder is unchanged
    def anhinga(feeder, rng):
        return make(mats=[[[], [], ["Anhinga"]], [[], [], []]], feeder=feeder, rng=rng,
                    tray=["Mallard", "Killdeer", "Osprey"])
    s = anhinga([I, S, F, R, M], "00000000000000a5")
    play(s, "cards", "deck")
    assert s.player == 1 and D(s)["players"][0]["mat"][2][0]["cache"] == [0] * 5
    wins = 0
    trials = 300
    for k in range(trials):
        s = anhinga([R], f"{k * 7919 + 1:016x}")
        play(s, "cards", "deck")
        assert D(s)["feeder"] == [R]
        wins += D(s)["players"][0]["mat"][2][0]["cache"][F]
    assert abs(wins / trials - (1 - (5 / 6) ** 4)) < 0.09


# ---------------------------------------------------------------------------- eggs
def test_lay_eggs_lost_eggs_pink_and_brown_powers():
    # rules: §3.7, §10.19: room 1, n = 2: one egg, no trade, pinks (a), grassland brown powers
    mats = [[[], [bird("Spotted Towhee", egg=4)], ["Common Loon"]],
            [["Blue Jay"], ["Brown-Headed Cowbird"], []]]
    s = make(mats=mats, food=[[1, 0, 0, 0, 0], [0] * 5])
    play(s, "eggs")
    d = D(s)
    assert s.player == 1 and s.purpose == "TURN_ACTION"
    assert d["players"][0]["mat"][2][0]["egg"] == 1                 # the Loon
    assert d["players"][1]["mat"][0][0]["egg"] == 1                 # the Cowbird's egg on Blue Jay
    assert d["players"][0]["food"] == [1, 1, 0, 0, 0]               # the Towhee's seed


def test_lay_eggs_without_birds_still_triggers_pinks():
    # rules: §10.20, §10.42: 0 eggs laid, Brown-Headed Cowbird reacts
    mats = [[[], [], []], [["Blue Jay"], ["Brown-Headed Cowbird"], []]]
    s = make(mats=mats)
    play(s, "eggs")
    assert s.player == 1 and D(s)["players"][1]["mat"][0][0]["egg"] == 1


def test_canonical_egg_batch():
    # rules: §7.5, §10.21: room 1 in slot 3 and 1 in slot 10, 2 eggs: slot 10 first is illegal
    forest = [bird("Blue-Winged Warbler", egg=2), bird("Hooded Warbler", egg=3),
              bird("Prothonotary Warbler", egg=4), bird("American Woodcock", egg=1)]
    s = make(mats=[[forest, [], ["Common Loon"]], [[], [], []]])
    play(s, "eggs")                                    # both forced: slot 3, then slot 10
    d = D(s)
    assert s.player == 1 and d["players"][0]["mat"][0][3]["egg"] == 2 and d["players"][0]["mat"][2][0]["egg"] == 1
    s = make(mats=[[forest, [], [bird("Mallard", egg=2)]], [[], [], []]])
    play(s, "eggs")
    assert s.purpose == "LAY_EGG" and s.legal_names() == ["slot:F4", "slot:W1"]
    play(s, "slot:W1")                                 # then only W1 (slot 3 < last pick)
    assert D(s)["players"][0]["mat"][2][0]["egg"] == 4 and D(s)["players"][0]["mat"][0][3]["egg"] == 1


def test_grassland_trade_before_laying():
    # rules: §3.7 [decision]: j odd, food >= 1, room > n: pay one token for one more egg
    s = make(mats=[[[], ["Wild Turkey"], []], [[], [], []]], food=[[0, 1, 0, 1, 0], [0] * 5])
    play(s, "eggs")
    assert s.purpose == "GRASS_TRADE" and s.legal_names() == ["food:S", "food:R", "food:skip"]
    play(s, "food:R")
    d = D(s)
    assert d["players"][0]["mat"][1][0]["egg"] == 3 and d["players"][0]["food"] == [0, 1, 0, 0, 0]


# ---------------------------------------------------------------------------- cards
def test_tray_slots_stay_empty_and_draws_are_canonical():
    # rules: §3.8, §7.5 DRAW_SOURCE, §10.25
    wet = ["Trumpeter Swan", "Prothonotary Warbler"]
    s = make(mats=[[[], [], wet], [[], [], []]], tray=["Mallard", "Killdeer", "Osprey"],
             deck=["Anhinga", "Bald Eagle"])
    play(s, "cards")
    assert s.legal_names() == ["tray:1", "tray:2", "tray:3", "deck"]
    c = s.copy()
    play(c, "deck")
    assert c.legal_names() == ["tray:1", "tray:2", "tray:3", "deck"]   # a deck card frees the order
    play(s, "tray:2")
    assert s.legal_names() == ["tray:3", "deck"]
    play(s, "deck")
    d = D(s)
    assert d["players"][0]["hand"] == [[ID["Anhinga"], 0], [ID["Killdeer"], "p"]]
    assert d["tray"] == [ID["Mallard"], ID["Bald Eagle"], ID["Osprey"]]   # refilled at the end of the turn


def test_reshuffle_when_the_deck_is_empty():
    # rules: §3.8 [decision: lazily], §6.3 epochs, §10.26
    s = make(mats=[[[], [], []], [[], [], []]], tray=["Mallard", "Killdeer", "Osprey"],
             discard=["Anhinga", "Bald Eagle"], rest=("hand", 1))
    assert D(s)["deck"] == []
    play(s, "cards", "deck")
    d = D(s)
    assert d["deck_epoch"] == 1 and d["deck_forms"] == [[ID["Anhinga"], ID["Bald Eagle"]]]
    assert d["discard"] == [] and len(d["deck"]) == 1
    assert [tag for b, tag in d["players"][0]["hand"]] == [1]
    # both piles empty: only the tray can be drawn from
    s = make(mats=[[[], [], []], [[], [], []]], tray=["Mallard", "Killdeer", "Osprey"], rest=("hand", 1))
    play(s, "cards")
    assert s.legal_names() == ["tray:1", "tray:2", "tray:3"]
    play(s, "tray:1")
    assert D(s)["tray"] == [-1, ID["Killdeer"], ID["Osprey"]]        # the tray stays short


def test_wetland_trade():
    # rules: §3.8: j odd, an egg on a bird, a card drawable: discard an egg for one more card
    s = make(mats=[[[bird("Hooded Warbler", egg=2)], [], ["Trumpeter Swan"]], [[], [], []]])
    play(s, "cards", "deck")
    assert s.purpose == "WET_TRADE" and s.legal_names() == ["slot:F1", "slot:skip"]
    play(s, "slot:F1", "deck")
    d = D(s)
    assert len(d["players"][0]["hand"]) == 2 and d["players"][0]["mat"][0][0]["egg"] == 1


def test_forest_trade_discards_a_card_for_a_die():
    # rules: §3.5: j odd, hand not empty
    s = make(mats=[[["Hooded Warbler"], [], []], [[], [], []]], hands=[["Mallard", "Osprey"], []],
             feeder=[I, I, S, S, F])
    play(s, "food", "die:I")
    assert s.purpose == "FOREST_TRADE" and s.legal_names() == ["card:mallard", "card:osprey", "card:skip"]
    play(s, "card:osprey", "die:F")
    d = D(s)
    assert d["players"][0]["food"] == [1, 0, 1, 0, 0] and d["discard"] == [ID["Osprey"]]


def test_row_activates_right_to_left():
    # rules: §3.9: the rightmost brown bird first; white birds are passed over
    s = make(mats=[[["Blue Jay", "Ruby-Crowned Kinglet", "Great Crested Flycatcher"], [], []], [[], [], []]],
             feeder=[I, I, S])
    play(s, "food", "die:S")                          # j = 3: two dice
    play(s, "die:I")
    assert top(s)["bird"] == ID["Great Crested Flycatcher"] and s.local_moves() == [I, 7, 8]
    play(s, "die:skip")
    assert top(s)["bird"] == ID["Blue Jay"]


# ---------------------------------------------------------------------------- end of turn
def test_owed_discard_lapses_with_an_empty_hand():
    # rules: §3.10, §10.27
    mats = [[[], [], ["Yellow-Headed Blackbird"]], [[], [], []]]
    stack = pow_at(0, 10, "Yellow-Headed Blackbird", row=(2, -1))
    s = make(mats=mats, hands=[["Mallard"], []], owe=[1, 0], stack=stack)
    assert s.purpose == "TUCK_FROM_HAND" and s.legal_names() == ["card:mallard", "card:skip"]
    c = s.copy()
    play(s, "card:mallard")
    d = D(s)
    assert s.player == 1 and d["discard"] == [] and d["players"][0]["owe"] == 0
    assert d["players"][0]["mat"][2][0]["tuck"] == [[ID["Mallard"], "h0"]] and d["players"][0]["mat"][2][0]["egg"] == 1
    play(c, "card:skip")                              # the discard is forced
    assert D(c)["discard"] == [ID["Mallard"]]


def test_two_owed_discards_are_a_canonical_batch():
    # rules: §7.5 EOT_DISCARD, §10.28
    s = make(hands=[["Anhinga", "Bald Eagle", "Mallard"], []], owe=[2, 0],
             stack=[{"f": "EOT", "seat": 0, "last": -1}])
    assert s.purpose == "EOT_DISCARD" and s.legal_names() == ["card:anhinga", "card:bald-eagle"]
    play(s, "card:anhinga")
    assert s.legal_names() == ["card:bald-eagle", "card:mallard"]


# ---------------------------------------------------------------------------- pink powers
def test_kingfisher_reacts_once_between_turns():
    # rules: §4, §10.40: A's wetland play -> fish, used; B's play before the owner's turn -> nothing
    mats = [[[], [], []], [[], [], []], [[], [], ["Belted Kingfisher"]]]
    s = make(3, mats=mats, hands=[["Mallard"], ["Ruddy Duck"], []],
             food=[[1, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5])
    play(s, "play")
    d = D(s)
    assert d["players"][2]["food"] == [0, 0, 1, 0, 0] and d["players"][2]["pink_used"] == [10]
    assert s.player == 1
    play(s, "play")
    d = D(s)
    assert d["players"][2]["food"] == [0, 0, 1, 0, 0] and s.player == 2
    assert d["players"][2]["pink_used"] == []                          # cleared at its turn


def test_great_blue_heron_extra_play_and_kingfisher():
    # rules: §3.3 step 5-6, §4 (c) timing, §10.15
    mats = [[[bird("Hooded Warbler", egg=1)], [], []], [[], [], ["Belted Kingfisher"]]]
    s = make(mats=mats, hands=[["Great Blue Heron", "Mallard", "Blue Jay"], []],
             food=[[2, 0, 1, 0, 0], [0] * 5])
    play(s, "play", "card:great-blue-heron")
    assert D(s)["players"][1]["food"] == [0, 0, 1, 0, 0]             # reacted before the white power
    assert s.purpose == "PLAY_CARD" and s.legal_names() == ["card:mallard", "card:skip"]
    play(s, "card:mallard")                           # column 2: one egg, forced; I/S paid with I
    d = D(s)
    assert mat_ids(s, 0, 2) == [ID["Great Blue Heron"], ID["Mallard"]]
    assert d["players"][0]["mat"][0][0]["egg"] == 0 and d["players"][0]["cubes"] == 7
    assert d["players"][1]["food"] == [0, 0, 1, 0, 0]             # used: no second reaction


def test_house_wren_plays_into_its_own_row():
    # rules: §9.3 PLAY_EXTRA this, §10.16
    s = make(mats=[[[], [], [bird("Mallard", egg=1)]], [[], [], []]],
             hands=[["House Wren", "Blue Jay", "Killdeer"], []], food=[[2, 1, 0, 0, 0], [0] * 5])
    play(s, "play", "card:house-wren", "hab:grassland")
    assert s.purpose == "PLAY_CARD" and s.legal_names() == ["card:killdeer", "card:skip"]


def test_extra_play_chains():
    # rules: §10.17: Downy Woodpecker -> Red-Eyed Vireo -> another forest play, full egg costs
    mats = [[[], [], [bird("Mallard", egg=3)]], [[], [], []]]
    s = make(mats=mats, hands=[["Downy Woodpecker", "Red-Eyed Vireo", "Blue-Gray Gnatcatcher"], []],
             food=[[3, 0, 0, 0, 0], [0] * 5])
    play(s, "play", "card:downy-woodpecker")
    assert s.legal_names() == ["card:blue-gray-gnatcatcher", "card:red-eyed-vireo", "card:skip"]
    play(s, "card:red-eyed-vireo")
    assert s.legal_names() == ["card:blue-gray-gnatcatcher", "card:skip"]
    play(s, "card:blue-gray-gnatcatcher")
    d = D(s)
    assert mat_ids(s, 0, 0) == [ID["Downy Woodpecker"], ID["Red-Eyed Vireo"], ID["Blue-Gray Gnatcatcher"]]
    assert d["players"][0]["mat"][2][0]["egg"] == 1 and d["players"][0]["food"] == [0] * 5
    assert d["players"][0]["cubes"] == 7 and s.player == 1


def test_reactions_of_several_owners_start_left_of_the_active_player():
    # rules: §4 order, §10.45: active seat 1; the vultures of seats 2 then 0 react
    mats = [[["Black Vulture"], [], []], [["Barred Owl"], [], []], [["Turkey Vulture"], [], []]]
    s = make(3, t=1, mats=mats, deck=["Blue Jay"], feeder=[I, S, F, R])
    play(s, "food", "die:I", "yes")                 # the owl's look succeeds (Blue Jay, 41 cm)
    assert s.purpose == "TAKE_DIE" and s.player == 2
    play(s, "die:S")
    assert s.purpose == "TAKE_DIE" and s.player == 0
    play(s, "die:F")
    d = D(s)
    assert d["players"][2]["food"] == [0, 1, 0, 0, 0] and d["players"][0]["food"] == [0, 0, 1, 0, 0]
    assert d["players"][0]["pink_used"] == [0] and s.player == 2     # seat 2's turn cleared its own mark


def _owl_position(n, vulture_seat, extra_mats=None, rng="00000000000000a5"):
    mats = [[[], [], []] for _ in range(n)]
    mats[0][0] = ["Barred Owl"]
    if n > 1:
        mats[1][0] = ["Cooper's Hawk"]
    mats[vulture_seat][0] = mats[vulture_seat][0] + ["Black Vulture"]
    return make(n, mats=mats, deck=["Blue Jay", "Bald Eagle", "Mallard", "Osprey"], feeder=[I, S, F],
                rng=rng)


def test_vulture_skipped_stays_unused():
    # rules: §4 (d), §10.41
    s = _owl_position(3, 2)
    play(s, "food", "die:I")
    assert s.purpose == "POWER_CONFIRM" and s.player == 0           # Y*: seat 2 holds an unused vulture
    play(s, "yes")                                  # Blue Jay (41 cm < 75) is tucked: success
    assert s.purpose == "TAKE_DIE" and s.player == 2 and "die:skip" in s.legal_names()
    play(s, "die:skip")
    d = D(s)
    assert d["players"][0]["mat"][0][0]["tuck"] == [[ID["Blue Jay"], "p"]] and d["players"][2]["pink_used"] == []
    assert s.player == 1
    play(s, "food")
    play(s, s.legal_names()[0])
    assert s.purpose == "POWER_CONFIRM" and s.player == 1
    play(s, "yes")                                  # Bald Eagle: 203 cm, fails: discarded
    assert D(s)["discard"] == [ID["Bald Eagle"]] and s.player == 2 and s.purpose == "TURN_ACTION"


def test_own_predator_never_feeds_own_vulture():
    # rules: §10.39 (and Y* applied without asking: no opponent vulture)
    s = make(mats=[[["Barred Owl", "Black Vulture"], [], []], [[], [], []]], deck=["Blue Jay"], feeder=[I, S, F])
    play(s, "food", "die:I", "die:S")
    d = D(s)
    assert s.player == 1 and d["players"][0]["mat"][0][0]["tuck"] == [[ID["Blue Jay"], "p"]]


def test_loggerhead_shrike_counts_only_mat_step_rodents():
    # rules: §4 (b) [decision], §10.43
    mats = [[["Hermit Thrush"], [], []], [["Hooded Warbler"], ["Loggerhead Shrike"], []]]
    s = make(mats=mats, feeder=[I, M, M, M])
    play(s, "food", "die:M")
    d = D(s)
    assert d["players"][1]["mat"][1][0]["cache"] == [0, 0, 0, 0, 1]
    s = make(mats=mats, feeder=[I, M, M, M])
    play(s, "food", "die:I")
    assert s.purpose == "POWER_CONFIRM"                 # Hermit Thrush: both have 1 forest bird
    play(s, "yes", "die:M")                             # the owner first, then seat 1
    assert s.purpose == "TAKE_DIE" and s.player == 1
    play(s, "die:M")
    d = D(s)
    assert d["players"][1]["mat"][1][0]["cache"] == [0] * 5
    assert d["players"][0]["food"] == [1, 0, 0, 0, 1] and d["players"][1]["food"] == [0, 0, 0, 0, 1]


def test_pink_marks_survive_the_round_end():
    # rules: §5.1 step 2, §10.44
    mats = [[[], [], ["Belted Kingfisher"]], [[bird("Hooded Warbler", egg=1)], [], []]]
    s = make(mats=mats, t=15, hands=[[], ["Mallard", "Ruddy Duck"]], food=[[0] * 5, [2, 0, 0, 0, 0]],
             pink=[[10], []])
    play(s, "play", "card:mallard")                     # no reaction: used during this turn
    d = D(s)
    assert d["round"] == 2 and d["players"][0]["pink_used"] == [10] and s.player == 1
    play(s, "play")                                     # round 2 starts with seat 1: still used
    assert D(s)["players"][0]["food"] == [0] * 5 and s.player == 0


def test_pink_after_the_owners_last_turn_of_the_game():
    # rules: §4 reset (published ruling), §10.44: round 4, seat 0 has the last turn
    mats = [[[], [], []], [[], [], ["Belted Kingfisher"]]]
    s = make(mats=mats, round=4, t=9, hands=[["Mallard"], []], food=[[1, 0, 0, 0, 0], [0] * 5],
             goal_pts=[[0, 0], [0, 0], [0, 0]])
    play(s, "play")
    assert s.is_over and D(s)["players"][1]["food"] == [0, 0, 1, 0, 0]


def test_no_pinks_with_one_player():
    # rules: §1.4, §10.56
    s = make(1, mats=[[[], [], [bird("Belted Kingfisher", egg=1)]]], hands=[["Mallard"]], food=[[1, 0, 0, 0, 0]])
    play(s, "play")
    assert D(s)["players"][0]["food"] == [0] * 5


# ---------------------------------------------------------------------------- powers, by verb
def test_gain_and_cache_from_the_supply():
    # rules: §9.3 GAIN_SUPPLY x n and CACHE_SUPPLY (class A: no node)
    s = _forest([R, R], birds=("Carolina Chickadee", "Blue-Gray Gnatcatcher"))
    play(s, "food", "die:R", "die:R")
    d = D(s)
    assert d["players"][0]["food"] == [1, 0, 0, 2, 0] and d["players"][0]["mat"][0][0]["cache"] == [0, 1, 0, 0, 0]


def test_gain_supply_choice_and_wild():
    # rules: §9.3 GAIN_SUPPLY x|y 1 (Pygmy Nuthatch after its tuck), GAIN_SUPPLY W 2 (a canonical batch)
    mats = [[["Pygmy Nuthatch"], [], []], [[], [], []]]
    s = make(mats=mats, hands=[["Mallard"], []], stack=pow_at(0, 0, "Pygmy Nuthatch", row=(0, -1)))
    play(s, "card:mallard")
    assert s.purpose == "GAIN_FOOD_TYPE" and s.legal_names() == ["food:I", "food:S"]
    mats = [[[], [], []], [["Chihuahuan Raven", bird("Wild Turkey", egg=1)], [], []]]
    mats = [[[], [bird("Chihuahuan Raven"), bird("Wild Turkey", egg=1)], []], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 5, "Chihuahuan Raven", row=(1, -1)))
    assert s.purpose == "POWER_PAY_EGG" and s.legal_names() == ["slot:G2", "slot:skip"]
    play(s, "slot:G2")
    assert s.purpose == "GAIN_FOOD_TYPE" and s.local_moves() == [0, 1, 2, 3, 4]
    play(s, "food:F")
    assert s.local_moves() == [2, 3, 4]
    play(s, "food:M")
    assert D(s)["players"][0]["food"] == [0, 0, 1, 0, 1]


def test_all_players_gain_supply():
    # rules: §9.3 ALL_PLAYERS_GAIN_SUPPLY (Y*: asked with 2 players, applied with 1)
    s = _forest([R, R], birds=("Baltimore Oriole",))
    play(s, "food", "die:R")
    assert s.purpose == "POWER_CONFIRM"
    play(s, "yes")
    d = D(s)
    assert d["players"][0]["food"] == [0, 0, 0, 2, 0] and d["players"][1]["food"] == [0, 0, 0, 1, 0]
    s = make(1, mats=[[["Baltimore Oriole"], [], []]], feeder=[R, R])
    play(s, "food", "die:R")
    assert D(s)["players"][0]["food"] == [0, 0, 0, 2, 0]


def test_each_player_gains_from_the_feeder():
    # rules: §9.3 EACH_PLAYER_GAIN_FEEDER, §10.37
    s = _forest([F, R], birds=("Anna's Hummingbird",))
    play(s, "food", "die:F")
    assert s.purpose == "START_PLAYER" and s.local_moves() == [0, 1, 5]
    play(s, "seat:1")
    assert s.purpose == "TAKE_DIE" and s.player == 1 and s.local_moves() == [R, 7]
    play(s, "die:R")                                # the feeder is empty: rolled before seat 0 takes
    assert s.purpose == "TAKE_DIE" and s.player == 0 and len(D(s)["feeder"]) == 5


def test_fewest_in_habitat():
    # rules: §9.3 FEWEST_IN, §10.38 (American Bittern)
    def bittern(own, other):
        mats = [[[], [], ["American Bittern"] + own], [[], [], other]]
        return make(mats=mats, deck=["Mallard", "Osprey", "Anhinga"],
                    stack=pow_at(0, 10, "American Bittern", row=(2, -1)))
    s = bittern(["Trumpeter Swan"], ["Common Loon"])       # 2 against 1: only the opponent draws
    assert s.purpose == "POWER_CONFIRM" and s.player == 0
    play(s, "yes")
    assert s.purpose == "DRAW_SOURCE" and s.player == 1
    play(s, "deck")
    d = D(s)
    assert d["players"][1]["hand"] == [[ID["Mallard"], 0]] and d["players"][0]["hand"] == []
    s = bittern([], ["Common Loon"])                       # a tie: both, the owner first
    play(s, "yes")
    assert s.purpose == "DRAW_SOURCE" and s.player == 0
    play(s, "deck")
    assert s.purpose == "DRAW_SOURCE" and s.player == 1
    s = bittern([], ["Common Loon", "Trumpeter Swan"])     # the owner alone: no prompt
    assert s.purpose == "DRAW_SOURCE" and s.player == 0


def test_spend_food_then_tuck_from_the_deck():
    # rules: §9.3 SPEND_FOOD (Y), TUCK_DECK (d<e> tags)
    mats = [[[], [], ["American White Pelican"]], [[], [], []]]
    s = make(mats=mats, food=[[0, 0, 1, 0, 0], [0] * 5], deck=["Mallard", "Osprey"],
             stack=pow_at(0, 10, "American White Pelican", row=(2, -1)))
    assert s.purpose == "POWER_CONFIRM"
    play(s, "yes")
    d = D(s)
    assert d["players"][0]["food"] == [0] * 5
    assert d["players"][0]["mat"][2][0]["tuck"] == [[ID["Mallard"], "d0"], [ID["Osprey"], "d0"]]
    s = make(mats=mats, stack=pow_at(0, 10, "American White Pelican", row=(2, -1)), deck=["Mallard"])
    assert s.player == 1                            # no fish: a no-op, passed over silently


def test_trade_food():
    # rules: §9.3 TRADE_FOOD, §10.33 (Green Heron)
    mats = [[[], [], ["Green Heron"]], [[], [], []]]
    s = make(mats=mats, food=[[0, 0, 1, 0, 0], [0] * 5], stack=pow_at(0, 10, "Green Heron", row=(2, -1)))
    assert s.purpose == "TRADE_PAY" and s.legal_names() == ["food:F", "food:skip"]
    play(s, "food:F")
    assert s.purpose == "TRADE_GAIN" and s.local_moves() == [I, S, R, M]
    play(s, "food:M")
    assert D(s)["players"][0]["food"] == [0, 0, 0, 0, 1]


def test_lay_self_and_tuck_then_lay_at_the_limit():
    # rules: §9.3 LAY_SELF, TUCK_HAND then LAY_SELF [decision], §10.23
    mats = [[[], [bird("Mourning Dove", egg=5), bird("Brewer's Blackbird", egg=3)], []], [[], [], []]]
    s = make(mats=mats, hands=[["Mallard"], []])
    play(s, "eggs")                                  # nothing can be laid; the Blackbird may tuck
    assert s.purpose == "TUCK_FROM_HAND" and top(s)["bird"] == ID["Brewer's Blackbird"]
    play(s, "card:mallard")
    d = D(s)
    assert d["players"][0]["mat"][1][1]["tuck"] == [[ID["Mallard"], "h0"]] and d["players"][0]["mat"][1][1]["egg"] == 3
    assert s.player == 1                             # the Dove at its limit: a no-op


def test_lay_any_and_lay_each():
    # rules: §9.3 LAY_ANY (Baird's Sparrow), LAY_EACH, §10.18 (Bobolink lays on itself and on stars)
    mats = [[[], [bird("Baird's Sparrow", egg=2)], [bird("Mallard"), bird("Common Loon")]], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 5, "Baird's Sparrow", row=(1, -1)))
    assert s.purpose == "LAY_EGG" and s.legal_names() == ["slot:W1", "slot:W2"]
    mats = [[[bird("Hooded Warbler")], [], [bird("Mallard"), bird("Atlantic Puffin", egg=1), bird("Killdeer")]],
             [[], [], []]]
    s = make(mats=mats, hands=[["Bobolink"], []], food=[[1, 2, 0, 0, 0], [0] * 5])
    play(s, "play")
    d = D(s)
    eggs = [b["egg"] for b in d["players"][0]["mat"][2]]
    assert eggs == [1, 1, 1]                         # Mallard (ground), Puffin (star, limit 1: full), Killdeer
    eggs = [b["egg"] for b in d["players"][0]["mat"][2]]
    assert d["players"][0]["mat"][1][0]["egg"] == 1 and d["players"][0]["mat"][0][0]["egg"] == 0


def test_all_players_lay():
    # rules: §9.3 ALL_PLAYERS_LAY, §10.22 (Lazuli Bunting)
    mats = [[[bird("Blue Jay")], [bird("Lazuli Bunting")], []],
            [[bird("Hooded Warbler", egg=3)], [], [bird("Yellow-Headed Blackbird")]]]
    s = make(mats=mats, stack=pow_at(0, 5, "Lazuli Bunting", row=(1, -1)))
    assert s.purpose == "POWER_CONFIRM"              # seat 1 has a bowl bird with room
    play(s, "yes")
    assert s.purpose == "LAY_EGG" and s.legal_names() == ["slot:F1", "slot:G1"]
    play(s, "slot:G1")
    assert s.purpose == "LAY_EGG" and s.legal_names() == ["slot:F1", "slot:skip"]   # another bird
    play(s, "slot:F1")
    d = D(s)
    assert d["players"][1]["mat"][2][0]["egg"] == 1                 # forced for seat 1
    assert d["players"][0]["mat"][0][0]["egg"] == 1 and d["players"][0]["mat"][1][0]["egg"] == 1
    # nobody else has room: applied without asking
    mats[1] = [[bird("Hooded Warbler", egg=3)], [], []]
    s = make(mats=mats, stack=pow_at(0, 5, "Lazuli Bunting", row=(1, -1)))
    assert s.purpose == "LAY_EGG" and s.player == 0


def test_pay_egg():
    # rules: §9.3 PAY_EGG, §10.24 (American Crow: other birds only; Franklin's Gull: any)
    mats = [[[bird("American Crow", egg=2)], [], []], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 0, "American Crow", row=(0, -1)))
    assert s.player == 1                             # eggs only on itself: a no-op
    mats = [[[], [bird("Franklin's Gull", egg=1)], []], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 5, "Franklin's Gull", row=(1, -1)), deck=["Mallard", "Osprey"])
    assert s.purpose == "POWER_PAY_EGG" and s.legal_names() == ["slot:G1", "slot:skip"]
    play(s, "slot:G1", "deck", "deck")
    d = D(s)
    assert d["players"][0]["mat"][1][0]["egg"] == 0 and len(d["players"][0]["hand"]) == 2


def test_lay_nest_not_self():
    # rules: §9.3 LAY_NEST n not_self (American Avocet: other ground/star birds)
    mats = [[[], [], [bird("American Bittern")]], [[], [], [bird("American Avocet"), bird("Mallard")]]]
    s = make(mats=mats)
    play(s, "eggs")
    d = D(s)
    assert d["players"][1]["mat"][2][0]["egg"] == 0 and d["players"][1]["mat"][2][1]["egg"] == 1


def test_draw_power_and_discard_at_end_of_turn():
    # rules: §9.3 DRAW n (one drawing batch), DISCARD_EOT (Black Tern)
    mats = [[[], [], ["Black Tern"]], [[], [], []]]
    s = make(mats=mats, hands=[["Osprey"], []], tray=["Mallard", "Killdeer", "Anhinga"],
             stack=pow_at(0, 10, "Black Tern", row=(2, -1)))
    assert s.purpose == "DRAW_SOURCE"
    play(s, "tray:2")
    assert s.purpose == "EOT_DISCARD" and s.legal_names() == ["card:killdeer", "card:osprey"]
    play(s, "card:osprey")
    assert D(s)["discard"] == [ID["Osprey"]] and s.player == 1
    # two cards: the tray slots in ascending order within the batch
    s = make(hands=[["Black-Necked Stilt"], []], food=[[2, 0, 0, 0, 0], [0] * 5],
             tray=["Mallard", "Killdeer", "Anhinga"])
    play(s, "play", "tray:2")
    assert s.legal_names() == ["tray:3", "deck"]


def test_all_players_draw_from_the_deck():
    # rules: §9.3 ALL_PLAYERS_DRAW_DECK (Y* with 2 players)
    mats = [[[], [], ["Northern Shoveler"]], [[], [], []]]
    s = make(mats=mats, deck=["Mallard", "Osprey"], stack=pow_at(0, 10, "Northern Shoveler", row=(2, -1)))
    play(s, "yes")
    d = D(s)
    assert d["players"][0]["hand"] == [[ID["Mallard"], 0]] and d["players"][1]["hand"] == [[ID["Osprey"], 0]]


def test_tuck_hand_with_an_empty_hand_is_a_noop():
    # rules: §10.32
    mats = [[[], [], ["American Coot"]], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 10, "American Coot", row=(2, -1)))
    assert s.player == 1 and D(s)["players"][0]["hand"] == []


def test_predator_look_threshold():
    # rules: §9.3 PREDATOR_LOOK [decision: the printed threshold], §10.29
    mats = [[["Barred Owl"], [], []], [[], [], []]]
    s = make(mats=mats, deck=["Black-Necked Stilt"], stack=pow_at(0, 0, "Barred Owl", row=(0, -1)))
    assert D(s)["players"][0]["mat"][0][0]["tuck"] == [[ID["Black-Necked Stilt"], "p"]]      # 74 cm
    s = make(mats=mats, deck=["Wood Duck"], stack=pow_at(0, 0, "Barred Owl", row=(0, -1)))
    d = D(s)
    assert d["players"][0]["mat"][0][0]["tuck"] == [] and d["discard"] == [ID["Wood Duck"]]   # 76 cm


def test_repeat_predator_and_vultures():
    # rules: §9.3 REPEAT_PREDATOR, §10.35 (Hooded Merganser repeating Anhinga)
    mats = [[[], [], ["Anhinga", "Hooded Merganser"]], [["Black Vulture"], [], []]]
    s = make(mats=mats, feeder=[R], stack=pow_at(0, 11, "Hooded Merganser", row=(2, 0)),
             rng="0000000000000007")
    assert s.purpose == "REPEAT_TARGET" and s.legal_names() == ["slot:W1", "slot:skip"]
    play(s, "slot:W1")
    assert s.purpose == "POWER_CONFIRM"              # Anhinga's own prompt: an opponent's vulture
    outcomes = set()
    for k in range(40):
        c = make(mats=mats, feeder=[R], stack=pow_at(0, 11, "Hooded Merganser", row=(2, 0)),
                 rng=f"{k + 1:016x}")
        play(c, "slot:W1", "yes")
        cache = D(c)["players"][0]["mat"][2][0]["cache"][F]
        outcomes.add(cache)
        if cache:
            assert c.purpose == "TAKE_DIE" and c.player == 1       # the vulture reacts (d)
    assert outcomes == {0, 1}


def test_repeat_brown():
    # rules: §9.3 REPEAT_BROWN [decision: no repeat of a repeat], §10.34
    mats = [[["Blue Jay", "Gray Catbird", "Northern Mockingbird"], [], []], [[], [], []]]
    s = make(mats=mats, feeder=[S, S, R], stack=pow_at(0, 1, "Gray Catbird", row=(0, 0)))
    assert s.purpose == "REPEAT_TARGET" and s.legal_names() == ["slot:F1", "slot:skip"]
    play(s, "slot:F1", "die:S", "yes")
    d = D(s)
    assert d["players"][0]["mat"][0][0]["cache"] == [0, 1, 0, 0, 0]          # on the Blue Jay


def test_draw_bonus():
    # rules: §9.3 DRAW_BONUS, §10.31 (one card left: reshuffle the discards, a new bonus epoch)
    s = make(hands=[["Atlantic Puffin"], []], food=[[0, 0, 3, 0, 0], [0] * 5], bonus=[[0], [1]],
             bonus_deck=[2, 3] + list(range(4, 26)))
    play(s, "play")
    assert s.purpose == "BONUS_KEEP" and s.legal_names() == ["bonus:bird-counter", "bonus:bird-feeder"]
    assert s.observe_move(216 + 2, 1) == -1 and s.observe_move(216 + 2, 0) == 216 + 2
    play(s, "bonus:bird-feeder")
    d = D(s)
    assert d["players"][0]["bonus"] == [[0, 0], [3, 0]] and d["bonus_discard"] == [[2, 0, 0]]
    s = make(hands=[["Atlantic Puffin"], []], food=[[0, 0, 3, 0, 0], [0] * 5], bonus=[[0], [1]],
             bonus_deck=[2], bonus_discard=[[b, 0, 1] for b in range(3, 26)])
    play(s, "play")
    d = D(s)
    assert s.purpose == "BONUS_KEEP" and d["bonus_epoch"] == 1 and len(d["bonus_forms"][0]) == 23
    assert [t for _, t in top(s)["st"]["drawn"]] == [0, 1]


def test_draft():
    # rules: §9.3 DRAFT, §10.30 (2 players: draw 3, pick, opponent picks, the owner gets the last)
    s = make(hands=[["American Oystercatcher"], []], food=[[2, 0, 0, 0, 0], [0] * 5],
             tray=["Mallard", "Killdeer", "Osprey"], deck=["Anhinga"])
    play(s, "play")
    assert s.purpose == "POWER_CONFIRM"
    play(s, "yes", "tray:1", "tray:2", "deck")
    d = D(s)
    assert sorted(d["draft"]) == sorted([ID["Mallard"], ID["Killdeer"], ID["Anhinga"]])
    assert s.purpose == "DRAFT_PICK" and s.player == 0
    play(s, "card:killdeer")
    assert s.purpose == "DRAFT_PICK" and s.player == 1
    play(s, "card:anhinga")
    d = D(s)
    assert d["players"][0]["hand"] == [[ID["Killdeer"], "p"], [ID["Mallard"], "p"]]
    assert d["players"][1]["hand"] == [[ID["Anhinga"], "p"]] and d["draft"] == []
    # one player: draws 2 and keeps both (§10.56)
    s = make(1, hands=[["American Oystercatcher"]], food=[[2, 0, 0, 0, 0]], tray=["Mallard", "Killdeer", "Osprey"])
    play(s, "play", "tray:1", "tray:2")
    assert sorted(b for b, _ in D(s)["players"][0]["hand"]) == sorted([ID["Mallard"], ID["Killdeer"]])


def test_move_if_rightmost():
    # rules: §9.3 MOVE_IF_RIGHTMOST, §10.36 (Bewick's Wren)
    w = bird("Bewick's Wren", egg=1, cache=(1, 0, 0, 0, 0), tuck=[[ID["Osprey"], "p"]])
    mats = [[[bird("Blue Jay"), bird("Hooded Warbler"), w], [], []], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 2, "Bewick's Wren", row=(0, 1)), feeder=[S, S, R])
    assert s.purpose == "MOVE_TARGET" and s.legal_names() == ["hab:grassland", "hab:wetland", "hab:skip"]
    play(s, "hab:wetland")
    d = D(s)
    assert mat_ids(s, 0, 0) == [ID["Blue Jay"], ID["Hooded Warbler"]]
    assert d["players"][0]["mat"][2] == [w]
    assert s.purpose == "TAKE_DIE" and top(s)["bird"] == ID["Blue Jay"]      # the row goes on to the left
    mats = [[[bird("Blue Jay"), bird("Hooded Warbler"), w, bird("Wild Turkey")], [], []], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 2, "Bewick's Wren", row=(0, 1)), feeder=[S, S, R])
    assert top(s)["bird"] == ID["Blue Jay"]          # not the rightmost: a no-op


def test_gain_feeder_optional_position_of_the_rules():
    # rules: §8 example: Blue Jay's TAKE_DIE is local [1, 6, 8], global [204, 209, 211]
    mats = [[[bird("Blue Jay", cache=(0, 1, 0, 0, 0)), bird("Ruby-Crowned Kinglet", egg=1)], [], []],
            [[], [bird("Brown-Headed Cowbird")], []]]
    hands = [[("Bobolink", 0), ("Purple Gallinule", "p")],
             [("American Goldfinch", 0), ("American Oystercatcher", "p"), ("Common Nighthawk", 0),
              ("Red-Shouldered Hawk", 0)]]
    stack = pow_at(0, 0, "Blue Jay", row=(0, -1))
    s = make(mats=mats, hands=hands, food=[[1, 0, 0, 1, 0], [0, 1, 1, 0, 1]], goals=(0, 7, 14, 11),
             t=4, discard=["Atlantic Puffin", "Great Egret", "American Coot", "Trumpeter Swan"],
             tray=["Cassin's Finch", None, "Ring-Billed Gull"], feeder=[S, 5, 5], stack=stack,
             bonus=[[3], [17]], bonus_discard=[[9, 0, 0], [20, 0, 1]], rng="9f3c0a5e1b27d4c8")
    assert s.purpose == "TAKE_DIE" and s.local_moves() == [1, 6, 8] and s.legal() == [204, 209, 211]
    d = D(s)
    assert d["players"][0]["cubes"] == 5 and d["players"][1]["cubes"] == 6
    # perft by hand: 1 -> CACHE_CHOICE (2); 6 -> CACHE_CHOICE (2); 8 -> seat 1's TURN_ACTION with
    # play (Red-Shouldered Hawk is payable with its rodent), food, eggs, cards (4)
    assert s.perft(1) == 3 and s.perft(2) == 8


# ---------------------------------------------------------------------------- goals and scoring
NOPOWER = ["American Woodcock", "Blue-Winged Warbler", "Hooded Warbler", "Prothonotary Warbler",
           "Trumpeter Swan", "Wild Turkey"]
GRASS = ["Killdeer", "Wild Turkey", "American Woodcock", "Western Meadowlark", "Wild Turkey"]
FILLERS = ["Mallard", "Osprey", "Anhinga", "Franklin's Gull", "Bald Eagle", "Common Loon", "Green Heron",
           "Great Egret", "Black Tern", "Clark's Grebe", "Forster's Tern", "Ruddy Duck", "Snowy Egret",
           "Willet", "Wilson's Snipe", "Spotted Sandpiper", "King Rail", "Brown Pelican", "Wood Stork",
           "Roseate Spoonbill"]


def end_of_round(n, rnd, counts, goal, side="green"):
    """The last turn of round ``rnd``: the current seat owes a discard (a node); each seat p
    has counts[p] wetland birds (goal BIRDS_W or BIRDS_TOTAL count them)."""
    pool = iter(FILLERS)
    gpool = iter(["Killdeer", "Wild Turkey", "American Woodcock", "Western Meadowlark", "Inca Dove"])
    mats = []
    for p in range(n):
        birds = [next(pool) for _ in range(min(counts[p], 5))]
        extra = [next(gpool) for _ in range(max(0, counts[p] - 5))]
        mats.append([[], extra, birds])
    first = (rnd - 1) % n
    t = n * (9 - rnd) - 1
    cur = (first + t) % n
    hands = [[] for _ in range(n)]
    hands[cur] = ["Blue Jay", "Acorn Woodpecker"]
    owe = [0] * n
    owe[cur] = 1
    goals = [goal if r == rnd - 1 else g for r, g in enumerate([1, 3, 6, 8])]
    if goal // 2 in (0, 1, 3, 4):
        goals = [goal if r == rnd - 1 else g for r, g in enumerate([9, 11, 12, 14])]
    return make(n, mats=mats, hands=hands, owe=owe, round=rnd, t=t, goals=goals, side=side,
                stack=[{"f": "EOT", "seat": cur, "last": -1}])


def _round_points(n, rnd, counts, goal=4, side="green"):
    s = end_of_round(n, rnd, counts, goal, side)
    play(s, "card:acorn-woodpecker")
    return D(s)["goal_pts"][rnd - 1]


def test_green_goal_ranks():
    # rules: §5.1, §10.46, §10.47, wingspan-cards.md §2.3
    assert _round_points(3, 2, [4, 4, 2]) == [3, 3, 1]
    assert _round_points(3, 2, [3, 3, 3]) == [2, 2, 2]
    assert _round_points(2, 2, [5, 0]) == [5, 0]
    assert _round_points(4, 1, [3, 2, 2, 2]) == [4, 0, 0, 0]
    assert _round_points(2, 3, [1, 2]) == [3, 6]
    assert _round_points(4, 4, [1, 1, 2, 0]) == [3, 3, 7, 0]        # (4+3)/2 = 3; a 0 count never scores


def test_blue_goal_points():
    # rules: §5.1 blue, §10.48: count 7 -> 5, count 0 -> 0
    assert _round_points(2, 1, [7, 0], goal=15, side="blue") == [5, 0]
    assert _round_points(2, 1, [3, 1], goal=15, side="blue") == [3, 1]


def test_round_end_resets_the_tray_and_moves_the_first_player():
    # rules: §5.1 step 2
    s = end_of_round(2, 1, [1, 1], 4)
    tray = D(s)["tray"]
    play(s, "card:acorn-woodpecker")
    d = D(s)
    assert d["round"] == 2 and d["first"] == 1 and d["t"] == 0 and s.player == 1
    assert d["discard"] == [ID["Acorn Woodpecker"]] + tray and all(b not in tray for b in d["tray"])
    assert [p["cubes"] for p in d["players"]] == [7, 7]


def test_goal_counts():
    # rules: §10.49 (star nests count), §10.50 (EGG_SETS 3/0/5 -> 0); wingspan-cards.md §2.2
    mats = [[[bird("Bell's Vireo", egg=1), bird("Blue Jay", egg=2)], [bird("Wild Turkey")],
             [bird("Mallard", egg=3), bird("Atlantic Puffin", egg=1), bird("Great Egret", egg=1)]],
            [[], [], []]]
    s = make(mats=mats)
    assert s.goal_count(0, 6) == 3          # bowl birds with an egg: Bell's Vireo, Puffin (stars), Blue Jay
    assert s.goal_count(0, 7) == 4          # eggs in bowl nests
    assert s.goal_count(0, 10) == 3         # ground birds with an egg: Vireo, Puffin (stars), Mallard
    assert s.goal_count(0, 11) == 5
    assert s.goal_count(0, 13) == 3         # platform eggs: Vireo, Puffin (stars) and Great Egret
    assert s.goal_count(0, 1) == 3 and s.goal_count(0, 3) == 0 and s.goal_count(0, 5) == 5
    assert s.goal_count(0, 14) == 0         # EGG_SETS: min(3, 0, 5)
    assert s.goal_count(0, 15) == 6 and s.goal_count(0, 0) == 2


def test_bonus_cards():
    # rules: §10.51 (Ecologist rows 5, 3, 0 -> 0; Visionary Leader counts the hand); wingspan-cards.md §1.2
    five = [bird(b) for b in NOPOWER[:4]] + [bird("Blue Jay")]
    mats = [[five, [bird("Wild Turkey"), bird("Killdeer"), bird("Eastern Bluebird")], []], [[], [], []]]
    s = make(mats=mats, hands=[["Mallard", "Osprey", "Anhinga", "Bald Eagle", "Common Loon"], []])
    assert s.bonus_score(0, BID["Ecologist"]) == 0
    assert s.bonus_score(0, BID["Visionary Leader"]) == 4                  # 5 cards: 5-7 -> 4
    # Forester: forest-only birds (Hooded Warbler, Blue-Winged? no: FG) -> Hooded Warbler and Blue Jay
    assert s.bonus_score(0, BID["Forester"]) == 0
    assert s.bonus_score(0, BID["Backyard Birder"]) == 0                   # points < 4: Blue Jay, Killdeer
    assert s.bonus_score(0, BID["Bird Feeder"]) == 3                       # seed in cost: 5 birds


def test_final_scoring_and_the_tie_break():
    # rules: §5.2, §5.3, §10.52
    mats = [[[bird("Blue Jay", egg=1, cache=(0, 2, 0, 0, 0), tuck=[[ID["Mallard"], "h0"]])], [], []],
            [[bird("Acorn Woodpecker")], [], []]]
    s = make(mats=mats, phase="over", food=[[3, 0, 0, 0, 0], [0, 1, 0, 0, 0]], bonus=[[], []],
             goal_pts=[[1, 0], [0, 0], [0, 0], [0, 1]])
    assert s.is_over
    assert s.score_parts(0) == (3, 0, 1, 1, 2, 1) and s.scores() == [8, 6]
    assert s.result() == (1.0, 0.0)
    mats[1] = [[bird("Acorn Woodpecker", egg=2)], [], []]
    s = make(mats=mats, phase="over", food=[[3, 0, 0, 0, 0], [0, 1, 0, 0, 0]], bonus=[[], []],
             goal_pts=[[1, 0], [0, 0], [0, 0], [0, 1]])
    assert s.scores() == [8, 8] and s.result() == (1.0, 0.0)          # more food in supply
    s = make(mats=mats, phase="over", food=[[1, 0, 0, 0, 0], [0, 1, 0, 0, 0]], bonus=[[], []],
             goal_pts=[[1, 0], [0, 0], [0, 0], [0, 1]])
    assert s.result() == (0.5, 0.5)                                      # shared victory


def test_cached_food_is_not_the_tie_break():
    # rules: §5.3, §10.11: 3 + 2 cached = 5 against 5; cached food does not break the tie
    mats = [[[bird("Blue Jay", cache=(0, 2, 0, 0, 0))], [], []], [[bird("Acorn Woodpecker")], [], []]]
    s = make(mats=mats, phase="over", bonus=[[], []])
    assert s.scores() == [5, 5] and s.result() == (0.5, 0.5)


# ---------------------------------------------------------------------------- information
def test_tucked_cards_and_public_provenance():
    # rules: §6.1 [decision], §10.55 (Purple Gallinule taken from the tray, then a tuck)
    mats = [[[], [], ["Yellow-Headed Blackbird"]], [[], [], []]]
    stack = pow_at(0, 10, "Yellow-Headed Blackbird", row=(2, -1))
    s = make(mats=mats, hands=[[("Purple Gallinule", "p"), ("Mallard", 0)], []], stack=stack)
    gallinule, mallard = 6 + ID["Purple Gallinule"], 6 + ID["Mallard"]
    assert s.observe_move(gallinule, 1) == gallinule and s.observe_move(mallard, 1) == -1
    assert s.observe_move(mallard, 0) == mallard
    play(s, "card:mallard")
    v = json.loads(s.view(1))
    assert v["seats"][0]["wetland"][0]["tucked"] == ["?"]
    assert v["seats"][0]["hand"] == ["Purple Gallinule (shown)"]
    assert json.loads(s.view(0))["seats"][0]["wetland"][0]["tucked"] == ["Mallard"]


def test_views_hide_exactly_the_hidden_cards():
    # rules: §8 observer view
    s = make(hands=[["Mallard", ("Osprey", "p")], ["Anhinga"]],
             mats=[[[bird("Blue Jay", tuck=[[ID["Bald Eagle"], "d0"]])], [], []], [[], [], []]])
    v = json.loads(s.view(1))
    assert v["seats"][0]["hand"] == ["Osprey (shown)", "?"]
    assert v["seats"][1]["hand"] == ["Anhinga"]
    assert v["seats"][0]["forest"][0]["tucked"] == ["? (from deck)"]
    assert "deck" not in v and "bonus deck" not in v and "seed" not in v and v["seen by"] == 1
    assert v["seats"][0]["bonus"] == ["?"]


def _random_positions(n, count, seed):
    rnd = random.Random(seed)
    s = Wingspan.start(players=n, seed=seed)
    out = []
    while not s.is_over and len(out) < count:
        if rnd.random() < 0.05:
            out.append(s.copy())
        s.play_unchecked(rnd.choice(s.legal()))
    return out


def test_determinizations_keep_what_the_observer_sees():
    # rules: §6.4: a sample agrees with everything the observer has seen; only hidden cards move
    changed = 0
    for n in (2, 3):
        for s in _random_positions(n, 6, seed=n):
            for o in range(n):
                view = s.view(o)
                for k in range(3):
                    w = s.determinized(o, k)
                    assert w.view(o) == view
                    assert Wingspan.parse(w.text()).text() == w.text()
                    changed += w.text() != s.text()
    assert changed > 0


def test_determinization_keeps_deck_epochs():
    # rules: §6.4: cards of a reshuffled deck stay in slots of that epoch
    s = make(mats=[[[], [], []], [[], [], []]], tray=["Mallard", "Killdeer", "Osprey"],
             discard=["Anhinga", "Bald Eagle", "Common Loon"], rest=("hand", 1))
    play(s, "cards", "deck")               # seat 0 holds one epoch-1 card, two stay in the deck
    for k in range(10):
        w = s.determinized(1, k)
        d = D(w)
        assert sorted(d["deck"] + [b for b, t in d["players"][0]["hand"]]) == \
            sorted([ID["Anhinga"], ID["Bald Eagle"], ID["Common Loon"]])
        assert w.view(1) == s.view(1)


# ---------------------------------------------------------------------------- position text
def test_json_form_round_trip_and_errors():
    # rules: §8: the JSON form is still read (files and databases written by earlier versions)
    s = Wingspan.start(players=3, seed=12)
    t = jsonform.to_text(s)
    assert jsonform.to_text(Wingspan.parse(t)) == t
    d = json.loads(t)
    bad = []
    e = json.loads(t)
    e["deck"][0] = e["deck"][1]
    bad.append((e, "in two places"))
    e = json.loads(t)
    e["deck"].pop()
    bad.append((e, "is missing"))
    e = json.loads(t)
    e["colour"] = 1
    bad.append((e, "unknown key 'colour'"))
    e = json.loads(t)
    e["n"] = 7
    bad.append((e, "'n' (players) must be 1..5"))
    e = json.loads(t)
    e["feeder"] = [3, 1]
    bad.append((e, "ascending"))
    e = json.loads(t)
    e["players"][0]["hand"] = list(reversed(e["players"][0]["hand"]))
    bad.append((e, "canonical"))
    for e, msg in bad:
        with pytest.raises(PositionError, match=re.escape(msg)):
            Wingspan.parse(json.dumps(e))
    with pytest.raises(PositionError, match="not valid JSON"):
        Wingspan.parse("{")
    e = D(make())
    e["stack"] = [{"f": "TURN", "seat": 0}, {"f": "ROW", "seat": 0, "hab": 0, "col": -1}]
    e["players"][0]["cubes"] = 7
    with pytest.raises(PositionError, match="decision node"):
        Wingspan.parse(json.dumps(e, separators=(",", ":")))
    mats = [[[bird("Blue Jay", egg=3)], [], []], [[], [], []]]
    with pytest.raises(PositionError, match="egg"):
        make(mats=mats)
    with pytest.raises(PositionError, match="cannot live in the wetland"):
        make(mats=[[[], [], [bird("Blue Jay")]], [[], [], []]])


def test_move_names():
    # rules: §7.2 kinds and global ids
    s = Wingspan.start(players=2, seed=1)
    for m, name in ((0, "no"), (1, "yes"), (2, "play"), (5, "cards"), (6 + ID["Blue Jay"], "card:blue-jay"),
                    (176, "card:skip"), (177, "hab:forest"), (181, "slot:F1"), (196, "slot:skip"),
                    (197, "food:I"), (203, "die:I"), (208, "die:IS-I"), (210, "reroll"), (211, "die:skip"),
                    (212, "tray:1"), (215, "deck"), (216, "bonus:anatomist"), (247, "seat:skip")):
        assert s.move_name(m) == name and s.parse_move(name) == m
    assert s.parse_move("card:Blue Jay") == 6 + ID["Blue Jay"] and s.parse_move("CARD:33") == 39
    for bad in ("card:dodo", "", "slot:X9", "248"):
        with pytest.raises(MoveError):
            s.parse_move(bad)
    with pytest.raises(MoveError):
        s.move_name(248)


def test_render_shows_the_table():
    s = make(hands=[["Mallard"], ["Osprey"]], mats=[[[bird("Blue Jay", egg=1)], [], []], [[], [], []]])
    r = s.render()
    assert "Blue Jay (eggs 1/2)" in r and "Mallard" in r and "Osprey" in r
    r = s.render(observer=1)
    assert "Mallard" not in r and "1 hidden" in r and "Osprey" in r


def test_a_card_chosen_for_play_stays_in_the_sample():
    # rules: §6.1 (every decision is public: PLAY_CARD names the card), §6.4
    mats = [[[], [], [bird("Mallard", egg=1)]], [[], [], []]]
    s = make(mats=mats, hands=[["Franklin's Gull", "Osprey", "Anhinga"], []], food=[[0, 0, 3, 0, 0], [0] * 5])
    play(s, "play", "card:franklins-gull")
    assert s.purpose == "PLAY_HABITAT"
    for k in range(8):
        w = s.determinized(1, k)
        assert [b for b, _ in D(w)["players"][0]["hand"]].count(ID["Franklin's Gull"]) == 1
        assert w.view(1) == s.view(1)


def test_bewick_alone_or_with_both_other_rows_full():
    # rules: §10.36: alone in its row it may move; both other rows full: a no-op
    s = make(mats=[[[bird("Bewick's Wren")], [], []], [[], [], []]],
             stack=pow_at(0, 0, "Bewick's Wren", row=(0, -1)))
    assert s.purpose == "MOVE_TARGET" and s.legal_names() == ["hab:grassland", "hab:wetland", "hab:skip"]
    full_g = [bird(b) for b in ("Wild Turkey", "Killdeer", "American Woodcock", "Inca Dove", "Bobolink")]
    full_w = [bird(b) for b in ("Mallard", "Osprey", "Anhinga", "Common Loon", "Bald Eagle")]
    s = make(mats=[[[bird("Bewick's Wren")], full_g, full_w], [[], [], []]],
             stack=pow_at(0, 0, "Bewick's Wren", row=(0, -1)))
    assert s.player == 1


def test_one_player_green_goal():
    # rules: §1.4, wingspan-cards.md §2.3: one player takes 1st place when the count is at least 1
    assert _round_points(1, 2, [1]) == [5]
    assert _round_points(1, 3, [0]) == [0]


def test_search_does_not_read_hidden_cards():
    # rules: §6.4: a determinization depends only on what the observer sees (and the RNG), so
    # an information-set search gives the same answer in every world the mover cannot tell apart
    from roost.search.engines import parse_engine
    checked = 0
    for s in _random_positions(2, 40, seed=21):
        if s.phase != "play":
            continue
        me = s.player
        others = [s.determinized(me, 50 + k) for k in range(10)]
        t = next((w for w in others if w.text() != s.text()), None)
        if t is None:
            continue
        assert t.view(me) == s.view(me)
        a = parse_engine("ismcts:iterations=300").choose(s, seed=3)
        b = parse_engine("ismcts:iterations=300").choose(t, seed=3)
        assert a.move == b.move and [(x.move, x.visits) for x in a.stats] == [(x.move, x.visits) for x in b.stats]
        checked += 1
        if checked == 3:
            break
    assert checked == 3
