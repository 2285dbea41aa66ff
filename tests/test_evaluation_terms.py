"""Each term of a game's evaluation points the way its comment says (issue 16: a flipped sign
in one term went unnoticed, since alpha-beta is compared with a minimax that uses the same
evaluation).  Connect Four's evaluation is recomputed from the board by an independent model
of the formula; elsewhere two positions that differ in one term only are compared."""
import json
import math
import random

import pytest

from roost.core.connect4 import Connect4
from roost.core.games import get_game


# ---------------------------------------------------------------- Connect Four
@pytest.fixture(autouse=True)
def hand_set_weights():
    """These tests model the hand-set evaluations' formulas; the weights shipped in the
    package are fitted from self-play (docs/strength.md) and tests/test_strength.py checks
    that they load, so the formulas are checked with the hand-set weights installed."""
    from roost.arena.tuning import evaluation_of
    evaluations = [evaluation_of(get_game(g)) for g in ("connect4", "ducks", "tweeeet")]
    for e in evaluations:
        for players in e.player_counts:
            e.set(players, e.hand.get(players) or e.hand[min(e.hand)])
    yield
    for e in evaluations:
        e.reset()


def _wins_at(board, player, col, row):
    """Would a stone of `player` on the empty cell (col, row) complete four in a line?"""
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < 7 and 0 <= r < 6 and board[c][r] == player:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def connect4_model(s, player):
    """The evaluation as connect4.pyx's comment describes it, from the cells alone."""
    board = [[s.cell(c, r) for r in range(6)] for c in range(7)]
    empty = [(c, r) for c in range(7) for r in range(6) if board[c][r] is None]
    threats = [{cell for cell in empty if _wins_at(board, p, *cell)} for p in (0, 1)]
    playable = {(c, min(r for r in range(6) if board[c][r] is None))
                for c in range(7) if board[c][5] is None}
    mover = s.player
    if playable & threats[mover]:
        adv = 3.0 if mover == 0 else -3.0                # the side to move wins now
    elif len(playable & threats[1 - mover]) >= 2:
        adv = -2.5 if mover == 0 else 2.5                # two threats to block: lost
    else:
        # threats; those on the rows zugzwang favours (1st, 3rd, 5th from the bottom for the
        # first player, the others for the second); centre stones
        favoured0 = sum(1 for c, r in threats[0] if r % 2 == 0)
        favoured1 = sum(1 for c, r in threats[1] if r % 2 == 1)
        centre = [sum(1 for r in range(6) if board[3][r] == p) for p in (0, 1)]
        adv = (0.35 * (len(threats[0]) - len(threats[1])) + 0.25 * (favoured0 - favoured1)
               + 0.05 * (centre[0] - centre[1]))
    if player == 1:
        adv = -adv
    return 1.0 / (1.0 + math.exp(-adv))


def _random_connect4_positions(count, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        s = Connect4.start()
        for _ in range(rnd.randrange(4, 30)):
            moves = s.legal()
            if s.is_over or not moves:
                break
            s.play_move(rnd.choice(moves))
        if not s.is_over:
            out.append(s)
    return out


def test_connect4_evaluation_matches_a_model_of_its_formula():
    kinds = set()
    for s in _random_connect4_positions(400, seed=16):
        for p in (0, 1):
            assert s.evaluate_for(p) == pytest.approx(connect4_model(s, p), abs=1e-12), s.text()
        kinds.add(round(abs(math.log(1 / s.evaluate_for(0) - 1)), 6))
    assert len(kinds) > 20          # the positions reach many different sums of the terms


# ---------------------------------------------------------------- Feed the Ducks
DUCKS_BLOB = "5/6/7/wwww1bbb/wwww1bbbb/www2bbb/w4b1/6/2b2 w 0"
# the same but White's duck on row 7 moved from the first cell (touching two white ducks of
# row 6) to the third (touching one): one group either way, one adjacent pair fewer
DUCKS_LOOSER = "5/6/7/wwww1bbb/wwww1bbbb/www2bbb/2w2b1/6/2b2 w 0"


def test_ducks_adjacent_pairs_raise_the_evaluation():
    game = get_game("ducks")
    tight, loose = game.parse(DUCKS_BLOB), game.parse(DUCKS_LOOSER)
    assert tight.evaluate_for(0) > loose.evaluate_for(0)
    assert tight.evaluate_for(1) < loose.evaluate_for(1)
    # the links term alone: 0.08 a pair, through the logistic
    logit = lambda v: math.log(v / (1 - v))
    assert logit(tight.evaluate_for(0)) - logit(loose.evaluate_for(0)) == pytest.approx(0.08, abs=1e-9)


def test_ducks_fewer_groups_raise_the_evaluation():
    game = get_game("ducks")
    one = game.parse(DUCKS_BLOB)
    # White's row-7 duck moved off the group (to the far cell of row 8): two white groups
    two = game.parse("5/6/7/wwww1bbb/wwww1bbbb/www2bbb/5b1/5w/2b2 w 0")
    assert one.evaluate_for(0) > two.evaluate_for(0)


# ---------------------------------------------------------------- Dice Race
def test_dice_race_a_lead_raises_the_evaluation():
    game = get_game("dice")
    even, ahead, behind = (game.parse(t) for t in ("0 0 6 0 -", "2 0 6 0 -", "0 2 6 0 -"))
    assert even.evaluate_for(0) == pytest.approx(0.5)
    assert ahead.evaluate_for(0) > 0.5 > behind.evaluate_for(0)
    assert ahead.evaluate_for(1) < 0.5


# ---------------------------------------------------------------- Tweeeet
def _tweeeet(red_bird, rows=6):
    row = "..o~3.~3."
    return get_game("tweeeet").parse("0:-...S...-/" + "/".join([row] * rows)
                                     + f" {red_bird} e0:7 e0:8 e0:9 MB")


def test_tweeeet_each_row_climbed_is_worth_a_quarter_point():
    # a bird on an empty bush with a bush of 3 food right beside it, in identical rows: its
    # best flight gains 3 - 1 = 2 on any row, so one row higher changes only the rows still
    # to climb to the nests, a quarter point each (the pairs' difference is squashed as
    # 1 / (1 + exp(-adv / 4)))
    row = "o3.~.~3.."
    game = get_game("tweeeet")
    logit = lambda v: 4 * math.log(v / (1 - v))
    values = [game.parse("0:-...S...-/" + "/".join([row] * 6) + f" a{r}:6 e0:7 e0:8 e0:9 MB")
              .evaluate_for(0) for r in (2, 3, 4)]
    assert logit(values[1]) - logit(values[0]) == pytest.approx(0.25, abs=1e-9)
    assert logit(values[2]) - logit(values[1]) == pytest.approx(0.25, abs=1e-9)


def test_tweeeet_energy_raises_the_evaluation():
    assert _tweeeet("c2:8").evaluate_for(0) > _tweeeet("c2:6").evaluate_for(0)


# ---------------------------------------------------------------- Wingspan
def _wingspan(change):
    game = get_game("wingspan")
    d = json.loads(game.bench_position)
    change(d["players"][0])
    return game.parse(json.dumps(d))


def test_wingspan_food_and_eggs_raise_the_evaluation():
    base = _wingspan(lambda p: None)
    fed = _wingspan(lambda p: p["food"].__setitem__(0, p["food"][0] + 2))
    laid = _wingspan(lambda p: p["mat"][2][0].__setitem__("egg", p["mat"][2][0]["egg"] + 1))
    assert fed.evaluate_for(0) > base.evaluate_for(0) and fed.evaluate_for(1) < base.evaluate_for(1)
    assert laid.evaluate_for(0) > base.evaluate_for(0)


def test_wingspan_cards_in_hand_raise_the_evaluation():
    # player 0 holds 5 cards, fewer than the turns left, so each counts; one fewer (the card
    # put back on the deck) must evaluate lower
    def fewer(d):
        card = d["players"][0]["hand"].pop(0)
        d["deck"].append(card[0])
    game = get_game("wingspan")
    d = json.loads(game.bench_position)
    base = game.parse(game.bench_position)
    fewer(d)
    smaller = game.parse(json.dumps(d))
    assert smaller.evaluate_for(0) < base.evaluate_for(0)
    assert smaller.evaluate_for(1) > base.evaluate_for(1)
