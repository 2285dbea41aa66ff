# What an alpha-beta search reports, read from its threads' lines and the table.
from roost.core.state cimport State
from roost.search.tt cimport TranspositionTable
from roost.search.negamax cimport Negamax, Iteration

cdef list complete_pv(TranspositionTable table, State s, int* line, int n, int depth)
cdef list complete_proof_line(TranspositionTable table, State s, int* line, int n, double score)
cdef list current_line(Negamax w)
cdef object search_report(int move, double score, bint exact, bint chance, list pv, int depth,
                          int seldepth, long long nodes, double seconds, Iteration* scores,
                          int threads)
