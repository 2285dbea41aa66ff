"""The engine interface: what the arena, the protocol's server and the commands call, and
what every engine kind (a searcher and its settings, an external program, OpenSpiel's bot)
implements::

    engine.choose(state, limit, seed=0) -> SearchResult   # its move here, within a Limit
    engine.begin_game(game, state, seat) # a game from ``state`` with the engine in ``seat``
    engine.new_game()                    # forget what it learnt in the last game
    engine.advance(move)                 # a move or chance outcome was played
    engine.close()                       # end whatever it holds (a program, a worker)

A kind declares its parameters (``params``), how its spec text reads and prints, and which
settings a ``Limit`` caps (``budget``).  Beside the class: what every kind's analysis
shares (the seat it is for, that seat's value, the world it names moves in).
"""
import abc

from roost.core.errors import EngineSpecError, MoveError, SeatError, check_seed
from roost.search.mcts import visible_line
from roost.search.result import MoveStat, SearchResult
from roost.search.spec import EngineSpec, format_value

_SEED_MASK = (1 << 64) - 1


class Engine(abc.ABC):
    """A searcher and its settings (``spec``, an EngineSpec).  A kind declares its
    ``params`` (the spec's settings), which of them a ``Limit`` caps (``budget``: a Limit
    field -> the setting), whether it analyses for a seat other than the mover
    (``any_seat``), whether it reports several best lines (``several_lines``) and whether
    it plays in a process of its own (``external``: the arena keeps it between games and
    ends it at the end)."""
    kind = ""
    summary = ""
    params = ()
    budget = {}
    any_seat = True
    several_lines = False
    external = False
    positional = None        # a parameter a spec may give first without its name

    def __init__(self, spec=None):
        self.spec = (EngineSpec.of(type(self)) if spec is None else spec).checked()

    @property
    def settings(self):
        """The spec's settings by name."""
        return self.spec.settings

    def __str__(self):
        return str(self.spec)

    # ------------------------------------------------------------------ the interface
    @abc.abstractmethod
    def choose(self, state, limit=None, *, seed=0, observer=None, progress=None, multipv=1):
        """The engine's move in ``state`` as a SearchResult, searched within ``limit`` (a
        ``Limit``, laid over the spec's own budget; None: the spec's alone).

        ``observer`` (a seat; default the player to move) is whose analysis it is: the
        search reads only what that seat can see (hidden cards are drawn from its point of
        view), the move is the one the mover would best make as far as the observer can
        tell, and ``SearchResult.seat_value`` is the observer's expected result.
        ``progress``, if given, is called with a ``result.Progress`` as the search goes (a
        depth done, iterations so far).  ``multipv`` > 1 asks an engine that
        ``gives_lines(state)`` for that many best lines (``SearchResult.lines``)."""

    def begin_game(self, game, state, seat):
        """A game of ``game`` (a name) from ``state``, with this engine in ``seat``."""
        self.new_game()

    def new_game(self):
        """Forget what was learnt in the last game."""

    def advance(self, move):
        """A move or chance outcome was played (a searcher that keeps its tree follows it)."""

    def close(self):
        """End whatever the engine holds outside this process (a program, a worker)."""

    def kill(self):
        """End it at once, without waiting for a program to quit."""
        self.close()

    def playing(self, state):
        """The spec of the engine that plays at ``state``: its own (``auto`` names the one
        it chose, as ``auto (mcts:time=1)``)."""
        return str(self.spec)

    def gives_lines(self, state):
        """Whether it reports several best lines at ``state`` (``multipv``)."""
        return self.several_lines

    def limited_by(self, state):
        """The fields of a ``Limit`` this engine keeps to at ``state`` (of time, nodes and
        depth; a clock is always kept to, as a time)."""
        return set(self.budget)

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

    def read_report(self, report, state, world, seat, info=None):
        """A searcher's ``report`` (a ``result.Report``) as this engine's SearchResult for
        seat ``seat`` at ``state``: its moves named in ``world`` (the state as that seat may
        know it), ``info`` followed by the searcher's own figures."""
        chosen = report.chosen()
        values = chosen.values if chosen is not None else []
        mine = report.seat_value
        if mine is None:
            mine = seat_value(state, seat, report.value, values)
        pv = (line_names(world, report.pv, seat) if report.pv_is_line
              else [world.move_name(m) for m in report.pv])
        return SearchResult(
            engine=str(self.spec), move=report.move, move_name=world.move_name(report.move),
            player=state.player, value=report.value, values=values, score=report.score_text(),
            pv=pv, nodes=report.nodes, iterations=report.iterations, depth=report.depth,
            seconds=report.seconds, proven=report.proven, expectation=report.expectation,
            stats=[MoveStat(move=m.move, name=world.move_name(m.move), visits=m.visits,
                            value=m.value, proven=m.proven, values=m.values,
                            bound="" if m.exact else "upper") for m in report.root_moves],
            info={**(info or {}), **report.extras()},
            seat=seat, seat_value=mine)

    # ------------------------------------------------------------------ the kind's spec text
    @classmethod
    def read_spec(cls, rest, text):
        """The spec of this kind from ``rest``, the text after ``kind:`` (``text`` is the
        whole spec, for the messages): ``name=value`` pairs, the positional parameter
        first without its name where the kind has one."""
        by_name = {p.name: p for p in cls.params}
        settings = {}
        if rest.strip():
            for k, item in enumerate(rest.split(",")):
                name, eq, value = item.partition("=")
                if not eq and k == 0 and cls.positional:
                    name, eq, value = cls.positional, "=", item   # "openspiel:mcts,..." names its bot first
                name = name.strip().lower()
                if not eq or not name or not value.strip():
                    raise EngineSpecError(f"malformed parameter {item.strip()!r} in {text!r} (expected name=value)")
                if name not in by_name:
                    known = ", ".join(by_name) or "none"
                    raise EngineSpecError(f"engine '{cls.kind}' has no parameter {name!r}; its parameters: {known}")
                if name in settings:
                    raise EngineSpecError(f"engine '{cls.kind}': parameter {name!r} given twice")
                settings[name] = by_name[name].convert(cls.kind, value.strip())
        return EngineSpec(cls, tuple((p.name, settings.get(p.name, p.default)) for p in cls.params))

    @classmethod
    def check_spec(cls, spec):
        """``spec`` when its settings hold together and this machine can run it;
        EngineSpecError names the fault (a kind whose settings bound each other checks it)."""
        return spec

    @classmethod
    def spec_text(cls, spec):
        """``spec``'s canonical text: the kind, and the settings that differ from their
        defaults in the kind's order."""
        shown = [f"{p.name}={format_value(spec[p.name])}" for p in cls.params
                 if spec[p.name] != p.default]
        return cls.kind + (":" + ",".join(shown) if shown else "")

    @classmethod
    def spec_hint(cls):
        """How the kind is named in a list of the known engines."""
        return cls.kind

    @classmethod
    def describe(cls):
        """Lines of help text: the kind and its parameters."""
        return [f"{cls.kind}: {cls.summary}"] + [f"    {p.name}={format_value(p.default)}  {p.help}"
                                                  for p in cls.params]


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


def observer_world(state, seed, observer=None):
    """The state as ``observer`` (default the player to move) may know it: on a game with
    hidden information a determinization for that seat drawn from `seed` (a function of
    that seat's view and the seed only), else the state itself.  Everything an engine
    reports is read from it."""
    if state.hidden_info:
        return state.determinized(state.player if observer is None else observer, seed & _SEED_MASK)
    return state


def line_names(world, moves, observer):
    """Names of the longest prefix of `moves` the observer can follow in `world`: legal
    there, and no move of another player that the observer would not see."""
    ids = visible_line(world, list(moves), observer)
    names, probe = [], world.copy()
    for m in ids:
        names.append(probe.move_name(m))
        probe.play_unchecked(m)
    return names


def no_memory(engine, param, value, what):
    """The error of a setting that asks for more memory than the machine has."""
    return EngineSpecError(f"engine '{engine}': cannot allocate {value:,} {what} on this machine "
                           f"(make {param}= smaller)")
