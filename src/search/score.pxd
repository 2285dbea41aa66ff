# Alpha-beta's score scale, shared by its units: doubles from the point of view of the
# player to move, on one scale with the game's results, so that expectations over chance mean
# what they say.  A result r in [0, 1] scores (2r - 1) * MATE, a win found at ply p scores
# MATE - p (the distance breaks ties), and a heuristic estimate e scores (2e - 1) * MATE
# clamped inside +-EVAL_LIMIT, below every proven win.

cdef extern from *:
    """
    #define ROOST_MATE 1000000.0
    #define ROOST_MATE_BOUND 999000.0
    #define ROOST_EVAL_LIMIT 990000.0
    #define ROOST_INF 1e9
    """
    const double MATE "ROOST_MATE"
    const double MATE_BOUND "ROOST_MATE_BOUND"    # beyond it, a proven win or loss
    const double EVAL_LIMIT "ROOST_EVAL_LIMIT"    # an evaluation's bound
    const double INF "ROOST_INF"                  # beyond every score: an open window

cdef enum:
    MAX_PLY = 160                 # plies from the root a search reaches at most
    DEPTH_INF = 1000              # the depth of a result that met no horizon: exact at any depth
                                  # (above every depth a search reaches; the table keeps 10 bits)


cdef inline double to_tt(double v, int ply) noexcept nogil:
    # Mate scores are stored relative to the node so a table hit at another ply is right.
    if v > MATE_BOUND:
        return v + ply
    if v < -MATE_BOUND:
        return v - ply
    return v


cdef inline double from_tt(double v, int ply) noexcept nogil:
    if v > MATE_BOUND:
        return v - ply
    if v < -MATE_BOUND:
        return v + ply
    return v
