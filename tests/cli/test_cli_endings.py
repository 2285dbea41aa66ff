"""Every game says why it ended, on the command line: `play` (its game lines and JSON),
`tournament` -> `export` -> `replay`, and `show` of a finished position."""
import json

from click.testing import CliRunner

from roost.cli.main import cli

REPEATS = ["-e", "ab:depth=1,eval=none", "--opening", "4"]      # self-play drawn by repetition
REPETITION = "drawn by repetition: the same position occurred for the third time"


def run(*args, input=None):
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    return r


def test_play_prints_why_each_game_ended():
    r = run("play", "ducks", *REPEATS, "--games", "1")
    assert f"result 0.5 0.5 after 28 plies ({REPETITION})" in r.output
    r = run("play", "ducks", "-e", "ab:depth=1", "--opening", "4", "--games", "1")
    assert "'s ducks are gathered)" in r.output


def test_play_json_records_the_ending():
    r = run("play", "ducks", *REPEATS, "--games", "1", "--json")
    game = json.loads(r.output.splitlines()[0])
    assert game["ending"] == {"reason": "repetition", "detail": REPETITION}
    assert game["final"].endswith(" repetition")


def test_a_tournament_stores_the_ending_and_export_and_replay_carry_it(tmp_path):
    db = tmp_path / "t.db"
    run("tournament", "ducks", "-e", "ab:depth=1,eval=none", "-e", "ab:depth=1,eval=none",
        "--opening", "4", "--games", "2", "--db", db)
    lines = [json.loads(l) for l in run("export", db).output.splitlines()]
    assert lines and all(l["ending"]["reason"] for l in lines)
    drawn = [l for l in lines if l["ending"]["reason"] == "repetition"]
    assert drawn, [l["ending"] for l in lines]
    gid = drawn[0]["id"]
    out = run("replay", db, gid, "--ply", len(drawn[0]["moves"])).output
    assert f"ended: {REPETITION}" in out and "ended early" not in out
    assert json.loads(run("replay", db, gid, "--json").output)["ending"]["reason"] == "repetition"
    exported = tmp_path / "games.jsonl"
    exported.write_text("\n".join(json.dumps(l) for l in lines) + "\n")
    assert f"ended: {REPETITION}" in run("replay", exported, gid, "--all").output
    # its final position, shown, is the finished game it was
    out = run("show", "ducks", drawn[0]["final"]).output
    assert "game over: a draw" in out and REPETITION in out


def test_a_side_named_in_the_plural_wins_in_the_plural():
    # Tweeeet's sides are the robins and the bluethroats: "the bluethroats win"
    solved = "15:.~o~..o.o/~.o...~oo/.o...~o~o/o.~o.~..o/N.N.N.N.N i15:3 c19:6 a19:1 i17:13 MR"
    assert "game over: The bluethroats win (result 0 1)" in run("show", "tweeeet", solved).output
    assert "game over: White wins (result 1 0)" in run(
        "show", "ducks", "5/6/7/wwww1bbb/wwww*bbbb/www2bbb/w4b1/6/2b2 b 1").output
    out = run("play", "tweeeet", "--human-seat", "1", "-e", "random", input="").output
    assert "The robins (random) play " in out


NEAR_THE_CAP = "5/2bb2/*wbb3/1bbbwb2/2bwbw3/1wwwwb2/1wbww2/3w2/5 b 297"
CAP = "drawn: 300 crumb placements without a winner"


def test_the_move_cap_is_printed_stored_exported_and_replayed(tmp_path):
    # docs/rules/ducks.md §6.4: the 300th placement that does not win draws the game
    out = run("play", "ducks", "-e", "random", "--position", NEAR_THE_CAP, "--games", "4",
              "--seed", "3").output
    assert f"result 0.5 0.5 after 3 plies ({CAP})" in out
    db = tmp_path / "cap.db"
    run("tournament", "ducks", "-e", "random", "-e", "random", "--position", NEAR_THE_CAP,
        "--games", "4", "--seed", "3", "--db", db)
    lines = [json.loads(l) for l in run("export", db).output.splitlines()]
    capped = [l for l in lines if l["ending"]["reason"] == "cap"]
    assert capped and all(l["ending"]["detail"] == CAP for l in capped)
    assert all(l["final"].split()[2] == "300" for l in capped)
    assert f"ended: {CAP}" in run("replay", db, capped[0]["id"], "--ply", 3).output


def test_a_bird_that_dies_is_named_by_play_and_by_export(tmp_path):
    # docs/rules/tweeeet.md §6.3: the bird to move that cannot fly dies and its pair loses
    lines = [json.loads(l) for l in run("play", "tweeeet", "-e", "random", "--games", "6",
                                        "--seed", "2", "--json").output.splitlines()]
    games = [l for l in lines if "summary" not in l]
    assert len(games) == 6
    died = [g for g in games if g["ending"]["reason"] != "nested"]
    assert died, [g["ending"] for g in games]
    assert all("cannot reach any bush or nest and dies" in g["ending"]["detail"] for g in died)
    db = tmp_path / "t.db"
    run("tournament", "tweeeet", "-e", "random", "-e", "random", "--games", "6", "--seed", "2",
        "--db", db)
    assert any("dies" in json.loads(l)["ending"]["detail"]
               for l in run("export", db).output.splitlines())
