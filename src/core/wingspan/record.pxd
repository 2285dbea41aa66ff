# A position's turn so far: the position where the current turn started (the deal, during the
# setup) and what happened since, the moves played and the chance outcomes a replay was told.
# Only the positions handed to Python keep one (the searchers' copies do not), so that a
# position in the middle of a turn can be written as its turn's start and the moves since,
# and the frame stack never leaves native code.
# The struct (``Record``) is declared with ``Core`` in state.pxd.
from roost.core.wingspan.state cimport Core, Script, Record

cdef bint at_start(Core* c) noexcept nogil
cdef void record_start(Record* R, Core* c) noexcept nogil
cdef void record_move(Record* R, int m) noexcept nogil
cdef void record_told(Record* R, Script* S, int first) noexcept nogil
