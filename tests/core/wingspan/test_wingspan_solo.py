"""Wingspan with one player: the search utility is the capped score (docs/rules/wingspan.md §5.3,
§1.4), both at the end (outcome) and in the heuristic (evaluate)."""
import pytest

from roost.core.wingspan import Wingspan

from tests.core.wingspan.test_wingspan_rules import bird, make


def _finished_solo(cache=0, eggs=0):
    mats = [[[bird("Blue Jay", egg=eggs, cache=(cache, 0, 0, 0, 0))], [], []]]
    return make(n=1, mats=mats, phase="over", bonus=[[]])


def test_solo_result_is_the_capped_score():
    # rules: §5.3 (one player: utility min(score, 200) / 200), §1.4
    s = _finished_solo()
    assert s.is_over and s.scores() == [3]                 # Blue Jay is worth 3 points
    assert s.result() == pytest.approx((3 / 200,))
    s = _finished_solo(cache=40, eggs=2)
    assert s.scores() == [45] and s.result() == pytest.approx((45 / 200,))
    s = _finished_solo(cache=500)
    assert s.scores() == [503] and s.result() == (1.0,)     # capped at 200 points


def test_solo_result_follows_the_score_of_played_games():
    # rules: §5.3: every finished solo game's result is its capped score, not a win
    import random
    for seed in range(3):
        rnd = random.Random(seed)
        s = Wingspan.start(players=1, seed=seed)
        while not s.is_over:
            s.play_unchecked(rnd.choice(s.legal()))
        assert s.result() == pytest.approx((min(s.scores()[0], 200) / 200,))
        assert s.result()[0] < 1.0


def test_solo_evaluation_estimates_the_capped_score():
    # rules: §5.3: the heuristic estimates the same utility, so more points evaluate higher
    poor = make(n=1, mats=[[[bird("Blue Jay")], [], []]], bonus=[[]])
    rich = make(n=1, mats=[[[bird("Blue Jay", egg=2, cache=(20, 0, 0, 0, 0))], [], []]], bonus=[[]])
    vp, vr = poor.evaluate_for(0), rich.evaluate_for(0)
    assert 0.0 < vp < vr < 1.0
    assert vr - vp == pytest.approx(22 / 200)               # 2 eggs and 20 cached food
    two = make(n=2, mats=[[[bird("Blue Jay")], [], []], [[], [], []]])
    assert 0.0 < two.evaluate_for(0) < 1.0 and two.evaluate_for(0) + two.evaluate_for(1) == pytest.approx(1.0)


def test_a_searcher_plays_solo_games_for_points():
    # rules: §5.3: with the score as the utility, a search prefers the move that scores; on
    # the last turn of the game laying 2 eggs (2 points) beats food or cards (none)
    from roost.search.engines import parse_engine
    s = make(n=1, round=4, t=4, mats=[[[], [bird("Killdeer")], []]], bonus=[[]])
    assert s.legal_names() == ["food", "eggs", "cards"]
    for seed in range(3):
        r = parse_engine("ismcts:iterations=200").choose(s, seed=seed)
        assert s.move_name(r.move) == "eggs"
        assert 0.0 < r.value < 0.1                        # a score near 3 points, not a "win"
