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


def test_a_database_of_another_format_is_refused_naming_the_formats(tmp_path):
    # another format means another roost wrote it (another schedule or seed derivation):
    # "run the same command to resume it" would be wrong, and whatever else differs is moot
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, {**CONFIG, "format": 2}).close()
    with pytest.raises(StoreError) as refused:
        Store.create_or_resume(db, {**CONFIG, "format": 3, "seed": 5})
    text = str(refused.value)
    assert "holds a tournament of format 2, written by an older roost" in text
    assert "this one plays format 3" in text and "give a new --db" in text
    assert "run the same command" not in text and "seed:" not in text
    newer = str(tmp_path / "newer.db")
    Store.create_or_resume(newer, {**CONFIG, "format": 3}).close()
    with pytest.raises(StoreError, match="format 3, written by another roost; this one plays format 2"):
        Store.create_or_resume(newer, {**CONFIG, "format": 2})
    with Store.create_or_resume(db, {**CONFIG, "format": 2}) as s:     # its own format resumes
        assert s.config()["format"] == 2


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


# ---------------------------------------------------------------- durability and faults
import hashlib  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from roost.arena.store import Writer  # noqa: E402


def _record(gid, start="x"):
    return {"id": gid, "pairing": 0, "rotation": 0, "engines": [0, 1], "seats": ["random", "random"],
            "seed": gid, "start": start, "moves": [], "move_ids": [], "movers": [], "times": [],
            "result": [1.0, 0.0], "final": "y", "plies": 0, "seconds": 0.001,
            "finished": "2026-01-01T00:00:00", "worker": "here:1", "roost_version": "test",
            "python_version": "3", "ending": ""}


def test_every_commit_is_durable_wal_and_synchronous_full(tmp_path):
    # synchronous=FULL (2): a commit returns only once it is on disk; OFF (0) or NORMAL
    # (1) would let a machine crash take back games the tournament reported as stored
    with Store.create_or_resume(str(tmp_path / "t.db"), CONFIG) as s:
        assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


class _FailingStore:
    """A store whose commit number ``fail_at`` (from 1) fails as SQLite would."""

    def __init__(self, fail_at, message="database or disk is full"):
        self.path, self.fail_at, self.message = "fake.db", fail_at, message
        self.commits, self.kept = 0, []

    def add_many(self, recs, live=()):
        self.commits += 1
        if self.commits >= self.fail_at:
            raise sqlite3.OperationalError(self.message)
        self.kept.extend(r["id"] for r in recs)


def test_the_writer_reports_a_failed_commit_and_never_drops_it_silently():
    store = _FailingStore(fail_at=2)
    w = Writer(store)
    w.put(_record(1))
    deadline = __import__("time").monotonic() + 10
    while store.commits < 1 and __import__("time").monotonic() < deadline:
        __import__("time").sleep(0.01)
    w.put(_record(2))                     # this commit fails...
    with pytest.raises(StoreError, match="cannot write to fake.db: database or disk is full"):
        w.close()                         # ...and close says so
    assert store.kept == [1] and w.written == 1
    with pytest.raises(StoreError, match="disk is full"):
        w.put(_record(3))                 # nothing more is accepted as if it were stored


class _FullAtCommit:
    """The tournament's connection, with COMMIT number ``n`` failing the way it does on a
    full disk: SQLite rolls the transaction back itself and reports SQLITE_FULL."""

    def __init__(self, conn, n):
        self._conn, self._n, self.commits = conn, n, 0

    def execute(self, sql, *args):
        if sql.strip().upper() == "COMMIT":
            self.commits += 1
            if self.commits == self._n:
                self._conn.execute("ROLLBACK")
                raise sqlite3.OperationalError("database or disk is full")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def test_a_full_disk_at_commit_reports_the_disk_not_the_rollback(tmp_path):
    db = str(tmp_path / "t.db")
    s = Store.create_or_resume(db, CONFIG)
    s.conn = _FullAtCommit(s.conn, 2)
    s.add(_record(1))
    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
        s.add(_record(2))
    s.conn = s.conn._conn
    assert s.count() == 1 and not s.conn.in_transaction
    s.add(_record(2))                     # the connection is usable again
    assert s.count() == 2
    s.close()


def test_a_database_that_reached_its_size_limit_reports_a_full_disk(tmp_path):
    # max_page_count makes SQLite itself answer SQLITE_FULL (and roll the transaction back),
    # just as a full file system would
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        pages = s.conn.execute("PRAGMA page_count").fetchone()[0]
        s.conn.execute(f"PRAGMA max_page_count={pages}")
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
            s.add(_record(1, start="x" * 20000))
        assert s.count() == 0


def _digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _side_files(path):
    return [p for p in (path + "-wal", path + "-shm", path + "-journal") if os.path.exists(p)]


def test_a_refused_file_is_left_exactly_as_it_was(tmp_path):
    foreign = str(tmp_path / "other.db")
    c = sqlite3.connect(foreign)          # an ordinary SQLite file, in rollback-journal mode
    c.execute("CREATE TABLE customers (name TEXT)")
    c.execute("INSERT INTO customers VALUES ('Ada')")
    c.commit()
    c.close()
    before = _digest(foreign)
    with pytest.raises(StoreError, match="not a roost tournament database"):
        Store.create_or_resume(foreign, CONFIG)
    with pytest.raises(StoreError, match="not a roost tournament database"):
        Store.open(foreign)
    assert _digest(foreign) == before, "the refused file was changed (switched to WAL?)"
    assert _side_files(foreign) == []
    # a roost database of another tournament is refused without a change either
    ours = str(tmp_path / "t.db")
    Store.create_or_resume(ours, CONFIG).close()
    before = _digest(ours)
    with pytest.raises(StoreError, match="holds a different tournament"):
        Store.create_or_resume(ours, {**CONFIG, "seed": 1})
    assert _digest(ours) == before and _side_files(ours) == []


def test_a_different_opening_is_named_with_its_default(tmp_path):
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, {**CONFIG, "opening": 4}).close()
    with pytest.raises(StoreError, match=r"\(opening: stored 4, now 0\)"):
        Store.create_or_resume(db, CONFIG, defaults={"opening": 0})
    with pytest.raises(StoreError, match=r"\(opening: stored 4, now 2\)"):
        Store.create_or_resume(db, {**CONFIG, "opening": 2}, defaults={"opening": 0})


def test_reading_where_nothing_may_be_written_creates_no_side_files(tmp_path, monkeypatch):
    # export and replay open the database read-only; where its directory cannot be written
    # (here: os.access says so) SQLite must not be asked to create the -wal and -shm files
    # a WAL database otherwise needs
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        s.add(_record(1))
    _read_as_if_read_only(db, monkeypatch)


def _read_as_if_read_only(db, monkeypatch):
    assert _side_files(db) == []
    before = _digest(db)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode & os.W_OK else real_access(p, mode, **kw))
    with Store.open(db) as s:
        assert s.count() == 1 and s.game(1)["seed"] == 1
        assert _side_files(db) == []
    assert _digest(db) == before


def _read_only_runner(folder):
    """A command prefix that runs a program where ``folder`` cannot be written, for real:
    a non-root user after chmod, root inside a mount namespace with the folder bound
    read-only.  None where neither can be had."""
    if os.geteuid() != 0:
        os.chmod(folder, 0o555)
        return []
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    for unshare in (["unshare", "-m"], ["unshare", "-rm"]):
        try:
            probe = subprocess.run(unshare + ["sh", "-c", script, folder, "sh", "-c",
                                              f'! touch "{folder}/probe" 2>/dev/null'],
                                   capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            return unshare + ["sh", "-c", script, folder]
    return None


def test_export_and_replay_in_a_read_only_directory(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = str(folder / "t.db")
    from click.testing import CliRunner
    from roost.cli.main import cli
    r = CliRunner().invoke(cli, ["tournament", "ducks", "-e", "random", "-e", "random",
                                 "--games", "2", "--jobs", "1", "--db", db])
    assert r.exit_code == 0, r.output
    before = _digest(db)
    prefix = _read_only_runner(str(folder))
    try:
        if prefix is None:        # no read-only directory to be had here: say it is one
            _read_as_if_read_only(db, monkeypatch)
            return
        for args, shows in ((["export", db], '"format":"roost-game/1"'),
                            (["replay", db, "2", "--all"], "game 2: start")):
            done = subprocess.run(prefix + [sys.executable, "-m", "roost.cli.main", *args],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, done.stderr
            assert shows in done.stdout and "Traceback" not in done.stderr
        assert _side_files(db) == []
        assert _digest(db) == before
    finally:
        os.chmod(folder, 0o755)


def test_the_schema_version_written_is_three(tmp_path):
    # the on-disk format is a promise to other readers: this roost writes schema 3 (the
    # games' openings, reports and their sums; the live table)
    with Store.create_or_resume(str(tmp_path / "t.db"), CONFIG) as s:
        assert s.meta()["schema_version"] == "3" and s.meta()["schema"] == "roost-arena"
        cols = [r[1] for r in s.conn.execute("PRAGMA table_info(games)")]
        assert cols[-4:] == ["ending", "opening", "reports", "stats"]
        assert [r[1] for r in s.conn.execute("PRAGMA table_info(live)")] == [
            "id", "engines", "seats", "start", "moves", "movers", "times", "updated"]


def test_a_failed_insert_leaves_the_store_usable(tmp_path):
    # a game stored twice is refused (the schedule never plays one twice); the transaction
    # is rolled back, so the next commit goes through
    with Store.create_or_resume(str(tmp_path / "t.db"), CONFIG) as s:
        s.add(_record(1))
        with pytest.raises(sqlite3.IntegrityError):
            s.add_many([_record(2), _record(1)])
        assert not s.conn.in_transaction
        s.add(_record(3))
        assert s.done_ids() == {1, 3}


def _crashed_copy(tmp_path):
    """A database as a kill -9 leaves it: committed games still in its -wal file."""
    src = str(tmp_path / "live.db")
    s = Store.create_or_resume(src, CONFIG)
    s.conn.execute("PRAGMA wal_autocheckpoint=0")
    s.add(_record(1))
    s.add(_record(2))
    folder = tmp_path / "crashed"
    folder.mkdir()
    db = str(folder / "t.db")
    for suffix in ("", "-wal", "-shm"):
        with open(src + suffix, "rb") as a, open(db + suffix, "wb") as b:
            b.write(a.read())
    s.close()
    return db


def test_a_crashed_database_where_nothing_may_be_written(tmp_path, monkeypatch):
    db = _crashed_copy(tmp_path)
    assert os.path.getsize(db + "-wal") > 0
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode & os.W_OK else real_access(p, mode, **kw))
    # with its -shm file, the games in the log are read (immutable would miss them)
    with Store.open(db) as s:
        assert s.done_ids() == {1, 2}
    # without it, SQLite cannot read the log there: one message says what to do
    os.remove(db + "-shm")
    with pytest.raises(StoreError, match="unfinished write-ahead log .*copy the database with its -wal file"):
        Store.open(db)


def test_the_configuration_is_compared_and_named_by_its_content_not_its_key_order(tmp_path):
    from roost.arena.store import canonical
    from roost.arena.tournament import TournamentConfig
    from roost.core.games import get_game
    shuffled = dict(reversed(list(CONFIG.items())))
    assert canonical(shuffled) == canonical(CONFIG)
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, CONFIG).close()
    Store.create_or_resume(db, shuffled).close()          # the same tournament
    # the default database name is part of resuming (the same command finds the same
    # file): pinned, so a change to the configuration's text is noticed (the format is part
    # of it: these are the names under tournament format 3)
    cfg = TournamentConfig(game=get_game("ducks"), engines=["random", "ab:depth=1"], games=2, seed=0)
    assert cfg.as_dict()["format"] == 3
    assert cfg.default_db() == "roost-ducks-a7c6595f.db"
    cfg = TournamentConfig(game=get_game("ducks"), engines=["random", "ab:depth=1"], games=2, seed=0,
                           opening=4)
    assert cfg.default_db() == "roost-ducks-8fc88e83.db"


def _older_schema(tmp_path, version):
    """A database as roost wrote it before games recorded how they ended (schema 1), or
    before they kept their openings and reports and the games in progress (schema 2)."""
    db = str(tmp_path / f"v{version}.db")
    with Store.create_or_resume(db, CONFIG) as s:
        s.add(_record(1))
        for col in ("stats", "reports", "opening") + (("ending",) if version == 1 else ()):
            s.conn.execute(f"ALTER TABLE games DROP COLUMN {col}")
        s.conn.execute("DROP TABLE live")
        s.conn.execute(f"UPDATE meta SET value = '{version}' WHERE key = 'schema_version'")
    return db


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_database_is_read_as_it_is_and_upgraded_when_resumed(tmp_path, version):
    db = _older_schema(tmp_path, version)
    before = _digest(db)
    with Store.open(db) as s:                 # reading changes nothing
        g = s.game(1)
        assert g["ending"] is g["opening"] is g["reports"] is g["stats"] is None
        assert g["seed"] == 1 and [g["id"] for g in s.games()] == [1]
        assert s.live_games() == [] and s.seat_stats() == []
    assert _digest(db) == before
    with Store.create_or_resume(db, CONFIG) as s:     # writing adds the columns, once
        assert s.meta()["schema_version"] == "3"
        cols = [r[1] for r in s.conn.execute("PRAGMA table_info(games)")]
        assert cols[-4:] == ["ending", "opening", "reports", "stats"] and len(cols) == 23
        s.add(_record(2))
        assert [(g["id"], g["ending"]) for g in s.games()] == [(1, None), (2, None)]
        assert s.live_games() == []
    with Store.create_or_resume(db, CONFIG) as s:
        assert s.count() == 2


def test_a_damaged_configuration_is_refused(tmp_path):
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        s.conn.execute("UPDATE meta SET value = '{not json' WHERE key = 'config'")
    with pytest.raises(StoreError, match="not a usable roost tournament database"):
        Store.open(db)
    with pytest.raises(StoreError, match="not a usable roost tournament database"):
        Store.create_or_resume(db, CONFIG)


def test_a_reading_connection_cannot_write(tmp_path):
    db = str(tmp_path / "t.db")
    Store.create_or_resume(db, CONFIG).close()
    with Store.open(db) as s:
        with pytest.raises(sqlite3.OperationalError, match="readonly|read-only|query_only"):
            s.conn.execute("DELETE FROM meta")
    assert Store.open(db).config() == CONFIG


def test_an_empty_log_needs_no_shm_where_nothing_may_be_written(tmp_path, monkeypatch):
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        s.add(_record(1))
    open(db + "-wal", "wb").close()          # an empty log left behind: nothing in it to read
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode & os.W_OK else real_access(p, mode, **kw))
    with Store.open(db) as s:
        assert s.done_ids() == {1}
    assert not os.path.exists(db + "-shm")


# ---------------------------------------------------------------- found by tools/mutate.py
def test_the_version_is_unknown_where_roost_is_not_installed(monkeypatch):
    import importlib.metadata

    from roost.arena.store import roost_version

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert roost_version() == "unknown"


def test_a_truncated_sqlite_file_is_refused_with_a_message(tmp_path):
    # the SQLite magic and nothing after it: too short to say whether it is in WAL mode
    p = tmp_path / "cut.db"
    p.write_bytes(b"SQLite format 3\x00")
    with pytest.raises(StoreError, match="not a usable roost tournament database"):
        Store.open(str(p))


def test_reading_where_only_the_directory_cannot_be_written_creates_no_side_files(tmp_path, monkeypatch):
    # a writable file in a read-only directory (a database copied onto a share): SQLite could
    # not create the -shm file there, so the file must not be opened as an ordinary WAL one
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        s.add(_record(1))
    folder = os.path.dirname(os.path.abspath(db))
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if (mode & os.W_OK and os.path.abspath(p) == folder)
                        else real_access(p, mode, **kw))
    with Store.open(db) as s:
        assert s.done_ids() == {1}
        assert _side_files(db) == []


def _wal_database_with_tables(path, *statements):
    c = sqlite3.connect(path)
    c.execute("PRAGMA journal_mode=WAL")
    for sql in statements:
        c.execute(sql)
    c.commit()
    c.close()
    assert _side_files(path) == []


def test_a_refused_reading_leaves_no_connection_open(tmp_path):
    # a connection left open after a refusal keeps the -wal and -shm files of a WAL database
    # (the exception's traceback keeps the Store alive, as it does in a caller that reports it)
    foreign = str(tmp_path / "other.db")
    _wal_database_with_tables(foreign, "CREATE TABLE customers (name TEXT)")
    with pytest.raises(StoreError, match="no roost tables"):
        Store.open(foreign)
    assert _side_files(foreign) == []
    damaged = str(tmp_path / "t.db")
    with Store.create_or_resume(damaged, CONFIG) as s:
        s.conn.execute("UPDATE meta SET value = '{not json' WHERE key = 'config'")
    with pytest.raises(StoreError, match="not a usable roost tournament database"):
        Store.open(damaged)
    assert _side_files(damaged) == []


def test_a_tournament_refused_by_the_lock_leaves_no_connection_open(tmp_path):
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG):
        with pytest.raises(StoreError, match="in use by another running tournament") as refused:
            Store.create_or_resume(db, CONFIG)
    # the running one has closed; had the refused one kept its connection, the log would stay
    assert _side_files(db) == []
    del refused


def test_a_failed_creation_releases_the_lock(tmp_path, monkeypatch):
    db = str(tmp_path / "t.db")

    def disk_full(self, config):
        raise sqlite3.OperationalError("database or disk is full")
    with monkeypatch.context() as m:
        m.setattr(Store, "_create", disk_full)
        with pytest.raises(sqlite3.OperationalError, match="disk is full") as failed:
            Store.create_or_resume(db, CONFIG)
    Store.create_or_resume(db, CONFIG).close()      # not "in use by another running tournament"
    del failed


def test_results_endings_and_seconds_read_back_what_was_stored(tmp_path):
    db = str(tmp_path / "t.db")
    forfeit = {"seat": 1, "reason": "illegal move"}
    with Store.create_or_resume(db, CONFIG) as s:
        s.add(_record(2))
        s.add({**_record(1), "engines": [1, 0], "result": [0.0, 1.0], "seconds": 2.5,
               "ending": forfeit})
    with Store.open(db) as s:
        assert s.results() == [(1, (1, 0), (0.0, 1.0)), (2, (0, 1), (1.0, 0.0))]
        assert s.endings() == [(1, (1, 0), forfeit)]
        assert s.seconds() == pytest.approx(2.501)


def test_a_writing_store_names_its_lock_descriptor_for_forked_workers(tmp_path):
    db = str(tmp_path / "t.db")
    with Store.create_or_resume(db, CONFIG) as s:
        (fd,) = s.lock_fds()
        assert os.path.samefile(f"/proc/self/fd/{fd}", db)
    with Store.open(db) as s:
        assert s.lock_fds() == []
