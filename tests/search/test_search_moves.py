"""The search_moves hook: the moves a proof must search and what the game knows of the next
two plies (state.pxd, SOON_*).  Checked on the games that override it against the rules
played out move by move: Connect Four (a win now, else the moves that do not let the
opponent win at once) and Feed the Ducks (a crumb that gathers the mover's ducks, else the
crumbs that do not gather the opponent's alone); every other game says nothing (its legal
moves, "unknown")."""

import random

from roost.core.connect4 import Connect4
from roost.core.ducks import Ducks
from roost.core.games import registered_games
from roost.interop.native import search_moves, search_moves_in_two_steps

from tests.core.connect4.threats import loses_at_once, random_positions, wins_at_once  # noqa: E402
from tests.core.ducks.crumbs import crumb_result, ducks_positions  # noqa: E402


def test_connect4_moves_and_verdict_follow_the_rules():
    seen = {"win": 0, "loss": 0, "quiet": 0, "pruned": 0, "draw": 0}
    for s in random_positions(3000, seed=11) + _full_board_positions(200, seed=14):
        legal = s.legal()
        searched, soon = search_moves(s)
        assert searched and set(searched) <= set(legal), s.text()
        winners = [m for m in legal if wins_at_once(s, m)]
        if winners:
            assert soon == "win" and len(searched) == 1 and searched[0] in winners, s.text()
        elif all(loses_at_once(s, m) for m in legal):
            assert soon == "loss", s.text()
        else:
            # quiet: exactly the moves that do not lose at once, none of them a win; a draw
            # where two cells are left or one (the opponent's last stone cannot win then)
            stones = sum(s.cell(c, r) is not None for c in range(7) for r in range(6))
            assert soon == ("draw" if stones >= 40 else "quiet"), s.text()
            seen["draw"] += soon == "draw"
            soon = "quiet"
            assert sorted(searched) == sorted(m for m in legal if not loses_at_once(s, m)), s.text()
            seen["pruned"] += len(searched) < len(legal)
        seen[soon] += 1
    assert min(seen.values()) > 40, seen      # every verdict met often (3,000: 57 losses)


def _full_board_positions(games, seed):
    """The positions of 38 stones or more of `games` seeded games played by random moves that
    do not lose at once where there are such (so that many fill the board)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(games):
        s = Connect4.start()
        while not s.is_over:
            if sum(s.cell(c, r) is not None for c in range(7) for r in range(6)) >= 38:
                out.append(s.copy())
            safe = [m for m in s.legal() if not loses_at_once(s, m) and not wins_at_once(s, m)]
            s.play_move(rnd.choice(safe or s.legal()))
    return out


def test_connect4_searches_most_threats_first():
    # the order a proof tries its moves in: threats made (cells where one more stone would
    # complete four, told apart up to 15), the centre first among equals
    centre_first = [3, 2, 4, 1, 5, 0, 6]
    for s in random_positions(300, seed=12):
        searched, soon = search_moves(s)
        if soon != "quiet":
            continue
        threats = {}
        for m in searched:
            child = s.copy()
            child.play_move(m)
            threats[m] = min(_threats(child, s.player), 15)
        expected = sorted(searched, key=lambda m: (-threats[m], centre_first.index(m)))
        assert searched == expected, (s.text(), searched, threats)


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


def test_ducks_a_winning_crumb_alone_else_every_crumb_but_those_that_lose_at_once():
    seen = {"win": 0, "pruned": 0, "all lose": 0, "quiet": 0}
    for s in ducks_positions(4000, seed=21):
        legal = s.legal()
        searched, soon = search_moves(s)
        results = {m: crumb_result(s, m) for m in legal}
        if "win" in results.values():
            assert soon == "win" and len(searched) == 1 and results[searched[0]] == "win", s.text()
            seen["win"] += 1
            continue
        assert soon == "unknown", s.text()
        if all(r == "loss" for r in results.values()):
            assert searched == legal, s.text()     # nothing left to choose: all of them
            seen["all lose"] += 1
        else:
            assert searched == [m for m in legal if results[m] != "loss"], s.text()
            seen["pruned" if len(searched) < len(legal) else "quiet"] += 1
    # every case met (a uniformly random game ends after about 40 crumbs, its last position
    # often holding a gathering crumb for one side or the other)
    assert seen["win"] > 40 and seen["pruned"] > 40 and seen["quiet"] > 1000, seen


def test_ducks_setup_says_nothing():
    s = Ducks.start(seed=3)
    assert search_moves(s) == (s.legal(), "unknown")
    for _ in range(23):                     # the last placement of the setup is next
        s.play_move(s.legal()[0])
    assert s.phase == "setup" and search_moves(s) == (s.legal(), "unknown")


def test_other_games_say_nothing():
    for info in registered_games():
        if info.name in ("connect4", "ducks"):
            continue
        s = info.default_position()
        if not s.is_chance and not s.is_over:
            assert search_moves(s) == (s.legal(), "unknown")


def test_unordered_then_ordered_is_search_moves_on_every_game():
    # a proof takes a node's moves unordered and orders them only where its table does not
    # settle the node: the same moves and verdict, and once ordered the same list, whose
    # places the proof's table keeps
    positions = random_positions(2000, seed=13) + ducks_positions(500, seed=22)
    for info in registered_games():
        s = info.default_position()
        if not s.is_chance and not s.is_over:
            positions.append(s)
    kinds = set()
    for s in positions:
        searched, soon = search_moves(s)
        unordered, ordered, soon2 = search_moves_in_two_steps(s.copy())
        assert soon2 == soon and ordered == searched, s.text()
        assert sorted(unordered) == sorted(searched), s.text()
        kinds.add((type(s).__name__, soon, unordered != searched))
    # Connect Four's unordered list differs from its order where there is one to make
    assert ("Connect4", "quiet", True) in kinds and ("Connect4", "loss", True) in kinds, kinds
