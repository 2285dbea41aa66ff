# What an alpha-beta search reports, read from its threads' lines and the table.
from roost.core.state cimport State
from roost.search.tt cimport TranspositionTable
from roost.search.negamax cimport Negamax, Iteration

cdef int complete_pv(TranspositionTable table, State s, int* line, int n, int depth) noexcept
cdef int complete_proof_line(TranspositionTable table, State s, int* line, int n,
                             double score) noexcept
cdef list current_line(Negamax w)
cdef list line_list(int* line, int n)
cdef object search_report(int move, double score, bint exact, bint chance, int* line, int n_line,
                          int depth, int seldepth, long long nodes, double seconds,
                          Iteration* scores, int threads)
