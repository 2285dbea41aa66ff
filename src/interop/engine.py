"""The ``openspiel`` engine kind: OpenSpiel's bots playing in roost's arena.

``openspiel:mcts,sims=1000`` is OpenSpiel's MCTS bot (UCT with random rollouts and
MCTS-Solver backups, OpenSpiel's defaults).  On ``connect4`` it is OpenSpiel's C++
``MCTSBot`` on OpenSpiel's own ``connect_four``: the same game implemented by other people,
so a match rates roost against OpenSpiel directly.  On every other game it is OpenSpiel's
Python MCTS on the bridged game (``roost.interop.openspiel``), as OpenSpiel's C++ bot
crashes on games written in Python (docs/openspiel.md).  On a hidden-information game the
bot searches one world drawn by roost's determinization from the mover's information: it
never reads what the mover cannot see.

OpenSpiel is imported when the engine first plays, so specs parse without it installed.
The kind registers itself with the engine registry when this module is imported (the arena
and the command line import it).
"""
import time

from roost.core.errors import EngineSpecError
from roost.search.engine import Engine
from roost.search.engines import register_engine
from roost.search.result import MoveStat, SearchResult
from roost.search.spec import Param, format_value

# roost games that OpenSpiel implements itself: roost name -> (OpenSpiel name, how a
# roost position becomes OpenSpiel actions from the start)
NATIVE = {"connect4": ("connect_four", lambda state: [int(c) - 1 for c in state.text().strip("-")])}


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise EngineSpecError("the openspiel engine needs OpenSpiel: pip install \"roost[openspiel]\"") from None
    return pyspiel


class OpenSpielEngine(Engine):
    """OpenSpiel's MCTS bot (see the module docstring)."""
    kind = "openspiel"
    summary = ("OpenSpiel's MCTS bot: C++ on connect4 (OpenSpiel's connect_four), Python "
               "through the bridge elsewhere (needs the openspiel extra)")
    positional = "bot"
    params = (
        Param("bot", str, "mcts", "the OpenSpiel bot (written first: openspiel:mcts,sims=1000)",
              choices=("mcts", "random")),
        Param("sims", int, 0, "simulations per move (default 1000 when no time is set)", 1),
        Param("time", float, 0.0, "seconds per move (OpenSpiel's C++ bot only: connect4)", 0.0),
        Param("c", float, 2.0, "UCT exploration constant (OpenSpiel's default)", 0.0),
        Param("rollouts", int, 1, "random rollouts per evaluated leaf", 1),
        Param("solve", bool, True, "MCTS-Solver: back up proven wins and losses"),
        Param("memory", int, 1000, "tree memory cap in MB (OpenSpiel's C++ bot)", 1),
    )

    # a clock's allotment (the arena's time manager, `go clock` in `roost engine`) and a
    # node budget reach the bot: time on connect4 (the C++ bot's limit), sims everywhere
    budget = {"time": "time", "nodes": "sims"}
    any_seat = False

    def __init__(self, spec=None):
        super().__init__(spec)
        self._games = {}

    @classmethod
    def spec_text(cls, spec):
        """The bot first, always: ``openspiel:mcts,sims=100``."""
        rest = [f"{p.name}={format_value(spec[p.name])}" for p in cls.params[1:]
                if spec[p.name] != p.default]
        return f"{cls.kind}:" + ",".join([spec["bot"], *rest])

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        t0 = time.perf_counter()
        name = type(state).name
        self._check_playable(state, seed, observer)
        seed &= 0x7FFFFFFF
        s = self.spec.within(limit, state)
        if s["bot"] == "random":
            import random
            m = random.Random(seed).choice(state.legal())
            return SearchResult(engine=str(self.spec), move=m, move_name=state.move_name(m),
                                player=state.player, value=0.5, score="random",
                                pv=[state.move_name(m)], seconds=time.perf_counter() - t0)
        if name in NATIVE:
            root, best, info = self._native_search(name, state, seed, s)
        else:
            root, best, info = self._bridged_search(name, state, seed, s)
        n = state.players
        # OpenSpiel's returns: -1 a loss, +1 a win (the bridge's n * r - 1 for n players)
        value = (best.total_reward / best.explore_count + 1.0) / n if best.explore_count else 1.0 / n
        stats = sorted(root.children, key=lambda ch: -ch.explore_count)
        moves = [MoveStat(move=ch.action, name=state.move_name(ch.action), visits=ch.explore_count,
                          value=(ch.total_reward / ch.explore_count + 1.0) / n if ch.explore_count else None)
                 for ch in stats]
        proven = ""
        if best.outcome is not None and len(best.outcome):
            mine = best.outcome[state.player]
            proven = "win" if mine >= n - 1 - 1e-9 else "loss" if mine <= -1 + 1e-9 else ""
        return SearchResult(
            engine=str(self.spec), move=best.action, move_name=state.move_name(best.action),
            player=state.player, value=min(1.0, max(0.0, value)), score=f"{value:.3f}",
            pv=[state.move_name(best.action)], nodes=root.explore_count,
            iterations=root.explore_count, seconds=time.perf_counter() - t0, proven=proven,
            expectation=not proven, stats=moves, info=info)

    @staticmethod
    def _sims(s):
        return s["sims"] or (1_000_000_000 if s["time"] else 1000)

    def _native_search(self, name, state, seed, s):
        pyspiel = _pyspiel()
        os_name, to_actions = NATIVE[name]
        if os_name not in self._games:
            self._games[os_name] = pyspiel.load_game(os_name)
        game = self._games[os_name]
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(s["rollouts"], seed), s["c"],
                              self._sims(s), s["memory"], s["solve"], seed, False,
                              pyspiel.ChildSelectionPolicy.UCT, s["time"] or -1.0)
        os_state = game.new_initial_state()
        for a in to_actions(state):
            os_state.apply_action(a)
        root = bot.mcts_search(os_state)
        return root, root.best_child(), {"openspiel": f"{os_name} (C++ MCTSBot)"}

    def _bridged_search(self, name, state, seed, s):
        import numpy as np
        if self.spec["time"]:
            raise EngineSpecError(f"openspiel: time= needs OpenSpiel's C++ bot, which plays "
                                  f"{', '.join(NATIVE)} only; use sims= on {name}")
        _pyspiel()
        from open_spiel.python.algorithms import mcts
        from roost.interop import openspiel as bridge
        key = (name, state.players)
        if key not in self._games:
            self._games[key] = bridge.load(name, players=state.players)
        game = self._games[key]
        info = {"openspiel": f"{bridge.game_name(game.info)} (Python MCTSBot)"}
        root_state = state
        if state.hidden_info:
            root_state = state.determinized(state.player, seed)
            info["determinized"] = True
        # OpenSpiel's Python bot has no time limit: a clock's allotment is not its budget
        # here (it plays its sims)
        sims = s["sims"] or 1000
        rng = np.random.RandomState(seed)
        bot = mcts.MCTSBot(game, s["c"], sims, mcts.RandomRolloutEvaluator(s["rollouts"], rng),
                           solve=s["solve"], random_state=rng)
        root = bot.mcts_search(game.state_from(root_state))
        return root, root.best_child(), info


register_engine(OpenSpielEngine)
