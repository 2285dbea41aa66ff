"""The same seed gives the same search in a fresh process: mcts, ismcts, pimc and
alpha-beta, on a perfect-information game and on hidden cards, run through `roost analyse`
in two new interpreters with different hash seeds (so nothing may depend on the order of a
set or dict of strings, on addresses or on the clock); everything reported but the timing
must agree."""
import json
import os
import subprocess
import sys

from roost.core.games import get_game

CUBIRDS = get_game("cubirds").start(players=3, seed=4).text()
DUCKS = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
RUNS = [(game, position, spec)
        for game, position in (("ducks", DUCKS), ("cubirds", CUBIRDS))
        for spec in ("mcts:iterations=1500", "ismcts:iterations=1500", "pimc:worlds=3,iterations=500",
                     "ab:depth=3" + (",paranoid=1" if game == "cubirds" else ""))]

WORKER = """
import json, sys
from click.testing import CliRunner
from roost.cli.main import cli
out = []
for game, position, spec in json.loads(sys.argv[1]):
    r = CliRunner().invoke(cli, ["analyse", game, position, "--engine", spec, "--seed", "7", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)          # the progress lines go to stderr
    d.pop("seconds"); d.pop("speed")
    out.append(d)
print(json.dumps(out))
"""


def reports(hash_seed):
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    r = subprocess.run([sys.executable, "-c", WORKER, json.dumps(RUNS)], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_seed_gives_the_same_search_in_a_fresh_process():
    first, second = reports(hash_seed=1), reports(hash_seed=2)
    assert len(first) == len(RUNS)
    for run, a, b in zip(RUNS, first, second):
        assert a == b, run[2]
        assert a["stats"] and a["pv"]


def test_the_seed_of_each_move_decides_the_search_of_a_kept_engine():
    # one engine object choosing again: the same seed repeats the search exactly (the
    # generator is reseeded, not continued), another seed gives another search
    from roost.search.engines import parse_engine
    state = get_game("cubirds").start(players=3, seed=4)
    for spec in ("ismcts:iterations=400", "mcts:iterations=400,reuse=0", "pimc:worlds=2,iterations=200",
                 "ab:depth=2,paranoid=1"):
        e = parse_engine(spec)
        first = e.choose(state, seed=3)
        again = e.choose(state, seed=3)
        other = e.choose(state, seed=4)
        rows = [[(x.move, x.visits, x.value) for x in r.stats] for r in (first, again, other)]
        assert rows[0] == rows[1], spec
        assert rows[0] != rows[2], spec
