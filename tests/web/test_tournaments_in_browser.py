"""Tournaments in a real browser: the folder's databases, a tournament's ratings with their
intervals, plot and crosstable, a stored game replayed with its moves and evaluation graph,
a tournament followed live while it is played, and a game in progress followed move by
move as the tournament writes it into its database."""
import subprocess
import sys
import time

import pytest

from tests.web.conftest import roost_cli, shot


@pytest.fixture(scope="module")
def stored(db_dir):
    done = roost_cli("tournament", "connect4", "-e", "random", "-e", "ab:depth=1", "-e", "ab:depth=2",
                     "--games", "2", "--seed", "5", "--jobs", "1", "--db", str(db_dir / "three.db"))
    assert done.returncode == 0, done.stderr
    return "three.db"


def test_a_tournament_its_ratings_crosstable_and_games(server, page, stored):
    page.goto(server.url + "/#/tournaments")
    page.click(f"text={stored}")
    page.wait_for_selector("#ratings-table")
    rows = page.locator("#ratings-table tr").all_inner_texts()
    assert len(rows) == 4 and any("anchor" in r for r in rows)
    assert page.locator("#plot svg").count() == 1                  # Elo with 95% intervals
    assert page.locator("#crosstable tr").count() == 4
    assert page.locator("#games-table tr").count() == 1 + 6        # 3 pairings x 2 games
    shot(page, "tournament")
    page.click("#games-table a >> nth=0")
    page.wait_for_selector("#result")
    assert "played out" not in page.locator("#result").inner_text()
    page.click("#forward")
    page.wait_for_function("document.querySelector('#where').textContent.startsWith('ply 1 of')")
    page.click("#last")
    page.wait_for_selector(".board svg .mark.last")
    page.fill("#graph-seconds", "0.02")
    page.fill("#engine", "ab:depth=2")
    page.click("#graph")
    page.wait_for_selector("#graphbox svg path.series")
    shot(page, "replay")


def test_a_tournament_followed_while_it_is_played(server, page, db_dir):
    tournament = subprocess.Popen(
        [sys.executable, "-m", "roost.cli.main", "tournament", "connect4", "-e", "random", "-e", "ab:depth=3",
         "--games", "40", "--seed", "9", "--jobs", "1", "--hang-guard", "30", "--db", str(db_dir / "live.db")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (db_dir / "live.db").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        page.goto(server.url + "/#/tournament/live.db")
        page.wait_for_selector("#count")
        first = int(page.locator("#count").inner_text())
        page.wait_for_function(f"+document.querySelector('#count').textContent > {first}", timeout=60_000)
        assert int(page.locator("#count").inner_text()) > first    # news without reloading
    finally:
        tournament.terminate()
        tournament.wait(30)


def test_a_game_in_progress_followed_move_by_move(server, page, db_dir):
    """A real tournament writes its game in progress into the database move by move; the
    tournament page lists it, and the page that follows it gains its moves as they are
    played (then, the game over, shows it stored)."""
    from roost.arena.records import game_in_progress
    db = db_dir / "follow.db"
    tournament = subprocess.Popen(
        [sys.executable, "-m", "roost.cli.main", "tournament", "connect4", "-e", "ab:time=0.2",
         "-e", "ab:time=0.15", "--games", "20", "--seed", "4", "--jobs", "1", "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        playing = None
        while playing is None and time.monotonic() < deadline:
            try:
                playing, _, _ = game_in_progress(str(db)) if db.exists() else (None, None, None)
            except Exception:          # the file being created
                playing = None
            time.sleep(0.1)
        assert playing is not None, "no game in progress appeared"
        page.goto(server.url + "/#/tournament/follow.db")
        page.wait_for_selector("#live a", timeout=60_000)
        page.click("#live a")
        page.wait_for_selector("#history span[data-ply='0']", timeout=60_000)
        shown = page.locator("#history span").count()
        # more moves arrive without reloading: the game's, as the tournament plays them
        page.wait_for_function(f"document.querySelectorAll('#history span').length > {shown + 1}",
                               timeout=60_000)
        assert page.locator("#history span").count() > shown + 1
        shot(page, "follow")
    finally:
        tournament.terminate()
        tournament.wait(30)
