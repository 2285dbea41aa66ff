"""The tournament schedule: which engines sit where in game number ``i``, and its seed.

Vocabulary (also in ``roost tournament --help``):

- The *roster* is the list of engine specs given, numbered 0..k-1 (the same spec may be
  given twice: the two entries are different players that happen to play alike).
- A game has N *seats* (2 to 5).  A *pairing* is the N roster entries that meet in a game,
  listed in *slot* order:

  * round robin, k >= N: every N-combination of the roster (k=3, N=2: 01, 02, 12);
  * gauntlet, k-1 >= N-1: entry 0 (the gauntlet engine) with every (N-1)-combination of
    the others;
  * fewer engines than seats (k < N, or k-1 < N-1 opponents): the *fills*, the engines
    repeated cyclically to fill the N slots, once from each starting engine
    (k=2, N=3: 010 and 101), so every engine holds the same number of slots overall.

- Each pairing is played in N *rotations*: in rotation r, seat s holds slot (s + r) % N, so
  over N games every slot (every engine) plays every seat exactly once.

Game ``i`` (0-based schedule index; its public id is ``i + 1``) is rotation
``(i // P) % N`` of pairing ``i % P`` (P pairings): the schedule runs through all pairings
in one rotation, then the next rotation, and so on, so any prefix of it is as balanced as
it can be.  ``--games G`` is the number of games per pairing and must be a multiple of N.
The seed of game ``i`` is ``derive_seed(tournament_seed, i)``: the whole schedule is a pure
function of the configuration.  With random openings, the N rotations of one round of a
pairing share their opening, so every engine plays it from every seat.
"""
from dataclasses import dataclass
from itertools import combinations

from roost.arena.match import derive_seed

ROUND_ROBIN = "roundrobin"
GAUNTLET = "gauntlet"
MODES = (ROUND_ROBIN, GAUNTLET)


def _fills(entries, n):
    k = len(entries)
    return [tuple(entries[(j + r) % k] for j in range(n)) for r in range(k)]


def pairings(n_engines, seats, mode=ROUND_ROBIN):
    """The pairings (tuples of roster indices, one per slot) of a tournament."""
    if mode not in MODES:
        raise ValueError(f"unknown tournament mode {mode!r}; known: {', '.join(MODES)}")
    if n_engines < 2:
        raise ValueError("a tournament needs at least two engines")
    if seats < 2:
        raise ValueError("a game needs at least two seats")
    if mode == ROUND_ROBIN:
        roster = list(range(n_engines))
        if n_engines >= seats:
            return list(combinations(roster, seats))
        return _fills(roster, seats)
    others = list(range(1, n_engines))
    if len(others) >= seats - 1:
        return [(0,) + c for c in combinations(others, seats - 1)]
    return [(0,) + f for f in _fills(others, seats - 1)]


@dataclass(frozen=True)
class ScheduledGame:
    index: int           # 0-based position in the schedule
    pairing: int
    rotation: int
    engines: tuple       # roster index of the engine in each seat
    seed: int
    opening_seed: int = 0  # shared by the N rotations of one round of a pairing

    @property
    def id(self):
        return self.index + 1


def seat_order(pairing, rotation):
    """Roster index per seat for one rotation of a pairing."""
    n = len(pairing)
    return tuple(pairing[(s + rotation) % n] for s in range(n))


def schedule(n_engines, seats, games_per_pairing, seed, mode=ROUND_ROBIN):
    """The whole schedule, in order."""
    if games_per_pairing < 1 or games_per_pairing % seats:
        raise ValueError(f"games per pairing must be a positive multiple of the {seats} seats, "
                         f"not {games_per_pairing}")
    ps = pairings(n_engines, seats, mode)
    out = []
    for i in range(len(ps) * games_per_pairing):
        p = i % len(ps)
        r = (i // len(ps)) % seats
        rnd = i // (len(ps) * seats)
        out.append(ScheduledGame(index=i, pairing=p, rotation=r,
                                 engines=seat_order(ps[p], r), seed=derive_seed(seed, i),
                                 opening_seed=derive_seed(seed, 1 << 40, p, rnd)))
    return out
