"""The frame machine.  ``gen`` looks at the top frame: an automatic step (end of turn, a row
activation moving left, a power with no decision, a pink queue, a chance event) is applied
on the spot and the loop goes on; a decision writes its legal moves (ascending) and returns
how many.  ``settle`` then applies single-move nodes (§7.1: forced moves collapse), so every
position the engine shows is a decision node with at least two moves, or the end.  Chance
is resolved inside from the position's own RNG (§6.2, §7.1)."""
from libc.stdint cimport uint64_t

from roost.core.rng cimport Rng, rng_below
from roost.core.state cimport MAX_MOVES
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Frame, Player, pop
from roost.core.wingspan.setup cimport setup_gen, setup_apply
from roost.core.wingspan.turn cimport (
    act_gen, act_apply, play_gen, play_apply, mat_gen, mat_apply, row_gen, pink_gen, turn_end,
    eot_gen, eot_apply, round_end_gen)
from roost.core.wingspan.powers cimport pow_gen, pow_apply


cdef int gen(Core* c, int* out) noexcept nogil:
    """Runs automatic steps until a decision node; writes its moves, returns how many
    (0 when the game is over)."""
    cdef int r, guard = 0
    cdef Frame* F
    while True:
        if c.phase == PH_OVER:
            return 0
        if c.nst == 0:
            c.phase = PH_OVER
            return 0
        F = &c.st[c.nst - 1]
        if F.f == FR_SETUP:
            return setup_gen(c, F, out)
        elif F.f == FR_ACT:
            return act_gen(c, F, out)
        elif F.f == FR_TURN:
            r = turn_end(c, F)
        elif F.f == FR_PLAY:
            r = play_gen(c, F, out)
        elif F.f == FR_MAT:
            r = mat_gen(c, F, out)
        elif F.f == FR_ROW:
            r = row_gen(c, F)
        elif F.f == FR_POW:
            r = pow_gen(c, F, out)
        elif F.f == FR_PINK:
            r = pink_gen(c, F)
        elif F.f == FR_EOT:
            r = eot_gen(c, F, out)
        elif F.f == FR_ROUND_END:
            r = round_end_gen(c)
        else:
            pop(c)
            r = 0
        if r > 0:
            return r
        guard += 1
        if guard > 10000000:
            c.bad = 1
            c.phase = PH_OVER
            return 0


cdef void apply(Core* c, int m) noexcept nogil:
    """Applies move m at the decision node ``gen`` last found."""
    cdef Frame* F
    if c.nst == 0:
        return
    F = &c.st[c.nst - 1]
    if F.f == FR_SETUP:
        setup_apply(c, F, m)
    elif F.f == FR_ACT:
        act_apply(c, F, m)
    elif F.f == FR_PLAY:
        play_apply(c, F, m)
    elif F.f == FR_MAT:
        mat_apply(c, F, m)
    elif F.f == FR_POW:
        pow_apply(c, F, m)
    elif F.f == FR_EOT:
        eot_apply(c, F, m)


cdef int settle(Core* c, int* buf) noexcept nogil:
    """Forced moves collapse (§7.1): returns the number of moves at the node reached."""
    cdef int n
    while True:
        n = gen(c, buf)
        if n != 1:
            return n
        apply(c, buf[0])


cdef int playout(Core* c, Rng* rng, int max_plies) noexcept nogil:
    cdef int moves[MAX_MOVES]
    cdef int plies = 0, n
    while plies < max_plies:
        n = gen(c, moves)
        if n == 0:
            break
        if n == 1:
            apply(c, moves[0])
        else:
            apply(c, moves[rng_below(rng, n)])
            plies += 1
    return plies


cdef int finish_turn(Core* c, Rng* rng) noexcept nogil:
    """Plays random moves to the next turn's first decision (or the end); the plies played.
    A turn is several decisions (an action, then its bird, food, eggs, powers): the
    evaluation of a position left in the middle of one counts the action cube as spent
    and what it pays for (a bird, food, eggs, cards) as not yet had."""
    cdef int moves[MAX_MOVES]
    cdef int plies = 0, n
    while True:
        n = gen(c, moves)
        if n == 0 or c.st[c.nst - 1].f == FR_ACT:
            return plies
        if n == 1:
            apply(c, moves[0])
        else:
            apply(c, moves[rng_below(rng, n)])
            plies += 1


# ---------------------------------------------------------------------------- the key
cdef inline uint64_t mix(uint64_t h, uint64_t v) noexcept nogil:
    h = (h ^ v) * <uint64_t>0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29)


cdef uint64_t core_key(Core* c) noexcept nogil:
    """A hash of the whole position except the RNG (future chance) and the formation
    history (which only the determinization reads)."""
    cdef uint64_t h = ZK[0]
    cdef int i, p, s, t, r
    cdef Player* P
    cdef unsigned short* w
    h = mix(h, c.n | (c.side << 4) | (c.phase << 8) | (c.round << 12) | (c.first << 16)
            | (<uint64_t>c.t << 20) | (<uint64_t>c.cur << 32) | (<uint64_t>c.nscored << 40))
    for i in range(4):
        h = mix(h, c.goals[i])
    for r in range(c.nscored):
        for p in range(c.n):
            h = mix(h, c.goal_pts[r][p])
    for i in range(NB):
        h = mix(h, c.cloc[i] | (c.cown[i] << 8) | (c.cslot[i] << 16) | (c.ctag[i] << 24)
                | (<uint64_t>c.ctk[i] << 32) | (<uint64_t>i << 40))
    h = mix(h, ZK[1] + c.ndeck)
    for i in range(c.ndeck):
        h = mix(h, c.deck[i] + 256 * i)
    h = mix(h, ZK[2] + c.ndisc)
    for i in range(c.ndisc):
        h = mix(h, c.disc[i] + 256 * i)
    h = mix(h, c.depoch | (c.nforms << 16) | (<uint64_t>c.formlen << 32))
    for i in range(3):
        h = mix(h, c.tray[i] + 1024 * i)
    h = mix(h, ZK[3] + c.ndraft)
    for i in range(c.ndraft):
        h = mix(h, c.draft[i])
    for i in range(6):
        h = mix(h, c.fd[i] + 16 * i)
    for i in range(NBON):
        h = mix(h, c.bloc[i] | (c.bown[i] << 8) | (c.btag[i] << 16) | (<uint64_t>i << 24))
    h = mix(h, ZK[4] + c.nbdeck + (c.nbdisc << 8) + (c.bepoch << 16) + (<uint64_t>c.bflen << 24))
    for i in range(c.nbdeck):
        h = mix(h, c.bdeck[i] + 256 * i)
    for i in range(c.nbdisc):
        h = mix(h, c.bdisc[i] + 256 * i + 65536)
    for p in range(c.n):
        P = &c.pl[p]
        h = mix(h, ZK[5 + p])
        h = mix(h, P.hand[0])
        h = mix(h, P.hand[1])
        h = mix(h, P.hand[2])
        for t in range(5):
            h = mix(h, P.food[t] + (t << 16) + (<uint64_t>P.sfood[t] << 24))
        h = mix(h, P.cubes | (P.pink_used << 8) | (<uint64_t>P.owe << 24) | (<uint64_t>(P.skeep & 0xFF) << 40)
                | (<uint64_t>(P.sbonus + 1) << 48))
        for s in range(15):
            if P.bird[s] >= 0:
                h = mix(h, (P.bird[s] + 1) | (s << 8) | (P.egg[s] << 16) | (<uint64_t>P.ntuck[s] << 24))
                for t in range(5):
                    if P.cache[s][t]:
                        h = mix(h, P.cache[s][t] + (t << 16) + (s << 20))
    h = mix(h, ZK[10] + c.nst)
    for i in range(c.nst):
        w = <unsigned short*>&c.st[i]
        for t in range(<int>(sizeof(Frame) // 2)):
            if w[t]:
                h = mix(h, w[t] | (t << 16) | (<uint64_t>i << 24))
    return h
