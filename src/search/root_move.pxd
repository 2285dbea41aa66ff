# One root move as a searcher saw it: the per-move value type of every search's report,
# made in C at the search's end (a report holds one for each root move).
cdef class RootMove:
    cdef public int move
    cdef public double value           # the mover's expected result after it
    cdef public long long visits       # MCTS visits, PIMC votes (0 for alpha-beta)
    cdef public str proven             # MCTS: "win", "loss", "draw" when proven for the mover
    cdef list _values                  # every player's expected result (MCTS)
    cdef list _pv                      # MCTS: the most visited line from it (ids)
                                       # (None for an empty one, made when it is read: an
                                       # alpha-beta report has neither)
    cdef double _score                 # alpha-beta: its score (`score`: None for the others,
    cdef bint scored                   # which have none)
    cdef public bint exact             # alpha-beta: False where a null window bounded it from above

cdef RootMove root_move(int move, double value, long long visits, str proven, list values,
                        list pv, double score, bint scored, bint exact)
