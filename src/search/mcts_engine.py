"""The tree searchers' engine kinds: ``mcts`` and ``ismcts`` (``roost.search.mcts``) and
``pimc`` (``roost.search.pimc``) behind the engine interface; their shared parameters, the
tree's memory from them, and their reports read as SearchResults (``Engine.read_report``)."""
from roost.core.errors import EngineSpecError
from roost.search import mcts as _mcts
from roost.search.alphabeta import SearchInterrupted
from roost.search.engine import Engine, line_names, no_memory, observer_world
from roost.search.pimc import Pimc
from roost.search.playout import POLICIES
from roost.search.result import Progress
from roost.search.spec import Param


def _tree_progress(tree, state, iterations, seconds, world=None, names_from=None, observer=None):
    """A Progress read from an MCTS tree in the middle of its search of ``state``
    (``observer``: the seat whose view the principal variation keeps to)."""
    snap = tree.snapshot(state, iterations, seconds)
    view = names_from if names_from is not None else state
    visits = sum(m.visits for m in snap.root_moves) or 1
    best = snap.chosen()
    return Progress(seconds=seconds, nodes=snap.nodes, iterations=iterations,
                    value=snap.value, verdict=snap.proven,
                    best=view.move_name(snap.move) if snap.move >= 0 else "",
                    share=best.visits / visits if best else None,
                    pv=line_names(view, snap.pv, state.player if observer is None else observer)
                    if snap.pv else [],
                    world=world)


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
    Param("time", float, 0.0, "seconds per move", 0.0, maximum=_mcts.MAX_SECONDS),
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
        raise no_memory(engine, "nodes", nodes, "tree nodes")


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
            raise no_memory(engine, "nodes", nodes, "tree nodes")
        raise no_memory(engine, "mem", mb, "MB of tree")
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

    def __init__(self, spec=None):
        super().__init__(spec)
        self._tree = None
        self._capacity = _tree_capacity(self.kind, self.settings)

    @classmethod
    def check_spec(cls, spec):
        _tree_capacity(cls.kind, spec.settings)
        return spec

    def tree(self):
        if self._tree is None:
            s = self.settings
            try:
                self._tree = _mcts.MCTS(capacity=self._capacity, c=s["c"], pw_c=s.get("widen", 1.0),
                                  pw_alpha=s.get("alpha", 0.5), solver=s.get("solver", False),
                                  ismcts=self.ismcts, playout_plies=s.get("plies", 100000),
                                  threads=s.get("threads", 1),
                                  open_loop=s.get("chance", "closed") == "open", **_tree_options(s))
            except MemoryError:
                raise no_memory(self.kind, "mem", s["mem"], "MB of tree") from None
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
        """(iterations, seconds) of a search with the spec ``s``."""
        its = s["iterations"] or (0 if s["time"] else 10000)
        return its, s["time"]

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        """``multipv`` > 1: the most visited moves' lines too, in ``SearchResult.lines``."""
        seat = self._check_playable(state, seed, observer)
        tree = self.tree()
        tree.reseed(seed)
        hidden = state.hidden_info and not self.ismcts
        if hidden:
            tree.ismcts = True       # never read what the mover cannot see
        its, seconds = self.iterations_and_seconds(self.spec.within(limit, state))
        info = {"information_sets": True} if (hidden or self.ismcts) else {}
        report = None
        if progress is not None:
            def report(n, secs):
                progress(_tree_progress(tree, state, n, secs, observer=seat,
                                        names_from=observer_world(state, seed, seat)))
        try:
            r = tree.search(state, iterations=its, seconds=seconds, observer=seat, progress=report)
        except SearchInterrupted as e:
            raise SearchInterrupted(self._result(state, e.partial, info, seed, multipv, seat)) from None
        finally:
            tree.ismcts = self.ismcts
            if hidden:
                tree.reset()
        return self._result(state, r, info, seed, multipv, seat)

    def _result(self, state, r, info, seed, multipv, seat):
        """The SearchResult of the MctsReport ``r``, with the most visited moves' lines
        when ``multipv`` > 1."""
        world = observer_world(state, seed, seat)
        result = self.read_report(r, state, world, seat, info)
        if multipv > 1:
            result.lines = [{"move": world.move_name(m.move), "value": m.value,
                             "verdict": m.proven, "visits": m.visits,
                             "pv": line_names(world, m.pv, seat)}
                            for m in r.root_moves[:multipv]]
        return result


class IsmctsEngine(MctsEngine):
    """Single-observer information-set MCTS: one determinization per iteration."""
    kind = "ismcts"
    summary = "information-set MCTS: one determinization per iteration"
    params = (*_TREE_BUDGET, *_PLAYOUT_CAP, *_PLAYOUT_POLICY)
    ismcts = True

    def advance(self, move):
        pass


class PimcEngine(Engine):
    """Perfect-information Monte Carlo (``roost.search.pimc``): several determinizations,
    each searched by MCTS, root visit counts summed as votes."""
    kind = "pimc"
    summary = "perfect-information Monte Carlo: determinizations searched by MCTS, votes summed"
    params = (
        Param("worlds", int, 8, "determinizations searched", 1, maximum=100000),
        Param("iterations", int, 0, "iterations per world (default 2000 when no time is set)", 1,
              maximum=_mcts.MAX_ITERATIONS),
        Param("time", float, 0.0, "seconds per move, shared by the worlds", 0.0, maximum=_mcts.MAX_SECONDS),
        Param("c", float, 1.0, "UCB exploration constant", 0.0, maximum=100.0),
        Param("nodes", int, 200000, "tree node budget per world", 1000, maximum=_mcts.MAX_NODES),
        Param("threads", int, 1, "worlds searched at once, one thread each (the result is the "
              "same for any count when the budget is iterations)", 1, maximum=_mcts.MAX_THREADS),
        *_PLAYOUT_CAP,
        *_PLAYOUT_POLICY,
        *_TREE_EVAL,
    )
    budget = {"time": "time", "nodes": "iterations"}

    def __init__(self, spec=None):
        super().__init__(spec)
        self.searcher = Pimc(self._tree)

    @classmethod
    def check_spec(cls, spec):
        _check_tree_fits(cls.kind, spec["nodes"])
        return spec

    def _tree(self):
        s = self.settings
        try:
            return _mcts.MCTS(capacity=s["nodes"], c=s["c"], solver=False, playout_plies=s["plies"],
                              **_tree_options(s))
        except MemoryError:
            raise no_memory(self.kind, "nodes", s["nodes"], "tree nodes") from None

    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        seat = self._check_playable(state, seed, observer)
        s = self.spec.within(limit, state)
        view = observer_world(state, seed, seat)
        on_round = None
        if progress is not None:
            def on_round(tree, world, n, secs, number):
                progress(_tree_progress(tree, world, n, secs, world=(number, s["worlds"]),
                                        observer=seat))
        try:
            r = self.searcher.search(state, seat, seed, s["worlds"],
                                     s["iterations"] or (0 if s["time"] else 2000), s["time"],
                                     s["threads"], on_round)
        except SearchInterrupted as e:
            raise SearchInterrupted(self.read_report(e.partial, state, view, seat)) from None
        return self.read_report(r, state, view, seat)

