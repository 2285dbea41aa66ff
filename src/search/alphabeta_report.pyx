"""What an alpha-beta search reports: its principal variation (completed from the table
where a table hit cut it short), each root move's score, and scores read for people."""
from libc.math cimport fabs
from roost.core.state cimport CHANCE, MAX_MOVES
from roost.search.score cimport MATE, MATE_BOUND
from roost.search.tt cimport TTData


cdef list complete_pv(TranspositionTable table, State root, list pv, int depth):
    """The search's PV, continued from the table where a table hit cut it short."""
    cdef State s = root.clone()
    cdef int moves[MAX_MOVES]
    cdef int n, i, m
    cdef TTData hit
    cdef list seen = []
    for m in pv:
        s.play(m)
        seen.append(s.key())
    while len(pv) < depth and not s.over() and s.to_move() != CHANCE:
        if not table.probe(s.key(), &hit):
            break
        m = hit.move
        n = s.legal_moves(moves)
        for i in range(n):
            if moves[i] == m:
                break
        else:
            break
        s.play(m)
        if s.key() in seen:
            break
        seen.append(s.key())
        pv.append(m)
    return pv


cdef list current_line(Negamax w):
    """The line of w's last root search, as far as it goes."""
    return [w.pv[0][i] for i in range(w.pv_len[0])]


cdef list current_root_scores(Negamax w):
    """(move, score, exact) of each root move w's last root search scored."""
    return [(w.root_move[i], w.root_val[i], w.root_exact[i]) for i in range(w.root_n)]


cdef list kept_line(Iteration* it):
    return [it.pv[i] for i in range(it.pv_len)]


cdef list kept_root_scores(Iteration* it):
    return [(it.root_move[i], it.root_val[i], it.root_exact[i]) for i in range(it.root_n)]


def score_to_value(double score):
    """A score (player to move's view) as an expected result in [0, 1]."""
    if score > MATE_BOUND:
        return 1.0
    if score < -MATE_BOUND:
        return 0.0
    return min(1.0, max(0.0, 0.5 + 0.5 * score / MATE))


def score_text(double score):
    """'win in 5' / 'loss in 4' (plies) for proven scores, else the advantage in [-1, 1]
    ('+0.231' = an expected result of 0.6155)."""
    if score > MATE_BOUND:
        return f"win in {int(round(MATE - score))}"
    if score < -MATE_BOUND:
        return f"loss in {int(round(MATE + score))}"
    return f"{score / MATE:+.3f}"


def is_mate(double score):
    return fabs(score) > MATE_BOUND
