"""Each term of a game's evaluation points the way its comment says (a flipped sign in one
term would pass unseen elsewhere, since alpha-beta is compared with a minimax that uses the same
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
    package are fitted from self-play (docs/strength.md) and tests/search/test_strength.py checks
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
# The bench position is written as its turn's start and the move since (the gain-food
# action): a change to the table at that start is a change to the position after it.
def _wingspan(change):
    game = get_game("wingspan")
    d = json.loads(game.bench_position)
    change(d["seats"][0])
    return game.parse(json.dumps(d))


def _more_food(seat, n):
    seat.setdefault("food", {})["invertebrate"] = seat.get("food", {}).get("invertebrate", 0) + n


def _one_more_egg(seat):
    bird = seat["wetland"][0]
    bird = seat["wetland"][0] = {"bird": bird} if isinstance(bird, str) else bird
    bird["eggs"] = bird.get("eggs", 0) + 1


def test_wingspan_food_and_eggs_raise_the_evaluation():
    base = _wingspan(lambda p: None)
    fed = _wingspan(lambda p: _more_food(p, 2))
    laid = _wingspan(_one_more_egg)
    assert fed.evaluate_for(0) > base.evaluate_for(0) and fed.evaluate_for(1) < base.evaluate_for(1)
    assert laid.evaluate_for(0) > base.evaluate_for(0)


def test_wingspan_cards_in_hand_raise_the_evaluation():
    # player 0 holds 5 cards, fewer than the turns left, so each counts; one fewer (the card
    # put back at the bottom of the deck) must evaluate lower
    game = get_game("wingspan")
    d = json.loads(game.bench_position)
    base = game.parse(game.bench_position)
    card = d["seats"][0]["hand"].pop(0)
    d["deck"].append(card.split(" (")[0])
    smaller = game.parse(json.dumps(d))
    assert smaller.evaluate_for(0) < base.evaluate_for(0)
    assert smaller.evaluate_for(1) > base.evaluate_for(1)


def test_wingspan_against_others_a_food_outweighs_a_card_in_hand():
    # the fitted multi-player weights (scoring.pyx): a food in supply predicts the winner
    # better than a card in hand; the solo weights, which estimate points, count a card at
    # 1.5 food and made the evaluation worse than a coin in the first half of the game
    game = get_game("wingspan")
    d = json.loads(game.bench_position)
    d["seats"][0]["hand"].append(d["deck"].pop(0))            # the deck's top card
    card = game.parse(json.dumps(d))
    food = _wingspan(lambda p: _more_food(p, 1))
    assert food.evaluate_for(0) > card.evaluate_for(0)
    assert food.evaluate_for(1) < card.evaluate_for(1)


# ---------------------------------------------------------------- Under the Leaves
# The evaluation (leaves/state.pyx) projects each player's final score and squashes the
# projections with a softmax.  The model below recomputes it from the gardens alone, through
# the literal reading of the rules in tests/core/leaves/reference.py, with the weight of the
# two terms no other test isolates as a parameter: the tile one square short of its
# hummingbird (docs/rules/leaves.md §7.1) and the majority bonus as it stands (§9.1).
from tests.core.leaves.reference import RefGarden, tile_squares  # noqa: E402


def _leaves_projection_terms(s, p):
    """(score so far, squares in unpollinated same-colour pairs, tiles one square short of a
    hummingbird, tiles still to place) for player p, from the rules alone."""
    entries = s.garden(p)
    ref = RefGarden(entries[0][0] - 50)
    for tile, x, y, o in entries[1:]:
        ref.place(tile, x, y, o)
    pollinated = set().union(*ref.sectors())              # §6.1: sectors of 3 squares or more
    # an unpollinated colour component has 1 or 2 squares (§6); a pair is one square short
    pairs = sum(len(c) for c in ref.colour_components() if len(c) == 2)
    # §7: base(T) = 1 once every non-puddle square of T is pollinated (and only then has T a
    # hummingbird); "near" is a tile without one whose non-puddle squares miss exactly one
    near = 0
    for (x, y) in ref.slots:
        missing = [sq for sq in tile_squares(x, y)
                   if ref.types[sq] != "~" and sq not in pollinated]
        if ref.birds.get((x, y), 0) == 0 and len(missing) == 1:
            near += 1
    so_far = ref.bees + ref.hummingbirds + sum(ref.pieces()[c] for c in s.pieces(p))
    return so_far, pairs, near, 13 - len(entries)


def leaves_model(s, player, near_weight=0.5, majority_weight=2.0):
    n, turn = s.players, s.turn
    proj = []
    for p in range(n):
        so_far, pairs, near, left = _leaves_projection_terms(s, p)
        proj.append(so_far + 0.25 * pairs + near_weight * near + 1.5 * left)
    # §9.1: +2 to every player with the most pieces of a category (at least one), scaled by
    # how far the game is (the bonus is only given at the end)
    progress = (turn - 1) / (12 * n)
    counts = [list(s.pieces(p).values()) for p in range(n)]
    for j in range(3):
        best = max(c[j] for c in counts)
        if best >= 1:
            for p in range(n):
                if counts[p][j] == best:
                    proj[p] += majority_weight * progress
    temp = 1.0 + 0.35 * (12 - (turn - 1) // n)       # rounds still to play
    top = max(proj)
    weights = [math.exp((v - top) / temp) for v in proj]
    return weights[player] / sum(weights)


def _leaves_positions():
    from roost.core.leaves.state import Leaves
    rnd = random.Random(16)
    out = []
    for n in (2, 3, 4):
        for k in range(14):
            s = Leaves.start(n, seed=100 * n + k)
            s.random_playout(seed=k, max_plies=rnd.randrange(2, 2 * 12 * n - 1))
            if not s.is_over:
                out.append(s)
    return out


@pytest.fixture(scope="module")
def leaves_positions():
    return _leaves_positions()


def _differs(a, b):
    return abs(a - b) > 1e-9


def test_leaves_a_tile_one_square_short_of_its_hummingbird_counts_half_a_point(leaves_positions):
    # docs/rules/leaves.md §7.1: a tile gets its hummingbird (base 1) once every non-puddle
    # square of it lies in a pollinated sector; one missing square is half a point of potential
    # for its owner.  The term is checked where it changes the value: dropped or of the wrong
    # sign, the engine would agree with the model with weight 0 or -0.5 instead.
    telling = 0
    for s in leaves_positions:
        nears = [_leaves_projection_terms(s, p)[2] for p in range(s.players)]
        for p in range(s.players):
            value = s.evaluate_for(p)
            assert value == pytest.approx(leaves_model(s, p), abs=1e-12), s.text()
            if len(set(nears)) > 1:
                assert _differs(value, leaves_model(s, p, near_weight=0.0)), s.text()
                assert _differs(value, leaves_model(s, p, near_weight=-0.5)), s.text()
                telling += 1
    assert telling >= 20                 # the positions do tell the term's sign apart


def test_leaves_the_majority_bonus_as_it_stands_grows_with_the_game(leaves_positions):
    # docs/rules/leaves.md §9.1: every player with the most pieces of a category (at least one)
    # gets +2 at the end; before the end the evaluation counts it scaled by the share of turns
    # played
    telling = 0
    for s in leaves_positions:
        counts = [list(s.pieces(p).values()) for p in range(s.players)]
        leads = [sum(counts[p][j] == max(c[j] for c in counts) >= 1 for j in range(3))
                 for p in range(s.players)]
        for p in range(s.players):
            value = s.evaluate_for(p)
            assert value == pytest.approx(leaves_model(s, p), abs=1e-12), s.text()
            if len(set(leads)) > 1:        # some lead more categories than others
                assert _differs(value, leaves_model(s, p, majority_weight=0.0)), s.text()
                assert _differs(value, leaves_model(s, p, majority_weight=-2.0)), s.text()
                telling += 1
    assert telling >= 20


def test_leaves_majority_bonus_by_hand():
    # docs/rules/leaves.md §9.1 on one position worked by hand: §11.4's example, turn 4 of a
    # 2-player game.  Seat 0 has 1 Flirty and 2 Friendly, seat 1 nothing: seat 0 leads two
    # categories, so its projection gains 2 x 2 x (3 / 24) = 0.5 point over what the rest gives
    # it
    from roost.core.leaves.state import Leaves
    s = Leaves.parse("UTL p=2 cards=Flirty,Collector,Friendly turn=4 tomove=1 market=7,29,30 "
                     "bag=0,4,8,13,15,16,17,21,24,28,31,33,34,35,37,38,39,41,44,48 "
                     "g0=S1@(0,0)o0;43@(0,1)o5;42@(-1,1)o7 g1=S3@(0,0)o0;12@(1,0)o2")
    assert s.pieces(0) == {"Fl": 1, "Co": 0, "Fr": 2} and s.pieces(1) == {"Fl": 0, "Co": 0, "Fr": 0}
    temp = 1.0 + 0.35 * (12 - 3 // 2)
    logit = lambda v: temp * math.log(v / (1 - v))
    without = leaves_model(s, 0, majority_weight=0.0)
    assert logit(s.evaluate_for(0)) - logit(without) == pytest.approx(0.5, abs=1e-9)
