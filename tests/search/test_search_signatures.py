"""Search signatures: seeded, single-threaded searches whose whole report is pinned.

A search that is deterministic for a seed reports the same move, value, line, node count and
per-move statistics on every run, in every process (test_search_determinism.py checks that).
These runs pin what it reports, as a chess engine's `bench` signature pins its node count: a
change to move ordering, pruning, the table, a hash, a blend of statistics or a tie-break
changes some figure here even when every value stays right. Such changes are the mutants that
the value-checking tests cannot see (tools/mutate_cython.py; docs/testing.md, "Mutation
testing"): a move order that costs more nodes, an early cut-off skipped, a RAVE or MAST table
that hashes or blends differently.

The figures are a record of the code, not a truth: when a change of behaviour is meant (a
better move order, another playout policy), look at what moved, then record them again
from the repository's root:

    python -m tests.search.test_search_signatures --record

and say in the commit why they moved. Only node counts, visits and lines may move for a
search improvement; a proven value (a Connect Four solve here) never may: the solved-position
tests check those against an independent solver.
"""
import json
import pathlib
import sys

import pytest


from roost.core.games import get_game                       # noqa: E402
from roost.search.engines import parse_engine                # noqa: E402
from tests.search.positions import bench_position, kinds_of_positions   # noqa: E402

RECORD = pathlib.Path(__file__).resolve().parent / "signatures" / "search.json"
RERECORD = "python -m tests.search.test_search_signatures --record"     # from the repository's root
SEED = 5

# Connect Four positions (moves from the start, columns 1-7) of src/core/data/connect4 whose
# proofs take a few thousand nodes: the proof's move order, the table and the window tests
# (won, lost and drawn)
C4_SOLVES = ["7427466465253455364", "63665457623455764614274423517", "2611111172444374",
             "2214625612264131", "772753265126117", "25775633643571214421671",
             "5234212226725317455",
             # a win whose distance bisection narrows on a test's fail-high value
             "11756175663221162771326537765"]
# Tweeeet endings with no chance left, drawn (test_mcts_statistics.py): a proof of a game
# that names no moves for it, ordered by the table, the killers and generation order
TWEEEET_SOLVES = [
    "7:.o~.o~o../oo~~..o../.~~o.o..o/.oo~o.~../o.o~o~.../...o.~o~5/~~.o.oo../.~.oo..~o/"
    "~...oo~.2/3~...~.45/.~~oo3.../5..o~4~../N.N.N.N.N i14:4 e11:7 g19:1 e19:2 MB",
    "12:...~~o.oo/~.oo.o..~/~o~o..o../.~o..oo~./.~.o~..oo/.5o~~o.../...ooo~.~/N.N.N.N.N "
    "g15:6 a19:1 e19:1 a19:2 MR"]


def _position(name):
    """A position by name: GAME:bench, GAME:middle or GAME:end (default players, seed 1),
    GAME/Np:middle, or c4:MOVES."""
    if name.startswith("c4:"):
        return get_game("connect4").parse(name[3:])
    if name.startswith("tweeeet ending "):
        return get_game("tweeeet").parse(TWEEEET_SOLVES[int(name.split()[-1])])
    game, _, kind = name.partition(":")
    game, _, players = game.partition("/")
    info = get_game(game)
    if kind == "bench":
        return bench_position(info)
    players = int(players[:-1]) if players else info.default_players
    return dict(kinds_of_positions(info, players))[f"{info.name}/{players}p {kind}"]


# (position, engine spec, solve)
RUNS = [
    # alpha-beta at fixed depth: move order, killers, history, the table, PVS re-searches
    ("connect4:bench", "ab:depth=7", False),
    ("connect4:middle", "ab:depth=6", False),
    ("ducks:bench", "ab:depth=4", False),
    ("ducks:middle", "ab:depth=4", False),
    ("tweeeet:bench", "ab:depth=4", False),
    ("tweeeet:middle", "ab:depth=3", False),
    ("cubirds:bench", "ab:depth=2,paranoid=1", False),
    ("cubirds/2p:middle", "ab:depth=3", False),
    ("leaves:middle", "ab:depth=2", False),
    ("wingspan:bench", "ab:depth=3", False),
    ("wingspan:middle", "ab:depth=2", False),
    # chance: Star1, Star2 probes, no pruning, sampled chance, paranoid with chance
    ("dice:bench", "ab:depth=4", False),
    ("dice:bench", "ab:depth=4,star=1", False),
    ("dice:bench", "ab:depth=4,star=0", False),
    ("dice:bench", "ab:depth=3,exact=2,samples=3", False),
    ("tweeeet:before chance", "ab:depth=3", False),
    ("tweeeet:before chance", "ab:depth=3,star=1", False),
    ("cubirds/2p:before chance", "ab:depth=2", False),
    ("cubirds/4p:middle", "ab:depth=2,paranoid=1", False),
    # node limits
    ("connect4:bench", "ab:nodes=3000", False),
    ("ducks:middle", "ab:nodes=2000", False),
    ("dice:bench", "ab:nodes=98", False),
    ("dice:bench", "ab:nodes=301", False),
    ("tweeeet:before chance", "ab:nodes=500", False),
    # MCTS: UCT, the solver, chance nodes and widening, max^n, tree size, playout cut-off
    ("connect4:bench", "mcts:iterations=1500", False),
    ("connect4:middle", "mcts:iterations=1500", False),
    ("connect4:middle", "mcts:iterations=1500,solver=0", False),
    ("ducks:middle", "mcts:iterations=1200", False),
    ("dice:bench", "mcts:iterations=1200", False),
    ("dice:bench", "mcts:iterations=1200,widen=2,alpha=0.3", False),
    ("tweeeet:middle", "mcts:iterations=800,plies=6", False),
    ("tweeeet:middle", "mcts:iterations=800,plies=0", False),
    ("cubirds/3p:middle", "mcts:iterations=800", False),
    ("leaves/3p:middle", "mcts:iterations=500", False),
    ("connect4:bench", "mcts:iterations=1500,nodes=1000", False),
    ("connect4:bench", "mcts:iterations=1000,c=0.4", False),
    # MCTS options: RAVE, GRAVE, implicit minimax, progressive bias, playout policies
    ("connect4:bench", "mcts:iterations=1200,rave=50", False),
    ("connect4:middle", "mcts:iterations=1200,rave=50,grave=20", False),
    ("ducks:middle", "mcts:iterations=1000,rave=100,grave=10", False),
    ("tweeeet:middle", "mcts:iterations=800,rave=50,plies=4", False),
    ("connect4:middle", "mcts:iterations=1000,rave=30,grave=5,plies=3", False),
    ("connect4:middle", "mcts:iterations=1200,imm=0.3", False),
    ("ducks:middle", "mcts:iterations=1000,bias=2", False),
    ("connect4:bench", "mcts:iterations=1000,imm=0.5,bias=1", False),
    ("connect4:middle", "mcts:iterations=1000,playout=eval", False),
    ("ducks:middle", "mcts:iterations=800,playout=mast", False),
    ("leaves:middle", "mcts:iterations=500,playout=mast", False),
    ("wingspan:middle", "mcts:iterations=300,playout=mast,epsilon=0.3", False),
    ("tweeeet:middle", "mcts:iterations=800,playout=eval,plies=10", False),
    # hidden information: ISMCTS and PIMC
    ("cubirds:middle", "ismcts:iterations=1000", False),
    ("leaves:middle", "ismcts:iterations=600", False),
    ("wingspan:middle", "ismcts:iterations=300,playout=mast", False),
    ("cubirds:middle", "pimc:worlds=3,iterations=300", False),
    ("leaves:middle", "pimc:worlds=2,iterations=300,rave=30", False),
] + [(f"c4:{moves}", "ab:tt=16", True) for moves in C4_SOLVES] + [
    (f"tweeeet ending {i}", "ab:tt=16", True) for i in range(len(TWEEEET_SOLVES))]


def _round(x):
    return None if x is None else round(x, 9)


def signature(position, spec, solve):
    state = _position(position)
    if spec.startswith("ab:") and "tt=" not in spec:
        spec += ",tt=16"         # a small table: quick to allocate, and its collisions pinned too
    kwargs = {"solve": True} if solve else {}
    r = parse_engine(spec).choose(state, seed=SEED, **kwargs)
    return {"move": r.move, "value": _round(r.value), "score": r.score, "pv": r.pv,
            "nodes": r.nodes, "iterations": r.iterations, "depth": r.depth, "proven": r.proven,
            "stats": [[s.move, s.visits, _round(s.value), s.proven, s.bound] for s in r.stats],
            "info": {k: v for k, v in sorted(r.info.items()) if k != "seconds"}}


def _key(run):
    position, spec, solve = run
    return f"{position} {spec}" + (" solve" if solve else "")


@pytest.fixture(scope="module")
def recorded():
    assert RECORD.is_file(), f"{RECORD} is missing: {RERECORD}"
    return json.loads(RECORD.read_text())


@pytest.mark.parametrize("run", RUNS, ids=_key)
def test_a_seeded_search_reports_what_is_recorded(run, recorded):
    key = _key(run)
    assert key in recorded, f"no signature recorded for {key!r}: {RERECORD}"
    got = signature(*run)
    want = recorded[key]
    # name the first field that differs, then compare the whole report
    for field in want:
        assert got[field] == want[field], f"{key}: {field} {got[field]!r}, recorded {want[field]!r}"
    assert got == want


def test_every_recorded_signature_is_run(recorded):
    assert sorted(recorded) == sorted(_key(r) for r in RUNS)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(f"usage: {RERECORD}, from the repository's root (rewrites {RECORD})")
    RECORD.parent.mkdir(exist_ok=True)
    out = {_key(run): signature(*run) for run in RUNS}
    RECORD.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(out)} signatures written to {RECORD}")
