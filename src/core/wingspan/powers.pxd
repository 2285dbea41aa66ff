# Bird powers (§9): the interpreter of the per-bird programs that tables.pyx compiles from
# the power DSL.  pow_gen runs a POW frame up to its next decision; pow_apply applies a move
# at that decision.
from roost.core.wingspan.state cimport Core, Frame

cdef int pow_gen(Core* c, Frame* F, int* out) noexcept nogil
cdef void pow_apply(Core* c, Frame* F, int m) noexcept nogil
