"""The tournament database: one SQLite file per tournament.

- ``meta``: ``schema`` = ``roost-arena``, ``schema_version``, ``created``, ``roost_version``
  and ``config``, the tournament's configuration as canonical JSON.
- ``games``: one row per finished game, keyed by its schedule id (1-based): the seats'
  engines (roster indices and specs), seed, start position, moves (names and ids), the
  mover and the seconds of each move, the result, the final position, plies, duration,
  the worker that played it, the versions of roost and Python it ran on, and ``ending``:
  JSON saying why the game ended (the game's reason, which seat forfeited and why, or the
  adjudication), '' where the record does not say (schema 2); ``opening``, the suite's
  opening the game started from (``{"index", "text"}``, '' for none), ``reports``, what
  each move's engine reported (``reports.Report.row()``, null where none was asked), and
  ``stats``, those reports summed per seat (``reports.seat_stats``) (schema 3).  A database
  of an earlier schema gains the columns, empty, when a tournament resumes it, and reads as
  if it had them.
- ``live``: the games being played, one row each under the id the finished game will have:
  the seats, the start and the moves so far (names, movers, seconds), written as they are
  played and removed when the game is stored; a tournament starting or resuming empties it
  (a game it holds then was interrupted, and is played again), and so does one that stops.
  ``meta``'s ``playing`` names the process playing (host and pid) while it runs.

Only the tournament's own process writes (workers return records); every game is committed
in its own transaction, in WAL mode with ``synchronous=FULL``, so a kill -9 or a machine
crash loses at most the games that were still being played.  A second process trying to
run the same database at the same time is refused (an advisory lock on the file).
"""
import datetime
import json
import os
import platform
import sqlite3
import time
import urllib.parse

from roost.core.errors import RoostError

SCHEMA = "roost-arena"
SCHEMA_VERSION = 3
_HEADER = b"SQLite format 3\x00"

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    pairing INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    engines TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    start TEXT NOT NULL,
    moves TEXT NOT NULL,
    move_ids TEXT NOT NULL,
    movers TEXT NOT NULL,
    times TEXT NOT NULL,
    result TEXT NOT NULL,
    final TEXT NOT NULL,
    plies INTEGER NOT NULL,
    seconds REAL NOT NULL,
    finished TEXT NOT NULL,
    worker TEXT NOT NULL,
    roost_version TEXT NOT NULL,
    python_version TEXT NOT NULL,
    ending TEXT NOT NULL DEFAULT '',
    opening TEXT NOT NULL DEFAULT '',
    reports TEXT NOT NULL DEFAULT '',
    stats TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS live (
    id INTEGER PRIMARY KEY,
    engines TEXT NOT NULL,
    seats TEXT NOT NULL,
    start TEXT NOT NULL,
    moves TEXT NOT NULL,
    movers TEXT NOT NULL,
    times TEXT NOT NULL,
    updated REAL NOT NULL
);
"""
_LIVE = _TABLES[_TABLES.index("CREATE TABLE IF NOT EXISTS live"):]

_COLUMNS = ("id", "pairing", "rotation", "engines", "seats", "seed", "start", "moves", "move_ids",
            "movers", "times", "result", "final", "plies", "seconds", "finished", "worker",
            "roost_version", "python_version", "ending", "opening", "reports", "stats")
_JSON = {"engines", "seats", "moves", "move_ids", "movers", "times", "result"}
# JSON cells that are '' where the game's record has nothing to say (or an earlier schema
# had no such column)
_OPTIONAL = ("ending", "opening", "reports", "stats")
_REQUIRED = tuple(c for c in _COLUMNS if c not in _OPTIONAL)      # schema 1's columns


class StoreError(RoostError):
    """A database file that is not a usable roost tournament database."""


RESTORE = "restore the file from a copy (sqlite3's .recover may save what it can)"


def _damaged_row(path, gid, what):
    """What to say of a stored game that does not read: the fault and the way out (the
    tournament plays a game it does not find)."""
    return StoreError(f"{path}: the row of game {gid} is damaged ({what}); remove it "
                      f"(sqlite3 {path} \"DELETE FROM games WHERE id = {gid}\") and run the "
                      "tournament's command again to play that game anew")


def _text(raw):
    """SQLite text as str: bytes that are not UTF-8 come through as lone surrogates
    (``_not_text`` finds them), so a damaged row is reported, not a decoding error."""
    return raw.decode("utf-8", "surrogateescape")


def _not_text(value):
    """Whether ``value`` is a str holding bytes that were not UTF-8."""
    if not isinstance(value, str) or value.isascii():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _read_only(path):
    return StoreError(f"{path} is read-only, and a tournament stores every game in it: make it "
                      f"writable (chmod u+w {path}) or give another --db (export and replay read "
                      "it as it is)")


def _unusable(path, e):
    """The message for an SQLite error opening ``path``: read-only, damaged, or not SQLite."""
    text = str(e)
    if "readonly" in text:
        return _read_only(path)
    if "malformed" in text or "corrupt" in text:
        return StoreError(f"{path} is damaged ({text}): {RESTORE}")
    return StoreError(f"{path} is not a usable roost tournament database ({text})")


def roost_version():
    try:
        from importlib.metadata import version
        return version("roost")
    except Exception:
        return "unknown"


def canonical(config):
    return json.dumps(config, sort_keys=True, separators=(",", ":"))


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _check_file(path):
    """Refuse a file that is not SQLite before sqlite3 gets to say something cryptic."""
    if os.path.isdir(path):
        raise StoreError(f"{path} is a directory, not a roost tournament database")
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_HEADER))
    except OSError as e:
        raise StoreError(f"cannot read {path}: {e.strerror}") from None
    if head and head != _HEADER:
        raise StoreError(f"{path} is not a roost tournament database (not an SQLite file)")
    return bool(head)


def _differences(stored, config, defaults):
    def shown(d, k):
        return d.get(k, defaults.get(k))
    return "; ".join(f"{k}: stored {shown(stored, k)!r}, now {shown(config, k)!r}"
                     for k in sorted(set(stored) | set(config)) if shown(stored, k) != shown(config, k))


def _refusal(path, stored, config, defaults):
    """Why ``path`` (holding ``stored``) is not resumed for ``config``.  A different format
    means another roost wrote it (another schedule or seed derivation), so running the same
    command again would not resume it: that is said first, whatever else differs."""
    old, now = stored.get("format"), config.get("format")
    if old != now:
        which = ("an older" if isinstance(old, int) and isinstance(now, int) and old < now
                 else "another")
        return (f"{path} holds a tournament of format {old}, written by {which} roost; this one "
                f"plays format {now} (games seated or seeded differently), so it cannot resume "
                "it: give a new --db (replay and export still read the file)")
    grows = ""
    if {k for k in set(stored) | set(config) if stored.get(k) != config.get(k)} <= {"engines", "games",
                                                                                 "stages"}:
        grows = ("; a tournament grows only by a larger --games or by engines added after the "
                 "stored ones, each stored engine as it was; ")
    stored = {k: v for k, v in stored.items() if k != "stages"}
    config = {k: v for k, v in config.items() if k != "stages"}
    return (f"{path} holds a different tournament ({_differences(stored, config, defaults)})"
            f"{grows or '; '}run the same command to resume it, or give a new --db")


def _rollback(conn):
    """Undo an open transaction, keeping the error that interrupted it: after a failed
    COMMIT (a full disk) SQLite may already have rolled back itself, and a second ROLLBACK
    would only say "no transaction is active"."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _in_wal_mode(path):
    """Whether the SQLite file's header says WAL mode (file format versions 2, not 1)."""
    with open(path, "rb") as fh:
        head = fh.read(20)
    return len(head) == 20 and head[18] == 2


def _connect_reading(path):
    """A connection that only reads and leaves the file, and as far as SQLite lets it the
    directory, as it found them.
    - A file in WAL mode where it and its directory can be written: an ordinary connection
      (as the last one, closing it tidies the -wal and -shm files away).
    - Any other file that can be written (a foreign database in rollback mode): read-only,
      which creates and changes nothing.
    - A file that cannot be written, or in a directory that cannot be (a read-only
      directory, a CD, a share), where SQLite could not create the -shm file a WAL database
      needs: with no write-ahead log to read, it is opened as immutable (no locks, no side
      files); with one left by a crash, its -shm file must be there too."""
    full = os.path.abspath(path)
    uri = "file:" + urllib.parse.quote(full)
    if os.access(full, os.W_OK) and os.access(os.path.dirname(full), os.W_OK):
        mode = "?mode=rw" if _in_wal_mode(full) else "?mode=ro"
    else:
        wal = full + "-wal"
        unfinished = os.path.exists(wal) and os.path.getsize(wal) > 0
        if unfinished and not os.path.exists(full + "-shm"):
            raise StoreError(f"cannot read {path}: it has an unfinished write-ahead log ({wal}) "
                             "that only a process that can write in its directory can read; "
                             "copy the database with its -wal file somewhere writable")
        mode = "?mode=ro" if unfinished else "?mode=ro&immutable=1"
    conn = sqlite3.connect(uri + mode, uri=True, isolation_level=None, timeout=5.0)
    conn.text_factory = _text
    conn.execute("PRAGMA query_only=1")
    return conn


class Store:
    """An open tournament database.  ``Store.open(path)`` reads an existing one (read-only
    unless ``write``); ``Store.create_or_resume(path, config)`` is what a tournament uses."""

    def __init__(self, path, conn, write):
        self.path = path
        self.conn = conn
        self.write = write
        self._lock = None
        self._select = ", ".join(_COLUMNS)
        self._no_live = False            # an earlier schema read as it is: no live table

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path, write=False, check=True):
        """``check=False`` leaves out SQLite's integrity check of the whole file: for a
        reader that looks again and again (a game in progress followed), not for one that
        reads the games."""
        if not os.path.exists(path):
            raise StoreError(f"{path}: no such database")
        if not _check_file(path):
            raise StoreError(f"{path} is an empty file, not a roost tournament database")
        store = cls(path, cls._connect(path, write), write)
        store._verify(check)
        return store

    @classmethod
    def create_or_resume(cls, path, config, defaults=None, replaces=None):
        """Open ``path`` for a tournament with ``config`` (a dict): create it if new, resume
        it if it holds the same tournament, refuse it otherwise.  An existing file is
        checked through a read-only connection first, so a file that is refused is left
        exactly as it was (a write connection would switch it to WAL mode at once).
        ``defaults`` name the values of settings a configuration may leave out, for the
        message that tells two configurations apart.  ``replaces`` is a stored
        configuration that ``config`` grows (more games, more engines): a database holding
        it is resumed, ``config`` written in its place."""
        exists = os.path.exists(path) and _check_file(path)
        if exists:
            probe = cls(path, cls._connect(path, False), False)
            try:
                if probe._has_tables():
                    probe._verify()
                    stored = probe.config()
                    if canonical(stored) not in (canonical(config), canonical(replaces)):
                        raise StoreError(_refusal(path, stored, config, defaults or {}))
            finally:
                probe.close()
        store = cls(path, cls._connect(path, True), True)
        store._take_lock()
        try:
            if store._has_tables():
                store._verify()          # again, writing: it upgrades an older schema
                stored = store.config()
                if canonical(stored) == canonical(replaces) != canonical(config):
                    store._replace_config(config)
                elif canonical(stored) != canonical(config):
                    raise StoreError(_refusal(path, stored, config, defaults or {}))
                store.check_rows()
            else:
                store._create(config)
        except BaseException as e:
            store.close()
            if isinstance(e, sqlite3.DatabaseError) and "readonly" in str(e):
                raise _read_only(path) from None     # a file system mounted read-only
            raise
        return store

    @staticmethod
    def _connect(path, write):
        try:
            if write:
                if not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK):
                    raise StoreError(f"cannot write {path}: its directory is not writable")
                if os.path.exists(path) and not os.access(path, os.W_OK):
                    # before SQLite opens it read-only, and leaves -wal and -shm files
                    raise _read_only(path)
                conn = sqlite3.connect(path, isolation_level=None, timeout=5.0,
                                       check_same_thread=False)
                conn.text_factory = _text
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
            else:
                conn = _connect_reading(path)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as e:
            raise _unusable(path, e) from None
        return conn

    def _take_lock(self):
        try:
            import fcntl
        except ImportError:          # no advisory locks here: carry on without
            return
        fh = open(self.path, "rb")
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            self.conn.close()
            raise StoreError(f"{self.path} is in use by another running tournament") from None
        self._lock = fh

    def _has_tables(self):
        rows = self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        return bool(rows)

    def _verify(self, check=True):
        try:
            names = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not {"meta", "games"} <= names:
                raise StoreError(f"{self.path} is an SQLite database but not a roost tournament "
                                 "database (no roost tables)")
            meta = dict(self.conn.execute("SELECT key, value FROM meta"))
            if meta.get("schema") != SCHEMA:
                raise StoreError(f"{self.path} is an SQLite database but not a roost tournament "
                                 "database (no roost schema mark)")
            version = int(meta.get("schema_version", "0"))
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer roost (database schema "
                                 f"{version}; this roost reads {SCHEMA_VERSION})")
            cols = tuple(r[1] for r in self.conn.execute("PRAGMA table_info(games)"))
            if not set(_REQUIRED) <= set(cols) <= set(_COLUMNS):
                raise StoreError(f"{self.path}: the games table does not have roost's columns")
            if set(cols) != set(_COLUMNS) or "live" not in names:
                self._upgrade(cols, "live" in names)
            json.loads(meta["config"])
            if not check:
                return
            report = [line for row in self.conn.execute("PRAGMA quick_check")
                      for line in str(row[0]).splitlines()
                      if line.strip() and not line.startswith("*** in database")]
            if report != ["ok"]:
                more = f" and {len(report) - 1} more" if len(report) > 1 else ""
                raise StoreError(f"{self.path} is damaged (SQLite's integrity check: "
                                 f"{report[0] if report else '?'}{more}): {RESTORE}")
        except StoreError:
            self.close()
            raise
        except (sqlite3.DatabaseError, KeyError, ValueError) as e:
            self.close()
            raise _unusable(self.path, e) from None

    def _upgrade(self, cols, has_live):
        """A database of an earlier schema: add the columns it lacks (and the live table)
        when writing; read them as '' (and no game in progress) otherwise."""
        missing = [k for k in _COLUMNS if k not in cols]
        if not self.write:
            self._select = ", ".join(k if k in cols else f"'' AS {k}" for k in _COLUMNS)
            self._no_live = not has_live
            return
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            for k in missing:
                c.execute(f"ALTER TABLE games ADD COLUMN {k} TEXT NOT NULL DEFAULT ''")
            c.execute(_LIVE)
            c.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
            c.execute("COMMIT")
        except BaseException:
            _rollback(c)
            raise

    def _create(self, config):
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            for stmt in _TABLES.strip().split(";"):
                if stmt.strip():
                    c.execute(stmt)
            rows = {"schema": SCHEMA, "schema_version": str(SCHEMA_VERSION), "created": _now(),
                    "roost_version": roost_version(), "config": canonical(config)}
            c.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", rows.items())
            c.execute("COMMIT")
        except BaseException:
            _rollback(c)
            raise

    def _replace_config(self, config):
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            c.execute("UPDATE meta SET value = ? WHERE key = 'config'", (canonical(config),))
            c.execute("COMMIT")
        except BaseException:
            _rollback(c)
            raise

    def lock_fds(self):
        """File descriptors a forked worker must close so the lock dies with this process."""
        return [self._lock.fileno()] if self._lock is not None else []

    def close(self):
        try:
            self.conn.close()
        finally:
            if self._lock is not None:
                self._lock.close()
                self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ reading
    def meta(self):
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    def config(self):
        return json.loads(self.meta()["config"])

    def done_ids(self):
        return {r[0] for r in self.conn.execute("SELECT id FROM games")}

    def count(self):
        return self.conn.execute("SELECT count(*) FROM games").fetchone()[0]

    def results(self):
        """(id, engines per seat, result) of every stored game, in id order (cheap)."""
        out = []
        for i, e, r in self.conn.execute("SELECT id, engines, result FROM games ORDER BY id"):
            try:
                out.append((i, tuple(json.loads(e)), tuple(float(x) for x in json.loads(r))))
            except (TypeError, ValueError):
                raise _damaged_row(self.path, i, "its engines or result") from None
        return out

    def endings(self):
        """(id, engines per seat, ending) of every game whose record says how it ended, in id
        order (``match.is_forfeit`` tells the forfeits)."""
        out = []
        rows = self.conn.execute(f"SELECT id, engines, ending FROM ({self._select_from()}) "
                                 "WHERE ending != '' ORDER BY id")
        for i, e, end in rows:
            try:
                out.append((i, tuple(json.loads(e)), json.loads(end)))
            except (TypeError, ValueError):
                raise _damaged_row(self.path, i, "its engines or ending") from None
        return out

    def _select_from(self):
        return f"SELECT {self._select} FROM games"

    def seconds(self):
        return self.conn.execute("SELECT coalesce(sum(seconds), 0) FROM games").fetchone()[0]

    def seat_stats(self):
        """(id, engines per seat, the per-seat sums of its reports) of every game whose
        record has them, in id order (cheap: no moves are read)."""
        out = []
        rows = self.conn.execute(f"SELECT id, engines, stats FROM ({self._select_from()}) "
                                 "WHERE stats != '' ORDER BY id")
        for i, e, st in rows:
            try:
                out.append((i, tuple(json.loads(e)), json.loads(st)))
            except (TypeError, ValueError):
                raise _damaged_row(self.path, i, "its engines or stats") from None
        return out

    def live_games(self):
        """The games being played, in id order: dicts with ``id``, ``engines``, ``seats``,
        ``start``, ``moves``, ``movers``, ``times`` and ``updated`` (seconds since the epoch).
        None are: in a database of an earlier schema, and when the process that plays them
        is gone (killed on this machine: what it left is played again on resume)."""
        if self._no_live or not self._player_alive():
            return []
        out = []
        for row in self.conn.execute("SELECT id, engines, seats, start, moves, movers, times, "
                                     "updated FROM live ORDER BY id"):
            d = dict(zip(("id", "engines", "seats", "start", "moves", "movers", "times",
                          "updated"), row))
            try:
                for k in ("engines", "seats", "moves", "movers", "times"):
                    d[k] = json.loads(d[k])
            except (TypeError, ValueError):
                continue             # a row being replaced as it was read: the next look has it
            out.append(d)
        return out

    def _player_alive(self):
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'playing'").fetchone()
        if row is None:
            return False
        host, _, pid = row[0].rpartition(":")
        if host != platform.node():
            return True              # another machine's: trust its table
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except (PermissionError, ValueError):
            return True
        return True

    def game(self, game_id):
        row = self.conn.execute(f"{self._select_from()} WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else self._row(row)

    def games(self):
        for row in self.conn.execute(f"{self._select_from()} ORDER BY id"):
            yield self._row(row)

    def _row(self, row):
        d = dict(zip(_COLUMNS, row))
        for k, v in d.items():
            if _not_text(v):
                raise _damaged_row(self.path, d["id"], f"{k} is not UTF-8 text")
        try:
            for k in _JSON:
                d[k] = json.loads(d[k])
            for k in _OPTIONAL:
                d[k] = json.loads(d[k]) if d[k] else None
        except (TypeError, ValueError):
            raise _damaged_row(self.path, d["id"], f"{k} does not read") from None
        return d

    def check_rows(self):
        """StoreError for the first stored game whose row holds bytes that are not UTF-8
        text (a tournament looks before it plays: export and replay must read every row it
        counts; that the JSON cells read is checked as they are read)."""
        for row in self.conn.execute(f"{self._select_from()} ORDER BY id"):
            for k, v in zip(_COLUMNS, row):
                if _not_text(v):
                    raise _damaged_row(self.path, row[0], f"{k} is not UTF-8 text")

    # ------------------------------------------------------------------ writing
    def add(self, rec):
        """Store one finished game (a record dict from ``runner.play_scheduled``)."""
        self.add_many([rec])

    def add_many(self, recs, live=()):
        """Store finished games in one transaction (a group commit: one sync for all of
        them), their rows of the live table removed, and the ``live`` rows (``live_row``)
        of games in progress written.  A game already stored is an error: the schedule
        never plays one twice.  A transaction of live rows alone is not synced: a game in
        progress is lost with the process anyway."""
        rows = [rec.get("_row") or encode_row(rec) for rec in recs]
        c = self.conn
        c.execute(f"PRAGMA synchronous={'FULL' if rows else 'NORMAL'}")
        c.execute("BEGIN IMMEDIATE")
        try:
            c.executemany(f"INSERT INTO games({', '.join(_COLUMNS)}) "
                          f"VALUES ({', '.join('?' * len(_COLUMNS))})", rows)
            c.executemany("DELETE FROM live WHERE id = ?", [(r[0],) for r in rows])
            c.executemany("INSERT OR REPLACE INTO live(id, engines, seats, start, moves, movers, "
                          "times, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", live)
            c.execute("COMMIT")
        except BaseException:
            _rollback(c)
            raise

    def begin_playing(self):
        """A tournament starts playing here: no game of an earlier run is in progress any
        more, and ``meta`` names this process."""
        self._set_playing(f"{platform.node()}:{os.getpid()}")

    def end_playing(self):
        """The tournament stopped playing: its games in progress are gone."""
        self._set_playing(None)

    def _set_playing(self, who):
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            c.execute("DELETE FROM live")
            if who is None:
                c.execute("DELETE FROM meta WHERE key = 'playing'")
            else:
                c.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('playing', ?)", (who,))
            c.execute("COMMIT")
        except BaseException:
            _rollback(c)
            raise


def live_row(gid, engines, seats, start, moves, movers, times):
    """The live table's row of a game in progress (JSON text for the lists)."""
    def j(v):
        return json.dumps(v, separators=(",", ":"))
    return (gid, j(list(engines)), j(list(seats)), start, j(list(moves)), j(list(movers)),
            j([round(t, 4) for t in times]), time.time())


def encode_row(rec):
    """The database row of a game record (JSON text for the list columns).  Workers encode
    their records, so the tournament's process only inserts them."""
    def cell(k):
        if k in _OPTIONAL:       # '' where there is nothing to say, as in older records
            v = rec.get(k)
            return json.dumps(v, separators=(",", ":")) if v else ""
        return json.dumps(rec[k], separators=(",", ":")) if k in _JSON else rec[k]
    return tuple(cell(k) for k in _COLUMNS)


class Writer:
    """Commits records on a thread of the tournament's process, so a game loop never waits
    for the disk: every record handed over is committed as soon as the previous commit is
    done, together with whatever else arrived meanwhile.  A record is durable once its
    commit returns (``synchronous=FULL``); one still waiting here when the process is
    killed is lost like a game still being played, and is played again on resume."""

    # seconds between two looks at the games in progress when no finished game comes
    LIVE_EVERY = 0.25

    def __init__(self, store):
        import queue
        import threading
        self.store = store
        self.q = queue.Queue()
        self.live = {}               # id -> the newest live row of a game in progress
        self.finished = set()        # ids handed over finished: never in progress again
        self.error = None
        self.written = 0
        self.thread = threading.Thread(target=self._run, name="roost-db-writer", daemon=True)
        self.thread.start()

    def _run(self):
        import queue
        done = False
        while not done:
            try:
                batch = [self.q.get(timeout=self.LIVE_EVERY)]
            except queue.Empty:
                batch = []
            while True:
                try:
                    batch.append(self.q.get_nowait())
                except queue.Empty:
                    break
            if batch and batch[-1] is None:
                done = True
            recs = [r for r in batch if r is not None]
            self.finished.update(r["id"] for r in recs)
            live = []
            for gid in list(self.live):
                row = self.live.pop(gid)
                if gid not in self.finished:
                    live.append(row)
            if (recs or live) and self.error is None:
                try:
                    self.store.add_many(recs, live)
                    self.written += len(recs)
                except BaseException as e:          # reported by put() / close()
                    self.error = e

    def _raise(self):
        e = self.error
        if isinstance(e, sqlite3.Error):
            raise StoreError(f"cannot write to {self.store.path}: {e}") from None
        raise e

    def put(self, rec):
        """Hand over a finished game's record (a dict)."""
        if self.error is not None:
            self._raise()
        self.q.put(rec)

    def put_live(self, row):
        """Hand over the ``live_row`` of a game in progress, written at the next commit
        unless a newer one or the finished game comes first.  Only a dictionary entry is
        set, no lock taken: a game played in the tournament's own thread may be abandoned
        by a signal at any point of it (``stopping.py``)."""
        self.live[row[0]] = row

    def close(self):
        """Commit everything handed over, then stop."""
        self.q.put(None)
        self.thread.join()
        if self.error is not None:
            self._raise()


def python_version():
    return platform.python_version()
