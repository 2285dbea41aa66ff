"""Time management: how much of a clock one move may spend.

A seat on a clock has ``remaining`` seconds and gains ``increment`` after each of its moves
(``--tc BASE+INC``).  The manager spreads what is left over the moves the seat still expects
to make, plus most of the increment, and keeps a reserve for what the search does not
count: the process, the pipe and the search's own overshoot (MCTS reads its clock after
every iteration, alpha-beta every 256 nodes).

    allotted = (remaining - RESERVE) / moves_left + INCREMENT_SHARE * increment,
               at most CAP_SHARE of (remaining - RESERVE), at least MINIMUM

``moves_left`` is the seat's typical number of decisions in a game of this kind (measured
with random self-play, ``TYPICAL_DECISIONS``; forced moves are not decisions) less the
decisions it made so far in this game, never below ``MIN_MOVES_LEFT``: a game that runs
longer than usual spends a shrinking share of what is left rather than running out.
A position with one legal move gets ``MINIMUM``.
"""
from dataclasses import dataclass

RESERVE = 0.05          # seconds never planned for
MINIMUM = 0.001         # the least a move is given (a search needs a positive budget)
CAP_SHARE = 0.5         # one move never plans more than this share of what is left
INCREMENT_SHARE = 0.8   # the share of the increment spent on the move that earns it
MIN_MOVES_LEFT = 4
DEFAULT_DECISIONS = 40

# Decisions (nodes with more than one legal move) per seat in a game, from random self-play
# over 20 seeded games each; by player count where it matters.
TYPICAL_DECISIONS = {
    "ducks": 39,
    "cubirds": {2: 84, 3: 62, 4: 50, 5: 42},
    "tweeeet": 14,
    "leaves": 12,
    "wingspan": 81,
    "connect4": 10,
}


@dataclass(frozen=True)
class Clock:
    """A mover's clock: seconds left now, and seconds added after each of its moves."""
    remaining: float
    increment: float = 0.0


def typical_decisions(game, players=None):
    """The usual number of decisions per seat in ``game`` (a game name)."""
    v = TYPICAL_DECISIONS.get(game, DEFAULT_DECISIONS)
    if isinstance(v, dict):
        return v.get(players, round(sum(v.values()) / len(v)))
    return v


class TimeManager:
    """Allots the seconds of each move of one seat in one game (``new_game`` starts over)."""

    def __init__(self, game=None, players=None, decisions=None):
        self.expected = decisions or typical_decisions(game, players)
        self.made = 0

    @classmethod
    def for_state(cls, state):
        """A manager for the game of ``state`` (game classes are named after the games)."""
        return cls(type(state).__name__.lower(), getattr(state, "players", None))

    def new_game(self):
        self.made = 0

    def moves_left(self):
        return max(MIN_MOVES_LEFT, self.expected - self.made)

    def allocate(self, clock, state=None):
        """Seconds for the move about to be made (counted as one decision made)."""
        forced = state is not None and len(state.legal()) == 1
        left = self.moves_left()
        if not forced:
            self.made += 1
        usable = clock.remaining - RESERVE
        if forced or usable <= 0:
            return MINIMUM
        share = usable / left + INCREMENT_SHARE * max(0.0, clock.increment)
        return max(MINIMUM, min(share, CAP_SHARE * usable))
