"""The search_moves hook: the moves worth searching (a game may leave out moves that lose
at once, or keep only a move that wins at once).  Checked on Connect Four, the one game
that overrides it, against the rules; every other game searches its legal moves."""
import random

from roost.core.connect4 import Connect4
from roost.core.games import registered_games
from roost.interop.native import search_moves


def _loses_at_once(state, move):
    child = state.copy()
    child.play_move(move)
    if child.is_over:
        return False
    for reply in child.legal():
        grand = child.copy()
        grand.play_move(reply)
        if grand.is_over and grand.result()[state.player] == 0.0:
            return True
    return False


def _wins_at_once(state, move):
    child = state.copy()
    child.play_move(move)
    return child.is_over and child.result()[state.player] == 1.0


def test_connect4_leaves_out_only_moves_that_lose_at_once():
    rnd = random.Random(11)
    pruned = kept_win = 0
    for _ in range(3000):
        s = Connect4.start()
        for _ in range(rnd.randrange(3, 38)):
            t = s.copy()
            t.play_move(rnd.choice(t.legal()))
            if t.is_over:
                break
            s = t
        legal = s.legal()
        searched = search_moves(s)
        assert searched and set(searched) <= set(legal)
        if any(_wins_at_once(s, m) for m in legal):
            assert len(searched) == 1 and _wins_at_once(s, searched[0])
            kept_win += 1
            continue
        left_out = set(legal) - set(searched)
        assert all(_loses_at_once(s, m) for m in left_out), s.text()
        pruned += bool(left_out)
    assert pruned > 100 and kept_win > 100


def test_other_games_search_their_legal_moves():
    for info in registered_games():
        if info.name == "connect4":
            continue
        s = info.default_position()
        if not s.is_chance and not s.is_over:
            assert search_moves(s) == s.legal()
