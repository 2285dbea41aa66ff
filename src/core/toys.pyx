"""Dice Race: a tiny two-player game with dice-like chance, for testing the searchers'
chance handling against brute force.  It is registered (as ``dice``) but not listed among
the games roost plays.

Each player makes ``T`` decisions, alternately, White first:
- ``hold``: +1 point;
- ``roll``: a fair die; faces 3..6 score their value, 1 and 2 score nothing;
- ``coin``: a biased coin: heads (1 in 4) scores 8, tails nothing.
After the last decision the higher score wins; equal scores draw.

Position text: ``<score0> <score1> <decisions left> <to move 0|1> <pending: - roll coin>``,
e.g. the start with three decisions each: ``0 0 6 0 -``.  Move ids: 0 hold, 1 roll,
2 coin; chance outcome ids 11..16 the die faces, 20 heads, 21 tails.
"""
from libc.stdint cimport uint64_t
from libc.math cimport exp

from roost.core.rng cimport Rng, rng_below
from roost.core.state cimport State, CHANCE, DRAWN, two_player_outcome
from roost.core.state import move_id
from roost.core.errors import MoveError, PositionError, GameError

cdef enum:
    HOLD = 0
    ROLL = 1
    COIN = 2
    FACE = 10        # outcome FACE + k: the die shows k
    HEADS = 20
    TAILS = 21
    LIMIT = 1000000   # scores and decisions left in a position text

_NAMES = {HOLD: "hold", ROLL: "roll", COIN: "coin", HEADS: "heads", TAILS: "tails"}
_NAMES.update({FACE + k: f"die{k}" for k in range(1, 7)})
_IDS = {v: k for k, v in _NAMES.items()}


ctypedef struct DiceCore:
    int score[2]
    int left          # decisions still to make, both players together
    int side
    int pending       # -1, ROLL or COIN: the chance event the last decision started


cdef class DiceRace(State):
    name = "dice"
    cdef DiceCore c

    def __cinit__(self):
        self.n_players = 2
        self.perft_expands_chance = True
        self.c.pending = -1

    cdef int to_move(self) noexcept nogil:
        return CHANCE if self.c.pending >= 0 else self.c.side

    cdef int legal_moves(self, int* out) noexcept nogil:
        if self.c.pending >= 0 or self.c.left <= 0:
            return 0
        out[0] = HOLD
        out[1] = ROLL
        out[2] = COIN
        return 3

    cdef void play(self, int move) noexcept nogil:
        cdef int gain = 0
        if self.c.pending < 0:
            if move == HOLD:
                self.c.score[self.c.side] += 1
                self.finish_turn()
            else:
                self.c.pending = move
            return
        if FACE + 3 <= move <= FACE + 6:
            gain = move - FACE
        elif move == HEADS:
            gain = 8
        self.c.score[self.c.side] += gain
        self.c.pending = -1
        self.finish_turn()

    cdef void finish_turn(self) noexcept nogil:
        self.c.left -= 1
        self.c.side ^= 1

    cdef bint over(self) noexcept nogil:
        return self.c.left <= 0 and self.c.pending < 0

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(DRAWN if self.c.score[0] == self.c.score[1]
                           else (0 if self.c.score[0] > self.c.score[1] else 1), out)

    cdef uint64_t key(self) noexcept nogil:
        cdef uint64_t h = <uint64_t>(self.c.score[0] * 131 + self.c.score[1]) * 0x9E3779B97F4A7C15ULL
        h ^= <uint64_t>(self.c.left * 8 + self.c.side * 4 + self.c.pending + 1) * 0xBF58476D1CE4E5B9ULL
        return h ^ (h >> 29)

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<DiceRace>other).c

    cdef int chance_count(self) noexcept nogil:
        return 6 if self.c.pending == ROLL else 2

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int k
        if self.c.pending == ROLL:
            for k in range(6):
                out[k] = FACE + 1 + k
                probs[k] = 1.0 / 6.0
            return 6
        out[0] = HEADS
        probs[0] = 0.25
        out[1] = TAILS
        probs[1] = 0.75
        return 2

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        if self.c.pending == ROLL:
            return FACE + 1 + <int>rng_below(rng, 6)
        return HEADS if rng_below(rng, 4) == 0 else TAILS

    cdef double evaluate(self, int player) noexcept nogil:
        # the score lead, against the points an average turn brings (about 2.5)
        cdef double lead = self.c.score[player] - self.c.score[1 - player]
        return 1.0 / (1.0 + exp(-lead / (1.0 + 1.5 * self.c.left)))

    @classmethod
    def start(cls, players=2, seed=None, turns=3):
        if players not in (None, 2):
            raise GameError(f"Dice Race is a two-player game (asked for {players} players)")
        return cls.parse(f"0 0 {2 * turns} 0 -")

    @classmethod
    def parse(cls, text):
        if not isinstance(text, str):
            raise PositionError("a Dice Race position must be text")
        f = text.split()
        if len(f) != 5:
            raise PositionError("a Dice Race position is '<score0> <score1> <left> <to move> <pending>'")
        if not all(x.isascii() and x.isdigit() for x in f[:4]):
            raise PositionError("scores, decisions left and the player to move are integers >= 0")
        values = [int(x) for x in f[:4]]
        if max(values[:3]) > LIMIT or values[3] not in (0, 1):
            raise PositionError(f"scores and decisions left are 0..{LIMIT}, the player to move 0 or 1")
        if f[4] not in ("-", "roll", "coin"):
            raise PositionError(f"pending is -, roll or coin, not {f[4]!r}")
        pending = {"-": -1, "roll": ROLL, "coin": COIN}[f[4]]
        if pending >= 0 and values[2] == 0:
            raise PositionError("a chance event is pending but no decision is left")
        return cls._load({"score": values[:2], "left": values[2], "side": values[3],
                          "pending": pending})

    @classmethod
    def _load(cls, dict raw):
        """A position from plain values already checked (the shape of _raw())."""
        cdef DiceRace s = cls.__new__(cls)
        s.c.score[0], s.c.score[1] = raw["score"]
        s.c.left = raw["left"]
        s.c.side = raw["side"]
        s.c.pending = raw["pending"]
        return s

    def _raw(self):
        return {"score": (self.c.score[0], self.c.score[1]), "left": self.c.left,
                "side": self.c.side, "pending": self.c.pending}

    def text(self):
        pend = {-1: "-", ROLL: "roll", COIN: "coin"}[self.c.pending]
        return f"{self.c.score[0]} {self.c.score[1]} {self.c.left} {self.c.side} {pend}"

    def move_name(self, move):
        m = move_id(move, "Dice Race move id")
        if m not in _NAMES:
            raise MoveError(f"{m} is not a Dice Race move id")
        return _NAMES[m]

    def parse_move(self, name):
        if not isinstance(name, str) or name.strip().lower() not in _IDS:
            raise MoveError(f"{name!r} is not a Dice Race move (hold, roll, coin, die1..die6, heads, tails)")
        return _IDS[name.strip().lower()]

    def render(self, observer=None):
        who = "chance" if self.c.pending >= 0 else f"player {self.c.side}"
        return (f"Dice Race: scores {self.c.score[0]} - {self.c.score[1]}, {self.c.left} decisions left, "
                f"{who} to act")


cdef class HiddenCard(State):
    """A toy with hidden information for the no-peeking tests of the searchers: player 1
    holds one of ``cards`` cards that player 0 cannot see, and player 0 names a card and
    wins if it is that one.  A search that reads the hidden card values its move at 1; one
    that reads only what player 0 knows values every guess at about 1 / cards.  Not
    registered as a game.  Position text: ``<card> <cards>``; move ids: the card named."""
    name = "hidden-card"
    cdef int card
    cdef int cards
    cdef int named          # -1 until player 0 names a card

    def __cinit__(self):
        self.n_players = 2
        self.hidden_info = True
        self.named = -1
        self.cards = 1

    cdef int to_move(self) noexcept nogil:
        return 0

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int k
        if self.named >= 0:
            return 0
        for k in range(self.cards):
            out[k] = k
        return self.cards

    cdef void play(self, int move) noexcept nogil:
        self.named = move

    cdef bint over(self) noexcept nogil:
        return self.named >= 0

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(0 if self.named == self.card else 1, out)

    cdef uint64_t key(self) noexcept nogil:
        return <uint64_t>((self.named + 1) * 4096 + self.card * 64 + self.cards) * 0x9E3779B97F4A7C15ULL

    cdef void assign(self, State other) noexcept nogil:
        self.card = (<HiddenCard>other).card
        self.cards = (<HiddenCard>other).cards
        self.named = (<HiddenCard>other).named

    cdef double evaluate(self, int player) noexcept nogil:
        return 1.0 / self.cards if player == 0 else 1.0 - 1.0 / self.cards

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        if observer != 1:
            self.card = <int>rng_below(rng, self.cards)

    @classmethod
    def parse(cls, text):
        f = text.split() if isinstance(text, str) else []
        if len(f) != 2 or not all(x.isascii() and x.isdigit() for x in f):
            raise PositionError("a hidden-card position is '<card> <cards>'")
        card, cards = int(f[0]), int(f[1])
        if not 1 <= cards <= 64 or not 0 <= card < cards:
            raise PositionError("a hidden-card position has 1 to 64 cards and a card among them")
        cdef HiddenCard s = cls.__new__(cls)
        s.card, s.cards = card, cards
        return s

    def text(self):
        return f"{self.card} {self.cards}"

    def move_name(self, move):
        m = move_id(move, "hidden-card move id")
        if not 0 <= m < self.cards:
            raise MoveError(f"{m} is not a card of this hidden-card position")
        return f"card{m}"

    def parse_move(self, name):
        if not isinstance(name, str) or not name.startswith("card") or not name[4:].isdigit():
            raise MoveError(f"{name!r} is not a hidden-card move (card0, card1, ...)")
        return int(name[4:])


cdef enum:
    CLOSE = 2         # LongDeal: player 1's last move, after the deal
    DEALT = 10        # the one outcome id of a LongDeal chance node
_DEAL_NAMES = {0: "win", 1: "lose", CLOSE: "close", DEALT: "deal"}


cdef class LongDeal(State):
    """A toy for the searchers' ply limit: player 0 chooses ``win`` (move 0) or ``lose``
    (move 1), then chance deals ``length`` cards, one at a time and each the only card it can
    be, and the game ends with player 0 winning or losing as chosen.  Every dealt card is a
    chance node of one outcome, so a search follows the line one ply per card without
    spending depth: the deal's length puts the end of the game at any ply.  The evaluation
    knows nothing (1/2), so only a search that reaches the end tells the moves apart.  With
    ``close``, player 1 then makes one last move (its only one, ``close``) before the end, so
    that a decision node lies at the ply of choice.  Not registered as a game.  Position
    text: ``<length>`` or ``<length> close``; move ids 0 win, 1 lose, 2 close."""
    name = "long-deal"
    cdef int length
    cdef int dealt
    cdef int chosen         # -1 until player 0 chooses
    cdef int closing        # 1 while player 1's closing move is still to come

    def __cinit__(self):
        self.n_players = 2
        self.chosen = -1

    cdef int to_move(self) noexcept nogil:
        if self.chosen < 0:
            return 0
        return CHANCE if self.dealt < self.length else 1

    cdef int legal_moves(self, int* out) noexcept nogil:
        if self.chosen < 0:
            out[0] = 0
            out[1] = 1
            return 2
        if self.dealt >= self.length and self.closing:
            out[0] = CLOSE
            return 1
        return 0

    cdef void play(self, int move) noexcept nogil:
        if self.chosen < 0:
            self.chosen = move
        elif move == CLOSE:
            self.closing = 0
        else:
            self.dealt += 1

    cdef bint over(self) noexcept nogil:
        return self.chosen >= 0 and self.dealt >= self.length and not self.closing

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(self.chosen, out)

    cdef uint64_t key(self) noexcept nogil:
        cdef uint64_t h = <uint64_t>(((self.chosen + 1) * 2 + self.closing) * 1000003
                                     + self.dealt) * 0x9E3779B97F4A7C15ULL
        return h ^ (h >> 29) ^ <uint64_t>self.length

    cdef void assign(self, State other) noexcept nogil:
        self.length = (<LongDeal>other).length
        self.dealt = (<LongDeal>other).dealt
        self.chosen = (<LongDeal>other).chosen
        self.closing = (<LongDeal>other).closing

    cdef int chance_count(self) noexcept nogil:
        return 1

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        out[0] = DEALT
        probs[0] = 1.0
        return 1

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return DEALT

    cdef double evaluate(self, int player) noexcept nogil:
        return 0.5

    @classmethod
    def parse(cls, text):
        f = text.split() if isinstance(text, str) else []
        if (not 1 <= len(f) <= 2 or not (f[0].isascii() and f[0].isdigit())
                or not 1 <= int(f[0]) <= LIMIT or f[1:] not in ([], ["close"])):
            raise PositionError(f"a long-deal position is '<length>' or '<length> close', "
                                f"a deal of 1..{LIMIT} cards")
        cdef LongDeal s = cls.__new__(cls)
        s.length = int(f[0])
        s.closing = len(f) == 2
        return s

    def text(self):
        return f"{self.length} close" if self.closing else str(self.length)

    def move_name(self, move):
        m = move_id(move, "long-deal move id")
        if m not in _DEAL_NAMES:
            raise MoveError(f"{m} is not a long-deal move id")
        return _DEAL_NAMES[m]

    def parse_move(self, name):
        for m, n in _DEAL_NAMES.items():
            if name == n:
                return m
        raise MoveError(f"{name!r} is not a long-deal move (win, lose, close, deal)")
