"""Feed the Ducks' draw by repetition however long the game (docs/rules/ducks.md §6.3): a
position drawn at its third occurrence, with the same player to move, and at no other time,
checked against a count kept here, in long games that come back to their positions.

The history a position keeps is looked up its own way once it is long (a filter in front of
the exact count, built at a set length, carried by copies and pickles, built by a playout at
its start): these games run far past that length, each ply of them through play(), copy(),
a pickle and the native playout."""
import collections
import pickle
import random

import pytest

from roost.core.ducks import Ducks

AFTER_SETUP = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"     # docs/rules/ducks.md §10.2


def position(s):
    """The position the rule counts: the ducks, the crumb and the player to move."""
    r = s._raw()
    return r["white"], r["black"], r["crumb"], r["side"]


def children(s, seen):
    """Every move from s, with the child and what the count kept here says of it: won, or
    the third occurrence of its position; each child's end is checked against that."""
    out = []
    for m in s.legal():
        child = s.copy().play_unchecked(m)
        won = child.is_over and child.ending()["reason"] == "gathered"
        third = not won and seen[position(child)] >= 2
        capped = not won and child._raw()["plies"] >= 300
        assert child.is_over == (won or third or capped), (s.text(), s.move_name(m))
        if third:
            assert child.ending()["reason"] == "repetition"
        out.append((m, child, won, third))
    return out


def returning_game(seed, late):
    """A game from AFTER_SETUP that comes back to its positions: until ply `late` it plays no
    move that ends the game, half the time one that makes a position's second occurrence;
    from `late` on, the first move it finds that makes a third.  Every move of every ply is
    checked (children).  Returns the position before that move, the move, and the count."""
    rnd = random.Random(seed)
    s = Ducks.parse(AFTER_SETUP)
    seen = collections.Counter()
    for ply in range(299):
        options = children(s, seen)
        thirds = [(m, c) for m, c, won, third in options if third]
        if ply >= late and thirds:
            return s, rnd.choice(thirds)[0], seen
        live = [(m, c) for m, c, won, third in options if not won and not third]
        again = [(m, c) for m, c in live if seen[position(c)] == 1]
        m, s = rnd.choice(again if again and rnd.random() < 0.5 else live)
        seen[position(s)] += 1
    raise AssertionError(f"seed {seed}: no third occurrence from ply {late} on")


@pytest.mark.parametrize("seed,late", [(0, 20), (1, 40), (2, 100), (3, 180), (4, 260)])
def test_play_draws_at_the_third_occurrence_and_only_there(seed, late):
    before, move, seen = returning_game(seed, late)
    assert before._raw()["plies"] >= late
    # what a copy and a pickle of a long game see is what the game sees
    for s in (before, before.copy(), pickle.loads(pickle.dumps(before))):
        drawn = s.copy().play_unchecked(move)
        assert drawn.ending()["reason"] == "repetition" and drawn.result() == (0.5, 0.5)
        children(s, seen)


def first_ply(start, seed):
    """The native playout's first ply from `start` with `seed`."""
    after = start.copy()
    assert after.random_playout(seed, 1) == 1
    return after


@pytest.mark.parametrize("seed,late", [(5, 40), (6, 150), (7, 250)])
def test_a_playout_draws_at_the_third_occurrence_behind_a_long_history(seed, late):
    before, move, seen = returning_game(seed, late)
    for start in (before, pickle.loads(pickle.dumps(before))):
        by_text = {c.text(): (c, won, third) for m, c, won, third in children(start, seen)}
        thirds = 0
        for s in range(120):
            after = first_ply(start, s)
            child, won, third = by_text[after.text()]
            assert after.is_over == (won or third) and after._raw() == child._raw()
            thirds += third
        assert thirds >= 1


def test_a_long_playout_from_a_long_history_plays_by_the_rules():
    # playouts run on from a game 150 crumbs long: each ply is one legal move whose result
    # is what the count kept here says
    before, move, seen = returning_game(8, 150)
    for seed in range(6):
        s = before.copy()
        counted = collections.Counter(seen)
        k = 0
        while not s.is_over:
            k += 1
            after = before.copy()
            after.random_playout(seed, k)
            options = {c.text(): (won, third) for m, c, won, third in children(s, counted)}
            won, third = options[after.text()]
            assert after.is_over == (won or third or after._raw()["plies"] >= 300)
            counted[position(after)] += 1
            s = after
