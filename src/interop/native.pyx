"""Native helpers for the bridges: what the Python-facing State API does not expose, read
through the contract in one pass (a Tweeeet row has 80,640 outcomes: a list of Python
tuples for each chance node would dominate a bridged game's speed)."""
import numpy as np

from libc.stdint cimport uint64_t
from roost.core.state cimport State, CHANCE, HIDDEN, OVER, MAX_OUTCOMES, SOON_UNKNOWN

# outcome buffers are shared: every call fills them and copies out what it needs
cdef int _ids[MAX_OUTCOMES]
cdef double _probs[MAX_OUTCOMES]


def chance_table(State state):
    """The outcomes of a chance node as two arrays sorted by outcome id: ids (int64) and
    their probabilities (float64).  Empty arrays where chance does not act."""
    cdef int n, i
    if state.over() or state.to_move() != CHANCE:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    n = state.chance_outcomes(_ids, _probs)
    ids = np.empty(n, np.int64)
    probs = np.empty(n, np.float64)
    cdef long long[::1] iv = ids
    cdef double[::1] pv = probs
    for i in range(n):
        iv[i] = _ids[i]
        pv[i] = _probs[i]
    order = np.argsort(ids, kind="stable")
    return ids[order], probs[order]


def observe(State state, int move, int observer):
    """What seat ``observer`` sees of ``move`` (a move or chance outcome) played in
    ``state``: the id, or None where the action is hidden from that seat."""
    cdef int seen = state.observe(move, observer)
    return None if seen == HIDDEN else seen


def chance_count(State state):
    """How many outcomes the chance node at ``state`` has at most (0 where chance does not
    act): enough to decide whether its outcomes need the table at all."""
    if state.over() or state.to_move() != CHANCE:
        return 0
    return state.chance_count()


def search_moves(State state):
    """What a proof searches at ``state`` (State.search_moves): the moves, in order, and what
    the game knows of the next two plies ("unknown", "win", "loss", "quiet" or "draw")."""
    cdef int n, i, soon = SOON_UNKNOWN
    cdef int* out = _ids
    n = state.search_moves(out, &soon)
    return [out[i] for i in range(n)], ("unknown", "win", "loss", "quiet", "draw")[soon]


def search_moves_in_two_steps(State state):
    """search_moves as a proof takes them where its table may settle the node first:
    State.search_moves_unordered, then State.order_search_moves; (the unordered moves, the
    ordered ones, what the game knows of the next two plies) as search_moves says it."""
    cdef int n, i, soon = SOON_UNKNOWN
    cdef int* out = _ids
    n = state.search_moves_unordered(out, &soon)
    unordered = [out[i] for i in range(n)]
    state.order_search_moves(out, n, soon)
    return unordered, [out[i] for i in range(n)], ("unknown", "win", "loss", "quiet", "draw")[soon]


def key_after(State state, int move):
    """The key of the position after ``move`` as State.key_after gives it without playing
    the move, or None where the game does not give it."""
    cdef uint64_t key
    if not state.key_after(move, &key):
        return None
    return key


def keys_after(State state, moves):
    """The keys after each of ``moves`` as State.keys_after gives them in one call: as many
    as the game gives, from the first."""
    cdef int i, n = len(moves)
    cdef uint64_t keys[64]
    if n > 64:
        raise ValueError("at most 64 moves")
    for i in range(n):
        _ids[i] = moves[i]
    n = state.keys_after(_ids, n, keys)
    return [keys[i] for i in range(n)]


def played(State state, int move, State into):
    """``into`` (a position of the same game and player count) made the position ``move``
    makes from ``state``, as a search makes its scratch child (State.assign_played), and
    the mover assign_played says it has: a player, "chance" or "over"."""
    cdef int mover = into.assign_played(state, move)
    return into, ("over" if mover == OVER else "chance" if mover == CHANCE else mover)


def wins_on_own_move(State state):
    """State.wins_on_own_move: whether the game says its mover wins only on its own moves
    (and loses only on the opponent's)."""
    return bool(state.wins_on_own_move())
