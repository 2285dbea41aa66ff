"""The engine kinds, and spec texts read into specs: ``"mcts:time=1,c=1.2"`` -> an
``EngineSpec`` (``parse_spec``) -> an engine (``spec.engine()``, or ``parse_engine`` for
both steps).

The searchers' own kinds are listed here; a kind from a layer above the searchers (the
engine protocol's ``cmd:``, OpenSpiel's ``openspiel:``) registers itself with
``register_engine`` when its module is imported, which the arena and the command line do.

>>> str(parse_spec("ab:depth=3,tt=256"))
'ab:depth=3'
>>> parse_engine("mcts:iters=5")
Traceback (most recent call last):
...
roost.core.errors.EngineSpecError: engine 'mcts' has no parameter 'iters'; its parameters: iterations, time, c, nodes, mem, threads, reuse, solver, widen, alpha, chance, plies, quiet, playout, epsilon, discount, imm, bias, rave, grave
"""
from roost.core.errors import EngineSpecError
from roost.search import alphabeta as _ab
from roost.search import mcts as _mcts
from roost.search.alphabeta_engine import AlphaBetaEngine
from roost.search.auto import AutoEngine
from roost.search.engine import Engine
from roost.search.mcts_engine import IsmctsEngine, MctsEngine, PimcEngine
from roost.search.random_engine import RandomEngine
from roost.search.spec import EngineSpec

# the longest time a move may be given (the searchers' own limit)
MAX_SECONDS = min(_ab.MAX_SECONDS, _mcts.MAX_SECONDS)

ENGINES = {e.kind: e for e in (RandomEngine, AlphaBetaEngine, MctsEngine, IsmctsEngine, PimcEngine,
                               AutoEngine)}


def register_engine(engine_type):
    """Make the kind of ``engine_type`` (an Engine class) known to ``parse_spec``."""
    if not (isinstance(engine_type, type) and issubclass(engine_type, Engine)) or not engine_type.kind:
        raise TypeError(f"an engine kind is an Engine class with a kind, not {engine_type!r}")
    known = ENGINES.get(engine_type.kind)
    if known is not None and known is not engine_type:
        raise ValueError(f"engine kind {engine_type.kind!r} is taken by {known.__qualname__}")
    ENGINES[engine_type.kind] = engine_type
    return engine_type


def engine_class(kind):
    """The Engine class of a known kind, or None."""
    return ENGINES.get(kind)


def kind_of(text):
    """The Engine class a spec text names (its kind, before any ``:``), or None."""
    return ENGINES.get(text.strip().partition(":")[0].strip().lower()) if isinstance(text, str) else None


def parse_spec(text, check=True):
    """The EngineSpec of ``kind[:name=value,...]`` (an EngineSpec is itself); EngineSpecError
    names the fault.  ``check=False`` leaves out whether the settings hold together on this
    machine (``EngineSpec.checked``), for a caller that changes them first."""
    if isinstance(text, EngineSpec):
        return text.checked() if check else text
    if not isinstance(text, str) or not text.strip():
        raise EngineSpecError("an engine spec is empty; try 'random', 'ab:depth=6' or 'mcts:time=1'")
    kind, _, rest = text.strip().partition(":")
    engine_type = ENGINES.get(kind.strip().lower())
    if engine_type is None:
        known = ", ".join(e.spec_hint() for e in _listed())
        raise EngineSpecError(f"unknown engine {kind.strip().lower()!r}; known engines: {known}")
    spec = engine_type.read_spec(rest, text)
    return spec.checked() if check else spec


def parse_engine(spec):
    """A new engine of ``spec`` (a spec text, read by ``parse_spec``, or an EngineSpec)."""
    return parse_spec(spec).engine()


def describe_engines():
    """Lines of help text: each engine kind and its parameters."""
    return [line for engine_type in _listed() for line in engine_type.describe()]


def _listed():
    """The kinds as help lists them: the programs of their own last."""
    return sorted(ENGINES.values(), key=lambda e: e.external)
