# What an MCTS search reports, read from its node store.
from roost.search.nodes cimport NodeStore

cdef object search_report(NodeStore store, int root, list kids, list values, bint solving,
                          int me, long long iterations, double seconds, long long nodes,
                          long long playout_plies, int threads, long long memory)
cdef tuple root_moves(NodeStore store, list kids, list values, bint solving, int me)
cdef list line_from(NodeStore store, int node)
cdef str proven_name(bint solving, int proven, int player)
cdef list chance_node_widths(NodeStore store, int root)
cdef dict tree_rows(NodeStore store, int root)
