"""Connect Four (7 columns x 6 rows), the calibration game roost shares with OpenSpiel
(``connect_four``) and with published perfect solvers.

Rules (docs/rules/connect4.md): two players drop stones in turn into one of seven columns; a
stone falls to the lowest empty cell.  Four of one player's stones in a line (across, up, or
along either diagonal) win at once; a full board with no line is a draw.  The first player
moves first.

Bitboards: cell (column c, row r), row 0 at the bottom, is bit ``7*c + r``; the seventh bit
of each column stays empty, so a shift by 1, 6, 7 or 8 moves one step along a line without
wrapping into the next column.  The position is the stones of the player to move (``cur``)
and all stones (``mask``); ``cur + mask`` is a perfect key.

Position text: the columns played, ``1``..``7`` from the left, first player first
(``4453``); the empty board is ``-``.  Move ids are columns 0..6, named ``1``..``7``.
"""

from libc.stdint cimport uint64_t, int8_t
from libc.math cimport exp

from roost.core.bits cimport popcount, lsb, msb, pdep, pext, clear_lsb
from roost.core.rng cimport Rng, rng_below
from roost.core.state cimport (State, DRAWN, OVER, SOON_UNKNOWN, SOON_WIN, SOON_LOSS, SOON_QUIET, SOON_DRAW,
                               two_player_outcome)
from roost.core.state import move_id
from roost.core.linear cimport two_player_share, WEIGHT_ROWS
from roost.core.errors import PositionError, MoveError, GameError
from roost.core.weights import LinearEval

cdef enum:
    WIDTH = 7
    HEIGHT = 6
    CELLS = 42
    STRIDE = 7                   # bits per column: six rows and an empty guard bit
    UNDECIDED = -1

cdef extern from *:
    """
    #define C4_BOTTOM 0x40810204081ULL    /* row 0 of every column */
    #define C4_BOARD 0xFDFBF7EFDFBFULL    /* the 42 cells: rows 0..5 of every column */
    #define C4_ODD_ROWS 0x54A952A54A95ULL /* rows 0, 2, 4: the 1st, 3rd, 5th from the bottom */
    """
    const uint64_t BOTTOM "C4_BOTTOM"
    const uint64_t BOARD "C4_BOARD"
    const uint64_t ODD_ROWS "C4_ODD_ROWS"

# The threats a stone in each column's cell of `cells` would make (winning_cells of the
# stones with it, counted), all seven columns at once where the compiler has vector types:
# ordering a proof's moves by them was its largest cost after the table's misses.  The
# same formula as winning_cells and line_gaps, lane by lane (a column without a cell in
# `cells` gets a count of nothing).  The keys after a stone in each column (keys_after, for
# a proof's table fetches) are made seven at once the same way.
cdef extern from *:
    """
    #define C4_LINE_GAPS(p, s, r) do { \
        t = ((p) << (s)) & ((p) << (2 * (s))); r |= t & ((p) << (3 * (s))); r |= t & ((p) >> (s)); \
        t = ((p) >> (s)) & ((p) >> (2 * (s))); r |= t & ((p) << (s)); r |= t & ((p) >> (3 * (s))); \
    } while (0)
    #define C4_COLUMN(i) (0x3FULL << (7 * (i)))
    /* each column's place in the centre-first order as a tie-break, higher first (6 the
       centre, 0 the rightmost edge); lane 7 no column */
    #define C4_CENTRE_TIE_LANES {1, 3, 5, 6, 4, 2, 0, 0}
    #define C4_RANKED_THREATS 15   /* by_threats tells apart moves making up to this many */
    /* splitmix64's finaliser, on a number or on every lane of a vector */
    #define C4_MIX_STEPS(x) do { \
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL; \
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL; \
        x ^= x >> 31; \
    } while (0)
    static inline unsigned long long c4_mix(unsigned long long x) {
        C4_MIX_STEPS(x);
        return x;
    }
    #if defined(__GNUC__)
    typedef unsigned long long c4_lanes __attribute__((vector_size(64)));
    #define C4_COLUMN_LANES {C4_COLUMN(0), C4_COLUMN(1), C4_COLUMN(2), C4_COLUMN(3), \
                             C4_COLUMN(4), C4_COLUMN(5), C4_COLUMN(6), 0}
    /* c: each column's cell of `cells` (lane 7 none), r: the cells it would win */
    #define C4_THREAT_LANES(cur, mask, cells, c, r) do { \
        const c4_lanes columns = C4_COLUMN_LANES; \
        c4_lanes p, t; \
        c = columns & (cells); \
        p = c | (cur); \
        r = (p << 1) & (p << 2) & (p << 3); \
        C4_LINE_GAPS(p, 7, r); \
        C4_LINE_GAPS(p, 6, r); \
        C4_LINE_GAPS(p, 8, r); \
        r &= (c | (mask)) ^ C4_BOARD; \
    } while (0)
    static inline void c4_threat_counts(unsigned long long cur, unsigned long long mask,
                                        unsigned long long cells, int* out) {
        c4_lanes c, r;
        int i;
        C4_THREAT_LANES(cur, mask, cells, c, r);
        for (i = 0; i < 8; i++) out[i] = __builtin_popcountll(r[i]);
    }
    /* by_threats's order as a set of ranks: for each column with a cell in `cells`, bit
       min(threats, C4_RANKED_THREATS) * 8 + the column's tie-break of a 128-bit set
       (low, high), all seven columns at once */
    static inline void c4_threat_ranks(unsigned long long cur, unsigned long long mask,
                                       unsigned long long cells, uint64_t* low,
                                       uint64_t* high) {
        const c4_lanes ties = C4_CENTRE_TIE_LANES, one = ties * 0 + 1;
        c4_lanes c, r, k, m, rank, bit;
        int i;
        C4_THREAT_LANES(cur, mask, cells, c, r);
        for (i = 0; i < 8; i++) k[i] = __builtin_popcountll(r[i]);
        m = (c4_lanes)(k > C4_RANKED_THREATS);
        rank = ((k & ~m) | (C4_RANKED_THREATS & m)) * 8 + ties;
        bit = (one << (rank & 63)) & (c4_lanes)(c != 0);
        m = (c4_lanes)(rank < 64);
        r = bit & m;
        k = bit & ~m;
        *low = r[0] | r[1] | r[2] | r[3] | r[4] | r[5] | r[6];
        *high = k[0] | k[1] | k[2] | k[3] | k[4] | k[5] | k[6];
    }
    /* the key after a stone in each column (mix() of the opponent's stones and all, as
       key_after), lanes 0-6 (a full column's lane holds no key) */
    static inline void c4_child_keys(unsigned long long cur, unsigned long long mask,
                                     uint64_t* out) {
        const c4_lanes columns = C4_COLUMN_LANES;
        const c4_lanes bottoms = {1ULL, 1ULL << 7, 1ULL << 14, 1ULL << 21, 1ULL << 28,
                                  1ULL << 35, 1ULL << 42, 0};
        c4_lanes m = bottoms * 0 + mask, x;
        x = (cur ^ mask) + (m | ((m + bottoms) & columns));
        C4_MIX_STEPS(x);
        __builtin_memcpy(out, &x, sizeof x);
    }
    #else
    static inline void c4_threat_counts(unsigned long long cur, unsigned long long mask,
                                        unsigned long long cells, int* out) {
        unsigned long long c, p, r, t;
        int i;
        for (i = 0; i < 7; i++) {
            c = cells & C4_COLUMN(i);
            p = cur | c;
            r = (p << 1) & (p << 2) & (p << 3);
            C4_LINE_GAPS(p, 7, r);
            C4_LINE_GAPS(p, 6, r);
            C4_LINE_GAPS(p, 8, r);
            r &= (c | mask) ^ C4_BOARD;
            out[i] = __builtin_popcountll(r);
        }
        out[7] = 0;
    }
    static inline void c4_threat_ranks(unsigned long long cur, unsigned long long mask,
                                       unsigned long long cells, uint64_t* low,
                                       uint64_t* high) {
        static const int ties[8] = C4_CENTRE_TIE_LANES;
        int counts[8], i, rank;
        c4_threat_counts(cur, mask, cells, counts);
        *low = *high = 0;
        for (i = 0; i < 7; i++) {
            if (!(cells & C4_COLUMN(i))) continue;
            rank = (counts[i] < C4_RANKED_THREATS ? counts[i] : C4_RANKED_THREATS) * 8 + ties[i];
            if (rank < 64) *low |= 1ULL << rank;
            else *high |= 1ULL << (rank - 64);
        }
    }
    static inline void c4_child_keys(unsigned long long cur, unsigned long long mask,
                                     uint64_t* out) {
        int i;
        for (i = 0; i < 7; i++)
            out[i] = c4_mix((cur ^ mask) + (mask | ((mask + (1ULL << (7 * i))) & C4_COLUMN(i))));
        out[7] = 0;
    }
    #endif
    """
    void threat_counts "c4_threat_counts"(uint64_t cur, uint64_t mask, uint64_t cells,
                                          int* out) noexcept nogil
    void threat_ranks "c4_threat_ranks"(uint64_t cur, uint64_t mask, uint64_t cells,
                                        uint64_t* low, uint64_t* high) noexcept nogil
    void child_keys "c4_child_keys"(uint64_t cur, uint64_t mask, uint64_t* out) noexcept nogil
    # splitmix64's finaliser is a bijection: the key stays perfect and its low bits (which
    # index the search tables) depend on the whole board
    uint64_t mix "c4_mix"(uint64_t x) noexcept nogil

# The columns from the centre outwards: the order in which equal moves are tried.
cdef int CENTRE_ORDER[WIDTH]
CENTRE_ORDER[:] = [3, 2, 4, 1, 5, 0, 6]
# The column of each tie-break of by_threats (C4_CENTRE_TIE_LANES's inverse).
cdef int TIE_COLUMN[WIDTH]
TIE_COLUMN[:] = [6, 0, 5, 1, 4, 2, 3]


cdef inline uint64_t column_mask(int col) noexcept nogil:
    return (<uint64_t>0x3F) << (STRIDE * col)


cdef inline bint four_in_line(uint64_t p) noexcept nogil:
    """A line of four among the stones p (one player's)."""
    cdef uint64_t m
    m = p & (p >> 1)                       # vertical
    if m & (m >> 2):
        return True
    m = p & (p >> STRIDE)                  # horizontal
    if m & (m >> (2 * STRIDE)):
        return True
    m = p & (p >> (STRIDE - 1))            # diagonal, up to the left
    if m & (m >> (2 * (STRIDE - 1))):
        return True
    m = p & (p >> (STRIDE + 1))            # diagonal, up to the right
    if m & (m >> (2 * (STRIDE + 1))):
        return True
    return False


cdef inline uint64_t winning_cells(uint64_t p, uint64_t mask) noexcept nogil:
    """Empty cells where one more stone of p would complete a line of four."""
    cdef uint64_t r = (p << 1) & (p << 2) & (p << 3)     # on top of three in a column
    r |= line_gaps(p, STRIDE) | line_gaps(p, STRIDE - 1) | line_gaps(p, STRIDE + 1)
    return r & (BOARD ^ mask)


cdef inline uint64_t line_gaps(uint64_t p, int s) noexcept nogil:
    """Cells that complete four of p along the line of step s, wherever the gap is."""
    cdef uint64_t r, t
    t = (p << s) & (p << (2 * s))          # the two cells on one side are p's
    r = t & (p << (3 * s))
    r |= t & (p >> s)
    t = (p >> s) & (p >> (2 * s))          # ... on the other side
    r |= t & (p << s)
    r |= t & (p >> (3 * s))
    return r


cdef inline uint64_t playable(uint64_t mask) noexcept nogil:
    """The next free cell of every column that is not full."""
    return (mask + BOTTOM) & BOARD


ctypedef struct C4Core:
    uint64_t cur          # stones of the player to move
    uint64_t mask         # all stones
    # What search_moves learnt, for the next move (a proof plays one of its moves next):
    # `safe` the cells it found safe when it found no win for the mover (then no move wins,
    # and after a safe one the opponent has no win at once), else 0; `no_win` that the mover
    # has no win at once (the last move was safe), so search_moves need not look
    uint64_t safe
    int no_win
    int n                 # stones played
    int result            # UNDECIDED, 0 or 1 (the winner), DRAWN
    # (the columns played, which only the position text reads, are the state's `hist`,
    # outside the core: a search's scratch child copies the core alone)


cdef inline void core_play(C4Core* c, int col) noexcept nogil:
    cdef uint64_t cell = (c.mask + (<uint64_t>1 << (STRIDE * col))) & column_mask(col)
    cdef uint64_t mine = c.cur | cell
    cdef uint64_t safe = c.safe
    c.n += 1
    c.mask |= cell
    c.cur = mine ^ c.mask            # the opponent, to move next
    c.safe = 0
    c.no_win = (safe & cell) != 0
    if not safe and four_in_line(mine):   # (with `safe` known, no move wins)
        c.result = (c.n - 1) & 1
    elif c.n == CELLS:
        c.result = DRAWN


cdef unsigned long long perft_bits(uint64_t cur, uint64_t mask, int depth) noexcept nogil:
    """Leaves of the move tree: a won position is a leaf with no moves below it."""
    cdef uint64_t moves = playable(mask), cell, mine, total = 0
    if depth == 1:
        return popcount(moves)
    while moves:
        cell = moves & (0 - moves)
        moves ^= cell
        mine = cur | cell
        if four_in_line(mine):
            continue
        total += perft_bits(mine ^ (mask | cell), mask | cell, depth - 1)
    return total


cdef enum:
    N_FEATURES = 7

# The evaluation's weights (c4_features names the features); EVALUATION sets them.
cdef double EVAL_W[WEIGHT_ROWS][N_FEATURES]


def _install_weights(int players, weights):
    cdef int i
    for i in range(N_FEATURES):
        EVAL_W[players][i] = weights[i]


EVALUATION = LinearEval(
    "connect4",
    ("threats", "zugzwang_threats", "centre", "wins_now", "double_threat", "to_move",
     "playable_threats"),
    # the evaluation before tuning: a win now 3, an unstoppable double threat 2.5, else
    # 0.35 a threat, 0.25 more on the rows zugzwang favours, 0.05 a centre stone
    {2: (0.35, 0.25, 0.05, 3.0, 2.5, 0.0, 0.0)},
    _install_weights, (2,))


cdef inline void c4_features(const C4Core* c, int player, double* out) noexcept nogil:
    """0 winning cells (threats), 1 threats on the rows zugzwang favours (odd rows from the
    bottom for the first player, even for the second), 2 centre stones, 3 to move with a
    playable win, 4 two playable threats the mover cannot both block, 5 to move,
    6 playable threats.  Features 0-2 and 6 are 0 while 3 or 4 decides (for either player)."""
    cdef int mover = c.n & 1
    cdef uint64_t mine = c.cur if mover == player else c.cur ^ c.mask
    cdef uint64_t theirs = mine ^ c.mask
    cdef uint64_t moves = playable(c.mask)
    cdef uint64_t w = winning_cells(mine, c.mask), wt = winning_cells(theirs, c.mask)
    cdef uint64_t mover_wins = moves & (w if mover == player else wt)
    cdef uint64_t waiter_wins = moves & (wt if mover == player else w)
    cdef int k
    for k in range(N_FEATURES):
        out[k] = 0.0
    out[5] = 1.0 if mover == player else 0.0
    if mover_wins:
        out[3] = out[5]
        return
    if popcount(waiter_wins) >= 2:
        out[4] = 1.0 - out[5]
        return
    out[0] = popcount(w)
    out[1] = popcount(w & (ODD_ROWS if player == 0 else BOARD & ~ODD_ROWS))
    out[2] = popcount(mine & column_mask(3))
    out[6] = popcount(w & moves)


cdef inline int insert_by_rank(int* ranks, int* cols, int n, int rank, int col) noexcept nogil:
    """Put `col` of `rank` into the n columns ranked best first, after those of equal rank
    (so equals keep the order they came in); the new count."""
    cdef int k = n
    while k > 0 and ranks[k - 1] < rank:
        ranks[k] = ranks[k - 1]
        cols[k] = cols[k - 1]
        k -= 1
    ranks[k] = rank
    cols[k] = col
    return n + 1


cdef int by_threats(const C4Core* c, uint64_t cells, int* out) noexcept nogil:
    """The columns of `cells` (next free cells), most threats made first (cells where the
    stone played there helps complete a four, up to C4_RANKED_THREATS), centre first among
    equals."""
    cdef int n = 0, rank
    cdef uint64_t low, high
    if not cells & (cells - 1):
        # one move or none: nothing to order (a forced move is most of a proof's nodes)
        if cells:
            out[0] = lsb(cells) // STRIDE
        return 1 if cells else 0
    # each column's rank (its threats, then the tie-break) is its own, so the ranks as bits
    # of a 128-bit set, read from the top, are the order, without the comparisons of a sort
    # whose branches the processor cannot predict (its largest cost); threats counted up to
    # C4_RANKED_THREATS, more than moves make (8 the most in 3,000 games played to make many)
    threat_ranks(c.cur, c.mask, cells, &low, &high)
    while high:
        rank = msb(high)
        high ^= (<uint64_t>1) << rank
        out[n] = TIE_COLUMN[rank & 7]
        n += 1
    while low:
        rank = msb(low)
        low ^= (<uint64_t>1) << rank
        out[n] = TIE_COLUMN[rank & 7]
        n += 1
    return n


cdef inline uint64_t search_cells(C4Core* c, int* soon) noexcept nogil:
    """The cells of search_moves (see there), and *soon; with SOON_QUIET or SOON_DRAW it keeps them in
    c.safe for the next move (core_play); with SOON_LOSS, every playable cell."""
    cdef uint64_t moves, mine, theirs, forced, safe
    if c.result != UNDECIDED:
        soon[0] = SOON_UNKNOWN
        return 0
    moves = playable(c.mask)
    if not c.no_win:
        mine = winning_cells(c.cur, c.mask) & moves
        if mine:
            soon[0] = SOON_WIN
            return mine & (0 - mine)
    theirs = winning_cells(c.cur ^ c.mask, c.mask)
    forced = moves & theirs
    safe = moves & ~(theirs >> 1)
    if forced:
        safe = 0 if forced & (forced - 1) else safe & forced   # two wins: one is left
    if not safe:
        soon[0] = SOON_LOSS
        return moves
    # two cells left or one: the mover cannot win now, the opponent cannot win on the last
    # stone after a safe move, and the board is then full
    soon[0] = SOON_DRAW if CELLS - c.n <= 2 else SOON_QUIET
    c.safe = safe
    return safe


cdef inline uint64_t column_set(uint64_t cells) noexcept nogil:
    """The columns of `cells` (at most one a column) as bits 0-6: each cell moved down to
    its column's bottom row (a column's cells move no further than its own bottom), then
    the bottom row gathered (a division by the stride for each cell cost more)."""
    cdef uint64_t x = cells | (cells >> 1) | (cells >> 2)
    x |= x >> 3
    return pext(x & BOTTOM, BOTTOM)


cdef inline int columns_of(uint64_t cells, int* out) noexcept nogil:
    """The columns of `cells` (at most one a column), from the left."""
    cdef int n = 0
    cdef uint64_t cols = column_set(cells)
    while cols:
        out[n] = lsb(cols)
        n += 1
        cols &= cols - 1
    return n


cdef class Connect4(State):
    """A Connect Four position.

    >>> s = Connect4.parse("-")
    >>> s.legal_names()
    ['4', '3', '5', '2', '6', '1', '7']
    >>> s.play_move("4").play_move("4").text()
    '44'
    """
    name = "connect4"

    cdef C4Core c
    cdef int8_t hist[CELLS]      # the columns played, in order (the position text)

    def __cinit__(self):
        self.n_players = 2
        self.c.result = UNDECIDED

    # ---------------------------------------------------------------- contract
    cdef int to_move(self) noexcept nogil:
        return self.c.n & 1

    cdef bint over(self) noexcept nogil:
        return self.c.result != UNDECIDED

    cdef void outcome(self, double* out) noexcept nogil:
        two_player_outcome(self.c.result, out)

    cdef uint64_t key(self) noexcept nogil:
        return mix(self.c.cur + self.c.mask)

    cdef bint key_after(self, int move, uint64_t* key) noexcept nogil:
        # after the stone, the opponent's stones are to move: cur ^ mask
        cdef uint64_t cell = (self.c.mask + (<uint64_t>1 << (STRIDE * move))) & column_mask(move)
        key[0] = mix((self.c.cur ^ self.c.mask) + (self.c.mask | cell))
        return True

    cdef int keys_after(self, int* moves, int n, uint64_t* keys) noexcept nogil:
        # every column's key at once (child_keys), then the moves'
        cdef uint64_t lanes[8]
        cdef int i
        child_keys(self.c.cur, self.c.mask, lanes)
        for i in range(n):
            keys[i] = lanes[moves[i]]
        return n

    cdef void assign(self, State other) noexcept nogil:
        self.c = (<Connect4>other).c
        self.hist = (<Connect4>other).hist

    cdef void assign_position(self, State other) noexcept nogil:
        self.c = (<Connect4>other).c

    cdef int assign_played(self, State parent, int move) noexcept nogil:
        # (the column played is left out of `hist`, as assign_position leaves the text)
        self.c = (<Connect4>parent).c
        core_play(&self.c, move)
        return OVER if self.c.result != UNDECIDED else self.c.n & 1

    cdef int legal_moves(self, int* out) noexcept nogil:
        # The generation order is the searchers' move ordering: a winning move first, then
        # a block of the opponent's immediate win, then the others by the threats (cells
        # that would complete a four) they make, centre first among equals; a move that
        # lets the opponent win on top of it comes last.
        cdef uint64_t moves, mine_wins, their_wins, cell, first = 0
        cdef int n = 0, i, j, col, s
        cdef int score[WIDTH]
        cdef int cols[WIDTH]
        cdef int threats[8]
        if self.c.result != UNDECIDED:
            return 0
        moves = playable(self.c.mask)
        threat_counts(self.c.cur, self.c.mask, moves, threats)
        mine_wins = winning_cells(self.c.cur, self.c.mask)
        their_wins = winning_cells(self.c.cur ^ self.c.mask, self.c.mask)
        if moves & mine_wins:
            first = moves & mine_wins
        elif moves & their_wins:
            first = moves & their_wins
        for i in range(WIDTH):
            col = CENTRE_ORDER[i]
            cell = moves & column_mask(col)
            if not cell:
                continue
            if cell & first:
                s = 1000
            elif (cell << 1) & their_wins:
                s = -1000                     # the opponent wins on top of this stone
            else:
                s = threats[col]
            n = insert_by_rank(score, cols, n, s, col)   # equal scores keep the centre order
        for j in range(n):
            out[j] = cols[j]
        return n

    cdef void play(self, int move) noexcept nogil:
        self.hist[self.c.n] = <int8_t>move
        core_play(&self.c, move)

    cdef int search_moves(self, int* out, int* soon) noexcept nogil:
        # A proof needs only these: a win now, alone; else the moves that do not let the
        # opponent win at once (the block of their win now, if they have one, and never a
        # stone under a cell where they would complete four), by the threats they make
        # (by_threats); none such is a loss in two.  (What a dedicated solver calls
        # non-losing moves.)
        cdef uint64_t cells = search_cells(&self.c, soon)
        if soon[0] == SOON_QUIET or soon[0] == SOON_DRAW:
            return by_threats(&self.c, cells, out)
        if soon[0] == SOON_LOSS:
            return self.legal_moves(out)
        return columns_of(cells, out)

    cdef int search_moves_unordered(self, int* out, int* soon) noexcept nogil:
        # search_moves's cells, column by column from the left (the order, by_threats,
        # costs as much as finding them: a proof orders only where its table does not
        # settle the node)
        return columns_of(search_cells(&self.c, soon), out)

    cdef void order_search_moves(self, int* moves, int n, int soon) noexcept nogil:
        cdef uint64_t cells = 0, free_cells = playable(self.c.mask)
        cdef int i
        if soon == SOON_LOSS:
            self.legal_moves(moves)
            return
        if soon != SOON_QUIET and soon != SOON_DRAW:
            return                        # a win now, or none: one move or none
        for i in range(n):
            cells |= free_cells & column_mask(moves[i])
        by_threats(&self.c, cells, moves)

    cdef int plies_bound(self) noexcept nogil:
        # the board fills after the cells left are played
        return CELLS - self.c.n

    cdef bint wins_on_own_move(self) noexcept nogil:
        # a four is completed by the stone just dropped
        return True

    cdef double evaluate(self, int player) noexcept nogil:
        # Threats decide Connect Four: a logistic model of the result on both players'
        # threat features (c4_features), weights fitted from self-play by
        # `roost tune connect4` (EVALUATION).
        cdef double f[2][N_FEATURES]
        if self.c.result != UNDECIDED:
            if self.c.result == DRAWN:
                return 0.5
            return 1.0 if self.c.result == player else 0.0
        c4_features(&self.c, 0, f[0])
        c4_features(&self.c, 1, f[1])
        return two_player_share(EVAL_W[2], f[0], f[1], N_FEATURES, player)

    def eval_features(self, int player):
        """The evaluation's features of ``player`` here (EVALUATION.features names them)."""
        cdef double f[N_FEATURES]
        c4_features(&self.c, player, f)
        return [f[i] for i in range(N_FEATURES)]

    cdef int playout(self, Rng* rng, int max_plies) noexcept nogil:
        # A uniformly random column is the k-th free cell of the playable mask.
        cdef int plies = 0
        cdef uint64_t moves, cell
        while plies < max_plies and self.c.result == UNDECIDED:
            moves = playable(self.c.mask)
            cell = pdep(<uint64_t>1 << rng_below(rng, popcount(moves)), moves)
            self.play(lsb(cell) // STRIDE)
            plies += 1
        return plies

    cdef unsigned long long perft_native(self, int depth) noexcept:
        if depth == 0:
            return 1
        if self.c.result != UNDECIDED:
            return 0
        return perft_bits(self.c.cur, self.c.mask, depth)

    # ---------------------------------------------------------------- Python API
    @classmethod
    def start(cls, players=2, seed=None):
        """The empty board, the first player to move."""
        if players not in (None, 2):
            raise GameError(f"Connect Four is a two-player game (asked for {players} players)")
        return cls.__new__(cls)

    @classmethod
    def parse(cls, text):
        """Parse the columns played (``4453``; ``-`` for the empty board; spaces ignored)."""
        cdef Connect4 s = cls.__new__(cls)
        cdef int col
        if not isinstance(text, str):
            raise PositionError("a Connect Four position must be text")
        moves = "".join(text.split())
        if moves in ("-", ""):
            if not text.strip():
                raise PositionError("a Connect Four position is the columns played (e.g. 4453), "
                                    "or - for the empty board")
            return s
        for i, ch in enumerate(moves):
            if ch not in "1234567":
                raise PositionError(f"{ch!r} (character {i + 1} of {moves!r}) is not a column 1..7")
            if s.c.result != UNDECIDED:
                raise PositionError(f"the game ended at move {i} ({_verdict(s.c.result)}); "
                                    f"{moves[i:]!r} cannot follow")
            col = ord(ch) - ord("1")
            if not playable(s.c.mask) & column_mask(col):
                raise PositionError(f"move {i + 1} drops into column {ch}, which is full")
            s.play(col)
        return s

    def text(self):
        if self.c.n == 0:
            return "-"
        return "".join(chr(ord("1") + self.hist[i]) for i in range(self.c.n))

    def ending(self):
        """Why the game ended: ``four`` (four in a row) or ``full`` (a draw); None while it
        goes on."""
        if self.c.result == UNDECIDED:
            return None
        if self.c.result == DRAWN:
            return {"reason": "full", "detail": "drawn: the board is full with no four in a row"}
        return {"reason": "four", "detail": f"{'XO'[self.c.result]} has four in a row"}

    def move_name(self, move):
        move = move_id(move, "Connect Four move id")     # a bool or a float is no move id
        if not 0 <= move < WIDTH:
            raise MoveError(f"{move} is not a Connect Four move id (0..6, the columns)")
        return str(move + 1)

    def parse_move(self, name):
        s = name.strip() if isinstance(name, str) else ""   # (a typed str took None)
        if len(s) != 1 or s not in "1234567":
            raise MoveError(f"{name!r} is not a Connect Four move (a column 1..7)")
        return int(s) - 1

    @property
    def stones(self):
        """Stones played so far."""
        return self.c.n

    def cell(self, int col, int row):
        """0 or 1 (the player whose stone is there) or None, for column 0..6 and row 0..5
        (row 0 at the bottom)."""
        if not (0 <= col < WIDTH and 0 <= row < HEIGHT):
            raise MoveError(f"no cell at column {col}, row {row}")
        cdef uint64_t bit = <uint64_t>1 << (STRIDE * col + row)
        if not self.c.mask & bit:
            return None
        return (self.c.n & 1) if self.c.cur & bit else 1 - (self.c.n & 1)

    def solver_score(self, proven, int plies=0):
        """The exact value in the convention of Pascal Pons' solver (the calibration data's;
        docs/rules/connect4.md §9):
        0 a draw; s > 0 the player to move wins, placing the winning stone as their own
        (22 - s)-th stone against best defence; -s the opponent wins with their own
        (22 - s)-th.  ``proven`` is "win", "loss" or "draw" for the player to move and
        ``plies`` the distance to the end of the game in plies (a win in 1 is the move that
        wins)."""
        if proven == "draw":
            return 0
        half = CELLS // 2 + 1
        if proven == "win":
            if plies < 1 or plies % 2 != 1:
                raise ValueError(f"a win comes on the winner's move: an odd distance, not {plies}")
            return half - (self.c.n // 2 + (plies + 1) // 2)
        if proven == "loss":
            if plies < 2 or plies % 2 != 0:
                raise ValueError(f"a loss comes on the opponent's move: an even distance, not {plies}")
            return -(half - ((self.c.n + 1) // 2 + plies // 2))
        raise ValueError(f"proven must be win, loss or draw, not {proven!r}")

    def render(self, observer=None):
        """The board, top row first: ``X`` the first player, ``O`` the second, ``.`` empty."""
        lines = []
        for row in range(HEIGHT - 1, -1, -1):
            cells = []
            for col in range(WIDTH):
                who = self.cell(col, row)
                cells.append("." if who is None else "XO"[who])
            lines.append(" ".join(cells))
        lines.append(" ".join(str(c + 1) for c in range(WIDTH)))
        if self.c.result != UNDECIDED:
            lines.append(_verdict(self.c.result).capitalize())
        else:
            lines.append(f"{'XO'[self.c.n & 1]} (player {self.c.n & 1}) to move; {self.c.n} stones played")
        return "\n".join(lines)


def _verdict(int result):
    if result == DRAWN:
        return "a draw"
    return f"{'XO'[result]} (player {result}) has won"
