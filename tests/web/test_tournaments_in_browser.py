"""Tournaments in a real browser: the folder's databases, a tournament's ratings with their
intervals, plot and crosstable, a stored game replayed with its moves and evaluation graph,
a tournament followed live while it is played, and a game in progress followed move by
move (through the one function of roost.web.library that reads games in progress)."""
import subprocess
import sys
import threading
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


def test_a_game_in_progress_followed_move_by_move(page, stored, db_dir, monkeypatch):
    """The page follows a game in progress from what games_in_progress returns: here a
    stored game handed out a move more at each look, as the database will hold a game
    being played."""
    import uvicorn
    from roost.web import library
    from roost.web.app import create_app
    record = library.game_record(str(db_dir / stored), 1)
    looks = []

    def in_progress(path):
        looks.append(path)
        plies = min(len(looks), len(record["moves"]) - 1)
        return [dict(record, id="live-1", moves=record["moves"][:plies], movers=record["movers"][:plies],
                     times=record["times"][:plies], result=None, result_text=None, live=True)]
    monkeypatch.setattr(library, "games_in_progress", in_progress)
    server = uvicorn.Server(uvicorn.Config(create_app(db_dir=str(db_dir)), host="127.0.0.1", port=0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        page.goto(f"http://127.0.0.1:{port}/#/tournament/{stored}")
        page.wait_for_selector("#live a")
        page.click("#live a")
        page.wait_for_selector("#history span[data-ply='1']")
        page.wait_for_function("document.querySelectorAll('#history span').length >= 4", timeout=30_000)
        assert "being played" in page.locator("#result").inner_text()
        shot(page, "follow")
    finally:
        server.should_exit = True
        thread.join(10)
