"""A tiny pure-Python N-player game for the arena tests (the registry's games are two-player
for now).  It offers the Python-facing half of the State interface that the arena and the
random engine use, nothing native, so only the 'random' engine can play it.

Race: each player in turn adds 1 or 2 to its counter, then a chance node adds 0 or 1 (even
odds).  The first to reach 8 wins; after every player has moved 4 times the leaders share
the win."""
import random

from roost.core.errors import MoveError, PositionError
from roost.core.games import GameInfo

TARGET, ROUNDS = 8, 4


class Race:
    hidden_info = False

    def __init__(self, n, counts=None, mover=0, decisions=0, chance=False):
        self.n = n
        self.counts = list(counts or [0] * n)
        self.mover = mover
        self.decisions = decisions
        self.chance = chance

    # -- construction and text
    @classmethod
    def start(cls, players=None, seed=0):
        return cls(players or 3)

    @classmethod
    def parse(cls, text):
        try:
            n, counts, mover, decisions, chance = text.split()
            counts = [int(c) for c in counts.split(",")]
            s = cls(int(n), counts, int(mover), int(decisions), chance == "c")
        except ValueError:
            raise PositionError(f"not a race position: {text!r}") from None
        if len(counts) != s.n or not 0 <= s.mover < s.n:
            raise PositionError(f"not a race position: {text!r}")
        return s

    def text(self):
        return (f"{self.n} {','.join(map(str, self.counts))} {self.mover} {self.decisions} "
                f"{'c' if self.chance else 'd'}")

    def render(self, observer=None):
        return " ".join(f"p{i}:{c}" for i, c in enumerate(self.counts))

    def copy(self):
        return Race(self.n, self.counts, self.mover, self.decisions, self.chance)

    # -- the interface
    @property
    def players(self):
        return self.n

    @property
    def is_over(self):
        return max(self.counts) >= TARGET or (self.decisions >= ROUNDS * self.n and not self.chance)

    @property
    def is_chance(self):
        return self.chance and not self.is_over

    @property
    def player(self):
        return -1 if self.is_chance else self.mover

    def legal(self):
        return [] if self.is_over or self.chance else [1, 2]

    def chances(self):
        return [(0, 0.5), (1, 0.5)] if self.is_chance else []

    def sample(self, seed):
        return random.Random(seed).randrange(2)

    def move_name(self, m):
        return ("+" if not self.chance else "bonus+") + str(m)

    def parse_move(self, name):
        if name in ("+1", "+2"):
            return int(name[1])
        raise MoveError(f"not a race move: {name!r}")

    def play_unchecked(self, m):
        if self.chance:
            self.counts[self.mover] += m
            self.chance = False
            self.mover = (self.mover + 1) % self.n
        else:
            self.counts[self.mover] += m
            self.decisions += 1
            self.chance = True

    def is_legal(self, m):
        return m in ((0, 1) if self.is_chance else self.legal())

    def play_move(self, m):
        if not self.is_legal(m):
            raise MoveError(f"illegal race move {m}")
        self.play_unchecked(m)

    def result(self):
        best = max(self.counts)
        leaders = [i for i, c in enumerate(self.counts) if c == best]
        if best >= TARGET:
            leaders = [i for i, c in enumerate(self.counts) if c >= TARGET]
        return tuple(1.0 / len(leaders) if i in leaders else 0.0 for i in range(self.n))


    def ending(self):
        if not self.is_over:
            return None
        if max(self.counts) >= TARGET:
            return {"reason": "target", "detail": f"a counter reached {TARGET}"}
        return {"reason": "rounds", "detail": f"{ROUNDS} rounds played: the leaders share the win"}


RACE = GameInfo("race", "Race (test toy)", Race, 2, 5, 3, summary="a test toy",
                examples=("3 0,0,0 0 0 d",))
