"""Signal handlers inside native loops: see interrupt.pxd."""
from cpython.exc cimport PyErr_CheckSignals

cdef enum:
    POLL_CALLS = 1 << 8      # calls of interrupted() between two runs of the signal handlers

cdef int _countdown = POLL_CALLS
cdef bint _stop = False
cdef object _raised = None   # what a signal handler raised during the loop


cdef bint interrupted() noexcept nogil:
    global _countdown
    if _stop:
        return True
    _countdown -= 1
    if _countdown > 0:
        return False
    _countdown = POLL_CALLS
    with gil:
        _run_signal_handlers()
    return _stop


cdef void _run_signal_handlers() noexcept:
    global _stop, _raised
    try:
        PyErr_CheckSignals()
    except BaseException as e:
        _stop = True
        _raised = e


def run_interruptible(loop, *args):
    """``loop(*args)``, a native loop that polls interrupted(); if a signal handler raised
    meanwhile, that exception (KeyboardInterrupt for Ctrl-C) is raised here instead."""
    global _stop, _raised, _countdown
    _stop = False
    _raised = None
    _countdown = POLL_CALLS
    try:
        result = loop(*args)
    finally:
        stopped, raised = _stop, _raised
        _stop = False
        _raised = None
    if stopped:
        raise raised
    return result
