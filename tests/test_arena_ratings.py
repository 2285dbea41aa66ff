"""Ratings: pairwise decomposition, the Bradley-Terry fit, head-to-head score, SPRT
(src/arena/ratings.py).  Expected values are computed by hand in the comments."""
import math

import pytest

from roost.arena.ratings import ScoreStream, Sprt, SprtError, Tally, fit_elo, pairwise


def _games(t, engines, result, times):
    for _ in range(times):
        t.add(engines, result)


def test_pairwise_decomposition_of_a_multiplayer_game():
    # seat results 1, 0, 0: seat 0 beats both, seats 1 and 2 draw
    assert pairwise((2, 0, 1), (1.0, 0.0, 0.0)) == [(2, 0, 1.0), (2, 1, 1.0), (0, 1, 0.5)]
    # a shared win is a draw between the sharers, both beat the third
    assert pairwise((0, 1, 2), (0.5, 0.0, 0.5)) == [(0, 1, 1.0), (0, 2, 0.5), (1, 2, 0.0)]
    # the same roster entry in two seats: no comparison between them
    assert pairwise((0, 1, 0), (0.0, 1.0, 0.0)) == [(0, 1, 0.0), (1, 0, 1.0)]


def test_multiplayer_comparisons_weigh_one_over_n_minus_one():
    t = Tally(3)
    t.add((0, 1, 2), (1.0, 0.0, 0.0))
    assert t.W[0][1] == t.W[0][2] == 0.5 and t.N[0][1] == 0.5
    assert t.raw_W[0][1] == 1.0 and t.raw_N[1][2] == 1 and t.raw_W[1][2] == 0.5


def test_two_engines_three_wins_in_four():
    # P = 3/4 -> Elo difference 400 log10(3) = 190.85; Fisher information 4 * 3/4 * 1/4 = 3/4,
    # se = sqrt(4/3) = 1.1547 logits = 200.59 Elo, 95% = 1.96 * 200.59 = 393.2
    t = Tally(2)
    _games(t, (0, 1), (1.0, 0.0), 2)
    _games(t, (1, 0), (0.0, 1.0), 1)
    _games(t, (1, 0), (1.0, 0.0), 1)
    r = fit_elo(t)
    assert r.elo[0] == 0.0 and r.err[0] == 0.0
    assert r.elo[1] == pytest.approx(-190.849, abs=0.01)
    assert r.err[1] == pytest.approx(393.16, abs=0.05)
    assert r.note == ""


def test_consistent_three_engine_example_and_anchor():
    # A beats B 3:1, B beats C 3:1, A beats C 9:1: exactly a Bradley-Terry model with
    # A - B = B - C = ln 3, A - C = ln 9, so the fit reproduces it: B = -190.85, C = -381.70
    t = Tally(3)
    _games(t, (0, 1), (1.0, 0.0), 3)
    _games(t, (0, 1), (0.0, 1.0), 1)
    _games(t, (1, 2), (1.0, 0.0), 3)
    _games(t, (1, 2), (0.0, 1.0), 1)
    _games(t, (0, 2), (1.0, 0.0), 9)
    _games(t, (0, 2), (0.0, 1.0), 1)
    r = fit_elo(t)
    assert r.elo == pytest.approx([0.0, -190.849, -381.697], abs=0.01)
    assert r.order() == [0, 1, 2]
    # anchored at C = 100 the differences stay
    r2 = fit_elo(t, anchor=2, anchor_elo=100.0)
    assert r2.elo == pytest.approx([481.697, 290.849, 100.0], abs=0.01)


def test_a_cycle_of_equal_results_rates_everyone_equal():
    # A>B, B>C, C>A, each 2:1: by symmetry all three are equal
    t = Tally(3)
    for a, b in ((0, 1), (1, 2), (2, 0)):
        _games(t, (a, b), (1.0, 0.0), 2)
        _games(t, (a, b), (0.0, 1.0), 1)
    r = fit_elo(t)
    assert r.elo == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)


def test_draws_count_half():
    # 1 win, 2 draws, 1 loss: score 1/2 -> equal ratings
    t = Tally(2)
    t.add((0, 1), (1.0, 0.0))
    t.add((0, 1), (0.5, 0.5))
    t.add((1, 0), (0.5, 0.5))
    t.add((1, 0), (1.0, 0.0))
    assert fit_elo(t).elo == pytest.approx([0.0, 0.0], abs=1e-9)


def test_a_clean_sweep_gets_a_finite_rating_and_a_note():
    # 3 wins out of 3 has no finite maximum; one virtual draw per pair makes it 3.5 of 4:
    # P = 7/8 -> 400 log10(7) = 338.04
    t = Tally(2)
    _games(t, (0, 1), (1.0, 0.0), 3)
    r = fit_elo(t)
    assert r.elo[1] == pytest.approx(-338.04, abs=0.01)
    assert "virtual draw" in r.note


def test_engines_that_never_played_are_unrated():
    t = Tally(3)
    _games(t, (0, 1), (1.0, 0.0), 1)
    _games(t, (0, 1), (0.0, 1.0), 1)
    r = fit_elo(t)
    assert r.elo[2] is None and r.order()[-1] == 2


def test_head_to_head_score_and_interval():
    # 3 wins 1 loss: mean 0.75, sample variance (3 * 0.0625 + 0.5625) / 3 = 0.25,
    # margin 1.96 * sqrt(0.25 / 4) = 0.49
    s = ScoreStream()
    for x in (1, 1, 0, 1):
        s.add(x)
    h = s.head_to_head()
    assert h.score == 0.75 and h.margin == pytest.approx(0.49)
    assert h.elo == pytest.approx(190.849, abs=0.01)
    assert ScoreStream.game_score((1, 0), (1.0, 0.0)) == 0.0
    assert ScoreStream.game_score((0, 1, 0), (0.0, 1.0, 0.0)) == 0.0


def test_sprt_bounds():
    s = Sprt.parse("elo0=0,elo1=10,alpha=0.05,beta=0.05")
    assert s.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439)
    assert s.upper == pytest.approx(2.944439)


def test_sprt_known_decisions():
    s = Sprt(elo0=0, elo1=10)
    # s1 = 1 / (1 + 10^(-10/400)) = 0.514387
    # W = L = 4000: v = 0.25, LLR = 0.014387 * (8000 - 8000 * 1.014387) / 0.5 = -3.312 -> H0
    n = 8000
    assert s.llr(n, 4000.0, 4000.0) == pytest.approx(-3.312, abs=0.002)
    assert s.decision(s.llr(n, 4000.0, 4000.0)) == "H0"
    # W = L = 3000: -2.484, not yet
    assert s.llr(6000, 3000.0, 3000.0) == pytest.approx(-2.484, abs=0.002)
    assert s.decision(s.llr(6000, 3000.0, 3000.0)) == ""
    # 600 wins 400 losses: m = 0.6, v = (240 + 0.16 + 0.36) / 1002 = 0.240040,
    # LLR = 0.014387 * (1200 - 1014.387) / (2 * 0.240040) = 5.562 -> H1
    assert s.llr(1000, 600.0, 600.0) == pytest.approx(5.562, abs=0.003)
    assert s.decision(s.llr(1000, 600.0, 600.0)) == "H1"


def test_sprt_run_stops_at_the_first_decisive_game():
    # all wins: m = 1, v = 1 / (n + 2), LLR = 0.014387 * 0.985613 * n (n + 2) / 2
    # = 0.0070900 n (n + 2) >= 2.9444 first at n = 20 (n = 19 gives 2.83)
    s = Sprt(elo0=0, elo1=10)
    decision, n, llr = s.run([1.0] * 100)
    assert (decision, n) == ("H1", 20)
    assert llr == pytest.approx(0.0070900 * 20 * 22, abs=0.005)
    assert s.run([1.0] * 19)[0] == ""
    # alternating results carry no evidence for H1 and drift to H0 (the mean sits at elo0)
    decision, n, _ = s.run([1.0, 0.0] * 10000)
    assert decision == "H0" and n > 100


@pytest.mark.parametrize("text,msg", [
    ("elo0=10,elo1=0", "elo1 > elo0"),
    ("elo0=0,elo1=x", "must be a number"),
    ("gamma=3", "bad SPRT setting"),
    ("alpha=0.7", "alpha must be between"),
    ("elo0=0,elo0=1", "given twice"),
    ("elo1=nan", "finite"),
])
def test_sprt_bad_settings(text, msg):
    with pytest.raises(SprtError, match=msg):
        Sprt.parse(text)
