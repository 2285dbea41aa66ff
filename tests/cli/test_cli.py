"""Every command through Click's CliRunner: what it prints, and one clear message with a
non-zero exit (never a traceback) for every kind of bad input."""
import json
import sys

import pytest
from click.testing import CliRunner

from roost.cli.main import cli

AFTER_SETUP = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"
WIN_IN_ONE = "5/6/2bw1w1/3bwww1/2bbwww2/1bbbbwb1/1*wwbw1/2bb2/5 b 35"


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def assert_clean_failure(result, *fragments, code=None):
    assert result.exit_code != 0
    if code is not None:
        assert result.exit_code == code
    assert "Traceback" not in result.output
    for f in fragments:
        assert f in result.output, result.output


def test_help_for_every_command_has_an_example():
    for cmd in ("games", "show", "perft", "analyse", "solve", "play", "bench"):
        r = run(cmd, "--help")
        assert r.exit_code == 0
        assert "Example" in r.output and "roost " + cmd in r.output


def test_games_lists_the_registry():
    r = run("games")
    assert r.exit_code == 0 and "ducks" in r.output and "Feed the Ducks" in r.output
    data = json.loads(run("games", "--json").output)
    assert any(g["name"] == "ducks" for g in data)


def test_show_default_and_given_positions():
    r = run("show", "ducks")
    assert r.exit_code == 0 and "48 legal moves" in r.output
    r = run("show", "ducks", AFTER_SETUP)
    assert r.exit_code == 0 and "37 legal moves" in r.output and "position: " + AFTER_SETUP in r.output
    r = run("show", "ducks", *AFTER_SETUP.split())          # unquoted words work too
    assert r.exit_code == 0 and "37 legal moves" in r.output


def test_show_reads_a_position_file(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(AFTER_SETUP + "\n")
    r = run("show", "ducks", str(f))
    assert r.exit_code == 0 and "37 legal moves" in r.output


def test_perft_and_divide():
    r = run("perft", "ducks", "2")
    assert r.exit_code == 0 and "perft(2) = 2208" in r.output
    r = run("perft", "ducks", AFTER_SETUP, "2", "--divide")
    assert r.exit_code == 0 and "perft(2) = 834" in r.output
    lines = [l for l in r.output.splitlines() if ":" in l and not l.startswith("perft")]
    assert len(lines) == 37
    assert sum(int(l.split(": ")[1]) for l in lines) == 834


def test_analyse_prints_and_writes_json():
    r = run("analyse", "ducks", WIN_IN_ONE, "--engine", "ab:depth=3")
    assert r.exit_code == 0
    assert "best     a4  win in 1 for Black" in r.stdout and "value" not in r.stdout.splitlines()[1]
    r = run("analyse", "ducks", WIN_IN_ONE, "--engine", "mcts:iterations=500", "--json")
    data = json.loads(r.stdout)                    # the progress goes to stderr
    assert data["move"] == "a4" and data["iterations"] > 0 and data["stats"]


def test_solve_proves_a_win():
    r = run("solve", "ducks", WIN_IN_ONE)
    assert r.exit_code == 0 and "win in 1 for Black (player 1)" in r.output and "a4" in r.output


def test_play_a_short_match():
    r = run("play", "ducks", "--engine", "random", "--engine", "ab:depth=1", "--games", "2", "--seed", "3")
    assert r.exit_code == 0
    assert "game 1: p0=random, p1=ab:depth=1" in r.output
    assert "game 2: p0=ab:depth=1, p1=random" in r.output       # seats rotate
    assert "random vs ab:depth=1:" in r.output and "in 2 games" in r.output


def test_play_is_deterministic_for_a_seed():
    args = ("play", "ducks", "-e", "mcts:iterations=100", "-e", "random", "--games", "2", "--seed", "5", "--json")

    def games(out):   # every record but the wall-clock times
        return [{k: v for k, v in json.loads(l).items() if k != "times"} for l in out.splitlines()]
    first = games(run(*args).output)
    assert first == games(run(*args).output)
    assert len(first) == 3 and first[0]["moves"] != first[1]["moves"]


def test_a_human_plays_at_the_terminal():
    # the human (seat 0, White) places a duck, asks for help, tries nonsense, then quits
    r = CliRunner().invoke(cli, ["play", "ducks", "--human", "--engine", "random"],
                           input="?\nW@e5\nzz\nW@a1\nquit\n")
    assert "W@a1" in r.output                       # the help listing
    assert "is not legal here" in r.output          # W@e5 is not an edge cell
    assert "not a cell name" in r.output            # zz
    assert r.exit_code == 0 and "Traceback" not in r.output      # quit is a normal end


def test_a_human_without_an_engine_meets_auto():
    # before auto, --human alone was refused for want of an opponent; now auto takes the seat
    near_end = "63753446636447653725212476377231422111"      # Connect Four: 5 wins for X
    r = run("play", "connect4", "--human", "--position", near_end, "--json", input="5\n")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if '{"game"' in x)    # after the prompt
    game = json.loads(line[line.index("{"):])
    assert game["seats"] == ["human", "auto"] and game["result"] == [1.0, 0.0]


def test_bench_quick():
    r = run("bench", "--quick", "--game", "ducks")
    assert r.exit_code == 0 and "ducks" in r.output and "signature" in r.output


def test_bench_times_the_native_playout_loop_beside_the_python_one():
    r = run("bench", "--quick", "--game", "ducks", "--json")
    row = json.loads(r.output)[0]
    assert row["playouts"] == 300 and row["native_playouts"] == 2000
    assert row["native_playouts_per_s"] > 0
    r = run("bench", "--quick", "--game", "ducks")
    assert "native" in r.output.splitlines()[0] and "2,000 native" in r.output


def test_bench_solve_times_every_solved_set_and_checks_every_answer():
    r = run("bench", "--solve", "--quick", "--json")
    assert r.exit_code == 0
    rows = json.loads(r.output)
    assert [row["set"] for row in rows] == ["end", "middle", "begin"]
    assert [row["positions"] for row in rows] == [100, 30, 2]       # a tenth of each set
    for row in rows:
        assert row["wrong"] == [] and row["roost_nodes"] > 0 and row["reference_cpu_ms"] > 0
    assert [row["target_cpu_ratio"] for row in rows] == [1.5, 1.0, 1.0]
    table = run("bench", "--solve", "--quick").output
    assert "ratio" in table and "target" in table.splitlines()[0]
    assert table.splitlines()[2].startswith("end") and "<=1.50" in table.splitlines()[2]


@pytest.mark.parametrize("args,fragments", [
    (("show", "chess"), ["unknown game 'chess'", "known games"]),
    (("show", "ducks", "5/6/7 w 0"), ["9 rows"]),
    (("show", "ducks", "/no/such/file.txt"), ["no such file '/no/such/file.txt'"]),
    (("perft", "ducks", "x"), ["DEPTH must be an integer"]),
    (("perft", "ducks", "-3"), ["between 0 and 64, got -3"]),
    (("perft", "ducks", "99"), ["between 0 and 64"]),
    (("perft", "ducks"), ["Missing argument"]),
    (("analyse", "ducks", "--engine", "nope"), ["unknown engine 'nope'"]),
    (("analyse", "ducks", "--engine", "ab:depth=-1"), ["at least 1"]),
    (("analyse", "ducks", "--engine", "mcts:foo=1"), ["no parameter 'foo'"]),
    (("analyse", "ducks", "--seed", "x"), ["'x' is not a valid integer"]),
    (("play", "ducks", "-n", "2", "-e", "random", "-e", "random", "-e", "random"), ["3 engines given for 2 seats"]),
    (("play", "ducks", "-e", "random", "-e", "random", "-e", "random"), ["--engine", "3 engines given for 2 seats"]),
    (("play", "ducks", "-e", "random", "--games", "0"), ["--games", "must be positive, not 0"]),
    (("play", "ducks", "-e", "random", "--players", "3"), ["Feed the Ducks is played by 2 players, not 3"]),
    (("bench", "--game", "go"), ["unknown game 'go'"]),
])
def test_bad_input_gets_one_clear_message(args, fragments):
    assert_clean_failure(run(*args), *fragments)


def test_a_finished_game_is_a_position_for_analyse_and_solve():
    done = "5/6/7/wwwwbbbb/wwww1bbbb/www2bbb/w4b1/6/5 w 0"   # gathered, but no crumb yet: legal
    r = run("analyse", "ducks", done, "--engine", "ab:depth=1")
    assert r.exit_code == 0                       # not over: White still places the first crumb
    won = "5/6/7/wwwwbbbb/wwww*bbbb/www2bbb/w4b1/6/5 b 1"     # a finished game is a position
    r = run("solve", "ducks", won)
    assert r.exit_code == 0 and "already over: White wins (result 1 0)" in r.output
    r = run("analyse", "ducks", won, "--engine", "ab:depth=1")
    assert r.exit_code == 0 and "the game is over: White wins" in r.output
    assert json.loads(run("analyse", "ducks", won, "--json").output)["result"] == [1, 0]


def test_ctrl_c_while_the_program_starts_is_one_line_and_status_130(monkeypatch, capsys):
    # a Ctrl-C that lands while the command line is still being imported
    import types
    from roost.cli import entry

    class Starting(types.ModuleType):
        def __getattr__(self, name):
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "roost.cli.main", Starting("roost.cli.main"))
    assert entry.main() == 130
    assert capsys.readouterr().err == "\ninterrupted\n"
