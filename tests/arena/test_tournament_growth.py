"""A finished tournament grows in its own database: more games of the same pairings, or
an engine added (its pairings only), every stored game kept as it was; any other change
is refused (src/arena/tournament.py, schedule.py, store.py)."""
import json
import sqlite3

import pytest

from roost.arena.schedule import schedule
from roost.arena.store import StoreError
from roost.arena.tournament import TournamentConfig, run_tournament, summary_text
from roost.core.games import get_game

DUCKS = get_game("ducks")
KEPT = ("id", "engines", "seats", "seed", "moves", "result", "ending")


def _games(db):
    c = sqlite3.connect(db)
    c.row_factory = sqlite3.Row
    rows = [{k: r[k] for k in KEPT} for r in c.execute("SELECT * FROM games ORDER BY id")]
    c.close()
    return rows


def _config(engines, games, **kw):
    return TournamentConfig(game=DUCKS, engines=engines, games=games, seed=4, **kw)


def test_more_games_then_an_added_engine_keep_every_stored_game(tmp_path):
    db = str(tmp_path / "t.db")
    two = ["ab:depth=1", "mcts:iterations=30"]
    first = run_tournament(_config(two, 2), db=db, jobs=1)
    assert first.finished and first.counted == 2
    before = _games(db)
    more = run_tournament(_config(two, 4), db=db, jobs=1)
    assert more.finished and more.counted == 4 and more.played == 2 and more.grown
    assert "grown from 2 stored games to 4 scheduled" in summary_text(more)
    after = _games(db)
    assert after[:2] == before
    # the games added are those a tournament of 4 games would have played 3rd and 4th
    fresh = str(tmp_path / "fresh.db")
    run_tournament(_config(two, 4), db=fresh, jobs=1)
    assert _games(fresh) == after
    three = two + ["random"]
    grown = run_tournament(_config(three, 4), db=db, jobs=1)
    assert grown.finished and grown.counted == 12 and grown.played == 8
    rows = _games(db)
    assert rows[:4] == after
    added = rows[4:]
    assert all(2 in json.loads(r["engines"]) for r in added)   # new pairings only
    assert grown.tally.games == [8, 8, 8]
    # run again: nothing to play, the grown tournament resumes as it is
    again = run_tournament(_config(three, 4), db=db, jobs=1)
    assert again.played == 0 and again.counted == 12 and _games(db) == rows and not again.grown


def test_a_resumed_tournament_is_not_called_grown(tmp_path):
    db = str(tmp_path / "t.db")
    two = ["ab:depth=1", "mcts:iterations=30"]
    run_tournament(_config(two, 2), db=db, jobs=1)
    with sqlite3.connect(db) as c:                 # as if the second game had not been played
        c.execute("DELETE FROM games WHERE id = 2")
    resumed = run_tournament(_config(two, 2), db=db, jobs=1)
    assert resumed.played == 1 and not resumed.grown
    assert "resumed: 1 game was already stored" in summary_text(resumed)


def test_changes_other_than_growth_are_refused_and_leave_the_file_alone(tmp_path):
    db = str(tmp_path / "t.db")
    run_tournament(_config(["ab:depth=1", "random"], 2), db=db, jobs=1)
    rows = _games(db)
    for engines, games, kw, msg in (
            (["ab:depth=2", "random"], 2, {}, "each stored engine as it was"),
            (["random", "ab:depth=1"], 2, {}, "each stored engine as it was"),
            (["ab:depth=1", "random"], 2, {"seed": 9}, "seed: stored 4, now 9")):
        cfg = TournamentConfig(game=DUCKS, engines=engines, games=games,
                               **{"seed": 4, **kw})
        with pytest.raises(StoreError, match=msg):
            run_tournament(cfg, db=db, jobs=1)
    assert _games(db) == rows


def test_a_grown_schedule_begins_with_the_schedule_it_grew_from():
    old = schedule(3, 2, 4, seed=1)
    grown = schedule(4, 2, 6, seed=1, stages=[(3, 4), (4, 6)])
    assert grown[:len(old)] == old
    pairs = {}
    for g in grown:
        pairs[tuple(sorted(g.engines))] = pairs.get(tuple(sorted(g.engines)), 0) + 1
    assert set(pairs.values()) == {6} and len(pairs) == 6
    with pytest.raises(ValueError, match="last stage"):
        schedule(4, 2, 6, seed=1, stages=[(3, 4), (4, 4)])
