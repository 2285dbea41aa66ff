"""``roost serve`` itself: the address it prints, 127.0.0.1 unless --host, the token it then
requires, one clear message for a port it cannot take, and Ctrl-C ending the server and
every search process it started."""
import json
import re
import signal
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
