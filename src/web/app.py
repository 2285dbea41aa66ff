"""The web app behind ``roost serve``: the HTTP API of docs/web.md and the page that uses it.

Requests and answers are JSON.  A fault of a request is one ``{"error": message}`` with a
4xx status (400 bad input, 403 not allowed, 404 not found, 429 every search slot taken),
never a traceback.  Live things go over WebSockets: analysis lines, a game's moves as they
are played, a tournament as it grows.  With a token (``roost serve --host``), every API
call carries it (``Authorization: Bearer TOKEN``, or ``?token=TOKEN``).
"""
import asyncio
import hmac
import json
import os
import re
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from roost.web import library
from roost.web.errors import BadRequest, NotFound, WebError
from roost.web.play import Games
from roost.web.searches import Limits, Pool

MAX_BODY = 1 << 20            # bytes of a request body
MAX_MOVES = 5000              # moves a request may replay
LIVE_POLL = 0.5               # seconds between looks at a tournament database followed live
GRAPH_SECONDS = 0.2           # the default search a position of an evaluation graph gets
MAX_GRAPH = 1000              # positions an evaluation graph may have


# ------------------------------------------------------------------------------ requests
async def _body(request):
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"the request body is larger than {MAX_BODY >> 10} KB")
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


def _field(body, name, kind, default=None, required=False):
    """``body[name]`` checked to be of ``kind`` (a type or tuple of types)."""
    if name not in body or body[name] is None:
        if required:
            raise BadRequest(f"the field {name!r} is missing")
        return default
    value = body[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise BadRequest(f"{name!r} must be an integer, not {json.dumps(value)[:40]}")
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadRequest(f"{name!r} must be a number, not {json.dumps(value)[:40]}")
        return float(value)
    if not isinstance(value, kind):
        what = {str: "text", list: "a list", dict: "an object"}.get(kind, kind.__name__ if isinstance(kind, type) else "")
        raise BadRequest(f"{name!r} must be {what}, not {json.dumps(value)[:40]}")
    return value


def _seed(body):
    seed = _field(body, "seed", int, 0)
    if not 0 <= seed <= (1 << 63) - 1:
        raise BadRequest(f"seed {seed} is out of range: a seed is an integer from 0 to 2^63 - 1")
    return seed


def _position(body):
    """The position a request names: ``game``, ``position`` (text; default the game's
    start, with ``players``), then ``moves`` (names) played from it.  Returns (state,
    state before the last move, the last move id)."""
    game = _field(body, "game", str, required=True)
    text = _field(body, "position", str)
    players = _field(body, "players", int)
    if text and text.strip():
        state = library.parse(game, text)
    elif players is not None or body.get("seed"):
        state = library.start(game, players, _seed(body))
    else:
        state = library.default_position(game)
    names = _field(body, "moves", list, [])
    if len(names) > MAX_MOVES:
        raise BadRequest(f"at most {MAX_MOVES} moves, not {len(names)}")
    before = last = None
    for k, name in enumerate(names, 1):
        if not isinstance(name, str):
            raise BadRequest(f"move {k} is not a name")
        try:
            after = library.play(state, name)
        except BadRequest as e:
            raise BadRequest(f"move {k}: {e}") from None
        before, last, state = state, library.move_id(state, name), after
    return state, before, last


def _observer(body, state):
    seat = _field(body, "as", int)
    if seat is not None and not 0 <= seat < library.players(state):
        n = library.players(state)
        raise BadRequest(f"seat {seat} does not exist in a {n}-player game (seats 0 to {n - 1})")
    return seat


# ----------------------------------------------------------------------------- endpoints
async def api_games(request):
    return JSONResponse(library.games())


async def api_limits(request):
    s = request.app.state
    return JSONResponse({"seconds": s.limits.seconds, "memory_mb": s.limits.memory,
                         "threads": s.limits.threads, "searches": s.limits.workers,
                         "allow_cmd": s.limits.allow_cmd, "tournaments": s.db_dir is not None})


async def api_position(request):
    body = await _body(request)
    state, before, last = _position(body)
    seen_by = _observer(body, state)
    view = await run_in_threadpool(library.view, state, seen_by, before, last)
    return JSONResponse(view)


async def api_play_new(request):
    body = await _body(request)
    s = request.app.state
    seats = _field(body, "seats", list)
    tc = _field(body, "tc", str)
    game = s.games.create(_field(body, "game", str, required=True), players=_field(body, "players", int),
                          seats=seats, position=_field(body, "position", str), seed=_seed(body),
                          tc=tc or None, allow_cmd=s.limits.allow_cmd)
    return JSONResponse(game.view())


def _game(request):
    return request.app.state.games.get(request.path_params["gid"])


async def api_play_get(request):
    return JSONResponse(_game(request).view())


async def _changed(game):
    await game.broadcast()
    game.go()
    return JSONResponse(game.view())


async def api_play_move(request):
    game = _game(request)
    body = await _body(request)
    game.play_person(_field(body, "move", str, required=True))
    return await _changed(game)


async def api_play_undo(request):
    game = _game(request)
    game.undo()
    return await _changed(game)


async def api_play_resign(request):
    game = _game(request)
    body = await _body(request)
    game.resign(_field(body, "seat", int))
    return await _changed(game)


async def api_play_preview(request):
    game = _game(request)
    body = await _body(request)
    return JSONResponse({"picture": game.preview(_field(body, "move", str, required=True))})


async def api_play_hint(request):
    game = _game(request)
    return JSONResponse(await game.hint())


async def ws_play(websocket):
    await websocket.accept()
    try:
        game = websocket.app.state.games.get(websocket.path_params["gid"])
    except WebError as e:
        await websocket.send_json({"type": "error", "error": e.message, "status": e.status})
        await websocket.close()
        return
    queue = asyncio.Queue()
    game.listeners.add(queue)
    await websocket.send_json({"type": "position", "view": game.view()})
    game.go()
    sender = asyncio.ensure_future(_pump(queue, websocket))
    try:
        while True:
            await websocket.receive_text()       # the page says nothing; this waits for its close
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        game.listeners.discard(queue)
        if not game.listeners:
            # a closed page stops its search (shielded: the end of the socket may come as a
            # cancellation of this handler, and the worker must be ended all the same)
            await asyncio.shield(game.close_worker())


async def _pump(queue, websocket):
    while True:
        await websocket.send_json(await queue.get())


# ----------------------------------------------------------------------------- analysis
async def ws_analyse(websocket):
    """Analysis for one page: ``analyse`` (live lines, then the result), ``graph`` (a value
    for each position of a game), ``stop``.  Closing the page ends its worker."""
    s = websocket.app.state
    await websocket.accept()
    worker = None
    task = None
    try:
        while True:
            try:
                msg = json.loads(await websocket.receive_text())
                if not isinstance(msg, dict):
                    raise ValueError
            except ValueError:
                await websocket.send_json({"type": "error", "error": "a message is one JSON object"})
                continue
            op = msg.get("op")
            if op == "stop":
                if worker is not None:
                    worker.stop()
                continue
            try:
                job = _analysis_job(msg, s)
                if worker is None:
                    worker = s.pool.worker()
            except WebError as e:
                await websocket.send_json({"type": "error", "error": e.message, "status": e.status,
                                           "op": op, "tag": msg.get("tag")})
                continue
            if worker is not None:
                worker.stop()
            if task is not None:
                await asyncio.wait([task])
            task = asyncio.ensure_future(_run_job(worker, job, websocket, msg.get("tag")))
    except WebSocketDisconnect:
        pass
    finally:
        if task is not None:
            task.cancel()
        if worker is not None:
            await asyncio.shield(worker.close())


def _analysis_job(msg, s):
    op = msg.get("op")
    limits = s.limits
    seconds = _field(msg, "seconds", float, limits.seconds)
    if not 0 < seconds:
        raise BadRequest("seconds must be more than 0")
    seconds = min(seconds, limits.seconds)
    engine = library.check_engine(_field(msg, "engine", str, "auto"), allow_cmd=limits.allow_cmd,
                                  max_threads=limits.threads, memory_mb=limits.memory)
    if op == "analyse":
        state, _, _ = _position(msg)
        if library.to_move(state) is None:
            raise BadRequest("the game is over: there is nothing to analyse")
        if library.to_move(state) == "chance":
            raise BadRequest("chance is to act here, not a player: play an outcome first")
        multipv = _field(msg, "multipv", int, 1)
        if not 1 <= multipv <= 16:
            raise BadRequest("multipv is from 1 to 16")
        return {"op": "search", "game": library.game_name(state), "position": library.text(state),
                "engine": engine, "seconds": seconds, "observer": _observer(msg, state),
                "multipv": multipv, "seed": _seed(msg)}
    if op == "graph":
        game = _field(msg, "game", str, required=True)
        start = _field(msg, "position", str)
        names = _field(msg, "moves", list, [])
        if len(names) + 1 > MAX_GRAPH:
            raise BadRequest(f"an evaluation graph has at most {MAX_GRAPH} positions")
        state = library.parse(game, start) if start else library.default_position(game)
        positions = [library.text(state)]
        for k, name in enumerate(names, 1):
            if not isinstance(name, str):
                raise BadRequest(f"move {k} is not a name")
            state = library.play(state, name)
            positions.append(library.text(state))
        return {"op": "evaluate", "game": library.game_name(state), "positions": positions,
                "engine": engine, "seconds": min(_field(msg, "seconds", float, GRAPH_SECONDS), limits.seconds),
                "seed": _seed(msg)}
    raise BadRequest(f"unknown op {op!r}: analyse, graph or stop")


async def _run_job(worker, job, websocket, tag):
    async def relay(msg):
        if "progress" in msg:
            await websocket.send_json({"type": "progress", "tag": tag, "progress": msg["progress"]})
        elif "values" in msg:
            await websocket.send_json({"type": "values", "tag": tag, "index": msg["index"],
                                       "values": msg["values"]})
    try:
        answer = await worker.request(job, relay)
        if "result" in answer:
            await websocket.send_json({"type": "result", "tag": tag, "result": answer["result"]})
        elif "stopped" in answer:
            await websocket.send_json({"type": "stopped", "tag": tag, "result": answer["stopped"]})
        elif "done" in answer:
            await websocket.send_json({"type": "done", "tag": tag})
        else:
            await websocket.send_json({"type": "error", "tag": tag, "error": answer.get("error")})
    except (WebSocketDisconnect, asyncio.CancelledError):
        pass
    except Exception as e:              # the search process could not start or died: say so
        try:
            await websocket.send_json({"type": "error", "tag": tag, "error": f"the search failed: {e}"})
        except Exception:
            pass


# ---------------------------------------------------------------------------- tournaments
_DB_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")


def _database(request_or_ws, name=None):
    """The path of a database named in the request, confined to --db-dir."""
    folder = request_or_ws.app.state.db_dir
    if folder is None:
        raise NotFound("this server shows no tournaments (start it with --db-dir FOLDER)")
    name = name if name is not None else request_or_ws.path_params["db"]
    if not _DB_NAME.match(name):
        raise BadRequest(f"{name!r} is not a database name (a file name in the tournament folder)")
    root = os.path.realpath(folder)
    path = os.path.realpath(os.path.join(root, name))
    if os.path.dirname(path) != root:
        raise BadRequest(f"{name!r} is not a database of the tournament folder")
    if not library.is_database(path):
        raise NotFound(f"no tournament database {name!r} in the tournament folder")
    return path


async def api_tournaments(request):
    folder = request.app.state.db_dir
    if folder is None:
        raise NotFound("this server shows no tournaments (start it with --db-dir FOLDER)")

    def listing():
        out = []
        root = os.path.realpath(folder)
        for name in sorted(os.listdir(folder)):
            path = os.path.realpath(os.path.join(root, name))
            if not _DB_NAME.match(name) or os.path.dirname(path) != root or not library.is_database(path):
                continue
            try:
                s = library.tournament_summary(path)
            except WebError as e:
                out.append({"name": name, "error": e.message})
                continue
            out.append({"name": name, "game": s["config"]["game"], "title": s["title"],
                        "engines": s["names"], "stored": s["stored"], "scheduled": s["scheduled"],
                        "finished": s["finished"]})
        return out
    return JSONResponse(await run_in_threadpool(listing))


async def api_tournament(request):
    path = _database(request)
    return JSONResponse(await run_in_threadpool(_tournament, path))


def _tournament(path):
    d = library.tournament_summary(path)
    d["games"] = library.tournament_games(path)
    d["in_progress"] = library.games_in_progress(path)
    return d


async def api_tournament_game(request):
    path = _database(request)
    try:
        gid = int(request.path_params["gid"])
    except ValueError:
        raise BadRequest(f"{request.path_params['gid']!r} is not a game number") from None
    return JSONResponse(await run_in_threadpool(library.game_record, path, gid))


async def ws_tournament(websocket):
    """A tournament followed live: the summary again whenever the database changes, and the
    games in progress (with their moves so far) whenever they change."""
    await websocket.accept()
    try:
        path = _database(websocket)
    except WebError as e:
        await websocket.send_json({"type": "error", "error": e.message})
        await websocket.close()
        return
    seen = playing = None
    closed = asyncio.ensure_future(_wait_closed(websocket))
    try:
        while not closed.done():
            stamp = _stamp(path)
            try:
                if stamp != seen:
                    seen = stamp
                    d = await run_in_threadpool(_tournament, path)
                    playing = d["in_progress"]
                    await websocket.send_json({"type": "tournament", "tournament": d})
                else:
                    now = await run_in_threadpool(library.games_in_progress, path)
                    if now != playing:
                        playing = now
                        await websocket.send_json({"type": "in_progress", "games": now})
            except WebError as e:
                await websocket.send_json({"type": "error", "error": e.message})
            await asyncio.wait([closed], timeout=LIVE_POLL)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        closed.cancel()


def _stamp(path):
    """What changes when a database gains a game: the file and its write-ahead log."""
    out = []
    for p in (path, path + "-wal"):
        try:
            st = os.stat(p)
            out.append((st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


async def _wait_closed(websocket):
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return


# -------------------------------------------------------------------------------- the page
def _static_dir():
    return str(resources.files("roost.web") / "static")


async def page(request):
    return FileResponse(os.path.join(_static_dir(), "index.html"), media_type="text/html")


# ---------------------------------------------------------------------------- the guards
class TokenGuard:
    """With a token, an API call or socket without it is refused (403)."""

    def __init__(self, app, token):
        self.app, self.token = app, token

    async def __call__(self, scope, receive, send):
        if self.token and scope["type"] in ("http", "websocket") and scope["path"].startswith("/api/"):
            if not self._carries_token(scope):
                if scope["type"] == "http":
                    await JSONResponse({"error": "this server needs its token: Authorization: Bearer "
                                        "TOKEN or ?token=TOKEN (roost serve printed it)"},
                                       status_code=403)(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 4403})
                return
        await self.app(scope, receive, send)

    def _carries_token(self, scope):
        from urllib.parse import parse_qs
        given = ""
        for key, value in scope.get("headers", ()):
            if key == b"authorization":
                text = value.decode("latin-1")
                if text.lower().startswith("bearer "):
                    given = text[7:].strip()
        if not given:
            given = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
        return hmac.compare_digest(given.encode(), self.token.encode())


async def _web_error(request, exc):
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request, exc):
    messages = {404: f"no such page or API call: {request.url.path}",
                405: f"{request.method} is not allowed on {request.url.path}"}
    return JSONResponse({"error": messages.get(exc.status_code, exc.detail)}, status_code=exc.status_code)


async def _server_error(request, exc):
    return JSONResponse({"error": f"the server failed on this request ({type(exc).__name__}); "
                         "it has been left as it was"}, status_code=500)


def create_app(limits=None, db_dir=None, token=None):
    """The ASGI app: ``limits`` caps the searches, ``db_dir`` is the folder of tournament
    databases shown (None: none), ``token`` the secret every API call needs (None: none)."""
    limits = limits or Limits()
    routes = [
        Route("/", page),
        Route("/api/games", api_games),
        Route("/api/limits", api_limits),
        Route("/api/position", api_position, methods=["POST"]),
        Route("/api/play", api_play_new, methods=["POST"]),
        Route("/api/play/{gid}", api_play_get),
        Route("/api/play/{gid}/move", api_play_move, methods=["POST"]),
        Route("/api/play/{gid}/undo", api_play_undo, methods=["POST"]),
        Route("/api/play/{gid}/resign", api_play_resign, methods=["POST"]),
        Route("/api/play/{gid}/hint", api_play_hint, methods=["POST"]),
        Route("/api/play/{gid}/preview", api_play_preview, methods=["POST"]),
        WebSocketRoute("/api/play/{gid}/live", ws_play),
        WebSocketRoute("/api/analyse", ws_analyse),
        Route("/api/tournaments", api_tournaments),
        Route("/api/tournaments/{db}", api_tournament),
        Route("/api/tournaments/{db}/games/{gid}", api_tournament_game),
        WebSocketRoute("/api/tournaments/{db}/live", ws_tournament),
        Mount("/static", app=StaticFiles(directory=_static_dir()), name="static"),
    ]
    pool = Pool(limits)

    async def lifespan(app):
        yield
        await app.state.games.close()
        await pool.close()

    app = Starlette(routes=routes, lifespan=_lifespan_of(lifespan),
                    exception_handlers={WebError: _web_error, HTTPException: _http_error,
                                        Exception: _server_error})
    app.state.limits = limits
    app.state.db_dir = db_dir
    app.state.pool = pool
    app.state.games = Games(pool)
    return TokenGuard(app, token) if token else app


def _lifespan_of(generator):
    import contextlib
    return contextlib.asynccontextmanager(generator)
