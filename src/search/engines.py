"""Engine specs: ``"mcts:time=1,c=1.2"`` -> a configured searcher with one interface.

An engine is a searcher plus settings.  Every engine has (``Engine``)::

    engine.choose(state, limit, seed=0) -> SearchResult   # its move here, within a Limit
    engine.advance(move)                 # a move or chance outcome was played
    engine.new_game()                    # forget what it learnt in the last game
    engine.begin_game(game, state, seat) # a game from ``state`` with the engine in ``seat``
    engine.close()                       # end whatever it holds (a program, a worker)

``cmd:COMMAND`` is an external program speaking the engine protocol (``roost.protocol``).

>>> parse_engine("ab:depth=3").spec
'ab:depth=3'
>>> parse_engine("mcts:iters=5")
Traceback (most recent call last):
...
roost.core.errors.EngineSpecError: engine 'mcts' has no parameter 'iters'; its parameters: iterations, time, c, nodes, mem, threads, reuse, solver, widen, alpha, chance, plies, quiet, playout, epsilon, discount, imm, bias, rave, grave
"""
import abc
import math
import random as _random
import time as _time
from dataclasses import dataclass

from roost.core.errors import EngineSpecError, MoveError, SeatError, check_seed
from roost.search import alphabeta as _ab
from roost.search import mcts as _mcts
from roost.search.limit import Limit
from roost.search.result import MoveStat, Progress, SearchResult

# the ranges every engine parameter is checked against (the searchers' own limits)
MAX_SECONDS = min(_ab.MAX_SECONDS, _mcts.MAX_SECONDS)


@dataclass(frozen=True)
class Param:
    """One engine parameter: its type, default and the range every value must lie in (the
    spec is the only way values enter an engine, so this is where they are checked)."""
    name: str
    kind: type            # int, float, bool or str
    default: object
    help: str
    minimum: float = None
    choices: tuple = None
    maximum: float = None

    def convert(self, engine, text):
        try:
            if self.choices is not None:
                if text not in self.choices:
                    raise ValueError
                return text
            if self.kind is bool:
                low = text.lower()
                if low in ("1", "true", "yes", "on"):
                    return True
                if low in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            value = self.kind(text)
        except ValueError:
            what = {int: "an integer", float: "a number", bool: "0 or 1"}.get(self.kind, "a value")
            if self.choices is not None:
                what = "one of " + ", ".join(self.choices)
            raise EngineSpecError(f"engine '{engine}': {self.name} must be {what}, got {text!r}") from None
        if self.kind is float and not math.isfinite(value):
            raise EngineSpecError(f"engine '{engine}': {self.name} must be a finite number, got {text!r}")
        if self.minimum is not None and value < self.minimum:
            raise EngineSpecError(f"engine '{engine}': {self.name} must be at least "
                                  f"{_fmt(self.minimum)}, got {text!r}")
        if self.maximum is not None and value > self.maximum:
            raise EngineSpecError(f"engine '{engine}': {self.name} must be at most "
                                  f"{_fmt(self.maximum)}, got {text!r}")
        return value


class Engine(abc.ABC):
    """A searcher and its settings: what the arena, the protocol's server and the commands
    call (see the module docstring).  A kind declares its ``params`` (the spec's settings),
    which of them a ``Limit`` caps (``budget``: a Limit field -> the setting), whether it
    analyses for a seat other than the mover (``any_seat``) and whether it reports several
    best lines (``several_lines``)."""
    kind = ""
    summary = ""
    params = ()
    budget = {}
    any_seat = True
    several_lines = False

    def __init__(self, **settings):
        self.settings = settings

    @property
    def spec(self):
        shown = [f"{p.name}={_fmt(self.settings[p.name])}" for p in self.params
                 if p.name in self.settings and self.settings[p.name] != p.default]
        return self.kind + (":" + ",".join(shown) if shown else "")

    def __str__(self):
        return self.spec

    @abc.abstractmethod
    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        """The engine's move in ``state`` as a SearchResult, searched within ``limit`` (a
        ``Limit``, laid over the spec's own budget; None: the spec's alone).

        ``observer`` (a seat; default the player to move) is whose analysis it is: the
        search reads only what that seat can see (hidden cards are drawn from its point of
        view), the move is the one the mover would best make as far as the observer can
        tell, and ``SearchResult.seat_value`` is the observer's expected result.
        ``progress``, if given, is called with a ``result.Progress`` as the search goes (a
        depth done, iterations so far).  ``multipv`` > 1 asks an engine with
        ``several_lines`` for that many best lines (``SearchResult.lines``)."""

    def begin_game(self, game, state, seat):
        """A game of ``game`` (a name) from ``state``, with this engine in ``seat``."""
        self.new_game()

    def new_game(self):
        """Forget what was learnt in the last game."""

    def advance(self, move):
        """A move or chance outcome was played (a searcher that keeps its tree follows it)."""

    def close(self):
        """End whatever the engine holds outside this process (a program, a worker)."""

    def limited_by(self, state):
        """The fields of a ``Limit`` this engine keeps to at ``state`` (of time, nodes and
        depth; a clock is always kept to, as a time)."""
        return set(self.budget)

    def settings_within(self, limit, state):
        """The settings of one search at ``state`` under ``limit``: each limit given caps
        the setting ``budget`` names for it (the smaller wins; 0 in a spec is no limit)."""
        if limit is None:
            return self.settings
        if not isinstance(limit, Limit):
            raise TypeError(f"a search limit is a Limit, not {limit!r}")
        settings = dict(self.settings)
        for what, value in (("time", limit.seconds(state)), ("nodes", limit.nodes), ("depth", limit.depth)):
            key = self.budget.get(what)
            if key is None or value is None:
                continue
            value = type(settings[key])(value)
            settings[key] = value if not settings[key] else min(settings[key], value)
        return settings

    def _check_playable(self, state, seed, observer=None):
        """The seat the analysis is for; MoveError on a finished game, SeedError for a bad
        seed, SeatError for a seat the position does not have or, when the kind analyses
        for the mover only, another seat than the mover's."""
        if state.is_over:
            raise MoveError("the game is over: there is no move to choose")
        check_seed(seed)
        seat = check_observer(state, observer)
        if seat != state.player and not self.any_seat:
            raise SeatError(f"engine '{self.kind}' analyses for the player to move only")
        return seat


def check_observer(state, observer):
    """The seat an analysis is for: ``observer``, or the player to move when None;
    SeatError for a seat the position does not have."""
    if observer is None:
        return state.player
    n = state.players
    if isinstance(observer, bool) or not isinstance(observer, int) or not 0 <= observer < n:
        raise SeatError(f"seat {observer!r} does not exist in a {n}-player game "
                        f"(seats are 0 to {n - 1})")
    return observer


def seat_value(state, seat, value, values=()):
    """Seat ``seat``'s expected result, from the mover's ``value`` and, where the engine
    has them, every player's ``values``; None where neither tells it (an N-player search
    that values the position for the mover only)."""
    if seat == state.player:
        return value
    if values:
        return values[seat]
    if state.players == 2:
        return 1.0 - value          # every outcome shares out one point
    return None


def _observer_world(state, seed, observer=None):
    """The state as ``observer`` (default the player to move) may know it: on a game with
    hidden information a determinization for that seat drawn from `seed` (a function of
    that seat's view and the seed only), else the state itself.  Everything an engine
    reports is read from it."""
    if state.hidden_info:
        return state.determinized(state.player if observer is None else observer, seed & _SEED_MASK)
    return state


def _line_names(world, moves, observer):
    """Names of the longest prefix of `moves` the observer can follow in `world`: legal
    there, and no move of another player that the observer would not see."""
    ids = _mcts.visible_line(world, list(moves), observer)
    names, probe = [], world.copy()
    for m in ids:
        names.append(probe.move_name(m))
        probe.play_unchecked(m)
    return names


_SEED_MASK = (1 << 64) - 1


def _fmt(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return f"{v:g}" if isinstance(v, float) else str(v)


class RandomEngine(Engine):
    """Uniformly random legal moves (a baseline, and fast games for tournament tests); at a
    chance node an outcome drawn by its probability."""
    kind = "random"
    summary = "uniformly random legal moves"
    params = ()

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        self._check_playable(state, seed, observer)
        rnd = _random.Random(seed)
        if state.is_chance:
            m = state.sample(rnd.getrandbits(63))
        else:
            m = rnd.choice(state.legal())
        return SearchResult(engine=self.spec, move=m, move_name=state.move_name(m),
                            player=state.player, value=0.5, score="random", pv=[state.move_name(m)])


class AlphaBetaEngine(Engine):
    """PVS alpha-beta with iterative deepening (src/search/alphabeta.pyx)."""
    kind = "ab"
    summary = "alpha-beta: PVS, iterative deepening, transposition table; expectimax at chance"
    params = (
        Param("depth", int, 0, "maximum depth in plies (default 6 when no time or node limit)", 1,
              maximum=_ab.MAX_DEPTH),
        Param("time", float, 0.0, "seconds per move", 0.0, maximum=MAX_SECONDS),
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

    def __init__(self, **settings):
        super().__init__(**settings)
        self._searcher = None
        if not _ab.can_allocate(settings.get("tt", 256) << 20):
            raise _no_memory("ab", "tt", settings["tt"], "MB of transposition table")

    def searcher(self):
        from roost.search.alphabeta import AlphaBeta
        if self._searcher is None:
            s = self.settings
            try:
                self._searcher = AlphaBeta(tt_mb=s["tt"], use_eval=s["eval"] == "game",
                                           paranoid=s["paranoid"], exact_outcomes=s["exact"],
                                           samples=s["samples"], star=s["star"],
                                           threads=s["threads"], lmr=s["lmr"])
            except MemoryError:
                raise _no_memory("ab", "tt", s["tt"], "MB of transposition table") from None
        return self._searcher

    def new_game(self):
        if self._searcher is not None:
            self._searcher.clear()

    @staticmethod
    def limits(s):
        """(depth, seconds, nodes) of a search with the settings ``s``."""
        depth = s["depth"] or (64 if (s["time"] or s["nodes"]) else 6)
        return depth, s["time"], s["nodes"]

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1,
               solve=False, callback=None):
        """``multipv`` > 1: also the best lines after the first (each a search of its own,
        with the first lines' moves left out at the root), in ``SearchResult.lines``.
        ``solve``: search until the value is proven (``roost solve``); ``callback(depth,
        score, pv, nodes, seconds)`` hears each depth in the searcher's own units."""
        from roost.search.alphabeta import SearchInterrupted
        seat = self._check_playable(state, seed, observer)
        if seat != state.player and state.players > 2:
            raise EngineSpecError(
                f"alpha-beta values a {state.players}-player position for the player to move only; "
                f"to analyse it for seat {seat} use mcts, ismcts or pimc")
        ab = self.searcher()
        ab.reseed(seed)
        root = _observer_world(state, seed, seat)
        info = {"determinized": True} if state.hidden_info else {}
        depth, seconds, nodes = self.limits(self.settings_within(limit, state))
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
                    result = self._result(state, root, r, info, seat)
                lines.append(self._line(root, seat, r))
                excluded.append(r["move"])
        except SearchInterrupted as e:
            if result is None:
                raise SearchInterrupted(self._result(state, root, e.partial, info, seat)) from None
            result.lines = lines
            raise SearchInterrupted(result) from None
        if multipv > 1:
            result.lines = lines
        return result

    @staticmethod
    def _line(root, player, r):
        from roost.search.alphabeta import score_to_value
        return {"move": root.move_name(r["move"]), "value": score_to_value(r["score"]),
                "verdict": _ab_verdict(r["score"], r["exact"]),
                "pv": _line_names(root, r["pv"], player)}

    def _result(self, state, root, r, info, seat):
        from roost.search.alphabeta import score_to_value, score_text, is_mate
        score = r["score"]
        proven = ""
        if r["exact"]:
            proven = "win" if score > 0 else "loss" if score < 0 else "draw"
        stats = []
        for m, v, exact in sorted(r["root_moves"], key=lambda t: (not t[2], -t[1])):
            # a move refuted by a null window has only an upper bound: its value is "at most".
            # An exact mate score is a proof wherever it stands; an exact 0 is a proven draw
            # when the root is one (its tree was searched to the ends, or solved), not when a
            # mate ended a search whose other lines stop at the horizon
            verdict = ""
            if exact and is_mate(v):
                verdict = "win" if v > 0 else "loss"
            elif exact and v == 0 and proven == "draw":
                verdict = "draw"
            stats.append(MoveStat(move=m, name=root.move_name(m), value=score_to_value(v),
                                  proven=verdict, bound="" if exact else "upper"))
        info["seldepth"] = r["seldepth"]
        if r["threads"] > 1:
            info["threads"] = r["threads"]
        return SearchResult(
            engine=self.spec, move=r["move"], move_name=root.move_name(r["move"]),
            player=state.player, value=score_to_value(score), score=score_text(score),
            pv=_line_names(root, r["pv"], seat),
            nodes=r["nodes"], depth=r["depth"], seconds=r["seconds"], proven=proven,
            expectation=r["chance"], stats=stats, info=info,
            seat=seat, seat_value=seat_value(state, seat, score_to_value(score)))


def _ab_verdict(score, exact):
    """'win in 7', 'loss in 4', 'draw' for a proven alpha-beta score, else ''."""
    from roost.search.alphabeta import is_mate, score_text
    if is_mate(score):
        return score_text(score)
    return "draw" if exact and score == 0 else ""


def _depth_progress(root, player, depth, score, pv, nodes, seconds):
    from roost.search.alphabeta import score_to_value
    return Progress(seconds=seconds, nodes=nodes, depth=depth, value=score_to_value(score),
                    verdict=_ab_verdict(score, False), pv=_line_names(root, pv, player))


def _tree_progress(tree, state, iterations, seconds, world=None, names_from=None, observer=None):
    """A Progress read from an MCTS tree in the middle of its search of ``state``
    (``observer``: the seat whose view the principal variation keeps to)."""
    snap = tree.snapshot(state, iterations, seconds)
    view = names_from if names_from is not None else state
    visits = sum(st["visits"] for st in snap["stats"]) or 1
    best = next((st for st in snap["stats"] if st["move"] == snap["move"]), None)
    return Progress(seconds=seconds, nodes=snap["nodes"], iterations=iterations,
                    value=snap["value"], verdict=snap["proven"],
                    best=view.move_name(snap["move"]) if snap["move"] >= 0 else "",
                    share=best["visits"] / visits if best else None,
                    pv=_line_names(view, snap["pv"], state.player if observer is None else observer)
                    if snap["pv"] else [],
                    world=world)


def _no_memory(engine, param, value, what):
    return EngineSpecError(f"engine '{engine}': cannot allocate {value:,} {what} on this machine "
                           f"(make {param}= smaller)")


# The node store grows with the search up to mem= MB; the default lets a minute-long search
# of the fastest-growing game keep growing on one core of a 16 GB machine.
DEFAULT_TREE_MB = 4096
MAX_TREE_MB = _mcts.MAX_NODES * _mcts.NODE_BYTES >> 20      # node indices are 32-bit
MIN_TREE_NODES = 1000

_THREADS = Param("threads", int, 1, "search threads (1: deterministic for a seed; more: see "
                 "docs/threads.md)", 1, maximum=_mcts.MAX_THREADS)
_TREE_BUDGET = (
    Param("iterations", int, 0, "iterations per move (default 10000 when no time is set)", 1,
          maximum=_mcts.MAX_ITERATIONS),
    Param("time", float, 0.0, "seconds per move", 0.0, maximum=MAX_SECONDS),
    Param("c", float, 1.0, "UCB exploration constant", 0.0, maximum=100.0),
    Param("nodes", int, 0, f"tree node cap (0: as many as mem= holds; else at least "
          f"{MIN_TREE_NODES})", 0, maximum=_mcts.MAX_NODES),
    Param("mem", int, DEFAULT_TREE_MB, "MB the tree may grow to (then it stops growing and "
          "the search goes on)", 1, maximum=MAX_TREE_MB),
    _THREADS,
)
_PLAYOUT_CAP = (
    Param("plies", int, 100000, "playout cut-off: plies a playout plays before the game's "
          "evaluation scores it (0: the evaluation at the leaf)", 0, maximum=1000000000),
    Param("quiet", bool, False, "a playout cut off by plies= plays on to a position the "
          "evaluation reads fairly first (Wingspan: the next turn's start; a game whose "
          "turn is one ply is always there)"),
)
# how playouts choose their moves (src/search/playout.pyx)
_PLAYOUT_POLICY = (
    Param("playout", str, "random", "playout moves: random; eval, the move the game's evaluation "
          "likes best for the mover; mast, the move with the best average result so far in "
          "this search; decisive, a move that wins at once if there is one, else a random "
          "move the game does not know to lose", choices=("random", "eval", "mast", "decisive")),
    Param("epsilon", float, 0.1, "eval and mast playouts: the chance of a random move instead", 0.0,
          maximum=1.0),
    Param("discount", float, 1.0, "a playout's result after p plies keeps discount^p of its "
          "margin over the players' mean (1: off; below 1, results reached sooner count more)",
          0.01, maximum=1.0),
)
# the game's evaluation in the tree (src/search/mcts.pyx): perfect-information searches
_TREE_EVAL = (
    Param("imm", float, 0.0, "implicit minimax: weight (0..1) of the evaluation backed up as "
          "minimax in selection (two players, perfect information)", 0.0, maximum=1.0),
    Param("bias", float, 0.0, "progressive bias: adds bias * evaluation / (visits + 1) in "
          "selection (both also try new moves best-evaluated first; perfect information)", 0.0,
          maximum=1000.0),
    Param("rave", float, 0.0, "RAVE: blend each move's mean with its all-moves-as-first mean; "
          "the visits at which both weigh alike (0: off; moves compared by id; perfect "
          "information)", 0.0, maximum=1e9),
    Param("grave", int, 0, "GRAVE: take the all-moves-as-first means from the nearest "
          "ancestor with at least this many visits (0: the node's own, plain RAVE)", 0,
          maximum=_mcts.MAX_ITERATIONS),
)


def _tree_options(s):
    """MCTS() keyword arguments for an engine's playout and tree-evaluation settings."""
    from roost.search.playout import POLICIES
    return dict(policy=POLICIES[s.get("playout", "random")], epsilon=s.get("epsilon", 0.1),
                discount=s.get("discount", 1.0), quiet=s.get("quiet", False),
                imm=s.get("imm", 0.0), bias=s.get("bias", 0.0), rave=s.get("rave", 0.0),
                grave=s.get("grave", 0))


def _node_bytes(settings):
    """Bytes a tree node takes: the options in the tree keep a side record per node."""
    extra = any(settings.get(k, 0) > 0 for k in ("imm", "bias", "rave"))
    return _mcts.NODE_BYTES + (_mcts.EXTRA_BYTES if extra else 0)


def _check_tree_fits(engine, nodes):
    if not _mcts.can_allocate_tree(nodes):
        raise _no_memory(engine, "nodes", nodes, "tree nodes")


def _tree_capacity(engine, settings):
    """The node store's capacity from nodes= and mem=, checked against the machine (the
    store grows lazily, but all of it must be able to exist)."""
    nodes, mb = settings.get("nodes", 0), settings.get("mem", DEFAULT_TREE_MB)
    if 0 < nodes < MIN_TREE_NODES:
        raise EngineSpecError(f"engine '{engine}': nodes must be 0 (no cap but mem=) or at least "
                              f"{MIN_TREE_NODES}, got {nodes}")
    by_memory = (mb << 20) // _node_bytes(settings)
    capacity = min(nodes or by_memory, by_memory, _mcts.MAX_NODES)
    if capacity < MIN_TREE_NODES:
        raise EngineSpecError(f"engine '{engine}': mem={mb} MB holds {capacity:,} tree nodes, "
                              f"fewer than the {MIN_TREE_NODES} a search needs")
    if not _mcts.can_allocate_tree(capacity):
        if nodes and nodes <= by_memory:
            raise _no_memory(engine, "nodes", nodes, "tree nodes")
        raise _no_memory(engine, "mem", mb, "MB of tree")
    return capacity


class MctsEngine(Engine):
    """UCT / MCTS-Solver with chance nodes and tree reuse (src/search/mcts.pyx).  On a
    state with hidden information it searches information sets (as ``ismcts``)."""
    kind = "mcts"
    summary = "UCT with max^n values, MCTS-Solver, chance nodes, tree reuse"
    params = (
        *_TREE_BUDGET,
        Param("reuse", bool, True, "keep the subtree of the move played between moves"),
        Param("solver", bool, True, "prove wins and losses (two-player games)"),
        Param("widen", float, 1.0, "progressive widening at chance nodes: k = widen * visits^alpha", 0.0,
              maximum=1000.0),
        Param("alpha", float, 0.5, "progressive widening exponent", 0.0, maximum=1.0),
        Param("chance", str, "closed", "chance nodes: closed, a child per outcome drawn (with "
              "widening); open, one child for every outcome, drawn afresh on each pass (no "
              "effect where the search is of information sets)", choices=("closed", "open")),
        *_PLAYOUT_CAP,
        *_PLAYOUT_POLICY,
        *_TREE_EVAL,
    )
    budget = {"time": "time", "nodes": "iterations"}
    several_lines = True
    ismcts = False

    def __init__(self, **settings):
        super().__init__(**settings)
        self._tree = None
        self._capacity = _tree_capacity(self.kind, settings)

    def tree(self):
        from roost.search.mcts import MCTS
        if self._tree is None:
            s = self.settings
            try:
                self._tree = MCTS(capacity=self._capacity, c=s["c"], pw_c=s.get("widen", 1.0),
                                  pw_alpha=s.get("alpha", 0.5), solver=s.get("solver", False),
                                  ismcts=self.ismcts, playout_plies=s.get("plies", 100000),
                                  threads=s.get("threads", 1),
                                  open_loop=s.get("chance", "closed") == "open", **_tree_options(s))
            except MemoryError:
                raise _no_memory(self.kind, "mem", s["mem"], "MB of tree") from None
        return self._tree

    def new_game(self):
        if self._tree is not None:
            self._tree.reset()

    def advance(self, move):
        if self._tree is not None:
            if self.settings.get("reuse", False):
                self._tree.advance(move)
            else:
                self._tree.reset()

    @staticmethod
    def iterations_and_seconds(s):
        """(iterations, seconds) of a search with the settings ``s``."""
        its = s["iterations"] or (0 if s["time"] else 10000)
        return its, s["time"]

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        """``multipv`` > 1: the most visited moves' lines too, in ``SearchResult.lines``."""
        from roost.search.alphabeta import SearchInterrupted
        seat = self._check_playable(state, seed, observer)
        tree = self.tree()
        tree.reseed(seed)
        hidden = state.hidden_info and not self.ismcts
        if hidden:
            tree.ismcts = True       # never read what the mover cannot see
        its, seconds = self.iterations_and_seconds(self.settings_within(limit, state))
        info = {"information_sets": True} if (hidden or self.ismcts) else {}
        report = None
        if progress is not None:
            def report(n, secs):
                progress(_tree_progress(tree, state, n, secs, observer=seat,
                                        names_from=_observer_world(state, seed, seat)))
        try:
            r = tree.search(state, iterations=its, seconds=seconds, observer=seat, progress=report)
        except SearchInterrupted as e:
            raise SearchInterrupted(self._result(state, e.partial, info, seed, multipv, seat)) from None
        finally:
            tree.ismcts = self.ismcts
            if hidden:
                tree.reset()
        return self._result(state, r, info, seed, multipv, seat)

    def _result(self, state, r, info, seed, multipv=1, seat=None):
        seat = state.player if seat is None else seat
        world = _observer_world(state, seed, seat)
        stats = [MoveStat(move=s["move"], name=world.move_name(s["move"]), visits=s["visits"],
                          value=s["value"], proven=s["proven"], values=s["values"]) for s in r["stats"]]
        best = next((s for s in stats if s.move == r["move"]), None)
        info = dict(info)
        info["tree_nodes"] = r["nodes"]
        info["tree_mb"] = round(r["memory"] / 2 ** 20, 1)
        if r["threads"] > 1:
            info["threads"] = r["threads"]
        return SearchResult(
            engine=self.spec, move=r["move"], move_name=world.move_name(r["move"]),
            player=state.player, value=r["value"], values=best.values if best else [],
            score=r["proven"] and f"{r['proven']} (proven)" or f"{r['value']:.3f}",
            pv=_line_names(world, r["pv"], seat), nodes=r["nodes"],
            iterations=r["iterations"], seconds=r["seconds"],
            proven=r["proven"], expectation=not r["proven"], stats=stats, info=info,
            seat=seat, seat_value=seat_value(state, seat, r["value"], best.values if best else ()),
            lines=[{"move": world.move_name(st["move"]), "value": st["value"], "verdict": st["proven"],
                    "visits": st["visits"], "pv": _line_names(world, st["pv"], seat)}
                   for st in r["stats"][:multipv]] if multipv > 1 else [])


class IsmctsEngine(MctsEngine):
    """Single-observer information-set MCTS: one determinization per iteration."""
    kind = "ismcts"
    summary = "information-set MCTS: one determinization per iteration"
    params = (*_TREE_BUDGET, *_PLAYOUT_CAP, *_PLAYOUT_POLICY)
    ismcts = True

    def advance(self, move):
        pass


class PimcEngine(Engine):
    """Perfect-information Monte Carlo: several determinizations, each searched by MCTS,
    root visit counts summed as votes."""
    kind = "pimc"
    summary = "perfect-information Monte Carlo: determinizations searched by MCTS, votes summed"
    params = (
        Param("worlds", int, 8, "determinizations searched", 1, maximum=100000),
        Param("iterations", int, 0, "iterations per world (default 2000 when no time is set)", 1,
              maximum=_mcts.MAX_ITERATIONS),
        Param("time", float, 0.0, "seconds per move, shared by the worlds", 0.0, maximum=MAX_SECONDS),
        Param("c", float, 1.0, "UCB exploration constant", 0.0, maximum=100.0),
        Param("nodes", int, 200000, "tree node budget per world", 1000, maximum=_mcts.MAX_NODES),
        Param("threads", int, 1, "worlds searched at once, one thread each (the result is the "
              "same for any count when the budget is iterations)", 1, maximum=_mcts.MAX_THREADS),
        *_PLAYOUT_CAP,
        *_PLAYOUT_POLICY,
        *_TREE_EVAL,
    )
    budget = {"time": "time", "nodes": "iterations"}

    def __init__(self, **settings):
        super().__init__(**settings)
        self._trees = []
        _check_tree_fits(self.kind, settings.get("nodes", 200000))

    def trees(self, count):
        from roost.search.mcts import MCTS
        s = self.settings
        while len(self._trees) < count:
            try:
                self._trees.append(MCTS(capacity=s["nodes"], c=s["c"], solver=False,
                                        playout_plies=s["plies"], **_tree_options(s)))
            except MemoryError:
                raise _no_memory(self.kind, "nodes", s["nodes"], "tree nodes") from None
        return self._trees[:count]

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        """The worlds are searched in rounds of `threads` at once; each world's
        determinization and tree seed are drawn in world order whatever the rounds, so an
        iteration budget gives the same votes for any thread count."""
        from roost.search.alphabeta import SearchInterrupted
        seat = self._check_playable(state, seed, observer)
        s = self.settings_within(limit, state)
        n_worlds = s["worlds"]
        width = min(s["threads"], n_worlds)
        trees = self.trees(width)
        its = s["iterations"] or (0 if s["time"] else 2000)
        rng = _random.Random(seed)
        seeds = []
        for w in range(n_worlds):
            world_seed = rng.getrandbits(63) if state.hidden_info else None
            seeds.append((world_seed, rng.getrandbits(63)))
        votes, values, total = {}, {}, [0, 0.0, 0]     # iterations, seconds, worlds
        seat_sums = {}                 # move: the observer's result summed over its visits
        t0 = _time.monotonic()
        interrupted = False
        for first in range(0, n_worlds, width):
            batch = range(first, min(first + width, n_worlds))
            seconds = 0.0
            if s["time"]:
                # the time left, shared by the rounds left; once it is spent, stop
                left = s["time"] - (_time.monotonic() - t0)
                if left <= 0 and first > 0:
                    break
                seconds = max(left, 1e-6) / -(-(n_worlds - first) // width)
            worlds = [state.determinized(seat, seeds[w][0]) if state.hidden_info else state
                      for w in batch]
            report = None
            if progress is not None:
                def report(n, secs, first=first, tree=trees[0], world=worlds[0]):
                    progress(_tree_progress(tree, world, n, secs, world=(first + 1, n_worlds),
                                            observer=seat))
            try:
                rs = _mcts.search_worlds(trees[:len(batch)], worlds, [seeds[w][1] for w in batch],
                                         its, seconds, report)
            except SearchInterrupted as e:         # Ctrl-C in the search: its partial votes
                rs, interrupted = e.partial, True
            except KeyboardInterrupt:              # Ctrl-C between two rounds
                rs, interrupted = [], True
            for r in rs:
                total[0] += r["iterations"]
                total[2] += 1
                for st in r["stats"]:
                    votes[st["move"]] = votes.get(st["move"], 0) + st["visits"]
                    values[st["move"]] = values.get(st["move"], 0.0) + st["value"] * st["visits"]
                    if st["values"]:
                        seat_sums[st["move"]] = seat_sums.get(st["move"], 0.0) + st["values"][seat] * st["visits"]
            if rs:
                total[1] += max(r["seconds"] for r in rs)
            if interrupted:
                break
        result = self._result(state, seed, votes, values, *total, seat=seat, seat_sums=seat_sums)
        if interrupted:
            raise SearchInterrupted(result)
        return result

    def _result(self, state, seed, votes, values, iterations, seconds, worlds, seat=None, seat_sums=None):
        seat = state.player if seat is None else seat
        view = _observer_world(state, seed, seat)
        # the mover's real options are hidden from another seat: any move voted in the
        # worlds the observer imagines is a candidate
        legal = state.legal() if seat == state.player or not state.hidden_info else list(votes)
        ranked = sorted((m for m in votes if m in set(legal)), key=lambda m: (-votes[m], m))
        if not ranked:                 # interrupted before any world had a visit
            ranked = [legal[0]]
        stats = [MoveStat(move=m, name=view.move_name(m), visits=votes.get(m, 0),
                          value=values[m] / votes[m] if votes.get(m) else 0.5) for m in ranked]
        best = ranked[0]
        if seat != state.player and seat_sums and best in seat_sums:
            mine = seat_sums[best] / votes[best]
        else:
            mine = seat_value(state, seat, stats[0].value)
        return SearchResult(engine=self.spec, move=best, move_name=view.move_name(best),
                            seat=seat, seat_value=mine,
                            player=state.player, value=stats[0].value, score=f"{stats[0].value:.3f}",
                            pv=[view.move_name(best)], nodes=iterations, iterations=iterations,
                            seconds=seconds, expectation=True, stats=stats,
                            info={"worlds": worlds})


ENGINES = {e.kind: e for e in (RandomEngine, AlphaBetaEngine, MctsEngine, IsmctsEngine, PimcEngine)}

# Engine kinds that build on Engine from the layers above the searchers (the engine protocol's
# external programs, OpenSpiel's bots): named here by module so that search never imports
# them; a kind's module is loaded when a spec or the help first names it.
PLUGINS = {"openspiel": "roost.interop.engine:OpenSpielEngine",
           "cmd": "roost.protocol.client:ProtocolEngine"}


def engine_class(kind):
    """The Engine class of a kind (a searcher here, or a plugin's), or None."""
    if kind in ENGINES:
        return ENGINES[kind]
    if kind in PLUGINS:
        import importlib
        module, _, name = PLUGINS[kind].partition(":")
        ENGINES[kind] = getattr(importlib.import_module(module), name)
        return ENGINES[kind]
    return None

# auto: the strongest of the above measured for the game (roost.search.auto builds on Engine
# above and adds itself to ENGINES; imported here so that every engine is known, whichever came first)
import roost.search.auto  # noqa: E402,F401


def parse_engine(spec):
    """Parse ``kind[:name=value,...]`` into a configured engine; EngineSpecError names the fault."""
    if not isinstance(spec, str) or not spec.strip():
        raise EngineSpecError("an engine spec is empty; try 'random', 'ab:depth=6' or 'mcts:time=1'")
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    cls = engine_class(kind)
    if cls is None:
        known = [k for k in list(ENGINES) + list(PLUGINS) if k != "cmd"]
        raise EngineSpecError(f"unknown engine {kind!r}; known engines: {', '.join(dict.fromkeys(known))}, "
                              "cmd:COMMAND (an external program speaking the engine protocol)")
    if hasattr(cls, "from_command"):     # the rest of the spec is a command line, not name=value
        return cls.from_command(rest)
    by_name = {p.name: p for p in cls.params}
    settings = {p.name: p.default for p in cls.params}
    seen = set()
    if rest.strip():
        for k, item in enumerate(rest.split(",")):
            name, eq, value = item.partition("=")
            if not eq and k == 0 and getattr(cls, "positional", None):
                name, eq, value = cls.positional, "=", item   # "openspiel:mcts,..." names its bot first
            name = name.strip().lower()
            if not eq or not name or not value.strip():
                raise EngineSpecError(f"malformed parameter {item.strip()!r} in {spec!r} (expected name=value)")
            if name not in by_name:
                known = ", ".join(by_name) or "none"
                raise EngineSpecError(f"engine '{kind}' has no parameter {name!r}; its parameters: {known}")
            if name in seen:
                raise EngineSpecError(f"engine '{kind}': parameter {name!r} given twice")
            seen.add(name)
            settings[name] = by_name[name].convert(kind, value.strip())
    return cls(**settings)


def describe_engines():
    """Lines of help text: each engine kind and its parameters."""
    lines = []
    for kind in dict.fromkeys(list(ENGINES) + list(PLUGINS)):
        if kind == "cmd":
            continue
        cls = engine_class(kind)
        lines.append(f"{kind}: {cls.summary}")
        for p in cls.params:
            lines.append(f"    {p.name}={_fmt(p.default)}  {p.help}")
    lines.append("cmd:COMMAND: an external program speaking the engine protocol (docs/protocol.md),")
    lines.append("    e.g. cmd:python3 examples/randombot.py, or cmd:roost engine ducks --engine ab:depth=4")
    return lines
