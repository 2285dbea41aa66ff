"""Searches end at the scale of a tournament too: alpha-beta against random on CuBirds, where
every redeal is a run of chance nodes a search could stall on, leaving no game stored.
Each game must end and be stored; the per-search hang guards are in
test_search_limits.py, this checks the whole path through the arena."""
import sqlite3

from click.testing import CliRunner

from roost.cli.main import cli


def test_alpha_beta_against_random_on_cubirds_stores_every_game(tmp_path):
    db = tmp_path / "t.db"
    r = CliRunner().invoke(cli, ["tournament", "cubirds", "--players", "2", "-e", "ab:depth=1",
                                 "-e", "random", "--games", "4", "--db", str(db), "--seed", "3"])
    assert r.exit_code == 0, r.output
    with sqlite3.connect(db) as con:
        stored = con.execute("select count(*) from games").fetchone()[0]
    assert stored == 4
