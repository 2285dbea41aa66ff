# Linear evaluations whose weights are data (fitted by `roost tune`, shipped in
# src/core/data/weights/GAME.json, loaded by roost.core.weights when the game's module loads).
#
# A game computes a vector of features for each player, from that player's point of view,
# and scores it with the weights for the table's player count; its estimate of a player's
# result is that player's share of a softmax over the players' scores.  With two players
# this is the logistic function of the score difference, the model `roost tune` fits
# (conditional logistic regression of the game results on the features).
from libc.math cimport exp

cdef enum:
    MAX_FEATURES = 24
    WEIGHT_ROWS = 6          # one row of weights per player count 0..MAX_PLAYERS


cdef inline double dot(const double* w, const double* f, int nf) noexcept nogil:
    cdef double s = 0.0
    cdef int i
    for i in range(nf):
        s += w[i] * f[i]
    return s


cdef inline double softmax_share(const double* scores, int n, int player) noexcept nogil:
    """scores[player]'s share of exp(scores) over n players, overflow-safe."""
    cdef double top = scores[0], z = 0.0
    cdef int q
    for q in range(1, n):
        if scores[q] > top:
            top = scores[q]
    for q in range(n):
        z += exp(scores[q] - top)
    return exp(scores[player] - top) / z


cdef inline double two_player_share(const double* w, const double* f0, const double* f1, int nf,
                                    int player) noexcept nogil:
    """Two players' case of softmax_share: the logistic of the score difference, for player."""
    cdef double adv = dot(w, f0, nf) - dot(w, f1, nf)
    if player == 1:
        adv = -adv
    return 1.0 / (1.0 + exp(-adv))
