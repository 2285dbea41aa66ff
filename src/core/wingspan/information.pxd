# The information model (§6.1) and determinization (§6.4).
from roost.core.rng cimport Rng
from roost.core.wingspan.state cimport Core

cdef void determinize(Core* c, int o, Rng* rng) noexcept nogil
cdef int observe(Core* c, int move, int observer) noexcept nogil
