"""Perft of Feed the Ducks on bare bitboards (declared in perft.pxd): the play phase ignores
repetition and the ply cap, as docs/rules/ducks.md §10.1 says, so it needs no history."""
from libc.stdint cimport uint64_t

from roost.core.bits cimport popcount, lsb, clear_lsb
from roost.core.interrupt cimport interrupted
from roost.core.ducks.board cimport (init_tables, swim, gathered, crumb_targets, EDGE, DUCKS_PER_COLOUR,
                                     SETUP_PLACEMENTS)

init_tables()


cdef unsigned long long perft_play(uint64_t w, uint64_t b, int crumb, int depth) noexcept nogil:
    cdef uint64_t targets = crumb_targets(w | b, crumb)
    cdef uint64_t nw, nb
    cdef unsigned long long total = 0
    cdef int c
    if depth == 1:
        return popcount(targets)
    if interrupted():
        return 0
    while targets:
        c = lsb(targets)
        targets = clear_lsb(targets)
        nw = w
        nb = b
        swim(&nw, &nb, c)
        if gathered(nw) or gathered(nb):
            continue  # the game ends: a leaf at depth 1 only
        total += perft_play(nw, nb, c, depth - 1)
    return total


cdef unsigned long long perft_setup(uint64_t w, uint64_t b, int depth) noexcept nogil:
    cdef int nw = popcount(w), nb = popcount(b)
    cdef uint64_t free_edge
    cdef unsigned long long total = 0
    cdef int c
    if nw + nb == SETUP_PLACEMENTS:
        return perft_play(w, b, -1, depth)
    free_edge = EDGE & ~(w | b)
    if depth == 1:
        return popcount(free_edge) * ((nw < DUCKS_PER_COLOUR) + (nb < DUCKS_PER_COLOUR))
    if interrupted():
        return 0
    while free_edge:
        c = lsb(free_edge)
        free_edge = clear_lsb(free_edge)
        if nw < DUCKS_PER_COLOUR:
            total += perft_setup(w | (<uint64_t>1 << c), b, depth - 1)
        if nb < DUCKS_PER_COLOUR:
            total += perft_setup(w, b | (<uint64_t>1 << c), depth - 1)
    return total
