# Goals and scoring (§5, docs/rules/wingspan-cards.md): goal counts, round-end goal points,
# bonus cards, final scores, the search utility and the heuristic evaluation.
from roost.core.wingspan.state cimport Core

cdef int goal_count(Core* c, int p, int g) noexcept nogil
cdef void score_round(Core* c) noexcept nogil
cdef int bonus_points(Core* c, int p, int bid) noexcept nogil
cdef int score_parts(Core* c, int p, int* parts) noexcept nogil
cdef int score(Core* c, int p) noexcept nogil
cdef void final_outcome(Core* c, double* out) noexcept nogil
cdef double evaluate(Core* c, int player) noexcept nogil
