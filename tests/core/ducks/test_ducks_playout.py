"""Feed the Ducks' native random playout (what MCTS rollouts play) is the rules, ply for ply:
it keeps no key per ply and looks repetitions up its own way (docs/rules/ducks.md §6.3, §6.4:
the third occurrence draws, 300 placements draw), so each of its plies is
compared with play() of the same move: the same position, key, result and repetition history.

A seeded playout's first k plies are those of ``random_playout(seed, k)`` (it draws the same
numbers), which gives the playout's positions one ply at a time."""
import pickle

import pytest

from roost.core.ducks import Ducks
from roost.core.state import playout_batch

AFTER_SETUP = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"          # docs/rules/ducks.md §10.2
REPEATS = "b4/1w4/1w1b3/1wbw1bwb/2w1bwb2/1bbb2w1/*bww3/b5/2w1w b 7"  # test_ducks_rules
# no crumb yet and White gathered (found by search): the first crumb on a5 moves no white duck
WHITE_GATHERED = "5/b5/b5b/1b2bb2/2b1w1b2/2www2b/b2www1/2www1/bbww1 w 0"


def live_after(text, *moves):
    s = Ducks.parse(text)
    for m in moves:
        s.play_move(m)
    return s


def same_state(a, b):
    return (a.text() == b.text() and a.hash == b.hash and a.is_over == b.is_over
            and a._raw() == b._raw() and (not a.is_over or a.result() == b.result()))


def check_playout(start, seed):
    """Every ply of the playout from `start` with `seed` is play() of one legal move;
    returns the finished game."""
    before = start.copy()
    k = 0
    while not before.is_over:
        k += 1
        after = start.copy()
        assert after.random_playout(seed, k) == k
        matches = []
        for m in before.legal():
            child = before.copy()
            child.play_unchecked(m)
            if child.text() == after.text():
                matches.append(child)
        assert len(matches) == 1, f"ply {k} of seed {seed}: {before.text()} -> {after.text()}"
        assert same_state(matches[0], after), (seed, k, matches[0]._raw(), after._raw())
        before = after
    whole = start.copy()
    assert whole.random_playout(seed) == k and same_state(whole, before)
    return before


# seeds (found by search) whose playouts end in a draw by repetition from these positions
REPETITION_DRAWS = [(REPEATS, 170), (REPEATS, 283), (AFTER_SETUP, 252), (AFTER_SETUP, 1579)]


@pytest.mark.parametrize("text,seed", REPETITION_DRAWS)
def test_a_playout_draws_by_repetition_where_play_does(text, seed):
    end = check_playout(Ducks.parse(text), seed)
    assert end.result() == (0.5, 0.5) and end._raw()["plies"] < 300


def first_ply(start, seed):
    """The playout's first ply from `start`, checked against play() of the same move."""
    after = start.copy()
    after.random_playout(seed, 1)
    child = next(c for c in (start.copy().play_unchecked(m) for m in start.legal())
                 if c.text() == after.text())
    assert same_state(child, after)
    return after


def test_a_playout_counts_the_repetitions_before_it():
    # after a2 g3 a2 g3 the next a2 is the third occurrence (test_third_repetition_draws):
    # playouts that start with a2 end there, drawn, at their first ply
    start = live_after(REPEATS, "a2", "g3", "a2", "g3")
    drawn_at_once = sum(first_ply(start, seed).is_over for seed in range(80))
    assert drawn_at_once >= 1
    for seed in range(3):
        check_playout(start, seed)


def test_a_playout_stops_at_the_length_cap():
    ends = [check_playout(Ducks.parse(REPEATS[:-1] + "296"), seed) for seed in range(12)]
    capped = [e for e in ends if e._raw()["plies"] == 300]
    assert capped and all(e.result() == (0.5, 0.5) for e in capped)
    assert all(e._raw()["plies"] <= 300 for e in ends)


@pytest.mark.parametrize("text", [Ducks.start().text(), "wwwww/w4w/w5w/w6w/w8/8/7/6/bb3 w 0",
                                  AFTER_SETUP, WHITE_GATHERED])
def test_every_ply_is_play_from_setup_and_play_positions(text):
    for seed in range(4):
        check_playout(Ducks.parse(text), seed)


def test_a_colour_gathered_before_the_first_crumb_wins_with_it():
    # docs/rules/ducks.md §6.1, §4.2: each colour is tested after each crumb placement, the
    # first included (nothing is tested before it), so a5, which moves no white duck, wins
    # for White
    start = Ducks.parse(WHITE_GATHERED)
    white_at_once = 0
    for seed in range(300):
        after = first_ply(start, seed)
        white_at_once += (after.is_over and after.result() == (1.0, 0.0)
                          and after._raw()["white"] == start._raw()["white"])
    assert white_at_once >= 1
    assert live_after(WHITE_GATHERED, "a5").result() == (1.0, 0.0)


def test_a_playout_left_live_plays_on_by_the_rules():
    # stopped by its ply limit, the state (its repetition history too) goes on as play() does
    start = live_after(REPEATS, "a2", "g3")
    for seed in range(8):
        s = start.copy()
        s.random_playout(seed, 2)
        if s.is_over:
            continue
        again = pickle.loads(pickle.dumps(s))
        assert same_state(again, s)
        check_playout(s, seed + 100)


def test_the_same_seed_plays_the_same_games_as_before():
    # recorded before the playout was rewritten (plies, and the results summed per player):
    # a seed names one game across versions
    assert playout_batch(Ducks.parse(AFTER_SETUP), 3000, 11) == (138587, (1506.5, 1493.5))
    assert playout_batch(Ducks.start(), 1000, 12) == (71957, (465.0, 535.0))
    assert playout_batch(Ducks.parse(REPEATS), 3000, 13) == (127571, (1362.5, 1637.5))


def test_a_history_of_keys_is_refused_with_a_message():
    # the repetition history is kept as positions; a state described with keys (as states
    # were pickled before) names the fault instead of failing somewhere inside
    from roost.core.errors import PositionError
    raw = live_after(REPEATS, "a2", "g3")._raw()
    assert Ducks._load(raw)._raw() == raw
    raw["history"] = (123456789,)
    with pytest.raises(PositionError, match="repetition history"):
        Ducks._load(raw)
