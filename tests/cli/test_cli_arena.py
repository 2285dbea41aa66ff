"""The tournament, replay and export commands, through Click's runner: results, resume,
and one clear message (non-zero exit, no traceback) for every kind of bad input."""
import json
import os
import sqlite3

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.arena.records import read_records, replay

from tests.arena.toys import RACE  # noqa: E402


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
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))     # registered for this test only
    games.register_game(RACE)
    r = run("tournament", "race", "-e", "random", "-e", "random", "--players", 3, "--games", 3,
            "--jobs", 1, "--db", tmp_path / "r.db", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["counted"] == 6 and d["config"]["players"] == 3     # fills 010 and 101, 3 rotations
    r = run("tournament", "race", "-e", "random", "-e", "random", "--players", 3, "--games", 4,
            "--jobs", 1, "--db", tmp_path / "r2.db")
    assert r.exit_code == 2 and "multiple of 3" in r.output


def test_an_odd_number_of_rounds_at_three_seats_gets_a_note(tmp_path, monkeypatch):
    import roost.core.games as games
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))     # registered for this test only
    games.register_game(RACE)
    note = "note: 3 games per pairing are an odd number of rounds of 3 seats"
    r = run("tournament", "race", "-e", "random", "-e", "random", "--players", 3, "--games", 3,
            "--jobs", 1, "--db", tmp_path / "a.db")
    assert r.exit_code == 0, r.output                     # a note, not an error
    lines = [line for line in r.output.splitlines() if line.startswith("note:")]
    assert len(lines) == 1 and lines[0].startswith(note)
    assert "multiple of 6 games (e.g. --games 6)" in lines[0]
    r = run("tournament", "race", "-e", "random", "-e", "random", "--players", 3, "--games", 6,
            "--jobs", 1, "--db", tmp_path / "b.db")
    assert r.exit_code == 0 and "note:" not in r.output
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1,
            "--db", tmp_path / "c.db")               # 2 seats: one round balances
    assert r.exit_code == 0 and "note:" not in r.output
    from roost.arena.tournament import TournamentConfig, turn_order_note
    cfg = TournamentConfig(game=RACE, engines=["random"] * 3, players=3, games=9)
    assert turn_order_note(cfg).endswith("multiple of 6 games (e.g. --games 6 or 12)")
    assert turn_order_note(TournamentConfig(game=RACE, engines=["random"] * 3, players=4, games=8)) is None


def test_a_format_2_database_is_refused_naming_the_format(tmp_path):
    # a database from before the turn order alternated (format 2) holds games seated the
    # old way: the same command must not resume it, and must say why
    from roost.arena.tournament import FORMAT
    assert FORMAT == 3
    path = str(tmp_path / "old.db")
    args = ["tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1, "--db", path]
    assert run(*args).exit_code == 0
    conn = sqlite3.connect(path)
    with conn:
        config = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
        conn.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps({**config, "format": 2}),))
    conn.close()
    r = run(*args)
    assert r.exit_code == 1, r.output
    assert f"{path} holds a tournament of format 2, written by an older roost; this one plays format 3" in r.output
    assert "give a new --db" in r.output and "run the same command" not in r.output
    assert len(read_records(path)) == 2          # nothing played into it
    r = run("replay", path, 1)                   # and it still reads, as the message says
    assert r.exit_code == 0 and "game 1" in r.output


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
    (["-e", "random", "-e", "random", "--games", "3"], "use a multiple of 2"),
    (["-e", "random", "-e", "random", "--games", "0"], "must be positive, not 0"),
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
    before = os.path.getmtime(db), os.path.getsize(db)
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=2", "-e", "mcts:iterations=50",
            "--games", 2, "--jobs", 1, "--db", db)
    assert r.exit_code == 1
    assert ("holds a different tournament (engines: stored ['random', 'ab:depth=1', "
            "'mcts:iterations=50'], now ['random', 'ab:depth=2', 'mcts:iterations=50'])") in r.output
    assert "each stored engine as it was" in r.output
    r = run("tournament", "ducks", "-e", "random", "-e", "mcts:iterations=50", "-e", "ab:depth=1",
            "--games", 2, "--jobs", 1, "--db", db)
    assert r.exit_code == 1 and "holds a different tournament" in r.output
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "--games", 2, "--jobs", 1,
            "--db", db)
    assert r.exit_code == 1 and "holds a different tournament" in r.output
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "-e", "mcts:iterations=50",
            "--games", 2, "--jobs", 1, "--seed", 5, "--db", db)
    assert r.exit_code == 1 and "holds a different tournament (seed: stored 0, now 5)" in r.output
    assert "grows only" not in r.output
    assert (os.path.getmtime(db), os.path.getsize(db)) == before


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


# ---------------------------------------------------------- tournament, replay and export
@pytest.mark.parametrize("command,shows", [
    ("tournament", ["--engine", "--gauntlet", "--position", "--opening", "--db", "--jobs",
                    "--scheduler", "--dask-local", "--sprt", "--anchor", "--plot", "--verbose",
                    "Examples:", "roost tournament ducks", "turn order alternates between rounds",
                    "--games a multiple of 2N"]),
    ("replay", ["SOURCE", "GAME_ID", "--ply", "--all", "--step", "--json", "Examples:"]),
    ("export", ["DB", "--output", "roost-game/1", "Examples:"]),
])
def test_help(command, shows):
    r = run(command, "--help")
    assert r.exit_code == 0, r.output
    assert "Usage:" in r.output
    for word in shows:
        assert word in r.output, word


def _elos(output):
    return {e["name"]: e["elo"] for e in json.loads(output)["engines"]}


def test_anchor_by_number_and_by_spec(db):
    base = ["tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "-e", "mcts:iterations=50",
            "--games", 2, "--jobs", 1, "--db", db, "--json"]
    names = ["random", "ab:depth=1", "mcts:iterations=50"]
    first = _elos(run(*base).output)
    assert first["random"] == 0.0
    for anchor, name in [("1", "random"), ("2", "ab:depth=1"), ("3", "mcts:iterations=50"),
                         ("ab:depth=1", "ab:depth=1"), ("mcts:iterations=50", "mcts:iterations=50"),
                         ("mcts: iterations=50", "mcts:iterations=50")]:
        r = run(*base, "--anchor", anchor)
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        assert d["anchor"] == name
        elos = _elos(r.output)
        assert elos[name] == 0.0
        for other in names:                 # the anchor shifts every rating by the same
            assert elos[other] == pytest.approx(first[other] - first[name], abs=0.15)
    r = run(*base[:-1], "--anchor", "3")
    row = next(line for line in r.output.splitlines() if "mcts:iterations=50" in line and "anchor" in line)
    assert row.split()[2] == "0"                # the anchor: no sign on nothing
    for bad in ("0", "4", "ab:depth=2"):
        r = run(*base, "--anchor", bad)
        assert r.exit_code == 2 and "not in the roster" in r.output, (bad, r.output)


def test_duplicate_specs_are_anchored_by_their_numbered_names(tmp_path):
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "-e", "ab:depth=1", "--games", 2,
            "--jobs", 1, "--db", tmp_path / "d.db", "--anchor", "random#2", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["anchor"] == "random#2" and _elos(r.output)["random#2"] == 0.0


def test_a_roster_of_one_is_completed_with_auto(tmp_path):
    # a single engine plays against auto, which takes the other seat
    r = run("tournament", "connect4", "-e", "random", "--games", 2, "--jobs", 1,
            "--position", "63753446636447653725212476377231422111", "--db", tmp_path / "t.db", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["config"]["engines"] == ["random", "auto"] and d["counted"] == 2


def test_gauntlet_end_to_end(tmp_path):
    path = str(tmp_path / "g.db")
    r = run("tournament", "ducks", "-e", "ab:depth=1", "-e", "random", "-e", "mcts:iterations=20",
            "--gauntlet", "--games", 2, "--jobs", 1, "--db", path, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["config"]["mode"] == "gauntlet" and d["counted"] == d["stored"] == 4
    games = read_records(path)
    assert sorted(sorted(g.engines) for g in games) == [[0, 1], [0, 1], [0, 2], [0, 2]]
    ab = d["engines"][[e["name"] for e in d["engines"]].index("ab:depth=1")]
    assert ab["games"] == 4                   # the gauntlet engine plays every game
    assert d["crosstable"][1][2] is None and d["crosstable"][2][1] is None   # the others never meet
    for g in games:
        replay(g)


def test_position_end_to_end(tmp_path):
    path = str(tmp_path / "p.db")
    start = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "--position", start,
            "--games", 4, "--jobs", 2, "--db", path, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["config"]["position"] == start and d["counted"] == 4
    games = read_records(path)
    assert len(games) == 4 and all(g.start == start for g in games)
    for g in games:
        states = replay(g)
        assert states[0][0].text() == start and states[-1][0].is_over
    # the same command with another position is another tournament
    other = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww b 0"
    r = run("tournament", "ducks", "-e", "random", "-e", "ab:depth=1", "--position", other,
            "--games", 4, "--jobs", 1, "--db", path)
    assert r.exit_code == 1 and "holds a different tournament (position:" in r.output


def test_resuming_with_another_opening_is_refused(tmp_path):
    path = str(tmp_path / "o.db")
    base = ["tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1,
            "--db", path]
    assert run(*base, "--opening", 2).exit_code == 0
    r = run(*base, "--opening", 3)
    assert r.exit_code == 1
    assert "holds a different tournament (opening: stored 2, now 3)" in r.output
    r = run(*base)
    assert r.exit_code == 1
    assert "holds a different tournament (opening: stored 2, now 0)" in r.output
    r = run(*base, "--opening", 2, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["played_now"] == 0


def test_jobs_are_bounded_by_the_cores(tmp_path):
    from roost.arena.tournament import default_jobs
    most = 4 * default_jobs()
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2,
            "--jobs", most + 1, "--db", tmp_path / "j.db")
    assert r.exit_code == 2
    assert f"{most + 1} processes on {default_jobs()} core" in r.output and f"({most} here)" in r.output
    assert not os.path.exists(tmp_path / "j.db")


def test_no_more_processes_than_games(tmp_path, monkeypatch):
    from roost.arena import runner
    started = []
    real = runner.LocalPool

    class Counting(real):
        def __init__(self, game, settings, jobs, close_fds=()):
            started.append(jobs)
            super().__init__(game, settings, jobs, close_fds)

    monkeypatch.setattr(runner, "LocalPool", Counting)
    monkeypatch.setattr("roost.arena.tournament.default_jobs", lambda: 64)   # "a big machine"
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 4,
            "--jobs", 200, "--db", tmp_path / "j.db", "--json")
    assert r.exit_code == 0, r.output
    assert started == [4] and json.loads(r.output)["workers"] <= 4
    # resumed with one game missing: one game, one process (played here)
    c = sqlite3.connect(tmp_path / "j.db")
    c.execute("DELETE FROM games WHERE id = 3")
    c.commit()
    c.close()
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 4,
            "--jobs", 200, "--db", tmp_path / "j.db", "--json")
    d = json.loads(r.output)
    assert started == [4] and d["played_now"] == 1 and d["workers"] == 1


def test_a_png_that_cannot_be_drawn_fails_before_any_game(tmp_path, monkeypatch):
    import roost.arena.picture as picture
    monkeypatch.setattr(picture, "png_converter", lambda: None)
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1,
            "--db", tmp_path / "p.db", "--plot", tmp_path / "r.png")
    assert r.exit_code == 2 and "a PNG picture needs cairosvg" in r.output
    assert not os.path.exists(tmp_path / "p.db")
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2, "--jobs", 1,
            "--db", tmp_path / "p.db", "--plot", tmp_path / "nowhere" / "r.svg")
    assert r.exit_code == 2 and "does not exist" in r.output
    assert not os.path.exists(tmp_path / "p.db")


def test_a_full_disk_says_so_and_what_is_stored(tmp_path, monkeypatch):
    # The disk fills up once the first game is committed: from then on SQLite answers
    # SQLITE_FULL when the file must grow.  The writer commits together whatever arrived
    # while its previous commit ran, so the first game is committed on its own and the rest
    # of that batch after the limit is set: a fixed page limit left the first commit too
    # big (nothing stored), and a limit set after the whole first commit could come after
    # every game, on a machine loaded enough that the writer waited for all 400 (exit 0).
    from roost.arena.store import Store
    real = Store.add_many
    filled = []

    def then_full(self, recs, live=()):
        if not recs:                     # the games in progress alone: not what fills it
            return real(self, recs, live)
        if not filled:
            filled.append(True)
            real(self, recs[:1])
            pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
            self.conn.execute(f"PRAGMA max_page_count={pages}")
            recs = recs[1:]
            if not recs:
                return
        real(self, recs)

    monkeypatch.setattr(Store, "add_many", then_full)
    path = str(tmp_path / "f.db")
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 400, "--jobs", 1,
            "--db", path)
    assert r.exit_code == 1, r.output
    assert "database or disk is full" in r.output and "cannot rollback" not in r.output
    monkeypatch.undo()
    stored = sqlite3.connect(path).execute("SELECT count(*) FROM games").fetchone()[0]
    assert 0 < stored < 400
    assert f"{stored} of 400 games are stored in {path}; run the same command to resume" in r.output
    r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 400, "--jobs", 1,
            "--db", path, "--json")
    d = json.loads(r.output)
    assert d["resumed_from"] == stored and d["stored"] == 400


def test_verbose_lets_the_dask_logs_through(tmp_path, monkeypatch):
    import roost.arena.tournament as tournament
    asked = []

    def fake_backend(config, **kwargs):        # no cluster: only what the command asks for
        asked.append(kwargs)
        raise tournament.ArenaError("no cluster here")

    monkeypatch.setattr(tournament, "make_backend", fake_backend)
    for flags, verbose in (([], False), (["--verbose"], True)):
        r = run("tournament", "ducks", "-e", "random", "-e", "random", "--games", 2,
                "--scheduler", "tcp://127.0.0.1:9", "--db", tmp_path / "v.db", *flags)
        assert r.exit_code == 1 and "no cluster here" in r.output
        assert asked[-1]["verbose"] is verbose


# ------------------------------------------------------------ suites, adjudication, stats
C4_SUITE = "# four openings\n1 4\n4 4\n2 5\n3 3\n"


def test_a_suite_repeated_pairs_the_games_and_the_sprt_counts_pairs(tmp_path):
    suite = tmp_path / "suite.txt"
    suite.write_text(C4_SUITE)
    db = str(tmp_path / "s.db")
    r = run("tournament", "connect4", "-e", "ab:depth=3", "-e", "ab:depth=1", "--openings", suite,
            "--repeat", "--games", 8, "--jobs", 1, "--sprt", "elo0=0,elo1=200", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["head_to_head"]["model"] == "pentanomial" and d["head_to_head"]["pairs"] == 4
    assert d["sprt"]["model"] == "pentanomial"
    assert d["config"]["openings"]["count"] == 4 and d["config"]["openings"]["repeat"] is True
    recs = read_records(db)
    # each opening is played twice, seats swapped, in the file's order
    assert [rec.opening["index"] for rec in recs] == [1, 1, 2, 2, 3, 3, 4, 4]
    from roost.arena.openings import Suite
    from roost.core.games import get_game
    texts = Suite.parse(get_game("connect4"), 2, C4_SUITE).texts
    assert [rec.start for rec in recs] == [t for t in texts for _ in (0, 1)]
    assert all(rec.opening["text"] == rec.start for rec in recs)
    assert all(recs[2 * i].seats == recs[2 * i + 1].seats[::-1] for i in range(4))
    # the same suite not repeated: the games are counted one by one
    r = run("tournament", "connect4", "-e", "ab:depth=3", "-e", "ab:depth=1", "--openings", suite,
            "--games", 8, "--jobs", 1, "--db", str(tmp_path / "u.db"), "--json")
    d = json.loads(r.output)
    assert d["head_to_head"]["model"] == "trinomial" and not d["head_to_head"]["pairs"]
    assert [rec.opening["index"] for rec in read_records(str(tmp_path / "u.db"))] == [1, 2, 3, 4] * 2
    text = run("replay", db, 3, "--ply", 0).output
    assert "opening 2 of the suite" in text


def test_per_engine_statistics_in_the_summary_and_json(tmp_path):
    db = str(tmp_path / "st.db")
    r = run("tournament", "connect4", "-e", "ab:depth=3", "-e", "mcts:iterations=100", "--games", 2,
            "--jobs", 1, "--db", db, "--json")
    d = {e["spec"]: e["stats"] for e in json.loads(r.output)["engines"]}
    ab, mcts = d["ab:depth=3"], d["mcts:iterations=100"]
    recs = read_records(db)
    for spec, st in d.items():
        asked = sum(1 for rec in recs for m, rep in zip(rec.movers, rec.reports)
                    if rep is not None and rec.seats[m] == spec)
        assert st["moves"] == asked > 0
        assert st["seconds_per_move"] >= 0 and st["time_forfeits"] == 0
    assert 1 <= ab["mean_depth"] <= 3 and ab["mean_iterations"] is None and ab["nodes_per_second"] > 0
    assert mcts["mean_depth"] is None and 1 <= mcts["mean_iterations"] <= 100
    text = run("tournament", "connect4", "-e", "ab:depth=3", "-e", "mcts:iterations=100", "--games", 2,
               "--jobs", 1, "--db", db).output
    assert "s/move" in text and "iterations" in text and "time losses" in text


def test_adjudicated_games_are_stored_with_their_rule_and_shown(tmp_path):
    db = str(tmp_path / "a.db")
    r = run("tournament", "connect4", "-e", "ab:depth=7", "-e", "ab:depth=1", "--proofs", "--games", 2,
            "--jobs", 1, "--db", db)
    assert r.exit_code == 0, r.output
    assert "adjudication: proven results" in r.output and "adjudicated: 2 games by proof" in r.output
    for rec in read_records(db):
        assert rec.ending["reason"] == "adjudicated" and rec.ending["rule"] == "proof"
        assert rec.result[rec.seats.index("ab:depth=7")] == 1.0
    shown = run("replay", db, 1, "--ply", 0).output
    assert "ended: adjudicated (proof): " in shown and "proved a win" in shown
    r = run("play", "connect4", "-e", "ab:depth=7", "-e", "ab:depth=1", "--proofs", "--games", 1)
    assert "adjudicated (proof)" in r.output


@pytest.mark.parametrize("args, msg", [
    (["--repeat"], "--repeat plays each opening of a suite"),
    (["--openings", "missing.txt"], "cannot read the opening suite missing.txt"),
    (["--openings", "builtin", "--opening", "4"], "not both"),
    (["--resign", "moves=0"], "resign moves must be at least 1"),
    (["--draw", "after=x"], "draw setting after must be a whole number"),
])
def test_bad_suite_and_adjudication_options_are_named(tmp_path, args, msg):
    r = run("tournament", "connect4", "-e", "random", "-e", "random", "--games", 2,
            "--db", str(tmp_path / "x.db"), *args)
    assert r.exit_code == 2 and msg in r.output, r.output
    assert not os.path.exists(tmp_path / "x.db")


def test_adjudication_and_suites_are_refused_where_they_cannot_work(tmp_path):
    r = run("tournament", "cubirds", "--players", 3, "-e", "random", "-e", "random", "-e", "random",
            "--games", 3, "--resign", "moves=3", "--db", str(tmp_path / "x.db"))
    assert r.exit_code == 2 and "two-player games, not 3 players" in r.output
    r = run("play", "wingspan", "--players", 1, "-e", "random", "--openings", "builtin")
    assert r.exit_code == 2 and "roost ships no opening suite for Wingspan with 1 players" in r.output


def test_the_openings_command_writes_a_suite_that_reads_back(tmp_path):
    out = tmp_path / "c4.txt"
    r = run("openings", "connect4", "--count", 3, "--plies", 4, "--engine", "ab:depth=4", "--seed", 2,
            "-o", out)
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    body = [l for l in lines if not l.startswith("#")]
    assert len(body) == 3 and any("roost openings connect4" in l for l in lines)
    again = run("openings", "connect4", "--count", 3, "--plies", 4, "--engine", "ab:depth=4", "--seed", 2)
    assert again.output.splitlines()[-3:] == body              # the same command, the same suite
    r = run("play", "connect4", "-e", "ab:depth=2", "-e", "random", "--openings", out, "--games", 2)
    assert r.exit_code == 0 and "from opening 1" in r.output and "from opening 2" in r.output
    r = run("openings", "wingspan", "--players", 1)
    assert r.exit_code == 2 and "1 player has none to balance" in r.output
