# A turn (§3, §4, §5.1): the action, playing a bird, the mat steps, row activation, pink
# reaction queues, the end of the turn and of the round.
from roost.core.wingspan.state cimport Core, Frame

cdef void push_pink(Core* c, int ev, int hab) noexcept nogil
cdef int act_gen(Core* c, Frame* F, int* out) noexcept nogil
cdef void act_apply(Core* c, Frame* F, int m) noexcept nogil
cdef int play_gen(Core* c, Frame* F, int* out) noexcept nogil
cdef void play_apply(Core* c, Frame* F, int m) noexcept nogil
cdef int mat_gen(Core* c, Frame* F, int* out) noexcept nogil
cdef void mat_apply(Core* c, Frame* F, int m) noexcept nogil
cdef int row_gen(Core* c, Frame* F) noexcept nogil
cdef int pink_gen(Core* c, Frame* F) noexcept nogil
cdef int turn_end(Core* c, Frame* F) noexcept nogil
cdef int eot_gen(Core* c, Frame* F, int* out) noexcept nogil
cdef void eot_apply(Core* c, Frame* F, int m) noexcept nogil
cdef int round_end_gen(Core* c) noexcept nogil
