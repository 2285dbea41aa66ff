"""The HTTP API of docs/web.md, called as a program would (Starlette's test client, the app
in this process): positions, games played through the API, analysis over the WebSocket,
tournaments; every bad request answered by one JSON error with a 4xx status; the server's
guards (token, cmd: engines, database names, search caps)."""
import json
import os
import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from roost.web.app import create_app
from roost.web.searches import Limits
from tests.web.conftest import roost_cli


@pytest.fixture
def client():
    with TestClient(create_app(limits=Limits(seconds=2, memory=256))) as c:
        yield c


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory):
    """A folder with one small finished tournament (made by the command line)."""
    folder = tmp_path_factory.mktemp("dbs")
    done = roost_cli("tournament", "connect4", "-e", "random", "-e", "ab:depth=1", "--games", "4",
                     "--seed", "3", "--jobs", "1", "--db", str(folder / "c4.db"))
    assert done.returncode == 0, done.stderr
    (folder / "notes.txt").write_text("not a database")
    outside = folder.parent / f"{folder.name}-elsewhere.db"
    outside.write_bytes((folder / "c4.db").read_bytes())
    (folder / "escape.db").symlink_to(outside)          # a database, but outside the folder
    return folder


def error_of(response, status):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"] and "Traceback" not in body["error"]
    return body["error"]


def test_games_lists_every_game_with_its_player_counts(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"ducks", "tweeeet", "cubirds", "leaves", "wingspan", "connect4"}
    assert games["cubirds"]["players"] == {"min": 2, "max": 5, "default": 4}
    assert games["wingspan"]["hidden_information"] and not games["ducks"]["hidden_information"]


def test_a_position_with_moves_played_marks_the_last_move(client):
    view = client.post("/api/position", json={"game": "connect4", "moves": ["4", "4"]}).json()
    assert view["text"] == "44" and view["to_move"] == 0 and view["last"] == ["stone:4:2"]
    assert {m["name"] for m in view["moves"]} == {str(c) for c in range(1, 8)}
    assert all(m["steps"] == [[f"col:{m['name']}", f"column {m['name']}"]] for m in view["moves"])
    assert 'data-target="col:4"' in view["picture"]


@pytest.mark.parametrize("game, position, words", [
    ("connect4", "4455667", "X wins: X has four in a row"),
    ("ducks", "5/2b1w1/1b1w1b1/2bbww2/2bwww*2/1wbbww2/1wwbb2/1bb3/5 w 30 repetition",
     "a draw: drawn by repetition"),
])
def test_a_finished_game_says_how_it_ended(client, game, position, words):
    view = client.post("/api/position", json={"game": game, "position": position}).json()
    assert view["over"] and view["result_text"].startswith(words)


def test_a_seat_view_hides_the_text_and_the_others_moves(client):
    view = client.post("/api/position", json={"game": "cubirds", "players": 3, "as": 1}).json()
    assert view["text"] is None and view["seen_by"] == 1
    assert view["to_move"] == 0 and view["moves"] == []      # seat 0's hand is not seat 1's to see


@pytest.mark.parametrize("body, status, words", [
    ("{not json", 400, "not JSON"),
    ("[1, 2]", 400, "JSON object"),
    ({}, 400, "'game' is missing"),
    ({"game": "chess"}, 404, "unknown game"),
    ({"game": "ducks", "position": "xyz"}, 400, "position"),
    ({"game": "ducks", "moves": ["e5"]}, 400, "move 1"),
    ({"game": "ducks", "moves": "W@a1"}, 400, "must be a list"),
    ({"game": "ducks", "moves": [7]}, 400, "not a name"),
    ({"game": "ducks", "as": 2}, 400, "seat 2 does not exist"),
    ({"game": "ducks", "players": 3}, 400, "2 players, not 3"),
    ({"game": "ducks", "seed": -1}, 400, "seed"),
])
def test_bad_positions_get_one_json_error(client, body, status, words):
    raw = body if isinstance(body, str) else json.dumps(body)
    assert words in error_of(client.post("/api/position", content=raw), status)


def test_unknown_calls_and_methods_are_json_errors(client):
    assert "no such page" in error_of(client.get("/api/nothing"), 404)
    assert "not allowed" in error_of(client.get("/api/position"), 405)
    assert "no game" in error_of(client.get("/api/play/999"), 404)


def test_engines_the_server_refuses(client):
    def create(spec):
        return client.post("/api/play", json={"game": "ducks", "seats": ["human", spec]})
    assert "--allow-cmd" in error_of(create("cmd:/bin/sh -c 'echo hi'"), 403)
    assert "at most 1 search thread" in error_of(create("mcts:threads=4"), 400)
    assert "has no parameter" in error_of(create("mcts:iters=5"), 400)
    assert "one seat per player" in error_of(client.post("/api/play", json={"game": "ducks", "seats": ["human"]}), 400)
    assert "BASE+INC" in error_of(client.post("/api/play", json={"game": "ducks", "tc": "fast"}), 400)


def test_a_game_through_the_api_move_undo_resign(client):
    view = client.post("/api/play", json={"game": "ducks", "seats": ["human", "human"], "seed": 4}).json()
    gid = view["id"]
    assert view["your_turn"] and view["to_move"] == 0
    view = client.post(f"/api/play/{gid}/move", json={"move": "W@a1"}).json()
    assert [p["name"] for p in view["history"]] == ["W@a1"] and view["last"] == ["cell:a1"]
    assert "illegal" in error_of(client.post(f"/api/play/{gid}/move", json={"move": "W@a1"}), 400)
    view = client.post(f"/api/play/{gid}/undo").json()
    assert view["history"] == [] and view["to_move"] == 0
    view = client.post(f"/api/play/{gid}/resign").json()
    assert view["over"] and view["result"] == [0.0, 1.0] and "resigned" in view["result_text"]
    assert "over" in error_of(client.post(f"/api/play/{gid}/move", json={"move": "W@a2"}), 400)


def test_moves_and_the_history_say_each_move_in_words(client):
    view = client.post("/api/play", json={"game": "leaves", "seats": ["human", "human"], "seed": 4}).json()
    move = view["moves"][5]
    assert move["words"].startswith("tile #") and "the place (" in move["words"]
    view = client.post(f"/api/play/{view['id']}/move", json={"move": move["name"]}).json()
    assert view["history"][0] == {"mover": 0, "name": move["name"], "words": move["words"]}
    refills = view["history"][1:]                                         # the market's refill: chance
    assert refills and all(p["mover"] == "chance" and p["words"] == f"tile #{p['name'][1:]} drawn for the market"
                           for p in refills)
    hidden = client.post("/api/play", json={"game": "wingspan", "players": 2, "seats": ["random", "human"]}).json()
    with client.websocket_connect(f"/api/play/{hidden['id']}/live") as ws:
        msg = ws.receive_json()
        while not (msg["type"] == "position" and msg["view"]["history"]):
            msg = ws.receive_json()
    assert msg["view"]["history"][0] == {"mover": 0, "name": None, "words": ""}   # another seat's setup


def test_a_hint_is_a_legal_move_of_the_person(client):
    gid = client.post("/api/play", json={"game": "connect4", "seats": ["human", "auto:time=0.05"]}).json()["id"]
    hint = client.post(f"/api/play/{gid}/hint").json()
    assert hint["move"] in {str(c) for c in range(1, 8)} and hint["steps"][0][0] == f"col:{hint['move']}"


def test_an_engine_moves_while_a_page_follows_the_game(client):
    gid = client.post("/api/play", json={"game": "connect4", "seats": ["auto:time=0.05", "human"]}).json()["id"]
    with client.websocket_connect(f"/api/play/{gid}/live") as ws:
        seen = [ws.receive_json()]
        while not (seen[-1]["type"] == "position" and seen[-1]["view"]["history"]):
            seen.append(ws.receive_json())
    assert seen[-1]["view"]["your_turn"] and seen[-1]["view"]["history"][0]["mover"] == 0
    assert any(m["type"] == "thinking" for m in seen)         # its search is followed live


def analyse(ws, **request):
    ws.send_json(dict(op="analyse", **request))
    messages = []
    while not messages or messages[-1]["type"] in ("progress",):
        messages.append(ws.receive_json())
    return messages


def test_analysis_reports_live_then_its_result(client):
    with client.websocket_connect("/api/analyse") as ws:
        got = analyse(ws, game="ducks", position="bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0",
                      engine="mcts:time=0.5", multipv=2, tag=7)
    assert [m["type"] for m in got[:-1]] == ["progress"] * (len(got) - 1) and len(got) >= 3
    result = got[-1]
    assert result["type"] == "result" and result["tag"] == 7
    assert len(result["result"]["lines"]) == 2 and result["result"]["iterations"] > 0


@pytest.mark.parametrize("position, verdict", [("4455", "win in 3"), ("44553", "loss in 2")])
def test_alpha_beta_reports_each_depth_then_the_proven_result(client, position, verdict):
    with client.websocket_connect("/api/analyse") as ws:
        got = analyse(ws, game="connect4", position=position, engine="ab", multipv=2)
    progress = [m["progress"] for m in got[:-1]]
    for line in (1, 2):
        reports = [p for p in progress if p["line"] == line]
        assert [p["depth"] for p in reports] == list(range(1, len(reports) + 1)) and len(reports) >= 2
        assert reports[-1]["verdict"] == verdict and not reports[0]["verdict"]
    assert all(p["text"].startswith(f"line {p['line']}  depth {p['depth']}  ") for p in progress)
    result = got[-1]["result"]
    assert result["verdict"] == verdict and [line["verdict"] for line in result["lines"]] == [verdict] * 2
    assert result["depth"] == int(verdict.split()[-1])


def test_analysis_is_capped_by_the_server(client):
    with client.websocket_connect("/api/analyse") as ws:
        got = analyse(ws, game="connect4", engine="mcts:time=100,mem=30000", seconds=100)
    r = got[-1]["result"]
    assert r["seconds"] < 10 and "mem=256" in r["engine"]       # 2 s and 256 MB at most here


def test_analysis_errors_name_the_fault(client):
    with client.websocket_connect("/api/analyse") as ws:
        ws.send_text("nonsense")
        assert "JSON object" in ws.receive_json()["error"]
        ws.send_json({"op": "analyse", "game": "ducks", "engine": "cmd:evil"})
        answer = ws.receive_json()
        assert answer["status"] == 403 and "--allow-cmd" in answer["error"]
        ws.send_json({"op": "analyse", "game": "connect4", "position": "4455667"})
        assert "nothing to analyse" in ws.receive_json()["error"]
        ws.send_json({"op": "fly"})
        assert "unknown op" in ws.receive_json()["error"]


def test_a_stopped_analysis_says_what_it_had(client):
    with client.websocket_connect("/api/analyse") as ws:
        ws.send_json({"op": "analyse", "game": "ducks", "engine": "mcts:time=30", "seconds": 30})
        first = ws.receive_json()
        assert first["type"] == "progress"
        ws.send_json({"op": "stop"})
        answer = ws.receive_json()
        while answer["type"] == "progress":
            answer = ws.receive_json()
    assert answer["type"] == "stopped" and answer["result"]["move"]


def test_a_closed_page_ends_its_search_process(client):
    pool = client.app.state.pool
    with client.websocket_connect("/api/analyse") as ws:
        ws.send_json({"op": "analyse", "game": "ducks", "engine": "mcts:time=30", "seconds": 30})
        assert ws.receive_json()["type"] == "progress"
        pids = pool.processes()
        assert len(pids) == 1
    deadline = time.monotonic() + 10
    while (pool.processes() or os.path.exists(f"/proc/{pids[0]}")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool.processes() == [] and not os.path.exists(f"/proc/{pids[0]}")


def test_an_evaluation_graph_values_every_position(client):
    with client.websocket_connect("/api/analyse") as ws:
        ws.send_json({"op": "graph", "game": "connect4", "moves": ["4", "4", "3"], "engine": "ab:depth=2",
                      "seconds": 0.2})
        got = [ws.receive_json() for _ in range(5)]
    assert [m["type"] for m in got] == ["values"] * 4 + ["done"]
    assert [m["index"] for m in got[:4]] == [0, 1, 2, 3]
    assert all(len(m["values"]) == 2 and abs(sum(m["values"]) - 1) < 1e-6 for m in got[:4])


def test_tournaments_crosstable_ratings_and_games(tournaments):
    with TestClient(create_app(db_dir=str(tournaments))) as c:
        listing = c.get("/api/tournaments").json()
        assert [t["name"] for t in listing] == ["c4.db"] and listing[0]["stored"] == 4   # not escape.db
        t = c.get("/api/tournaments/c4.db").json()
        assert t["names"] == ["random", "ab:depth=1"] and len(t["games"]) == 4
        assert t["crosstable"][0][1]["games"] == 4 and t["ratings_picture"].startswith("<svg")
        assert {e["name"] for e in t["engines"]} == {"random", "ab:depth=1"} and t["in_progress"] == []
        record = c.get("/api/tournaments/c4.db/games/1").json()
        assert record["game"] == "connect4" and len(record["moves"]) == t["games"][0]["plies"]
        assert record["result_text"]
        assert "no game 99" in error_of(c.get("/api/tournaments/c4.db/games/99"), 404)
        assert "not a game number" in error_of(c.get("/api/tournaments/c4.db/games/x"), 400)


@pytest.mark.parametrize("name, status", [
    ("..", 404), ("..%2Fc4.db", 404), ("%2Fetc%2Fpasswd", 404), (".hidden.db", 400),
    ("notes.txt", 404), ("missing.db", 404), ("escape.db", 400),
])
def test_database_names_stay_in_the_folder(tournaments, name, status):
    with TestClient(create_app(db_dir=str(tournaments))) as c:
        error_of(c.get(f"/api/tournaments/{name}"), status)


def test_without_a_folder_there_are_no_tournaments(client):
    assert "--db-dir" in error_of(client.get("/api/tournaments"), 404)


def test_a_token_guards_every_api_call():
    with TestClient(create_app(token="s3cret")) as c:
        assert "token" in error_of(c.get("/api/games"), 403)
        assert "token" in error_of(c.get("/api/games", headers={"Authorization": "Bearer wrong"}), 403)
        assert c.get("/api/games", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        assert c.get("/api/games?token=s3cret").status_code == 200
        assert c.get("/").status_code == 200                  # the page itself carries no secret
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/api/analyse") as ws:
                ws.receive_json()
