"""The tournament, replay and export commands, through Click's runner: results, resume,
and one clear message (non-zero exit, no traceback) for every kind of bad input."""
import json
import os
import sqlite3
import sys

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.arena.records import read_records, replay

sys.path.insert(0, os.path.dirname(__file__))
from arena_toys import RACE  # noqa: E402


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    if r.exception and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "t.db")
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "-e", "mcts:iterations=50",
            "--games", 2, "--jobs", 1, "--db", path)
    assert r.exit_code == 0, r.output
    return path


def test_tournament_summary_crosstable_and_resume(db):
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "-e", "mcts:iterations=50",
            "--games", 2, "--jobs", 1, "--db", db, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["counted"] == d["stored"] == 6 and d["played_now"] == 0 and d["finished"]
    assert [e["rank"] for e in d["engines"]] == [1, 2, 3]
    assert sum(e["games"] for e in d["engines"]) == 12
    assert d["crosstable"][0][0] is None
    assert d["crosstable"][0][1]["games"] == 2


def test_text_summary_has_the_table_and_head_to_head(tmp_path):
    path = str(tmp_path / "h.db")
    r = run("tournament", "ducks", "-e", "ab:depth=1", "-e", "random", "--games", 4, "--jobs", 2,
            "--db", path, "--anchor", "random", "--plot", str(tmp_path / "elo.svg"))
    assert r.exit_code == 0, r.output
    assert "rank" in r.output and "Elo" in r.output
    assert "ab:depth=1 vs random: score" in r.output
    svg = open(tmp_path / "elo.svg").read()
    assert svg.startswith("<svg") and "ab:depth=1" in svg and svg.rstrip().endswith("</svg>")


def test_default_database_name_follows_the_configuration(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "ducks", "-e", "random", "-e", "random", "--games", "2", "--jobs", "1"]
    r1 = runner.invoke(cli, args)
    assert r1.exit_code == 0, r1.output
    files = [f for f in os.listdir(".") if f.endswith(".db")]
    assert len(files) == 1 and files[0].startswith("roost-ducks-")
    r2 = runner.invoke(cli, args + ["--json"])
    assert json.loads(r2.output)["played_now"] == 0
    r3 = runner.invoke(cli, args[:-2] + ["--seed", "1", "--jobs", "1"])
    assert r3.exit_code == 0
    assert len([f for f in os.listdir(".") if f.endswith(".db")]) == 2


def test_sprt_command(tmp_path):
    r = run("tournament", "ducks", "-e", "ab:depth=1", "-e", "random", "--games", 200, "--jobs", 1,
            "--db", tmp_path / "s.db", "--sprt", "elo0=0,elo1=50", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)["sprt"]
    assert s["decision"] == "H1" and s["games"] < 200


def test_multiplayer_tournament_from_the_command_line(tmp_path, monkeypatch):
    import roost.core.games as games
    monkeypatch.setattr(games, "_GAMES", games.all_games() + [RACE])
    r = run("tournament", "race", "-e", "random", "-e", "random", "--players", 3, "--games", 3,
            "--jobs", 1, "--db", tmp_path / "r.db", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["counted"] == 6 and d["config"]["players"] == 3     # fills 010 and 101, 3 rotations
    r = run("tournament", "race", "-e", "random", "-e", "random", "--players", 3, "--games", 4,
            "--jobs", 1, "--db", tmp_path / "r2.db")
    assert r.exit_code == 2 and "multiple of 3" in r.output


def test_replay_and_export_round_trip(db, tmp_path):
    r = run("replay", db, 2, "--all")
    assert r.exit_code == 0, r.output
    assert "game 2: start" in r.output and "result: p0=" in r.output
    r = run("replay", db, 2, "--ply", 3)
    assert r.exit_code == 0 and "ply 3/" in r.output
    out = str(tmp_path / "g.jsonl")
    r = run("export", db, "-o", out)
    assert r.exit_code == 0, r.output
    lines = open(out).read().splitlines()
    assert len(lines) == 6
    first = json.loads(lines[0])
    assert first["format"] == "roost-game/1" and first["id"] == 1 and first["tournament"]["seed"] == 0
    recs = read_records(out)
    assert [x.as_dict() for x in recs] == [x.as_dict() for x in read_records(db)]
    for rec in recs:
        replay(rec)
    r = run("replay", out, 4, "--json")
    assert json.loads(r.output)["id"] == 4
    r = run("export", db)
    assert r.output.splitlines() == lines


def test_replay_steps_interactively(db):
    r = CliRunner().invoke(cli, ["replay", db, "1", "--step"], input="\n\nb\nzz\ne\nq\n")
    assert r.exit_code == 0, r.output
    assert "ply 1/" in r.output and "ply 2/" in r.output and "'zz'?" in r.output


@pytest.mark.parametrize("args,msg", [
    (["-e", "random", "-e", "stockfish"], "unknown engine 'stockfish'"),
    (["-e", "random", "-e", "mcts:iters=5"], "no parameter 'iters'"),
    (["-e", "random"], "at least two engines"),
    (["-e", "random", "-e", "random", "--games", "3"], "use a multiple of 2"),
    (["-e", "random", "-e", "random", "--games", "0"], "multiple of 2"),
    (["-e", "random", "-e", "random", "--jobs", "0"], "--jobs"),
    (["-e", "random", "-e", "random", "--players", "3"], "played by 2 players, not 3"),
    (["-e", "random", "-e", "random", "--sprt", "elo0=5,elo1=1"], "elo1 > elo0"),
    (["-e", "random", "-e", "random", "--sprt", "speed=3"], "bad SPRT setting"),
    (["-e", "random", "-e", "random", "-e", "random", "--sprt", "elo1=5"], "SPRT compares two engines"),
    (["-e", "random", "-e", "random", "--anchor", "ab:depth=9"], "not in the roster"),
    (["-e", "random", "-e", "random", "--plot", "x.gif"], "must be an .svg or .png"),
    (["-e", "random", "-e", "random", "--scheduler", "localhost:8786"], "not a scheduler address"),
    (["-e", "random", "-e", "random", "--scheduler", "tcp://x:1", "--dask-local", "2"], "not both"),
    (["-e", "random", "-e", "random", "--jobs", "2", "--dask-local", "2"], "--jobs counts local"),
    (["-e", "random", "-e", "random", "--position", "not a position"], "--position"),
])
def test_tournament_bad_input(tmp_path, args, msg):
    r = run("tournament", "ducks", *args, "--db", tmp_path / "bad.db")
    assert r.exit_code == 2, r.output
    assert msg in r.output
    assert not os.path.exists(tmp_path / "bad.db")


def test_unknown_game(tmp_path):
    r = run("tournament", "chess", "-e", "random", "-e", "random", "--db", tmp_path / "x.db")
    assert r.exit_code == 2 and "unknown game 'chess'" in r.output


def _foreign_files(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("dear diary\n")
    other = str(tmp_path / "other.db")
    c = sqlite3.connect(other)
    c.execute("CREATE TABLE t (x)")
    c.commit()
    c.close()
    return [(str(text), "not an SQLite file"), (other, "not a roost tournament database")]


def test_foreign_database_files_are_refused(tmp_path):
    for path, msg in _foreign_files(tmp_path):
        r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--db", path)
        assert r.exit_code == 1 and msg in r.output, r.output
        assert r.output.count("\n") <= 2
        r = run("export", path)
        assert r.exit_code == 1 and "Error:" in r.output, r.output


def test_resuming_with_other_settings_is_refused(db):
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "-e", "mcts:iterations=50",
            "--games", 4, "--jobs", 1, "--db", db)
    assert r.exit_code == 1
    assert "holds a different tournament (games: stored 2, now 4)" in r.output


def test_replay_bad_input(db, tmp_path):
    r = run("replay", db, 99)
    assert r.exit_code == 1 and "has no game 99 (6 games stored" in r.output
    r = run("replay", db, 0)
    assert r.exit_code == 2
    r = run("replay", db, 1, "--ply", 10000)
    assert r.exit_code == 2 and "plies, not 10000" in r.output
    r = run("replay", tmp_path / "missing.db", 1)
    assert r.exit_code == 1 and "no such file" in r.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "roost-game/1", "id": 1}\n')
    r = run("replay", bad, 1)
    assert r.exit_code == 1 and "line 1: the record lacks" in r.output
    bad.write_text("this is not json\n")
    r = run("replay", bad, 1)
    assert r.exit_code == 1 and "line 1: not JSON" in r.output
    # a record whose moves were tampered with does not replay
    out = str(tmp_path / "g.jsonl")
    run("export", db, "-o", out)
    d = json.loads(open(out).readline())
    d["move_ids"][2], d["moves"][2] = d["move_ids"][1], d["moves"][1]
    bad.write_text(json.dumps(d) + "\n")
    r = run("replay", bad, 1)
    assert r.exit_code == 1 and "does not replay" in r.output
    for path, msg in _foreign_files(tmp_path):
        r = run("replay", path, 1)
        assert r.exit_code == 1 and "Error:" in r.output


def test_random_openings_are_shared_by_the_seat_rotations_of_a_round(tmp_path):
    path = str(tmp_path / "o.db")
    r = run("tournament", "ducks", "-e", "ab:depth=1", "-e", "ab:depth=1,eval=none", "--games", 4,
            "--opening", 4, "--jobs", 1, "--db", path)
    assert r.exit_code == 0, r.output
    games = sorted(read_records(path), key=lambda g: g.id)
    assert len(games) == 4
    # a record starts where the engines took over: after the four random placements
    openings = [g.start for g in games]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert openings[0] != openings[2]
    assert all(o.count("w") + o.count("b") == 4 + 1 for o in openings)   # 4 ducks, and the side
    assert games[0].seats == list(reversed(games[1].seats))
