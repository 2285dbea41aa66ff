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

- Each pairing is played in *rounds* of N *rotations*: in rotation r, seat s holds slot
  (s + r) % N of the round's slot order, so over a round every slot (every engine) plays
  every seat exactly once.
- Rotating keeps the cyclic turn order, and who moves right after whom matters in games of
  3+ seats, so the turn direction alternates between the rounds of a pairing: an even
  round (0, 2, ...) takes the slots in order, an odd round takes slot 0 and then the
  others backwards (0, N-1, ..., 1).  Over two rounds every engine moves right after each
  of its neighbours in slot order as often as right before it; with 3 seats that is every
  engine right after every other equally often.  (With 4+ seats engines that are not
  neighbours in slot order never move one right after the other within the pairing: the
  two directions are 2 of the (N-1)! cyclic orders.)  With 2 seats the reversed order is
  the same order, so 2-seat schedules are plain rotations.

Game ``i`` (0-based schedule index; its public id is ``i + 1``) is rotation
``(i // P) % N`` of round ``i // (P * N)`` of pairing ``i % P`` (P pairings): the schedule
runs through all pairings in one rotation, then the next rotation, and so on, so any
prefix of it is as balanced as it can be.  ``--games G`` is the number of games per
pairing and must be a multiple of N; with 3+ seats the turn orders balance over an even
number of rounds, G a multiple of 2N (``roost tournament`` says so when it is not).
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
    rotation: int        # within the round (which round: index // (pairings * seats))
    engines: tuple       # roster index of the engine in each seat
    seed: int
    opening_seed: int = 0  # shared by the N rotations of one round of a pairing
    round: int = 0         # the round of its pairing (its N rotations share the opening)

    @property
    def id(self):
        return self.index + 1


def slot_order(pairing, rnd=0):
    """The pairing's slots in the turn order of round ``rnd``: as given in an even round,
    slot 0 and then the others backwards in an odd one (the same order for 2 seats)."""
    pairing = tuple(pairing)
    return pairing if rnd % 2 == 0 else pairing[:1] + pairing[:0:-1]


def seat_order(pairing, rotation, rnd=0):
    """Roster index per seat for one rotation of round ``rnd`` of a pairing."""
    slots = slot_order(pairing, rnd)
    n = len(slots)
    return tuple(slots[(s + rotation) % n] for s in range(n))


def schedule(n_engines, seats, games_per_pairing, seed, mode=ROUND_ROBIN, stages=None):
    """The whole schedule, in order.

    ``stages`` is how a tournament grew: ``[(engines, games per pairing), ...]``, each stage
    with at least the engines and games of the one before and every pairing of it (the
    engines added last in the roster); the last is ``(n_engines, games_per_pairing)``.  The
    games a stage adds come after all the games before it, so a stored game keeps its id,
    seating and seed.  A stage plays its pairings' games by their number within the
    pairing (every pairing's game m before any pairing's game m + 1), the pairings in the
    order they joined the tournament; a tournament of one stage is the layout above."""
    if games_per_pairing < 1 or games_per_pairing % seats:
        raise ValueError(f"games per pairing must be a positive multiple of the {seats} seats, "
                         f"not {games_per_pairing}")
    stages = [tuple(st) for st in (stages or [])] or [(n_engines, games_per_pairing)]
    if stages[-1] != (n_engines, games_per_pairing):
        raise ValueError(f"the last stage {stages[-1]} is not the tournament's "
                         f"({n_engines} engines, {games_per_pairing} games)")
    order, played, out = [], {}, []          # pairings in the order they joined; games played
    for k, g in stages:
        ps = pairings(k, seats, mode)
        missing = [p for p in order if p not in ps]
        if missing:
            raise ValueError(f"a stage of {k} engines drops the pairing {missing[0]}")
        order += [p for p in ps if p not in played]
        for p in ps:
            played.setdefault(p, 0)
        now = set(ps)
        joined = [(pi, p) for pi, p in enumerate(order) if p in now]
        for m in range(min(played[p] for _, p in joined), g):
            for pi, p in joined:
                if played[p] <= m:
                    r, rnd, i = m % seats, m // seats, len(out)
                    out.append(ScheduledGame(index=i, pairing=pi, rotation=r,
                                             engines=seat_order(p, r, rnd), seed=derive_seed(seed, i),
                                             opening_seed=derive_seed(seed, 1 << 40, pi, rnd),
                                             round=rnd))
        for _, p in joined:
            played[p] = max(played[p], g)
    return out
