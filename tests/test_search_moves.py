"""The search_moves hook: the moves a proof must search and what the game knows of the next
two plies (state.pxd, SOON_*).  Checked on Connect Four, the one game that overrides it,
against the rules played out move by move; every other game says nothing (its legal moves,
"unknown")."""
import pathlib
import sys

from roost.core.games import registered_games
from roost.interop.native import search_moves

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from connect4_threats import loses_at_once, random_positions, wins_at_once  # noqa: E402


def test_connect4_moves_and_verdict_follow_the_rules():
    seen = {"win": 0, "loss": 0, "quiet": 0, "pruned": 0}
    for s in random_positions(3000, seed=11):
        legal = s.legal()
        searched, soon = search_moves(s)
        assert searched and set(searched) <= set(legal), s.text()
        winners = [m for m in legal if wins_at_once(s, m)]
        if winners:
            assert soon == "win" and len(searched) == 1 and searched[0] in winners, s.text()
        elif all(loses_at_once(s, m) for m in legal):
            assert soon == "loss", s.text()
        else:
            # quiet: exactly the moves that do not lose at once, none of them a win
            assert soon == "quiet", s.text()
            assert sorted(searched) == sorted(m for m in legal if not loses_at_once(s, m)), s.text()
            seen["pruned"] += len(searched) < len(legal)
        seen[soon] += 1
    assert min(seen.values()) > 40, seen      # every verdict met often (3,000: 57 losses)


def test_connect4_searches_most_threats_first():
    # the order a proof tries its moves in: threats made (cells where one more stone would
    # complete four), the centre first among equals
    for s in random_positions(300, seed=12):
        searched, soon = search_moves(s)
        if soon != "quiet":
            continue
        threats = []
        for m in searched:
            child = s.copy()
            child.play_move(m)
            threats.append(_threats(child, s.player))
        assert threats == sorted(threats, reverse=True), (s.text(), searched, threats)


def _threats(state, player):
    """Empty cells where one more stone of `player` would complete four (by the rules)."""
    count = 0
    for col in range(7):
        for row in range(6):
            if state.cell(col, row) is not None:
                continue
            if any(_line_through(state, player, col, row, dc, dr) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))):
                count += 1
    return count


def _line_through(state, player, col, row, dc, dr):
    def run(sign):
        n, c, r = 0, col + sign * dc, row + sign * dr
        while 0 <= c < 7 and 0 <= r < 6 and state.cell(c, r) == player:
            n, c, r = n + 1, c + sign * dc, r + sign * dr
        return n
    return run(1) + run(-1) >= 3


def test_other_games_say_nothing():
    for info in registered_games():
        if info.name == "connect4":
            continue
        s = info.default_position()
        if not s.is_chance and not s.is_over:
            assert search_moves(s) == (s.legal(), "unknown")
