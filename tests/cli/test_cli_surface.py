"""The analyst's surface: positions from moves, files and standard input, the
show formats, and the same words for the same thing in every command; through Click's runner."""
import json
import os

import pytest
from click.testing import CliRunner

from roost.cli.main import cli

WON = "5/6/7/wwwwbbbb/wwww*bbbb/www2bbb/w4b1/6/5 b 1"          # White has gathered
WIN_IN_THREE = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), r.exception
    return r


def fails(r, option, *fragments):
    assert r.exit_code == 2, r.output
    assert option in r.output, r.output
    for f in fragments:
        assert f in r.output, r.output


# ---------------------------------------------------------------- positions

def test_moves_are_played_first_in_show_perft_analyse_and_solve():
    r = run("show", "ducks", "--moves", "W@a1 B@a2", "--text")
    assert r.exit_code == 0 and r.output.strip() == "5/6/7/8/9/8/7/6/wb3 w 0"
    assert run("perft", "ducks", "--moves", "W@a1 B@a2", 1).output.count("perft(1) = 44") == 1
    r = run("analyse", "ducks", "--moves", "W@a1 B@a2", "-e", "ab:depth=1", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["move"].startswith(("W@", "B@"))
    # solve: i5 is the win; after it the loser is to move and the proof is a loss in 2
    r = run("solve", "ducks", WIN_IN_THREE, "--moves", "i5")
    assert r.exit_code == 0 and "loss in 2" in r.output


def test_a_bad_move_names_its_index_and_the_legal_moves():
    r = run("show", "ducks", "--moves", "W@a1 zz")
    fails(r, "--moves", "move 2 ('zz')", "not a cell name", "legal: W@a2")
    r = run("perft", "ducks", "--moves", "W@a1 W@a1", 1)
    fails(r, "--moves", "move 2 ('W@a1') is not legal here", "legal: W@a2")
    r = run("show", "tweeeet", "--moves", "d1 zz")
    fails(r, "--moves", "move 2 ('zz')", "chance is to act; its outcomes:")
    r = run("show", "ducks", WON, "--moves", "W@a1")
    fails(r, "--moves", "the game is over after move 0")


def test_a_position_from_standard_input_a_file_and_the_faults_of_each(tmp_path):
    text = run("show", "ducks", "--moves", "W@a1", "--text").output
    r = run("show", "ducks", "-", input=text)
    assert r.exit_code == 0 and "position: 5/6/7/8/9/8/7/6/w4 b 0" in r.output
    saved = tmp_path / "pos.txt"
    saved.write_text(text)
    assert "position: 5/6/7/8/9/8/7/6/w4 b 0" in run("show", "ducks", saved).output
    fails(run("show", "ducks", "-", input=""), "POSITION", "standard input is empty")
    fails(run("show", "ducks", tmp_path), "POSITION", "is a directory")
    fails(run("show", "ducks", "/dev/null"), "POSITION", "is a device")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    fails(run("show", "ducks", empty), "POSITION", "is empty")
    locked = tmp_path / "locked.txt"
    locked.write_text(text)
    os.chmod(locked, 0)
    if not os.access(locked, os.R_OK):             # (root reads anything)
        fails(run("show", "ducks", locked), "POSITION", "cannot read")
    fails(run("show", "ducks", ""), "POSITION", "the position is empty")
    fails(run("analyse", "ducks", "  "), "POSITION", "the position is empty")


def test_show_text_and_json():
    r = run("show", "connect4", "4453", "--text")
    assert r.output == "4453\n"
    d = json.loads(run("show", "connect4", "4453", "--json").output)
    assert d["position"] == "4453" and d["to_move"] == 0 and d["side_to_move"] == "X"
    assert sorted(d["legal"]) == list("1234567") and d["over"] is False and d["result"] is None
    d = json.loads(run("show", "ducks", WON, "--json").output)
    assert d["over"] and d["result"] == [1, 0] and d["legal"] == [] and "White wins" in d["result_text"]
    fails(run("show", "ducks", "--text", "--json"), "--text", "not both")


def test_a_finished_game_is_shown_with_its_result():
    r = run("show", "ducks", WON)
    assert r.exit_code == 0 and "game over: White wins (result 1 0)" in r.output


def test_wingspan_shows_the_question_and_the_legends():
    r = run("show", "wingspan")
    assert r.exit_code == 0 and "decision: " in r.output
    assert "food: " in r.output or "legend" in r.output
    r = run("show", "tweeeet")
    assert "legend: . grass, ~ water" in r.output and "R male robin" in r.output


# ---------------------------------------------------------------- consistency

def test_g_means_games_in_every_command():
    for cmd in ("play", "tournament"):
        help_text = run(cmd, "--help").output
        assert "-g, --games" in help_text
    assert "-g," not in run("bench", "--help").output and "--game " in run("bench", "--help").output


def test_negative_numbers_reach_the_commands_check():
    fails(run("perft", "ducks", -1), "DEPTH", "between 0 and 64, got -1")
    fails(run("play", "ducks", "-e", "random", "--games", -2), "--games", "must be positive, not -2")
    fails(run("tournament", "ducks", "-e", "random", "-e", "random", "--games", -1), "--games",
          "must be positive, not -1")


def test_the_players_option_is_blamed_only_for_its_own_faults():
    fails(run("show", "ducks", "--players", 3), "--players", "played by 2 players, not 3")
    fails(run("analyse", "ducks", "--players", 3), "--players", "played by 2 players, not 3")
    fails(run("play", "ducks", "-e", "random", "-e", "random", "-e", "random"), "--engine",
          "3 engines given for 2 seats")


def test_tournament_words(tmp_path):
    os.chdir(tmp_path)
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "--games", 400, "--jobs", 1,
            "--sprt", "elo0=0,elo1=300")
    assert r.exit_code == 0, r.output
    assert "storing the games in roost-ducks-" in r.output            # no --db: where they go
    assert "(complete)" not in r.output and "stopped early: the SPRT decided" in r.output
    assert "± 0.0%" not in r.output and "had the same result" in r.output
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1,
            "--db", tmp_path / "t.db")
    assert "storing the games in" not in r.output


def test_a_short_match_shows_its_interval_within_0_and_100_percent():
    r = run("play", "ducks", "-e", "ab:depth=1", "-e", "random", "--games", 2)
    assert r.exit_code == 0
    assert "score 100.0% (95% interval " in r.output and "%)" in r.output


def test_a_dash_is_standard_input_unless_it_is_the_games_own_text():
    assert "perft(1) = 7" in run("perft", "connect4", "-", 1).output            # the empty board
    r = run("show", "connect4", "-", "--text", input="4453\n")
    assert r.output == "4453\n"                                                  # piped: a position
    fails(run("show", "ducks", "-", input=""), "POSITION", "standard input is empty")


@pytest.mark.parametrize("args,fault", [
    (["tournament", "ducks", "-e", "random", "-e", "random", "--games", "100000000000"], "--games"),
    (["tournament", "ducks", "-e", "random", "-e", "random", "--games", "99999999999999999998"], "--games"),
    (["play", "ducks", "-e", "random", "--games", "100000000000"], "--games"),
    (["replay", "x.db", "99999999999999999999"], "GAME_ID"),
])
def test_counts_too_large_to_hold_are_one_message(args, fault, tmp_path, monkeypatch):
    # a huge --games must not spin building the schedule with no output, nor a huge game
    # number reach SQLite as an OverflowError
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.db").write_bytes(b"")
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and fault in r.output and "Traceback" not in r.output
    assert not (tmp_path / "roost.db").exists()
