"""CuBirds rules tests (rules file: docs/rules/cubirds.md).  Every test cites the
section it checks.  Expected values are derived by hand from the rules text; perft values
are also re-derived by the independent pure-Python model in tests/core/cubirds/reference.py."""
import json
import pathlib
import random
from collections import Counter

import pytest

from roost.core.cubirds import Cubirds
from roost.core.errors import MoveError, PositionError, GameError
from roost.core.games import get_game

from tests.core.cubirds.reference import reference_perft

SPECIES = "FOTDPMWR"
COPIES = dict(zip(SPECIES, (7, 10, 10, 13, 13, 17, 20, 20)))
HIDDEN = -1


def card(x):
    """The chance outcome id of a card of species x."""
    return 80 + SPECIES.index(x)


def lay(x, row, end):
    """Move id of laying species x at row (1..4), end 'L' or 'R' (docs/rules/cubirds.md §8.1)."""
    return SPECIES.index(x) * 8 + (row - 1) * 2 + (end == "R")


def pos(players=2, rows=("DPM", "WRD", "PMW", "RDP"), hands=None, collections=None, discard="",
        deck=None, phase="lay", to_move=0, dealer=0, turn=0, known=None, lacks=None,
        rest_row=None, rest_discard=False, **extra):
    """A position text; the cards not placed go to the draw pile (or to row rest_row, or to
    the discard pile with rest_discard)."""
    hands = list(hands)
    collections = list(collections) if collections is not None else ["R"] * players
    rows = list(rows)
    discard = discard or ""
    used = Counter("".join(rows) + "".join(hands) + "".join(collections) + discard + (deck or "")
                   + extra.get("card", ""))
    assert all(COPIES[x] >= used[x] for x in SPECIES), used
    left = "".join(x * (COPIES[x] - used[x]) for x in SPECIES)
    if rest_row is not None:
        rows[rest_row] += left
    elif rest_discard:
        discard += left
    elif deck is None:
        deck = left
    d = {"players": players, "dealer": dealer, "to_move": to_move, "phase": phase, "rows": rows,
         "hands": hands, "known": known or [""] * players, "lacks": lacks or [""] * players,
         "collections": collections, "discard": discard, "deck": deck or "", "turn": turn}
    d.update(extra)
    return json.dumps(d)


def J(s):
    return json.loads(s.text())


def total_cards(s):
    d = J(s)
    c = Counter("".join(d["rows"]) + "".join(d["hands"]) + "".join(d["collections"])
                + d["discard"] + d["deck"] + d.get("card", ""))
    return c


def random_step(s, rnd):
    if s.is_chance:
        s.play_unchecked(s.sample(rnd.getrandbits(63)))
    else:
        s.play_unchecked(rnd.choice(s.legal()))


# --------------------------------------------------------------------------- setup
def test_setup_rows_hands_collections():
    # docs/rules/cubirds.md §3: 4 rows of 3 different species, 8 cards each, 1 collection card
    # each, the dealer (seat 0) plays first.
    for n in (2, 3, 4, 5):
        for seed in range(10):
            s = Cubirds.start(players=n, seed=seed)
            d = J(s)
            assert s.phase == "lay" and s.player == 0 and d["dealer"] == 0
            assert all(len(r) == 3 and len(set(r)) == 3 for r in d["rows"])
            assert all(len(h) == 8 for h in d["hands"])
            assert all(len(c) == 1 for c in d["collections"])
            assert sum(total_cards(s).values()) == 110


def test_setup_is_chance_one_card_at_a_time():
    # docs/rules/cubirds.md §3.2, §3.3: a card whose species is already in the row is
    # discarded and replaced.
    s = Cubirds.before_setup(players=2)
    assert s.is_chance and s.phase == "setup"
    for x in "RRW":
        s.play_move(card(x))
    d = J(s)
    assert d["rows"][0] == "RW" and d["discard"] == "R"
    s.play_move(card("F"))
    s.play_move(card("F"))          # row 2 starts
    assert J(s)["rows"][:2] == ["RWF", "F"]
    # the setup ends in the lay phase after 12 row cards, 16 hand cards and 2 collections
    rnd = random.Random(0)
    plies = 0
    while s.is_chance:
        random_step(s, rnd)
        plies += 1
    assert s.phase == "lay" and s.player == 0
    assert plies >= 7 + 16 + 2


def test_start_is_seeded():
    assert Cubirds.start(3, seed=5).text() == Cubirds.start(3, seed=5).text()
    assert Cubirds.start(3, seed=5).text() != Cubirds.start(3, seed=6).text()
    with pytest.raises(GameError):
        Cubirds.start(players=6)
    with pytest.raises(GameError):
        get_game("cubirds").start(players=1)


# --------------------------------------------------------------------------- lay & capture
def test_capture_takes_cards_to_the_nearest_same_species_card():
    # docs/rules/cubirds.md §4.1, §4.2, §12.1: all your cards of that species go to that end;
    # you take every card
    # between them and the nearest card of that species; the row closes up.
    s = Cubirds.parse(pos(hands=["RRF", "DDPPW"], rows=("WDRMRO", "PMW", "DTO", "MWD")))
    s.play_move("R1L")
    d = J(s)
    assert d["rows"][0] == "RRRMRO"               # W, D taken; the nearest R stays
    assert d["hands"][0] == "FDW"                # ordered by species: F D W
    assert d["known"][0] == "DW"                 # taken face up: others know them
    assert s.phase == "flock" or s.phase == "lay"  # no draw option after taking cards
    assert s.phase != "draw"


def test_capture_from_the_right_with_several_same_species_cards():
    # docs/rules/cubirds.md §4.2, §12.1: the nearest card of that species from the end laid at.
    s = Cubirds.parse(pos(hands=["RRRF", "DDPPW"], rows=("WRDRMO", "PMW", "DTO", "MWD")))
    s.play_move("R1R")
    d = J(s)
    assert d["rows"][0] == "WRDRRRR"             # M, O taken; W R D R stay
    assert d["hands"][0] == "FOM"
    assert d["known"][0] == "OM"


def test_no_capture_when_the_nearest_card_is_at_the_end():
    # docs/rules/cubirds.md §4.2, §12.2: if the nearest card was at the end you laid at,
    # nothing is taken; then §4.4: the draw option.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"], rows=("RWD", "PMW", "DTO", "MWD")))
    s.play_move("R1L")
    assert J(s)["rows"][0] == "RRWD"
    assert J(s)["hands"][0] == "F"
    assert s.phase == "draw" and s.legal_names() == ["draw", "nodraw"]


def test_no_capture_when_the_row_lacks_the_species():
    # docs/rules/cubirds.md §4.2, §4.4: no robin in the row, nothing taken, the draw option
    s = Cubirds.parse(pos(hands=["RRF", "DDPPW"], rows=("OWD", "PMW", "DTO", "MWD")))
    s.play_move("R1R")
    assert J(s)["rows"][0] == "OWDRR"
    assert s.phase == "draw"


def test_laying_marks_holds_no_such_species():
    # docs/rules/cubirds.md §7.2: when a player lays X, they hold no more X afterwards.
    s = Cubirds.parse(pos(hands=["RRF", "DDPPW"]))
    s.play_move("R1R")
    assert "R" in s.lacks(0)


# --------------------------------------------------------------------------- completing a row
def test_completing_a_row_dealer_chooses_the_end():
    # docs/rules/cubirds.md §4.3, §12.3: a one-species row gets cards from the draw pile until
    # it holds two species; the round's dealer chooses the end of the last card.
    s = Cubirds.parse(pos(players=3, hands=["RRF", "DDPPW", "OOT"], rows=("WRR", "PMW", "DTO", "MWD"),
                          collections=["W", "M", "P"], dealer=2))
    s.play_move("R1L")
    assert J(s)["rows"][0] == "RRRR"
    assert s.phase == "filling" and s.is_chance
    s.play_move(card("R"))                     # same species: joins the row, keep drawing
    assert J(s)["rows"][0] == "RRRRR" and s.is_chance
    s.play_move(card("T"))
    assert s.phase == "complete"
    assert s.player == 2                        # the dealer decides
    assert s.turn_player == 0
    assert s.legal_names() == ["left", "right"]
    s.play_move("left")
    assert J(s)["rows"][0] == "TRRRRR"
    # the turn goes on for seat 0: hand F W, no flock possible -> next player
    assert s.phase == "lay" and s.player == 1


def test_completing_card_to_the_right():
    s = Cubirds.parse(pos(players=2, hands=["RRF", "DDPPW"], rows=("WRR", "PMW", "DTO", "MWD")))
    s.play_move("R1L")
    s.play_move(card("O"))
    s.play_move("right")
    assert J(s)["rows"][0] == "RRRRO"


def test_completing_stops_when_both_piles_are_empty():
    # docs/rules/cubirds.md §5.2: a row that cannot get a second species stays as it is.
    s = Cubirds.parse(pos(players=2, hands=["RRF", "DDPPW"], rows=("WRR", "PMW", "DTO", "MWD"),
                          deck="", discard="", rest_row=3))
    s.play_move("R1L")
    assert J(s)["rows"][0] == "RRRR"
    assert not s.is_chance and s.phase in ("lay", "flock")


def test_completing_reshuffles_the_discard_pile():
    # docs/rules/cubirds.md §5.1: an empty draw pile takes the shuffled discard pile.
    s = Cubirds.parse(pos(players=2, hands=["RRF", "DDPPW"], rows=("WRR", "PMW", "DTO", "MWD"),
                          deck="", discard="OO", rest_row=3))
    s.play_move("R1L")
    assert s.phase == "filling"
    assert s.chances() == [(card("O"), 1.0)]
    assert J(s)["discard"] == "" and J(s)["deck"] == "OO"


# --------------------------------------------------------------------------- draw option
def test_draw_option_draws_two_hidden_cards():
    # docs/rules/cubirds.md §4.4: if you took no cards, you may draw the top 2 cards.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"]))
    s.play_move("R1R")
    s.play_move("draw")
    assert s.phase == "drawing" and s.is_chance
    s.play_move(card("W"))
    assert s.is_chance
    assert s.lacks(0) == ""                      # a hidden draw ends the "holds no" facts
    s.play_move(card("W"))
    assert J(s)["hands"][0] == "FWW" and J(s)["known"][0] == ""
    assert s.phase == "lay" and s.player == 1


def test_declining_the_draw():
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"]))
    s.play_move("R1R")
    s.play_move("nodraw")
    assert J(s)["hands"][0] == "F" and s.player == 1


def test_no_draw_node_when_both_piles_are_empty():
    # docs/rules/cubirds.md §8.2: no draw node when the draw and discard piles are empty.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"], deck="", discard="", rest_row=3))
    s.play_move("R1R")
    assert s.phase == "lay" and s.player == 1


def test_drawing_takes_what_there_is():
    # docs/rules/cubirds.md §5.2: drawing 2 with only one card left takes that card.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"], deck="O", discard="", rest_row=3))
    s.play_move("R1R")
    s.play_move("draw")
    s.play_move(card("O"))
    assert not s.is_chance
    assert J(s)["hands"][0] == "FO" and s.player == 1


def test_drawing_reshuffles_mid_draw():
    # docs/rules/cubirds.md §5.1: the discard pile becomes the draw pile when it runs out.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"], deck="O", discard="TT", rest_row=3))
    s.play_move("R1R")
    s.play_move("draw")
    s.play_move(card("O"))
    assert s.is_chance
    assert J(s)["deck"] == "TT" and J(s)["discard"] == ""
    s.play_move(card("T"))
    assert J(s)["hands"][0] == "FOT" and J(s)["deck"] == "T"


# --------------------------------------------------------------------------- flocks
@pytest.mark.parametrize("x,k,keep", [("F", 2, 1), ("F", 3, 2), ("R", 6, 1), ("R", 8, 1), ("R", 9, 2),
                                      ("D", 4, 1), ("D", 6, 2), ("M", 5, 1), ("M", 7, 2)])
def test_small_and_big_flocks(x, k, keep):
    # docs/rules/cubirds.md §4.5 and the table of §2: one card to the collection for a small flock,
    # two for a big one; the rest to the discard pile.
    hand = x * k + "O"
    s = Cubirds.parse(pos(hands=[hand, "DPPW" if x != "D" else "TPPW"], rows=("OTD", "PMW", "OTP", "MWT"),
                          collections=["W", "W"]))
    s.play_move("O1L")              # lay the owl: it captures nothing, hand is only species x
    s.play_move("nodraw")
    assert s.phase == "flock"
    assert f"flock:{x}" in s.legal_names() and "noflock" in s.legal_names()
    s.play_move(f"flock:{x}")
    d = J(s)
    assert Counter(d["collections"][0])[x] == keep
    assert Counter(d["discard"])[x] == k - keep
    assert x not in d["hands"][0]


def test_no_flock_node_below_the_small_number():
    # docs/rules/cubirds.md §8.2: no flock node when no species reaches its small number.
    s = Cubirds.parse(pos(hands=["RRRRRO", "DDPPW"], rows=("OTD", "PMW", "OTP", "MWT")))
    s.play_move("O1L")
    s.play_move("nodraw")
    assert s.phase == "lay" and s.player == 1


def test_flock_after_a_capture_counts_the_taken_cards():
    s = Cubirds.parse(pos(hands=["OD", "DDPPW"], rows=("DFFO", "PMW", "OTP", "MWT")))
    s.play_move("O1R")              # nearest O is at the right end: nothing taken
    assert s.phase == "draw"
    s = Cubirds.parse(pos(hands=["OF", "DDPPW"], rows=("TOFFD", "PMW", "TMP", "MWT")))
    s.play_move("O1R")              # takes F F D: hand F F F D -> big flamingo flock
    assert J(s)["rows"][0] == "TOO"
    assert s.phase == "flock"
    assert s.legal_names() == ["flock:F", "noflock"]


# --------------------------------------------------------------------------- winning
def test_win_with_seven_species():
    # docs/rules/cubirds.md §4.6: 7 different species in the collection wins at once.
    s = Cubirds.parse(pos(hands=["FFO", "DDPPW"], rows=("OTD", "PMW", "OTP", "MWT"),
                          collections=["OTDPMW", "R"]))
    s.play_move("O1L")
    s.play_move("nodraw")
    s.play_move("flock:F")
    assert s.is_over and s.result() == (1.0, 0.0)


def test_win_with_two_species_of_three():
    # docs/rules/cubirds.md §4.6: at least 3 cards of each of 2 species.
    s = Cubirds.parse(pos(hands=["FFFO", "DDPPW"], rows=("OTD", "PMW", "OTP", "MWT"),
                          collections=["FTTT", "R"]))
    s.play_move("O1L")
    s.play_move("nodraw")
    s.play_move("flock:F")          # big flock: 2 F -> F F F, T T T
    assert s.is_over and s.result() == (1.0, 0.0)


def test_six_species_and_one_triple_do_not_win():
    s = Cubirds.parse(pos(hands=["FFO", "DDPPW"], rows=("OTD", "PMW", "OTP", "MWT"),
                          collections=["OTDPPP", "R"]))
    s.play_move("O1L")
    s.play_move("nodraw")
    s.play_move("flock:F")          # F O T D P: 5 species, one triple
    assert not s.is_over


# --------------------------------------------------------------------------- end of round
def test_empty_hand_ends_the_round_and_the_player_deals():
    # docs/rules/cubirds.md §4.7: the others discard their hands, you become the dealer, deal 8
    # cards to each player, and play first.
    s = Cubirds.parse(pos(players=3, hands=["RR", "DDPPW", "OOT"], collections=["W", "M", "P"], dealer=2))
    s.play_move("R1R")              # row 1 is DPM: nothing taken
    s.play_move("nodraw")
    d = J(s)
    assert s.phase == "deal" and d["dealer"] == 0 and s.player == CHANCE_PLAYER
    assert d["hands"] == ["", "", ""]
    assert Counter(d["discard"]) == Counter("DDPPWOOT")
    # the deal gives 8 to the dealer first, then seat order; hidden from the others
    for i in range(24):
        assert s.is_chance
        recipient = (i // 8)
        c = s.legal()[0]
        for q in range(3):
            assert s.observe_move(c, q) == (c if q == recipient else HIDDEN)
        s.play_move(c)
    assert s.phase == "lay" and s.player == 0
    assert all(len(h) == 8 for h in J(s)["hands"])
    assert J(s)["rows"][0] == "DPMRR"           # the rows stay as they are


CHANCE_PLAYER = -1


def test_failed_deal_most_collection_cards_wins():
    # docs/rules/cubirds.md §5.3, §12.4: if 8 cards each cannot be dealt even after a reshuffle, the
    # game ends and the player with the most collection cards wins.
    s = Cubirds.parse(pos(hands=["F", "FOO"], collections=["FFT", "FFFT"], deck="", discard="", rest_row=3))
    s.play_move("F1L")              # both piles empty: no draw node; hand empty -> redeal fails
    assert s.is_over
    assert s.result() == (0.0, 1.0)


def test_failed_deal_tie_shares_the_victory():
    # docs/rules/cubirds.md §5.3 (tied players share) and §6 (1/k each).
    s = Cubirds.parse(pos(players=3, hands=["F", "FOO", "OT"], collections=["FFTO", "FFFT", "O"],
                          deck="", discard="", rest_row=3))
    s.play_move("F1L")
    assert s.is_over
    assert s.result() == (0.5, 0.5, 0.0)


def test_deal_with_a_reshuffle_does_not_fail():
    # docs/rules/cubirds.md §5.1, §5.3: the deal may use the reshuffled discard pile.
    s = Cubirds.parse(pos(hands=["F", "FOO"], collections=["FFT", "FFFT"], deck="DDDDDDDMMMMMM",
                          discard="", rest_row=3))
    s.play_move("F1L")
    s.play_move("nodraw")
    # 13 in the draw pile + 3 discarded from seat 1 = 16 = 8 each
    assert s.phase == "deal"
    rnd = random.Random(1)
    while s.is_chance:
        random_step(s, rnd)
    d = J(s)
    assert [len(h) for h in d["hands"]] == [8, 8]
    assert d["deck"] == "" and d["discard"] == ""


def test_turn_cap_ends_as_a_failed_deal():
    # docs/rules/cubirds.md §5.4: after 1,000 turns the game ends as if the deal failed.
    s = Cubirds.parse(pos(hands=["FO", "DDPPW"], collections=["RR", "R"], turn=999))
    s.play_move("F1L")
    s.play_move("nodraw")
    assert s.is_over and s.result() == (1.0, 0.0)
    s = Cubirds.parse(pos(hands=["FO", "DDPPW"], collections=["R", "R"], turn=998))
    s.play_move("F1L")
    s.play_move("nodraw")
    assert not s.is_over and s.turn == 999


def test_shared_victory_of_three_at_the_cap():
    # docs/rules/cubirds.md §5.4, §6: at the cap the largest collections share the victory,
    # here all four seats with one card each, 1/4 each
    s = Cubirds.parse(pos(players=4, hands=["FO", "DDPPW", "T", "M"], collections=["R", "R", "R", "W"],
                          turn=999))
    s.play_move("F1L")
    s.play_move("nodraw")
    assert s.result() == (0.25, 0.25, 0.25, 0.25)


# --------------------------------------------------------------------------- invariants
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_card_conservation_after_every_move(players):
    # docs/rules/cubirds.md §2: 110 cards, per-species copies, after every move and chance event.
    rnd = random.Random(players)
    for g in range(4):
        s = Cubirds.start(players=players, seed=1000 + g)
        while not s.is_over:
            random_step(s, rnd)
            c = total_cards(s)
            assert dict(c) == COPIES
            d = J(s)
            for q in range(players):
                assert not Counter(d["known"][q]) - Counter(d["hands"][q])


def test_playout_matches_game_rules_on_text():
    # a native playout ends in a valid finished position
    for n in (2, 5):
        s = Cubirds.start(players=n, seed=9)
        s.random_playout(seed=3)
        assert s.is_over
        again = Cubirds.parse(s.text())
        assert again.is_over and again.result() == s.result()


# --------------------------------------------------------------------------- information
def _random_states(n, count, seed):
    rnd = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        s = Cubirds.start(players=n, seed=seed * 100 + g)
        g += 1
        steps = rnd.randrange(10, 200)
        for _ in range(steps):
            if s.is_over:
                break
            random_step(s, rnd)
        if not s.is_over:
            out.append(s)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_determinization_keeps_what_the_observer_knows(players):
    # docs/rules/cubirds.md §7.3: own hand, public cards, known cards and
    # "holds no X" facts kept; the unseen cards dealt among unknown slots and the pile.
    for s in _random_states(players, 12, players):
        before = J(s)
        for obs in range(players):
            for seed in range(3):
                t = s.determinized(obs, seed)
                d = J(t)
                assert t.view(obs) == s.view(obs)
                assert d["hands"][obs] == before["hands"][obs]
                for key in ("rows", "collections", "discard", "known", "lacks", "phase", "turn"):
                    assert d[key] == before[key]
                assert len(d["deck"]) == len(before["deck"])
                assert dict(total_cards(t)) == COPIES
                for q in range(players):
                    assert len(d["hands"][q]) == len(before["hands"][q])
                    hand = Counter(d["hands"][q])
                    assert not Counter(d["known"][q]) - hand
                    for x in d["lacks"][q]:
                        assert hand[x] == Counter(d["known"][q])[x], "a lacked species was dealt"
                Cubirds.parse(t.text())


def _hidden_swaps(s, obs, rnd):
    """Another full state the observer cannot tell from s: one hidden card of an opponent
    exchanged with a pile card or another opponent's hidden card of another species,
    respecting the "lacks" facts."""
    d = J(s)
    n = d["players"]
    slots = []          # (zone, species) of hidden cards: zone -1 is the pile
    for q in range(n):
        if q == obs:
            continue
        hidden = Counter(d["hands"][q]) - Counter(d["known"][q])
        slots += [(q, x) for x in hidden.elements()]
    slots += [(-1, x) for x in d["deck"]]
    rnd.shuffle(slots)
    for (za, xa) in slots:
        for (zb, xb) in slots:
            if za == zb or xa == xb:
                continue
            if za >= 0 and xb in d["lacks"][za]:
                continue
            if zb >= 0 and xa in d["lacks"][zb]:
                continue
            e = json.loads(s.text())

            def move(zone, out_x, in_x):
                if zone < 0:
                    e["deck"] = "".join(sorted(e["deck"].replace(out_x, "", 1) + in_x, key=SPECIES.index))
                else:
                    e["hands"][zone] = "".join(sorted(e["hands"][zone].replace(out_x, "", 1) + in_x,
                                                      key=SPECIES.index))
            move(za, xa, xb)
            move(zb, xb, xa)
            return Cubirds.parse(json.dumps(e))
    return None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_determinization_depends_only_on_what_the_observer_sees(players):
    # The searchers' no-peeking property: states that differ only in hidden cards give the
    # identical determinization for the same seed.
    rnd = random.Random(77 + players)
    tried = 0
    for s in _random_states(players, 15, 40 + players):
        for obs in range(players):
            t = s
            for _ in range(3):
                u = _hidden_swaps(t, obs, rnd)
                if u is None:
                    break
                t = u
            if t.text() == s.text():
                continue
            assert t.view(obs) == s.view(obs)
            tried += 1
            for seed in (1, 2, 99):
                assert s.determinized(obs, seed).text() == t.determinized(obs, seed).text()
    assert tried > 10


def test_determinization_respects_tight_holds_no_facts():
    # An opponent with 3 unknown cards who lacks every species but R and W must get R/W.
    text = pos(players=3, hands=["FOT", "RRW", "DDPP"], lacks=["", "FOTDPM", ""],
               collections=["M", "P", "O"])
    s = Cubirds.parse(text)
    for seed in range(50):
        d = J(s.determinized(0, seed))
        assert set(d["hands"][1]) <= set("RW") and len(d["hands"][1]) == 3
        assert d["hands"][0] == "FOT"


def test_determinization_can_vary():
    s = Cubirds.start(players=3, seed=4)
    texts = {s.determinized(0, seed).text() for seed in range(20)}
    assert len(texts) > 10
    assert all(json.loads(t)["hands"][0] == J(s)["hands"][0] for t in texts)


def test_observe_draws_and_face_up_cards():
    # docs/rules/cubirds.md §7.2: cards drawn from the pile are hidden from the others; row cards
    # are public; every decision is public.
    s = Cubirds.parse(pos(players=3, hands=["RF", "DDPPW", "OT"], collections=["W", "M", "P"]))
    assert s.observe_move(lay("R", 1, "R"), 1) == lay("R", 1, "R")
    s.play_move("R1R")
    s.play_move("draw")
    c = s.legal()[0]
    assert s.observe_move(c, 0) == c
    assert s.observe_move(c, 1) == HIDDEN and s.observe_move(c, 2) == HIDDEN
    s = Cubirds.parse(pos(players=3, hands=["RRF", "DDPPW", "OT"], rows=("WRR", "PMW", "DTO", "MWD"),
                          collections=["W", "M", "P"]))
    s.play_move("R1L")
    assert s.phase == "filling"
    c = s.legal()[0]
    assert all(s.observe_move(c, q) == c for q in range(3))


def test_observe_during_setup():
    s = Cubirds.before_setup(players=2)
    rnd = random.Random(3)
    while s.is_chance:
        d = J(s)
        c = s.sample(rnd.getrandbits(63))
        rows_done = all(len(r) == 3 for r in d["rows"])
        hands_done = all(len(h) == 8 for h in d["hands"])
        if not rows_done or hands_done:
            assert s.observe_move(c, 0) == c and s.observe_move(c, 1) == c
        else:
            who = 0 if len(d["hands"][0]) < 8 else 1
            assert s.observe_move(c, who) == c and s.observe_move(c, 1 - who) == HIDDEN
        s.play_move(c)


def test_known_cards_leave_with_a_lay_or_flock():
    # docs/rules/cubirds.md §7.2: a card that entered a hand face up is known until it leaves.
    s = Cubirds.parse(pos(hands=["OF", "DDPPW"], rows=("TOFFD", "PMW", "TMP", "MWT")))
    s.play_move("O1R")
    assert s.known_cards(0) == "FFD"
    s.play_move("flock:F")
    assert s.known_cards(0) == "D" and "F" in s.lacks(0)


def test_view_hides_other_hands_and_the_pile():
    # docs/rules/cubirds.md §7.4: the other hands as known cards then one ? per unknown
    # card, the draw pile as a count, and the cards the seat cannot place
    s = Cubirds.parse(pos(players=3, hands=["RF", "DDPPW", "OT"], known=["", "PW", ""],
                          collections=["W", "M", "P"]))
    v = json.loads(s.view(0))
    assert v["hands"] == ["FR", "PW???", "??"]
    assert v["deck"] == len(J(s)["deck"])
    assert Counter(v["unseen"]) == Counter(J(s)["deck"]) + Counter("DDPO" "T")
    assert "F R" in s.render(observer=0)
    assert "F R" in s.render()
    assert "F R" not in s.render(observer=1)
    assert "? ?" in s.render(observer=1)


# --------------------------------------------------------------------------- names & text
def test_move_names_round_trip():
    # docs/rules/cubirds.md §8.4: the notation.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"]))
    assert s.move_name(lay("R", 2, "L")) == "R2L"
    assert s.parse_move("R2L") == 7 * 8 + 1 * 2 + 0
    assert s.parse_move("f4r") == 0 * 8 + 3 * 2 + 1
    for m, name in [(64, "draw"), (65, "nodraw"), (66, "flock:F"), (73, "flock:R"), (74, "noflock"),
                    (75, "left"), (76, "right"), (87, "card:R")]:
        assert s.move_name(m) == name and s.parse_move(name) == m
    for bad in ("R5L", "X1L", "R1X", "flock:Q", "", "pass"):
        with pytest.raises(MoveError):
            s.parse_move(bad)
    with pytest.raises(MoveError):
        s.move_name(200)
    with pytest.raises(MoveError):
        s.play_move("D1L")          # no duck in hand


BASE = json.loads(pos(hands=["RF", "DDPPW"]))


def _bad(**changes):
    d = json.loads(json.dumps(BASE))
    for k, v in changes.items():
        if v is None:
            d.pop(k)
        else:
            d[k] = v
    return json.dumps(d)


@pytest.mark.parametrize("text,fault", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    (_bad(players=6), "'players' must be 2..5"),
    (_bad(players="2"), "'players' must be an integer"),
    (_bad(colour=1), "unknown field 'colour'"),
    (_bad(deck=None), "missing field 'deck'"),
    (_bad(phase="play"), "'phase' must be one of"),
    (_bad(dealer=2), "'dealer' must be 0..1"),
    (_bad(rows=["DPM", "WRD", "PMW"]), "'rows' must list 4"),
    (_bad(hands=["RF"]), "'hands' must list 2"),
    (_bad(hands=["RX", "DDPPW"]), "'X' is not a species letter"),
    (_bad(deck=BASE["deck"][1:]), "holds 109 cards, not 110"),
    (_bad(deck=BASE["deck"][1:] + "R"), "there are 6 F (flamingo) cards, not 7"),
    (_bad(rows=["", "WRD", "PMW", "RDPDPM"]), "rows[0] is empty"),
    (_bad(known=["RR", ""]), "known[0] lists 2 R"),
    (_bad(lacks=["R", ""]), "lacks[0] says"),
    (_bad(turn=1000), "'turn' is 1000"),
    (_bad(turn=-1), "'turn' must be a non-negative integer"),
    (_bad(phase="flock"), "reaches no small flock"),
    (_bad(phase="drawing"), "needs the field 'pending'"),
    (_bad(pending=2), "belongs to phase drawing"),
    (_bad(phase="over"), "needs the field 'winners'"),
    (_bad(hands=["", "DDPPWRF"]), "must lay but holds no cards"),
    (_bad(collections=["RRRWWW", "R"], deck=BASE["deck"].replace("RR", "", 1).replace("WWW", "", 1)),
     "already wins"),
])
def test_position_errors_name_the_fault(text, fault):
    # docs/rules/cubirds.md §9.3: parsing checks the totals, player count, non-empty rows, and
    # names the first fault.
    with pytest.raises(PositionError) as e:
        Cubirds.parse(text)
    assert fault in str(e.value)


def test_position_text_round_trip_and_defaults():
    # "known" and "lacks" are optional; text() always writes them.
    d = json.loads(pos(hands=["RF", "DDPPW"]))
    del d["known"], d["lacks"]
    s = Cubirds.parse(json.dumps(d))
    assert J(s)["known"] == ["", ""] and J(s)["lacks"] == ["", ""]
    assert Cubirds.parse(s.text()).text() == s.text()
    # the deck's order is not state: any order parses to the same position
    d["deck"] = d["deck"][::-1]
    assert Cubirds.parse(json.dumps(d)).text() == s.text()
    assert Cubirds.parse(json.dumps(d)).hash == s.hash


def test_position_from_a_file(tmp_path):
    p = tmp_path / "pos.json"
    p.write_text(pos(hands=["RF", "DDPPW"]))
    assert Cubirds.parse(str(p)).text() == Cubirds.parse(pos(hands=["RF", "DDPPW"])).text()


def test_chance_probabilities_follow_the_pile_counts():
    # docs/rules/cubirds.md §7.1: every card drawn is a chance event weighted by the counts left.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"], deck="OOOT", discard="", rest_row=3))
    s.play_move("R1R")
    s.play_move("draw")
    assert dict(s.chances()) == {card("O"): 0.75, card("T"): 0.25}


def test_evaluate_prefers_collection_progress():
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"], collections=["OOTT", "R"]))
    a, b = s.evaluate_for(0), s.evaluate_for(1)
    assert 0 < b < a < 1 and abs(a + b - 1) < 1e-9


# --------------------------------------------------------------------------- perft
PERFT = pathlib.Path(__file__).parents[1] / "perft" / "cubirds.jsonl"


def _perft_entries():
    for line in PERFT.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            e = json.loads(line)
            for depth, leaves in e["perft"].items():
                if int(depth) <= 3:
                    yield pytest.param(e["position"], int(depth), leaves, id=f"{e['source'][:30]}-d{depth}")


@pytest.mark.parametrize("text,depth,leaves", list(_perft_entries()))
def test_perft_suite_matches_the_reference_model(text, depth, leaves):
    # docs/rules/cubirds.md §10: decisions counted, a chance event counts 1, a finished game 0.
    assert reference_perft(text, depth) == leaves


def test_perft_hand_derived():
    # docs/rules/cubirds.md §10 (its example).  Seat 0 holds F F; row 4 is F O D.  Laying F on
    # rows 1-3 or at the left of row 4 takes nothing (draw option: 2 moves); F4R takes O D and
    # leaves F F F, a one-species row: a chance event (1).  perft(2) = 7 * 2 + 1 = 15.
    s = Cubirds.parse(pos(hands=["FF", "DDPPW"], rows=("OTD", "PMW", "ROT", "FOD"), collections=["R", "R"]))
    assert s.perft(1) == 8
    assert s.perft(2) == 15
    # depth 3: "draw" is a chance event (1); "nodraw" empties the hand: a redeal (1).
    assert s.perft(3) == 15


def test_perft_random_positions_against_the_reference():
    rnd = random.Random(5)
    checked = 0
    for n in (2, 3, 4, 5):
        for s in _random_states(n, 3, 60 + n):
            if s.is_chance:
                continue
            for depth in (1, 2, 3):
                assert s.perft(depth) == reference_perft(s.text(), depth), s.text()
            checked += 1
    assert checked >= 4


# --------------------------------------------------------------------------- audit (second engineer)
def _over(**kw):
    """The BASE position, finished (fields overridden by kw)."""
    d = json.loads(json.dumps(BASE))
    d.update(phase="over", winners=[0])
    d.update(kw)
    return json.dumps(d)


@pytest.mark.parametrize("text", ["[" * 100000, '{"players": ' * 100000])
def test_deeply_nested_json_is_a_position_error(text):
    # docs/rules/cubirds.md §9.3: a bad text gets a PositionError naming the fault, never a
    # traceback (json raises RecursionError here, not ValueError).
    with pytest.raises(PositionError, match="nested too deeply"):
        Cubirds.parse(text)


@pytest.mark.parametrize("turn", [1001, 5000, 10 ** 30])
def test_no_position_has_more_than_1000_turns(turn):
    # docs/rules/cubirds.md §5.4, §9.1: after 1,000 turns the game ends, so no position,
    # finished or not, counts more than 1,000 turns (10**30 overflowed a C int).
    # BASE: collections R, R -> a tie at the cap, both seats share.
    with pytest.raises(PositionError, match="'turn' must be 0..1000"):
        Cubirds.parse(_over(turn=turn, winners=[0, 1]))


def test_a_finished_game_at_the_cap_parses():
    # docs/rules/cubirds.md §5.4 and §6: turn 1000, collections R vs R: the
    # players tie on 1 card each and share the victory.
    s = Cubirds.parse(_over(turn=1000, winners=[0, 1]))
    assert s.result() == (0.5, 0.5)


def test_a_deal_after_a_winning_collection_is_rejected():
    # docs/rules/cubirds.md §4.6 before §4.7: a winning collection ends the game at once, so no
    # round ends (no redeal) with a winning collection on the table.  Seat 0 holds F F F and T T
    # T.
    d = json.loads(pos(hands=["", ""], collections=["FFFTTT", "R"], deck=None))
    d["phase"] = "deal"
    with pytest.raises(PositionError, match="already wins"):
        Cubirds.parse(json.dumps(d))


@pytest.mark.parametrize("colls,winners,ok", [
    # a collection win: only the player who won, whatever the counts (seat 1 has more cards)
    (["FFFTTT", "RRRRRRR"], [0], True),
    (["FFFTTT", "RRRRRRR"], [1], False),
    (["FFFTTT", "RRRRRRR"], [0, 1], False),
    # no winning collection: a failed deal or the cap; the most collection cards win, ties share
    (["FFT", "FFFT"], [1], True),
    (["FFT", "FFFT"], [0], False),
    (["FFT", "FFFT"], [0, 1], False),
    (["FFTO", "FFFT"], [0, 1], True),
    (["FFTO", "FFFT"], [1], False),
])
def test_the_winners_of_a_finished_game_must_fit_the_collections(colls, winners, ok):
    # docs/rules/cubirds.md §4.6 (a winning collection wins at once), §5.3, §5.4 (a failed deal
    # or the cap: the most collection cards win, tied players share).
    text = pos(hands=["FO", "DDPPW"], collections=colls, phase="over", winners=winners)
    if ok:
        assert Cubirds.parse(text).winners() == winners
    else:
        with pytest.raises(PositionError, match="'winners'"):
            Cubirds.parse(text)


def _reaches_flock(hand):
    return any(Counter(hand)[x] >= n for x, n in zip(SPECIES, (2, 3, 3, 4, 4, 5, 6, 6)))


def test_determinization_at_a_flock_node_keeps_a_flock_possible():
    # docs/rules/cubirds.md §8.2: a flock node exists only when a species in the hand
    # reaches its small number, so every seat watching seat 0 decide on a flock knows it
    # holds one; §7.3: a full state consistent with what the
    # observer knows.  Seat 0 holds O O O D W, none of it known to the others.
    s = Cubirds.parse(pos(players=3, hands=["OOODW", "DDPPW", "TTMR"], phase="flock",
                          collections=["W", "M", "P"]))
    assert s.legal_names() == ["flock:O", "noflock"]
    for obs in (1, 2):
        for seed in range(40):
            t = s.determinized(obs, seed)
            hand = J(t)["hands"][0]
            assert len(hand) == 5 and _reaches_flock(hand), hand
            assert len(t.legal()) >= 2
            assert Cubirds.parse(t.text()).text() == t.text()


def test_determinization_at_a_flock_node_when_only_one_deal_fits():
    # As above.  Seat 0 holds F F, unknown to seat 1; five flamingos are in the discard
    # pile, so two of the unseen cards are flamingos.  Seat 0's two unknown slots reach a
    # small flock only as F F (flamingo is the only species whose small number is 2), so
    # every determinization for seat 1 deals seat 0 exactly F F.
    s = Cubirds.parse(pos(players=2, hands=["FF", "DDPPW"], phase="flock", discard="FFFFF"))
    for seed in range(30):
        t = s.determinized(1, seed)
        assert J(t)["hands"][0] == "FF"
        assert t.legal_names() == ["flock:F", "noflock"]


@pytest.mark.parametrize("observer", [-1, 3, 5, 1000])
def test_determinization_for_a_seat_outside_the_game_sees_only_public_cards(observer):
    # "Information": an observer who holds no seat knows only the public cards, so every
    # hand is dealt afresh from the unseen cards (a seat number out of range used to read
    # outside the hands array).  Hand sizes, public zones and card totals are kept.
    s = Cubirds.start(players=3, seed=4)
    before = J(s)
    texts = set()
    for seed in range(10):
        t = s.determinized(observer, seed)
        d = J(t)
        for key in ("rows", "collections", "discard", "known", "lacks", "phase", "turn"):
            assert d[key] == before[key]
        assert [len(h) for h in d["hands"]] == [8, 8, 8]
        assert len(d["deck"]) == len(before["deck"])
        assert dict(total_cards(t)) == COPIES
        texts.add(t.text())
    assert len(texts) > 5
    # no peeking: exchanging two seats' hidden hands changes nothing for this observer
    e = json.loads(s.text())
    e["hands"][0], e["hands"][1] = e["hands"][1], e["hands"][0]
    u = Cubirds.parse(json.dumps(e))
    assert u.determinized(observer, 3).text() == s.determinized(observer, 3).text()


@pytest.mark.parametrize("name", ["floc\u212a:R", "\u212a1L", "R02L", "R002R", "nodr\u0430w"])
def test_move_names_outside_the_notation_are_move_errors(name):
    # docs/rules/cubirds.md §8.4: `R2L` (one row digit 1..4), `flock:R`, ...
    # The Kelvin sign lower-cases to an ASCII k ("floc\u212a:R" passed as flock:R), a leading
    # zero is not a row number, and a Cyrillic a is not an a.
    s = Cubirds.parse(pos(hands=["RF", "DDPPW"]))
    with pytest.raises(MoveError):
        s.parse_move(name)


def test_draw_option_with_an_empty_draw_pile_and_a_discard_pile():
    # docs/rules/cubirds.md §8.2: there is no draw node only when the draw AND discard
    # piles are empty; §5.1: drawing from an empty pile reshuffles the discard.
    # Seat 0 holds F O; no row holds F or O, so every lay (2 species x 8 = 16) takes
    # nothing and offers draw / nodraw (32); "draw" is a chance event (1), "nodraw" leaves
    # one card, no flock, and seat 1 (D D P P W: 3 species) has 24 lays: 16 * 25 = 400.
    s = Cubirds.parse(pos(hands=["FO", "DDPPW"], deck="", discard=None, rest_discard=True))
    assert J(s)["deck"] == "" and len(J(s)["discard"]) > 0
    assert [s.perft(1), s.perft(2), s.perft(3)] == [16, 32, 400]
    s.play_move("F1L")
    assert s.legal_names() == ["draw", "nodraw"]
    s.play_move("draw")
    assert s.is_chance and J(s)["discard"] == ""        # the discard pile became the draw pile
    assert reference_perft(pos(hands=["FO", "DDPPW"], deck="", discard=None, rest_discard=True), 3) == 400


def test_registry_examples_live_in_the_game_module():
    # the registry's CuBirds positions are the module's EXAMPLES (starts for 4, 2 and 5
    # players with seed 0, then mid-game positions) and BENCH_POSITION
    from roost.core import cubirds
    g = get_game("cubirds")
    assert g.examples == cubirds.EXAMPLES and g.bench_position == cubirds.BENCH_POSITION
    for text, n in zip(cubirds.EXAMPLES, (4, 2, 5)):
        assert Cubirds.start(players=n, seed=0).text() == text
    for text in cubirds.EXAMPLES + (cubirds.BENCH_POSITION,):
        assert Cubirds.parse(text).text() == text


def test_flock_node_determinization_does_not_peek():
    # "Information", determinization: it depends only on what the observer sees.  Seat 0
    # decides on a flock; two worlds differ only in seat 0's hidden cards (O O O D W or
    # T T T D W, both reaching a small flock) and the draw pile: for seats 1 and 2 they look
    # the same, so each seed must give both worlds the same determinization.
    a = Cubirds.parse(pos(players=3, hands=["OOODW", "DDPPW", "FMR"], phase="flock",
                          collections=["W", "M", "P"]))
    b = Cubirds.parse(pos(players=3, hands=["TTTDW", "DDPPW", "FMR"], phase="flock",
                          collections=["W", "M", "P"]))
    for obs in (1, 2):
        assert a.view(obs) == b.view(obs)
        for seed in range(20):
            assert a.determinized(obs, seed).text() == b.determinized(obs, seed).text()
    assert a.view(0) != b.view(0)


def test_position_files_that_are_not_text_or_do_not_exist(tmp_path):
    # docs/rules/cubirds.md §9.1: commands take the JSON itself or the path of a file holding
    # it; a bad file is a PositionError naming the fault (a binary file raised
    # UnicodeDecodeError, a missing file was reported as bad JSON).
    p = tmp_path / "pos.bin"
    p.write_bytes(b"\xd0\xff\x00garbage")
    with pytest.raises(PositionError, match="not a text file"):
        Cubirds.parse(str(p))
    with pytest.raises(PositionError, match="not valid JSON, nor the path of a file: no such file"):
        Cubirds.parse(str(tmp_path / "missing.json"))
    with pytest.raises(PositionError, match="not valid JSON"):
        Cubirds.parse('{"players": 2,')


@pytest.mark.parametrize("players", [2, 3, 5])
def test_copies_keep_the_player_count(players):
    # docs/rules/cubirds.md §1, 2 to 5 players: a copy, a determinization and a random playout
    # of an n-player game are n-player games (assign copied only the position, and a new
    # object starts as a 4-player game).
    s = Cubirds.start(players=players, seed=1)
    assert s.copy().players == players
    assert s.determinized(0, 3).players == players
    t = s.copy()
    t.random_playout(seed=2)
    assert t.players == players and len(t.result()) == players


@pytest.mark.parametrize("q", [-1, 2, 5, 100])
def test_seat_helpers_reject_seats_outside_the_game(q):
    # "Position text": hands and collections exist for seats 0..players-1 only (seat 5 of a
    # 2-player game used to read past the hands array).
    s = Cubirds.start(players=2, seed=0)
    for f in (s.hand, s.known_cards, s.lacks, s.collection):
        with pytest.raises(GameError, match="seats are 0..1"):
            f(q)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_agree_with_an_independent_model(players):
    # Every clause at once: setup, lay and capture, completing a row, the draw option,
    # flocks, the win checks, the empty-hand redeal, reshuffles, failed deals and shared
    # victories, known cards and "holds no X" facts, chance weights.  The model in
    # tests/core/cubirds/model.py was written from the rules file alone; both replay the same
    # moves and chance outcomes and must agree on the full position after every step.  The policies
    # (uniform, always draw, hoard: rarely flock) push games into empty piles and failed deals.
    from tests.core.cubirds.model import M
    for g in range(6):
        rnd = random.Random(players * 100 + g)
        policy = ("uniform", "draw", "hoard")[g % 3]
        s = Cubirds.before_setup(players=players, dealer=g % players)
        m = M(s.text())
        while True:
            assert J(s) == m.dump()
            assert s.player == m.to_move()
            if s.is_over:
                break
            legal = s.legal()
            assert legal == m.legal()
            if s.is_chance:
                total = sum(m.deck.values())
                for o, p in s.chances():
                    assert abs(p - m.deck[SPECIES[o - 80]] / total) < 1e-12
                mv = s.sample(rnd.getrandbits(63))
            elif policy == "hoard" and 74 in legal and rnd.random() < 0.95:
                mv = 74
            elif policy in ("draw", "hoard") and 64 in legal:
                mv = 64
            else:
                mv = rnd.choice(legal)
            s.play_unchecked(mv)
            m.play(mv)
