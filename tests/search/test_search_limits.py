"""Every search honours its limits on every game: a hang guard, not a speed test.

Each engine family runs with a small time budget, a node limit or a depth on positions of
every registered game, chance-heavy ones included (a CuBirds redeal, a Tweeeet row draw, a
Leaves refill, Wingspan in mid-game, two hard CuBirds positions).  A search that never
returns would hang the test run, so the searches run in a worker process (this file run as
a script) that reports each search as it starts and ends; the test fails, naming the search,
if the worker overruns or any search takes far longer than its budget.
"""
import json
import os
import subprocess
import sys
import time

import pytest

# run as a script too (the hang guard below): the repository root, for `tests.`
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

BUDGET = 0.1          # seconds each timed search may use
GUARD = 3.0           # a search taking longer than this has overrun (the machine is shared)
NODE_LIMIT = 3000


def timed_specs(state):
    paranoid = ",paranoid=1" if state.players > 2 else ""
    return ["random", f"ab:time={BUDGET}{paranoid}", f"ab:time={BUDGET},threads=2{paranoid}",
            f"ab:time={BUDGET},lmr=1,threads=2{paranoid}", f"mcts:time={BUDGET}",
            f"ismcts:time={BUDGET}", f"pimc:time={BUDGET}", f"mcts:time={BUDGET},threads=2",
            f"ismcts:time={BUDGET},threads=2", f"pimc:time={BUDGET},threads=3",
            # the playout policies and the evaluation in the tree, on one thread and two
            f"mcts:time={BUDGET},playout=eval,imm=0.5,bias=1,rave=100,grave=20",
            f"mcts:time={BUDGET},playout=mast,imm=0.5,bias=1,rave=100,grave=20,threads=2",
            f"mcts:time={BUDGET},playout=eval,plies=10,threads=2",
            f"mcts:time={BUDGET},chance=open,imm=0.8", f"mcts:time={BUDGET},chance=open,imm=0.5,threads=2",
            f"ismcts:time={BUDGET},playout=mast", f"ismcts:time={BUDGET},playout=eval,threads=2",
            f"mcts:time={BUDGET},playout=decisive,imm=0.5,threads=2", f"ismcts:time={BUDGET},playout=decisive",
            f"pimc:time={BUDGET},playout=eval,plies=10,imm=0.5", f"mcts:time={BUDGET},discount=0.97,threads=2",
            f"ismcts:time={BUDGET},plies=20,quiet=1,threads=2",
            f"pimc:time={BUDGET},playout=mast,rave=50,grave=5,bias=1,threads=2"]


def limited_specs(state):
    paranoid = ",paranoid=1" if state.players > 2 else ""
    return [f"ab:nodes={NODE_LIMIT}{paranoid}", f"ab:nodes={NODE_LIMIT},lmr=1{paranoid}",
            f"ab:nodes={NODE_LIMIT},lmr=1,threads=2{paranoid}", f"ab:depth=1{paranoid}", f"ab:nodes={NODE_LIMIT},threads=2{paranoid}", f"ab:depth=2,threads=2{paranoid}", "mcts:iterations=50",
            "ismcts:iterations=50", "pimc:worlds=2,iterations=25", "mcts:iterations=50,threads=2",
            "pimc:worlds=3,iterations=25,threads=2",
            "mcts:iterations=50,playout=mast,plies=20,imm=1,bias=2,rave=10",
            "mcts:iterations=50,chance=open,imm=0.8", "mcts:iterations=50,chance=open,threads=2",
            "mcts:iterations=50,playout=eval,plies=20,imm=1,bias=2,rave=10,grave=5,threads=2",
            "ismcts:iterations=50,playout=eval", "ismcts:iterations=50,playout=mast,threads=2",
            "mcts:iterations=50,playout=decisive,plies=20", "pimc:worlds=2,iterations=25,playout=decisive,threads=2",
            "pimc:worlds=2,iterations=25,playout=mast,rave=50,grave=5", "ismcts:iterations=50,discount=0.95",
            "ismcts:iterations=50,plies=10,quiet=1",
            "pimc:worlds=3,iterations=25,playout=eval,imm=0.5,bias=1,threads=2"]


CLI_RUNS = [
    # commands on those CuBirds positions, each of which must return with an answer
    ["cubirds", "REDEAL", "--engine", "ab:depth=1"],
    ["cubirds", "REDEAL", "--engine", "ab:time=0.01"],
    ["cubirds", "REDEAL", "--engine", "ab:nodes=1000"],
    ["cubirds", "REDEAL", "--engine", "ab:depth=2,paranoid=1"],
    ["cubirds", "LAY", "--engine", "ab:depth=2"],
    ["cubirds", "LAY", "--engine", "ab:depth=3"],
    ["cubirds", "REDEAL", "--engine", f"pimc:time={BUDGET}"],
    ["cubirds", "LAY", "--engine", f"ismcts:time={BUDGET}"],
]


def worker():
    """Run every search, printing a JSON line when each starts and when it ends."""
    from click.testing import CliRunner
    from roost.cli.main import cli
    from roost.search.engines import parse_engine
    from tests.search.positions import CUBIRDS_LAY, CUBIRDS_REDEAL, every_game_positions

    def report(**fields):
        print(json.dumps(fields), flush=True)

    for label, state in every_game_positions():
        for spec in timed_specs(state) + limited_specs(state):
            report(start=f"{label}: {spec}")
            t0 = time.monotonic()
            r = parse_engine(spec).choose(state, seed=1)
            report(done=f"{label}: {spec}", spec=spec, wall=time.monotonic() - t0,
                   legal=r.move in state.legal(), nodes=r.nodes, iterations=r.iterations)
    for args in CLI_RUNS:
        args = [{"REDEAL": CUBIRDS_REDEAL, "LAY": CUBIRDS_LAY}.get(a, a) for a in args]
        label = "roost analyse " + " ".join(a if len(a) < 40 else a[:30] + "..." for a in args)
        report(start=label)
        t0 = time.monotonic()
        r = CliRunner().invoke(cli, ["analyse", *args])
        report(done=label, spec="cli", wall=time.monotonic() - t0, legal=r.exit_code == 0,
               nodes=0, output=r.stdout[:400])        # the answer, not the progress


@pytest.fixture(scope="module")
def runs():
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = p.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    started = [l["start"] for l in lines if "start" in l]
    done = {l["done"]: l for l in lines if "done" in l}
    hung = [s for s in started if s not in done]
    assert not hung and p.returncode == 0, f"the search {hung[-1] if hung else '?'} did not return: {err[-2000:]}"
    return list(done.values())


def test_every_engine_answers_within_its_time_budget_on_every_game(runs):
    timed = [r for r in runs if "time=" in r["spec"]]
    assert len(timed) >= 17 * 4
    slow = [(r["done"], round(r["wall"], 2)) for r in timed if r["wall"] > GUARD]
    assert not slow, f"overran a {BUDGET} s budget: {slow}"
    assert all(r["legal"] for r in runs if r["spec"] != "cli")


def test_node_and_depth_limits_end_the_search_on_every_game(runs):
    limited = [r for r in runs if "time=" not in r["spec"] and r["spec"] not in ("cli", "random")]
    assert len(limited) >= 17 * 5
    slow = [(r["done"], round(r["wall"], 2)) for r in limited if r["wall"] > 10 * GUARD]
    assert not slow, f"these searches took far too long for their limit: {slow}"
    counted = [r for r in limited if "iterations=50" in r["spec"] and r["spec"].startswith("mcts")]
    assert counted and all(r["iterations"] == 50 for r in counted)
    over = [(r["done"], r["nodes"]) for r in limited
            if r["spec"].startswith(f"ab:nodes={NODE_LIMIT}") and r["nodes"] > NODE_LIMIT]
    assert not over, f"searched past the node limit: {over}"


def test_the_cubirds_commands_return_with_an_answer(runs):
    cli = [r for r in runs if r["spec"] == "cli"]
    assert len(cli) == len(CLI_RUNS)
    for r in cli:
        assert r["legal"] and "best     " in r["output"], r
        assert r["wall"] < 10 * GUARD, r


if __name__ == "__main__":
    worker()
