# MCTS's enhancements in the tree: RAVE / GRAVE (all-moves-as-first statistics), implicit
# minimax and progressive bias (see enhancements.pyx).  Their per-node numbers are the node
# store's side records (nodes.pxd's Extra).
from roost.core.state cimport State
from roost.search.nodes cimport NodeStore
from roost.search.playout cimport Playout

ctypedef struct Blend:
    # the enhancements a search uses and their weights, resolved once a search
    bint heur             # children carry their evaluation (progressive bias or implicit minimax)
    bint imm              # implicit minimax backups (two players)
    bint amaf             # RAVE / GRAVE statistics and their backups
    bint any              # one of the three: selection blends (select_blended)
    double c              # the exploration constant
    double rave           # RAVE: the visits at which AMAF and the mean weigh alike
    double imm_weight     # weight of the implicit minimax value in selection
    double bias           # progressive bias: bias * heur / (visits + 1)

cdef int select_blended(NodeStore store, Blend* b, bint solving, Playout po, int node,
                        int player, int ref, const char* allowed) noexcept nogil
cdef double leaf_value(State w) noexcept nogil
cdef void evaluate_children(NodeStore store, Playout po, int first, int n, State w,
                            int player) noexcept nogil
cdef void back_up_imm(NodeStore store, int node) noexcept nogil
cdef void back_up_amaf(NodeStore store, Playout po, int node, double* out) noexcept nogil
cdef void load_reference(NodeStore store, Playout po, int ref) noexcept nogil
