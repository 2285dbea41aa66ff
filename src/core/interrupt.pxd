# Ctrl-C inside a long native loop (perft).  Python runs its signal handlers only between
# bytecodes, so a loop in C must offer them a moment now and then: it calls interrupted() at
# every interior node; every so many calls that runs the handlers (Ctrl-C raises
# KeyboardInterrupt there), and once one has raised it returns True, so the loop unwinds at
# once with what it counted.  The caller then raises what the handler raised
# (run_interruptible in interrupt.pyx).
cdef bint interrupted() noexcept nogil
