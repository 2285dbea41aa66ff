"""Pictures of positions (show --svg/--png, replay --svg): every SVG parses and holds the
elements that make it the position it claims to be."""
import os
import random
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from roost.arena import picture
from roost.cli.main import cli
from roost.core.games import all_games, get_game

NS = "{http://www.w3.org/2000/svg}"


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output
    return r


def drawn(tmp_path, game, *args):
    path = tmp_path / f"{game}.svg"
    r = run("show", game, *args, "--svg", path)
    assert r.exit_code == 0, r.output
    return ET.parse(path).getroot()


def by_class(root, word):
    return [e for e in root.iter() if word in (e.get("class") or "").split()]


def texts(root):
    return " ".join(e.text or "" for e in root.iter(NS + "text"))


def played(game, plies, seed=3, players=None):
    state = get_game(game).default_position(players)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state.play_move(state.sample(rng.getrandbits(60)) if state.is_chance else rng.choice(state.legal()))
    return state


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_every_game_draws_its_default_position(tmp_path, game):
    root = drawn(tmp_path, game)
    assert root.tag == NS + "svg" and float(root.get("width")) > 100 and float(root.get("height")) > 50


def test_the_ducks_pond(tmp_path):
    after = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
    root = drawn(tmp_path, "ducks", after, "--moves", "e5")
    state = get_game("ducks").parse(after)
    assert len(by_class(root, "duck")) == 24                  # every duck, none lost
    assert len(by_class(root, "duck")) + len(by_class(root, "water")) == 61
    assert len(by_class(root, "crumb")) == 1
    assert "Black to place the crumb" in texts(root)
    assert len(by_class(drawn(tmp_path, "ducks"), "crumb")) == 0 and state.players == 2


def test_connect_four_stones(tmp_path):
    root = drawn(tmp_path, "connect4", "4453")
    assert len(by_class(root, "stone")) == 4 and len(by_class(root, "empty")) == 38
    assert len(by_class(root, "X")) == 2 and len(by_class(root, "O")) == 2
    assert "X (red) to move" in texts(root)


def test_the_tweeeet_strip(tmp_path):
    position = "15:.~o~..2.3/~.o...~34/.5...~2~4/o.~o.~..o/N.N.N.N.N d18:3 c19:6 a18:2 i18:5 MR"
    root = drawn(tmp_path, "tweeeet", position)
    assert len(by_class(root, "nest")) == 5 and len(by_class(root, "bird")) == 4
    assert len(by_class(root, "water")) == position.split()[0].count("~") == 8
    assert "MR male robin: 3" in texts(root) and "FB female bluethroat: 5" in texts(root)


def test_cubirds_as_a_seat_sees_it(tmp_path):
    state = get_game("cubirds").default_position(4)
    root = drawn(tmp_path, "cubirds", "--as", 1)
    hidden = by_class(root, "hidden")
    assert len(hidden) == sum(len(state.hand(q)) - len(state.known_cards(q)) for q in (0, 2, 3))
    cards = [e for e in by_class(root, "card") if "hidden" not in e.get("class")]
    assert len(cards) == 4 * 3 + len(state.hand(1)) + sum(len(state.collection(q)) for q in range(4))
    assert "seat 1 (you)" in texts(root)
    assert by_class(drawn(tmp_path, "cubirds"), "hidden") == []           # no --as: all face up


def test_wingspan_mats_feeder_and_tray(tmp_path):
    state = played("wingspan", 260, players=3)
    root = drawn(tmp_path, "wingspan", state.text(), "--as", 1)
    assert len(by_class(root, "habitat")) == 9                # three mats of three habitats
    from roost.core.wingspan.jsonform import to_dict
    birds = sum(len(row) for p in range(3) for row in to_dict(state)["players"][p]["mat"])
    assert birds > 0 and len(by_class(root, "slot")) == 45 and len(by_class(root, "bird")) == birds
    assert 1 <= len(by_class(root, "die")) <= 5 and len(by_class(root, "tray")) == 3
    assert "seat 1 (you)" in texts(root) and "hidden" in texts(root)


def test_three_leaves_titles_never_overlap(tmp_path):
    for state in (get_game("leaves").default_position(3), played("leaves", 30, players=3)):
        root = drawn(tmp_path, "leaves", state.text())
        places = [tuple(float(v) for v in g.get("transform").split("(")[1].rstrip(")").split(","))
                  for g in by_class(root, "garden")]
        titles = [t.text for t in by_class(root, "title")]
        assert len(places) == 3 and len(titles) == 3
        side_by_side = [(a, b, title) for a, b, title in zip(places, places[1:], titles) if a[1] == b[1]]
        assert side_by_side                                    # two gardens a row from 3 players
        for (left, _), (right, _), title in side_by_side:
            assert right - left >= 7 * len(title)              # room for the title at 14 px


def test_png_and_the_faults_of_a_picture_name(tmp_path, monkeypatch):
    png = tmp_path / "p.png"
    r = run("show", "connect4", "4453", "--png", png)
    assert r.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("show", "ducks", "--svg", tmp_path / "p.png")
    assert r.exit_code == 2 and "--svg" in r.output and "must be a .svg file" in r.output
    r = run("show", "ducks", "--png", tmp_path / "p.svg")
    assert r.exit_code == 2 and "--png" in r.output and "must be a .png file" in r.output
    monkeypatch.setattr(picture, "png_converter", lambda: None)
    r = run("show", "ducks", "--moves", "zz", "--png", png)        # checked before any work
    assert r.exit_code == 2 and "needs cairosvg" in r.output and "--moves" not in r.output


def test_replay_writes_a_picture_per_ply(tmp_path):
    db = tmp_path / "t.db"
    r = run("tournament", "connect4", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1,
            "--db", db, "--no-progress")
    assert r.exit_code == 0, r.output
    folder = tmp_path / "pics"
    r = run("replay", db, 1, "--svg", folder)
    assert r.exit_code == 0, r.output
    files = sorted(folder.iterdir())
    plies = len(files) - 1
    assert f"{len(files)} pictures written" in r.output and files[0].name == "game-1-ply-000.svg"
    stones = [len(by_class(ET.parse(f).getroot(), "stone")) for f in files]
    assert stones == list(range(plies + 1))                   # one more stone every ply
    r = run("replay", db, 1, "--svg", db)
    assert r.exit_code == 2 and "is a file, not a folder" in r.output


@pytest.mark.parametrize("target", ["/nonexistent/dir/x.svg", "/proc/version.svg", "/dev/full"])
def test_a_picture_that_cannot_be_written_is_one_message(target, tmp_path):
    # a missing folder, a file the system refuses, a full device
    if target == "/dev/full":
        target = str(tmp_path / "full.svg")
        os.symlink("/dev/full", target)
    r = CliRunner().invoke(cli, ["show", "ducks", "--svg", target])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert "Error:" in r.output and target in r.output      # one message naming the file
    assert not isinstance(r.exception, OSError)
