"""Damaged tournament databases: a row that is not UTF-8 text, a damaged header, a file the
tournament may not write (in WAL or rollback mode).  Each is one message (one line, non-zero
exit, no traceback) naming the fault and what to do, from export, replay and a resumed
tournament alike, and a tournament says it before any game is played, leaving the file as
it found it."""
import contextlib
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from roost.cli.main import cli

ARGS = ["tournament", "ducks", "-e", "random", "-e", "random", "--games", "4", "--jobs", "1",
        "--no-progress"]


def run(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in r.output
    if r.exception and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


def one_error(r, *says):
    assert r.exit_code not in (0, None), r.output
    errors = [l for l in r.output.splitlines() if l.startswith("Error: ")]
    assert len(errors) == 1 and len(r.output.strip().splitlines()) == 1, r.output
    for s in says:
        assert s in errors[0], r.output
    return errors[0]


@pytest.fixture
def half(tmp_path):
    """A tournament of 4 games with 2 stored."""
    db = tmp_path / "half.db"
    assert run(*ARGS, "--db", db).exit_code == 0
    sql(db, "DELETE FROM games WHERE id > 2")
    return db


def sql(db, statement):
    """Run one statement and close the connection (its WAL checkpointed away)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute(statement)
        conn.commit()


def stored(db):
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)) as conn:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]


def test_a_row_that_is_not_utf8_is_one_message_everywhere(half):
    sql(half, "UPDATE games SET moves = CAST(X'5B22FF225D' AS TEXT) WHERE id = 1")
    says = ("game 1", "not UTF-8", "DELETE FROM games WHERE id = 1")
    one_error(run("export", half), *says)
    one_error(run("replay", half, 1, "--all"), *says)
    assert run("replay", half, 2, "--all").exit_code == 0          # the others still read
    one_error(run(*ARGS, "--db", half), *says)
    assert stored(half) == 2                                        # nothing played


def test_a_damaged_header_is_one_line(half):
    with open(half, "r+b") as fh:               # the largest root page: a lie
        fh.seek(52)
        fh.write(b"\x00\x00\x07\x09")
    for args in (["export", half], ["replay", half, 1], [*ARGS, "--db", half]):
        one_error(run(*args), "damaged", "restore")


def _without_override():
    # root writes any file whatever its mode: drop the capabilities that let it, so the
    # file's mode counts as it does for everyone else (PR_CAPBSET_DROP before the exec)
    import ctypes
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    for cap in (1, 2):                          # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        prctl(24, cap, 0, 0, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux capabilities")
@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_read_only_database_is_refused_before_any_game_and_left_as_it_was(half, journal):
    sql(half, f"PRAGMA journal_mode={journal}")
    os.chmod(half, 0o444)
    before = half.read_bytes()
    argv = [sys.executable, "-m", "roost.cli.main", *ARGS, "--db", str(half)]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                       preexec_fn=_without_override if os.geteuid() == 0 else None)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    errors = [l for l in r.stderr.splitlines() if l.startswith("Error: ")]
    assert len(errors) == 1 and "read-only" in errors[0] and "chmod" in errors[0], r.stderr
    assert "not a usable" not in errors[0] and "resume" not in errors[0], errors[0]
    assert half.read_bytes() == before
    assert sorted(os.listdir(half.parent)) == ["half.db"]          # no -wal, no -shm
