"""Move ordering's memory (the scoring and picking are inline in ordering.pxd)."""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset


cdef class MoveOrder:

    def __cinit__(self):
        self.history = <int*>calloc(MAX_PLAYERS * HIST_SIZE, sizeof(int))
        self.scores = <double*>malloc(MAX_PLY * MAX_MOVES * sizeof(double))
        if self.history == NULL or self.scores == NULL:
            raise MemoryError("cannot allocate the move ordering tables")
        memset(self.killers, 0xFF, sizeof(self.killers))   # -1: no killer (0 is a move id)

    def __dealloc__(self):
        free(self.history)
        free(self.scores)

    cdef void clear(self) noexcept nogil:
        """Forget the killers and the history (a new game)."""
        memset(self.history, 0, MAX_PLAYERS * HIST_SIZE * sizeof(int))
        memset(self.killers, 0xFF, sizeof(self.killers))
