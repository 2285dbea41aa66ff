"""``roost serve`` itself: the address it prints, 127.0.0.1 unless --host, the token it then
requires, one clear message for a port it cannot take, and Ctrl-C ending the server and
every search process it started."""
import json
import os
import re
import signal
import sys
import time
import urllib.error
import urllib.request

import websockets.sync.client as ws_client

from tests.web.conftest import Server, roost_cli


def get(url, token=None):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_it_listens_on_localhost_without_a_token(tmp_path):
    server = Server(tmp_path)
    try:
        assert re.match(r"http://localhost:\d+$", server.url)
        assert not any("token" in line for line in server.lines)
        status, games = get(server.url + "/api/games")
        assert status == 200 and len(games) == 6
    finally:
        server.stop()


def test_another_host_needs_the_printed_token(tmp_path):
    server = Server(tmp_path, "--host", "127.0.0.2")
    try:
        token = re.search(r"\?token=(\S+)", server.url).group(1)
        base = server.url.split("/?")[0]
        assert base.startswith("http://127.0.0.2:")
        status, body = get(base + "/api/games")
        assert status == 403 and "token" in body["error"]
        assert get(base + "/api/games", token="guess")[0] == 403
        assert get(base + "/api/games", token=token)[0] == 200
        assert get(f"{base}/api/games?token={token}")[0] == 200
    finally:
        server.stop()


def test_a_port_in_use_is_one_clear_message(tmp_path):
    server = Server(tmp_path)
    try:
        port = server.url.rsplit(":", 1)[1]
        done = roost_cli("serve", "--port", port)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    finally:
        server.stop()


def test_ctrl_c_ends_the_server_and_its_searches(tmp_path):
    server = Server(tmp_path)
    socket_url = server.url.replace("http://", "ws://") + "/api/analyse"
    with ws_client.connect(socket_url) as ws:
        ws.send(json.dumps({"op": "analyse", "game": "ducks", "engine": "mcts:time=60", "seconds": 60}))
        assert json.loads(ws.recv(timeout=60))["type"] == "progress"
        workers = server.workers()
        assert len(workers) == 1
        server.proc.send_signal(signal.SIGINT)
        assert server.proc.wait(30) == 0
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


def alive(pid):
    """Whether ``pid`` runs (a process that has ended but not been reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def followed_to_ply(server, gid, plies):
    """Follow game ``gid`` until ``plies`` moves are played; its view then."""
    with ws_client.connect(f"{server.url.replace('http://', 'ws://')}/api/play/{gid}/live") as ws:
        while True:
            msg = json.loads(ws.recv(timeout=120))
            assert msg["type"] != "error", msg
            if msg["type"] == "position" and len(msg["view"]["history"]) >= plies:
                return msg["view"]


EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def test_engines_a_game_runs_when_cmd_is_allowed(tmp_path):
    """With --allow-cmd a program that speaks the engine protocol plays a seat; every seat
    left out is `auto`; and an engine asking for 1000 s a move moves within the server's
    --max-time (or this test would wait for it in vain)."""
    server = Server(tmp_path, "--allow-cmd", "--max-time", "0.5")
    try:
        bot = f"cmd:{sys.executable} {os.path.abspath(os.path.join(EXAMPLES, 'randombot.py'))}"
        status, view = post(server.url + "/api/play", {"game": "connect4", "seats": [bot, "human"]})
        assert status == 200, view
        view = followed_to_ply(server, view["id"], 1)
        assert view["history"][0]["mover"] == 0 and view["your_turn"]

        status, view = post(server.url + "/api/play", {"game": "connect4"})
        assert status == 200 and view["seats"] == ["human", "auto"]
        status, view = post(f"{server.url}/api/play/{view['id']}/move", {"move": "4"})
        view = followed_to_ply(server, view["id"], 2)
        assert [p["mover"] for p in view["history"]] == [0, 1] and view["your_turn"]

        status, view = post(server.url + "/api/play", {"game": "ducks", "seats": ["mcts:time=1000", "human"]})
        assert status == 200 and view["seats"][0].startswith("mcts:time=1000")
        view = followed_to_ply(server, view["id"], 1)
        assert view["history"][0]["mover"] == 0
    finally:
        server.stop()
