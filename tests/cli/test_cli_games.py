"""Every command on every game (Tweeeet's chance, CuBirds' hidden hands, Under the Leaves'
player counts), through Click's runner."""
import json

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.games import all_games

NO_CHANCE_LEFT = ("15:.~o~..2.3/~.o...~34/.5...~2~4/o.~o.~..o/N.N.N.N.N "
                  "d18:3 c19:6 a18:2 i18:5 MR")        # tweeeet: the nest row is laid


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    return r


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_show_perft_analyse_play_on_every_game(game):
    assert run("show", game).exit_code == 0
    r = run("perft", game, 2)
    assert r.exit_code == 0 and "perft(2) = " in r.output
    r = run("analyse", game, "--engine", "mcts:iterations=200", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["iterations"] == 200
    r = run("play", game, "-e", "random", "-e", "mcts:iterations=20", "--games", 2, "--seed", 4)
    assert r.exit_code == 0, r.output
    assert "in 2 games" in r.output


def test_tweeeet_solve_without_chance_left_and_a_clear_message_with_it():
    r = run("solve", "tweeeet", NO_CHANCE_LEFT)
    assert r.exit_code == 0 and "loss in 9 for the robins (player 0)" in r.output
    r = run("solve", "tweeeet", "0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR")
    assert r.exit_code == 1 and "chance ahead" in r.output


def test_tweeeet_analysis_says_the_value_is_an_expectation():
    r = run("analyse", "tweeeet", "--engine", "ab:depth=2")
    assert r.exit_code == 0 and "not a proof" in r.output
    r = run("analyse", "tweeeet", NO_CHANCE_LEFT, "--engine", "ab:depth=12")
    assert r.exit_code == 0 and "best     b17  loss in 9 for the robins" in r.stdout and "not a proof" not in r.stdout


def test_tweeeet_chance_node_show_and_refusals():
    chance = "0:-...S...-/~..o.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. d1:8 e0:7 e0:8 e0:9 MB"
    r = run("show", "tweeeet", chance)
    assert r.exit_code == 0 and "chance is to act: 80640 outcomes" in r.output
    r = run("analyse", "tweeeet", chance)
    assert r.exit_code == 2 and "chance is to act here" in r.output
    r = run("perft", "tweeeet", chance, 3)
    assert "perft(3) = 1" in r.output             # docs/rules/tweeeet.md §12: a chance node counts 1


def test_a_human_plays_tweeeet():
    r = run("play", "tweeeet", "--human", "-e", "random", input="zz\nf1\nquit\n")
    assert "'zz'" in r.output and r.exit_code == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_leaves_with_players(players):
    r = run("show", "leaves", "--players", players)
    assert r.exit_code == 0 and f"{players} players" in r.output
    r = run("perft", "leaves", 1, "--players", players)
    assert "perft(1) = 96" in r.output           # docs/rules/leaves.md §12.2: 3 tiles x 4 slots x 8
    r = run("analyse", "leaves", "--players", players, "--engine", "mcts:iterations=100")
    assert r.exit_code == 0, r.output
    engines = ["-e", "random"] * players
    r = run("play", "leaves", "--players", players, *engines, "--games", 1, "--seed", 1)
    assert r.exit_code == 0 and "game 1:" in r.output
    r = run("bench", "--quick", "--game", "leaves", "--players", players)
    assert r.exit_code == 0 and f"leaves    {players}" in r.output


def test_bad_player_counts_are_refused():
    assert "played by 2 to 4 players, not 5" in run("show", "leaves", "--players", 5).output
    assert run("show", "leaves", "--players", 5).exit_code != 0
    r = run("bench", "--quick", "--game", "ducks", "--players", 3)
    assert r.exit_code == 2 and "none of the chosen games" in r.output
