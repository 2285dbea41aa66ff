"""The engines the arena seats.  Every engine kind is known here: the searchers' own, a
program speaking the engine protocol (``cmd:``, ``roost.protocol.client``) and OpenSpiel's
bots (``openspiel:``, ``roost.interop.engine``), whose modules register their kinds when
imported; the command line and the web server read specs through this module's
``parse_spec``, ``kind_of`` and ``describe_engines`` for that reason.  An in-process spec
is played in this process, or, on a clock or under a hang guard, from a worker process
(``python -m roost.arena.worker``) the arena can end when it overruns.
"""
import sys

import roost.interop.engine  # noqa: F401  (registers openspiel:)
from roost.protocol.client import HANDSHAKE_TIMEOUT, HANG_GUARD, ProtocolEngine  # registers cmd:
from roost.search.engines import describe_engines, kind_of, parse_spec  # noqa: F401  (every kind known)


def arena_engine(spec, game=None, tc=None, hang_guard=None):
    """The engine the arena seats for ``spec`` (an EngineSpec or a spec text): a roost
    engine in this process, or with a time control (``tc``) or a hang guard (``hang_guard``
    seconds a move may take without a clock) in a worker process the arena can end; a
    program of its own (``cmd:``) as it is, under the hang guard."""
    spec = parse_spec(spec)
    if spec.external:
        engine = spec.engine()
        if hang_guard:
            engine.hang_guard = hang_guard
        return engine
    if tc is None and not hang_guard:
        return spec.engine()
    return worker_engine(spec, game, hang_guard or HANG_GUARD)


def worker_engine(spec, game, hang_guard=HANG_GUARD):
    """``spec`` (a roost engine) for ``game``, served from a worker process."""
    argv = [sys.executable, "-m", "roost.arena.worker", game.name, "--engine", str(spec)]
    # a worker that starts slowly on a loaded machine must not forfeit its handshake before
    # a move would have
    return ProtocolEngine(spec, argv, hang_guard=hang_guard,
                          handshake_timeout=max(HANDSHAKE_TIMEOUT, hang_guard))
