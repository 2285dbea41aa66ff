"""A seat's view on the command line: `show --as N --text` (and --json) writes what seat N
sees, the view `roost engine` sends it, and `show --as N` / `analyse --as N` read it back;
read any other way (without --as, or as another seat) a view is refused, since the cards
it hides would be dealt at will and shown or searched as if they were real."""
import json

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.games import get_game

HIDDEN = [("cubirds", 4, 1), ("leaves", 2, 1), ("wingspan", 2, 0)]


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), r.exception
    return r


@pytest.mark.parametrize("game,players,seat", HIDDEN)
def test_show_as_a_seat_writes_its_view_which_show_and_analyse_read_back(game, players, seat, tmp_path):
    state = get_game(game).default_position(players)
    r = run("show", game, "--as", seat, "--text")
    assert r.exit_code == 0 and r.output.strip() == state.view(seat)
    assert r.output.strip() != state.text()
    d = json.loads(run("show", game, "--as", seat, "--json").output)
    assert d["position"] == state.view(seat) and d["seen_by"] == seat
    saved = tmp_path / "view.txt"
    saved.write_text(r.output)
    again = run("show", game, saved, "--as", seat)
    assert again.exit_code == 0, again.output
    assert f"seat {seat}'s view: {state.view(seat)}" in again.output
    assert run("show", game, saved, "--as", seat, "--text").output.strip() == state.view(seat)
    r = run("analyse", game, saved, "--as", seat, "-e", "ismcts:iterations=50", "--quiet")
    assert r.exit_code == 0 and "best " in r.output, r.output


@pytest.mark.parametrize("game,players,seat", HIDDEN)
def test_a_view_is_not_read_as_the_whole_game_nor_as_another_seat(game, players, seat):
    view = get_game(game).default_position(players).view(seat)
    for args in (["show"], ["show", "--text"], ["show", "--json"], ["perft", "1"],
                 ["analyse", "-e", "ismcts:iterations=50"]):
        r = run(args[0], game, view, *args[1:])
        assert r.exit_code == 2 and "POSITION" in r.output and "view" in r.output, (args, r.output)
        assert "--as" in r.output
    other = (seat + 1) % players
    r = run("show", game, view, "--as", other)
    if game == "leaves":             # every seat of Under the Leaves sees the same view
        assert r.exit_code == 0, r.output
    else:
        assert r.exit_code == 2 and "--as" in r.output and f"not seat {other}'s" in r.output


def test_a_full_position_is_shown_as_any_seat_and_a_perfect_information_text_is_its_own_view():
    full = get_game("cubirds").default_position().text()
    for seat in range(4):
        assert run("show", "cubirds", full, "--as", seat).exit_code == 0
    assert run("show", "ducks", "--as", 1, "--text").output.strip() == "5/6/7/8/9/8/7/6/5 w 0"


@pytest.mark.parametrize("game,players,seat", HIDDEN)
def test_a_match_or_a_tournament_does_not_start_from_a_view(game, players, seat, tmp_path):
    view = get_game(game).default_position(players).view(seat)
    for command in ("play", "tournament"):
        r = run(command, game, "--players", players, "-e", "random", "-e", "random", "--games", 1,
                "--position", view, *(["--db", tmp_path / f"{command}.db"] if command == "tournament" else []))
        assert r.exit_code == 2 and "--position" in r.output and "view" in r.output, (command, r.output)
    assert not (tmp_path / "tournament.db").exists()
