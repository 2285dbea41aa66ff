"""Connect Four's immediate threats worked out by playing the moves (docs/rules/connect4.md
§4, not the engine's bitboards), and seeded random positions to check them on; shared by the
rules tests and the search_moves tests."""
import random

from roost.core.connect4 import Connect4


def wins_at_once(state, move):
    """`move` ends the game with the mover winning."""
    child = state.copy()
    child.play_move(move)
    return child.is_over and child.result()[state.player] == 1.0


def loses_at_once(state, move):
    """After `move` the opponent has a move that wins."""
    child = state.copy()
    child.play_move(move)
    return not child.is_over and any(wins_at_once(child, reply) for reply in child.legal())


def random_positions(count, seed, plies=(3, 41)):
    """`count` positions, each after a seeded random number of uniform moves in
    range(*plies), or the last before a game-ending move."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        s = Connect4.start()
        for _ in range(rnd.randrange(*plies)):
            t = s.copy()
            t.play_move(rnd.choice(t.legal()))
            if t.is_over:
                break
            s = t
        out.append(s)
    return out
