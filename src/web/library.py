"""roost as the web app sees it: the one module of ``roost.web`` that calls the library.

Everything else in the package handles positions as opaque state objects and reaches the
games, the engines and the tournament databases through the functions here, so that a
change of the library's interfaces changes this module only.  Every fault of the input
(a position, a move, an engine spec, a database) becomes a ``BadRequest`` or ``NotFound``
naming it, never another exception.

- games: ``games()``, ``game_info(name)``, ``start``, ``parse``, ``play``, ``view`` (a
  position as a page shows it: picture, whose turn, the moves a person can click);
- engines: ``check_engine`` (a spec the server may run, capped), ``search`` (run one with
  live reports; called in a search worker process), ``evaluate`` (a value per position);
- tournaments: ``tournament_summary``, ``tournament_games``, ``game_record`` (finished
  games) and ``games_in_progress`` (a game being played, followed live).
"""
import math
import os

from roost.web.errors import BadRequest, Forbidden, NotFound


def _roost_errors():
    from roost.core.errors import RoostError
    return RoostError


# ------------------------------------------------------------------------------- games
def games():
    """The games roost plays, as JSON: name, title, player counts, a summary, whether seats
    hide cards from each other, and whether it is a calibration game."""
    from roost.core.games import all_games
    out = []
    for g in all_games():
        start = g.default_position()
        out.append({"name": g.name, "title": g.title, "summary": g.summary,
                    "players": {"min": g.min_players, "max": g.max_players, "default": g.default_players},
                    "hidden_information": bool(start.hidden_info), "calibration": g.calibration,
                    "sides": side_names(start)})
    return out


def game_info(name):
    """The registry's entry for a game name or alias; NotFound names the games."""
    from roost.core.games import get_game
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("no game given; GET /api/games lists them")
    try:
        return get_game(name)
    except _roost_errors() as e:
        raise NotFound(str(e)) from None


def start(game, players=None, seed=0):
    """A fresh game of ``players`` (default: the game's) dealt with ``seed``."""
    g = game_info(game)
    try:
        return g.start(players=players, seed=seed)
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None


def default_position(game, players=None):
    """The position the command line uses when none is given."""
    g = game_info(game)
    try:
        return g.default_position(players)
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None


def parse(game, text):
    """The position ``text`` of ``game``; BadRequest names the fault."""
    g = game_info(game)
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("the position text is empty")
    try:
        return g.parse(text.strip())
    except _roost_errors() as e:
        raise BadRequest(f"position: {e}") from None
    except Exception as e:          # a parser's own slip still names the input, not a traceback
        raise BadRequest(f"position: not a {g.title} position ({type(e).__name__})") from None


def play(state, move):
    """A copy of ``state`` with ``move`` (a name; at a chance node an outcome's name)
    played; BadRequest names an illegal or unknown move."""
    if not isinstance(move, str) or not move.strip():
        raise BadRequest("a move is a non-empty name")
    after = state.copy()
    try:
        after.play_move(move.strip())
    except _roost_errors() as e:
        raise BadRequest(f"move {move.strip()!r}: {e}") from None
    return after


def play_id(state, move):
    """A copy of ``state`` with the move id ``move`` played (trusted: a move of ``legal``)."""
    after = state.copy()
    after.play_unchecked(move)
    return after


def random_outcome(state, seed):
    """The name of a chance outcome drawn with ``seed`` (``state`` is a chance node)."""
    return state.move_name(state.sample(seed & ((1 << 63) - 1)))


def move_name(state, move):
    return state.move_name(move)


def move_id(state, name):
    try:
        return state.parse_move(name)
    except _roost_errors() as e:
        raise BadRequest(f"move {name!r}: {e}") from None


def text(state):
    return state.text()


def game_name(state):
    return state.name


def derive_seed(seed, *path):
    """A seed derived from ``seed`` and the integers of ``path`` (as the arena derives its
    games' seeds)."""
    from roost.core.seeds import derive_seed as derive
    return derive(seed, *path)


def seat_view_text(state, seat):
    """The position as ``seat`` may know it (the game's observer view where it hides
    anything), which the game's parser reads back."""
    view = getattr(state, "view", None)
    return view(seat) if state.hidden_info and view is not None else state.text()


def hidden(state):
    return bool(state.hidden_info)


def players(state):
    return state.players


def to_move(state):
    """The player to move, "chance", or None once the game is over."""
    if state.is_over:
        return None
    return "chance" if state.is_chance else state.player


def result(state):
    return list(state.result()) if state.is_over else None


def visible(state, move, seat):
    """Whether ``seat`` sees which move ``move`` was, played from ``state`` (a chance
    outcome or another seat's hidden choice is not seen on a game that hides cards)."""
    if not state.hidden_info or seat is None or state.player == seat:
        return True
    return state.seen_by(move, seat)


def _render_module(state):
    from roost.arena.picture import render_module
    return render_module(state)


def side_names(state):
    """Each seat's name as the game says it: White and Black, the robins, X and O, seat N."""
    names = getattr(_render_module(state), "SIDE_NAMES", None)
    return [names[p] if names and p < len(names) else f"seat {p}" for p in range(state.players)]


def result_text(state):
    """A finished game's result and how it came, in words: 'Black wins: Black's ducks are
    gathered', 'a draw: drawn by repetition...' (the game's own ending)."""
    ending = state.ending()
    detail = ending.get("detail") if ending else None
    return winner_text(state) + (f": {detail}" if detail else "")


def winner_text(state):
    """A finished game's result in words: 'Black wins', 'a draw', 'seats 0 and 2 share the win'."""
    return result_words(state.result(), side_names(state))


def result_words(res, sides):
    """A result (one share per seat) in words, the seats named ``sides``."""
    best = max(res)
    top = [p for p, r in enumerate(res) if r == best]
    if len(top) == len(res):
        return "a draw" if len(res) == 2 else "shared by every seat"
    if len(top) == 1:
        side = sides[top[0]]
        return f"{side} {'win' if side.startswith('the ') else 'wins'}"   # the robins win
    return " and ".join(sides[p] for p in top) + " share the win"


def picture(state, observer=None):
    """The position as SVG, as ``observer`` sees it (None: everything)."""
    from roost.arena.picture import position_svg
    try:
        return position_svg(state, observer)
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None


def question(state, observer=None):
    ask = getattr(state, "question", None)
    if ask is None or state.is_over or state.is_chance:
        return None
    return ask(observer)


def _label(state, m):
    explain = getattr(state, "explain_move", None)
    return explain(m) if explain else state.move_name(m)


def move_steps(state, m, observer=None):
    """What a person clicks to make move ``m``: ``[[target, label], ...]``, where a target
    is a ``data-target`` of the picture, or None for a choice the picture does not draw
    (the page offers it as a button).  A game without clicks gives its moves by name."""
    steps = getattr(_render_module(state), "move_targets", None)
    if steps is None:
        return [[None, _label(state, m)]]
    return [[t, label] for t, label in steps(state, m)]


def move_words(state, m, observer=None):
    """Move ``m`` in words where its name alone is terse ('m0@(1,0)o5': 'tile #24 (m0), the
    place (1,0), back (mirrored), turned 90° clockwise'; 'O4R': 'the owls, row 4, right
    end'; a chance outcome 'd17': 'tile #17 drawn for the market'): its label, else the
    labels of its clicks; '' when they add nothing."""
    if state.is_chance:
        words = getattr(_render_module(state), "outcome_words", None)
        return words(state, m) if words is not None else ""
    return _words(state.move_name(m), _label(state, m), lambda: move_steps(state, m, observer))


def _words(name, label, steps):
    if label != name:
        return label
    return ", ".join(w for _, w in steps() if w != name)


def _details(state, m, observer):
    details = getattr(_render_module(state), "move_details", None)
    return details(state, m, observer) if details is not None else None


def moves(state, observer=None):
    """The legal moves as the page offers them: name, label, the clicks that make it and,
    where the game has them, the details of the card it concerns.  Empty when the viewer
    may not see the mover's options (another seat's hidden hand)."""
    if state.is_over or state.is_chance:
        return []
    if observer is not None and state.hidden_info and observer != state.player:
        return []
    out = []
    for m in state.legal():
        name, label, steps = state.move_name(m), _label(state, m), move_steps(state, m, observer)
        d = {"name": name, "label": label, "words": _words(name, label, lambda: steps), "steps": steps}
        extra = _details(state, m, observer)
        if extra:
            d["details"] = extra
        out.append(d)
    return out


MAX_OUTCOMES_LISTED = 64


def outcomes(state):
    """A chance node's outcomes ``[{name, probability}]`` when there are few enough to
    choose from by hand, else None (a random one is drawn, or one is typed by name)."""
    if not state.is_chance:
        return None
    chances = state.chances()
    if len(chances) > MAX_OUTCOMES_LISTED:
        return None
    return [{"name": state.move_name(o), "probability": round(p, 6)} for o, p in chances]


def last_targets(before, move):
    """The picture targets that mark ``move`` (played from ``before``) as the last move."""
    if before is None or move is None or before.is_chance:
        return []
    marks = getattr(_render_module(before), "move_marks", None)
    if marks is not None:
        return list(marks(before, move))
    return [t for t, _ in move_steps(before, move) if t]


def view(state, observer=None, before=None, last=None):
    """A position as a page shows it to seat ``observer`` (None: everything is shown):
    the picture, the position text (unless it shows cards the viewer may not see), whose
    turn it is or the result, the question asked, the legal moves with their clicks, and
    the targets of the last move (``last``, played from ``before``)."""
    n = state.players
    if observer is not None and not (isinstance(observer, int) and 0 <= observer < n):
        raise BadRequest(f"seat {observer!r} does not exist in a {n}-player game (seats 0 to {n - 1})")
    secret = observer is not None and state.hidden_info
    sides = side_names(state)
    mover = to_move(state)
    d = {"game": state.name, "players": n, "sides": sides,
         "text": None if secret else state.text(),
         "seen_by": observer, "hidden_information": bool(state.hidden_info),
         "to_move": mover, "over": state.is_over,
         "mover_name": None if mover is None else "chance" if mover == "chance" else sides[mover],
         "result": result(state), "result_text": result_text(state) if state.is_over else None,
         "question": question(state, observer), "picture": picture(state, observer),
         "moves": moves(state, observer), "last": last_targets(before, last)}
    if state.is_chance:
        d["outcomes"] = outcomes(state)
    return d


# ----------------------------------------------------------------------------- engines
def check_engine(spec, allow_cmd=False, max_threads=1, memory_mb=None):
    """The canonical text of an engine spec the server may run, its tree or table at most
    ``memory_mb``; BadRequest names a fault of the spec, Forbidden a ``cmd:`` engine the
    server was not allowed to run."""
    if not isinstance(spec, str) or not spec.strip():
        raise BadRequest("an engine spec is empty; try 'auto', 'ab:depth=6' or 'mcts:time=1'")
    if _runs_a_program(spec) and not allow_cmd:
        raise Forbidden("cmd: engines run programs on the server: refused unless the server "
                        "was started with --allow-cmd")
    value = _read_spec(spec, memory_mb)
    threads = value.settings.get("threads", 1)
    if isinstance(threads, int) and threads > max_threads:
        raise BadRequest(f"engine {str(value)!r}: at most {max_threads} search thread"
                         f"{'s' if max_threads != 1 else ''} a search on this server, not {threads}")
    return str(value)


def _runs_a_program(text):
    """Whether the spec text names a kind that runs a program of its own (``cmd:``)."""
    from roost.arena.engines import kind_of
    engine_type = kind_of(text)
    return engine_type is not None and engine_type.external


def _names_auto(text):
    from roost.arena.engines import kind_of
    engine_type = kind_of(text)
    return engine_type is not None and engine_type.kind == "auto"


def _read_spec(text, memory_mb=None):
    """The EngineSpec of ``text``, its tree or table (``mem=``, ``tt=``) at most
    ``memory_mb``, capped before the spec is checked, since a spec is checked against the
    memory this machine has; BadRequest names a fault."""
    from roost.arena.engines import parse_spec
    try:
        return _memory_capped(parse_spec(text, check=False), memory_mb).checked()
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None


def _capped_engine(text, state, seconds, memory_mb):
    """The engine of ``text`` for ``state`` within the server's caps: ``auto`` resolved for
    the game and player count at ``seconds`` a move, and its tree or table at most
    ``memory_mb``."""
    spec = _read_spec(text, memory_mb)
    if spec.kind == "auto":
        from roost.search.auto import resolve
        s = spec.settings
        budget = min(s["time"], seconds) if s["time"] else (0 if s["nodes"] else seconds)
        spec = _memory_capped(resolve(state.name, state.players, budget, s["nodes"]), memory_mb)
    return spec.engine()


def _memory_capped(spec, memory_mb):
    """``spec`` with its ``mem=`` and ``tt=`` (MB) at most ``memory_mb`` (None: as it is)."""
    if memory_mb is None:
        return spec
    caps = {key: min(spec[key], memory_mb) for key in ("mem", "tt") if key in spec.settings}
    return spec.replace(**caps) if caps else spec


def _value(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else round(v, 4)


def _progress_dict(p):
    d = p.as_dict()
    d["text"] = p.text()
    return d


def _result_dict(r, state):
    d = {"engine": r.engine, "move": r.move_name, "player": r.player, "value": _value(r.value),
         "values": [_value(v) for v in r.values] if r.values else None,
         "seat": r.player if r.seat is None else r.seat,
         "seat_value": _value(r.value if r.seat_value is None else r.seat_value),
         "verdict": _verdict(r), "pv": list(r.pv), "nodes": r.nodes, "iterations": r.iterations,
         "depth": r.depth, "seconds": round(r.seconds, 3), "speed": round(r.speed, 1),
         "lines": [{"move": l["move"], "value": _value(l["value"]), "verdict": l.get("verdict") or "",
                    "pv": list(l["pv"])} for l in r.lines],
         "moves": [{"move": s.name, "value": _value(s.value), "visits": s.visits,
                    "proven": s.proven or ""} for s in r.stats[:32]]}
    if not d["lines"]:
        d["lines"] = [{"move": r.move_name, "value": _value(r.value), "verdict": d["verdict"],
                       "pv": list(r.pv)}]
    return d


def _verdict(r):
    if not r.proven:
        return ""
    if r.proven in ("win", "loss") and r.score.startswith(r.proven + " in "):
        return r.score
    return r.proven


class Stopped(Exception):
    """A search stopped before its budget was spent; ``partial`` is what it had (a result
    dict) or None."""

    def __init__(self, partial=None):
        super().__init__("stopped")
        self.partial = partial


def search(game, position, spec, seconds, memory_mb, observer=None, multipv=1, seed=0,
           progress=None, allow_cmd=False):
    """Search ``position`` (a text of ``game``) with the engine ``spec`` for at most
    ``seconds``, its tree or table at most ``memory_mb``; ``progress(dict)`` is called
    with each live report.  Returns a result dict (best move, value or proven verdict,
    lines, counts); raises Stopped when interrupted (Ctrl-C, SIGINT), BadRequest for a
    position or engine that cannot be searched."""
    from roost.search.alphabeta import SearchInterrupted
    from roost.search.result import SearchResult
    from roost.search.limit import Limit
    state = parse(game, position)
    if state.is_over:
        raise BadRequest("the game is over: there is nothing to search")
    if state.is_chance:
        raise BadRequest("chance is to act here, not a player: play an outcome first")
    if _runs_a_program(spec) and not allow_cmd:
        raise BadRequest("cmd: engines are refused here")
    try:
        engine = _capped_engine(spec, state, seconds, memory_mb)
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None
    options = {}
    if observer is not None and observer != state.player:
        if not engine.any_seat:
            raise BadRequest(f"engine '{engine.kind}' analyses for the player to move only")
        options["observer"] = observer
    if progress is not None:
        options["progress"] = lambda p: progress(_progress_dict(p))
    if multipv > 1 and engine.gives_lines(state):
        options["multipv"] = multipv
        if engine.kind == "ab":
            seconds /= min(multipv, len(state.legal()))    # alpha-beta searches once a line
    try:
        r = engine.choose(state, Limit(time=seconds), seed=seed, **options)
    except SearchInterrupted as e:
        partial = e.partial
        raise Stopped(_result_dict(partial, state) if isinstance(partial, SearchResult) else None) from None
    except KeyboardInterrupt:
        raise Stopped(None) from None
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None
    finally:
        engine.close()
    d = _result_dict(r, state)
    if _names_auto(spec):
        d["engine"] = f"{spec.strip()} ({d['engine']})"
    return d


def evaluate(game, position, spec, seconds, memory_mb, seed=0):
    """Every seat's expected result at ``position`` as a quick search sees it: a list (a
    finished game: its result), None for a seat the engine does not value."""
    state = parse(game, position)
    n = state.players
    if state.is_over:
        return list(state.result())
    if state.is_chance:
        return [None] * n
    r = search(game, position, spec, seconds, memory_mb, seed=seed)
    if r["values"]:
        return r["values"]
    out = [None] * n
    out[r["player"]] = r["value"]
    if n == 2 and r["value"] is not None:
        out[1 - r["player"]] = round(1.0 - r["value"], 4)
    return out


# ---------------------------------------------------------------------------- tournaments
def _store_errors():
    from roost.arena.records import RecordError
    from roost.arena.store import StoreError
    return (StoreError, RecordError)


def is_database(path):
    from roost.arena.records import is_database as check
    return os.path.isfile(path) and check(path)


def tournament_summary(path, anchor=0):
    """A stored tournament: its configuration, the engines ranked with Elo and 95%
    intervals, the crosstable, head-to-head and SPRT figures, and the ratings picture."""
    from roost.arena.picture import ratings_svg
    from roost.arena.tournament import result_from_db, summary_dict
    try:
        res = result_from_db(path, anchor=anchor)
    except _store_errors() + (_roost_errors(),) as e:
        raise BadRequest(str(e)) from None
    d = summary_dict(res)
    d["title"] = res.config.game.title
    d["names"] = res.config.names()
    d.pop("db", None)
    if res.ratings:
        names = d["names"]
        rows = [(names[i], res.ratings.elo[i], None if i == res.anchor else res.ratings.err[i],
                 i == res.anchor) for i in res.ratings.order()]
        d["ratings_picture"] = ratings_svg(rows, f"{res.config.game.title}: Elo ratings",
                                           f"{res.counted} games, anchor {names[res.anchor]} = 0")
    else:
        d["ratings_picture"] = None
    return d


def tournament_games(path):
    """Every finished game of a tournament: id, seats (engine specs), result, plies,
    seconds, when it finished and how it ended (the game's reason or a forfeit, None where
    the record does not say)."""
    from roost.arena.match import ending_text
    from roost.arena.store import Store
    try:
        with Store.open(path) as store:
            rows = list(store.games())
    except _store_errors() as e:
        raise BadRequest(str(e)) from None
    return [{"id": r["id"], "seats": r["seats"], "result": r["result"], "plies": r["plies"],
             "seconds": round(r["seconds"], 3), "finished": r["finished"],
             "ending": ending_text(r["ending"], r["seats"]) if r.get("ending") else None}
            for r in rows]


def game_record(path, game_id):
    """A finished game as a page replays it: the game, seats, start position, the moves
    (names, movers, seconds), the result and its words, how it ended."""
    from roost.arena.match import ending_text
    from roost.arena.records import load_game, replay
    try:
        record = load_game(path, game_id)
        states = replay(record)
    except _store_errors() as e:
        raise NotFound(str(e)) from None
    final = states[-1][0]
    return {"id": record.id, "game": record.game, "players": record.players, "seats": record.seats,
            "start": record.start, "moves": list(record.names), "movers": list(record.movers),
            "times": [round(t, 4) for t in record.times], "result": list(record.result),
            "result_text": (winner_text(final) if final.is_over
                            else result_words(record.result, side_names(final)) if record.result
                            else None),
            "ending": ending_text(record.ending, record.seats) if record.ending else None,
            "sides": side_names(final), "live": False}


def games_in_progress(path):
    """The games of a tournament being played now, each as ``game_record`` gives a
    finished one (``live`` True, ``result``, ``result_text`` and ``ending`` None, ``moves``,
    ``movers`` and ``times`` so far, chance outcomes included), under the id the finished
    game will have: what the tournament database's live table holds (the tournament writes
    it a few times a second).  Cheap enough to be called every half second: no integrity
    check of the file, no finished game read.  [] when none is being played."""
    from roost.arena.store import Store
    try:
        with Store.open(path, check=False) as store:
            live = store.live_games()
            config = store.config() if live else None
    except _store_errors() as e:
        raise BadRequest(str(e)) from None
    out = []
    for g in live:
        sides = _sides_of(config["game"], g["start"], config["players"])
        out.append({"id": g["id"], "game": config["game"], "players": config["players"],
                    "seats": g["seats"], "start": g["start"], "moves": g["moves"],
                    "movers": g["movers"], "times": g["times"], "result": None,
                    "result_text": None, "ending": None, "sides": sides, "live": True})
    return out


_SIDES = {}          # (game, start text) -> the side names (a start is parsed once)


def _sides_of(game, start, players):
    key = (game, start)
    if key not in _SIDES:
        if len(_SIDES) > 256:
            _SIDES.clear()
        try:
            state = parse(game, start)
        except (BadRequest, NotFound):
            return [f"seat {p}" for p in range(players)]
        _SIDES[key] = side_names(state)
    return _SIDES[key]


# ------------------------------------------------------------------------------- clocks
def time_control(text):
    """``"BASE+INC"`` seconds -> (base, increment); BadRequest names the fault."""
    from roost.arena.match import TimeControl
    try:
        tc = TimeControl.parse(text)
    except _roost_errors() as e:
        raise BadRequest(str(e)) from None
    return tc.base, tc.inc


CLOCK_MARGIN = 0.1       # seconds past a clock's end before a seat loses on time (the arena's)


class MoveClock:
    """One seat's time manager in one game: the seconds its next move may take."""

    def __init__(self, state):
        from roost.search.timeman import TimeManager
        self.manager = TimeManager.for_state(state)

    def seconds(self, state, remaining, increment):
        from roost.search.timeman import Clock
        return self.manager.allocate(Clock(max(0.0, remaining), increment), state)


def forfeit_result(players, seat):
    """The result of a game that seat ``seat`` resigned or lost on time: 0 for it, the win
    shared by the others."""
    from roost.arena.match import forfeit_result as result_of
    return list(result_of(players, seat))
