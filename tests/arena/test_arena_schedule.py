"""The tournament schedule: pairings, seat rotation, seeds (src/arena/schedule.py)."""
from collections import Counter

import pytest

from roost.arena.match import derive_seed
from roost.arena.schedule import GAUNTLET, ROUND_ROBIN, pairings, schedule


def test_round_robin_pairings_are_the_combinations():
    assert pairings(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert pairings(4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert pairings(5, 5) == [(0, 1, 2, 3, 4)]


def test_fewer_engines_than_seats_fill_cyclically_from_each_engine():
    assert pairings(2, 3) == [(0, 1, 0), (1, 0, 1)]
    assert pairings(3, 5) == [(0, 1, 2, 0, 1), (1, 2, 0, 1, 2), (2, 0, 1, 2, 0)]


def test_gauntlet_pairings_always_hold_the_first_engine():
    assert pairings(4, 2, GAUNTLET) == [(0, 1), (0, 2), (0, 3)]
    assert pairings(4, 3, GAUNTLET) == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]
    # two opponents for three other seats: the opponents fill them cyclically
    assert pairings(3, 4, GAUNTLET) == [(0, 1, 2, 1), (0, 2, 1, 2)]


@pytest.mark.parametrize("k,n,mode", [(2, 2, ROUND_ROBIN), (3, 2, ROUND_ROBIN), (4, 3, ROUND_ROBIN),
                                      (2, 3, ROUND_ROBIN), (3, 5, ROUND_ROBIN), (2, 4, ROUND_ROBIN),
                                      (4, 2, GAUNTLET), (5, 3, GAUNTLET), (3, 4, GAUNTLET)])
def test_every_engine_plays_every_seat_equally(k, n, mode):
    games = schedule(k, n, 2 * n, seed=7, mode=mode)
    seats = Counter()
    for g in games:
        for seat, e in enumerate(g.engines):
            seats[e, seat] += 1
    for e in range(k):
        per_seat = [seats[e, s] for s in range(n)]
        assert len(set(per_seat)) == 1, f"engine {e} seat counts {per_seat}"
    # and within each pairing every slot visits every seat once per N games
    for p in range(len(pairings(k, n, mode))):
        rots = sorted(g.rotation for g in games if g.pairing == p)
        assert rots == sorted(list(range(n)) * 2)


def test_rotation_moves_each_slot_one_seat():
    games = schedule(2, 3, 6, seed=0)       # pairings 010 and 101
    assert [g.engines for g in games] == [(0, 1, 0), (1, 0, 1),      # round 0, rotation 0
                                          (1, 0, 0), (0, 1, 1),      # rotation 1
                                          (0, 0, 1), (1, 1, 0),      # rotation 2
                                          # round 1: slot 0, then the others backwards
                                          (0, 0, 1), (1, 1, 0),      # 001 and 110
                                          (0, 1, 0), (1, 0, 1),
                                          (1, 0, 0), (0, 1, 1)]
    assert [g.rotation for g in games] == [0, 0, 1, 1, 2, 2] * 2


def test_the_turn_direction_alternates_between_rounds():
    # one pairing 012: rounds 0 and 2 rotate 012, rounds 1 and 3 rotate 021
    forward, backward = [(0, 1, 2), (1, 2, 0), (2, 0, 1)], [(0, 2, 1), (2, 1, 0), (1, 0, 2)]
    assert [g.engines for g in schedule(3, 3, 12, seed=0)] == forward + backward + forward + backward
    # four seats: 0123 rotated, then 0321 rotated
    assert [g.engines for g in schedule(4, 4, 8, seed=0)][4:] == [(0, 3, 2, 1), (3, 2, 1, 0),
                                                                  (2, 1, 0, 3), (1, 0, 3, 2)]


def _follows(games):
    """(a, b) -> how often roster entry b moved right after a (seat s + 1 after seat s, the
    last seat followed by seat 0)."""
    out = Counter()
    for g in games:
        for s, e in enumerate(g.engines):
            out[e, g.engines[(s + 1) % len(g.engines)]] += 1
    return out


@pytest.mark.parametrize("k,mode", [(3, ROUND_ROBIN), (4, ROUND_ROBIN), (5, GAUNTLET)])
def test_at_three_seats_every_engine_moves_right_after_every_other_equally(k, mode):
    # Two rounds of a pairing abc are 6 games of 3 successions each: abc rotated gives
    # a->b, b->c, c->a in each of its 3 games, acb rotated gives a->c, c->b, b->a in each
    # of its 3: every ordered pair 3 times.  (Before the alternation a->b 6, b->a 0.)
    games = schedule(k, 3, 6, seed=1, mode=mode)
    for p, pairing in enumerate(pairings(k, 3, mode)):
        follows = _follows(g for g in games if g.pairing == p)
        assert follows == Counter({(a, b): 3 for a in pairing for b in pairing if a != b})


def test_at_four_seats_each_neighbour_moves_after_as_often_as_before():
    # Two rounds of 0123 are 8 games of 4 successions each: 0123 rotated gives 0->1, 1->2,
    # 2->3, 3->0 in each of its 4 games, 0321 rotated 0->3, 3->2, 2->1, 1->0 in each of its 4.
    # So each neighbour in slot order moves right after an engine as often as right before
    # it (4 and 4), but 0 and 2 (and 1 and 3) never move one right after the other: the
    # alternation balances after against before, not every cyclic order.
    follows = _follows(schedule(4, 4, 8, seed=1))
    ring = [0, 1, 2, 3]
    expected = Counter()
    for i, a in enumerate(ring):
        expected[a, ring[(i + 1) % 4]] = 4
        expected[ring[(i + 1) % 4], a] = 4
    assert follows == expected
    # the case that was measured: in a 4-seat gauntlet the first entry moved right after
    # the last one of its pairing in every game, and now in half of them
    for p, pairing in enumerate(pairings(5, 4, GAUNTLET)):
        f = _follows(g for g in schedule(5, 4, 8, seed=1, mode=GAUNTLET) if g.pairing == p)
        assert f[pairing[-1], 0] == f[0, pairing[-1]] == 4
        assert all(f[a, b] == f[b, a] for a in pairing for b in pairing)


@pytest.mark.parametrize("k,mode", [(2, ROUND_ROBIN), (4, ROUND_ROBIN), (5, GAUNTLET), (2, GAUNTLET)])
def test_two_seat_schedules_are_plain_rotations(k, mode):
    # the formula before the alternation: rotation (i // P) % 2 of pairing i % P
    ps = pairings(k, 2, mode)
    games = schedule(k, 2, 8, seed=3, mode=mode)
    assert [g.engines for g in games] == [tuple(ps[i % len(ps)][(s + (i // len(ps)) % 2) % 2]
                                                for s in range(2)) for i in range(len(games))]


@pytest.mark.parametrize("k,n,mode", [(4, 3, ROUND_ROBIN), (2, 3, ROUND_ROBIN), (3, 4, GAUNTLET),
                                      (5, 4, GAUNTLET), (3, 5, ROUND_ROBIN)])
def test_each_round_shares_an_opening_and_seats_every_slot_once(k, n, mode):
    ps = pairings(k, n, mode)
    games = schedule(k, n, 4 * n, seed=9, mode=mode)
    rounds = {}
    for g in games:
        rounds.setdefault((g.pairing, g.index // (len(ps) * n)), []).append(g)
    assert len(rounds) == 4 * len(ps)
    for (p, rnd), group in rounds.items():
        assert len(group) == n and len({g.opening_seed for g in group}) == 1
        for s in range(n):       # every slot once in every seat: the seat holds the pairing
            assert sorted(g.engines[s] for g in group) == sorted(ps[p])
    assert len({group[0].opening_seed for group in rounds.values()}) == len(rounds)


def test_schedule_is_deterministic_and_seeded_per_game():
    a = schedule(3, 2, 4, seed=11)
    assert a == schedule(3, 2, 4, seed=11)
    assert [g.seed for g in a] == [derive_seed(11, i) for i in range(12)]
    assert [g.id for g in a] == list(range(1, 13))
    assert len({g.seed for g in a}) == 12
    assert [g.seed for g in schedule(3, 2, 4, seed=12)] != [g.seed for g in a]


def test_neighbouring_seeds_share_no_game():
    # Once the parent seed was added to the game index unmixed, so seed 12 replayed seed
    # 11's games shifted by one, and two "independent" runs shared all their starts but one.
    for seed in (0, 11, 208, 2**40):
        a = {g.seed for g in schedule(3, 2, 40, seed=seed)}
        b = {g.seed for g in schedule(3, 2, 40, seed=seed + 1)}
        assert not a & b
    assert derive_seed(2, 0) != derive_seed(1, 1)
    assert derive_seed(7, 5, 1) != derive_seed(8, 4, 1) != derive_seed(7, 4, 2)


def test_a_longer_schedule_starts_with_the_shorter_one():
    assert schedule(3, 2, 8, seed=5)[:12] == schedule(3, 2, 4, seed=5)
    assert schedule(4, 3, 12, seed=5)[:24] == schedule(4, 3, 6, seed=5)
    assert schedule(5, 4, 16, seed=5, mode=GAUNTLET)[:16] == schedule(5, 4, 4, seed=5, mode=GAUNTLET)


@pytest.mark.parametrize("k,n,mode", [(4, 3, ROUND_ROBIN), (5, 4, GAUNTLET), (2, 3, ROUND_ROBIN)])
def test_every_prefix_is_as_even_as_it_can_be(k, n, mode):
    # after any number of games the pairings have played equally often (give or take one),
    # and after every whole rotation every pairing has played it
    ps = pairings(k, n, mode)
    games = schedule(k, n, 4 * n, seed=2, mode=mode)
    played = Counter()
    for i, g in enumerate(games):
        played[g.pairing] += 1
        counts = [played[p] for p in range(len(ps))]
        assert max(counts) - min(counts) <= 1
        if (i + 1) % len(ps) == 0:
            assert {h.rotation for h in games[i + 1 - len(ps):i + 1]} == {g.rotation}


def test_games_must_rotate_evenly():
    with pytest.raises(ValueError, match="multiple of the 3 seats"):
        schedule(3, 3, 4, seed=0)
    with pytest.raises(ValueError, match="at least two engines"):
        pairings(1, 2)
