"""The Dask backend: a small tournament on a local Dask cluster lands in the same SQLite
database, plays the same games as one process, and resumes the same way.  Needs the
`distributed` extra (pip install roost[distributed], part of the test extra)."""
import sqlite3

import pytest

distributed = pytest.importorskip("distributed")

from roost.arena.runner import DaskBackend  # noqa: E402
from roost.arena.tournament import TournamentConfig, run_tournament  # noqa: E402
from roost.core.games import get_game  # noqa: E402


def _rows(db):
    c = sqlite3.connect(db)
    rows = c.execute("SELECT id, engines, seats, seed, start, moves, move_ids, movers, result, "
                     "final FROM games ORDER BY id").fetchall()
    c.close()
    return rows


def test_a_tournament_on_a_local_dask_cluster(tmp_path):
    cfg = TournamentConfig(game=get_game("ducks"), engines=["random", "ab:depth=1"], games=10, seed=8)
    ref = run_tournament(cfg, db=str(tmp_path / "ref.db"), jobs=1)
    db = str(tmp_path / "dask.db")
    stop_at = []

    def interrupt(p):                      # Ctrl-C once, part way through
        if p.done >= 3 and not stop_at:
            stop_at.append(p.done)
            raise KeyboardInterrupt

    backend = DaskBackend(cfg.game, cfg.position, local=2)
    try:
        assert backend.workers == 2
        part = run_tournament(cfg, db=db, backend=backend, on_progress=interrupt, progress_every=0)
        assert part.interrupted and 3 <= part.stored < 10
        rest = run_tournament(cfg, db=db, backend=backend)
    finally:
        backend.close()
    assert rest.finished and rest.resumed == part.stored and rest.played == 10 - part.stored
    assert rest.backend.startswith("dask")
    assert _rows(db) == _rows(ref.db)
    workers = {w for (w,) in sqlite3.connect(db).execute("SELECT DISTINCT worker FROM games")}
    assert workers, "every game records the worker that played it"
