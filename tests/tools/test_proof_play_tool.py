"""tools/proof_play.py: auto against a perfect player from Connect Four starts of known value."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import proof_play  # noqa: E402


def test_the_starts_are_counted_per_value_and_every_game_is_told(capsys):
    args = ["--random", "3", "--drawn", "1", "--plies", "16", "--engine", "auto:nodes=20000",
            "--seed", "2"]
    proof_play.main(args)
    out = capsys.readouterr().out.splitlines()
    games = [line for line in out if " player " in line]
    totals = [line for line in out if " starts: " in line]
    # a drawn start is played from each side; every game says kept or the ply given away
    assert sum(" drawn: " in line for line in games) >= 2
    assert all(": kept (" in line or ": given away at ply " in line for line in games)
    counted = sum(int(line.split(": ")[1].split("/")[1].split()[0]) for line in totals)
    assert counted == len(games) and totals[-1].startswith("drawn starts: ")
    proof_play.main(args)                  # the same seed, the same starts
    again = [line.split(" player ")[0] for line in capsys.readouterr().out.splitlines() if " player " in line]
    assert again == [line.split(" player ")[0] for line in games]


def test_first_moves_are_asked_for_every_game_and_judged_by_the_solver(capsys):
    args = ["--random", "2", "--drawn", "1", "--plies", "16", "--seed", "2", "--first", "2"]
    proof_play.main(args + ["--engine", "random"])
    out = capsys.readouterr().out.splitlines()
    totals = [line for line in out if " starts: " in line]

    def moves(out):
        rows = [line for line in out if " first moves " in line and " player " in line]
        return [line.split("first moves ")[1].split(" (")[0].split() for line in rows]
    assert moves(out) and all(len(m) == 2 for m in moves(out))
    # every move marked "!" is counted, and the random mover gives some result away
    marks = sum(m.endswith("!") for row in moves(out) for m in row)
    assert marks == sum(int(line.split(": ")[1].split("/")[0]) for line in totals) > 0
    proof_play.main(args + ["--engine", "ab:tt=16,time=60"])      # a search that ends in a solve
    perfect = capsys.readouterr().out.splitlines()
    assert not any(m.endswith("!") for row in moves(perfect) for m in row)
    assert all(" 0/" in line for line in perfect if " starts: " in line)


def test_a_bad_engine_or_no_starts_is_refused(capsys):
    with pytest.raises(SystemExit, match="--engine"):
        proof_play.main(["--random", "1", "--engine", "nosuch:x=1"])
    with pytest.raises(SystemExit):
        proof_play.main([])
    assert "give --begin" in capsys.readouterr().err
