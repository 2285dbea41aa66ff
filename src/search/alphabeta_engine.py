"""The ``ab`` engine kind: alpha-beta (``roost.search.alphabeta``) behind the engine
interface; its AlphaBetaReport read as a SearchResult (``Engine.read_report``), each line
named in the analysing seat's world."""
from roost.core.errors import EngineSpecError
from roost.search import alphabeta as _ab
from roost.search.alphabeta import is_mate, score_text, score_to_value
from roost.search.engine import Engine, line_names, no_memory, observer_world
from roost.search.result import Progress
from roost.search.spec import Param


class AlphaBetaEngine(Engine):
    """PVS alpha-beta with iterative deepening (src/search/alphabeta.pyx)."""
    kind = "ab"
    summary = "alpha-beta: PVS, iterative deepening, transposition table; expectimax at chance"
    params = (
        Param("depth", int, 0, "maximum depth in plies (default 6 when no time or node limit)", 1,
              maximum=_ab.MAX_DEPTH),
        Param("time", float, 0.0, "seconds per move", 0.0, maximum=_ab.MAX_SECONDS),
        Param("nodes", int, 0, "node limit per move", 0, maximum=_ab.MAX_NODES),
        Param("tt", int, 256, "transposition table size in MB", 1, maximum=_ab.MAX_TT_MB),
        Param("eval", str, "game", "horizon evaluation: the game's heuristic, or none (0)", choices=("game", "none")),
        Param("samples", int, 8, "complete chance runs sampled where chance is not enumerated", 1,
              maximum=_ab.MAX_SAMPLES),
        Param("exact", int, 64, "chance nodes with at most this many outcomes (a run of them: "
              "this many in all) are enumerated", 1, maximum=_ab.MAX_EXACT),
        Param("star", int, 2, "chance pruning: 0 none, 1 Star1, 2 Star1 after Star2 probes", 0, maximum=2),
        Param("paranoid", bool, False, "search N-player games as everyone against the mover"),
        Param("lmr", bool, False, "late move reductions: late moves searched a ply shallower "
              "first (not in proofs)"),
        Param("threads", int, 1, "search threads (Lazy SMP: helpers share the table; with more "
              "than 1 the search is not reproducible move for move)", 1, maximum=_ab.MAX_THREADS),
    )
    budget = {"time": "time", "nodes": "nodes", "depth": "depth"}
    several_lines = True

    def __init__(self, spec=None):
        super().__init__(spec)
        self._searcher = None

    @classmethod
    def check_spec(cls, spec):
        if not _ab.can_allocate(spec["tt"] << 20):
            raise no_memory("ab", "tt", spec["tt"], "MB of transposition table")
        return spec

    def searcher(self):
        if self._searcher is None:
            s = self.spec
            try:
                self._searcher = _ab.AlphaBeta(tt_mb=s["tt"], use_eval=s["eval"] == "game",
                                           paranoid=s["paranoid"], exact_outcomes=s["exact"],
                                           samples=s["samples"], star=s["star"],
                                           threads=s["threads"], lmr=s["lmr"])
            except MemoryError:
                raise no_memory("ab", "tt", s["tt"], "MB of transposition table") from None
        return self._searcher

    def new_game(self):
        if self._searcher is not None:
            self._searcher.clear()

    @staticmethod
    def limits(s):
        """(depth, seconds, nodes) of a search with the spec ``s``."""
        depth = s["depth"] or (64 if (s["time"] or s["nodes"]) else 6)
        return depth, s["time"], s["nodes"]

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1,
               solve=False, callback=None):
        """``multipv`` > 1: also the best lines after the first (each a search of its own,
        with the first lines' moves left out at the root), in ``SearchResult.lines``.
        ``solve``: search until the value is proven (``roost solve``); ``callback(depth,
        score, pv, nodes, seconds)`` hears each depth in the searcher's own units."""
        seat = self._check_playable(state, seed, observer)
        if seat != state.player and state.players > 2:
            raise EngineSpecError(
                f"alpha-beta values a {state.players}-player position for the player to move only; "
                f"to analyse it for seat {seat} use mcts, ismcts or pimc")
        ab = self.searcher()
        ab.reseed(seed)
        root = observer_world(state, seed, seat)
        info = {"determinized": True} if state.hidden_info else {}
        depth, seconds, nodes = self.limits(self.spec.within(limit, state))
        if solve:
            depth, seconds, nodes = 10000, seconds, nodes

        def on_depth(d, score, pv, n, secs):
            if callback is not None:
                callback(d, score, pv, n, secs)
            if progress is not None:
                report = _depth_progress(root, seat, d, score, pv, n, secs)
                report.line = len(lines) + 1 if multipv > 1 else 0
                progress(report)
        lines, excluded = [], []
        result = None
        try:
            for _ in range(max(1, min(multipv, len(root.legal())))):
                r = ab.search(root, max_depth=depth, seconds=seconds, nodes=nodes, solve=solve,
                              callback=on_depth, exclude=excluded)
                if result is None:
                    result = self.read_report(r, state, root, seat, info)
                lines.append(self._line(root, seat, r))
                excluded.append(r.move)
        except _ab.SearchInterrupted as e:
            if result is None:
                raise _ab.SearchInterrupted(self.read_report(e.partial, state, root, seat, info)) from None
            result.lines = lines
            raise _ab.SearchInterrupted(result) from None
        if multipv > 1:
            result.lines = lines
        return result

    @staticmethod
    def _line(root, player, r):
        return {"move": root.move_name(r.move), "value": r.value,
                "verdict": _ab_verdict(r.score, r.exact),
                "pv": line_names(root, r.pv, player)}


def _ab_verdict(score, exact):
    """'win in 7', 'loss in 4', 'draw' for a proven alpha-beta score, else ''."""
    if is_mate(score):
        return score_text(score)
    return "draw" if exact and score == 0 else ""


def _depth_progress(root, player, depth, score, pv, nodes, seconds):
    return Progress(seconds=seconds, nodes=nodes, depth=depth, value=score_to_value(score),
                    verdict=_ab_verdict(score, False), pv=line_names(root, pv, player))
