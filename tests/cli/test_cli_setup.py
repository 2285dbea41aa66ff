"""A match or tournament that cannot be played as asked is an error of the command, said
once and before any game: an engine program that cannot start (the message names it and
quotes what it printed), an engine that cannot play the game with that many players, a
random opening that would end the game."""
import os
import shlex
import sys

import pytest
from click.testing import CliRunner

from roost.cli.main import cli

BOT = os.path.join(os.path.dirname(__file__), os.pardir, "protocol", "bots", "bot.py")


def bot(mode, *extra):
    return "cmd:" + " ".join(shlex.quote(w) for w in [sys.executable, os.path.abspath(BOT),
                                                      "--mode", mode, *extra])


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    if r.exception and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


def refused(r, *says):
    """The command failed with one message (one line) that says all of ``says``."""
    assert r.exit_code not in (0, None), r.output
    lines = [l for l in r.output.splitlines() if l.strip()]
    errors = [l for l in lines if l.startswith("Error: ")]
    assert len(errors) == 1 and not any(l.startswith("game ") for l in lines), r.output
    for s in says:
        assert s in errors[0], r.output
    return errors[0]


def test_play_with_an_engine_that_cannot_start_is_an_error():
    r = run("play", "ducks", "-e", bot("exit"), "-e", "random", "--games", 2)
    refused(r, bot("exit"), "exit code 1", "bot: cannot start: no weights file", "bot: hello")


def test_a_tournament_with_an_engine_that_cannot_start_stores_nothing(tmp_path):
    db = tmp_path / "t.db"
    r = run("tournament", "ducks", "-e", bot("exit"), "-e", "random", "--games", 2, "--jobs", 1,
            "--db", db, "--tc", "5+0.1")
    refused(r, bot("exit"), "bot: cannot start: no weights file")
    assert not db.exists()


def test_an_engine_that_never_shakes_hands_is_an_error_of_play():
    r = run("play", "ducks", "-e", bot("nohandshake"), "-e", "random")
    refused(r, bot("nohandshake"), "handshake")


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_an_engine_that_cannot_play_the_player_count_is_refused_before_any_game(tmp_path, command):
    # four CuBirds players, alpha-beta without paranoid=1: as analyse refuses it
    db = tmp_path / "c.db"
    extra = ["--games", 4, "--db", db, "--jobs", 1] if command == "tournament" else ["--players", 4]
    r = run(command, "cubirds", "-e", "ab:depth=1", "-e", "random", *extra)
    refused(r, "ab:depth=1", "two-player", "paranoid=1")
    assert not db.exists()


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_an_opening_that_ends_the_game_is_refused(tmp_path, command):
    db = tmp_path / "o.db"
    extra = ["--games", 2, "--db", db, "--jobs", 1] if command == "tournament" else []
    r = run(command, "ducks", "-e", "random", "-e", "random", "--opening", 100000, *extra)
    refused(r, "--opening", "100000", "ends the game")
    assert not db.exists()
    r = run(command, "ducks", "-e", "random", "-e", "random", "--opening", 6, *extra)
    assert r.exit_code == 0, r.output
