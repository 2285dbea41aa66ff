"""The ``random`` engine kind: uniformly random legal moves (a baseline, and fast games for
tournament tests); at a chance node an outcome drawn by its probability."""
import random

from roost.search.engine import Engine
from roost.search.result import SearchResult


class RandomEngine(Engine):
    """Uniformly random legal moves; at a chance node an outcome drawn by its probability."""
    kind = "random"
    summary = "uniformly random legal moves"

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        self._check_playable(state, seed, observer)
        rnd = random.Random(seed)
        if state.is_chance:
            m = state.sample(rnd.getrandbits(63))
        else:
            m = rnd.choice(state.legal())
        return SearchResult(engine=str(self.spec), move=m, move_name=state.move_name(m),
                            player=state.player, value=0.5, score="random", pv=[state.move_name(m)])
