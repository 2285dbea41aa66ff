"""What one Feed the Ducks crumb decides, worked out by playing it (docs/rules/ducks.md §6.2),
and seeded random play-phase positions to check it on; shared by the search_moves tests and
the decisive playout tests."""
import random

from roost.core.ducks import Ducks


def crumb_result(state, move):
    """'win', 'loss' or None: what the crumb on `move` decides for its mover (a repetition or
    the cap is a draw, decided but neither)."""
    child = state.copy()
    child.play_move(move)
    if not child.is_over:
        return None
    mine = child.result()[state.player]
    return "win" if mine == 1.0 else "loss" if mine == 0.0 else None


def ducks_positions(count, seed):
    """Play-phase positions of seeded uniformly random games: every one from the first crumb
    on, until a game ends (its last position has a move that ends it)."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        s = Ducks.start(seed=rnd.randrange(1 << 30))
        while not s.is_over and len(out) < count:
            if s.phase == "play":
                out.append(s.copy())
            s.play_move(rnd.choice(s.legal()))
    return out
