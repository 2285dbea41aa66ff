"""Ratings: pairwise decomposition, the Bradley-Terry fit, head-to-head score, SPRT
(src/arena/ratings.py).  Expected values are computed by hand in the comments."""
import dataclasses
import math

import pytest

from roost.arena.ratings import ScoreStream, Sprt, SprtError, Tally, fit_elo, pairwise, score_with_interval


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


def _consistent_three():
    # A beats B 3:1, B beats C 3:1, A beats C 9:1 (see above: an exact Bradley-Terry model)
    t = Tally(3)
    _games(t, (0, 1), (1.0, 0.0), 3)
    _games(t, (0, 1), (0.0, 1.0), 1)
    _games(t, (1, 2), (1.0, 0.0), 3)
    _games(t, (1, 2), (0.0, 1.0), 1)
    _games(t, (0, 2), (1.0, 0.0), 9)
    _games(t, (0, 2), (0.0, 1.0), 1)
    return t


ELO = 400.0 / math.log(10.0)       # Elo per logit


def test_error_bars_of_three_engines_by_hand():
    # At the fit p(A>B) = p(B>C) = 3/4, p(A>C) = 9/10.  The Fisher information of a pair
    # is n p (1 - p): A-B 4 * 3/16 = 3/4, B-C 3/4, A-C 10 * 9/100 = 9/10.  With A fixed, the
    # information of (B, C) is [[3/4 + 3/4, -3/4], [-3/4, 3/4 + 9/10]] = [[3/2, -3/4],
    # [-3/4, 33/20]], determinant 3/2 * 33/20 - 9/16 = 153/80; its inverse has the
    # variances var B = (33/20) / (153/80) = 44/51 and var C = (3/2) / (153/80) = 40/51.
    # 95% error bar = 1.96 * sd * 400 / ln 10: B 316.26, C 301.54 Elo.
    r = fit_elo(_consistent_three())
    assert r.err[0] == 0.0
    assert r.err[1] == pytest.approx(1.96 * ELO * math.sqrt(44 / 51), abs=0.01)
    assert r.err[1] == pytest.approx(316.26, abs=0.01)
    assert r.err[2] == pytest.approx(301.54, abs=0.01)
    # anchored at C, the free pair is (A, B): [[3/4 + 9/10, -3/4], [-3/4, 3/2]], so var A =
    # 40/51 (the old var C: the A-C distance is what is uncertain) and var B stays 44/51
    r = fit_elo(_consistent_three(), anchor=2)
    assert r.err[2] == 0.0
    assert r.err[0] == pytest.approx(301.54, abs=0.01)
    assert r.err[1] == pytest.approx(316.26, abs=0.01)
    # anchored at B: A and C each meet B with information 3/4 and each other with 9/10:
    # [[3/4 + 9/10, -9/10], [-9/10, 3/4 + 9/10]], det = (1089 - 324) / 400 = 153/80 again,
    # var A = var C = (33/20) / (153/80) = 44/51
    r = fit_elo(_consistent_three(), anchor=1)
    assert r.elo == pytest.approx([190.849, 0.0, -190.849], abs=0.01)
    assert r.err[0] == pytest.approx(316.26, abs=0.01) and r.err[2] == pytest.approx(316.26, abs=0.01)


def test_likelihood_of_superiority_and_the_elo_interval_by_hand():
    # scores 1, 1, 1/2, 0, 1, 1/2: mean 2/3, sum of squares 3.5, sample variance
    # (3.5 - 6 * 4/9) / 5 = 1/6, standard error sqrt(1/6 / 6) = 1/6, margin 1.96/6 = 0.32667.
    # LOS = Phi((2/3 - 1/2) / (1/6)) = Phi(1) = 0.84134.  Elo of 2/3: 400 log10(2) = 120.41;
    # of 2/3 -+ 0.32667 = 0.34 and 0.99333: -400 log10(0.66 / 0.34) = -115.23 and
    # -400 log10(0.006667 / 0.993333) = +869.27
    s = ScoreStream()
    for x in (1, 1, 0.5, 0, 1, 0.5):
        s.add(x)
    h = s.head_to_head()
    assert h.games == 6 and h.score == pytest.approx(2 / 3)
    assert h.margin == pytest.approx(0.326667, abs=1e-6)
    assert h.los == pytest.approx(0.841345, abs=1e-6)
    assert h.elo == pytest.approx(120.412, abs=0.001)
    assert h.elo_low == pytest.approx(-115.226, abs=0.001)
    assert h.elo_high == pytest.approx(869.275, abs=0.001)
    # 6 wins 2 losses: mean 3/4, variance (6 - 8 * 9/16) / 7 = 3/14, se = sqrt(3/112) =
    # 0.163663, z = 0.25 / 0.163663 = 1.52753, Phi(1.52753) = 0.93668 (a normal table gives
    # 0.9367 at 1.53 minus the slope 0.1238 * 0.0025)
    s = ScoreStream()
    for x in (1, 1, 1, 0, 1, 1, 0, 1):
        s.add(x)
    assert s.head_to_head().los == pytest.approx(0.93668, abs=1e-5)
    # the mirror image: the other engine's LOS is the complement
    s = ScoreStream()
    for x in (0, 0, 0, 1, 0, 0, 1, 0):
        s.add(x)
    assert s.head_to_head().los == pytest.approx(1 - 0.93668, abs=1e-5)
    # all draws: no evidence either way; all wins: certain
    s = ScoreStream()
    for _ in range(5):
        s.add(0.5)
    assert s.head_to_head().los == 0.5
    s = ScoreStream()
    for _ in range(5):
        s.add(1.0)
    assert s.head_to_head().los == 1.0 and s.head_to_head().elo == math.inf


def test_a_three_player_game_counts_one_games_worth_per_engine():
    # A 3-seat game won by A alone is A>B, A>C, B=C, each comparison weighing 1/2.  Two
    # such games (seats rotated), then one won by B and one by C:
    t = Tally(3)
    t.add((0, 1, 2), (1.0, 0.0, 0.0))
    t.add((1, 2, 0), (0.0, 0.0, 1.0))
    t.add((2, 0, 1), (0.0, 0.0, 1.0))      # B wins
    t.add((0, 1, 2), (0.0, 0.0, 1.0))      # C wins
    # A-B: A won games 1, 2 (2 comparisons), lost game 3, game 4 A=B (0 and 0): 2.5 of 4
    assert t.raw_W[0][1] == 2.5 and t.raw_N[0][1] == 4
    assert t.W[0][1] == 1.25 and t.N[0][1] == 2.0
    # B-C: games 1, 2 draw (0, 0), game 3 B wins, game 4 C wins: 2 of 4
    assert t.raw_W[1][2] == 2.0 and t.W[1][2] == 1.0
    r = fit_elo(t)
    assert r.elo[1] == pytest.approx(r.elo[2], abs=1e-9)   # B and C did equally well
    # A scored 2.5 of 4 against each: a logit of ln(2.5 / 1.5) against both (B = C makes
    # the fit of A's pairs independent of the B-C pair) = 88.74 Elo
    assert r.elo[0] - r.elo[1] == pytest.approx(ELO * math.log(2.5 / 1.5), abs=0.01)


def test_scores_and_won_drawn_lost_by_hand():
    # seat results: (A 1, B 0), (B 1/2, A 1/2), (A 0, B 1), and a 3-seat game A 1/2, B 0,
    # A 1/2 (A holds two seats; a shared win is neither won nor lost)
    t = Tally(2)
    t.add((0, 1), (1.0, 0.0))
    t.add((1, 0), (0.5, 0.5))
    t.add((0, 1), (0.0, 1.0))
    t.add((0, 1, 0), (0.5, 0.0, 0.5))
    assert t.score == [2.5, 1.5] and t.games == [5, 4] and t.n_games == 4
    assert t.wdl == [[1, 3, 1], [1, 1, 2]]           # per seat: won, in between, lost


def test_pairwise_skips_only_the_pairs_of_one_roster_entry():
    # the entry in seats 0 and 1 is compared with seat 2 from both seats
    assert pairwise((0, 0, 1), (1.0, 0.0, 0.5)) == [(0, 1, 1.0), (0, 1, 0.0)]
    t = Tally(2)
    t.add((0, 0, 1), (1.0, 0.0, 0.5))
    assert t.raw_W[0][1] == 1.0 and t.raw_W[1][0] == 1.0 and t.raw_N[1][0] == 2


def test_the_crosstable_holds_both_directions():
    t = Tally(3)
    t.add((0, 1, 2), (1.0, 0.5, 0.0))      # 0 > 1, 0 > 2, 1 > 2
    assert [[t.raw_W[i][j] for j in range(3)] for i in range(3)] == [[0, 1, 1], [0, 0, 1], [0, 0, 0]]
    assert t.W[1][0] == 0.0 and t.W[2][1] == 0.0 and t.N[2][1] == 0.5


def test_one_three_seat_game_rates_everyone():
    # each comparison weighs 1/2, so every N is below 1: all three are still connected
    t = Tally(3)
    t.add((0, 1, 2), (1.0, 0.5, 0.0))
    t.add((2, 1, 0), (1.0, 0.5, 0.0))
    r = fit_elo(t)
    assert all(e is not None for e in r.elo) and r.connected == [True, True, True]
    assert r.elo[1:] == pytest.approx([0.0, 0.0], abs=1e-6)   # every pair traded wins


def test_engines_that_met_are_rated_when_the_first_never_played():
    t = Tally(3)
    _games(t, (1, 2), (1.0, 0.0), 2)
    _games(t, (1, 2), (0.0, 1.0), 1)
    r = fit_elo(t, anchor=1)
    assert r.elo[1] == 0.0 and r.elo[2] == pytest.approx(-120.41, abs=0.01)   # 2 of 3: 400 log10 2
    assert r.elo[0] is None


def test_a_sweep_against_the_anchor_and_a_single_win():
    # the anchor lost all 3: like the clean sweep above, seen from the other side: +338.04
    t = Tally(2)
    _games(t, (0, 1), (0.0, 1.0), 3)
    r = fit_elo(t)
    assert r.elo[1] == pytest.approx(338.04, abs=0.01) and "virtual draw" in r.note
    # one win in three is a finite fit, no virtual draws: 1/3 -> +400 log10(2) = 120.41
    t = Tally(2)
    _games(t, (0, 1), (1.0, 0.0), 1)
    _games(t, (0, 1), (0.0, 1.0), 2)
    r = fit_elo(t)
    assert r.elo[1] == pytest.approx(120.41, abs=0.01) and r.note == ""


def test_a_one_sided_cycle_has_a_finite_fit_without_virtual_draws():
    # A beat B, B beat C, C beat D, D beat A, once each: every pair is one-sided, yet each
    # engine reaches every other through wins (two or three steps away), so the exact fit
    # exists (all equal, by symmetry) and no virtual draw may be added.  The information of
    # (B, C, D) with A fixed: each engine meets two others once at p = 1/2 (1/4 each), so
    # [[1/2, -1/4, 0], [-1/4, 1/2, -1/4], [0, -1/4, 1/2]]; its inverse has var C = 4 (the
    # engine two steps from the anchor): error bar 1.96 * 2 * 400 / ln 10 = 680.97 Elo
    t = Tally(4)
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
        t.add((a, b), (1.0, 0.0))
    r = fit_elo(t)
    assert r.note == ""
    assert r.elo == pytest.approx([0.0] * 4, abs=1e-6)
    assert r.err[2] == pytest.approx(1.96 * 2 * ELO, abs=0.01)
    assert r.err[2] == pytest.approx(680.97, abs=0.01)


def test_games_of_an_engine_against_itself_count_nothing():
    # fit_elo also takes (W, N) matrices: a diagonal (an engine "against itself") carries no
    # information about any difference, so it changes neither the ratings nor the error bars
    t = _consistent_three()
    W = [row[:] for row in t.W]
    N = [row[:] for row in t.N]
    for i in range(3):
        W[i][i], N[i][i] = 5.0, 10.0
    plain, diagonal = fit_elo(t), fit_elo((W, N))
    assert diagonal.elo == pytest.approx(plain.elo, abs=1e-9)
    assert diagonal.err == pytest.approx(plain.err, abs=1e-9)


def test_a_chain_of_lopsided_results_is_fitted_exactly():
    # A beat B, B beat C, C beat D, 9:1 each, no other games: the likelihood splits by link,
    # so each link is exactly 400 log10(9) = 381.697 Elo; from the anchor the first Newton
    # step to D is far beyond two logits, which the step limit must tame
    t = Tally(4)
    for a in range(3):
        _games(t, (a, a + 1), (1.0, 0.0), 9)
        _games(t, (a, a + 1), (0.0, 1.0), 1)
    r = fit_elo(t)
    link = 400 * math.log10(9)
    assert r.elo == pytest.approx([0.0, -link, -2 * link, -3 * link], abs=1e-6)
    assert link == pytest.approx(381.697, abs=0.001)


def test_groups_that_never_met_are_rated_apart_with_a_note():
    t = Tally(4)
    _games(t, (0, 1), (1.0, 0.0), 3)
    _games(t, (0, 1), (0.0, 1.0), 1)
    _games(t, (2, 3), (1.0, 0.0), 1)
    _games(t, (2, 3), (0.0, 1.0), 3)
    r = fit_elo(t)
    assert "never met the anchor's group" in r.note
    assert r.connected == [True, True, False, False]
    # each group on its own: 3:1 is 400 log10(3) = 190.85 Elo, the second group's first
    # engine at the anchor's 0
    assert r.elo == pytest.approx([0.0, -190.849, 0.0, 190.849], abs=0.001)


def test_head_to_head_of_one_and_of_two_games_by_hand():
    # one game: no sample variance, the variance of a fair coin (1/4) stands in:
    # margin 1.96 * sqrt(1/4 / 1) = 0.98, so the interval is [0.02, 1]: Elo -400 log10(49)
    # = -676.08 to +inf; LOS Phi((1 - 1/2) / (1/2)) = Phi(1) = 0.841345
    s = ScoreStream()
    assert s.head_to_head() is None
    s.add(1.0)
    h = s.head_to_head()
    assert h.games == 1 and h.score == 1.0 and h.elo == math.inf
    assert h.margin == pytest.approx(0.98, abs=1e-12)
    assert h.elo_low == pytest.approx(-676.078, abs=0.001) and h.elo_high == math.inf
    assert h.los == pytest.approx(0.841345, abs=1e-6)
    # two games, a win and a loss: sample variance (1 - 2/4) / 1 = 1/2, margin
    # 1.96 * sqrt(1/2 / 2) = 0.98 again, the interval [0, 1] clipped: -inf to +inf
    s.add(0.0)
    h = s.head_to_head()
    assert h.games == 2 and h.score == 0.5 and h.elo == 0.0 and h.los == 0.5
    assert h.margin == pytest.approx(0.98, abs=1e-12)
    assert h.elo_low == -math.inf and h.elo_high == math.inf


def test_sprt_settings_text_and_bounds_by_hand():
    s = Sprt.parse(" elo1=5,, beta=0.1,")          # empty items are skipped, not the end
    assert (s.elo0, s.elo1, s.alpha, s.beta) == (0.0, 5.0, 0.05, 0.1)
    assert s.text() == "elo0=0,elo1=5,alpha=0.05,beta=0.1"
    assert Sprt.parse(s.text()) == s
    for bad in ("alpha=0.5", "beta=0.5", "alpha=0", "beta=0"):
        with pytest.raises(SprtError, match="between 0 and 0.5"):
            Sprt.parse("elo1=5," + bad)
    # a decision exactly at a bound is taken
    assert s.decision(s.upper) == "H1" and s.decision(s.lower) == "H0"
    assert s.decision((s.upper + s.lower) / 2) == ""
    assert s.llr(0, 0.0, 0.0) == 0.0


def test_sprt_llr_by_hand():
    # elo0 = 0, elo1 = 50: s0 = 1/2, s1 = 1 / (1 + 10^(-1/8)) = 0.5714631; scores 1, 1, 0:
    # n = 3, sum 2, m = 2/3, v = ((2 - 3 * 4/9) + (1/3)^2 + (2/3)^2) / (3 + 2) = 11/45,
    # LLR = (s1 - s0) (2 * 2 - 3 (s0 + s1)) / (2 v) = 0.0714631 * 0.7856106 / (22/45) = 0.114836
    s = Sprt(elo0=0, elo1=50)
    assert s.llr(3, 2.0, 2.0) == pytest.approx(0.114836, abs=1e-6)
    assert s.run([1.0, 1.0, 0.0]) == ("", 3, pytest.approx(0.114836, abs=1e-6))


def test_order_puts_the_anchor_at_zero_between_fractional_ratings():
    # best first by rating, whatever their size: the anchor sits at exactly 0, so an
    # engine half a point above it ranks before it and one half a point below after it;
    # an engine without comparisons comes last
    from roost.arena.ratings import Ratings
    r = Ratings(elo=[0.0, 0.5, -0.5, None], err=[None] * 4, anchor=0)
    assert r.order() == [1, 0, 2, 3]
    r = Ratings(elo=[None, -0.25, 0.0, 0.25], err=[None] * 4, anchor=2)
    assert r.order() == [3, 2, 1, 0]


def test_an_engine_that_never_played_is_not_connected():
    # `connected` says who is rated in the anchor's group: an engine without a single
    # comparison is in no group, so it is neither rated nor connected
    t = Tally(3)
    for result in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)):
        t.add([0, 1], result)
    r = fit_elo(t, anchor=0)
    assert r.elo[2] is None and r.err[2] is None
    assert r.connected == [True, True, False]


def test_an_anchor_that_never_played_keeps_its_rating_and_the_others_are_apart():
    t = Tally(3)
    t.add([1, 2], (1.0, 0.0))
    t.add([1, 2], (0.5, 0.5))
    r = fit_elo(t, anchor=0, anchor_elo=1500.0)
    assert (r.elo[0], r.err[0]) == (1500.0, 0.0)
    assert r.connected == [True, False, False]
    assert "never met the anchor's group" in r.note


def test_virtual_draws_go_to_the_pairs_that_met_and_to_no_other():
    # a chain (0 beat 1 once, 1 beat 2 once) has no finite fit: one virtual draw is added to
    # each pair that met, 0-1 and 1-2, and not to 0-2, which never met.  The result must be
    # the fit of the matrices with those draws written in by hand (a cycle: fitted as is).
    t = Tally(3)
    t.add([0, 1], (1.0, 0.0))
    t.add([1, 2], (1.0, 0.0))
    r = fit_elo(t)
    W = [[0.0, 1.5, 0.0], [0.5, 0.0, 1.5], [0.0, 0.5, 0.0]]
    N = [[0.0, 2.0, 0.0], [2.0, 0.0, 2.0], [0.0, 2.0, 0.0]]
    by_hand = fit_elo((W, N))
    assert by_hand.note == ""
    assert r.elo == pytest.approx(by_hand.elo, abs=1e-9)
    assert "one virtual draw was added" in r.note


def test_a_game_score_is_the_mean_of_the_pairs_between_the_two_engines():
    # three seats, engine 0 twice: 0 beats 1 (seats 0, 1), 1 draws with 0 (seats 1, 2)
    assert ScoreStream.game_score([0, 1, 0], (1.0, 0.0, 0.0)) == 0.75
    assert ScoreStream.game_score([0, 0], (1.0, 0.0)) is None          # no pair between them


def test_losing_every_game_gives_no_chance_of_being_stronger():
    s = ScoreStream()
    for _ in range(5):
        s.add(0.0)
    h = s.head_to_head()
    assert h.score == 0.0 and h.margin == 0.0 and h.los == 0.0


def test_sprt_defaults_equal_bounds_and_its_dict():
    # the documented defaults: elo0=0, elo1=10, alpha=beta=0.05
    assert Sprt.parse("elo0=0").text() == "elo0=0,elo1=10,alpha=0.05,beta=0.05"
    with pytest.raises(SprtError, match="elo1 > elo0"):
        Sprt.parse("elo0=5,elo1=5")                       # no interval to test between
    s = Sprt.parse("elo0=-5,elo1=15,alpha=0.1,beta=0.2")
    assert s.as_dict() == {"elo0": -5.0, "elo1": 15.0, "alpha": 0.1, "beta": 0.2}
    assert Sprt(**s.as_dict()) == s


def test_an_sprt_with_no_games_has_a_zero_ratio_and_cannot_be_changed():
    assert Sprt().run([]) == ("", 0, 0.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Sprt().elo1 = 20.0                # a stored test's bounds stay what was stored


@pytest.mark.parametrize("score, margin, games, shown", [
    (0.625, 0.12, 16, "62.5% ± 12.0% (95%)"),
    (0.5, 0.5, 4, "50.0% ± 50.0% (95%)"),                          # touches both ends: inside
    (0.9, 0.2, 10, "90.0% (95% interval 70.0% to 100.0%)"),
    (0.1, 0.2, 10, "10.0% (95% interval 0.0% to 30.0%)"),
    (1.0, 0.0, 5, "100.0% (every one of the 5 games had the same result: too few for an interval)"),
])
def test_a_score_is_shown_with_its_interval_cut_at_the_ends(score, margin, games, shown):
    assert score_with_interval(score, margin, games) == shown


# Reference figures of fishtest's generalised SPRT in logistic Elo, LLR_logistic(elo0, elo1,
# results) of server/fishtest/stats/LLRcalc.py in github.com/official-stockfish/fishtest
# (commit 0753fcc6222e70a11a7e9a90a4fd549654338a45), computed with that module for these
# inputs: the pair counts LL, LD+DL, LW+DD+WL, DW+WD, WW, then elo0 and elo1.  The first is
# the example OpenBench's OpenBench/stats.py runs (github.com/AndyGrant/OpenBench).
FISHTEST_PENTANOMIAL = [
    ((39, 8843, 26675, 9240, 44), 0.5, 2.5, 0.555517),
    ((147, 6065, 12824, 6440, 156), -0.25, 1.25, 5.150683),
    ((1, 20, 300, 900, 779), 0, 10, 56.649133),
    ((3, 10, 12, 14, 6), 0, 50, 0.773205),
    ((0, 4, 6, 9, 1), 0, 50, 1.536670),          # a score never seen counts 0.001 pairs
    ((10, 5, 2, 5, 10), -1.75, 0.25, 0.000566),
    ((0, 0, 0, 0, 3), 0, 50, 0.401022),
    ((5, 2, 0, 1, 7), -10, 30, 0.145329),
    ((2, 9, 14, 20, 5), 0, 30, 1.906555),
]


@pytest.mark.parametrize("counts,elo0,elo1,llr", FISHTEST_PENTANOMIAL)
def test_the_pentanomial_llr_is_fishtests(counts, elo0, elo1, llr):
    assert Sprt(elo0=elo0, elo1=elo1).llr_pairs(list(counts)) == pytest.approx(llr, abs=5e-4)


def test_pairs_count_once_both_games_are_in_and_run_pairs_decides_as_the_counts_say():
    from roost.arena.ratings import PairStream
    s = PairStream()
    s.add(1.0, pair=0)
    assert s.pairs == 0 and s.n == 1 and s.head_to_head() is None
    s.add(0.5, pair=1)
    s.add(0.5, pair=0)              # pair 0: 1.5 points
    s.add(0.0, pair=1)              # pair 1: 0.5 points
    assert s.counts == [0, 1, 0, 1, 0] and s.pairs == 2 and s.n == 4
    assert s.llr(Sprt(0, 50)) == Sprt(0, 50).llr_pairs([0, 1, 0, 1, 0])
    # per-game scores of the pairs 0.75 and 0.25: mean 0.5, sample variance 0.125,
    # margin 1.96 * sqrt(0.125 / 2) = 0.49
    h = s.head_to_head()
    assert (h.games, h.pairs, h.score) == (4, 2, 0.5) and h.margin == pytest.approx(0.49)
    # ten pairs won outright decide H1 at the pair whose LLR first passes the bound
    sprt = Sprt(elo0=0, elo1=50)
    decision, n, llr = sprt.run_pairs([2.0] * 100)
    counts = [0, 0, 0, 0, n]
    assert decision == "H1" and llr == sprt.llr_pairs(counts) >= sprt.upper
    assert sprt.llr_pairs([0, 0, 0, 0, n - 1]) < sprt.upper
