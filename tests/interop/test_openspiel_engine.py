"""The openspiel engine kind: OpenSpiel's MCTS bot as a roost engine in analyse, play and
tournament (the C++ bot on OpenSpiel's own connect_four, the Python one on bridged games)."""
import json

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.errors import EngineSpecError
from roost.core.games import get_game
import roost.interop.engine  # noqa: F401  (registers the openspiel kind)
from roost.search.engines import parse_engine
from roost.search.limit import Limit


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def test_specs_name_the_bot_first():
    assert str(parse_engine("openspiel:mcts,sims=100").spec) == "openspiel:mcts,sims=100"
    assert str(parse_engine("openspiel").spec) == "openspiel:mcts"
    assert str(parse_engine("openspiel:sims=5,c=1.5").spec) == "openspiel:mcts,sims=5,c=1.5"
    with pytest.raises(EngineSpecError, match="bot must be one of mcts, random"):
        parse_engine("openspiel:alphazero")
    with pytest.raises(EngineSpecError, match="malformed parameter 'mcts'"):
        parse_engine("openspiel:sims=5,mcts")
    with pytest.raises(EngineSpecError, match="sims must be at least 1"):
        parse_engine("openspiel:mcts,sims=0")


def test_on_connect4_it_is_openspiels_cpp_bot_on_connect_four():
    state = get_game("connect4").parse("415161")         # X wins at 3 or 7
    r = parse_engine("openspiel:mcts,sims=300").choose(state, seed=1)
    assert r.move_name in ("3", "7") and r.proven == "win" and r.value == 1.0
    assert r.info["openspiel"] == "connect_four (C++ MCTSBot)"
    assert r.iterations <= 300 and sum(s.visits for s in r.stats) >= r.iterations - 1


def test_time_limits_the_cpp_bot_and_is_refused_elsewhere():
    state = get_game("connect4").parse("-")
    r = parse_engine("openspiel:mcts,time=0.2").choose(state, seed=1)
    assert 0.1 < r.seconds < 5.0 and r.iterations > 10
    with pytest.raises(EngineSpecError, match="time= needs OpenSpiel's C\\+\\+ bot"):
        parse_engine("openspiel:mcts,time=0.2").choose(get_game("ducks").parse("5/6/7/8/9/8/7/6/5 w 0"))


def test_a_clock_reaches_the_cpp_bot_and_a_node_budget_every_bot():
    # the arena's time manager (and `go clock` in `roost engine`) lays its allotment over
    # the spec through a Limit: the C++ bot's time limit on connect4; nodes are sims
    engine = parse_engine("openspiel:mcts")
    start = get_game("connect4").parse("-")
    r = engine.choose(start, Limit(time=0.2), seed=1)
    assert 0.1 < r.seconds < 5.0 and r.iterations > 1000       # not the default 1000 sims
    assert engine.choose(start, Limit(nodes=30), seed=1).iterations == 30
    ducks = get_game("ducks").parse("5/6/7/8/9/8/7/6/5 w 0")
    # the Python bot has no time limit
    assert engine.choose(ducks, Limit(time=0.01, nodes=5), seed=1).iterations == 5
    assert str(engine.spec) == "openspiel:mcts"


def test_on_a_bridged_game_it_is_the_python_bot():
    state = get_game("ducks").parse("bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0")
    r = parse_engine("openspiel:mcts,sims=20").choose(state, seed=3)
    assert r.move in state.legal()
    assert r.info["openspiel"] == "roost_ducks (Python MCTSBot)" and r.iterations == 20


def test_on_a_hidden_information_game_it_searches_the_movers_information_only():
    cubirds = get_game("cubirds")
    state = cubirds.start(players=3, seed=4)
    engine = parse_engine("openspiel:mcts,sims=8")
    r = engine.choose(state, seed=9)
    assert r.info.get("determinized") and r.move in state.legal()
    # another world the mover cannot tell apart gives the same search
    other = state.determinized(state.player, 77)
    assert engine.choose(other, seed=9).move == r.move


def test_play_connect4_against_openspiel():
    r = run("play", "connect4", "-e", "openspiel:mcts,sims=400", "-e", "random", "--games", 2, "--seed", 3)
    assert r.exit_code == 0, r.output
    assert "openspiel:mcts,sims=400 vs random: 2-0" in r.output


def test_play_and_tournament_on_a_bridged_game(tmp_path):
    r = run("play", "leaves", "-e", "openspiel:mcts,sims=2", "-e", "random", "--games", 1, "--seed", 1)
    assert r.exit_code == 0, r.output
    db = tmp_path / "t.db"
    r = run("tournament", "connect4", "-e", "openspiel:mcts,sims=50", "-e", "mcts:iterations=50",
            "--games", 2, "--db", db, "--seed", 2)
    assert r.exit_code == 0, r.output
    out = run("export", db)
    games = [json.loads(line) for line in out.output.splitlines()]
    assert len(games) == 2 and {"openspiel:mcts,sims=50"} <= set(games[0]["seats"])


def test_a_time_limit_on_a_bridged_game_is_refused_before_the_first_game():
    # an engine that cannot play the game is the command's error, said once and up front
    # (not a forfeit of every game)
    r = run("play", "ducks", "-e", "openspiel:mcts,time=1", "-e", "random")
    assert r.exit_code == 1 and "game 1" not in r.output
    assert "openspiel:mcts,time=1 cannot play" in r.output
    assert "time= needs OpenSpiel's C++ bot" in r.output
