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


def test_a_bad_engine_or_no_starts_is_refused(capsys):
    with pytest.raises(SystemExit, match="--engine"):
        proof_play.main(["--random", "1", "--engine", "nosuch:x=1"])
    with pytest.raises(SystemExit):
        proof_play.main([])
    assert "give --begin" in capsys.readouterr().err
