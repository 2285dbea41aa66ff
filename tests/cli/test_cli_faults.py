"""Smaller faults of the command line: one rule for a missing position (the game's default,
in every command), a proven line that runs to the end of the game, one meaning for
--moves, output and position files checked for what they are before any work."""
import json
import os

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.games import get_game

WIN_IN_THREE = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 39"


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), r.exception
    return r


def _played(game, text, names):
    state = get_game(game).parse(text)
    for name in names:
        assert not state.is_over, names
        state.play_move(state.parse_move(name))
    return state


def test_solve_without_a_position_solves_the_default_position_as_every_command_does():
    r = run("solve", "ducks", "--time", "0.2", "--quiet")
    assert r.exit_code == 0, r.output
    assert "unproven within the limit" in r.output
    r = run("solve", "connect4", "--moves", "4 4 5 3", "--time", "0.2", "--quiet", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["verdict"] in ("unproven", "win", "loss", "draw")


@pytest.mark.parametrize("game,position,plies", [
    ("ducks", WIN_IN_THREE, 3),             # the search's line stopped after 2 plies
    ("connect4", "2214625612264131", 20),   # ... after 18
])
def test_a_proven_line_runs_to_the_end_of_the_game(game, position, plies):
    r = run("solve", game, position, "--quiet", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["score"].endswith(f" in {plies}") and len(out["pv"]) == plies
    end = _played(game, position, out["pv"])
    assert end.is_over
    mover = get_game(game).parse(position).player
    won = out["proven"] == "win"
    assert end.result()[mover] == (1.0 if won else 0.0)
    text = run("solve", game, position, "--quiet").output
    assert "pv " + " ".join(out["pv"]) in text


def test_a_drawn_line_runs_to_the_end_of_the_game_and_ends_drawn():
    # the proof's own line stops after 5 plies here (its table keeps only a bound on the
    # draw below): the line is solved on from there until the board is full
    position = "25775633643571214421671"
    r = run("solve", "connect4", position, "--quiet", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["proven"] == "draw" and len(out["pv"]) == 42 - len(position)
    end = _played("connect4", position, out["pv"])
    assert end.is_over and tuple(end.result()) == (0.5, 0.5)


def test_play_prints_its_moves_with_print_moves_and_moves_keeps_one_meaning():
    r = run("play", "connect4", "-e", "random", "--print-moves")
    assert r.exit_code == 0 and "   1. p0: " in r.output
    # --moves plays moves first wherever it exists; play has no such option
    r = run("play", "connect4", "-e", "random", "--moves")
    assert r.exit_code == 2 and "No such option '--moves'" in r.output


@pytest.mark.parametrize("where,fault", [
    ("missing/w.json", "does not exist"),
    ("a-file/w.json", "is a file, not a folder"),
])
def test_tune_checks_its_output_file_before_the_self_play(tmp_path, monkeypatch, where, fault):
    import roost.arena.tuning

    def self_play(*args, **kw):
        raise AssertionError("the self-play ran before the output file was checked")
    monkeypatch.setattr(roost.arena.tuning, "tune", self_play)
    (tmp_path / "a-file").write_text("")
    r = run("tune", "ducks", "--games", "2", "-o", tmp_path / where)
    assert r.exit_code == 2 and "--output" in r.output and fault in r.output, r.output


def test_a_position_path_that_leads_to_no_file_is_reported_as_a_file_problem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("loop", "loop")
    os.symlink("nowhere.txt", "dangling")
    (tmp_path / "pos.txt").write_text("5/6/7/8/9/8/7/6/5 w 0\n")
    for args, fault in [(["loop"], "'loop': a loop of symbolic links leads to no file"),
                        (["dangling"], "'dangling' is a symbolic link to 'nowhere.txt', which does not exist"),
                        (["pos.txt/x"], "'pos.txt/x': 'pos.txt' is a file, not a folder")]:
        for game in ("ducks", "cubirds"):
            r = run("show", game, *args)
            assert r.exit_code == 2 and "POSITION" in r.output and fault in r.output, r.output
        r = run("play", "ducks", "-e", "random", "--position", *args)
        assert r.exit_code == 2 and "--position" in r.output and fault in r.output, r.output
    assert run("show", "ducks", "pos.txt").exit_code == 0
