# The evaluation's features (src/core/linear.pxd): a pair's energy and what its flying birds
# can still do.  Filled per pair from that player's point of view; the weights are fitted
# by `roost tune tweeeet` (roost.arena.tuning).
from roost.core.tweeeet.board cimport ISNEST, NEST_ROW
from roost.core.tweeeet.flights cimport best_gain
from roost.core.tweeeet.state cimport TwCore

cdef enum:
    N_FEATURES = 7


cdef inline void tweeeet_features(TwCore* c, int player, double* out) noexcept nogil:
    """0 energy, 1 best food-minus-steps gains of the flying birds (other birds ignored),
    2 rows the flying birds still have to climb, 3 flying birds with nothing in reach,
    4 the best gain of the bird to move when it is this pair's (the tempo: the bird to
    move takes its food first, which a depth-limited search otherwise only sees at odd
    or even depths), 5 to move, 6 birds in a nest."""
    cdef int b, k
    cdef bint ok
    cdef double g
    for k in range(N_FEATURES):
        out[k] = 0.0
    for b in range(player, 4, 2):
        out[0] += c.energy[b]
        if ISNEST[c.pos[b]]:
            out[6] += 1.0
            continue
        g = best_gain(c, b, &ok)
        if not ok:
            out[3] += 1.0
            continue
        out[1] += g
        out[2] += NEST_ROW - c.pos[b] // 9
        if b == c.cur:
            out[4] = g
    if (c.cur & 1) == player:
        out[5] = 1.0
