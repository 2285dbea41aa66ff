# The bridge between the C position and plain Python values, for text.py: dump() writes
# every field of the struct, load() copies values text.py has checked back into it.
from roost.core.wingspan.state cimport Core

cdef dict dump(Core* c)
cdef void load(Core* c, dict raw) except *
