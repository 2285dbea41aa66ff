"""Wingspan's pending decision as a question for people (``question()``): it names what is
decided, and at bare yes/no nodes what yes and no mean.  Rules cited: docs/rules/wingspan.md §7.3 (the
purposes) and §6.1 (what another seat may see)."""
from roost.core.wingspan import Wingspan

from tests.core.wingspan.test_wingspan_rules import R, S, bird, make, play, pow_at


def test_setup_keep_names_the_card_and_what_yes_and_no_do():
    # rules: §7.3 SETUP_KEEP_BIRD (YESNO, 1 = keep), §6.1 (the dealt hand is secret)
    s = Wingspan.start(players=2, seed=1)
    first = s._raw()["players"][0]["hand"][0]
    q = s.question()
    assert q.startswith("seat 0: keep ") and Wingspan.start(2, seed=1).question() == q
    from roost.core.wingspan import BIRD_NAMES
    assert f"keep {BIRD_NAMES[first]}?" in q and "yes: keep it" in q and "no: discard it" in q
    assert BIRD_NAMES[first] not in s.question(1) and "dealt card 1 of 5" in s.question(1)
    play(s, "yes")
    assert BIRD_NAMES[s._raw()["players"][0]["hand"][1]] in s.question()


def test_power_questions_name_the_bird():
    # rules: §7.3 POWER_CONFIRM, CACHE_CHOICE, MOVE_TARGET; §10.4 Blue Jay, §10.36 Bewick's Wren,
    # §10.38 American Bittern (only the opponent gains: the owner is asked)
    s = make(mats=[[[bird("Blue Jay")], [], []], [[], [], []]], stack=pow_at(0, 0, "Blue Jay", row=(0, -1)),
             feeder=[S, S, R])
    assert s.purpose == "TAKE_DIE" and "Blue Jay" in s.question()
    play(s, "die:S")
    assert s.purpose == "CACHE_CHOICE"
    assert s.question() == ("seat 0: cache the seed on Blue Jay? "
                            "(yes: cache it (1 point); no: keep the seed in your supply)")
    mats = [[[bird("Blue Jay"), bird("Bewick's Wren")], [], []], [[], [], []]]
    s = make(mats=mats, stack=pow_at(0, 1, "Bewick's Wren", row=(0, 0)), feeder=[S, S, R])
    assert s.purpose == "MOVE_TARGET" and "move Bewick's Wren" in s.question()
    mats = [[[], [], [bird("American Bittern"), bird("Mallard")]], [[], [], [bird("Wood Duck")]]]
    s = make(mats=mats, stack=pow_at(0, 10, "American Bittern", row=(2, -1)))
    assert s.purpose == "POWER_CONFIRM"
    q = s.question()
    assert "use the power of American Bittern" in q and "yes: use it" in q and "no: pass" in q


def test_turn_and_play_questions():
    # rules: §7.3 TURN_ACTION, PLAY_CARD, PLAY_HABITAT
    s = make(hands=[["Mallard", "Killdeer"], []], food=[[1, 1, 1, 1, 1], [0] * 5])
    assert s.purpose == "TURN_ACTION" and s.question().startswith("seat 0: which action")
    play(s, "play")
    assert s.question() == "seat 0: which bird to play?"
    s = make(hands=[["Killdeer"], []], food=[[1, 1, 1, 1, 1], [0] * 5])
    play(s, "play")
    assert s.purpose == "PLAY_HABITAT" and s.question() == "seat 0: which habitat to play Killdeer into?"


def test_no_question_once_the_game_is_over():
    s = make(phase="over")
    assert s.is_over and s.question() is None


def test_explain_move_says_what_yes_and_no_do():
    # rules: §7.3: YESNO nodes (SETUP_KEEP_BIRD 1 = keep, CACHE_CHOICE 1 = cache)
    s = Wingspan.start(players=2, seed=1)
    assert [s.explain_move(m) for m in s.legal()] == ["no (discard it)", "yes (keep it and pay a food for it)"]
    s = make(mats=[[[bird("Blue Jay")], [], []], [[], [], []]], stack=pow_at(0, 0, "Blue Jay", row=(0, -1)),
             feeder=[S, S, R])
    assert s.explain_move(s.legal()[0]) == "die:S"             # a name that says it all stays as it is
    play(s, "die:S")
    assert s.explain_move(1) == "yes (cache it (1 point))"
    assert s.explain_move(0) == "no (keep the seed in your supply)"
