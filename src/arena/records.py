"""Game records outside the database: ``roost export`` writes JSON lines, one finished game
a line; ``read_records`` reads such a file or a tournament database back as GameRecords;
``replay`` steps a record's moves through the game again and checks they still hold.

An exported line is a JSON object with ``format`` = ``roost-game/1`` and the fields of the
database's games table (``id``, ``game``, ``players``, ``seats`` (engine specs), ``engines``
(roster indices), ``seed``, ``start``, ``moves`` (names), ``move_ids``, ``movers`` (-1 for
chance), ``times`` (seconds per move), ``result``, ``final``, ``plies``, ``seconds``,
``finished``, ``worker``, ``roost_version``, ``python_version``, ``ending``: why the game
ended, ``{"reason", "detail"}`` as the game says it (``State.ending()``: ``repetition``,
``gathered``, ...), or ``{"seat", "reason", "detail"}`` for the seat that forfeited, null in a
record that does not say) and ``tournament``, the tournament's configuration.
"""
import json
import os

from roost.arena.match import GameRecord
from roost.arena.store import Store, StoreError, _HEADER
from roost.core.errors import MoveError, RoostError
from roost.core.moves import play_line

FORMAT = "roost-game/1"
_NEEDED = ("game", "players", "seats", "start", "seed", "moves", "move_ids", "movers", "times",
           "result")


class RecordError(RoostError):
    """A record file that cannot be read, or a record that does not replay."""


def export_lines(db):
    """The JSON lines (strings, no newline) of every game in a tournament database."""
    with Store.open(db) as store:
        config = store.config()
        for row in store.games():
            d = {"format": FORMAT, **row, "game": config["game"], "players": config["players"],
                 "tournament": config}
            yield json.dumps(d, separators=(",", ":"))


def is_database(path):
    try:
        with open(path, "rb") as fh:
            return fh.read(len(_HEADER)) == _HEADER
    except OSError:
        return False


def read_records(path):
    """Every game record in ``path``: a tournament database or a JSON-lines export."""
    if not os.path.exists(path):
        raise RecordError(f"{path}: no such file")
    if os.path.isdir(path):
        raise RecordError(f"{path} is a directory, not a game record file")
    if is_database(path):
        with Store.open(path) as store:
            config = store.config()
            return [GameRecord.from_dict({**row, "game": config["game"], "players": config["players"]})
                    for row in store.games()]
    out = []
    try:
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    d = json.loads(line)
                except ValueError:
                    raise RecordError(f"{path}, line {n}: not JSON (expected a game record a line, "
                                      "as roost export writes)") from None
                if not isinstance(d, dict) or d.get("format") != FORMAT:
                    raise RecordError(f"{path}, line {n}: not a roost game record (no "
                                      f"\"format\": \"{FORMAT}\")")
                missing = [k for k in _NEEDED if k not in d]
                if missing:
                    raise RecordError(f"{path}, line {n}: the record lacks {', '.join(missing)}")
                try:
                    out.append(GameRecord.from_dict(d))
                except (TypeError, ValueError, KeyError) as e:
                    raise RecordError(f"{path}, line {n}: a malformed record ({e})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is neither a roost tournament database nor a JSON-lines "
                          "export (not text)") from None
    return out


def load_game(path, game_id):
    """The record of game ``game_id`` in a database or export."""
    if is_database(path):
        with Store.open(path) as store:
            row = store.game(game_id)
            if row is None:
                n = store.count()
                raise RecordError(f"{path} has no game {game_id} ({n} games stored"
                                  + (f"; ids {min(store.done_ids())}..{max(store.done_ids())}" if n else "")
                                  + ")")
            config = store.config()
            return GameRecord.from_dict({**row, "game": config["game"], "players": config["players"]})
    recs = read_records(path)
    for r in recs:
        if r.id == game_id:
            return r
    raise RecordError(f"{path} has no game {game_id} ({len(recs)} records)")


def game_in_progress(path, game_id=None):
    """``(game in progress or None, finished record or None, config)`` of a tournament
    database, cheaply (no integrity check, no other game read): the game ``game_id`` (the
    lowest id in progress when None) as ``Store.live_games`` gives it while it is played,
    its record once it is stored."""
    if not is_database(path):
        raise RecordError(f"{path} is not a tournament database: only a database holds games in "
                          "progress")
    with Store.open(path, check=False) as store:
        live = store.live_games()
        config = store.config()
        if game_id is None and live:
            game_id = live[0]["id"]
        playing = next((g for g in live if g["id"] == game_id), None)
        row = store.game(game_id) if playing is None and game_id is not None else None
    done = GameRecord.from_dict({**row, "game": config["game"], "players": config["players"]}) \
        if row is not None else None
    return playing, done, config


def _names(game, final, state):
    """Whether the text ``final`` names ``state``'s position though it is not its text: a
    final text that leaves out how the game ended (a game drawn by repetition written
    without its mark) parses to the same position, only not finished."""
    try:
        return game.parse(final).hash == state.hash
    except RoostError:
        return False


def replay(record, game=None):
    """The states of a record, from the start through every move: a list of
    ``(state, mover, move name or None)``.  RecordError if a move does not replay."""
    from roost.core.games import get_game
    game = game or get_game(record.game)
    try:
        state = game.parse(record.start)
    except RoostError as e:
        raise RecordError(f"game {record.id}: its start position does not parse ({e})") from None
    out = [(state.copy(), None, None)]
    for ply, (move, name, mover) in enumerate(zip(record.moves, record.names, record.movers), 1):
        if state.is_over:
            raise RecordError(f"game {record.id}: move {ply} ({name}) comes after the game ended")
        try:
            replays = (mover == (-1 if state.is_chance else state.player)
                       and state.move_name(move) == name)
            if replays:
                play_line(state, [move], first=ply)
        except MoveError:            # a LineError included: not a move, or not legal here
            replays = False
        if not replays:
            raise RecordError(f"game {record.id}: move {ply} ({name}) does not replay from the "
                              "recorded position")
        out.append((state.copy(), mover, name))
    if record.final and state.text() != record.final and not _names(game, record.final, state):
        raise RecordError(f"game {record.id}: replaying the moves does not reach the recorded "
                          "final position")
    if state.is_over and tuple(state.result()) != tuple(record.result):
        raise RecordError(f"game {record.id}: the replayed result differs from the recorded one")
    return out
