"""The record of a turn (record.pxd): where the current turn started and what happened since.

A move is one log byte (a move id is below 248); outcomes a replay was told follow the move
whose chance events they decided, as ``LOG_TOLD``, a 2-byte length and the script's entries
(state.pxd).  Chance drawn from the position's RNG is not logged: replaying the moves from
the start, whose RNG is recorded with it, draws it again."""
from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Script, Record, LOGCAP, LOG_TOLD


cdef bint at_start(Core* c) noexcept nogil:
    """A position where a turn starts (its action is pending), the setup starts (the deal:
    no seat has chosen yet) or the game is over: written as it is, with no moves."""
    if c.phase == PH_OVER:
        return True
    if c.phase == PH_PLAY:
        return c.nst == 2 and c.st[0].f == FR_TURN and c.st[1].f == FR_ACT
    return c.nst == 1 and c.st[0].f == FR_SETUP and c.st[0].seat == 0 and c.st[0].stage == 0 \
        and c.st[0].i == 0


cdef void record_start(Record* R, Core* c) noexcept nogil:
    R.start = c[0]
    R.start.script = NULL
    R.n = 0
    R.lost = False


cdef void record_move(Record* R, int m) noexcept nogil:
    if R.n + 1 > LOGCAP:
        R.lost = True
        return
    R.log[R.n] = m
    R.n += 1


cdef void record_told(Record* R, Script* S, int first) noexcept nogil:
    """The entries of ``S`` from ``first`` to its position: told during the last move."""
    cdef int k, size = S.pos - first
    if size <= 0:
        return
    if R.n + 3 + size > LOGCAP:
        R.lost = True
        return
    R.log[R.n] = LOG_TOLD
    R.log[R.n + 1] = size >> 8
    R.log[R.n + 2] = size & 255
    for k in range(size):
        R.log[R.n + 3 + k] = S.data[first + k]
    R.n += 3 + size
