"""The tournament database refuses what it cannot use, with one clear message each
(src/arena/store.py)."""
import sqlite3

import pytest

from roost.arena.store import SCHEMA_VERSION, Store, StoreError

CONFIG = {"format": 1, "game": "ducks", "players": 2, "engines": ["random", "random"],
          "mode": "roundrobin", "games": 2, "seed": 0, "position": None, "sprt": None}


def test_create_then_resume_the_same_configuration(tmp_path):
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, CONFIG).close()
    with Store.create_or_resume(db, dict(CONFIG)) as s:
        assert s.config() == CONFIG
        assert s.meta()["schema_version"] == str(SCHEMA_VERSION)
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_different_configuration_is_refused_naming_the_difference(tmp_path):
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, CONFIG).close()
    with pytest.raises(StoreError, match=r"holds a different tournament \(seed: stored 0, now 5\)"):
        Store.create_or_resume(db, {**CONFIG, "seed": 5})


def test_a_text_file_is_refused(tmp_path):
    p = tmp_path / "notes.db"
    p.write_text("hello, not a database\n")
    with pytest.raises(StoreError, match="not a roost tournament database \\(not an SQLite file\\)"):
        Store.create_or_resume(str(p), CONFIG)
    with pytest.raises(StoreError, match="not an SQLite file"):
        Store.open(str(p))


def test_a_foreign_sqlite_database_is_refused(tmp_path):
    p = str(tmp_path / "other.db")
    c = sqlite3.connect(p)
    c.execute("CREATE TABLE customers (name TEXT)")
    c.commit()
    c.close()
    with pytest.raises(StoreError, match="an SQLite database but not a roost tournament database"):
        Store.create_or_resume(p, CONFIG)
    with pytest.raises(StoreError, match="no roost tables"):
        Store.open(p)


def test_a_meta_table_without_the_roost_mark_is_refused(tmp_path):
    p = str(tmp_path / "other.db")
    c = sqlite3.connect(p)
    c.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    c.execute("CREATE TABLE games (id INTEGER)")
    c.commit()
    c.close()
    with pytest.raises(StoreError, match="no roost schema mark"):
        Store.open(p)


def test_a_corrupt_database_is_refused(tmp_path):
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, CONFIG).close()
    data = bytearray(open(db, "rb").read())
    data[100:] = b"\xff" * (len(data) - 100)      # keep the SQLite header, wreck the rest
    open(db, "wb").write(bytes(data))
    with pytest.raises(StoreError, match="t.db"):
        Store.create_or_resume(db, CONFIG)
    with pytest.raises(StoreError, match="t.db"):
        Store.open(db)


def test_a_newer_schema_is_refused(tmp_path):
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        s.conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="written by a newer roost"):
        Store.open(db)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(StoreError, match="no such database"):
        Store.open(str(tmp_path / "nothing.db"))
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match="empty file"):
        Store.open(str(empty))
    # an empty file (say, a crash before the first write) starts a new tournament
    Store.create_or_resume(str(empty), CONFIG).close()
    assert Store.open(str(empty)).config() == CONFIG


def test_two_tournaments_cannot_run_on_one_database(tmp_path):
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG):
        with pytest.raises(StoreError, match="in use by another running tournament"):
            Store.create_or_resume(db, CONFIG)
    Store.create_or_resume(db, CONFIG).close()     # free again once closed
