"""Quiet cut-offs (``quiet=1``): a playout cut off by ``plies=`` plays on at random
to a position the game's evaluation reads fairly before the evaluation scores it
(``State.quiesce``, read here through ``play_to_quiet``).

A Wingspan turn is several decisions (rules: docs/rules/wingspan.md §3.2 the action, §3.3 to
§3.9 what it pays and gains, §3.10 the end of turn, §4 pink powers between turns), and the
evaluation of a position left between them counts the action cube as spent and what it buys
as not yet had.  So Wingspan plays on to the next turn's first decision (the action of §3.2);
in every other game a turn is one ply and there is nothing to play.
"""
import random

import pytest

from roost.core.games import get_game, registered_games
from roost.search.engines import parse_engine


def random_positions(name, players, seed, count, step=7):
    """Every `step`-th position of random games from `seed` (chance drawn at random too)."""
    rng = random.Random(seed)
    info = get_game(name)
    out, s = [], info.start(players=players, seed=seed)
    while len(out) < count:
        if s.is_over:
            s = info.start(players=players, seed=rng.randrange(1 << 30))
            continue
        if s.is_chance:
            outcomes, weights = zip(*s.chances())
            s.play_unchecked(rng.choices(outcomes, weights)[0])
        else:
            s.play_unchecked(rng.choice(s.legal()))
        if rng.randrange(step) == 0:
            out.append(s.copy())
    return out


def turn_of(state):
    """(round, turn in the round, the stack's frames) of a Wingspan position (read from the
    engine's JSON form, which writes its frames)."""
    from roost.core.wingspan import jsonform
    t = jsonform.to_dict(state)
    return t["round"], t["t"], [f["f"] for f in t["stack"]]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_wingspan_plays_on_to_the_next_turns_first_decision(players):
    mid_turn = 0
    for i, s in enumerate(random_positions("wingspan", players, seed=players, count=60)):
        after = s.copy()
        plies = after.play_to_quiet(seed=i)
        rnd, turn, frames = turn_of(s)
        if frames[-1] in ("ACT", "SETUP"):
            if frames[-1] == "ACT":      # already at a turn's start: nothing to play
                assert plies == 0 and after.text() == s.text()
            else:                       # the setup (§1.3) ends at the first turn's action
                assert after.is_over or turn_of(after)[2][-1] == "ACT"
            continue
        mid_turn += 1
        assert plies >= 0
        if after.is_over:
            continue
        rnd2, turn2, frames2 = turn_of(after)
        assert frames2[-1] == "ACT", (s.text(), after.text())
        # exactly the turn in progress is finished: the next one in the round, or the
        # next round's first
        assert (rnd2, turn2) == (rnd, turn + 1) or (rnd2 == rnd + 1 and turn2 == 0), \
            ((rnd, turn), (rnd2, turn2))
    assert mid_turn >= 20           # the positions did test the play on


def test_wingspan_quiet_play_repeats_for_a_seed_and_draws_its_moves_from_it():
    mid = [s for s in random_positions("wingspan", 3, seed=11, count=80)
           if turn_of(s)[2][-1] not in ("ACT", "SETUP")]
    ends = {}
    for s in mid:
        a, b = s.copy(), s.copy()
        assert a.play_to_quiet(seed=4) == b.play_to_quiet(seed=4)
        assert a.text() == b.text()
        for seed in range(6):
            c = s.copy()
            c.play_to_quiet(seed=seed)
            ends.setdefault(s.text(), set()).add(c.text())
    assert any(len(v) > 1 for v in ends.values())       # random, not a fixed line


@pytest.mark.parametrize("info", [i for i in registered_games() if i.name != "wingspan"],
                         ids=lambda i: i.name)
def test_a_game_whose_turn_is_one_ply_is_always_quiet(info):
    for i, s in enumerate(random_positions(info.name, info.default_players, seed=3, count=25)):
        after = s.copy()
        assert after.play_to_quiet(seed=i) == 0
        assert after.text() == s.text()


def wingspan_middle():
    s = get_game("wingspan").start(players=3, seed=8)
    rng = random.Random(8)
    for _ in range(90):
        s.play_unchecked(rng.choice(s.legal()))
    return s


def stats(spec, state, seed):
    r = parse_engine(spec).choose(state, seed=seed)
    assert r.move in state.legal()
    return r, [(x.move, x.visits, round(x.value, 12)) for x in r.stats]


@pytest.mark.parametrize("engine", ["ismcts", "mcts", "pimc:worlds=2,"])
def test_quiet_changes_a_cut_off_wingspan_search_and_repeats_for_a_seed(engine):
    s = wingspan_middle()
    head = engine if engine.endswith(",") else engine + ":"
    quiet = f"{head}iterations=300,plies=10,quiet=1"
    plain = f"{head}iterations=300,plies=10"
    a, b, c, d = (stats(quiet, s, 3)[1], stats(quiet, s, 3)[1], stats(quiet, s, 4)[1],
                  stats(plain, s, 3)[1])
    assert a == b and a != c and a != d


def test_quiet_does_nothing_to_full_playouts_nor_where_a_turn_is_one_ply():
    s = wingspan_middle()
    assert stats("ismcts:iterations=200,quiet=1", s, 3)[1] == stats("ismcts:iterations=200", s, 3)[1]
    d = random_positions("ducks", 2, seed=5, count=1)[0]
    assert stats("mcts:iterations=300,plies=6,quiet=1", d, 3)[1] == \
        stats("mcts:iterations=300,plies=6", d, 3)[1]


def test_quiet_is_a_switch():
    from roost.core.errors import EngineSpecError
    with pytest.raises(EngineSpecError) as e:
        parse_engine("ismcts:quiet=maybe")
    assert "quiet" in str(e.value)
