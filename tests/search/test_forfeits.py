"""The arena's rules (src/search/forfeits.py, enforced in src/arena/match.py): the margin an
answer may come after the clock ran out, on a clock the engine itself moves (no real time)."""
import pytest

import roost.arena.match as match
from roost.arena.match import Forfeit, TimeControl
from roost.core.games import get_game
from roost.search.engines import parse_engine


def test_an_answer_may_come_a_tenth_of_a_second_after_the_clock_ran_out(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(match.time, "perf_counter", lambda: now[0])

    class Slow:
        def __init__(self, seconds):
            self.seconds = seconds

        def choose(self, state, limit=None, *, seed=0):
            now[0] += self.seconds
            return parse_engine("random").choose(state, seed=seed)
    state = get_game("ducks").start()
    tc = TimeControl(1.0)
    assert tc.margin == 0.1                       # the match module's rules: 0.1 s
    move, spent, _ = match._ask(Slow(1.09), state, 1, tc, 1.0)
    assert move in state.legal() and spent == pytest.approx(1.09)
    with pytest.raises(Forfeit) as caught:
        match._ask(Slow(1.11), state, 1, tc, 1.0)
    assert caught.value.reason == "time" and "(margin 0.1s)" in caught.value.detail
    assert str(caught.value) == "time: " + caught.value.detail
