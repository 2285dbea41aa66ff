# Time and Ctrl-C for the searchers' budgets.
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from "Python.h":
    # declared without Cython's automatic exception propagation, so that a search can
    # notice Ctrl-C, clear it and stop cleanly with what it has
    int PyErr_CheckSignals() noexcept
    void PyErr_Clear() noexcept


cdef inline double now() noexcept nogil:
    """Monotonic seconds."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint interrupted() noexcept:
    """True once if Ctrl-C arrived since the last call (the pending KeyboardInterrupt is
    cleared: the caller reports the interruption itself)."""
    if PyErr_CheckSignals() != 0:
        PyErr_Clear()
        return True
    return False
