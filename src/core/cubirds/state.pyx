"""CuBirds (rules: docs/rules/cubirds.md), 2 to 5 players: the position and the native
contract.  The card tables are in cards.pxd, the rules on a Core in rules.pxd, what a seat
knows and its determinizations in information.pxd; the position text (JSON) and move names
in text.py, the picture in render.py, the registry's positions in examples.py.

Representation
--------------
Cards are per-species counts (species 0..7 in the rules table's order F O T D P M W R):
each hand, the part of each hand the others know (``known``), each collection, the
discard pile and the draw pile.  The draw pile is a multiset: its order is not state, so
every card drawn is a chance event whose outcome is the species (outcome id
``CARD + species`` = 80..87, named ``card:R``), weighted by the counts left.  A reshuffle
merges the discard pile into the draw pile; it happens (deterministically) the moment a card
must be drawn from an empty draw pile, so at every chance node the draw pile is non-empty.
The four rows are small arrays of species, left to right.

Decisions are the moves of docs/rules/cubirds.md §8: lay ``species*8 + row*2 + end``
(0..63), 64 draw two / 65 decline, 66+species flock / 74 no flock, 75 / 76 the dealer's end
for the card completing a row.  A decision with one legal option is never a node.

Chance, one card at a time (every one a chance node):
- setup: the 4 rows are laid card by card, row 1 to row 4 (a species already in the row is
  discarded and replaced); then 8 cards to each player, the dealer first and then in seat
  order, all 8 to one player before the next; then one face-up collection card to each
  player in the same order;
- a redeal after a round: 8 cards to each player in that same order (dealer first);
- the two cards of the draw option, one at a time, into the drawer's hand;
- completing a row: one card at a time; a card of the row's species joins the row (which
  end does not matter: the row holds one species), the first card of another species stops
  the completion and the dealer chooses its end (a decision node, 75/76).

Phases (the position text's "phase", §9.2): the rules file's ``lay``, ``draw``, ``flock`` and
``complete`` are the decision nodes; the chance nodes are ``drawing`` (with "pending": cards
still to draw, 1 or 2), ``filling`` (with "row": the row being completed, 1..4), ``deal``
(a redeal; progress is read from the hand sizes) and ``setup`` (progress read from the rows,
hands and collections); a finished game is ``over`` (with "winners": the seats sharing the
victory).  "row" and "card" also describe the ``complete`` phase (the row, and the drawn card
of another species waiting for its end).  "to_move" is always the player whose turn it is
(after a deal, the dealer); in the ``complete`` phase the dealer decides.

Information: "known" lists, per hand, the cards that entered it face up (taken from a row)
and have not left it; "lacks" lists, per player, the species the *unknown* part of that hand
is known not to contain (the player laid or flocked that species since they last drew a
hidden card).  Both are optional in a position text (default: empty).  A determinization
keeps exactly the list of §7.3 (own hand, public cards, known cards, "lacks" facts) plus
what the phase implies: at another player's flock node that player's hand reaches a small
flock.  It does not keep the other inferences a perfect memory could draw (that a skipped
flock node means no species reached its small number, or that a reshuffled draw pile is the
old discard pile), as the list of §7.3 does not name them.

Roost's decisions where the printed rules are silent (§11):
- A turn is counted when it ends (after the flock step); "turn" is the number of turns
  completed.  When it reaches 1,000 and nobody has won, the game ends as a failed deal does
  (most collection cards wins, ties share), before any empty-hand redeal (§5.4).
- Completing a row happens only after cards were taken (§4.3); a row left with
  one species because both piles ran dry stays so until a later lay changes it.
- A failed deal is decided before the first card of the redeal: the draw and discard piles
  (the other hands already discarded) together hold fewer than 8 cards per player.
- A finished position's "winners" must fit it: the one player whose collection wins, else
  (a failed deal or the cap) the players with the most collection cards; "turn" is at most
  1,000 in every position.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from libc.math cimport exp

from roost.core.rng cimport Rng, rng_seed, rng_below, splitmix64
from roost.core.state cimport State, CHANCE, HIDDEN, MAX_PLAYERS
from roost.core.cubirds.cards cimport (init_tables, COPIES, SMALL, BIG, NSP, NROWS, TOTAL,
                                       CARD, MV_DRAW, MV_NODRAW, MV_FLOCK, MV_NOFLOCK, MV_LEFT,
                                       MV_RIGHT, FLOCK_TRIES, PH_LAY, PH_DRAW, PH_FLOCK,
                                       PH_COMPLETE, PH_DRAWING, PH_DEAL, PH_SETUP, PH_OVER,
                                       Z_HAND, Z_KNOWN, Z_COLL, Z_LACK, Z_DISC, Z_ROW, Z_PHASE,
                                       Z_PLAYER, Z_DEALER, Z_N, Z_PEND, Z_FROW, Z_FCARD, Z_WIN,
                                       Z_TURN)
from roost.core.cubirds.rules cimport (play_move, play_card, do_lay, do_flock, do_complete,
                                       end_turn, deal_recipient, setup_stage, sample_species)
from roost.core.cubirds.information cimport (reaches_flock, unseen_counts, unknown_slots,
                                             deal_unknown, deal_with_flock)
from roost.core.errors import GameError
from roost.core.cubirds import text as _text, render as _render

init_tables()


cdef inline uint64_t core_key(Core* c) noexcept nogil:
    cdef uint64_t h = Z_PHASE[c.phase] ^ Z_PLAYER[c.player] ^ Z_DEALER[c.dealer] ^ Z_N[c.n]
    cdef uint64_t t
    cdef int q, s, r, i
    h ^= Z_PEND[c.pending] ^ Z_FROW[c.frow + 1] ^ Z_FCARD[c.fcard + 1] ^ Z_WIN[c.winners]
    t = <uint64_t>c.turn * Z_TURN
    h ^= splitmix64(&t)
    for q in range(c.n):
        for s in range(NSP):
            h ^= Z_HAND[q][s][c.hand[q][s]] ^ Z_KNOWN[q][s][c.known[q][s]] ^ Z_COLL[q][s][c.coll[q][s]]
            if c.lacks[q] & (1 << s):
                h ^= Z_LACK[q][s]
    for s in range(NSP):
        h ^= Z_DISC[s][c.discard[s]]
    for r in range(NROWS):
        for i in range(c.rowlen[r]):
            h ^= Z_ROW[r][i][c.row[r][i]]
    return h


cdef inline double collection_progress(Core* c, int q) noexcept nogil:
    """How far q is towards the nearer winning collection, counting the best flock q's
    hand could form now as if collected: the larger of "7 species" (distinct species / 7)
    and "3+3" (the two largest species counts, each capped at 3, / 6)."""
    cdef double a, b, best = -1.0
    cdef int s, v, kinds, c1, c2, k, gain
    for s in range(-1, NSP):
        if s >= 0:
            if c.hand[q][s] < SMALL[s]:
                continue
            gain = 2 if c.hand[q][s] >= BIG[s] else 1
        else:
            gain = 0
        kinds = 0
        c1 = 0
        c2 = 0
        for v in range(NSP):
            k = c.coll[q][v] + (gain if v == s else 0)
            if k > 0:
                kinds += 1
            if k > 3:
                k = 3
            if k > c1:
                c2 = c1
                c1 = k
            elif k > c2:
                c2 = k
        a = kinds / 7.0
        b = (c1 + c2) / 6.0
        if b > a:
            a = b
        if a > best:
            best = a
    return best


cdef class Cubirds(State):
    """A CuBirds position (omniscient: every hand and the draw pile's contents).

    >>> s = Cubirds.start(players=2, seed=1)
    >>> s.phase, s.player
    ('lay', 0)
    """
    name = "cubirds"

    def __cinit__(self):
        self.n_players = 4
        self.hidden_info = True
        self.perft_expands_chance = False
        self.c.n = 4
        self.c.frow = -1
        self.c.fcard = -1

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        if self.c.phase >= PH_DRAWING and self.c.phase != PH_OVER:
            return CHANCE
        if self.c.phase == PH_COMPLETE:
            return self.c.dealer
        return self.c.player

    cdef bint over(self) noexcept nogil:
        return self.c.phase == PH_OVER

    cdef void outcome(self, double* out) noexcept nogil:
        cdef int q, k = 0
        for q in range(self.c.n):
            if self.c.winners & (1 << q):
                k += 1
        for q in range(self.c.n):
            if k == 0:
                out[q] = 1.0 / self.c.n
            else:
                out[q] = (1.0 / k) if self.c.winners & (1 << q) else 0.0

    cdef uint64_t key(self) noexcept nogil:
        return core_key(&self.c)

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Cubirds>other).c

    cdef int legal_moves(self, int* out) noexcept nogil:
        cdef int n = 0, s, j, p = self.c.player, ph = self.c.phase
        if ph == PH_LAY:
            for s in range(NSP):
                if self.c.hand[p][s]:
                    for j in range(8):
                        out[n] = s * 8 + j
                        n += 1
        elif ph == PH_DRAW:
            out[0] = MV_DRAW
            out[1] = MV_NODRAW
            n = 2
        elif ph == PH_FLOCK:
            for s in range(NSP):
                if self.c.hand[p][s] >= SMALL[s]:
                    out[n] = MV_FLOCK + s
                    n += 1
            out[n] = MV_NOFLOCK
            n += 1
        elif ph == PH_COMPLETE:
            out[0] = MV_LEFT
            out[1] = MV_RIGHT
            n = 2
        return n

    cdef void play(self, int move) noexcept nogil:
        play_move(&self.c, move)

    cdef int chance_count(self) noexcept nogil:
        cdef int s, n = 0
        for s in range(NSP):
            if self.c.deck[s]:
                n += 1
        return n

    cdef int chance_outcomes(self, int* out, double* probs) noexcept nogil:
        cdef int s, n = 0
        cdef double inv = 1.0 / self.c.ndeck if self.c.ndeck else 0.0
        for s in range(NSP):
            if self.c.deck[s]:
                out[n] = CARD + s
                probs[n] = self.c.deck[s] * inv
                n += 1
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return CARD + sample_species(&self.c, rng)

    cdef double evaluate(self, int player) noexcept nogil:
        # Each player's progress towards a winning collection (collection_progress); the
        # estimate is a softmax of the players' progress (temperature 1/6), so it lies in
        # (0, 1) and sums to 1 over the players.
        cdef double prog[MAX_PLAYERS]
        cdef double outv[MAX_PLAYERS]
        cdef double num = 0.0, den = 0.0, a
        cdef int q
        if self.c.phase == PH_OVER:
            self.outcome(outv)
            return outv[player]
        for q in range(self.c.n):
            prog[q] = collection_progress(&self.c, q)
        for q in range(self.c.n):
            a = exp(6.0 * prog[q])
            den += a
            if q == player:
                num = a
        return num / den

    cdef void determinize(self, int observer, Rng* rng) noexcept nogil:
        # Reads only what `observer` sees: public zones (rows, collections, discard, the
        # card waiting in a `complete` phase), the observer's own hand, the others' hand
        # sizes, known cards and "lacks" facts, the draw pile's size and the phase.  The
        # unseen cards are dealt among the opponents' unknown slots (deal_unknown) and the
        # rest form the draw pile.  At a flock node of another player, that player's hand
        # must reach a small flock (docs/rules/cubirds.md §8.2: otherwise there would be
        # no flock node): deals are redrawn until it does (the same deal, conditioned), and
        # after FLOCK_TRIES failures the flock is built first (deal_with_flock).  An
        # observer outside 0..n-1 holds no seat: every hand is dealt afresh.
        cdef Core* c = &self.c
        cdef int U[NSP]
        cdef int U0[NSP]
        cdef int need[MAX_PLAYERS]
        cdef int need0[MAX_PLAYERS]
        cdef int allowed[MAX_PLAYERS]
        cdef int s, fp, tries, total
        cdef bint constrained, done = False
        if c.phase == PH_OVER:
            return
        if observer < 0 or observer >= c.n:
            observer = -1
        unseen_counts(c, observer, U0)
        constrained = unknown_slots(c, observer, need0, allowed)
        fp = -1
        if c.phase == PH_FLOCK and c.player != observer and not reaches_flock(c.known[c.player]):
            fp = c.player
        tries = FLOCK_TRIES if fp >= 0 else 1
        while tries > 0 and not done:
            tries -= 1
            memcpy(U, U0, sizeof(U))
            memcpy(need, need0, sizeof(need))
            deal_unknown(c, observer, U, need, allowed, constrained, rng)
            done = fp < 0 or reaches_flock(c.hand[fp])
        if not done:
            memcpy(U, U0, sizeof(U))
            memcpy(need, need0, sizeof(need))
            deal_with_flock(c, observer, fp, U, need, allowed, constrained, rng)
        total = 0
        for s in range(NSP):
            c.deck[s] = U[s] if U[s] > 0 else 0
            total += c.deck[s]
        c.ndeck = total

    cdef int observe(self, int move, int observer) noexcept nogil:
        cdef int ph = self.c.phase, st
        if move < CARD:
            return move                      # every decision is public
        if ph == PH_DRAWING:
            return move if observer == self.c.player else HIDDEN
        if ph == PH_DEAL:
            return move if observer == deal_recipient(&self.c) else HIDDEN
        if ph == PH_SETUP:
            st = setup_stage(&self.c)
            if st == 1:
                return move if observer == deal_recipient(&self.c) else HIDDEN
        return move                          # face up: a row card or a collection card

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # Uniform random decisions (as legal_moves + a uniform pick) and chance drawn by
        # the draw pile's counts, without building move lists.
        cdef Core* c = &self.c
        cdef int plies = 0, ph
        while plies < max_plies and c.phase != PH_OVER:
            ph = c.phase
            if ph >= PH_DRAWING:
                play_card(c, sample_species(c, rng))
            elif ph == PH_LAY:
                random_lay(c, rng)
            elif ph == PH_DRAW:
                play_move(c, MV_DRAW if rng_below(rng, 2) == 0 else MV_NODRAW)
            elif ph == PH_FLOCK:
                random_flock(c, rng)
            else:
                do_complete(c, <int>rng_below(rng, 2))
            plies += 1
        return plies

    # ---------------------------------------------------------------- new games
    @classmethod
    def before_setup(cls, players=4, dealer=0):
        """The game before the setup: all 110 cards in the draw pile, a chance node."""
        if not isinstance(players, int) or not 2 <= players <= 5:
            raise GameError(f"CuBirds is played by 2 to 5 players, not {players}")
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise GameError(f"the dealer must be a seat 0..{players - 1}, not {dealer}")
        cdef Cubirds s = cls.__new__(cls)
        cdef int i
        s.n_players = players
        s.c.n = players
        s.c.dealer = dealer
        s.c.player = dealer
        s.c.phase = PH_SETUP
        for i in range(NSP):
            s.c.deck[i] = COPIES[i]
        s.c.ndeck = TOTAL
        return s

    @classmethod
    def start(cls, players=None, seed=0):
        """A fresh game, setup done (rows laid, hands dealt, collections started) by chance
        events drawn from ``seed``; seat 0 deals and plays first."""
        cdef Cubirds s = cls.before_setup(4 if players is None else players, 0)
        cdef Rng rng
        rng_seed(&rng, <uint64_t>(0 if seed is None else seed))
        while s.c.phase == PH_SETUP:
            play_card(&s.c, sample_species(&s.c, &rng))
        return s

    # ---------------------------------------------------------------- the bridge to text.py
    @classmethod
    def _load(cls, dict v):
        """A position from plain values text.py has checked (the shape of _raw()): counts
        per species, rows as lists of species, "lacks" and "winners" as bit masks."""
        cdef Cubirds s = cls.__new__(cls)
        cdef Core* c = &s.c
        cdef int q, r, i, sp, n = v["players"]
        s.n_players = n
        c.n = n
        c.dealer = v["dealer"]
        c.player = v["to_move"]
        c.phase = v["phase"]
        c.pending = v["pending"]
        c.frow = v["row"]
        c.fcard = v["card"]
        c.turn = v["turn"]
        c.winners = v["winners"]
        for r in range(NROWS):
            c.rowlen[r] = len(v["rows"][r])
            for i, sp in enumerate(v["rows"][r]):
                c.row[r][i] = sp
        for q in range(n):
            c.hsize[q] = sum(v["hands"][q])
            c.lacks[q] = v["lacks"][q]
            for sp in range(NSP):
                c.hand[q][sp] = v["hands"][q][sp]
                c.known[q][sp] = v["known"][q][sp]
                c.coll[q][sp] = v["collections"][q][sp]
        for sp in range(NSP):
            c.deck[sp] = v["deck"][sp]
            c.discard[sp] = v["discard"][sp]
        c.ndeck = sum(v["deck"])
        c.ndiscard = sum(v["discard"])
        return s

    def _raw(self):
        """Every field of the position as plain values (what _load takes)."""
        cdef Core* c = &self.c
        cdef int n = c.n
        return {"players": n, "dealer": c.dealer, "to_move": c.player, "phase": c.phase,
                "pending": c.pending, "row": c.frow, "card": c.fcard, "turn": c.turn,
                "winners": c.winners,
                "rows": [[c.row[r][i] for i in range(c.rowlen[r])] for r in range(NROWS)],
                "hands": [[c.hand[q][sp] for sp in range(NSP)] for q in range(n)],
                "known": [[c.known[q][sp] for sp in range(NSP)] for q in range(n)],
                "lacks": [c.lacks[q] for q in range(n)],
                "collections": [[c.coll[q][sp] for sp in range(NSP)] for q in range(n)],
                "discard": [c.discard[sp] for sp in range(NSP)],
                "deck": [c.deck[sp] for sp in range(NSP)]}

    # ---------------------------------------------------------------- Python API
    @classmethod
    def parse(cls, text):
        """Parse the JSON position of docs/rules/cubirds.md §9 (or the path of a file holding
        it)."""
        return _text.parse_position(cls, text)

    def text(self):
        return _text.position_text(self._raw())

    def view(self, observer):
        """The JSON text of what seat ``observer`` sees: its own hand in full, the others'
        known cards followed by one ``?`` per unknown card, the draw pile as a count, and
        ``unseen``: the cards the observer cannot place (draw pile and unknown slots)."""
        return _text.view_text(self._raw(), observer)

    def ending(self):
        """Why the game ended (text.ending): ``collection``, ``deal`` or ``cap``; None while
        it goes on."""
        return _text.ending(self._raw())

    def move_name(self, move):
        return _text.move_name(move)

    def parse_move(self, name):
        return _text.parse_move(name)

    # ---------------------------------------------------------------- read-only helpers
    @property
    def phase(self):
        return _text.PHASES[self.c.phase]

    @property
    def turn(self):
        return self.c.turn

    @property
    def dealer(self):
        return self.c.dealer

    @property
    def turn_player(self):
        """Whose turn it is (in the ``complete`` phase the dealer decides, not this player)."""
        return self.c.player

    def _seat(self, q):
        if isinstance(q, bool) or not isinstance(q, int) or not 0 <= q < self.c.n:
            raise GameError(f"seats are 0..{self.c.n - 1}, not {q!r}")
        return q

    def hand(self, q):
        q = self._seat(q)
        return _text.letters([self.c.hand[q][s] for s in range(NSP)])

    def known_cards(self, q):
        q = self._seat(q)
        return _text.letters([self.c.known[q][s] for s in range(NSP)])

    def lacks(self, q):
        q = self._seat(q)
        return _text.mask_letters(self.c.lacks[q])

    def collection(self, q):
        q = self._seat(q)
        return _text.letters([self.c.coll[q][s] for s in range(NSP)])

    def rows(self):
        return [_text.row_letters(r) for r in self._raw()["rows"]]

    def discard_pile(self):
        return _text.letters([self.c.discard[s] for s in range(NSP)])

    def draw_pile(self):
        return _text.letters([self.c.deck[s] for s in range(NSP)])

    def observe_move(self, int move, int observer):
        """What ``observer`` sees of ``move`` played here: the id, or -1 (HIDDEN)."""
        return self.observe(move, observer)

    def winners(self):
        return [q for q in range(self.c.n) if self.c.winners & (1 << q)] if self.c.phase == PH_OVER else []

    @property
    def next_recipient(self):
        """The seat the next dealt card goes to (during a deal or the setup's hands), or -1."""
        return deal_recipient(&self.c)

    def render(self, observer=None):
        """The table as text, from seat ``observer`` (None: omniscient)."""
        return _render.render(self, observer)


cdef inline void random_lay(Core* c, Rng* rng) noexcept nogil:
    """A uniform random lay (a species in hand x 4 rows x 2 ends)."""
    cdef int p = c.player, m = 0, s, k, e
    for s in range(NSP):
        if c.hand[p][s]:
            m += 1
    k = <int>rng_below(rng, m * 8)
    e = k >> 3
    for s in range(NSP):
        if c.hand[p][s]:
            if e == 0:
                break
            e -= 1
    do_lay(c, s * 8 + (k & 7))


cdef inline void random_flock(Core* c, Rng* rng) noexcept nogil:
    """A uniform random choice among the flocks in hand and no flock."""
    cdef int p = c.player, m = 0, s, k
    for s in range(NSP):
        if c.hand[p][s] >= SMALL[s]:
            m += 1
    k = <int>rng_below(rng, m + 1)
    if k == m:
        end_turn(c)
        return
    for s in range(NSP):
        if c.hand[p][s] >= SMALL[s]:
            if k == 0:
                break
            k -= 1
    do_flock(c, s)
