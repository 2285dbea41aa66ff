"""tools/scan_game.py: the values and proof verdicts along a recorded game (docs/strength.md,
"Why games run into the 300-placement cap")."""
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from roost.arena.store import Store
from roost.cli.main import cli

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import scan_game  # noqa: E402


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    # alpha-beta against random on Connect Four: short games that alpha-beta wins
    path = str(tmp_path_factory.mktemp("scan") / "c4.db")
    r = CliRunner().invoke(cli, ["tournament", "connect4", "-e", "ab:depth=4", "-e", "random",
                                 "--games", "2", "--seed", "3", "--jobs", "1", "--db", path])
    assert r.exit_code == 0, r.output
    return path


def won_game(db):
    with Store.open(db) as store:
        for rec in store.games():
            if sorted(rec["result"]) == [0.0, 1.0]:
                return rec
    pytest.fail("alpha-beta won no game against random")


def test_the_last_position_before_a_win_is_a_proven_win_in_one_for_the_winner(db):
    rec = won_game(db)
    winner = rec["result"].index(1.0)
    rows = scan_game.scan("connect4", rec, seat=winner, every=1, proof_depth=3)
    assert [r["ply"] for r in rows] == list(range(len(rec["move_ids"])))
    last = rows[-1]
    assert last["to_move"] == winner and last["proof"] == "win in 1"
    # seed 3's first game (7 plies) is won by a double threat: the
    # winner's move before it is a proven win in 3, and the loser's reply to it a loss in 2
    assert (rows[-3]["to_move"], rows[-3]["proof"]) == (winner, "win in 3")
    assert (rows[-2]["to_move"], rows[-2]["proof"]) == (1 - winner, "loss in 2")
    assert all(r["proof"] == "-" for r in rows[:-3])


def test_values_are_for_the_seat_asked_and_repeat_for_a_seed(db):
    rec = won_game(db)
    winner = rec["result"].index(1.0)
    for_winner = scan_game.scan("connect4", rec, seat=winner, every=3, value_spec="mcts:iterations=200")
    for_loser = scan_game.scan("connect4", rec, seat=1 - winner, every=3, value_spec="mcts:iterations=200")
    assert [r["ply"] for r in for_winner] == list(range(0, len(rec["move_ids"]), 3))
    for a, b in zip(for_winner, for_loser):
        assert 0.0 <= a["value"] <= 1.0 and a["value"] + b["value"] == pytest.approx(1.0)
    assert for_winner == scan_game.scan("connect4", rec, seat=winner, every=3,
                                        value_spec="mcts:iterations=200")
    assert "proof" not in for_winner[0]


def test_the_command_prints_a_line_a_sample_and_names_bad_input(db, capsys):
    assert scan_game.main([db, "1", "--every", "4", "--proof", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"game 1 of {db}: connect4")
    assert all("proof " in line for line in out[1:]) and len(out) > 2
    for args, says in (([db, "99", "--proof", "2"], "has no game 99"),
                       ([db, "1", "--every", "0", "--proof", "2"], "at least 1"),
                       ([db, "1", "--seat", "2", "--proof", "2"], "--seat is 0 or 1"),
                       ([db, "1", "--value", "mcts:nope=1"], "nope"),
                       ([db + ".missing", "1", "--proof", "2"], "missing")):
        assert scan_game.main(args) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("scan_game: ") and says in err and "Traceback" not in err, (args, err)
    with pytest.raises(SystemExit):
        scan_game.main([db, "1"])           # nothing asked for: argparse's usage error
    assert "nothing to do" in capsys.readouterr().err
